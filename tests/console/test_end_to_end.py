"""The console on a real pty, driven end to end by a real terminal program (socat).

socat attaches to the console's pty exactly as it would to /dev/ttyUSB0, in raw mode, and
relays our keystrokes and the console's answers: a log-in (with a Backspace), `status`,
`lockouts`, `clear` of a real shoe jam through the real driver and the simulated shoe's
self-test, and `logout`. Nothing is left behind: threads (tests/conftest.py) and fds.
"""
import os
import select
import shutil
import subprocess
import time

import pytest

from controller.console import start_console
from controller.console.auth import PinStore
from controller.games.events import Event
from controller.lab.sim import Simulation
from tests.console.support import FAST, PINS, pin_store, said
from tests.controller.helpers import make

SOCAT = shutil.which("socat") or next((p for p in ("/usr/bin/socat", "/bin/socat")
                                       if os.access(p, os.X_OK)), None)


def fds():
    return set(os.listdir("/proc/self/fd"))


def wait(pred, timeout=30.0):
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


class Terminal:
    """socat between our pipes and the serial line: what a technician's laptop does."""

    def __init__(self, path):
        self.proc = subprocess.Popen([SOCAT, "-", "%s,rawer,b115200" % path],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.seen = b""

    def send(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def expect(self, marker, timeout=30.0):
        """Everything up to and including `marker`; AssertionError with the screen if not."""
        end = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while marker not in self.seen:
            left = end - time.monotonic()
            assert left > 0, "no %r from the console; the screen: %r" % (marker, self.seen)
            if select.select([fd], [], [], left)[0]:
                chunk = os.read(fd, 4096)
                assert chunk, "socat ended: %r" % self.proc.stderr.read()
                self.seen += chunk
        i = self.seen.index(marker) + len(marker)
        out, self.seen = self.seen[:i], self.seen[i:]
        return out.decode("ascii", "replace")

    def command(self, line, prompt=b"> "):
        self.send(line.encode() + b"\r")
        return self.expect(prompt)

    def login(self, role, pin, timeout=5.0):
        """Log in as `role` with `pin`; what the console said, up to its prompt."""
        self.send(b"\r")
        self.expect(b"role: ")
        self.send(role.encode() + b"\r")
        self.expect(b"PIN: ")
        self.send(pin.encode() + b"\r")
        return self.expect(("tablectl[%s]> " % role).encode(), timeout)

    def ask(self, line, prompt=b"> "):
        """`line?` typed without Enter: the console answers at once and redraws the line,
        which is then erased (Ctrl-U) so the next command starts on an empty one."""
        self.send(line.encode() + b"?")
        out = self.expect(prompt + line.encode())
        self.send(b"\x15")
        self.expect(prompt + b"\x1b[K")
        return out

    def close(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self.proc.stdout.close()
        self.proc.stderr.close()


@pytest.fixture
def socat():
    if SOCAT is None:
        pytest.skip("socat is not installed (apt-get install socat); the end-to-end console "
                    "test needs a real terminal program on the pty")
    return SOCAT


@pytest.mark.reg("583.13(e)")
def test_socat_logs_in_reads_status_and_lockouts_clears_a_shoe_jam_and_logs_out(tmp_path,
                                                                                socat):
    before = fds()
    pins = pin_store(tmp_path)
    sim = Simulation("flop-poker", seed=1)
    try:
        ctl = sim.ctl
        ctl.start()                                   # the controller loop on its thread
        path, console = start_console(ctl, sim.drivers, clock=time.monotonic_ns,
                                      pin_store_path=pins.path, pin_params=FAST)
        try:
            term = Terminal(path)
            try:
                term.send(b"\r")
                term.expect(b"role: ")
                term.send(b"floorpersom\x7fn\r")      # a typo, erased with DEL
                assert term.expect(b"PIN: ").endswith("floorpersom\b \bn\r\nPIN: ")
                term.send(PINS["floorperson"].encode() + b"\r")
                login = term.expect(b"tablectl[floorperson]> ")
                assert "logged in as floorperson" in login and PINS["floorperson"] not in login

                status = term.command("status")
                assert "flop-poker" in status and "state        closed" in status
                assert "shoe ready" in status

                sim.sim.serial["shoe"].jam()          # the real device's jam, over the line
                announced = term.expect(b"tablectl[floorperson]> ")     # unasked, at once
                # one name per device (issue 35): the configured one, never the games' kind
                assert "*** LOCK-OUT" in announced and "device shoe: jam" in announced
                assert "dealing_shoe" not in announced
                assert ctl.model.state == "locked_out"
                lockouts = term.command("lockouts")
                assert "IN FORCE" in lockouts and "device shoe: jam" in said(lockouts)
                assert "dealing_shoe" not in lockouts
                assert "shoe fault" in term.command("status")

                cleared = term.command("clear")
                assert "self-test shoe: pass" in cleared
                assert "lock-out cleared by floorperson; the table is closed" in cleared
                assert "*** lock-out cleared" in term.expect(b"tablectl[floorperson]> ")
                assert ctl.model.state == "closed" and ctl.lockouts[-1]["cleared"]
                assert sim.drivers["shoe"].state == "ready"
                assert "cleared" in term.command("lockouts")

                term.send(b"logout\r")
                assert "floorperson logged out" in term.expect(b"role: ")
            finally:
                term.close()
        finally:
            console.stop()
    finally:
        ctl.stop()
        sim.close()
    kinds = [getattr(e, "kind", None) for e in ctl.journal]
    assert kinds.index("console_login") < kinds.index("clear")
    clear = next(e for e in ctl.journal if isinstance(e, Event) and e.kind == "clear")
    assert clear.data == {"role": "floorperson", "selftest": True, "device": "dealing_shoe",
                          "at": "console", "check": "device"} and clear.source == "console"
    commands = [(r.data["role"], r.data["command"]) for r in ctl.journal.records("console")]
    assert commands == [("floorperson", c) for c in ("status", "lockouts", "status", "clear",
                                                     "lockouts")]
    assert ctl.journal.records("console_logout")[-1].data["reason"] == "logout"
    assert fds() == before


def test_start_console_serves_a_pty_and_stop_leaves_nothing_behind(tmp_path):
    before = fds()
    ctl, _, clock = make("flop-poker")
    store = PinStore(str(tmp_path / "pins.json"), **FAST)
    store.set("technician", PINS["technician"])
    path, console = start_console(ctl, {}, clock=time.monotonic_ns, pin_store_path=store.path,
                                  pin_params=FAST)
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    try:
        screen = b""

        def until(marker):
            nonlocal screen
            end = time.monotonic() + 5
            while marker not in screen:
                assert time.monotonic() < end, screen
                if select.select([fd], [], [], 0.1)[0]:
                    screen += os.read(fd, 4096)
            out, screen = screen, b""
            return out

        until(b"role: ")
        os.write(fd, b"technician\n" + PINS["technician"].encode() + b"\n")
        until(b"tablectl[technician]> ")
        assert console.thread.is_alive() and console.path == path
        console.stop()                                # with the terminal still on the line
    finally:
        os.close(fd)
    console.stop()                                    # idempotent
    assert not console.thread.is_alive()
    assert ctl.journal.records("console_logout")[-1].data == {
        "role": "technician", "reason": "console stopped", "session": 1}
    assert ctl.journal.records("console_started")[0].data["line"] == path
    assert fds() == before


def test_a_missing_console_adapter_never_stops_the_console_and_an_unplugged_one_is_awaited(
        tmp_path):
    """The console's serial adapter absent at start: the console starts and waits; when it
    appears (a pty's slave stands in for /dev/tablectl/console) the log-in prompt is served;
    unplugged (its far end closes: EIO), the session ends and the console waits again."""
    before = fds()
    ctl, _, clock = make("flop-poker")
    store = PinStore(str(tmp_path / "pins.json"), **FAST)
    store.set("technician", PINS["technician"])
    line = str(tmp_path / "console")                 # like /dev/tablectl/console: not there
    path, console = start_console(ctl, {}, clock=time.monotonic_ns, pin_store_path=store.path,
                                  pin_params=FAST, tty=line)
    try:
        assert console.absent and path == line
        assert ctl.journal.records("console_line_absent")[0].data["line"] == line
        master, slave = os.openpty()                  # the adapter is plugged in
        os.symlink(os.ttyname(slave), line)
        os.close(slave)
        screen = b""

        def until(marker, timeout=30.0):
            nonlocal screen
            end = time.monotonic() + timeout
            while marker not in screen:
                assert time.monotonic() < end, screen
                if select.select([master], [], [], 0.1)[0]:
                    try:
                        screen += os.read(master, 4096)
                    except OSError:                   # EIO: the console has not opened it yet
                        time.sleep(0.05)
            out, screen = screen, b""
            return out

        assert b"role: " in until(b"role: ")
        assert not console.absent
        os.write(master, b"technician\r" + PINS["technician"].encode() + b"\r")
        until(b"tablectl[technician]> ")
        os.close(master)                              # unplugged
        wait(lambda: console.absent, 8)
        assert ctl.journal.records("console_logout")[-1].data["reason"] == "hangup"
        assert console.thread.is_alive()
    finally:
        console.stop()
    assert fds() == before
