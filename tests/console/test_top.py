"""`tablectl top` and the console's `watch`, seen as a person sees them: in a real terminal
(tmux: keys sent, the pane captured), each redrawn in place."""
import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from controller.console import start_console
from controller.console.screen import render
from controller.console.view import dollars
from controller.games.events import Event
from controller.lab.sim import Simulation
from controller.top import JournalFollower
from tests.waiting import wait_for
from tests.console.support import FAST, PINS, pin_store

TMUX = shutil.which("tmux")
SOCAT = shutil.which("socat")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Tmux:
    """One tmux server of our own (its own socket), one pane running `command`."""

    def __init__(self, command, width=130, height=50):
        self.sock = "tablectl-test-%s" % uuid.uuid4().hex[:8]
        self._tmux("-f", "/dev/null", "new-session", "-d", "-x", str(width), "-y", str(height),
                   "-s", "t", command)

    def _tmux(self, *args):
        return subprocess.run([TMUX, "-L", self.sock] + list(args), check=True,
                              capture_output=True, text=True, timeout=10).stdout

    def keys(self, *keys):
        self._tmux("send-keys", "-t", "t", *keys)

    def screen(self):
        return self._tmux("capture-pane", "-p", "-t", "t")

    def wait_for(self, text, timeout=30.0):
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if text in screen:
                return screen
            assert time.monotonic() < end, "no %r on the screen:\n%s" % (text, screen)
            time.sleep(0.05)

    def close(self):
        subprocess.run([TMUX, "-L", self.sock, "kill-server"], capture_output=True, timeout=10)


@pytest.fixture
def tmux():
    if TMUX is None:
        pytest.skip("tmux is not installed (apt-get install tmux)")
    made = []

    def make(command, **kw):
        t = Tmux(command, **kw)
        made.append(t)
        return t
    yield make
    for t in made:
        t.close()


def simulate(path, rounds, seed, faults=()):
    s = Simulation("flop-poker", seed, faults, journal=str(path))
    try:
        s.run(rounds)
    finally:
        s.close()
    return s


def test_top_shows_state_devices_lock_outs_meters_and_rounds_refreshing_in_place(tmp_path,
                                                                                tmux):
    path = tmp_path / "table.db"
    first = simulate(path, 3, 1, faults=[("shoe", "jam", 0.5)])
    assert first.ctl.lockouts
    cmd = "cd %s && %s -m controller.cli top --journal %s --interval 0.2" % (
        ROOT, sys.executable, path)
    t = tmux(cmd)
    screen = t.wait_for("last rounds")
    assert "tablectl top  flop-poker" in screen
    assert "devices" in screen and "shoe" in screen
    # the configured name (issue 35), not the kind the games journal
    assert "lock-outs (last 5)" in screen and "device shoe: jam" in screen
    assert "dealing_shoe" not in screen
    assert "meters, gaming day" in screen and "handle $" in screen
    assert "round 3" in screen
    simulate(path, 2, 2)                      # the table plays on: top follows the file
    screen = t.wait_for("round 5")
    assert screen.count("tablectl top") == 1   # redrawn in place, not scrolled
    t.keys("C-c")


def test_top_refuses_a_missing_journal_in_one_line(tmp_path, capsys):
    from controller import cli
    assert cli.main(["top", "--journal", str(tmp_path / "none.db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err


def test_top_prints_device_text_harmlessly(tmp_path):
    sim = Simulation("flop-poker", 1, journal=str(tmp_path / "j.db"))
    try:
        sim.ctl.submit(Event("fault", {"device": "dealing_shoe",
                                       "reason": "jam\x1b[2J\x1b]0;x\x07"}, "shoe",
                             sim.ctl.clock()))
        sim.ctl.run_until_idle()
    finally:
        sim.close()
    screen = render(JournalFollower(str(tmp_path / "j.db")).read().info())
    assert "jam^[[2J^[]0;x?" in screen and "\x1b" not in screen and "\x07" not in screen


def test_printable_shows_every_character_by_its_rule():
    """view.printable by its rule, character by character, over all of the BMP and past it
    (it is a translate table and a regular expression now, issue 33: the same answers)."""
    from controller.console.view import printable

    def rule(ch):
        if ch == "\n" or 0x20 <= ord(ch) < 0x7F:
            return ch
        return {"\t": " ", "\x1b": "^["}.get(ch, "?")
    text = "".join(map(chr, range(0xD800))) + "\ud800\udfff" + \
        "".join(map(chr, range(0xE000, 0x10000))) + "\U0001F600\U0010FFFF"
    assert printable(text) == "".join(map(rule, text))
    assert printable(404) == "404" and printable("") == ""


def test_console_watch_redraws_in_place_until_a_key(tmp_path, tmux):
    if SOCAT is None:
        pytest.skip("socat is not installed")
    pins = pin_store(tmp_path)
    sim = Simulation("flop-poker", seed=4)
    ctl = sim.ctl
    ctl.start()
    path, console = start_console(ctl, sim.drivers, clock=time.monotonic_ns,
                                  pin_store_path=pins.path, pin_params=FAST)
    try:
        t = tmux("%s -,rawer,escape=0x1d %s,rawer" % (SOCAT, path))
        t.keys("Enter")
        t.wait_for("role:")
        t.keys("technician", "Enter")
        t.wait_for("PIN:")
        t.keys(PINS["technician"], "Enter")
        t.wait_for("tablectl[technician]>")
        t.keys("wat", "Enter")                # a unique prefix of `watch`
        screen = t.wait_for("(any key ends watch)")
        assert "state closed" in screen and "shoe" in screen and "lock-outs" in screen
        ctl.submit(ctl.event("fault", {"device": "dealing_shoe", "reason": "jam"}, "shoe"))
        screen = t.wait_for("LOCKED OUT: device shoe: jam")
        assert screen.count("tablectl watch") == 1    # one screen, redrawn in place
        assert "tablectl top" not in screen and "ts_ns" not in screen
        assert "to clear: a floorperson or above" in screen
        t.keys("q")
        screen = t.wait_for("watch ended")
        t.wait_for("tablectl[technician]>")
        t.keys("logout", "Enter")
        t.wait_for("role:")
    finally:
        console.stop()
        ctl.stop()
        sim.close()


def test_top_and_watch_show_the_same_devices_on_a_healthy_table_and_after_a_fault(tmp_path):
    """One source (issue 35): `top` reads the devices the runtime journals at start, so on a
    healthy table it lists what `watch` lists, each ready, and a fault in the same words."""
    from controller.console.commands import Commands
    sim = Simulation("blackjack", 1, journal=str(tmp_path / "j.log"))
    try:
        watch = Commands(sim.ctl, sim.drivers)
        top = JournalFollower(str(tmp_path / "j.log")).read()
        assert [(n, s) for n, s, _ in top.info()["devices"]] == \
            [(n, s) for n, s, _ in watch.live_info()["devices"]]
        assert {s for _, s, _ in top.info()["devices"]} == {"ready"}
        assert len(top.info()["devices"]) == len(sim.drivers) > 5
        sim.sim.serial["shoe"].jam()
        wait_for(lambda: (sim.ctl.run_once(wait_s=0.1),
                          sim.ctl.model.state == "locked_out")[1], step=0,
                 what="the shoe's lock-out")
        sim.ctl.commit_pending()              # the lock-out's record on the disk, as a shutdown
        top.read()
        shown_top = dict((n, (s, f)) for n, s, f in top.info()["devices"])["shoe"]
        shown_watch = dict((n, (s, f)) for n, s, f in watch.live_info()["devices"])["shoe"]
        assert shown_top[0] == shown_watch[0] == "fault"
        assert shown_top[1].split(" at ")[0] == shown_watch[1].split(" at ")[0] == \
            "last fault: jam"
        assert top.info()["lockout"]["to_clear"] == watch.live_info()["lockout"]["to_clear"]
        assert "once shoe passes its self-test" in top.info()["lockout"]["to_clear"]
        assert render(watch.live_info()).startswith("tablectl watch  blackjack")
        assert render(top.info()).startswith("tablectl top  blackjack")
    finally:
        sim.close()


@pytest.mark.reg("637a(e)(6)")
def test_the_poker_room_is_its_pots_and_rake_at_the_console_and_in_top_not_stacks_as_handle(
        tmp_path):
    """A poker room's players play each other: the house's win is the rake (637a(e)(6)),
    their stacks are no handle. The console's `meters`, `watch` and `tablectl top` count its
    hands as the floor does (the declaration's `house_take`), equal to the round records."""
    from controller.console.commands import Commands
    from tests.floor.conftest import journal_rows
    from tests.floor.test_pit import own_room
    path = str(tmp_path / "j.log")
    sim = Simulation("poker", 1, journal=path)
    try:
        sim.run(3)
        console = Commands(sim.ctl, sim.drivers)
        meters = console.run("administrator", "meters")
        watch = render(console.live_info())
    finally:
        sim.close()
    room = own_room(journal_rows(path))
    assert room["hands"] == 3 and room["pots"] > 0
    line = "poker room           hands 3  pots %s  rake %s" % (
        dollars(room["pots"]), dollars(room["rake"]))
    top = render(JournalFollower(path).read().info())
    for shown in (meters, watch, top):
        assert line in shown
        assert "handle" not in shown and "stack" not in shown
    assert "round 3      settled  pots $" in top


def test_top_folds_every_line_to_the_terminal_width_as_the_console_does(tmp_path, capsys):
    """`top` is read at the same 80-column serial terminal as the console (issue 35): its
    screen is the console's renderer, folded to --width (80 unless told), every line."""
    from controller import cli
    path = tmp_path / "table.db"
    simulate(path, 2, 1, faults=[("shoe", "jam", 1.0)])
    unfolded = render(JournalFollower(str(path)).read().info(), width=250).split("\n")
    long = [ln for ln in unfolded if len(ln) > 80]
    assert long, "nothing to fold: the test would prove nothing"
    for argv, width in ((["--count", "1"], 80), (["--count", "1", "--width", "120"], 120)):
        assert cli.main(["top", "--journal", str(path)] + argv) == 0
        lines = capsys.readouterr().out.rstrip("\n").split("\n")
        assert max(len(ln) for ln in lines) <= width
        assert " ".join(" ".join(lines).split()) == " ".join(" ".join(unfolded).split())
    with pytest.raises(SystemExit) as bad:
        cli.main(["top", "--journal", str(path), "--width", "20"])
    assert bad.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "40 to 250 columns" in err
