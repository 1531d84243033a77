"""The one clear service (controller/clearing.py): each lock-out's rule (who, where, after
what), the self-test off the loop thread, and the journal-integrity lock-out that only a
technician at the console clears, after the journal verifies again."""
import threading
import time

import pytest

from controller.clearing import CONSOLE, PANEL, SelftestOnClear, rule_for, service_for
from controller.games.engine import LOCKED_OUT
from controller.games.events import Event
from controller.journal import boot
from controller.policies import default_policies
from controller.lab.sim import Simulation
from tests.console.support import FakeDriver, Rig, said
from tests import builders

GAME = "raise-it-up-stud"


def wait(pred, timeout=30.0):
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def panel_approval(ctl, role="floorperson"):
    """What the dealer panel's driver makes of an `approval` (drivers/devices/dealer_panel.py)."""
    return Event("clear", {"role": role, "badge": "FP-1", "what": "clear"}, "dealer_panel",
                 ctl.clock())


@pytest.fixture(scope="module")
def journal_master(tmp_path_factory):
    path = tmp_path_factory.mktemp("clearing") / "riu.db"
    s = Simulation(GAME, 2, journal=str(path))
    try:
        s.run(2)
    finally:
        s.close()
    return path


def booted(path):
    table = builders.table(GAME)
    ctl = boot(str(path), table, [SelftestOnClear({})] + default_policies(GAME))
    ctl.start()
    return ctl


def tamper(path, what):
    """The journal edited as whoever can write its file would, in its own format (either:
    tests/journal/tamper.py): row 7's data, or the rounds meter."""
    from tests.journal import tamper as T
    if what == "row 7":
        def edit(rows):
            rows[6]["data"] += " "
            return rows
        T.edit_rows(path, edit)
    else:
        T.edit_meters(path, lambda m: dict(m, rounds=m["rounds"] + 1))


@pytest.fixture
def integrity(journal_master, tmp_path):
    """A controller booted on a journal whose row 7 was edited: locked out by the journal."""
    import shutil
    path = tmp_path / "table.db"
    shutil.copy(journal_master, path)
    tamper(path, "row 7")
    ctl = booted(path)
    yield ctl
    ctl.stop()
    ctl.close()


def test_the_dealer_panel_cannot_clear_a_journal_integrity_lock_out(integrity, tmp_path):
    ctl = integrity
    assert ctl.model.state == LOCKED_OUT and ctl.model.lockout["device"] == "journal"
    ctl.submit(panel_approval(ctl))
    wait(lambda: ctl.journal.records("refused"))         # journaled after the refusal list
    assert ctl.model.state == LOCKED_OUT
    event, reason = ctl.refusals[-1]
    assert "cleared only at console, by a technician or above" in reason
    assert ctl.journal.records("refused")[-1].data["error"] == "ClearRefused"
    # nor does a clear that claims a passed self-test without the service having run it
    ctl.submit(Event("clear", {"role": "administrator", "selftest": True}, "console",
                     ctl.clock()))
    wait(lambda: len(ctl.journal.records("refused")) == 2)
    assert ctl.model.state == LOCKED_OUT and "only through the console" in ctl.refusals[-1][1]


def test_an_integrity_lock_out_is_cleared_only_by_a_technician_after_the_journal_verifies(
        integrity, tmp_path):
    rig = Rig(tmp_path)
    rig.ctl = integrity                      # the console over the booted controller
    from controller.console.commands import Commands
    rig.commands = Commands(integrity, {}, journal=integrity.journal)
    rig.session.commands = rig.commands
    rig.login("floorperson")
    status = rig.run("status")
    assert "to clear a technician or above, at the console (`clear`), once the journal " \
        "file verifies again from its first row" in said(status)
    assert "is cleared by a technician or above, not 'floorperson'" in said(rig.run("clear"))
    assert integrity.model.state == LOCKED_OUT
    rig.run("logout")
    rig.login("technician")
    out = rig.run("clear")
    assert "journal check: FAIL" in out and "first bad row 7" in out
    assert "lock-out not cleared: the journal failed its check" in out
    assert integrity.model.state == LOCKED_OUT


def test_a_journal_that_verifies_again_lets_a_technician_clear_at_the_console(
        journal_master, tmp_path):
    import shutil
    path = tmp_path / "table.db"
    shutil.copy(journal_master, path)
    shutil.copy(str(journal_master) + ".anchor", str(path) + ".anchor")   # as the disk holds it
    tamper(path, "the rounds meter")
    ctl = booted(path)                       # locked: the meter differs; rewritten from replay
    ctl.stop()
    ctl.close()
    ctl = booted(path)                       # the checks pass now; the lock-out stays
    try:
        assert ctl.model.state == LOCKED_OUT and ctl.model.lockout["device"] == "journal"
        service = service_for(ctl, {})
        t = service.request("floorperson", CONSOLE)
        assert t.ok is False and "technician" in t.reason
        t = service.request("technician", CONSOLE)
        assert t.ok is True, (t.lines, t.reason)
        assert t.lines[0].startswith("journal check: pass")
        clear = [e for e in ctl.journal if isinstance(e, Event) and e.kind == "clear"][-1]
        assert clear.data["check"] == "journal" and clear.data["role"] == "technician"
    finally:
        ctl.stop()
        ctl.close()
    # and the journal, with the service's clear in it, replays and verifies
    from controller.journal.cli import verify_path
    ok, message, _ = verify_path(str(path))
    assert ok, message


def test_each_lock_out_names_who_may_clear_it_where_and_after_what():
    device = rule_for({"device": "dealing_shoe"})
    assert (device.minimum, device.places) == ("floorperson", (CONSOLE, PANEL))
    assert "once dealing_shoe passes its self-test" in device.describe()
    covered = rule_for({"device": "shuffler", "covered": True})
    assert "without a self-test" in covered.describe()
    every = rule_for({"device": "controller"})
    assert "every device passes its self-test" in every.describe()
    journal = rule_for({"device": "journal"})
    assert (journal.minimum, journal.places) == ("technician", (CONSOLE,))
    assert journal.refusal("administrator", PANEL) and journal.refusal("floorperson", CONSOLE)
    assert journal.refusal("technician", CONSOLE) is None


def test_the_dealer_panels_clear_runs_the_self_test_off_the_loop_thread(tmp_path):
    seen = []

    class Slow(FakeDriver):
        def selftest(self):
            seen.append(threading.current_thread().name)
            time.sleep(0.2)                    # a slow device must not hold the loop
            return super().selftest()

    shoe = Slow("shoe", "dealing_shoe")
    rig = Rig(tmp_path, drivers={"shoe": shoe})
    ctl = rig.ctl
    ctl.policies.insert(0, SelftestOnClear({"shoe": shoe}))
    ctl.start()
    try:
        ctl.submit(ctl.event("fault", {"device": "dealing_shoe", "reason": "jam"}, "shoe"))
        wait(lambda: ctl.model.state == LOCKED_OUT)
        ctl.submit(panel_approval(ctl))
        wait(lambda: seen)
        ticks = ctl.stats["events"]
        ctl.submit(ctl.event("irregularity", {"kind": "note", "text": "while testing"}))
        wait(lambda: ctl.stats["events"] > ticks, 0.15)     # the loop goes on meanwhile
        wait(lambda: ctl.model.state != LOCKED_OUT)
        assert seen == ["tablectl-clear"]
        assert ctl.journal.records("clear_deferred")
        assert ctl.lockouts[-1]["cleared_by"] == "floorperson"
        assert ctl.lockouts[-1]["cleared_at"] == "dealer_panel"
    finally:
        ctl.stop()
        wait(lambda: ctl.clearing.busy is None)


def test_the_simulated_floorperson_clears_through_the_service():
    s = Simulation("flop-poker", 5, faults=[("shoe", "jam", 1.0)])
    try:
        s.run(2)
        clears = [e for e in s.ctl.journal if isinstance(e, Event) and e.kind == "clear"]
        approvals = [e for e in clears if "selftest" not in e.data]      # the panel's
        served = [e for e in clears if "selftest" in e.data]              # the service's
        assert approvals and len(served) == len(approvals)
        assert all(e.data["check"] == "device" and e.data["at"] == "dealer_panel"
                   for e in served)
        assert s.ctl.journal.records("clear_deferred")
    finally:
        s.close()


def test_money_meters_since_installation_count_the_journals_rounds_before_this_start(
        journal_master, tmp_path):
    """The meters read the rounds before the console started from the journal's snapshots
    and count the later ones live: the sum is every settled round once."""
    import shutil
    from controller.console.commands import Commands
    path = tmp_path / "table.db"
    shutil.copy(journal_master, path)
    shutil.copy(str(journal_master) + ".anchor", str(path) + ".anchor")   # as the disk holds it
    s = Simulation(GAME, 9, journal=str(path))
    try:
        before = s.ctl.model.round_no
        commands = Commands(s.ctl, s.drivers)
        s.run(2)
        today, total, _ = commands.meters_book.read()
        rounds = max(m["rounds"] for m in total.values())
        assert rounds == 4 and s.ctl.model.round_no == before + 2
        played = s.autoplay.stats["returns"]            # this start's two rounds
        live = commands.meters_book.live_total
        for wager, r in played.items():
            assert live[wager]["handle"] == r["wagered"]
            assert live[wager]["hold"] == -r["net"]
        assert all(total[w]["handle"] > live[w]["handle"] for w in live)
        out = commands.run("dealer", "meters")
        assert "since installation" in out and "rounds 4" in out
    finally:
        s.close()
