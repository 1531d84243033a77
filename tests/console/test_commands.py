"""The console's commands, who may run them, what they journal and what they never do."""
import json
import re
import time

import pytest

from controller.console import manifest
from controller.console.commands import Commands
from controller.console.view import entries
from controller.games.events import Event
from controller.table import Record
from tests.console.support import PINS, FakeDriver, Rig, said

ROLES = list(PINS)
MINIMUM = {"help": "dealer", "status": "dealer", "meters": "dealer", "inspections": "dealer",
           "lockouts": "floorperson", "clear": "floorperson", "selftest": "floorperson",
           "events": "floorperson", "devices": "technician", "verify": "technician",
           "config show": "technician"}


def wait(pred, timeout=30.0):
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.002)


@pytest.fixture
def running():
    """Rigs whose controller loop runs on its thread (as on a table), stopped afterwards."""
    rigs = []

    def start(tmp_path, **kw):
        rig = Rig(tmp_path, **kw)
        rig.ctl.start()
        rigs.append(rig)
        return rig
    yield start
    for rig in rigs:
        rig.ctl.stop()


def lock(rig, device="dealing_shoe", reason="jam"):
    rig.ctl.submit(rig.ctl.event("fault", {"device": device, "reason": reason}, source="test"))
    wait(lambda: rig.ctl.model.state == "locked_out")


@pytest.mark.parametrize("command", sorted(MINIMUM))
@pytest.mark.parametrize("role", ROLES)
def test_each_command_runs_for_its_roles_and_is_refused_below(tmp_path, command, role):
    rig = Rig(tmp_path, manifest_path=str(tmp_path / "none.manifest"))
    rig.login(role)
    out = rig.run(command)
    needed = MINIMUM[command]
    denied = "needs a %s or above" % needed
    if ROLES.index(role) < ROLES.index(needed):
        assert denied in out
        assert rig.ctl.journal.records("console_refused")[-1].data["role"] == role
    else:
        assert denied not in out
    rec = rig.console_records()[-1]
    assert rec.data["role"] == role and rec.data["command"] == command.split()[0]


def test_help_lists_only_what_the_role_may_run(tmp_path):
    rig = Rig(tmp_path)
    rig.login("dealer")
    out = rig.run("help")
    assert "status" in out and "meters" in out and "logout" in out
    assert "clear" not in out and "verify" not in out
    assert "floorperson or above" in rig.run("help clear")


def test_every_command_line_is_journaled_with_its_role_before_it_runs(tmp_path):
    rig = Rig(tmp_path)
    rig.login("floorperson")
    for line in ("status", "events 5", "frobnicate now", "devices"):
        rig.run(line)
    recs = [r.data for r in rig.console_records()]
    assert [(r["role"], r["command"], r["args"]) for r in recs] == [
        ("floorperson", "status", []), ("floorperson", "events", ["5"]),
        ("floorperson", "frobnicate", ["now"]), ("floorperson", "devices", [])]
    rig.run(PINS["floorperson"])                   # a PIN typed at the prompt by mistake
    assert rig.console_records()[-1].data["command"] == "(digits)"
    assert PINS["floorperson"] not in repr(list(rig.ctl.journal))
    refused = [r.data for r in rig.ctl.journal.records("console_refused")][:2]
    assert [r["command"] for r in refused] == ["frobnicate", "devices"]
    assert "unknown command" in refused[0]["reason"]


def test_no_command_edits_a_meter_the_model_or_the_journal(tmp_path):
    rig = Rig(tmp_path, game="raise-it-up-stud", manifest_path=str(tmp_path / "m"))
    model_before = json.dumps(rig.ctl.model.to_json(), sort_keys=True, default=str)
    rig.login("administrator")
    journal_before = list(rig.ctl.journal)
    stats_before = dict(rig.ctl.stats)
    for line in ("help", "status", "meters", "inspections", "lockouts", "selftest",
                 "events", "events 500", "events search console", "devices", "devices shoe",
                 "verify", "verify 00ff", "config show", "clear"):
        rig.run(line)
    assert json.dumps(rig.ctl.model.to_json(), sort_keys=True, default=str) == model_before
    assert rig.ctl.stats == stats_before and rig.ctl.queue.empty()
    assert rig.ctl.journal[:len(journal_before)] == journal_before
    added = rig.ctl.journal[len(journal_before):]
    assert added and all(isinstance(e, Record) and e.kind.startswith("console") for e in added)


def test_meters_shows_the_progressive_meter_in_dollars(tmp_path):
    rig = Rig(tmp_path, game="raise-it-up-stud")
    rig.login("dealer")
    out = rig.run("meters")
    assert "value $1,000.00" in out and "rate 7/50" in out and "hits 0" in out
    rig.ctl.journal.meters = {"rounds": 12, "voids": 1, "progressive.progressive.value": 100000}
    out = rig.run("meters")                 # a journaled controller's regulation meters
    assert re.search(r"rounds\s+12", out) and re.search(r"voids\s+1\b", out)
    assert "progressive.progressive.value" not in out


def test_status_names_the_lock_out_and_the_device(tmp_path, running):
    rig = running(tmp_path)
    rig.login("dealer")
    assert "state        closed" in rig.run("status")
    lock(rig)
    out = rig.run("status")
    # the games journal the kind ("device dealing_shoe: jam"); a person reads the name the
    # configuration gives the device, everywhere (issue 35)
    assert "locked_out" in out and "LOCKED OUT   device shoe: jam" in out
    assert "dealing_shoe" not in out
    assert "once shoe passes its self-test" in out       # the name `selftest` takes
    assert "shoe ready" in out


def test_clear_runs_the_devices_self_test_then_submits_the_clear(tmp_path, running):
    rig = running(tmp_path)
    rig.login("floorperson")
    assert "not locked out" in rig.run("clear")
    lock(rig)
    assert "IN FORCE" in rig.run("lockouts")
    out = rig.run("clear")
    assert "self-test shoe: pass" in out and "lock-out cleared by floorperson" in out
    shoe = rig.drivers["shoe"]
    assert shoe.selftests == 1 and shoe.cleared == 1
    assert rig.drivers["card_reader"].selftests == 0          # only the failed device
    assert rig.ctl.model.state == "closed" and rig.ctl.lockouts[-1]["cleared"]
    clear = [e for e in rig.ctl.journal if isinstance(e, Event) and e.kind == "clear"]
    assert len(clear) == 1 and clear[0].data == {"role": "floorperson", "selftest": True,
                                                 "device": "dealing_shoe", "at": "console",
                                                 "check": "device"}
    assert clear[0].source == "console"
    assert "cleared" in rig.run("lockouts")


def test_a_failed_self_test_leaves_the_lock_out_in_force(tmp_path, running):
    rig = running(tmp_path)
    rig.drivers["shoe"].ok = False
    rig.login("technician")
    lock(rig)
    out = rig.run("clear")
    assert "self-test shoe: FAIL (motor stuck)" in out and "not cleared" in out
    assert rig.ctl.model.state == "locked_out" and rig.drivers["shoe"].cleared == 0
    # the failed result is journaled as an input the game refuses: nothing silent
    clear = [e for e in rig.ctl.journal if isinstance(e, Event) and e.kind == "clear"]
    assert [e.data["selftest"] for e in clear] == [False]
    assert "has not passed its self-test" in rig.ctl.refusals[-1][1]
    assert "shoe failed its self-test" in rig.ctl.journal.records("console_refused")[-1].data[
        "reason"]


def test_a_dealer_cannot_clear(tmp_path, running):
    rig = running(tmp_path)
    rig.login("dealer")
    lock(rig)
    assert "needs a floorperson or above" in rig.run("clear")
    assert rig.drivers["shoe"].selftests == 0 and rig.ctl.model.state == "locked_out"


def test_a_progressive_lock_out_tests_the_progressive_system_one_naming_none_tests_all(
        tmp_path, running):
    rig = running(tmp_path)
    rig.login("floorperson")
    lock(rig, device="progressive", reason="count")
    assert "self-test progressive_system: pass" in rig.run("clear")
    assert rig.drivers["progressive_system"].selftests == 1
    lock(rig, device=None, reason="unknown")
    out = rig.run("clear")
    assert all(d.selftests >= 1 for d in rig.drivers.values()) and "cleared" in out


@pytest.mark.reg("581.13(k)")
def test_a_shuffler_covered_as_out_of_order_is_cleared_without_its_self_test(tmp_path, running):
    dead = FakeDriver("shuffler", "shuffler", ok=False)
    rig = running(tmp_path, game="double-attack-blackjack", drivers={"shuffler": dead})
    rig.login("floorperson")
    rig.ctl.submit(rig.ctl.event("open_table"))
    lock(rig, device="shuffler")
    assert "self-test shuffler: FAIL (motor stuck)" in rig.run("clear")
    rig.ctl.submit(rig.ctl.event("irregularity", {"kind": "device_out_of_order",
                                                  "device": "shuffler", "covered": True}))
    wait(lambda: (rig.ctl.model.lockout or {}).get("covered"))
    assert "without a self-test: shuffler is covered as out of order" in said(rig.run("status"))
    assert "covered as out of order; `clear` clears without its self-test" in \
        said(rig.run("lockouts"))
    out = rig.run("clear")
    assert "self-test shuffler: none, it is covered as out of order" in out
    assert "lock-out cleared by floorperson; the table is opened" in out
    assert dead.selftests == 1 and dead.cleared == 0          # its fault stays latched
    clear = [e for e in rig.ctl.journal if isinstance(e, Event) and e.kind == "clear"]
    assert [(e.data["selftest"], e.data["check"]) for e in clear] == [(False, "device"),
                                                                     (True, "covered")]


def test_a_lock_out_of_a_device_without_a_driver_here_is_not_cleared(tmp_path, running):
    rig = running(tmp_path)
    rig.login("floorperson")
    lock(rig, device="dice_reader")
    assert "no driver for dice_reader" in rig.run("clear")
    assert rig.ctl.model.state == "locked_out"


def test_selftest_runs_every_device_or_one(tmp_path):
    rig = Rig(tmp_path)
    rig.drivers["card_reader"].ok = False
    rig.login("floorperson")
    out = rig.run("selftest")
    assert re.search(r"shoe\s+pass", out) and re.search(r"card_reader\s+FAIL", out)
    assert re.search(r"shoe\s+pass", rig.run("selftest shoe"))
    assert "no device 'dice'" in rig.run("selftest dice")


@pytest.mark.reg("581.2(d)")
def test_inspections_records_the_card_readers_daily_inspection(tmp_path, running):
    rig = running(tmp_path, game="double-attack-blackjack")
    rig.login("dealer")
    assert "INSPECTION DUE" in rig.run("inspections")
    assert "floorperson or above" in rig.run("inspections reader pass")
    rig.run("logout")
    rig.login("floorperson")
    assert "usage" in rig.run("inspections reader maybe")
    assert "recorded: passed, by floorperson" in rig.run("inspections reader pass")
    ev = [e for e in rig.ctl.journal if isinstance(e, Event) and e.kind == "irregularity"][-1]
    assert ev.data == {"kind": "reader_inspected", "role": "floorperson", "passed": True}
    out = rig.run("inspections")
    assert "inspected and passed" in out and "passed  by floorperson" in out


@pytest.mark.reg("581.13(i)")
def test_a_failed_reader_inspection_locks_out_until_the_reader_passes_its_self_test(
        tmp_path, running):
    rig = running(tmp_path, game="double-attack-blackjack")
    rig.login("floorperson")
    assert "FAILED" in rig.run("inspections reader fail")
    wait(lambda: rig.ctl.model.state == "locked_out")
    rig.drivers["card_reader"].ok = False
    assert "not cleared" in rig.run("clear")
    rig.drivers["card_reader"].ok = True
    assert "self-test card_reader: pass" in rig.run("clear")
    assert rig.ctl.model.state != "locked_out"


def test_inspections_show_decks_opened_and_dice_placed(tmp_path, running):
    rig = running(tmp_path, game="props-and-hops")
    rig.login("dealer")
    assert "dice: not on the table yet" in rig.run("inspections")
    rig.ctl.submit(rig.ctl.event("open_table", {"decks": 0}, source="test"))
    wait(lambda: rig.ctl.model.state == "opened")
    out = rig.run("inspections")
    assert "decks opened: 1" in out and "dice placed: 0.0 h ago" in out
    assert "no daily inspection at this table" in out
    rig.run("logout")
    rig.login("floorperson")
    assert "no card reader inspection" in rig.run("inspections reader pass")


def test_events_tails_and_searches_the_journal(tmp_path):
    rig = Rig(tmp_path)
    for i in range(30):
        rig.ctl.journal(Event("wager", {"seat": 1, "wager": "ante", "amount": i}, "x", i))
    rig.login("floorperson")
    lines = rig.run("events 3").splitlines()
    assert lines[0] == "events 3" and lines[-1].startswith("tablectl[")
    assert all(len(ln) <= 80 for ln in lines)             # an entry folds on 80 columns
    out = [ln for ln in lines if ln.startswith("#")]
    assert len(out) == 3
    assert "amount=$0.29" in out[0] and "console_login" in out[1]        # dollars
    assert "record:console  role=floorperson" in out[2]   # itself, last
    assert "command=events" in " ".join(lines[lines.index(out[2]):])
    assert "20 entries match" not in rig.run("events search amount=$0.29")
    assert "1 entries match 'amount=$0.29'" in rig.run("events search amount=$0.29")
    assert "usage" in rig.run("events lots") and "1 to 500" in rig.run("events 0")


def test_events_reads_any_journal_with_iter_records(tmp_path):
    class Rows:
        def iter_records(self):
            yield (7, {"kind": "wager", "data": {"seat": 2, "amount": 500}, "ts_ns": 5 * 10 ** 9,
                       "source": "sensor"})
            yield (8, {"record": "lock_out", "data": {"reason": "jam"}, "ts_ns": 6 * 10 ** 9})
            yield Event("shuffle", {}, "shuffler", 7 * 10 ** 9)
            yield {"seq": 9, "ts_ns": 8 * 10 ** 9, "source": "shoe", "entry": "event",
                   "kind": "card", "data": '{"card": "Qh"}'}
            yield {"seq": 10, "ts_ns": 9 * 10 ** 9, "source": "controller",
                   "entry": "snapshot", "kind": "snapshot",
                   "data": '{"model": {"deck_order": ["Qh", "9c"]}}'}

    rig = Rig(tmp_path, journal=Rows())
    rig.login("floorperson")
    out = rig.run("events")
    assert "#7" in out and "wager (sensor)  seat=2 amount=$5.00" in out     # dollars
    assert "#8" in out and "record:lock_out  reason=jam" in out and "shuffle (shuffler)" in out
    assert "#9" in out and "card (shoe)  card=[hidden]" in out
    assert "#10" in out and "snapshot:snapshot" in out and "deck_order" not in out
    assert "Qh" not in out.split("\r\n", 1)[1] and "9c" not in out
    assert [e.seq for e in entries(Rows())] == [7, 8, 3, 9, 10]


def test_unrevealed_cards_never_appear_on_the_console(tmp_path):
    rig = Rig(tmp_path, game="double-attack-blackjack")
    hidden = ["Qh", "9c", "As", "Kd", "Td", "JK", "10s"]
    j = rig.ctl.journal
    j(Event("shuffle", {"stack": hidden}, "shuffler", 1))                 # undealt cards
    j(Event("card", {"card": "9c"}, "shoe", 2))                           # the hole card
    j(Record("refused", {"reason": "the hole card Qh is not due", "cards": ["As"]}, 3))
    j(Event("card", {"cards": ["Kd", "Td"]}, "shoe", 4))
    frame = b'~\x01\x03{"card":"Qh"}\x00\x00'.hex()                  # a bad frame's bytes
    j(Event("frame_rejected", {"device": "shoe", "reason": "bad_crc", "frame": frame}, "shoe", 5))
    rig.ctl.model.lock("card reader malfunction: it read a Blackjack under As 9c", "581.13(i)",
                       "card_reader")
    rig.ctl.lockouts.append({"reason": rig.ctl.model.lockout["reason"], "section": "581.13(i)",
                             "cleared": False})
    rig.drivers["shoe"].last_fault = {"reason": "jam", "detail": "stuck on Qh"}
    rig.login("administrator")
    shown = "".join(rig.run(line).split("\r\n", 1)[1] for line in (   # not the echo
        "status", "lockouts", "events 500", "events search card", "events search Qh",
        "events search 9c", "devices", "devices shoe", "config show", "meters", "inspections"))
    for code in hidden:
        assert not re.search(r"(?<![A-Za-z0-9])%s(?![A-Za-z0-9])" % code, shown), code
    assert "[hidden]" in shown and "[card]" in shown
    assert "frame_rejected" in shown and frame not in shown and "7b22636172" not in shown
    assert "0 entries match '[card]'" in shown                      # a search cannot confirm one


def test_devices_shows_state_counters_and_the_last_fault(tmp_path):
    rig = Rig(tmp_path)
    rig.drivers["shoe"].last_fault = {"reason": "jam", "ts_ns": 5}
    rig.login("technician")
    out = rig.run("devices")
    assert re.search(r"shoe\s+dealing_shoe\s+fault\s+events_out=3, faults=1", out)
    assert re.search(r"last fault: reason=jam at=\d{4}-\d\d-\d\dT", out) and \
        "ts_ns" not in out and "frames rejected: 2" in out          # a time, not table ns
    assert "device_status.temp" in rig.run("devices shoe")
    assert "no device 'x'" in rig.run("devices x")


def test_config_show_prints_the_validated_configuration(tmp_path):
    rig = Rig(tmp_path, game="raise-it-up-stud")
    rig.login("technician")
    out = rig.run("config show")
    assert re.search(r"game\s+raise-it-up-stud", out) and re.search(r"table_min\s+\$\d", out)
    assert "progressive.rate" in out
    assert "usage: config show" in rig.run("config")


def software(root):
    """A table's site-packages: three firmware files, a compiled one (never listed), a lab
    tool (not firmware, never listed) and the outcome dependencies."""
    from tests.site_packages import link_dependencies
    (root / "controller" / "games").mkdir(parents=True)
    (root / "controller" / "lab").mkdir()
    (root / "drivers").mkdir()
    (root / "controller" / "__init__.py").write_text("")
    (root / "controller" / "games" / "engine.py").write_text("RULES = 1\n")
    (root / "controller" / "lab" / "diagram.py").write_text("DRAW = 1\n")
    (root / "drivers" / "link.py").write_text("LINK = 1\n")
    (root / "controller" / "__pycache__").mkdir()
    (root / "controller" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    link_dependencies(root)
    return root


FIRMWARE = ["controller/__init__.py", "controller/games/engine.py", "drivers/link.py"]


def test_verify_compares_every_file_with_the_manifest_like_a_lab(tmp_path):
    root = software(tmp_path / "site")
    path, sig, _ = manifest.write(str(tmp_path / "tablectl.manifest"), str(root))
    listed = [ln.split("  ")[1] for ln in open(path).read().splitlines()]
    assert [f for f in listed if f.startswith(("controller/", "drivers/"))] == FIRMWARE
    deps = [f for f in listed if f not in FIRMWARE]
    assert "transitions/core.py" in deps and "serial/__init__.py" in deps
    rig = Rig(tmp_path, manifest_path=path, manifest_root=str(root))
    rig.login("technician")
    out = rig.run("verify")
    assert "PASS: %d files listed, 0 changed" % len(listed) in out and sig in out
    a, b = rig.run("verify 00ff"), rig.run("verify 0a0b")
    seeded = re.compile(r"under the seed:\s+([0-9a-f]{64})")
    assert seeded.search(a).group(1) != seeded.search(b).group(1)
    assert seeded.search(a).group(1) == seeded.search(rig.run("verify 00ff")).group(1)
    (root / "controller" / "games" / "engine.py").write_text("RULES = 2\n")
    (root / "drivers" / "link.py").unlink()
    (root / "drivers" / "extra.py").write_text("")
    out = rig.run("verify")
    assert "changed   controller/games/engine.py" in out
    assert "missing   drivers/link.py" in out and "unlisted  drivers/extra.py" in out
    assert "FAIL: %d files listed, 1 changed, 1 missing, 1 unlisted" % len(listed) in out


def test_verify_shows_the_journal_head_to_write_down(tmp_path):
    from controller.journal.formats import open_journal
    from tests.journal.test_boot import boot_fresh
    root = software(tmp_path / "site")
    path, _, _ = manifest.write(str(tmp_path / "tablectl.manifest"), str(root))
    ctl = boot_fresh(tmp_path / "journal.db")
    try:
        commands = Commands(ctl, {}, manifest_path=path, manifest_root=str(root))
        out = commands.run("technician", "verify")
        seq, digest = ctl.store.last()        # the command line itself is journaled first
    finally:
        ctl.close()
    store = open_journal(str(tmp_path / "journal.db"))
    try:
        last = list(store.rows())[-1]
    finally:
        store.close()
    assert (seq, digest) == (last["seq"], last["hash"]) and last["kind"] == "console"
    assert out.splitlines()[-1] == "journal head        %d:%s" % (seq, digest)
    assert "journal head" not in Rig(tmp_path, manifest_path=path,
                                     manifest_root=str(root)).commands.run("technician",
                                                                           "verify")


def test_verify_without_a_manifest_says_how_to_write_one(tmp_path):
    rig = Rig(tmp_path, manifest_path=str(tmp_path / "absent"), manifest_root=str(tmp_path))
    rig.login("technician")
    out = rig.run("verify")
    assert "no manifest at" in out and "(tablectl manifest)" in out


def test_the_manifest_is_checked_by_its_one_command(tmp_path, capsys):
    """`tablectl manifest` writes and checks it; a malformed manifest is one line naming it
    and the command that writes it again."""
    from controller.cli import main
    root = software(tmp_path / "site")
    out = str(tmp_path / "m")
    assert main(["manifest", "--root", str(root), "--out", out]) == 0
    assert main(["manifest", "--root", str(root), "--out", out, "--check"]) == 0
    (root / "drivers" / "link.py").write_text("LINK = 2\n")
    assert main(["manifest", "--root", str(root), "--out", out, "--check"]) == 1
    assert "changed: drivers/link.py" in capsys.readouterr().out
    open(out, "a").write("nonsense\n")
    assert main(["manifest", "--root", str(root), "--out", out, "--check"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tablectl manifest: manifest %s line" % out)
    assert err[0].endswith("(write it again: tablectl manifest)")


def test_the_shipped_software_has_a_manifest_of_itself(tmp_path):
    path, sig, _ = manifest.write(str(tmp_path / "m"))
    r = manifest.verify(path)
    assert r.ok and "controller/console/manifest.py" in r.expected and r.signature == sig


def test_a_driver_that_raises_is_a_failed_self_test_not_a_dead_console(tmp_path):
    class Broken(FakeDriver):
        def selftest(self):
            raise OSError("port gone")

        def status(self):
            raise OSError("port gone")

    rig = Rig(tmp_path, drivers={"shoe": Broken("shoe", "dealing_shoe")})
    rig.login("technician")
    assert "FAIL  (OSError: port gone)" in rig.run("selftest")
    assert "shoe" in rig.run("devices") and "error" in rig.run("devices")
    assert Commands(rig.ctl, None).devices == {}


def test_a_self_test_that_rewrites_outputs_runs_only_while_the_outputs_are_held_safe(
        tmp_path, running):
    class Gpio(FakeDriver):
        outputs = {"lockout": object()}

    rig = running(tmp_path, drivers={"progressive_system": Gpio("progressive_system",
                                                                 "progressive_system"),
                                     "shoe": FakeDriver("shoe", "dealing_shoe")})
    rig.login("technician")
    assert re.search(r"progressive_system\s+pass", rig.run("selftest"))      # closed
    rig.ctl.submit(rig.ctl.event("open_table", {"decks": 1}, source="test"))
    wait(lambda: rig.ctl.model.state == "opened")
    out = rig.run("selftest")
    assert "progressive_system   skipped" in out and re.search(r"shoe\s+pass", out)
    assert rig.drivers["progressive_system"].selftests == 1
    lock(rig, device="progressive")
    assert "self-test progressive_system: pass" in rig.run("clear")


def test_every_message_naming_the_manifest_tool_names_tablectl_manifest(tmp_path):
    """One manifest tool (issue 32): `show version` and `verify` without a manifest say how
    to write one with `tablectl manifest`, and no message, help, comment or document of the
    firmware, its docs or its installer names another (the retired `python3 -m
    controller.console.manifest`, `-m ...manifest`); docs/architecture.md's measurement of
    the old tree is the one place that names it, as history."""
    import os
    missing = str(tmp_path / "none.manifest")
    rig = Rig(tmp_path, manifest_path=missing)
    rig.login("administrator")
    version = said(rig.run("show version"))
    assert "manifest: none" in version and "(tablectl manifest)" in version
    assert "(tablectl manifest)" in said(rig.run("verify"))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    old = re.compile(r"-m\s+(controller\.console\.)?\.*manifest\b|-m \.\.\.manifest")
    paths = [os.path.join(root, "README.md")]
    for top in ("controller", "drivers", "hal_sim", "docs", "deploy"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            paths += [os.path.join(dirpath, f) for f in files
                      if f.endswith((".py", ".md", ".sh", ".1", ".txt", ".toml"))]
    named = []
    for path in paths:
        if path.endswith(os.path.join("docs", "architecture.md")):
            continue                        # its before-and-after of the tree: history
        with open(path, errors="replace") as fh:
            named += ["%s:%d" % (os.path.relpath(path, root), n)
                      for n, line in enumerate(fh, 1) if old.search(line)]
    assert not named, "the retired manifest command named at %s" % ", ".join(named)
