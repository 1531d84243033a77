"""The transport of a tablectl-serial link: the port, the reader thread, the callbacks.

drivers/link_protocol.py holds the rules and no I/O; this holds the I/O and no rules, as
pyserial's serial.threaded.ReaderThread drives a Protocol. A Link owns one pyserial port
(`serial.serial_for_url`: a tty, a pty, loop://, socket://, spy://), feeds the protocol
what the port read and the injected clock's time, writes what the protocol says, and calls
on_message / on_fault / on_rejected outside its lock.

A Link made from a URL (Link.open) survives a missing or unplugged adapter: the port fault
is reported once, the port is opened again every `reopen_ms`, and a port that appears
starts a new handshake -- so a table boots with a device absent, and the device connects
when it is plugged in (docs/protocols.md section 9). A bad URL is refused at once.

`service()` does one round of work at the time the clock says, so tests drive it step by
step; `start()` runs it on a thread that sleeps in select() on the port and on a wake-up
pipe that send() writes, so a frame or a send is handled at once (the tick still bounds the
sleep, for the timers and for ports select() cannot watch, such as loop://).
"""

import logging
import os
import select
import threading
import time

import serial

from drivers.errors import DeviceError, HandshakeTimeout, LinkClosed
from drivers.link_protocol import MS, Deliver, Fault, LinkProtocol, Reject, Write, describe

log = logging.getLogger(__name__)

PROTOCOL_OPTIONS = ("ack_timeout_ms", "max_retries", "heartbeat_interval_ms",
                    "heartbeat_timeout_ms", "babble_limit", "babble_window_ms", "frame_gap_ms",
                    "hello_retry_ms")
LINK_OPTIONS = PROTOCOL_OPTIONS + ("reopen_ms", "baudrate")
# the longest a reader thread sleeps between its timers on a port select() watches: the
# timers themselves wake it on time (next_due); this bounds a clock that is not real time
MAX_SLEEP_S = 0.1


def check_url(url):
    """Refuse a URL pyserial cannot open by its form (DeviceError naming it); a path that
    does not exist (yet) is fine: an adapter may be plugged in later."""
    if not isinstance(url, str) or not url or "\0" in url:
        raise DeviceError("serial url %r is not a path or a pyserial URL" % (url,))
    if "://" in url:
        scheme = url.split("://", 1)[0].lower()
        import importlib

        import serial

        def found(package):
            try:
                importlib.import_module("%s.protocol_%s" % (package, scheme))
                return True
            except ImportError:
                return False
        # where serial_for_url itself looks: its packages, and any a bench registered
        if not any(found(p) for p in serial.protocol_handler_packages):
            raise DeviceError("serial url %r: unknown scheme %r (a path such as /dev/ttyUSB0, "
                              "or socket://, rfc2217://, loop://, spy://, alt://, hwgrep://)"
                              % (url, scheme)) from None
    elif not url.startswith("/"):
        raise DeviceError("serial url %r: a device path is absolute (/dev/ttyUSB0)" % url)


def real_time(clock):
    """Whether `clock` moves with time.monotonic_ns (itself, or a clock that says so, such
    as the table clock: an offset on it), so a timer due at its time T is due in real time
    T - now from now."""
    return clock is time.monotonic_ns or bool(getattr(clock, "real_time", False))


class Link:
    """One end of a tablectl-serial link over a port (controller or device role).

    Callbacks (all optional, called outside the link's lock):
      on_message(Message)             a new EVENT/COMMAND from the peer
      on_fault(reason: str)           the peer is malfunctioning (silent, babbling, no ack, ...)
      on_rejected(reason, raw_hex)    every frame or run of bytes the decoder threw away
      on_tick()                       after every service round (a driver's batching timer)
      on_due() -> ns or None          when the caller's own timer next needs a service
                                      round (that batching timer's next report)
    """

    def __init__(self, port, identity, *, role="controller", expect=None, codec=None,
                 clock=time.monotonic_ns, on_message=None, on_fault=None, on_rejected=None,
                 on_tick=None, on_due=None, boot_id=None, own_port=False, url=None, baudrate=115200,
                 reopen_ms=1000, **timing):
        unknown = sorted(set(timing) - set(PROTOCOL_OPTIONS))
        if unknown:
            raise DeviceError("unknown link setting %s; one of %s"
                              % (", ".join(unknown), ", ".join(LINK_OPTIONS)))
        self.port = port
        self.url, self.baudrate = url, baudrate
        self.clock = clock
        self.protocol = LinkProtocol(identity, role=role, expect=expect, codec=codec,
                                     now=clock(), boot_id=boot_id, **timing)
        self.on_message, self.on_fault = on_message, on_fault
        self.on_rejected, self.on_tick, self.on_due = on_rejected, on_tick, on_due
        self.reopen_ns = reopen_ms * MS
        self._reopen_at = None
        self._own_port = own_port
        self._lock = threading.RLock()
        self._pending = []               # actions made outside service() (a port absent)
        self._thread = None
        self._stop = threading.Event()
        self._wake = None                # (read fd, write fd) of the thread's wake-up pipe
        self._wake_lock = threading.Lock()   # a nudge never writes to a closed (reused) fd
        self._closed = False
        self._started = False
        # called where the reader thread is woken (a send, a handshake begun, close): a
        # caller that services the link itself instead of a thread (the virtual table's
        # scheduler) learns that its timers changed, as the thread would
        self.on_wake = None
        # A caller that moves an idle link's timers and counts on in bulk, later
        # (LinkProtocol.idle_timers, idle_counts: the virtual table's scheduler), brings
        # them up to date here: `before_use` before the link is used (serviced, sent on, a
        # handshake begun, closed) or its handshake error read, `before_look` before its
        # counters or decoder are read
        self.before_use = self.before_look = None

    @classmethod
    def open(cls, url, identity, *, baudrate=115200, **kwargs):
        """A Link over `serial.serial_for_url(url)`, which close() also closes. A bad URL is
        a DeviceError now; a port that cannot be opened (absent) is a port fault, and is
        tried again every reopen_ms."""
        check_url(url)
        link = cls(None, identity, own_port=True, url=url, baudrate=baudrate, **kwargs)
        link._try_open(link.clock())
        return link

    # -- the protocol's state ------------------------------------------------------------

    identity = property(lambda self: self.protocol.identity)
    role = property(lambda self: self.protocol.role)
    expect = property(lambda self: self.protocol.expect)
    @property
    def codec(self):
        if self.before_look is not None:
            self.before_look()
        return self.protocol.codec

    @property
    def stats(self):
        if self.before_look is not None:
            self.before_look()
        return self.protocol.stats

    @property
    def handshake_error(self):
        if self.before_use is not None:
            self.before_use()
        return self.protocol.handshake_error

    faults = property(lambda self: self.protocol.faults)
    peer = property(lambda self: self.protocol.peer)
    connected = property(lambda self: self.protocol.connected)
    fault = property(lambda self: self.protocol.fault)
    idle = property(lambda self: self.protocol.idle)
    data_type = property(lambda self: self.protocol.data_type)

    @property
    def boot_id(self):
        return self.protocol.boot_id

    @boot_id.setter
    def boot_id(self, value):
        with self._lock:
            self.protocol.boot_id = value

    @property
    def absent(self):
        """A URL's port is not open (the adapter is missing or was unplugged)."""
        return self.port is None

    def clear_fault(self):
        with self._lock:
            self.protocol.clear_fault()

    def discard_queued(self):
        with self._lock:
            return self.protocol.discard_queued()

    # -- sending and handshake -----------------------------------------------------------

    def send(self, payload, msg_type=None):
        """Queue a message; it goes out, acknowledged, once the link is connected."""
        if self.before_use is not None:
            self.before_use()
        with self._lock:
            if self._closed:
                raise LinkClosed("link to %s is closed" % describe(self.peer))
            queued = self.protocol.send(payload, msg_type)
        self._nudge()
        return queued

    def begin_handshake(self):
        """Send our HELLO (restarting our outbound sequence); service() completes it."""
        if self.before_use is not None:
            self.before_use()
        with self._lock:
            self._started = True
            if self.port is not None:
                self._do(self.protocol.begin_handshake(self.clock()))
        self._nudge()                            # the HELLO's retransmit timer is new

    def connect(self, timeout_ms=2000, poll_s=0.001):
        """Handshake and wait: returns the peer's HELLO, or raises a HandshakeError.

        The timeout runs on the link clock and on real time, whichever ends first, so a
        frozen test clock cannot hang.
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
                                       % (describe(self.identity), timeout_ms))
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

    # -- the work ------------------------------------------------------------------------

    def service(self):
        """Read what arrived, acknowledge, retransmit, beat, watch. Returns new Messages."""
        if self.before_use is not None:
            self.before_use()
        with self._lock:
            if self._closed:
                return []
            now = self.clock()
            actions, self._pending = self._pending, []
            if self.port is None:
                if self.url is not None and self._reopen_at is not None \
                        and now >= self._reopen_at:
                    self._try_open(now)
                    actions += self._pending
                    self._pending = []
            else:
                try:
                    waiting = self.port.in_waiting
                    data = self.port.read(waiting) if waiting else b""
                    actions += self._do(self.protocol.receive(data, now))
                    actions += self._do(self.protocol.poll(now))
                except (serial.SerialException, OSError) as exc:
                    actions += self._lost("serial port error: %s" % exc, now)
        return self._dispatch(actions)

    def _do(self, actions):
        """Carry out the writes (in order); the rest is for the callbacks."""
        rest = []
        for action in actions:
            if type(action) is Write:
                self.port.write(action.raw)
            else:
                rest.append(action)
        return rest

    def _lost(self, reason, now):
        if self.url is None:                     # a port handed to us: report, go on
            return self.protocol.port_fault(reason)
        actions = self.protocol.port_lost(reason, now)
        self._close_port()                       # ours to reopen: close it, try again later
        self._reopen_at = now + self.reopen_ns
        return actions

    def _try_open(self, now):
        try:
            self.port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0)
        except (serial.SerialException, OSError, ValueError) as exc:
            self.port = None
            self._reopen_at = now + self.reopen_ns
            self._pending += self.protocol.port_lost(
                "serial port %s absent: %s" % (self.url, exc), now)
            return False
        self._reopen_at = None
        self.protocol.stats["port_opens"] += 1
        if self._started:
            try:
                self._pending += self._do(self.protocol.begin_handshake(now))
            except (serial.SerialException, OSError) as exc:
                self._pending += self._lost("serial port error: %s" % exc, now)
        return True

    def _close_port(self):
        port, self.port = self.port, None
        if port is not None:
            try:
                port.close()
            except Exception:                    # noqa: BLE001 - a dead port may refuse
                pass

    def _dispatch(self, actions):
        delivered = []
        for action in actions:
            kind = type(action)
            try:
                if kind is Deliver:
                    delivered.append(action.message)
                    if self.on_message is not None:
                        self.on_message(action.message)
                elif kind is Fault:
                    if self.on_fault is not None:
                        self.on_fault(action.reason)
                elif kind is Reject:
                    if self.on_rejected is not None:
                        self.on_rejected(action.reason, action.raw.hex())
            except Exception:                    # noqa: BLE001 - a callback's bug is not the line's
                self.protocol.stats["callback_errors"] += 1
                log.exception("link %s: a callback failed on %r", describe(self.identity),
                              action)
        if self.on_tick is not None:
            try:
                self.on_tick()
            except Exception:                    # noqa: BLE001
                self.protocol.stats["callback_errors"] += 1
                log.exception("link %s: on_tick failed", describe(self.identity))
        return delivered

    def start(self, tick_s=0.002, max_sleep_s=None):
        """Run service() on a reader thread until close().

        The thread sleeps until the port has bytes, a send() or close() wakes it, or the
        next timer is due (`next_due`: the protocol's, the reopen, `on_due`'s), so an idle
        line costs no wake-ups between its heartbeats. That takes a clock that moves in
        real time (`real_time(clock)`); the sleep is bounded by `max_sleep_s` all the same.
        A test's clock, which jumps when the test says and wakes nobody, is looked at
        every `tick_s`, as is a port select() cannot watch (loop://)."""
        if max_sleep_s is None or not real_time(self.clock):
            max_sleep_s = tick_s
        if self._thread is None:
            self._stop.clear()
            wake = os.pipe()
            for fd in wake:
                os.set_blocking(fd, False)
            with self._wake_lock:
                self._wake = wake
            self._thread = threading.Thread(target=self._run, daemon=True,
                                            args=(tick_s, max_sleep_s),
                                            name="tablectl-link-%s" % self.identity.get("id", "?"))
            self._thread.start()

    def close(self):
        """Stop and join the reader thread; close the port if the link opened it."""
        if self.before_use is not None:
            self.before_use()
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
                self._close_port()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def next_due(self):
        """The clock time of the next timer a service round must see, or None."""
        with self._lock:
            if self._pending:
                return 0
            # an absent port: its reopen (set only for a link made from a URL)
            due = [self.protocol.next_due() if self.port is not None else self._reopen_at]
        if self.on_due is not None:
            try:
                due.append(self.on_due())
            except Exception:                    # noqa: BLE001 - a callback's bug: tick
                log.exception("link %s: on_due failed", describe(self.identity))
                return 0
        due = [d for d in due if d is not None]
        return min(due) if due else None

    def _sleep_s(self, longest_s):
        due = self.next_due()
        if due is None:
            return longest_s
        return min(longest_s, max(0.0, (due - self.clock()) / 1e9))

    def _run(self, tick_s, max_sleep_s):
        ready = False
        while not self._stop.is_set():
            read_before = self.stats["bytes_in"]
            try:
                self.service()
            except Exception:                    # noqa: BLE001 - never lose the thread
                self.protocol.stats["service_errors"] += 1
                log.exception("link %s: service failed", describe(self.identity))
            fd = self._port_fd()
            if self.port is None:                # absent: nothing to read until the reopen
                ready = False
                self._stop.wait(self._sleep_s(max_sleep_s))
            elif fd is None or (ready and self.stats["bytes_in"] == read_before):
                # select() cannot watch this port, or it says readable with nothing to read
                # (a hung-up pty): the tick keeps the thread from spinning
                ready = False
                self._stop.wait(tick_s)
            else:
                ready = self._sleep(fd, self._sleep_s(max_sleep_s))

    def _port_fd(self):
        port = self.port
        if port is None:
            return None
        try:
            fd = port.fileno()
        except (AttributeError, OSError, ValueError, serial.SerialException):
            return None
        return fd if isinstance(fd, int) and fd >= 0 else None

    def _sleep(self, fd, tick_s):
        """Until the port has bytes, send()/close() nudges, or a tick passes; True if the
        port was readable."""
        with self._wake_lock:
            wake = self._wake[0] if self._wake else None
        if wake is None:
            self._stop.wait(tick_s)
            return False
        try:
            ready = select.select([fd, wake], [], [], tick_s)[0]
        except (OSError, ValueError):            # the port closed under us: service() says so
            self._stop.wait(tick_s)
            return False
        if wake in ready:
            try:
                os.read(wake, 512)
            except (BlockingIOError, OSError):
                pass
        return fd in ready

    def _nudge(self):
        with self._wake_lock:
            if self._wake is not None:
                try:
                    os.write(self._wake[1], b"\0")
                except BlockingIOError:           # full: the thread wakes anyway
                    pass
        if self.on_wake is not None:             # no thread: whoever services us is told
            self.on_wake()
