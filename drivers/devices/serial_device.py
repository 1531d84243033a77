"""The part every serial device driver shares: a Link, a sink, counters, faults.

A driver is a Link (drivers/link.py) plus a translation from the device's
EVENT payloads (docs/protocols.md section 10) to the controller's Events.
Everything the link or the device reports as a malfunction becomes one
`Event("fault", {"device", "reason", "section"})`, so the controller has one
fault path whatever the device. Every Event is stamped with the monotonic ns
at which its frame was read (the link's clock), not when the controller saw it.

Nothing a device sends can raise here: every payload is cleaned (drivers/devices/fields.py:
no control characters or terminal escapes in device text, whole numbers within bounds)
before a subclass translates it, and anything a translation refuses -- or fails on -- is a
`bad_event`, acknowledged (the link delivered it) and never applied. Rejections reach the
controller counted, per reason: the first of a burst at once, then one report per reason
per `reject_interval_ms` with `count`, so a babbling device cannot flood the journal.
"""

import logging
import threading
import time
from collections import Counter

from controller.errors import TablectlError
from controller.events import Event
from drivers.devices.fields import FieldError, clean_payload, clean_text
from drivers.errors import DeviceError, HandshakeTimeout
from drivers.link import LINK_OPTIONS, MAX_SLEEP_S, Link

log = logging.getLogger(__name__)

CONTROLLER_IDENTITY = {"device": "controller", "id": "table"}


class SerialDevice:
    """Base of the serial drivers; a subclass sets `device`, `section` and `translate()`.

    `url` is any pyserial URL (a tty, a pty's path, socket://, spy://); `port`
    an already open port instead (tests). `on_rejected(device, reason, hex)`
    journals each malformed frame; `link_options` reach the Link (timeouts). `tick_s`
    None: no reader thread, the caller runs `link.service()` (the virtual-time table).
    """

    device = None          # the HELLO `device` the peer must announce
    section = None         # the regulation a malfunction of this device falls under

    def __init__(self, name=None, url=None, *, port=None, identity=None, clock=time.monotonic_ns,
                 on_rejected=None, expect_id=None, tick_s=0.002, reject_interval_ms=1000,
                 boot_id=None, **link_options):
        if (url is None) == (port is None):
            raise DeviceError("%s: give exactly one of url or port" % (name or self.device))
        unknown = sorted(set(link_options) - set(LINK_OPTIONS))
        if unknown:
            raise DeviceError("%s: unknown setting %s" % (name or self.device, ", ".join(unknown)))
        self.name = name or self.device
        self.url, self.port = url, port
        self.identity = dict(identity or CONTROLLER_IDENTITY)
        self.clock = clock
        self.on_rejected = on_rejected
        self.expect = {"device": self.device, **({"id": expect_id} if expect_id else {})}
        self.tick_s = tick_s
        self.link_options = link_options
        # our HELLO's boot id (random when None, as on a table; the virtual table draws it
        # from its seed, so the bytes on its lines replay too)
        self.boot_id = boot_id
        self.link = None
        self.sink = None
        self._running = False
        self.counters = Counter()          # events in, events out, faults
        self.rejected = Counter()          # malformed frames by reason
        self.reject_interval_ns = int(reject_interval_ms * 1_000_000)
        self._batches = {}                 # reason -> [count not yet reported, last hex, since]
        self._batch_lock = threading.Lock()
        self.last_fault = None
        self.last_selftest = None
        self.device_status = None
        self._selftest_done = threading.Condition()
        # waiter(done, timeout_s): how selftest() waits for its answer when no reader thread
        # runs (tick_s None): hal_sim/virtual.py steps the whole table until done() or the
        # timeout passes on its virtual clock
        self.waiter = None

    # -- lifecycle ----------------------------------------------------------------

    def start(self, sink):
        """Open the port, start the link's reader thread and the handshake."""
        if self.link is not None:
            raise DeviceError("%s: already started" % self.name)
        self.sink = sink
        kwargs = dict(role="controller", expect=self.expect, clock=self.clock,
                      on_message=self._on_message, on_fault=self._on_link_fault,
                      on_rejected=self._on_rejected, on_tick=self._flush_rejected,
                      on_due=self._rejected_due, boot_id=self.boot_id,
                      **self.link_options)
        if self.url is not None:
            self.link = Link.open(self.url, self.identity, **kwargs)
        else:
            self.link = Link(self.port, self.identity, **kwargs)
        self._running = True
        self.link.begin_handshake()
        if self.tick_s is not None:     # None: no reader thread; the caller services the link
            self.link.start(self.tick_s, MAX_SLEEP_S)
        return self

    def stop(self, drain_ms=200):
        """Stop and join the link's thread; close the port the driver opened. Commands still
        queued to a connected device (a display's safe text at shutdown) go out first, for
        at most `drain_ms`; rejections still batched are reported."""
        if self.link is not None:
            if self.link.connected and not self.link.idle:
                self.link.drain(timeout_ms=drain_ms)
            self.link.close()
            self.stop_reporting()
        self._running = False

    def to_safe(self):
        """A serial device has no outputs of ours to make safe; stop asking it for work."""
        if self.link is not None:
            self.link.discard_queued()

    @property
    def state(self):
        """stopped, absent (no port), fault (latched until clear_fault), connecting or
        ready."""
        if not self._running:
            return "stopped"
        if self.link is not None and self.link.absent:
            return "absent"                # its port fault is latched too; this says more
        if self.last_fault is not None:
            return "fault"
        return "ready" if self.connected else "connecting"

    @property
    def connected(self):
        return self.link is not None and self.link.connected

    def wait_connected(self, timeout_s=1.0):
        """True once the handshake completed (real time, bounded); False at once when the
        peer was refused (a HELLO that failed the check; an unanswered HELLO is retried)."""
        end = time.monotonic() + timeout_s
        while not self.connected:
            error = self.link.handshake_error if self.link else None
            if time.monotonic() >= end or (error is not None
                                           and not isinstance(error, HandshakeTimeout)):
                return False
            time.sleep(0.001)
        return True

    # -- commands -----------------------------------------------------------------

    def command(self, cmd, **args):
        """Queue a COMMAND for the device; it goes out acknowledged once connected."""
        if self.link is None:
            raise DeviceError("%s: not started" % self.name)
        self.counters["commands"] += 1
        self.link.send(dict(args, cmd=cmd))

    def selftest(self, timeout_s=1.0):
        """Ask the device to test itself; True only if it answered ok in time. A device not
        connected (absent, silent, refused) fails at once, and nothing is queued for it."""
        if not self.connected:
            self.last_selftest = {"ok": False, "detail": "not connected (%s)" % self.state}
            return False
        if self.waiter is not None:
            self.last_selftest = None
            self.command("selftest")
            self.waiter(lambda: self.last_selftest is not None, timeout_s)
            return bool(self.last_selftest and self.last_selftest.get("ok"))
        with self._selftest_done:
            self.last_selftest = None
            self.command("selftest")
            self._selftest_done.wait_for(lambda: self.last_selftest is not None, timeout_s)
            return bool(self.last_selftest and self.last_selftest.get("ok"))

    def status(self):
        """JSON-able: state, counters, frames rejected by reason, the last fault."""
        link = self.link
        return {"device": self.name, "type": self.device, "state": self.state,
                "connected": self.connected, "counters": dict(self.counters),
                "rejected": dict(self.rejected),
                "link": dict(link.stats) if link is not None else {},
                "peer": self._clean_peer(link.peer if link is not None else None),
                "last_fault": self.last_fault, "last_selftest": self.last_selftest,
                "device_status": self.device_status}

    def _clean_peer(self, peer):
        """The peer's HELLO as a person may read it, a new dict each time; cleaned again
        only when the HELLO is another (the console's screen asks every device's status
        after every card of a soak, issue 33)."""
        if not peer:
            return None
        seen = repr(peer)
        if seen != getattr(self, "_peer_seen", None):
            self._peer_clean = {clean_text(k): clean_text(v) for k, v in peer.items()}
            self._peer_seen = seen
        return dict(self._peer_clean)

    def clear_fault(self):
        """After an authorized clear: forget latched faults so new ones report again."""
        if self.link is not None:
            self.link.clear_fault()
        self.last_fault = None

    # -- what arrives -------------------------------------------------------------

    def translate(self, payload):
        """The controller Events (kind, data) for one device EVENT payload; [] for none."""
        return []

    def _emit(self, kind, data, ts_ns):
        self.counters["events_out"] += 1
        if self.sink is not None:
            try:
                self.sink(Event(kind, data, source=self.name, ts_ns=ts_ns))
            except Exception as exc:      # a failing sink must not stop the link's thread
                self.counters["sink_errors"] += 1
                log.exception("%s: the sink refused %s: %r", self.name, kind, exc)

    def _fault(self, reason, ts_ns, **detail):
        self.counters["faults"] += 1
        self.last_fault = dict(detail, reason=reason, ts_ns=ts_ns)
        # "device" is the kind of device the games know ("dealing_shoe"), "name" this one
        self._emit("fault", dict(detail, device=self.device, name=self.name, reason=reason,
                                 section=self.section), ts_ns)

    def _on_message(self, message):
        self.counters["events_in"] += 1
        try:
            payload = clean_payload(message.payload)
            self._apply(payload, message.ts_ns)
        except Exception as exc:          # noqa: BLE001 - nothing a device sends may raise
            if not isinstance(exc, (FieldError, KeyError, TypeError, ValueError,
                                    TablectlError)):
                self.counters["translate_errors"] += 1
                log.exception("%s: translating %r failed", self.name, message.payload)
            self._on_rejected("bad_event", clean_text("%r: %s" % (message.payload, exc), 200))

    def _apply(self, payload, ts_ns):
        kind = payload.get("kind")
        if kind == "selftest":
            ok = payload.get("ok")
            if not isinstance(ok, bool):
                raise FieldError("selftest: field 'ok' %r is not true or false" % (ok,))
            with self._selftest_done:
                self.last_selftest = {"ok": ok, "detail": payload.get("detail")}
                self._selftest_done.notify_all()
            if not ok:
                self._fault("selftest", ts_ns, detail=payload.get("detail"))
            return
        if kind == "fault":
            self._fault(clean_text(payload.get("reason", "fault")), ts_ns)
            return
        if kind == "status":
            if payload.get("state") not in ("ready", "fault", "busy"):
                raise FieldError("status: field 'state' %r is not ready, fault or busy"
                                 % (payload.get("state"),))
            self.device_status = {k: v for k, v in payload.items() if k != "kind"}
            return
        if kind == "fault_cleared":
            self.counters["faults_cleared"] += 1
            return
        for kind_out, data in self.translate(payload):
            if kind_out == "fault":
                self._fault(data.pop("reason"), ts_ns, **data)
            else:
                self._emit(kind_out, data, ts_ns)

    def _on_link_fault(self, text):
        link = self.link
        kind = next((k for k, v in list(link.faults.items()) if v == text), "link") \
            if link is not None else "link"
        self._fault(kind, self.clock(), detail=clean_text(text, 200))

    # -- rejections, counted ------------------------------------------------------------

    def _on_rejected(self, reason, raw_hex):
        """Count one rejection; report the first of a burst now, the rest in batches."""
        now = self.clock()
        with self._batch_lock:
            self.rejected[reason] += 1
            batch = self._batches.get(reason)
            if batch is None or now - batch[2] >= self.reject_interval_ns:
                flush = [(reason, batch[1], batch[0])] if batch and batch[0] else []
                self._batches[reason] = [0, None, now]
                flush.append((reason, raw_hex, 1))
            else:
                batch[0] += 1
                batch[1] = raw_hex
                flush = []
        self._report(flush)

    def _rejected_due(self):
        """When the oldest batch of rejections is due for its report (the link sleeps
        until then, not a tick at a time). None at once while no batch is open: the
        virtual table's scheduler asks every link this at every pass (issue 33)."""
        if not self._batches:
            return None
        with self._batch_lock:
            starts = [batch[2] for batch in self._batches.values()]
        return min(starts) + self.reject_interval_ns if starts else None

    def _flush_rejected(self):
        """The link's tick: report each reason's batch once its interval is over."""
        if not self._batches:
            return
        now = self.clock()
        flush = []
        with self._batch_lock:
            for reason, batch in list(self._batches.items()):
                if now - batch[2] >= self.reject_interval_ns:
                    if batch[0]:
                        flush.append((reason, batch[1], batch[0]))
                    del self._batches[reason]
        self._report(flush)

    def _report(self, flush):
        if self.on_rejected is None:
            return
        for reason, raw_hex, count in flush:
            try:
                self.on_rejected(self.name, reason, raw_hex, count)
            except Exception:                 # noqa: BLE001 - the journal's problem, not the line's
                self.counters["sink_errors"] += 1
                log.exception("%s: reporting a rejected frame failed", self.name)

    def stop_reporting(self):
        """Report what is still batched (at shutdown)."""
        self.reject_interval_ns = 0
        self._flush_rejected()
