"""The console served on a serial line: a pty under simulation, a real tty on a table.

One thread per console: it waits (select) on the line and on a wake-up pipe, feeds what
arrives to the Session, writes back what the Session answers (buffered, never blocking
the thread on a line nobody reads), and ticks the idle timer every `tick_s`. Under
simulation the console holds the master of a fresh pty whose slave it has set to raw mode
and closed again, so a terminal program (socat, picocom, minicom, screen) can come and go on
the slave's path as on a serial cable. When it goes (quits without `logout`: the last
slave closes, a read gives EIO; on a serial adapter EOF or EIO) that is a hang-up, and the
session ends: whoever connects next finds the log-in prompt.

A lock-out and its clearing are announced to the logged-in session as they happen: the
controller's loop calls the console's watcher (TableController.watchers), which only queues
the line and wakes the console's thread; that thread writes it between the keys typed
(Session.announce redraws the prompt and the partial line).
"""

import errno
import logging
import os
import queue
import select
import termios
import threading
import tty as ttymod

from controller.console.auth import LoginGuard, PinStore
from controller.console.commands import Commands
from controller.console.session import Session
from controller.errors import ConsoleError

log = logging.getLogger(__name__)
MAX_PENDING = 256 * 1024          # bytes waiting for a reader before output is dropped
BAUD = {9600: termios.B9600, 19200: termios.B19200, 38400: termios.B38400,
        57600: termios.B57600, 115200: termios.B115200}


class ConsoleHandle:
    """A running console: `path` to attach a terminal to, `stop()` to end it."""

    def __init__(self, session, fd, path, own_fds, reopen=None, retry_s=1.0):
        """`reopen()` -> (fd, own_fds) opens the line again (a serial adapter): with it, a
        line that is absent, or goes (EOF, EIO), is tried again every `retry_s` seconds,
        and the console waits for it instead of stopping."""
        self.session = session
        self.fd = fd
        self.path = path
        self._own = list(own_fds)
        self._reopen = reopen
        self.retry_s = retry_s
        self._next_try = 0.0
        self.absent = fd is None
        self._wake_r, self._wake_w = os.pipe()
        self._stopping = False
        self._out = bytearray()
        self.dropped = 0
        self.hangups = 0
        self._announcements = queue.SimpleQueue()
        self._unwatch = None
        self.thread = threading.Thread(target=self._run, name="tablectl-console", daemon=True)

    def start(self):
        self.thread.start()
        return self

    def set_link(self, provider):
        """The floor link's state for `show link` and `status`: `provider()` returns
        {"up": bool, "since_ns": table ns, "waiting": rows not yet sent}, or None."""
        self.session.commands.link = provider

    def watch(self, controller, commands):
        """Announce `controller`'s lock-outs and clears on this console (see the docstring)."""
        def watcher(what, entry):            # the loop's thread: queue, wake, return
            self._announcements.put(commands.announcement(what, entry))
            try:
                os.write(self._wake_w, b"a")
            except OSError:
                pass
        controller.watchers.append(watcher)
        self._unwatch = lambda: controller.watchers.remove(watcher)
        commands.say = self.announce
        return self

    def announce(self, text):
        """A line for the logged-in session from any thread (queued; the console's thread
        writes it, as lock-outs are announced): the bench's autoplay, the floor link's integrity
        alarm (issue 31)."""
        self._announcements.put(text)
        try:
            os.write(self._wake_w, b"a")
        except OSError:
            pass

    def stop(self, timeout=5.0):
        """End the session (journaled), join the thread, close every fd. Idempotent."""
        if self._stopping and not self._own:
            return
        self._stopping = True
        if self._unwatch is not None:
            try:
                self._unwatch()
            except ValueError:
                pass
            self._unwatch = None
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass
        if self.thread.is_alive():
            self.thread.join(timeout)
            if self.thread.is_alive():
                raise ConsoleError("the console thread did not stop within %.1f s" % timeout)
        self.session.end("console stopped")
        self.session.commands.close()
        for fd in self._own + [self._wake_r, self._wake_w]:
            try:
                os.close(fd)
            except OSError:
                pass
        self._own = []

    # ---- the thread --------------------------------------------------------------------

    def _run(self):
        if self.fd is not None:
            self._queue(self.session.start())
        tick_s = 0.05
        while not self._stopping:
            if self.fd is None:
                self._try_open()
            lines = [] if self.fd is None else [self.fd]
            wants = lines if self._out else []
            try:
                readable, writable, _ = select.select(lines + [self._wake_r], wants, [], tick_s)
            except (OSError, ValueError):
                break
            if self._wake_r in readable:
                try:
                    woke = os.read(self._wake_r, 64)
                except OSError:
                    woke = b"x"
                if self._stopping or b"x" in woke:
                    break
            while True:
                try:
                    text = self._announcements.get_nowait()
                except queue.Empty:
                    break
                self._step(self.session.announce, text)
            if self.fd is not None and self.fd in readable:
                data = self._read()
                if data is None:
                    self._hangup()
                    if self._reopen is not None:
                        self._drop_line()
                elif data:
                    self._step(self.session.feed, data)
            if writable:
                self._flush()
            self._step(self.session.tick)

    def _step(self, fn, *args):
        try:
            self._queue(fn(*args))
        except Exception:                 # noqa: BLE001 - the console outlives a bug
            log.exception("console session")
            self._queue(b"\r\nconsole error: see the log\r\n")

    def _read(self):
        """The bytes typed; b"" for none now; None for a hang-up (EOF, or EIO: no terminal
        on the line, after one had been)."""
        try:
            data = os.read(self.fd, 1024)
        except BlockingIOError:
            return b""
        except OSError as e:               # EIO: no terminal on the line right now
            if e.errno != errno.EIO:
                log.warning("console line %s: %s", self.path, e)
            threading.Event().wait(0.05)
            return None
        if not data:                       # EOF: a serial adapter gone
            threading.Event().wait(0.05)
            return None
        return data

    def _try_open(self):
        """The absent line, tried again every retry_s (monotonic, real time: a port)."""
        import time
        now = time.monotonic()
        if self._reopen is None or now < self._next_try:
            return
        self._next_try = now + self.retry_s
        try:
            fd, own = self._reopen()
        except ConsoleError:
            return
        self.fd, self.absent = fd, False
        self._own += list(own)
        log.info("console line %s: present", self.path)
        self._queue(self.session.start())

    def _drop_line(self):
        """A serial line that went away: closed, and waited for again."""
        import time
        fd, self.fd, self.absent = self.fd, None, True
        self._out.clear()
        if fd in self._own:
            self._own.remove(fd)
        try:
            os.close(fd)
        except OSError:
            pass
        self._next_try = time.monotonic() + self.retry_s
        log.warning("console line %s: gone; waiting for it", self.path)

    def _hangup(self):
        """The terminal went away: end its session and drop what it had not read, so the
        next one starts at the log-in prompt (queued for it)."""
        if self.session.role is None and self.session.pending_role is None:
            return
        self.hangups += 1
        self._out.clear()
        try:
            termios.tcflush(self.fd, termios.TCIOFLUSH)
        except (OSError, termios.error):
            pass
        self._step(self.session.hangup)

    def _queue(self, data):
        if not data:
            return
        if len(self._out) + len(data) > MAX_PENDING:
            self.dropped += len(data)
            return
        self._out += data
        self._flush()

    def _flush(self):
        if self.fd is None:
            return
        while self._out:
            try:
                n = os.write(self.fd, self._out[:4096])
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                if e.errno not in (errno.EIO, errno.EAGAIN):
                    log.warning("console line %s: %s; output dropped", self.path, e)
                    self.dropped += len(self._out)
                    self._out.clear()
                return
            del self._out[:n]


def _open_pty():
    master, slave = os.openpty()
    ttymod.setraw(slave)                   # the line carries bytes; the console edits them
    path = os.ttyname(slave)
    # closed again (the settings stay with the pty): the master sees EIO when the last
    # terminal program on the slave goes, which is how a hang-up is noticed
    os.close(slave)
    os.set_blocking(master, False)
    return master, path, [master]


def _open_tty(path, baud):
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as e:
        raise ConsoleError("console line %s cannot be opened: %s" % (path, e.strerror))
    try:
        ttymod.setraw(fd)
        attrs = termios.tcgetattr(fd)
        attrs[2] |= termios.CLOCAL | termios.CREAD
        attrs[4] = attrs[5] = BAUD[baud]
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
    except (OSError, KeyError, termios.error) as e:
        os.close(fd)
        raise ConsoleError("console line %s cannot be set up: %s" % (path, e))
    return fd, path, [fd]


def start_console(controller, devices, *, clock, pin_store_path, journal=None, note=None,
                  tty=None, baud=115200, idle_s=300, max_failures=5, lock_s=300,
                  manifest_path=None, manifest_root=None, config=None, apply_timeout_s=2.0,
                  pin_params=None, link=None, lock_path=None):
    """Serve the technician console; returns (path, handle).

    controller      the TableController (read; events submitted to it)
    devices         {name: driver} (status(), selftest(), clear_fault())
    clock           monotonic ns for the idle timer and the log-in lock (injectable)
    pin_store_path  the PIN file `tablectl passwd` writes
    journal         what `events` reads (default: a journaled controller's file, else
                    controller.journal): a list of Events and Records, or anything with
                    iter_records() (controller/console/view.py)
    note            note(kind, **data) journals a console record (default controller.note)
    tty             a serial device path to serve instead of a new pty (at `baud`)
    idle_s, max_failures, lock_s   the session's idle end and the log-in lock-out
    manifest_path, manifest_root   for `verify` (default: controller/console/manifest.py)
    config          what `config show` prints (default the model's validated config; pass
                    it with its [controller] section to show devices, ports and pins)
    link            the floor link's state for `show link` (commands.Commands)
    lock_path       where the log-in lock survives a restart (default: the PIN file + .lock)
    """
    note = note or controller.note
    commands = Commands(controller, devices, journal=journal, note=note,
                        manifest_path=manifest_path, manifest_root=manifest_root,
                        config=config, apply_timeout_s=apply_timeout_s, link=link)
    store = PinStore(pin_store_path, **(pin_params or {}))
    guard = LoginGuard(clock, max_failures=max_failures, lock_s=lock_s,
                       state_path=lock_path or str(pin_store_path) + ".lock")
    if guard.problem:
        note("console_locked", failures=guard.failures, seconds=guard.lock_ns // 10 ** 9,
             reason=guard.problem)
    session = Session(commands, store.verify, guard, clock, note, idle_s=idle_s)
    reopen = None
    if tty:
        def reopen():
            return _open_tty(tty, baud)[::2]
        try:
            fd, path, own = _open_tty(tty, baud)
        except ConsoleError as e:
            # a missing console adapter never stops the controller: the console waits for it
            log.warning("%s; the console waits for it", e)
            note("console_line_absent", line=tty, reason=str(e))
            fd, path, own = None, tty, []
    else:
        fd, path, own = _open_pty()
    handle = ConsoleHandle(session, fd, path, own, reopen=reopen)
    note("console_started", line=path)
    handle.watch(controller, commands)
    return path, handle.start()
