"""The bench is a place to practise (issue 35): `tablectl run` on a bench configuration, its
console in an 80x24 tmux pane through socat, a technician injects a fault, finds the device
failing its self-test, repairs it, and clears the lock-out; the autoplay plays rounds
meanwhile; on real devices, or for a lower role, the bench commands are refused."""
import re

import pytest

from controller.console import auth
from hal_sim import bench
from tests.waiting import wait_for
from tests.console.support import FAST, PINS, Rig, said
from tests.console.test_serial_terminal import Pane, fixture_of
from tests.console.test_top import SOCAT, tmux  # noqa: F401 - fixture
from tests.test_run import env_with, read_until, tablectl

PROMPT = "tablectl[technician]>"


class BenchRun(Pane):
    """`tablectl run` on GAME-bench.toml with --pins, socat on its console in tmux."""

    def __init__(self, tmp_path, tmux, game="blackjack"):
        if SOCAT is None:
            pytest.skip("socat is not installed")
        pins = auth.PinStore(str(tmp_path / "pins.json"), **FAST)
        for role in ("technician", "floorperson"):
            pins.set(role, PINS[role])
        self.proc = tablectl("run", "--config", bench.path_of(game), "--journal",
                             str(tmp_path / "j.log"), "--pins", pins.path, env=env_with())
        line, self.seen = read_until(self.proc, "console: ")
        self.path = line.split(":", 1)[1].strip()
        self.open_pane(tmux)

    def run(self, line, until, timeout=20.0):
        """Type `line`, Enter; the pane (history too, tmux's wrapping undone) once `until`
        is in what followed it."""
        before = self.joined().count(self.prompt + " " + line)
        self.t.keys(line, "Enter")

        def answered():
            tail = self.joined().split(self.prompt + " " + line)
            return len(tail) > before + 1 and until in tail[-1] and tail[-1]
        return wait_for(answered, timeout, what=lambda: "%r after %r:\n%s"
                        % (until, line, self.joined()))

    def close(self):
        self.proc.terminate()
        try:
            self.proc.communicate(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


bench_run = fixture_of(BenchRun)


@pytest.mark.reg("633a.7(a)")
def test_a_bench_table_takes_an_injected_fault_and_clears_it_after_its_self_test(bench_run):
    b = bench_run()
    b.login()
    out = b.run("inject shoe", "shoe takes:")
    assert "jam" in out and "bad_crc" in out
    b.run("inject shoe jam", "*** LOCK-OUT")
    out = b.run("status", "floor link")
    assert "LOCKED OUT" in out and "jam [633a.7(a)]" in said(out), out
    out = b.run("selftest shoe", PROMPT)
    assert re.search(r"shoe\s+FAIL", out), out
    out = b.run("clear", PROMPT)
    assert "not cleared" in out and "shoe" in out
    assert "repaired" in b.run("repair shoe", PROMPT)
    out = b.run("clear", "lock-out cleared by technician")
    assert "self-test shoe: pass" in out
    assert "state        closed" in b.run("status", "floor link")
    b.narrow()                              # every line within the 80 columns


def test_the_autoplay_plays_rounds_on_the_bench_until_switched_off(bench_run):
    b = bench_run()
    b.login()
    b.run("autoplay on", "autoplay on")

    def rounds_played():
        m = re.search(r"round\s+(\d+)", b.run("status", "floor link"))
        return m and int(m.group(1)) >= 2
    wait_for(rounds_played, 60, step=0.5, what="two rounds autoplayed")
    assert "autoplay off after" in b.run("autoplay off", "autoplay off", timeout=40)


def test_the_bench_commands_are_a_technicians(bench_run):
    b = bench_run()
    b.login("floorperson")
    out = b.run("inject shoe jam", "tablectl[floorperson]>")
    assert "needs a technician or above" in said(out)


def test_the_bench_commands_are_refused_on_real_devices(tmp_path):
    rig = Rig(tmp_path)                     # drivers that are not simulated devices
    rig.login("technician")
    for line in ("inject shoe jam", "repair shoe", "autoplay on"):
        out = said(rig.run(line))
        assert "refused on a table with real devices" in out, out
