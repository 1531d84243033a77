"""Exact par of the poker games' paytable wagers (583.12(c), 669a.12(a), (f))."""
from fractions import Fraction
from math import comb

import pytest

from controller.lab.par import counting, flop_poker, raise_it_up
from controller.lab.par.sheet import StrategyDependent, StrategyPar, WagerPar
from controller.rules import paytables as pt


def _priced(sheets, wager, letter=None):
    for s in sheets:
        if isinstance(s, WagerPar) and s.wager == wager and s.paytable == letter:
            return s
    raise AssertionError("no priced sheet for %s %s" % (wager, letter))


@pytest.mark.reg("583.12(c)", "583.6(d)")
def test_three_card_bonus_counts_and_edge():
    s = _priced(flop_poker.sheets(), "three_card_bonus")
    counts = {o.hand: o.count for o in s.outcomes}
    assert counts == {"royal": 4, "straight_flush": 44, "three_of_a_kind": 52,
                      "straight": 720, "flush": 1096, "pair": 3744, "loses": 16440}
    # returns: 4*101 + 44*51 + 52*26 + 720*7 + 1096*4 + 3744*2 = 20912 of 22100
    assert s.house_edge() == Fraction(22100 - 20912, 22100)


@pytest.mark.reg("669a.12(a)")
@pytest.mark.parametrize("letter, returned", [
    # straight flush, trips, straight, flush, pair counts 48, 52, 720, 1096, 3744
    ("A", 48 * 41 + 52 * 31 + 720 * 7 + 1096 * 5 + 3744 * 2),
    ("B", 48 * 41 + 52 * 26 + 720 * 7 + 1096 * 5 + 3744 * 2),
    ("C", 48 * 41 + 52 * 31 + 720 * 6 + 1096 * 5 + 3744 * 2),
    ("D", 48 * 41 + 52 * 31 + 720 * 7 + 1096 * 4 + 3744 * 2),
])
def test_pair_plus_paytables(letter, returned):
    s = _priced(raise_it_up.sheets(), "pair_plus", letter)
    assert s.combinations == 22100
    assert s.house_edge() == Fraction(22100 - returned, 22100)
    if letter == "A":
        assert round(float(s.house_edge()), 7) == 0.0231674


@pytest.mark.reg("583.6(b)")
def test_counting_reproduces_the_exhaustive_five_card_counts():
    # the exhaustive enumeration of all 2,598,960 hands is in test_poker_crosscheck.py
    assert counting.best_category_counts(5) == {
        "royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744,
        "flush": 5108, "straight": 10200, "three_of_a_kind": 54912, "two_pair": 123552,
        "pair": 1098240, "high_card": 1302540}


@pytest.mark.reg("583.6(b)")
def test_counting_reproduces_the_published_seven_card_distribution():
    assert counting.best_category_counts(7) == {
        "royal_flush": 4324, "straight_flush": 37260, "four_of_a_kind": 224848,
        "full_house": 3473184, "flush": 4047644, "straight": 6180020,
        "three_of_a_kind": 6461620, "two_pair": 31433400, "pair": 58627800,
        "high_card": 23294460}


@pytest.mark.reg("669a.12(f)", "669a.7(d)(5)")
def test_six_card_bonus_counts_and_edges():
    six = counting.best_category_counts(6)
    assert sum(six.values()) == comb(52, 6)
    assert six == {"royal_flush": 188, "straight_flush": 1656, "four_of_a_kind": 14664,
                   "full_house": 165984, "flush": 205792, "straight": 361620,
                   "three_of_a_kind": 732160, "two_pair": 2532816, "pair": 9730740,
                   "high_card": 6612900}
    sheets = raise_it_up.sheets()
    for letter in "ABCD":
        s = _priced(sheets, "six_card_bonus", letter)
        table = pt.get(pt.RIU, "six_card_bonus", letter)
        back = sum(six[h] * (p.num + p.den) // p.den for h, p in table.rows)
        assert s.house_edge() == Fraction(comb(52, 6) - back, comb(52, 6))
    assert round(float(_priced(sheets, "six_card_bonus", "A").house_edge()), 7) == 0.1022479


def test_decision_wagers_are_listed_not_priced():
    sheets = raise_it_up.sheets()
    names = {s.wager: s.to_json() for s in sheets if isinstance(s, StrategyDependent)}
    assert set(names) == {"ante", "blind", "play"}
    # the Progressive Payout Wager is priced under the optimal strategy (issue 36)
    (pp,) = [s.to_json() for s in sheets if s.wager == "progressive"]
    assert pp["strategy"] == "optimal" and pp["meter_share"] > 0 and "exact" in pp["precision"]
    # ... and priced together under optimal play (tests/par/test_par_strategy_games.py)
    assert [s.wager for s in sheets if isinstance(s, StrategyPar)] == ["base_game"]
    assert all(j["strategy_dependent"] for j in names.values())
    flop = {s.wager: s.to_json() for s in flop_poker.sheets() if not isinstance(s, WagerPar)}
    assert flop["pot"]["house_edge"] == 0.0 and flop["pot"]["banked"] is False
