"""The console at the terminal it is made for (issue 35): an 80x24 serial terminal, here a
tmux pane running socat on the console's real pty, keys typed one at a time. `?` answers
the moment it is typed and draws the line again, Tab completes, the arrows recall earlier
lines, a long answer stops at `-- more --`, and no line the console writes is wider than
the terminal (`capture-pane -J` joins what tmux wrapped, so a wider line would show)."""
import re
import time

import pytest

from controller.console import start_console
from controller.lab.sim import Simulation
from tests.waiting import wait_for
from tests.console.support import FAST, PINS, pin_store
from tests.console.test_top import SOCAT, tmux  # noqa: F401 - fixture

PROMPT = "tablectl[technician]>"
ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"


class Pane:
    """socat on a console's line in a tmux pane (80x24 unless told): what a technician's
    serial terminal shows. Subclasses start the table and set `path`."""

    width = 80

    def open_pane(self, tmux, width=80, height=24):
        if SOCAT is None:
            pytest.skip("socat is not installed")
        self.t = tmux("%s -,rawer,escape=0x1d %s,rawer" % (SOCAT, self.path), width=width,
                      height=height)
        self.width = width

    def login(self, role="technician"):
        self.t.keys("Enter")
        self.t.wait_for("role:")
        self.t.keys(role, "Enter")
        self.t.wait_for("PIN:")
        self.t.keys(PINS[role], "Enter")
        self.prompt = "tablectl[%s]>" % role
        self.t.wait_for(self.prompt, timeout=20)

    def joined(self):
        """The pane and its history with tmux's own wrapping undone: each line as the
        console wrote it."""
        return self.t._tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t")

    def until(self, pred, timeout=30.0):
        wait_for(pred, timeout, what=lambda: "it; the screen:\n%s" % self.t.screen())

    def last_line(self):
        return self.t.screen().rstrip("\n").splitlines()[-1]

    def wait_last(self, text, timeout=30.0):
        wait_for(lambda: self.last_line().rstrip() == text, timeout,
                 what=lambda: "the last line %r, not %r:\n%s" % (text, self.last_line(),
                                                                  self.t.screen()))

    def narrow(self):
        lines = self.joined().splitlines()
        assert lines and max(len(ln) for ln in lines) <= self.width, "\n".join(
            ln for ln in lines if len(ln) > self.width)



def fixture_of(cls):
    """A fixture making `cls(tmp_path, tmux, **kw)` on demand, each closed at the end."""
    @pytest.fixture
    def made(tmp_path, tmux):
        out = []

        def make(**kw):
            out.append(cls(tmp_path, tmux, **kw))
            return out[-1]
        yield make
        for thing in out:
            thing.close()
    return made


class Console(Pane):
    """A simulated flop-poker table, its console on a pty, socat on it in an 80x24 pane."""

    def __init__(self, tmp_path, tmux, width=80, height=24):
        if SOCAT is None:
            pytest.skip("socat is not installed")
        self.sim = Simulation("flop-poker", seed=5)
        self.ctl = self.sim.ctl
        self.ctl.start()
        self.path, self.console = start_console(
            self.ctl, self.sim.drivers, clock=time.monotonic_ns,
            pin_store_path=pin_store(tmp_path).path, pin_params=FAST)
        self.open_pane(tmux, width, height)

    def close(self):
        self.console.stop()
        self.ctl.stop()
        self.sim.close()


console = fixture_of(Console)


def test_question_mark_answers_at_once_and_draws_the_line_again(console):
    c = console()
    c.login()
    c.t.keys("show ")
    c.t.keys("?")                                   # no Enter
    screen = c.t.wait_for("  version")
    assert "  devices" in screen and "  config" in screen
    c.wait_last(PROMPT + " show")                  # the line typed, drawn again
    c.t.keys("ver", "Enter")                        # typing goes on where it was
    c.t.wait_for("manifest")
    assert "refused" not in c.t.screen()
    c.narrow()


def test_tab_completes_a_unique_word_and_lists_the_choices(console):
    c = console()
    c.login()
    c.t.keys("sh", "Tab")
    c.wait_last(PROMPT + " show")
    c.t.keys("dev", "Tab")
    c.wait_last(PROMPT + " show devices")
    c.t.keys("Tab")                                 # the device names it may take
    screen = c.t.wait_for("dealer_panel")
    assert "card_reader" in screen and "shuffler" in screen
    c.wait_last(PROMPT + " show devices")
    c.t.keys("shu", "Tab")
    c.wait_last(PROMPT + " show devices shuffler")
    c.t.keys("Enter")
    c.t.wait_for("state")
    c.narrow()


def test_the_arrows_recall_earlier_lines_and_edit_inside_one(console):
    c = console()
    c.login()
    c.t.keys("status", "Enter")
    c.t.wait_for("floor link")
    c.t.keys("terminal", "Enter")
    c.t.wait_for("terminal width 80 columns, length 24 lines")
    c.t.keys("Up")
    c.wait_last(PROMPT + " terminal")
    c.t.keys("Up")
    c.wait_last(PROMPT + " status")
    c.t.keys("Down")
    c.wait_last(PROMPT + " terminal")
    c.t.keys("Left", "Left", "Left", "Left", "X")   # inside the line: termXinal
    c.wait_last(PROMPT + " termXinal")
    c.t.keys("BSpace", "Enter")                     # Backspace before the cursor: terminal
    c.until(lambda: c.joined().count("terminal width 80 columns, length 24 lines") == 2)


def test_a_long_answer_stops_at_more_and_pages_on(console):
    c = console()
    c.login()
    more = "-- more -- (Space: next page, Enter: next line, q: stop)"
    c.t.keys("terminal length 12", "Enter")
    c.t.wait_for("length 12 lines")
    c.t.keys("help", "Enter")                       # longer than a page of 12
    c.wait_last(more)
    assert "line editing" not in c.t.screen()
    c.t.keys("Enter")                               # one more line
    c.wait_last(more)
    for _ in range(5):                              # Space pages on to the end, the prompt
        c.t.keys("Space")
        c.until(lambda: c.last_line().rstrip() in (PROMPT, more))
        if c.last_line().rstrip() == PROMPT:
            break
        time.sleep(0.1)
    c.wait_last(PROMPT)
    assert "line editing" in c.t.screen()
    c.t.keys("help", "Enter")
    c.wait_last(more)
    c.t.keys("q")                                   # stop here
    c.wait_last(PROMPT)
    assert c.joined().count("line editing") == 1    # the second help was stopped
    c.narrow()


def test_every_line_fits_80_columns_and_terminal_width_widens_it(console):
    c = console()
    c.login()
    c.ctl.submit(c.ctl.event("fault", {"device": "dealing_shoe", "reason": "paper jam in "
                                       "the card path near the exit roller"}, "shoe"))
    c.t.wait_for("*** LOCK-OUT")
    for line in ("status", "lockouts", "help", "meters", "devices", "config show",
                 "inspections", "events 5"):
        c.t.keys("terminal length 0", "Enter")
        c.t.keys(line, "Enter")
        c.until(lambda: c.joined().rstrip().endswith(PROMPT) and
                c.joined().count(PROMPT + " " + line) >= 1)
        c.narrow()
    assert "paper jam" in c.joined()
    # a wider terminal: the lock-out's reason is whole on its line again
    c.t.keys("terminal width 120", "Enter")
    c.t.wait_for("terminal width 120 columns")
    c.width = 120
    c.narrow()


def test_devices_and_config_show_read_in_local_time_and_dollars(tmp_path):
    from tests.console.support import Rig
    rig = Rig(tmp_path, game="poker")
    rig.drivers["shoe"].last_fault = {"reason": "jam", "ts_ns": rig.ctl.clock()}
    rig.login("technician")
    for line in ("devices", "devices shoe"):
        out = rig.run(line)
        assert "ts_ns" not in out and re.search(r"(last fault: reason=jam at=|last_fault\.at\s+)"
                                                 r"%s" % ISO, out), out
    rig.run("terminal length 0")
    out = rig.run("config show").replace("\r", "")
    assert re.search(r"table_min\s+\$\d[\d,]*\.\d\d", out), out
    assert re.search(r"options\.big_blind\s+\$\d[\d,]*\.\d\d", out), out
    assert re.search(r"options\.limit_bets\s+\d+$", out, re.M), out      # a count, not money
    assert all(len(ln) <= 80 for ln in out.splitlines())


def test_one_name_per_device_the_configured_one_and_its_kind_taken_too(tmp_path):
    """A lock-out names the shoe's kind (dealing_shoe, what the games know); the console
    shows the name the configuration gives it (shoe) and takes either (issue 35)."""
    sim = Simulation("blackjack", seed=6)
    try:
        from controller.console.commands import Commands
        commands = Commands(sim.ctl, sim.drivers)
        sim.sim.serial["shoe"].jam()
        wait_for(lambda: (sim.ctl.run_once(wait_s=0.1),
                          sim.ctl.model.state == "locked_out")[1], step=0,
                 what="the shoe's lock-out")
        lockouts = commands.run("technician", "lockouts")
        assert re.search(r"IN FORCE  %s  device shoe\n" % ISO, lockouts), lockouts
        assert "once shoe passes its self-test" in lockouts
        assert "once shoe passes its self-test" in commands.run("technician", "status")
        announced = commands.announcement("lock_out", sim.ctl.lockouts[-1])
        assert "; device shoe; to clear" in announced
        assert commands.run("technician", "selftest dealing_shoe").split()[0] == "shoe"
        assert commands.run("technician", "selftest shoe").split()[0] == "shoe"
        assert commands.run("technician", "devices dealing_shoe") == \
            commands.run("technician", "devices shoe")
        assert dict((n, s) for n, s, _ in commands.live_info()["devices"])["shoe"] == "fault"
        assert commands.live_info()["lockouts"][-1]["device"] == "shoe"
    finally:
        sim.close()


@pytest.mark.reg("581.2(d)")
def test_inspections_say_the_gaming_day_and_local_times(tmp_path):
    from tests.console.support import Rig
    rig = Rig(tmp_path, game="double-attack-blackjack")
    rig.ctl.start()
    try:
        rig.login("floorperson")
        assert "passed, by floorperson" in rig.run("inspections reader pass")
        out = rig.run("inspections")
        assert re.search(r"day \d{4}-\d\d-\d\d  passed  by floorperson  at %s" % ISO, out), out
        assert not re.search(r"at [\d.]+ s\b", out)             # no table seconds
    finally:
        rig.ctl.stop()
