"""The controller loop: one writer, journal first, refusals harmless, the fault path."""
import threading

import pytest

from controller.games.events import Event
from controller.journal_part import MemoryJournal
from controller.table import Record
from tests.controller.helpers import LIGHTS, LOCKOUT, TOWER, ev, feed, make, wager


def opened(**kw):
    ctl, gpio, clock = make(**kw)
    feed(ctl, ev("open_table", 10), ev("shuffle", 20))
    return ctl, gpio, clock


def test_every_event_is_journaled_before_it_is_applied():
    ctl, gpio, clock = opened()
    seen = []

    class Seen(MemoryJournal):
        def __call__(self, entry):
            seen.append((entry, ctl.model.state))
    ctl.journal = Seen()
    ctl.journal.attach(ctl)
    feed(ctl, wager(1, 30))
    assert seen[0][0].kind == "wager" and seen[0][1] == "shuffled"   # before: not yet a round
    assert ctl.model.state == "wagers_open"


def test_a_refused_event_is_journaled_with_its_refusal_and_changes_nothing():
    ctl, gpio, clock = opened()
    feed(ctl, wager(1, 30))
    before = ctl.table.snapshot()
    feed(ctl, ev("dice", 40, dice=[1, 1]))                  # no roll is due
    assert ctl.table.snapshot() == before
    assert ctl.stats["refused"] == 1
    refusal = ctl.journal[-1]
    assert isinstance(refusal, Record) and refusal.kind == "refused"
    assert refusal.data["event_kind"] == "dice" and "no roll is due" in refusal.data["reason"]
    assert ctl.journal[-2].kind == "dice"                    # the input itself, first


def test_malformed_data_is_refused_and_records_no_wager():
    ctl, gpio, clock = opened()
    feed(ctl, Event("wager", {"seat": 1, "wager": "two_hardway", "amount": "lots"}, "x", 30))
    assert ctl.stats["refused"] == 1 and ctl.model.wagers == {}
    assert ctl.model.state != "locked_out"


@pytest.mark.reg("581.13(i)")
def test_fault_drives_every_output_safe_and_locks_the_game():
    ctl, gpio, clock = opened()
    feed(ctl, wager(1, 30, wager="two_hardway"))
    assert gpio.level(LOCKOUT) is False                      # wagering open
    feed(ctl, ev("fault", 40, device="dice_shaker_reader", reason="no answer"))
    assert ctl.model.state == "locked_out"
    assert all(o.pin.is_safe for o in ctl.outputs.all())
    assert gpio.level(LOCKOUT) is True and gpio.level(TOWER) is True
    assert [{k: lo[k] for k in ("reason", "section", "cleared")} for lo in ctl.lockouts] == [{"reason": "device dice_shaker_reader: no answer", "section": None,
                             "cleared": False}]
    feed(ctl, ev("fault", 41, device="dice_shaker_reader", reason="again"))   # idempotent
    assert len(ctl.lockouts) == 1 and ctl.model.state == "locked_out"
    feed(ctl, ev("clear", 50, role="floorperson", selftest=True))
    assert ctl.model.state == "wagers_open" and ctl.lockouts[0]["cleared"] is True
    assert gpio.level(LOCKOUT) is False


@pytest.mark.reg("583.13(e)")
def test_a_fault_the_game_refuses_still_locks_out():
    ctl, gpio, clock = make("flop-poker")
    feed(ctl, ev("open_table", 10))
    feed(ctl, ev("fault", 20, device="dealing_shoe", reason="jam"))   # no shoe in use here
    assert ctl.model.state == "locked_out" and ctl.stats["refused"] == 1
    assert all(o.pin.is_safe for o in ctl.outputs.all())


def test_a_failing_output_does_not_stop_the_safe_path():
    ctl, gpio, clock = opened()
    feed(ctl, wager(1, 30))
    gpio.fail_writes(TOWER, OSError("stuck"))
    feed(ctl, ev("fault", 40, device="x", reason="y"))
    assert gpio.level(LOCKOUT) is True
    assert ctl.journal.records("safe_path_failures")


def test_thread_loop_applies_submissions_from_other_threads_and_joins():
    ctl, gpio, clock = opened()
    ctl.start()
    try:
        senders = [threading.Thread(target=ctl.submit, args=(wager(s, 30 + s),))
                   for s in range(1, 7)]
        for t in senders:
            t.start()
        for t in senders:
            t.join()
    finally:
        ctl.stop()
    ctl.run_until_idle()
    assert sorted(ctl.model.wagers) == ["1", "2", "3", "4", "5", "6"]
    assert ctl._thread is None


def test_stop_without_start_and_twice_is_harmless():
    ctl, gpio, clock = opened()
    ctl.stop()
    ctl.start()
    ctl.stop()
    ctl.stop()


def test_acceptance_lights_follow_the_progressive_wagers():
    ctl, gpio, clock = make("raise-it-up-stud")
    feed(ctl, ev("open_table", 10), ev("shuffle", 20))
    feed(ctl, wager(2, 30, "ante", 500, "panel"), wager(2, 31, "blind", 500, "panel"),
         wager(2, 32, "progressive", 100))
    assert gpio.level(LIGHTS["2"]) is True and gpio.level(LIGHTS["1"]) is False
