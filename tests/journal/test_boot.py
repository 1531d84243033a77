"""Boot checks: meters equal their replay; a broken journal or a meter that differs locks the
table naming the first bad row; a lock-out in force at the power loss is in force after."""

from controller import cli
from controller.games import model_class
from controller.games.engine import LOCKED_OUT
from controller.games.events import Event
from controller.journal import boot
from controller.journal import meters as M
from controller.journal.live import check
from controller.journal.formats import open_journal
from tests.journal import tamper
from controller.policies import default_policies
from tests import builders


def fresh(game="flop-poker"):
    return builders.table(game), default_policies(game)


def boot_fresh(path, game="flop-poker", clock=None):
    table, policies = fresh(game)
    kw = {"clock": clock} if clock else {}
    return boot(str(path), table, policies, **kw)


def test_the_meters_equal_their_replay_from_the_genesis(journal_copy):
    store = open_journal(str(journal_copy))
    try:
        replay, problem = check(store, model_class("raise-it-up-stud"), full=True)
        stored = store.meters()
    finally:
        store.close()
    assert problem is None
    assert stored == M.derive(replay.ctl.model, replay.counters)
    assert stored["rounds"] == 3 and stored["progressive.progressive.value"] > 100000


def test_journal_verify_exits_0_when_everything_holds(journal_copy, capsys):
    assert cli.main(["journal", "verify", str(journal_copy)]) == 0
    assert "the chain holds" in capsys.readouterr().out


def test_journal_verify_exits_1_naming_the_first_bad_row(either_copy, capsys):
    journal_copy = either_copy                         # either format (tamper.py)

    def edit(rows):
        first, second = [r for r in rows if r["kind"] == "wager" and r["seq"] > 20][:2]
        for r in (second, first):
            r["data"] = r["data"].replace("500", "5000")
        edit.first = first["seq"]
        return rows
    tamper.edit_rows(journal_copy, edit)
    first = edit.first
    assert cli.main(["journal", "verify", str(journal_copy)]) == 1
    assert "first bad row %d:" % first in capsys.readouterr().out


def test_a_meter_edited_beside_the_journal_is_found(either_copy, capsys):
    journal_copy = either_copy                         # either format (tamper.py)
    store = open_journal(str(journal_copy))
    meters_seq = store.meters_seq()
    store.close()
    tamper.edit_meters(journal_copy, lambda m: dict(m, **{
        "progressive.progressive.value": m["progressive.progressive.value"] + 100}))
    assert cli.main(["journal", "verify", str(journal_copy)]) == 1
    out = capsys.readouterr().out
    assert "first bad row %d: meter progressive.progressive.value" % meters_seq in out


def test_a_broken_chain_starts_the_controller_locked_and_starts_no_device(either_copy,
                                                                          capsys):
    journal_copy = either_copy                         # either format (tamper.py)
    tamper.edit_rows(journal_copy, lambda rows: [r for r in rows if r["seq"] != 33])
    table, policies = fresh("raise-it-up-stud")
    ctl = boot(str(journal_copy), table, policies, full=True)
    try:
        assert ctl.model.state == LOCKED_OUT
        assert ctl.model.lockout["reason"].startswith("journal: row 33: missing")
        assert ctl.boot_report["problem"].startswith("row 33")
    finally:
        ctl.close()
    # the simulator refuses to start its devices on it (exit 1, the reason printed)
    rc = cli.main(["sim", "--game", "raise-it-up-stud", "--rounds", "1", "--journal",
                   str(journal_copy)])
    assert rc == 1
    assert "locked out: row 33: missing" in capsys.readouterr().err


def test_an_integrity_lock_out_stays_until_an_authorized_clear(either_copy):
    journal_copy = either_copy                         # either format (tamper.py)
    tamper.edit_meters(journal_copy, lambda m: dict(m, rounds=m["rounds"] + 1))
    table, policies = fresh("raise-it-up-stud")
    ctl = boot(str(journal_copy), table, policies)
    assert ctl.model.state == LOCKED_OUT and "meter rounds" in ctl.model.lockout["reason"]
    ctl.close()
    # the lock-out journaled the difference and the meters were written again from the
    # replay; the next boot's checks pass but the lock-out is still in force
    table, policies = fresh("raise-it-up-stud")
    ctl = boot(str(journal_copy), table, policies)
    try:
        assert ctl.boot_report["problem"] is None
        assert ctl.model.state == LOCKED_OUT
        ctl.process(ctl.event("clear", {"role": "dealer", "selftest": True}))
        assert ctl.model.state == LOCKED_OUT            # a dealer may not clear it
        ctl.process(ctl.event("clear", {"role": "floorperson", "selftest": True}))
        assert ctl.model.state != LOCKED_OUT
    finally:
        ctl.close()
    table, policies = fresh("raise-it-up-stud")
    ctl = boot(str(journal_copy), table, policies)
    try:
        assert ctl.model.state != LOCKED_OUT and ctl.boot_report["problem"] is None
    finally:
        ctl.close()


def test_a_device_lock_out_at_the_power_loss_is_in_force_after_the_restart(tmp_path):
    path = tmp_path / "t.db"
    now = iter(range(10 ** 9, 10 ** 12, 10 ** 6))
    ctl = boot_fresh(path, clock=lambda: next(now))
    ctl.process(ctl.event("open_table", {"decks": 1}))
    ctl.process(ctl.event("fault", {"device": "shoe", "reason": "jam", "section": "583.13(e)"},
                          source="shoe"))
    assert ctl.model.state == LOCKED_OUT
    ctl.close()                                   # the power goes: nothing more is written
    again = boot_fresh(path)
    try:
        assert again.model.state == LOCKED_OUT
        assert again.model.lockout == {"device": "shoe", "reason": "device shoe: jam",
                                       "section": "583.13(e)"}
        assert again.model.resume_to == "opened"
        assert again.boot_report["state"] == LOCKED_OUT
    finally:
        again.close()


def test_an_input_journaled_but_not_applied_is_applied_by_the_replay(tmp_path):
    path = tmp_path / "t.db"
    ctl = boot_fresh(path)
    ctl.journal(Event("open_table", {"decks": 1}, "dealer_panel", ctl.clock()))
    ctl.close()                                   # journaled, then the power went
    again = boot_fresh(path)
    try:
        assert again.model.state == "opened"
    finally:
        again.close()
