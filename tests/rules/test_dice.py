"""Props & Hops (585): the wagers on a roll of two dice and the shooter rule.

Each wager's winning rolls are written out from the text of 585.2 and checked
against all 36 rolls, both orders of the dice.
"""
import pytest

from controller.errors import RulesError
from controller.rules import dice, paytables, settle

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def _winning(wager):
    return sorted((a, b) for a, b in ROLLS if dice.outcome(wager, a, b) is not None)


def _both_orders(pairs):
    out = set()
    for a, b in pairs:
        out.add((a, b))
        out.add((b, a))
    return sorted(out)


@pytest.mark.reg("585.2(d)(1)")
def test_two_the_hardway_wins_on_a_total_of_2():
    assert _winning("two_hardway") == [(1, 1)]


@pytest.mark.reg("585.2(d)(6)")
def test_twelve_the_hardway_wins_on_a_total_of_12():
    assert _winning("twelve_hardway") == [(6, 6)]


@pytest.mark.reg("585.2(d)")
@pytest.mark.parametrize("wager, face", [
    ("four_hardway", 2), ("six_hardway", 3), ("eight_hardway", 4), ("ten_hardway", 5)])
def test_hardway_wins_only_with_the_same_face_on_each_die(wager, face):
    assert _winning(wager) == [(face, face)]
    # the easy way to the same total loses
    assert dice.outcome(wager, face - 1, face + 1) is None


@pytest.mark.reg("585.2(e)")
@pytest.mark.parametrize("wager, low, high", [
    ("one_two", 1, 2), ("one_three", 1, 3), ("one_four", 1, 4), ("one_five", 1, 5),
    ("one_six", 1, 6), ("two_three", 2, 3), ("two_four", 2, 4), ("two_five", 2, 5),
    ("two_six", 2, 6), ("three_four", 3, 4), ("three_five", 3, 5), ("three_six", 3, 6),
    ("four_five", 4, 5), ("four_six", 4, 6), ("five_six", 5, 6)])
def test_any_number_wins_with_one_face_on_each_die(wager, low, high):
    assert _winning(wager) == [(low, high), (high, low)]


@pytest.mark.reg("585.2(e)(4)")
def test_one_five_loses_on_a_six_thrown_another_way():
    assert dice.outcome("one_five", 2, 4) is None
    assert dice.outcome("one_five", 3, 3) is None
    assert dice.outcome("one_five", 5, 1) == "win"


@pytest.mark.reg("585.2(f)(1)")
@pytest.mark.parametrize("d1, d2, hand", [
    (1, 1, "two_or_twelve"), (6, 6, "two_or_twelve"),
    (1, 2, "three_four_nine_ten_eleven"), (2, 2, "three_four_nine_ten_eleven"),
    (3, 1, "three_four_nine_ten_eleven"), (3, 6, "three_four_nine_ten_eleven"),
    (5, 4, "three_four_nine_ten_eleven"), (5, 5, "three_four_nine_ten_eleven"),
    (4, 6, "three_four_nine_ten_eleven"), (6, 5, "three_four_nine_ten_eleven"),
    (1, 4, None), (2, 3, None), (3, 3, None), (1, 5, None), (1, 6, None), (3, 4, None),
    (4, 4, None), (2, 6, None)])
def test_field_wins_on_2_3_4_9_10_11_12(d1, d2, hand):
    assert dice.outcome("field", d1, d2) == hand


@pytest.mark.reg("585.2(f)(2)")
def test_any_craps_wins_on_2_3_or_12():
    assert _winning("any_craps") == [(1, 1), (1, 2), (2, 1), (6, 6)]


@pytest.mark.reg("585.2(f)(3)")
def test_any_seven_wins_on_a_total_of_7():
    assert _winning("any_seven") == _both_orders([(1, 6), (2, 5), (3, 4)])


@pytest.mark.reg("585.2(f)(4)")
def test_any_doubles_wins_on_every_hardway_2_to_12():
    assert _winning("any_doubles") == [(f, f) for f in range(1, 7)]


@pytest.mark.reg("585.2")
def test_the_wagers_are_those_of_585_2_and_each_has_a_585_4_paytable():
    names = dice.wagers()
    assert len(names) == 6 + 15 + 4
    assert len(set(names)) == len(names)
    for w in names:
        assert paytables.get("props-and-hops", w).section == "585.4"
    # every hand an outcome names is on its wager's paytable
    for w in names:
        table = paytables.get("props-and-hops", w)
        for a, b in ROLLS:
            h = dice.outcome(w, a, b)
            assert h is None or table.pay(h) is not None


@pytest.mark.reg("585.2")
def test_the_order_of_the_dice_does_not_matter():
    for w in dice.wagers():
        for a, b in ROLLS:
            assert dice.outcome(w, a, b) == dice.outcome(w, b, a)


@pytest.mark.reg("585.4")
@pytest.mark.parametrize("wager, d1, d2, net", [
    ("two_hardway", 1, 1, 3000), ("eight_hardway", 4, 4, 3000), ("eight_hardway", 2, 6, -100),
    ("one_two", 2, 1, 1500), ("three_six", 6, 3, 1500), ("three_six", 4, 5, -100),
    ("field", 6, 6, 200), ("field", 4, 5, 100), ("field", 3, 4, -100),
    ("any_craps", 1, 2, 700), ("any_craps", 3, 4, -100),
    ("any_seven", 2, 5, 400), ("any_seven", 6, 6, -100),
    ("any_doubles", 3, 3, 400), ("any_doubles", 1, 2, -100)])
def test_winning_wagers_settle_at_585_4_odds(wager, d1, d2, net):
    table = paytables.get("props-and-hops", wager)
    assert settle.settle(table, dice.outcome(wager, d1, d2), 100)[1] == net


@pytest.mark.reg("585.2")
def test_winners_lists_every_winning_wager_of_a_roll():
    assert dice.winners(1, 1) == {"two_hardway": "win", "field": "two_or_twelve",
                                  "any_craps": "win", "any_doubles": "win"}
    assert dice.winners(4, 3) == {"three_four": "win", "any_seven": "win"}
    assert dice.winners(5, 3) == {"three_five": "win"}


@pytest.mark.reg("585.3(a)")
@pytest.mark.parametrize("d1, d2", [(0, 3), (7, 1), (3, -1), ("3", 4), (2.0, 3), (True, 2), (None, 1)])
def test_a_die_shows_1_to_6(d1, d2):
    with pytest.raises(RulesError, match="585.3"):
        dice.outcome("field", d1, d2)
    with pytest.raises(RulesError, match="585.3"):
        dice.next_shooter(1, d1, d2, [1, 2])


@pytest.mark.reg("585.2")
@pytest.mark.parametrize("wager", ["seven", "hard_four", "one_one", "six_five", "", None])
def test_an_unknown_wager_is_named(wager):
    with pytest.raises(RulesError, match="585.2"):
        dice.outcome(wager, 1, 1)


# ---- the shooter -----------------------------------------------------------------

@pytest.mark.reg("585.3(e)")
@pytest.mark.parametrize("seated, first", [([1, 2, 3, 4, 5, 6], 1), ([5, 3, 4], 3), ([6], 6)])
def test_first_shooter_is_the_player_farthest_to_the_dealers_left(seated, first):
    assert dice.first_shooter(seated) == first


@pytest.mark.reg("585.3(j)")
@pytest.mark.parametrize("shooter, d1, d2, seated, after", [
    (1, 1, 1, [1, 2, 3], 1),          # no 7: the same shooter
    (1, 5, 6, [1, 2, 3], 1),
    (1, 3, 4, [1, 2, 3], 2),          # a 7: the next player to the left
    (2, 6, 1, [1, 2, 3], 3),
    (3, 2, 5, [1, 2, 3], 1),          # from the last seat around to the first
    (6, 4, 3, [1, 2, 3, 4, 5, 6], 1),
    (2, 4, 3, [2, 5], 5),             # empty seats are passed over
    (5, 4, 3, [2, 5], 2),
    (4, 4, 3, [4], 4),                # alone at the table, he keeps the shaker
    (3, 2, 2, [1, 5], 5),             # a shooter who left: passed to his left
])
def test_same_shooter_until_a_7_then_the_next_player_to_the_left(shooter, d1, d2, seated, after):
    assert dice.next_shooter(shooter, d1, d2, seated) == after


@pytest.mark.reg("585.1(a)")
@pytest.mark.parametrize("seated", [[], [0], [7], [1, 7], ["1"], [2, "1"]])
def test_seats_are_1_to_6(seated):
    with pytest.raises(RulesError):
        dice.first_shooter(seated)
