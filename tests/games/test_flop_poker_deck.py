"""Flop Poker's deck and devices, event by event: decks and deck hours (583.3), shuffles and
the shuffler's count (583.5), the dealer's stub counts (583.8(e)-(g), 583.9(e)-(g),
583.10(d)-(f)) and the irregularities of 583.13."""
import pytest

from controller.errors import InvalidCard
from controller.games.engine import IllegalEvent
from controller.games.events import Event
from tests.games.test_flop_poker import opened, place, play, run, table

HOUR = 3600 * 10 ** 9
ONE_SEAT = {1: {"ante": 500, "pot": 100}}
# three cards to seat 1, the burn, the flop
ROUND = ["2c", "7h", "4s", "5h", "9d", "Jd", "Kd"]


def next_round(t, cards=ROUND, actions=((1, "fold"),), wagers=ONE_SEAT):
    t.handle(Event("shuffle"))
    return play(t, wagers, cards, list(actions))


def returned(*seats_wagers):
    return {seat: {w: ["returned", 0] for w in names} for seat, names in seats_wagers}


# ---- decks (583.3) and shuffles (583.5) ---------------------------------------------------

@pytest.mark.reg("583.5(a)")
def test_the_cards_are_shuffled_after_each_round():
    t = opened()
    play(t, ONE_SEAT, ROUND, [(1, "fold")])
    with pytest.raises(IllegalEvent, match=r"reshuffled before the next round.*583.5\(a\)"):
        place(t, ONE_SEAT)
    t.handle(Event("shuffle"))
    place(t, ONE_SEAT)
    assert t.state == "wagers_open" and t.model.round_no == 2


@pytest.mark.reg("583.5(a)")
def test_no_shuffle_while_wagers_are_open_or_a_round_is_dealt():
    t = opened()
    place(t, ONE_SEAT)
    with pytest.raises(IllegalEvent, match=r"not while wagers_open \(583.5\(a\)\)"):
        t.handle(Event("shuffle"))
    t.handle(Event("no_more_bets"))
    with pytest.raises(IllegalEvent, match=r"not while dealing \(583.5\(a\)\)"):
        t.handle(Event("shuffle"))


@pytest.mark.reg("583.5(b)")
def test_a_shuffler_count_other_than_52_removes_the_deck():
    t = table(options={"shuffler": "counting"})
    t.handle(Event("open_table"))
    t.handle(Event("shuffle", {"count": 51}))
    assert t.state == "deck_removed" and "51 cards, not 52 (583.5(b))" in t.model.deck_reason
    with pytest.raises(IllegalEvent, match="not open"):
        place(t, ONE_SEAT)
    t.handle(Event("new_deck"))
    t.handle(Event("shuffle", {"count": 52}))
    place(t, ONE_SEAT)
    assert t.state == "wagers_open"


@pytest.mark.reg("583.5(d)")
def test_the_cut_is_at_least_ten_cards_in():
    t = table()
    t.handle(Event("open_table"))
    with pytest.raises(IllegalEvent, match=r"at least ten cards in from the top, not 9 "
                                           r"\(583.5\(d\)\)"):
        t.handle(Event("shuffle", {"cut": 9}))
    t.handle(Event("shuffle", {"cut": 10}))
    assert t.state == "shuffled"


@pytest.mark.reg("583.3(b)")
def test_two_decks_only_with_an_automated_shuffler():
    t = table()
    with pytest.raises(IllegalEvent, match=r"one deck, or two with an automated card "
                                           r"shuffling device \(583.3\(a\), \(b\)\)"):
        t.handle(Event("open_table", {"decks": 2}))
    with pytest.raises(IllegalEvent, match=r"583.3\(a\)"):
        t.handle(Event("open_table", {"decks": 3}))
    t = table(options={"shuffler": "automated"})
    t.handle(Event("open_table", {"decks": 2}))
    assert t.model.decks == 2


@pytest.mark.reg("583.3(c)(2)")
def test_a_deck_dealt_from_a_shoe_is_changed_after_eight_hours():
    t = table()
    t.handle(Event("open_table", ts_ns=0))
    t.handle(Event("shuffle"))
    t.handle(Event("wager", {"seat": 1, "wager": "ante", "amount": 500}, ts_ns=8 * HOUR))
    with pytest.raises(IllegalEvent, match=r"more than 8 hours.*583.3\(c\)\(2\)"):
        t.handle(Event("no_more_bets", ts_ns=8 * HOUR + 1))
    assert t.state == "deck_removed" and t.model.status == "void"
    assert t.model.results == returned(("1", ["ante"]))
    t.handle(Event("new_deck", ts_ns=9 * HOUR))
    t.handle(Event("shuffle"))
    t.handle(Event("wager", {"seat": 1, "wager": "ante", "amount": 500}, ts_ns=16 * HOUR))
    assert t.state == "wagers_open"


@pytest.mark.reg("583.3(c)(1)")
def test_a_deck_dealt_by_hand_is_changed_after_four_hours():
    t = table(options={"dealing": "hand", "shuffler": "automated"})
    t.handle(Event("open_table", ts_ns=0))
    t.handle(Event("shuffle"))
    with pytest.raises(IllegalEvent, match=r"more than 4 hours.*583.3\(c\)\(1\)"):
        t.handle(Event("wager", {"seat": 1, "wager": "ante", "amount": 500}, ts_ns=4 * HOUR + 1))
    assert t.state == "deck_removed"


# ---- the dealer's stub count (583.8(e)-(g), 583.9(e)-(g), 583.10(d)-(f)) ---------------------

@pytest.mark.reg("583.8(e)")
def test_the_fifth_round_without_a_count_waits_for_the_stub_count():
    t = opened()
    for n in range(1, 5):
        if n > 1:
            t.handle(Event("shuffle"))
        play(t, ONE_SEAT, ROUND, [(1, "fold")])
        assert t.state == "settled", n
    next_round(t)
    assert t.state == "stub_count"
    assert t.model.pending == {"need": "stub_count", "section": "583.8(e)"}
    t.handle(Event("irregularity", {"kind": "stub_count", "count": 52}))
    assert t.state == "settled" and t.model.stub_rounds == 0
    for n in range(6, 10):                  # counted in round 5: rounds 6-9 need no count
        next_round(t)
        assert t.state == "settled", n
    next_round(t)
    assert t.state == "stub_count" and t.model.round_no == 10


@pytest.mark.reg("583.8(f)")
def test_a_stub_of_45_after_seven_cards_is_52_and_the_round_settles():
    # the dealer counts the stub itself: 3 cards to seat 1, the burn and the flop are out
    t = opened(options={"stub_count_every": 1})
    play(t, {1: {"ante": 500, "pot": 100, "three_card_bonus": 100}}, ROUND, [(1, "flop")])
    assert t.state == "stub_count"
    t.handle(Event("irregularity", {"kind": "stub_count", "stub": 45}))
    # 2c 7h 4s: no pair for the Bonus; with Kd Jd: K J 7 4 2, no pair: Ante and Flop lose;
    # the lone player's Pot comes back
    assert t.model.results == {"1": {"three_card_bonus": ["lose", -100], "ante": ["lose", -500],
                                     "flop": ["lose", -500], "pot": ["push", 0]}}
    assert ["stub_discarded", {"section": "583.8(f)"}] in t.model.record


@pytest.mark.reg("583.8(f)")
def test_a_card_found_face_up_is_out_of_the_stub_too():
    t = opened(options={"stub_count_every": 1})
    place(t, ONE_SEAT)
    t.handle(Event("no_more_bets"))
    run(t, ["2c"], [])
    t.handle(Event("irregularity", {"kind": "card_face_up", "card": "Qs"}))
    run(t, ROUND[1:], [(1, "fold")])
    t.handle(Event("irregularity", {"kind": "stub_count", "stub": 44}))     # 44 + 7 + Qs
    assert t.state == "settled"


@pytest.mark.reg("583.8(g)")
def test_a_wrong_count_explained_by_a_misdeal_voids_the_round_and_keeps_the_deck():
    t = opened(options={"stub_count_every": 1})
    play(t, {1: {"ante": 500, "pot": 100}, 2: {"ante": 500, "pot": 100}},
         ["2c", "2d", "3c", "3d", "4c", "4d", "5h", "9d", "Jd", "Kd"], [(1, "flop"), (2, "fold")])
    with pytest.raises(IllegalEvent, match=r"51 cards, not 52.*misdealt.*583.8\(g\)"):
        t.handle(Event("irregularity", {"kind": "stub_count", "count": 51}))
    assert t.state == "stub_count" and not t.model.stub_counted      # refused: nothing changed
    t.handle(Event("irregularity", {"kind": "stub_count", "count": 51, "misdealt": True}))
    assert t.state == "voided" and t.model.status == "void"
    # every wager back: the Flop Wager and the Ante collected at the fold too
    assert t.model.results == returned(("1", ["ante", "pot", "flop"]), ("2", ["ante", "pot"]))
    next_round(t)                            # the deck stays: the next round is dealt from it
    assert t.state == "stub_count" and t.model.round_no == 2


@pytest.mark.reg("583.8(g)")
def test_a_wrong_count_without_a_misdeal_voids_the_round_and_removes_the_deck():
    t = opened(options={"stub_count_every": 1})
    play(t, ONE_SEAT, ROUND, [(1, "fold")])
    t.handle(Event("irregularity", {"kind": "stub_count", "stub": 44, "misdealt": False}))
    assert t.state == "deck_removed" and t.model.status == "void"
    assert "51 cards, not 52, with no misdeal (583.8(g))" in t.model.deck_reason
    assert t.model.results == returned(("1", ["ante", "pot"]))
    t.handle(Event("new_deck"))
    assert t.model.stub_rounds == 0


@pytest.mark.reg("583.8(e)")
def test_the_stub_is_counted_only_when_the_round_waits_for_it():
    t = opened()
    place(t, ONE_SEAT)
    t.handle(Event("no_more_bets"))
    with pytest.raises(IllegalEvent, match=r"stub is counted once the community cards are "
                                           r"dealt.*583.8\(e\)"):
        t.handle(Event("irregularity", {"kind": "stub_count", "count": 52}))
    t = opened(options={"stub_count_every": 1})
    play(t, ONE_SEAT, ROUND, [(1, "fold")])
    for bad in ({}, {"count": 52, "stub": 45}, {"count": "52"}):
        with pytest.raises(IllegalEvent, match="give 'count'"):
            t.handle(Event("irregularity", dict(bad, kind="stub_count")))


@pytest.mark.reg("583.8(e)")
def test_void_rounds_count_toward_the_five():
    t = opened()
    place(t, ONE_SEAT)
    t.handle(Event("no_more_bets"))
    t.handle(Event("irregularity", {"kind": "wrong_number_of_cards", "to": 1}))
    for _ in range(3):
        next_round(t)
    next_round(t)
    assert t.state == "stub_count" and t.model.round_no == 5


@pytest.mark.reg("583.8(e)")
def test_no_stub_count_with_a_shuffler_that_counts_the_deck():
    t = opened(options={"shuffler": "counting", "stub_count_every": 1})
    play(t, ONE_SEAT, ROUND, [(1, "fold")])
    for _ in range(6):
        next_round(t)
        assert t.state == "settled"


@pytest.mark.reg("583.9(e)")
def test_dealt_by_hand_the_stub_count_is_583_9():
    t = opened(options={"dealing": "hand", "shuffler": "automated", "stub_count_every": 1})
    play(t, ONE_SEAT, ROUND, [(1, "fold")])
    assert t.model.pending == {"need": "stub_count", "section": "583.9(e)"}
    t.handle(Event("irregularity", {"kind": "stub_count", "count": 50, "misdealt": False}))
    assert t.state == "deck_removed" and "(583.9(g))" in t.model.deck_reason


@pytest.mark.reg("583.10(d)")
def test_from_an_automated_shoe_the_stub_is_counted_before_the_decisions():
    # seat 1's stack 2c 3c 4c, the community stack 9d Jd Kd: no burn (583.11(c))
    t = opened(options={"dealing": "automated_shoe", "stub_count_every": 1})
    asked = play(t, ONE_SEAT, ["2c", "3c", "4c", "9d", "Jd", "Kd"], [(1, "fold")])
    assert asked == ["seat 1"] * 3 + ["community"] * 3
    assert t.model.pending == {"need": "stub_count", "section": "583.10(d)"}
    t.handle(Event("irregularity", {"kind": "stub_count", "stub": 46}))
    assert ["stub_discarded", {"section": "583.10(e)"}] in t.model.record
    assert t.state == "decisions"
    run(t, [], [(1, "flop")])
    assert t.model.results == {"1": {"ante": ["lose", -500], "flop": ["lose", -500],
                                     "pot": ["push", 0]}}


@pytest.mark.reg("583.10(f)")
def test_automated_shoe_wrong_count_without_a_misdeal_removes_the_deck():
    t = opened(options={"dealing": "automated_shoe", "stub_count_every": 1})
    play(t, ONE_SEAT, ["2c", "3c", "4c", "9d", "Jd", "Kd"], [])
    t.handle(Event("irregularity", {"kind": "stub_count", "count": 53, "misdealt": False}))
    assert t.state == "deck_removed" and "(583.10(f))" in t.model.deck_reason


# ---- irregularities (583.13) ----------------------------------------------------------------

@pytest.mark.reg("583.13(a)")
def test_one_card_face_up_in_the_shoe_is_discarded_and_the_deal_goes_on():
    t = opened()
    place(t, ONE_SEAT)
    t.handle(Event("no_more_bets"))
    run(t, ["2c"], [])
    t.handle(Event("irregularity", {"kind": "card_face_up", "card": "Ah"}))
    assert t.model.pending == {"need": "card", "for": "seat 1"}
    run(t, ["3c", "4c", "5h", "9d", "Jd", "Kd"], [(1, "fold")])
    assert t.model.hands == {"1": ["2c", "3c", "4c"]} and t.state == "settled"
    assert ["discard_face_up", {"card": "Ah", "section": "583.13(a)"}] in t.model.record
    with pytest.raises(IllegalEvent, match="no card is being dealt"):
        t.handle(Event("irregularity", {"kind": "card_face_up"}))


@pytest.mark.reg("583.13(a)")
def test_a_second_card_face_up_voids_the_round_and_the_cards_are_reshuffled():
    t = opened()
    place(t, {1: {"ante": 500, "pot": 100, "three_card_bonus": 200}})
    t.handle(Event("no_more_bets"))
    run(t, ["2c", "3c", "4c"], [(1, "flop")])
    t.handle(Event("irregularity", {"kind": "card_face_up", "card": "Kc"}))
    assert t.state == "flop"
    with pytest.raises(InvalidCard, match=r"Kc is already out of the deck.*583.3\(a\)"):
        t.handle(Event("irregularity", {"kind": "card_face_up", "card": "Kc"}))
    t.handle(Event("irregularity", {"kind": "card_face_up", "card": "Ah"}))
    assert t.state == "voided"
    assert t.model.results == returned(("1", ["ante", "pot", "three_card_bonus", "flop"]))
    assert "583.13(a)" in t.model.void_reason
    with pytest.raises(IllegalEvent, match=r"reshuffled.*583.13\(a\)"):
        place(t, ONE_SEAT)


@pytest.mark.reg("583.13(b)")
def test_a_card_drawn_in_error_is_used_as_the_next_card():
    t = opened()
    place(t, {1: {"ante": 500, "pot": 100}, 2: {"ante": 500, "pot": 100}})
    t.handle(Event("no_more_bets"))
    run(t, ["2c"], [])
    t.handle(Event("irregularity", {"kind": "card_drawn_in_error"}))
    run(t, ["Kh"], [])
    assert t.model.hands == {"1": ["2c"], "2": ["Kh"]}
    assert ["card_drawn_in_error", {"to": "seat 2", "section": "583.13(b)"}] in t.model.record


@pytest.mark.reg("583.13(c)")
@pytest.mark.parametrize("to", [2, "community"])
def test_an_incorrect_number_of_cards_voids_the_round(to):
    t = opened()
    place(t, {1: {"ante": 500, "pot": 100}, 2: {"ante": 500, "pot": 100}})
    t.handle(Event("no_more_bets"))
    run(t, ["2c", "2d", "3c", "3d", "4c", "4d", "5h", "9d"], [(1, "flop"), (2, "flop")])
    with pytest.raises(IllegalEvent, match=r"'to' is a seat in this round \(1, 2\) or "
                                           r"'community', not 3"):
        t.handle(Event("irregularity", {"kind": "wrong_number_of_cards", "to": 3}))
    t.handle(Event("irregularity", {"kind": "wrong_number_of_cards", "to": to}))
    assert t.state == "voided"
    assert t.model.results == returned(("1", ["ante", "pot", "flop"]),
                                       ("2", ["ante", "pot", "flop"]))
    assert "583.13(c)" in t.model.void_reason and "583.13(c)" in t.model.reshuffle_due


@pytest.mark.reg("583.13(d)")
def test_a_shuffler_jam_locks_the_table_and_the_cards_are_shuffled_again():
    t = opened(options={"shuffler": "automated"})
    t.handle(Event("fault", {"device": "shuffler", "reason": "jam"}))
    assert t.state == "locked_out" and t.model.lockout["section"] == "583.13(d)"
    t.handle(Event("clear", {"role": "technician", "selftest": True}))
    with pytest.raises(IllegalEvent, match=r"reshuffled.*jam \(583.13\(d\)\)"):
        place(t, ONE_SEAT)
    t.handle(Event("shuffle"))
    place(t, ONE_SEAT)
    manual = opened()
    with pytest.raises(IllegalEvent, match="shuffler: this table has none"):
        manual.handle(Event("fault", {"device": "shuffler", "reason": "jam"}))


@pytest.mark.reg("583.13(e)")
def test_an_automated_shoe_that_jams_voids_the_round_and_locks_the_table():
    t = opened(options={"dealing": "automated_shoe"})
    place(t, ONE_SEAT)
    t.handle(Event("no_more_bets"))
    run(t, ["2c", "3c"], [])
    t.handle(Event("fault", {"device": "dealing_shoe", "reason": "stopped dealing"}))
    assert t.state == "locked_out" and t.model.status == "void"
    assert t.model.results == returned(("1", ["ante", "pot"]))
    assert "stopped dealing" in t.model.void_reason and "583.13(e)" in t.model.void_reason
    assert t.model.lockout["section"] == "583.13(e)"
    with pytest.raises(IllegalEvent, match="self-test"):
        t.handle(Event("clear", {"role": "floorperson", "selftest": False}))
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    assert t.state == "voided"
    next_round(t, ["2c", "3c", "4c", "9d", "Jd", "Kd"])
    assert t.state == "settled"


@pytest.mark.reg("583.13(e)")
def test_an_automated_shoe_that_fails_between_rounds_locks_the_table_and_voids_nothing():
    t = opened(options={"dealing": "automated_shoe"})
    t.handle(Event("fault", {"device": "dealing_shoe", "reason": "no power"}))
    assert t.state == "locked_out" and t.model.status is None
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    assert t.state == "shuffled"
    with pytest.raises(IllegalEvent, match=r"reshuffled.*583.13\(e\)"):
        place(t, ONE_SEAT)
    t.handle(Event("shuffle"))
    place(t, ONE_SEAT)


@pytest.mark.reg("583.13(f)")
def test_an_out_of_order_shoe_is_covered_before_cards_are_dealt_another_way():
    t = opened(options={"dealing": "automated_shoe"})
    with pytest.raises(IllegalEvent, match=r"covered or signed out of order.*583.13\(f\)"):
        t.handle(Event("irregularity", {"kind": "device_out_of_order",
                                        "device": "dealing_shoe"}))
    t.handle(Event("irregularity", {"kind": "device_out_of_order", "device": "dealing_shoe",
                                    "covered": True}))
    asked = play(t, ONE_SEAT, ROUND, [(1, "fold")])
    assert asked == ["seat 1"] * 3 + ["burn"] + ["community"] * 3     # from a manual shoe
    with pytest.raises(IllegalEvent, match=r"no automated dealing shoe in use.*583.13\(f\)"):
        t.handle(Event("irregularity", {"kind": "device_out_of_order", "device": "dealing_shoe",
                                        "covered": True}))
    t.handle(Event("close_table"))
    t.handle(Event("open_table"))                      # reopened: the shoe is back in service
    assert t.model.dealing == "automated_shoe"


@pytest.mark.reg("583.13(f)")
def test_an_out_of_order_shuffler_stops_dealing_by_hand():
    t = opened(options={"dealing": "hand", "shuffler": "automated"})
    place(t, ONE_SEAT)
    with pytest.raises(IllegalEvent, match=r"between rounds.*583.13\(f\)"):
        t.handle(Event("irregularity", {"kind": "device_out_of_order", "device": "shuffler",
                                        "covered": True}))
    t.handle(Event("no_more_bets"))
    run(t, ROUND, [(1, "fold")])
    t.handle(Event("irregularity", {"kind": "device_out_of_order", "device": "shuffler",
                                    "covered": True}))
    assert (t.model.dealing, t.model.shuffler) == ("manual_shoe", "manual")
    next_round(t)
    assert ["pot_to_centre", {"amount": 100, "section": "583.8(b)"}] in t.model.record


@pytest.mark.reg("583.13(f)")
def test_no_shuffle_by_hand_until_the_automated_shuffler_is_covered():
    t = table(options={"shuffler": "counting"})
    t.handle(Event("open_table"))
    with pytest.raises(IllegalEvent, match=r"no shuffle by hand.*\(583.13\(f\)\)"):
        t.handle(Event("shuffle", {"by": "hand"}))
    t.handle(Event("irregularity", {"kind": "device_out_of_order", "device": "shuffler",
                                    "covered": True}))
    with pytest.raises(IllegalEvent, match=r"shuffler is covered as out of order"):
        t.handle(Event("shuffle", {"by": "shuffler", "count": 52}))
    t.handle(Event("shuffle", {"by": "hand"}))
    play(t, ONE_SEAT, ROUND, [(1, "fold")])
    assert t.state == "settled"
    manual = table()
    manual.handle(Event("open_table"))
    with pytest.raises(IllegalEvent, match=r"this table has none in use \(583.5\)"):
        manual.handle(Event("shuffle", {"by": "shuffler"}))


@pytest.mark.reg("583.13(d)")
@pytest.mark.reg("583.13(f)")
def test_a_shuffler_that_fails_and_cannot_be_used_is_covered_while_the_table_is_locked():
    t = opened(options={"shuffler": "automated"})
    t.handle(Event("fault", {"device": "shuffler", "reason": "jam"}))
    with pytest.raises(IllegalEvent, match="self-test"):
        t.handle(Event("clear", {"role": "floorperson", "selftest": False}))
    t.handle(Event("irregularity", {"kind": "device_out_of_order", "device": "shuffler",
                                    "covered": True}))
    t.handle(Event("clear", {"role": "floorperson"}))    # no self-test of a covered shuffler
    assert t.state == "shuffled" and t.model.shuffler == "manual"
    with pytest.raises(IllegalEvent, match=r"reshuffled.*583.13\(d\)"):
        place(t, ONE_SEAT)
    next_round(t)
    assert t.state == "settled"


def test_another_device_fault_locks_the_table_until_cleared():
    t = opened()
    place(t, ONE_SEAT)
    t.handle(Event("no_more_bets"))
    t.handle(Event("fault", {"device": "progressive_sensor", "reason": "no response"}))
    assert t.state == "locked_out"
    with pytest.raises(IllegalEvent, match="locked out"):      # the machine takes no card
        t.handle(Event("card", {"card": "2c"}))
    with pytest.raises(IllegalEvent, match="locked out"):
        t.handle(Event("irregularity", {"kind": "card_face_up"}))
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    run(t, ROUND, [(1, "fold")])
    assert t.state == "settled"


def test_an_unknown_irregularity_names_the_kinds():
    t = opened()
    with pytest.raises(IllegalEvent, match="unknown irregularity 'spill'; the kinds are "
                                           "card_drawn_in_error, card_face_up"):
        t.handle(Event("irregularity", {"kind": "spill"}))


@pytest.mark.reg("583.13(d)", "583.13(e)")
@pytest.mark.parametrize("device, section", [("dealing_shoe", "583.13(e)"),
                                             ("shuffler", "583.13(d)")])
def test_a_fault_while_wagers_are_open_returns_them_and_the_cards_are_reshuffled(device, section):
    t = opened(options={"dealing": "automated_shoe", "shuffler": "automated"})
    place(t, ONE_SEAT)
    t.handle(Event("fault", {"device": device, "reason": "jammed"}))
    assert t.state == "locked_out" and t.model.status == "void"
    assert t.model.results == returned(("1", ["ante", "pot"]))
    assert t.model.lockout["section"] == section
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    assert t.state == "voided"
    with pytest.raises(IllegalEvent, match="reshuffled"):
        place(t, ONE_SEAT)
    t.handle(Event("shuffle"))
    next_round(t, ["2c", "3c", "4c", "9d", "Jd", "Kd"])
    assert t.state == "settled"
