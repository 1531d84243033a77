"""Practising on the bench (issue 15): `tablectl sim --manual-clear` leaves each lock-out for
a technician to clear at the console (through a real terminal program, socat), `--pins FILE`
names the console's PIN file, and a start without any PIN says so."""
import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest

from tests.console.support import PINS, pin_store
from tests.console.test_end_to_end import SOCAT, Terminal

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Lines:
    """A process's stderr, read line by line with a deadline."""

    def __init__(self, proc):
        self.proc, self.seen = proc, []

    def until(self, text, timeout=60):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not select.select([self.proc.stderr], [], [], end - time.monotonic())[0]:
                break
            line = self.proc.stderr.readline()
            if not line:
                break
            self.seen.append(line)
            if text in line:
                return line
        raise AssertionError("no %r; stderr: %s%s" % (text, "".join(self.seen), self.stacks()))

    def stacks(self):
        """Where a simulator that stopped saying anything is, thread by thread: it runs with
        PYTHONFAULTHANDLER (sim()), so SIGABRT makes it write every thread's stack (a hang
        of the practice run was seen once in a full suite and not again in 280 runs)."""
        if self.proc.poll() is not None:
            return ""
        self.proc.send_signal(signal.SIGABRT)
        try:
            _, rest = self.proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            return "\n(the simulator did not dump its threads)"
        return "\nthe simulator's threads:\n" + rest[-8000:]


def sim(*args, env=None):
    full = dict(os.environ)
    full.pop("TABLECTL_PINS", None)
    full["PYTHONFAULTHANDLER"] = "1"               # a hang shows its threads (Lines.stacks)
    full.update(env or {})
    return subprocess.Popen([sys.executable, "-m", "controller.cli", "sim", *map(str, args)],
                            cwd=ROOT, env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True)


@pytest.mark.skipif(SOCAT is None, reason="needs socat, a real terminal program")
def test_manual_clear_waits_for_the_technician_at_the_console(tmp_path):
    pins = pin_store(tmp_path)
    proc = sim("--game", "flop-poker", "--rounds", "2", "--seed", "1", "--fault", "shoe:jam:1",
               "--manual-clear", "--pins", pins.path)
    err = Lines(proc)
    try:
        console = err.until("console: ").split(": ", 1)[1].strip()
        term = Terminal(console)
        try:
            term.send(b"\r")
            term.expect(b"role: ")
            term.send(b"technician\r")
            term.expect(b"PIN: ")
            term.send(PINS["technician"].encode() + b"\r")
            term.expect(b"tablectl[technician]> ")
            for _ in range(2):                       # a jam each round, each left to us
                line = err.until("locked out")
                assert "device shoe: jam" in line and "clear it at the console" in line
                time.sleep(0.3)                      # the simulated floorperson does not clear
                assert proc.poll() is None
                term.send(b"clear\r")
                # the clear's own answer, and the console's announcement of it to the session
                cleared = term.expect(b"by technician", timeout=10)
                assert "lock-out cleared" in cleared, cleared
                term.expect(b"tablectl[technician]> ")
        finally:
            term.close()
        out, rest = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, "".join(err.seen) + rest
    assert "lock-outs: 2 (2 cleared)" in out
    assert re.search(r"\n  device shoe: jam \[583\.[0-9a-z()]+\]  \(x2\)\n", out), out


def test_sim_warns_at_start_when_no_pin_is_set(tmp_path):
    proc = sim("--game", "poker", "--rounds", "1", "--pins", tmp_path / "none.json")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    warning = [line for line in err.splitlines() if "warning" in line]
    assert warning == ["tablectl sim: warning: no console PINs are set in %s: every log-in "
                       "will be refused; set one with `tablectl passwd technician --file %s` "
                       "(or give --pins FILE)" % (tmp_path / "none.json", tmp_path / "none.json")]


def test_sim_with_pins_set_gives_no_warning_and_uses_that_file(tmp_path):
    pins = pin_store(tmp_path)
    proc = sim("--game", "poker", "--rounds", "1", "--pins", pins.path,
               env={"TABLECTL_PINS": str(tmp_path / "elsewhere.json")})
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "warning" not in err, err
