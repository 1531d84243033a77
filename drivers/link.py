"""The link layer every serial device driver uses, over any pyserial port.

A Link turns a byte pipe (`serial.serial_for_url`: a tty, a pty, loop://,
socket://, spy://) into a reliable, watched message channel: handshake with
version and identity, stop-and-wait acknowledged sends with bounded
retransmits, duplicate suppression, heartbeats both ways and a watchdog that
declares the peer malfunctioning when it goes silent or babbles. The rules
are in docs/protocols.md.

Nothing here sleeps or reads the wall clock on its own: `service()` does one
round of work at the time the injected clock says, so tests drive it step by
step; `start()` runs it on a reader thread that `close()` stops and joins. That
thread sleeps in select() on the port and a wake-up pipe, so a frame or a
send() is handled at once rather than at the next tick; the tick still bounds
the wait for retransmits, heartbeats and ports select() cannot watch (loop://).
"""

import os
import select
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass

import serial

from drivers.codec import (DUPLICATE, HELLO_SEQ, PROTOCOL_NAME, PROTOCOL_VERSION, Codec, Frame,
                           MsgType, next_seq)
from drivers.errors import (DeviceError, HandshakeTimeout, IdentityMismatch, LinkClosed,
                            VersionMismatch)

MS = 1_000_000  # ns

# Fault kinds: each is reported once through on_fault until clear_fault().
SILENT, BABBLING, NO_ACK, RESTARTED, HANDSHAKE, PORT = (
    "silent", "babbling", "no_ack", "restarted", "handshake", "port")


@dataclass(frozen=True)
class Message:
    """A sequenced message the peer sent, delivered once, stamped when its frame was read."""
    type: MsgType
    payload: dict
    seq: int
    ts_ns: int


@dataclass
class _Outgoing:
    type: MsgType
    payload: dict
    seq: int
    raw: bytes
    sent: int = 0          # transmissions so far
    due_ns: int = 0        # when to retransmit


class Link:
    """One end of a tablectl-serial link (controller or device role).

    Callbacks (all optional, called outside the link's lock):
      on_message(Message)             a new EVENT/COMMAND from the peer
      on_fault(reason: str)           the peer is malfunctioning (silent, babbling, no ack, ...)
      on_rejected(reason, raw_hex)    every frame or run of bytes the decoder threw away
    """

    def __init__(self, port, identity, *, role="controller", expect=None, codec=None,
                 clock=time.monotonic_ns, on_message=None, on_fault=None, on_rejected=None,
                 ack_timeout_ms=50, max_retries=4, heartbeat_interval_ms=500,
                 heartbeat_timeout_ms=2000, babble_limit=8, babble_window_ms=1000,
                 frame_gap_ms=100, boot_id=None, own_port=False):
        if role not in ("controller", "device"):
            raise DeviceError("link role must be 'controller' or 'device', not %r" % (role,))
        self.port = port
        self.identity = dict(identity)
        self.role = role
        self.expect = dict(expect or {})
        self.codec = codec or Codec()
        self.clock = clock
        self.on_message = on_message
        self.on_fault = on_fault
        self.on_rejected = on_rejected
        self.ack_timeout_ns = ack_timeout_ms * MS
        self.max_retries = max_retries
        self.heartbeat_interval_ns = heartbeat_interval_ms * MS
        self.heartbeat_timeout_ns = heartbeat_timeout_ms * MS
        self.babble_limit = babble_limit
        self.babble_window_ns = babble_window_ms * MS
        self.frame_gap_ns = frame_gap_ms * MS
        self.boot_id = boot_id if boot_id is not None else int.from_bytes(os.urandom(4), "big")
        self.data_type = MsgType.COMMAND if role == "controller" else MsgType.EVENT
        self.stats = Counter()
        self.faults = {}                 # active fault kind -> reason
        self.peer = None                 # the peer's HELLO payload
        self.handshake_error = None
        self._own_port = own_port
        self._lock = threading.RLock()
        self._queue = deque()            # payloads waiting to be sent
        self._inflight = None            # the one _Outgoing awaiting its ACK
        self._out_seq = HELLO_SEQ
        self._hello_acked = False
        self._handshaking = False
        now = clock()
        self._last_heard = self._last_sent = self._last_rx = now
        self._rejections = deque()
        self._thread = None
        self._stop = threading.Event()
        self._wake = None                # (read fd, write fd) of the thread's wake-up pipe
        self._wake_lock = threading.Lock()   # a nudge never writes to a closed (reused) fd
        self._closed = False

    @classmethod
    def open(cls, url, identity, *, baudrate=115200, **kwargs):
        """A Link over `serial.serial_for_url(url)`, which close() also closes."""
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=0)
        return cls(port, identity, own_port=True, **kwargs)

    # -- state ---------------------------------------------------------------

    @property
    def connected(self):
        """Both HELLOs exchanged and accepted."""
        return self._hello_acked and self.peer is not None and self.handshake_error is None

    @property
    def fault(self):
        """The first active fault's reason, or None."""
        return next(iter(self.faults.values()), None)

    @property
    def idle(self):
        """Nothing queued and nothing awaiting an acknowledgement."""
        return not self._queue and self._inflight is None

    def clear_fault(self):
        """Forget the latched faults (after an authorized clear); new ones report again."""
        with self._lock:
            self.faults.clear()
            self._rejections.clear()

    # -- sending and handshake -----------------------------------------------

    def send(self, payload, msg_type=None):
        """Queue a message; it goes out, acknowledged, once the link is connected."""
        msg_type = MsgType(msg_type or self.data_type)
        self.codec.encode(msg_type, 1, payload)      # FrameError now, not in service()
        with self._lock:
            if self._closed:
                raise LinkClosed("link to %s is closed" % self._describe(self.peer))
            self._queue.append((msg_type, dict(payload)))
            queued = len(self._queue)
        self._nudge()
        return queued

    def begin_handshake(self):
        """Send our HELLO (restarting our outbound sequence); service() completes it."""
        with self._lock:
            self.handshake_error = None
            self.faults.pop(HANDSHAKE, None)
            self._handshaking = True
            self._send_hello(self.clock())

    def connect(self, timeout_ms=2000, poll_s=0.001):
        """Handshake and wait: returns the peer's HELLO, or raises a HandshakeError.

        The timeout runs on the link clock and on real time, whichever ends
        first, so a frozen test clock cannot hang.
        """
        self.begin_handshake()
        start, wall = self.clock(), time.monotonic()
        while True:
            if self._thread is None:
                self.service()
            if self.handshake_error is not None:
                raise self.handshake_error
            if self.connected:
                return dict(self.peer)
            if (self.clock() - start >= timeout_ms * MS
                    or time.monotonic() - wall >= timeout_ms / 1000):
                raise HandshakeTimeout("no handshake with the peer of %s within %d ms"
                                       % (self._describe(self.identity), timeout_ms))
            time.sleep(poll_s)

    def drain(self, timeout_ms=2000, poll_s=0.001):
        """Service until everything sent is acknowledged; False if the timeout ran out."""
        start, wall = self.clock(), time.monotonic()
        while not self.idle:
            if self._thread is None:
                self.service()
            if (self.clock() - start >= timeout_ms * MS
                    or time.monotonic() - wall >= timeout_ms / 1000):
                return False
            time.sleep(poll_s)
        return True

    # -- the work ------------------------------------------------------------

    def service(self):
        """Read what arrived, acknowledge, retransmit, beat, watch. Returns new Messages."""
        calls, delivered = [], []
        with self._lock:
            if self._closed:
                return delivered
            now = self.clock()
            try:
                items = self._read(now)
                for item in items:
                    if isinstance(item, Frame):
                        self._on_frame(item, now, calls, delivered)
                    else:
                        self._on_rejected(item, now, calls)
                self._on_time(now, calls)
            except (serial.SerialException, OSError) as exc:
                self._raise_fault(PORT, "serial port error: %s" % exc, calls)
        self._run_calls(calls)
        return delivered

    def start(self, tick_s=0.002):
        """Run service() on a reader thread until close()."""
        if self._thread is None:
            self._stop.clear()
            wake = os.pipe()
            for fd in wake:
                os.set_blocking(fd, False)
            with self._wake_lock:
                self._wake = wake
            self._thread = threading.Thread(target=self._run, args=(tick_s,), daemon=True,
                                            name="tablectl-link-%s" % self.identity.get("id", "?"))
            self._thread.start()

    def close(self):
        """Stop and join the reader thread; close the port if the link opened it."""
        self._stop.set()
        self._nudge()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._wake_lock:
            wake, self._wake = self._wake, None
        for fd in wake or ():
            os.close(fd)
        with self._lock:
            self._closed = True
            if self._own_port:
                self.port.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _run(self, tick_s):
        fd = self._port_fd()
        ready = False
        while not self._stop.is_set():
            read_before = self.stats["bytes_in"]
            try:
                self.service()
            except Exception as exc:  # a callback failed: report, keep the thread's promise
                self._run_calls([(self.on_fault, "link thread stopped: %r" % exc)])
                return
            if fd is None or (ready and self.stats["bytes_in"] == read_before):
                # select() cannot watch this port, or it says readable with nothing to read
                # (a hung-up pty): the tick keeps the thread from spinning
                ready = False
                self._stop.wait(tick_s)
            else:
                ready = self._sleep(fd, tick_s)

    def _port_fd(self):
        try:
            fd = self.port.fileno()
        except (AttributeError, OSError, ValueError, serial.SerialException):
            return None
        return fd if isinstance(fd, int) and fd >= 0 else None

    def _sleep(self, fd, tick_s):
        """Until the port has bytes, send()/close() nudges, or a tick passes; True if the
        port was readable."""
        wake = self._wake[0]
        try:
            ready = select.select([fd, wake], [], [], tick_s)[0]
        except (OSError, ValueError):            # the port closed under us: service() says so
            self._stop.wait(tick_s)
            return False
        if wake in ready:
            try:
                os.read(wake, 512)
            except BlockingIOError:
                pass
        return fd in ready

    def _nudge(self):
        with self._wake_lock:
            if self._wake is not None:
                try:
                    os.write(self._wake[1], b"\0")
                except BlockingIOError:           # full: the thread wakes anyway
                    pass

    # -- internals -----------------------------------------------------------

    def _read(self, now):
        waiting = self.port.in_waiting
        data = self.port.read(waiting) if waiting else b""
        if data:
            self._last_rx = now
            self.stats["bytes_in"] += len(data)
            return self.codec.feed(data)
        if self.codec.pending and now - self._last_rx >= self.frame_gap_ns:
            return self.codec.expire()
        return []

    def _write(self, raw, now):
        self.port.write(raw)
        self._last_sent = now
        self.stats["frames_out"] += 1

    def _ack(self, seq, now):
        self._write(self.codec.encode(MsgType.ACK, seq), now)
        self.stats["acks_sent"] += 1

    def _transmit(self, out, now):
        if out.sent:
            self.stats["retransmits"] += 1
        self._write(out.raw, now)
        # Backoff doubles: sent at t, t+T, t+3T, t+7T ...
        out.due_ns = now + (self.ack_timeout_ns << out.sent)
        out.sent += 1

    def _send_hello(self, now):
        if self._inflight is not None and self._inflight.type is not MsgType.HELLO:
            self._queue.appendleft((self._inflight.type, self._inflight.payload))
        payload = dict(self.identity, proto=PROTOCOL_VERSION, protocol=PROTOCOL_NAME,
                       role=self.role, boot=self.boot_id)
        self._hello_acked = False
        self._out_seq = HELLO_SEQ
        self._inflight = _Outgoing(MsgType.HELLO, payload, HELLO_SEQ,
                                   self.codec.encode(MsgType.HELLO, HELLO_SEQ, payload))
        self._transmit(self._inflight, now)

    def _next_from_queue(self, now):
        if self._inflight is None and self._queue and self.connected:
            msg_type, payload = self._queue.popleft()
            self._out_seq = next_seq(self._out_seq)
            raw = self.codec.encode(msg_type, self._out_seq, payload)
            self._inflight = _Outgoing(msg_type, payload, self._out_seq, raw)
            self._transmit(self._inflight, now)

    def _on_frame(self, frame, now, calls, delivered):
        self._last_heard = now
        if frame.type is MsgType.ACK:
            out = self._inflight
            if out is not None and frame.seq == out.seq:
                self._inflight = None
                self.stats["acked"] += 1
                if out.type is MsgType.HELLO:
                    self._hello_acked = True
            else:
                self.stats["stale_acks"] += 1
        elif frame.type is MsgType.HELLO:
            self._ack(frame.seq, now)
            self._on_hello(frame.payload, now, calls)
        elif frame.type is not MsgType.HEARTBEAT:
            if self.handshake_error is not None:     # no session with a peer we refused
                self.stats["ignored"] += 1
                return
            self._ack(frame.seq, now)
            message = Message(frame.type, frame.payload, frame.seq, now)
            delivered.append(message)
            self.stats["delivered"] += 1
            if self.on_message is not None:
                calls.append((self.on_message, message))

    def _on_hello(self, hello, now, calls):
        if hello.get("proto") != PROTOCOL_VERSION:
            self._handshake_failed(VersionMismatch(
                "protocol version mismatch: this end (%s) speaks %s v%s, the peer (%s) speaks v%s"
                % (self._describe(self.identity), PROTOCOL_NAME, PROTOCOL_VERSION,
                   self._describe(hello), hello.get("proto"))), calls)
            return
        wrong = {k: hello.get(k) for k, v in self.expect.items() if hello.get(k) != v}
        if wrong:
            self._handshake_failed(IdentityMismatch(
                "peer is %s, expected %s (differs in %s)" % (
                    self._describe(hello), self._describe(self.expect), ", ".join(sorted(wrong)))),
                calls)
            return
        known = self.peer
        self.peer = dict(hello)
        if known is not None and known.get("boot") == hello.get("boot"):
            return                                   # a retransmitted HELLO
        if known is not None and self.connected:
            self._raise_fault(RESTARTED, "peer %s restarted (boot %s -> %s)" % (
                self._describe(hello), known.get("boot"), hello.get("boot")), calls)
            self._send_hello(now)                    # its decoder lost our session
        elif not self._handshaking:
            self._handshaking = True                 # a passive end answers a HELLO with its own
            self._send_hello(now)

    def _handshake_failed(self, error, calls):
        self.handshake_error = error
        self._raise_fault(HANDSHAKE, str(error), calls)

    def _on_rejected(self, rejected, now, calls):
        self.stats["rejected"] += 1
        if rejected.reason == DUPLICATE:             # our ACK was lost: acknowledge again
            self._ack(rejected.seq, now)
        if self.on_rejected is not None:
            calls.append((self.on_rejected, rejected.reason, rejected.raw.hex()))
        window = self._rejections
        window.append(now)
        while window and now - window[0] > self.babble_window_ns:
            window.popleft()
        if len(window) > self.babble_limit:
            self._raise_fault(BABBLING, "babbling: %d rejected frames within %d ms (limit %d)"
                              % (len(window), self.babble_window_ns // MS, self.babble_limit),
                              calls)

    def _on_time(self, now, calls):
        out = self._inflight
        if out is not None and now >= out.due_ns:
            if out.sent <= self.max_retries:
                self._transmit(out, now)
            elif out.type is MsgType.HELLO:
                self._inflight = None
                self._handshake_failed(HandshakeTimeout(
                    "no ACK to HELLO from the peer of %s after %d transmissions"
                    % (self._describe(self.identity), out.sent)), calls)
            else:
                self._inflight = None
                self._raise_fault(NO_ACK, "no ACK for seq %d %r after %d transmissions"
                                  % (out.seq, out.payload, out.sent), calls)
                self._send_hello(now)                # restart our sequence; the queue goes on
        self._next_from_queue(now)
        if not self.connected:
            return
        if now - self._last_sent >= self.heartbeat_interval_ns:
            self._write(self.codec.encode(MsgType.HEARTBEAT, 0), now)
            self.stats["heartbeats_sent"] += 1
        silent = now - self._last_heard
        if silent > self.heartbeat_timeout_ns:
            self._raise_fault(SILENT, "silent: nothing from %s for %d ms (timeout %d ms)" % (
                self._describe(self.peer), silent // MS, self.heartbeat_timeout_ns // MS), calls)

    def _raise_fault(self, kind, reason, calls):
        if kind not in self.faults:
            self.faults[kind] = reason
            self.stats["faults"] += 1
            if self.on_fault is not None:
                calls.append((self.on_fault, reason))

    @staticmethod
    def _describe(who):
        if not who:
            return "unknown"
        return " ".join(str(who[k]) for k in ("device", "id") if k in who) or repr(who)

    @staticmethod
    def _run_calls(calls):
        for fn, *args in calls:
            if fn is not None:
                fn(*args)
