"""The systemd heartbeat: READY=1, WATCHDOG=1 from the controller loop, STOPPING=1.

deploy/tablectl.service runs the controller as `Type=notify` with `WatchdogSec=`. systemd
then expects READY=1 once the table is up, and WATCHDOG=1 more often than WatchdogSec, or
it kills the process (SIGABRT) and `Restart=on-failure` starts it again, which resumes from
the journal. The keep-alive must come from the loop thread itself, not from a timer thread
of its own: a timer would keep pinging while the loop is stuck, which is the one failure
the watchdog is there to catch.

The protocol (sd_notify(3)) is one datagram of newline-separated KEY=VALUE lines to the
AF_UNIX socket named by NOTIFY_SOCKET; a name starting with "@" is in the abstract
namespace. It is spoken here with the standard library, so the controller needs no
libsystemd binding. Without NOTIFY_SOCKET (a bench, `tablectl sim`, the tests) every call
is a no-op.

Wiring: `Heartbeat` has the controller-policy interface (controller/policies), so it runs
on every iteration of TableController's loop when it is one of the policies:

    TableController(table, policies=default_policies(game) + [heartbeat])

and the shutdown path calls `heartbeat.stopping()` before `ctl.stop()`. It can equally be
called from the loop directly as `heartbeat.tick()`. Its clock is its own (real monotonic
time), never the controller's injected one: systemd's deadline is in real time.
"""

import logging
import os
import socket
import threading
import time

log = logging.getLogger(__name__)


def socket_address(name):
    """The address to sendto() for a NOTIFY_SOCKET value, or None if it is not one we speak.

    "@name" is the abstract namespace (a leading NUL byte); a path must be absolute, as
    sd_notify requires. Other forms (vsock:...) are refused rather than guessed at.
    """
    if not name:
        return None
    if name.startswith("@"):
        return "\0" + name[1:]
    if name.startswith("/"):
        return name
    return None


def watchdog_interval_ns(environ, pid=None):
    """Half of WATCHDOG_USEC in ns, or None when the watchdog is not for this process.

    Half, as sd_watchdog_enabled(3) recommends, so one late loop iteration is not a kill.
    WATCHDOG_PID, when set, names the process the watchdog is for (sd_watchdog_enabled
    ignores it in any other process, e.g. a child that inherited the environment).
    """
    usec = environ.get("WATCHDOG_USEC")
    if not usec:
        return None
    wpid = environ.get("WATCHDOG_PID")
    if wpid and wpid != str(os.getpid() if pid is None else pid):
        return None
    try:
        usec = int(usec)
    except ValueError:
        log.warning("WATCHDOG_USEC=%r is not a number; no watchdog heartbeat", usec)
        return None
    return usec * 1000 // 2 if usec > 0 else None


class Notifier:
    """Sends sd_notify messages; a no-op without a usable NOTIFY_SOCKET.

    A send that fails is logged (once until one succeeds) and never raised: the caller is
    the controller loop, and a heartbeat that cannot be delivered is already handled by
    systemd's watchdog killing the process.
    """

    def __init__(self, environ=None):
        environ = os.environ if environ is None else environ
        name = environ.get("NOTIFY_SOCKET")
        self.address = socket_address(name)
        if name and self.address is None:
            log.warning("NOTIFY_SOCKET=%r is not a path or @abstract name; not notifying", name)
        self._sock = None
        self._failing = False

    @property
    def enabled(self):
        return self.address is not None

    def send(self, *lines):
        """Send the lines as one datagram; True when delivered (False when disabled)."""
        if self.address is None:
            return False
        data = "\n".join(lines).encode()
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(data, self.address)
        except OSError as e:
            if not self._failing:
                log.error("sd_notify %r to %r failed: %s", lines, self.address, e)
            self._failing = True
            return False
        self._failing = False
        return True

    def close(self):
        sock, self._sock = self._sock, None
        if sock is not None:
            sock.close()


class Heartbeat:
    """READY=1 on the first tick, WATCHDOG=1 every half WATCHDOG_USEC after it, STOPPING=1.

    `tick()` is cheap enough to call on every loop iteration (the loop wakes at least every
    50 ms): it compares the clock and sends only when the interval has passed. READY=1 is
    sent by the first tick, because the loop running is what "ready" means for a table
    controller; the boot checks before it are covered by TimeoutStartSec, as systemd only
    arms the watchdog after READY=1. STATUS= carries the table's state when it changes, for
    `systemctl status` (a state name, never a card).
    """

    def __init__(self, clock=time.monotonic_ns, environ=None, notifier=None, pid=None):
        environ = os.environ if environ is None else environ
        self.clock = clock
        self.notifier = Notifier(environ) if notifier is None else notifier
        self.interval_ns = watchdog_interval_ns(environ, pid) if self.notifier.enabled else None
        self.is_ready = False
        self.stopped = False
        self.last_ns = None          # when WATCHDOG=1 (or READY=1) was last sent
        self._status = None
        # stopping() runs on the shutting-down thread while the loop may still tick: without
        # the lock a WATCHDOG=1 could follow STOPPING=1 on a socket reopened after close().
        self._lock = threading.Lock()

    def ready(self):
        """Send READY=1 once; the watchdog interval counts from here."""
        with self._lock:
            self._ready()

    def _ready(self):
        if self.is_ready or self.stopped:
            return
        self.is_ready = True
        self.last_ns = self.clock()
        self.notifier.send("READY=1", "STATUS=running")

    def tick(self, ctl=None, now_ns=None):
        """One loop iteration: READY=1 the first time, then WATCHDOG=1 when it is due.

        The arguments are those of a controller policy's tick and are optional; `now_ns`
        (the controller's clock, possibly simulated) is deliberately not used.
        """
        with self._lock:
            self._tick(ctl)

    def _tick(self, ctl):
        if self.stopped:
            return
        if not self.is_ready:
            self._ready()
        elif self.interval_ns is not None:
            now = self.clock()
            if now - self.last_ns >= self.interval_ns:
                self.last_ns = now
                self.notifier.send("WATCHDOG=1")
        if ctl is not None and self.notifier.enabled:
            state = getattr(getattr(ctl, "model", None), "state", None)
            if state is not None and state != self._status:
                self._status = state
                self.notifier.send("STATUS=table %s" % state)

    def stopping(self):
        """Send STOPPING=1 once: systemd then expects the exit, not a heartbeat."""
        with self._lock:
            if self.stopped:
                return
            self.stopped = True
            self.notifier.send("STOPPING=1")
            self.notifier.close()

    # ---- the rest of the controller-policy interface (controller/policies.Policy) ----------

    # Not part of the table's state: the journal neither names it nor snapshots it
    # (controller/journal/state.journaled), so a replay without it equals the live table.
    JOURNALED = False

    def before(self, ctl, event):
        return None

    def after(self, ctl, event):
        pass

    def deadline(self):
        """None, always: the controller compares deadlines with its own clock, which may be
        simulated, and its loop wakes every 50 ms anyway, far more often than WatchdogSec."""
        return None

    def accepting(self, ctl):
        return True

    def attention(self, ctl):
        return False
