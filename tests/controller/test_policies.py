"""The enforcement policies, each against the regulation it enforces."""
import pytest

from controller.journal_part import MemoryJournal
from tests.controller.helpers import HOUR, LOCKOUT, TOWER, ev, feed, make, wager

NMB = ("583.7(c)", "669a.7(c)", "670a.7(c)", "585.3(e)")


def rolling_table(**kw):
    ctl, gpio, clock = make(**kw)
    feed(ctl, ev("open_table", 10), ev("shuffle", 20), wager(1, 100))
    return ctl, gpio, clock


@pytest.mark.reg("583.7(c)")
@pytest.mark.reg("585.3(e)")
def test_press_engages_the_lockout_in_the_same_step():
    ctl, gpio, clock = rolling_table()
    mark = len(gpio.history(LOCKOUT))
    ctl.submit(ev("no_more_bets", 200))
    ctl.process(ctl.urgent.get())         # one event (the priority lane), nothing else yet
    assert gpio.level(LOCKOUT) is True and gpio.history(LOCKOUT)[mark][1] is True
    assert ctl.model.state == "wagers_open"   # the game closes at the end of the step
    ctl.tick()
    assert ctl.model.state == "rolling"


@pytest.mark.reg("583.7(c)")
@pytest.mark.reg("669a.7(c)")
def test_past_post_is_refused_and_journaled_as_an_attempt():
    ctl, gpio, clock = rolling_table()
    feed(ctl, ev("no_more_bets", 200), wager(2, 201))
    assert ctl.model.wagers == {"1": {"two_hardway": 500}}
    attempt = ctl.journal.records("wager_attempt")
    assert attempt and attempt[0].data["seat"] == 2 and attempt[0].data["press_ns"] == 200
    assert ctl.policies[-1].stats["attempted"] == 1
    feed(ctl, wager(3, 300))                  # once the round is being played, too
    assert ctl.policies[-1].stats["attempted"] == 2 and "3" not in ctl.model.wagers


@pytest.mark.reg("583.7(c)")
@pytest.mark.reg("670a.7(c)")
def test_wager_stamped_before_the_press_and_delivered_late_is_recognized():
    ctl, gpio, clock = rolling_table(no_more_bets={"window_ns": 1000})
    feed(ctl, ev("no_more_bets", 200))
    assert ctl.model.state == "wagers_open" and gpio.level(LOCKOUT) is True
    feed(ctl, wager(4, 150), wager(5, 250))   # in timestamp order: 4 in, 5 an attempt
    clock.now = 1200
    ctl.run_once()
    assert ctl.model.state == "rolling"
    assert sorted(ctl.model.wagers) == ["1", "4"]
    feed(ctl, wager(6, 199))                  # stamped before, arrived after the close
    assert "6" not in ctl.model.wagers and ctl.policies[-1].stats["late_refused"] == 1


@pytest.mark.reg("583.7(c)")
def test_within_one_batch_wagers_go_in_timestamp_order_around_the_press():
    ctl, gpio, clock = rolling_table()
    for e in (ev("no_more_bets", 200), wager(2, 199), wager(3, 201)):
        ctl.submit(e)
    ctl.run_until_idle()
    assert sorted(ctl.model.wagers) == ["1", "2"]


@pytest.mark.reg("669a.2(c)(2)")
@pytest.mark.reg("669a.7(c)")
def test_chip_count_mismatch_holds_the_round_for_a_floorperson():
    ctl, gpio, clock = make("raise-it-up-stud")
    feed(ctl, ev("open_table", 10), ev("shuffle", 20))
    for seat in (1, 2):
        feed(ctl, wager(seat, 30 + seat, "ante", 500, "panel"),
             wager(seat, 40 + seat, "blind", 500, "panel"))
    feed(ctl, wager(1, 50, "progressive", 100))
    feed(ctl, ev("no_more_bets", 200, progressive_chips=2))
    assert ctl.model.state == "locked_out" and "progressive chips" in ctl.lockouts[0]["reason"]
    assert gpio.level(LOCKOUT) is True and ctl.policies[-1].stats["mismatches"] == 1
    feed(ctl, ev("clear", 300, role="floorperson", selftest=True))
    assert ctl.model.state == "dealing"


@pytest.mark.reg("670a.2(c)(2)")
def test_chip_count_mismatch_is_held_at_a_game_that_leaves_it_to_the_controller():
    ctl, gpio, clock = make("six-card-fortune-pai-gow", no_more_bets={"require_count": True})
    feed(ctl, ev("open_table", 10), ev("shuffle", 20))
    feed(ctl, wager(1, 30, "six_card_fortune", 500, "panel"), wager(1, 31, "progressive", 100))
    feed(ctl, ev("no_more_bets", 200))            # the press; the count follows
    feed(ctl, ev("no_more_bets", 210, progressive_chips=0))
    assert ctl.model.state == "locked_out" and ctl.lockouts[0]["section"] == "670a.2(c)(2)"


@pytest.mark.reg("670a.2(c)(2)")
def test_a_matching_count_deals_on():
    ctl, gpio, clock = make("six-card-fortune-pai-gow", no_more_bets={"require_count": True})
    feed(ctl, ev("open_table", 10), ev("shuffle", 20))
    feed(ctl, wager(1, 30, "six_card_fortune", 500, "panel"), wager(1, 31, "progressive", 100))
    feed(ctl, ev("no_more_bets", 200))
    assert ctl.model.state == "wagers_open"       # waits for the dealer's count
    feed(ctl, ev("no_more_bets", 210, progressive_chips=1))
    assert ctl.model.state not in ("wagers_open", "locked_out")


@pytest.mark.reg("583.7(c)")
def test_a_press_the_game_refuses_reopens_wagering():
    ctl, gpio, clock = make("flop-poker")
    feed(ctl, ev("open_table", 10), ev("shuffle", 20), wager(1, 30, "ante", 500, "panel"))
    feed(ctl, ev("no_more_bets", 200))           # no Pot Wager at seat 1
    assert ctl.model.state == "wagers_open" and gpio.level(LOCKOUT) is False
    assert ctl.journal.records("close_refused")


@pytest.mark.reg("581.3(c)")
def test_double_attack_decks_warn_then_refuse_a_new_round_after_24_hours():
    ctl, gpio, clock = make("double-attack-blackjack", intervals={"lead_ns": HOUR})
    inspect = ev("irregularity", 0, kind="reader_inspected", role="floorperson", passed=True)
    feed(ctl, ev("open_table", 0), inspect, ev("shuffle", 10))
    clock.now = 23 * HOUR + 1
    ctl.run_once()
    warning = ctl.journal.records("interval_warning")
    assert warning and warning[0].data["section"] == "581.3(c)" and gpio.level(TOWER) is True
    feed(ctl, wager(1, 24 * HOUR + 5, "bet", 500, "panel"))
    assert ctl.model.state == "deck_removed" and ctl.refusals[-1][1].endswith("(581.3(c))")
    feed(ctl, ev("new_deck", 25 * HOUR))
    assert ctl.model.state == "opened"


@pytest.mark.reg("670a.3(c)")
@pytest.mark.reg("670a.2(d)(1)(i)")
def test_six_card_fortune_deck_hours_and_dice_in_the_shaker():
    cfg = {"options": {"start_method": "dice", "dealing": "hand", "shuffler": "automated"}}
    ctl, gpio, clock = make("six-card-fortune-pai-gow", cfg=cfg)
    feed(ctl, ev("open_table", 0), ev("shuffle", 10))
    feed(ctl, wager(1, 4 * HOUR + 1, "six_card_fortune", 500, "panel"))
    assert ctl.model.state == "deck_removed" and "670a.3(c)(1)" in ctl.refusals[-1][1]
    feed(ctl, ev("new_deck", 21 * HOUR))         # new cards, same dice
    feed(ctl, ev("shuffle", 24 * HOUR + 1))
    assert ctl.model.state == "deck_removed" and "670a.2(d)(1)(i)" in ctl.refusals[-1][1]


@pytest.mark.reg("583.3(c)")
def test_flop_poker_hours_stay_with_the_game_the_controller_only_warns():
    ctl, gpio, clock = make("flop-poker", intervals={"lead_ns": HOUR})
    feed(ctl, ev("open_table", 0), ev("shuffle", 10))
    feed(ctl, wager(1, 7 * HOUR + 30, "ante", 500, "panel"))
    assert ctl.journal.records("interval_warning")[0].data["enforced_by"] == "game"
    feed(ctl, wager(2, 8 * HOUR + 1, "ante", 500, "panel"))
    assert ctl.model.state == "deck_removed" and "583.3(c)(2)" in ctl.refusals[-1][1]
    assert not ctl.journal.records("interval_expired")     # removed once, by the game


@pytest.mark.reg("585.3(b)(1)")
def test_props_and_hops_dice_are_the_games_the_warning_is_the_controllers():
    ctl, gpio, clock = make("props-and-hops", intervals={"lead_ns": HOUR})
    feed(ctl, ev("open_table", 0), ev("shuffle", 10))
    clock.now = 23 * HOUR + 5
    ctl.run_once()
    assert ctl.journal.records("interval_warning")[0].data["section"] == "585.3(b)(1)"
    feed(ctl, wager(1, 24 * HOUR + 5))
    assert ctl.model.state == "deck_removed"


@pytest.mark.reg("581.2(d)")
def test_double_attack_deals_nothing_before_the_days_reader_inspection():
    ctl, gpio, clock = make("double-attack-blackjack")
    feed(ctl, ev("open_table", 0), ev("shuffle", 10), wager(1, 20, "bet", 500, "panel"))
    assert gpio.level(LOCKOUT) is True
    feed(ctl, ev("no_more_bets", 30))
    assert ctl.model.state == "wagers_open" and "581.2(d)" in ctl.refusals[-1][1]
    feed(ctl, ev("irregularity", 40, kind="reader_inspected", role="dealer", passed=True))
    assert "floorperson" in ctl.refusals[-1][1]
    feed(ctl, ev("irregularity", 50, kind="reader_inspected", role="floorperson", passed=True))
    assert gpio.level(LOCKOUT) is False
    feed(ctl, ev("no_more_bets", 60))
    assert ctl.model.state not in ("wagers_open", "locked_out")


@pytest.mark.reg("581.2(d)")
def test_the_inspection_is_due_again_at_the_gaming_day_boundary():
    day = 24 * HOUR
    ctl, gpio, clock = make("double-attack-blackjack",
                            reader={"day_start_ns": 6 * HOUR, "wall_offset_ns": 0})
    clock.now = 7 * HOUR
    feed(ctl, ev("open_table", clock.now),
         ev("irregularity", clock.now, kind="reader_inspected", role="floorperson",
            passed=True), ev("shuffle", clock.now))
    assert gpio.level(LOCKOUT) is False
    clock.now = day + 6 * HOUR          # the next gaming day begins
    ctl.run_once()
    assert gpio.level(LOCKOUT) is True and gpio.level(TOWER) is True


@pytest.mark.reg("581.13(i)")
@pytest.mark.reg("581.2(d)")
def test_a_failed_inspection_locks_the_table_out():
    ctl, gpio, clock = make("double-attack-blackjack")
    feed(ctl, ev("open_table", 0),
         ev("irregularity", 5, kind="reader_inspected", role="floorperson", passed=False))
    assert ctl.model.state == "locked_out" and ctl.lockouts[0]["section"] == "581.13(i)"
    assert all(o.pin.is_safe for o in ctl.outputs.all())


class JournalWatch(MemoryJournal):
    """The journal part, noting the lock-out line's level as each entry is journaled."""

    def __init__(self, ctl, gpio):
        super().__init__()
        self.gpio = gpio
        self.attach(ctl)

    def __call__(self, entry):
        self.append((getattr(entry, "kind", None), getattr(entry, "data", None),
                     self.gpio.level(LOCKOUT)))

    def records(self, kind):
        return []


@pytest.mark.reg("583.7(c)")
@pytest.mark.reg("585.3(e)")
def test_the_press_goes_ahead_of_wagers_already_queued_which_still_count_by_their_stamps():
    """The priority lane: the lock-out output is engaged before a queued wager is applied
    (issue 16: the press waited behind them, FIFO); the wagers stamped before the press are
    still applied, and journaled, before it, one stamped after it is not recognized."""
    ctl, gpio, clock = rolling_table()
    watch = ctl.journal = JournalWatch(ctl, gpio)
    for seat in range(2, 6):
        ctl.submit(wager(seat, 150 + seat))             # queued first, stamped before
    ctl.submit(ev("no_more_bets", 200))
    ctl.submit(wager(6, 201))                            # stamped after the press
    assert gpio.level(LOCKOUT) is False
    ctl.run_once()
    kinds = [k for k, _, _ in watch if k in ("wager", "no_more_bets")]
    assert kinds == ["wager"] * 4 + ["no_more_bets", "wager"]     # in stamp order
    assert all(locked for k, _, locked in watch if k == "wager")   # line engaged by then
    assert sorted(ctl.model.wagers) == ["1", "2", "3", "4", "5"]
    assert ctl.model.state == "rolling"
    assert ctl.policies[-1].stats["attempted"] == 1


@pytest.mark.reg("585.3(e)")
def test_a_press_behind_the_first_wagers_of_a_round_closes_them_not_refused():
    """The press may overtake the very wagers that open the round: they are applied first."""
    ctl, gpio, clock = make()
    feed(ctl, ev("open_table", 10), ev("shuffle", 20))
    assert ctl.model.state == "shuffled"
    ctl.submit(wager(1, 30))
    ctl.submit(wager(2, 31))
    ctl.submit(ev("no_more_bets", 40))
    ctl.run_until_idle()
    assert ctl.stats["refused"] == 0 and ctl.model.state == "rolling"
    assert sorted(ctl.model.wagers) == ["1", "2"] and gpio.level(LOCKOUT) is True


def test_outputs_are_written_only_when_what_they_show_changes():
    """An idle loop or a step that changes nothing shown writes no line (issue 16)."""
    ctl, gpio, clock = rolling_table()
    writes = {bcm: len(gpio.history(bcm)) for bcm in (LOCKOUT, TOWER)}
    for _ in range(50):
        ctl.tick()
    ctl.run_until_idle()
    assert {bcm: len(gpio.history(bcm)) for bcm in (LOCKOUT, TOWER)} == writes
    feed(ctl, ev("fault", 300, device="dice_shaker_reader", reason="no answer"))
    locked = {bcm: len(gpio.history(bcm)) for bcm in (LOCKOUT, TOWER)}
    assert locked[LOCKOUT] > writes[LOCKOUT]             # the fault path writes every line
    for _ in range(50):
        ctl.tick()                                       # locked: safe, and left there
    assert {bcm: len(gpio.history(bcm)) for bcm in (LOCKOUT, TOWER)} == locked
