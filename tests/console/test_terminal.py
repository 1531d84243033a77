"""The console as a technician meets it, through a real terminal program (socat) on its pty:
discoverable commands, announcements that do not break the line being typed, the lock-out
list's times and people, the configuration and version, money meters, device text made
harmless, and a hang-up that ends the session."""
import re
import time

import pytest

from controller.console import start_console
from controller.lab.sim import Simulation
from tests.console.support import FAST, PINS, pin_store
from tests.console.test_end_to_end import Terminal, fds, socat, wait  # noqa: F401 - fixture

ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"


class Bench:
    """A simulated flop-poker table (real drivers, simulated devices), its loop on a thread,
    the console on a pty and socat on it."""

    def __init__(self, tmp_path, game="flop-poker", loop=True, **kw):
        self.before = fds()
        self.pins = pin_store(tmp_path)
        self.sim = Simulation(game, seed=3)
        self.ctl = self.sim.ctl
        self.loop = loop
        if loop:
            self.ctl.start()
        self.path, self.console = start_console(
            self.ctl, self.sim.drivers, clock=time.monotonic_ns, pin_store_path=self.pins.path,
            pin_params=FAST, **kw)
        self.term = Terminal(self.path)

    def login(self, role):
        self.term.send(b"\r")
        self.term.expect(b"role: ")
        self.term.send(role.encode() + b"\r")
        self.term.expect(b"PIN: ")
        self.term.send(PINS[role].encode() + b"\r")
        self.term.expect(("tablectl[%s]> " % role).encode())

    def command(self, line):
        return self.term.command(line)

    def ask(self, line):
        return self.term.ask(line)

    def close(self):
        self.term.close()
        self.console.stop()
        if self.loop:
            self.ctl.stop()
        self.sim.close()


@pytest.fixture
def bench(tmp_path, socat):
    made = []

    def make(**kw):
        b = Bench(tmp_path, **kw)
        made.append(b)
        return b
    yield make
    for b in made:
        b.close()


def lock(b, reason="jam"):
    b.ctl.submit(b.ctl.event("fault", {"device": "dealing_shoe", "reason": reason},
                             source="shoe"))
    wait(lambda: b.ctl.model.state == "locked_out")


def test_question_mark_lists_what_may_follow_and_unique_prefixes_run(bench):
    b = bench()
    b.login("floorperson")
    top = b.ask("")
    for word in ("status", "show", "lockouts", "clear", "watch", "logout"):
        assert re.search(r"^  %s\s" % word, top, re.M), top
    assert "devices" not in top and "verify" not in top          # a technician's
    show = b.ask("show ")
    for word in ("status", "lockouts", "meters", "version", "events", "link"):
        assert re.search(r"^  %s\s" % word, show, re.M), show
    assert not re.search(r"^  (devices|config)\s", show, re.M)   # not for a floorperson
    assert re.search(r"^  status\s", b.ask("show st"), re.M)
    status = b.command("sh st")
    assert "state        closed" in status and "flop-poker" in status
    assert "ambiguous" in b.command("s")                         # status, selftest, show
    assert "state        closed" in b.command("stat")
    # the journal holds what ran, in full words
    rec = b.ctl.journal.records("console")
    assert ("show", ["status"]) in [(r.data["command"], r.data["args"]) for r in rec]


def test_help_lists_only_what_the_role_may_run(bench):
    b = bench()
    b.login("dealer")
    out = b.command("help inspections")
    assert "dealer or above" in out and "inspections reader" not in out   # not a dealer's
    assert "needs a floorperson or above" in b.command("inspections reader pass")
    assert "show status|meters|version|link" in b.command("help")
    b.term.send(b"logout\r")
    b.term.expect(b"role: ")
    b.term.send(b"floorperson\r")
    b.term.expect(b"PIN: ")
    b.term.send(PINS["floorperson"].encode() + b"\r")
    b.term.expect(b"tablectl[floorperson]> ")
    out = b.command("help inspections")
    assert "inspections reader pass|fail" in out and "floorperson or above" in out


def test_show_link_is_not_configured_until_the_uplink_gives_its_state(bench):
    b = bench()
    b.login("dealer")
    assert "floor link  not configured" in b.command("show link")
    since = b.ctl.clock() - 90 * 10 ** 9
    state = {"up": False, "since_ns": since, "waiting": 17}
    b.console.set_link(lambda: state)                  # what the floor uplink will call
    out = b.command("show link")
    assert re.search(r"floor link  DOWN since %s, 17 rows waiting" % ISO, out), out
    state.update(up=True, waiting=0)
    assert "floor link  up since" in b.command("sh li")


def test_a_lock_out_and_its_clearing_are_announced_without_breaking_the_line_typed(bench):
    b = bench()
    b.login("floorperson")
    b.term.send(b"lock")                       # half a command, not yet entered
    time.sleep(0.1)
    b.term.expect(b"lock")
    lock(b, "paper jam")
    shown = b.term.expect(b"tablectl[floorperson]> lock")
    assert "*** LOCK-OUT" in shown and "device shoe: paper jam" in shown
    assert "to clear: a floorperson or above" in shown
    assert shown.startswith("\r\x1b[K")        # on a line of its own, then prompt + partial
    out = b.term.command("outs")               # finish the word: the line is "lockouts"
    assert "IN FORCE" in out and "paper jam" in out
    b.sim.drivers["shoe"].clear_fault()
    b.term.send(b"stat")
    time.sleep(0.1)
    b.term.expect(b"stat")
    # the dealer panel's approval, over its serial line: the clear service tests the shoe
    b.sim.sim.serial["dealer_panel"].key("approval", role="floor", what="clear", badge="F7")
    shown = b.term.expect(b"tablectl[floorperson]> stat")
    assert "*** lock-out cleared" in shown and "by floorperson (dealer_panel)" in shown
    assert "state        closed" in b.term.command("us")


def test_lockouts_say_when_which_device_and_rule_and_who_cleared_it_when(bench):
    b = bench()
    b.login("floorperson")
    lock(b)
    b.term.expect(b"> ")                               # the announcement
    out = b.command("lockouts")
    assert re.search(r"  1  IN FORCE  %s  device shoe\r\n     device shoe: jam "
                     r"\[583.13\(e\)\]" % ISO, out), out
    assert "cleared by a floorperson or above" in out
    assert "lock-out cleared by floorperson" in b.command("clear")
    b.term.expect(b"> ")                               # its announcement
    out = b.command("show lockouts")
    assert re.search(r"  1  cleared   %s  device shoe" % ISO, out), out
    assert re.search(r"cleared by floorperson \(console\) at %s" % ISO, out), out


def test_show_config_has_the_controller_section_and_hash_and_show_version_the_manifest(
        bench, tmp_path):
    from controller.console import manifest
    from controller.console.commands import config_hash
    mpath, signature, _ = manifest.write(str(tmp_path / "tablectl.manifest"))
    cfg = {"game": "flop-poker", "controller": {"devices": {"shoe": {
        "type": "dealing_shoe", "url": "/dev/tablectl/shoe"}, "progressive_system": {
        "type": "progressive_system", "lockout": 17}}, "console": {"tty": "/dev/ttyUSB9"}}}
    b = bench(config=cfg, manifest_path=mpath)
    b.login("technician")
    out = b.command("show config")
    assert re.search(r"configuration hash\s+%s" % config_hash(cfg), out), out
    assert "[controller]" in out and "devices.shoe.url" in out and "/dev/tablectl/shoe" in out
    assert re.search(r"devices\.progressive_system\.lockout\s+17", out)
    assert "console.tty" in out
    assert out.replace("show config", "config show") == b.command("config show").replace(
        "show config", "config show")
    version = b.command("show version")
    assert re.search(r"tablectl \d+\.\d+", version)
    assert re.search(r"signature\s+%s" % signature, version), version


def test_money_meters_per_wager_for_the_gaming_day_in_dollars_and_cents(bench):
    b = bench(loop=False)                  # the simulator's autoplay runs the loop itself
    b.sim.run(4)
    b.login("dealer")
    out = b.command("meters")
    returns = b.sim.autoplay.stats["returns"]
    assert returns
    for wager, r in returns.items():
        if not r["wagered"]:
            continue
        line = next(ln for ln in out.splitlines()
                    if ln.strip().startswith(wager + " ") and "handle" in ln)
        handle = "$%s.%02d" % (format(r["wagered"] // 100, ","), r["wagered"] % 100)
        assert "handle %s" % handle in line, (wager, line)
        hold = -r["net"]
        assert "hold %s$" % ("-" if hold < 0 else "") in line
    assert re.search(r"gaming day \d{4}-\d\d-\d\d", out)
    assert "rounds 4" in out and not re.search(r"handle \d", out)    # dollars, never cents


def test_device_text_holding_terminal_controls_prints_harmlessly(bench):
    b = bench()
    b.login("technician")
    hostile = "jam\x1b[2J\x1b]0;x\x07 now"
    lock(b, hostile)
    shown = b.term.expect(b"> ")                       # the announcement
    for line in ("status", "lockouts", "events 5", "show events 5"):
        out = b.command(line)
        assert "jam^[[2J^[]0;x? now" in out, (line, out)
    out = b.command("events 30")
    assert re.search(r"^#\d+\s+%s  fault \(shoe\)" % ISO, out, re.M), out  # local time
    seen = shown + out
    assert "\x07" not in seen and "\x1b[2J" not in seen and "\x1b]0" not in seen


def test_a_hangup_ends_the_session_and_the_next_connection_finds_the_log_in_prompt(bench):
    b = bench()
    b.login("technician")
    b.term.close()                                     # socat quits without logout
    wait(lambda: b.console.hangups == 1)
    assert b.ctl.journal.records("console_logout")[-1].data["reason"] == "hangup"
    b.term = Terminal(b.path)
    b.term.send(b"status\r")                           # not logged in: taken as a role
    out = b.term.expect(b"PIN: ")
    assert "tablectl technician console" in out and "role: " in out
    assert "tablectl[technician]" not in out
