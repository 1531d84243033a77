"""Exact par of every Props & Hops wager (585.2, 585.4) over the 36 rolls.

The winning rolls are counted here from the totals and faces the text names,
independently of controller.rules.dice, and priced at the 585.4 odds.
"""
from fractions import Fraction

import pytest

from controller.lab.par import props_and_hops as ph
from controller.lab.par.sheet import LOSES, WagerPar
from controller.rules import dice

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
NAMES = ["one", "two", "three", "four", "five", "six"]


def _ways(test):
    return sum(1 for a, b in ROLLS if test(a, b))


# wager -> [(hand, winning rolls, odds to 1)]: read from 585.2 and 585.4
EXPECTED = {}
for _f, _n in zip(range(1, 7), ["two", "four", "six", "eight", "ten", "twelve"]):
    EXPECTED[_n + "_hardway"] = [("win", _ways(lambda a, b, f=_f: a == b == f), Fraction(30))]
for _a in range(1, 7):
    for _b in range(_a + 1, 7):
        EXPECTED[NAMES[_a - 1] + "_" + NAMES[_b - 1]] = [
            ("win", _ways(lambda a, b, x=_a, y=_b: {a, b} == {x, y}), Fraction(15))]
EXPECTED["field"] = [("two_or_twelve", _ways(lambda a, b: a + b in (2, 12)), Fraction(2)),
                     ("three_four_nine_ten_eleven",
                      _ways(lambda a, b: a + b in (3, 4, 9, 10, 11)), Fraction(1))]
EXPECTED["any_craps"] = [("win", _ways(lambda a, b: a + b in (2, 3, 12)), Fraction(7))]
EXPECTED["any_seven"] = [("win", _ways(lambda a, b: a + b == 7), Fraction(4))]
EXPECTED["any_doubles"] = [("win", _ways(lambda a, b: a == b), Fraction(4))]

HOUSE_EDGE = {"hardway": Fraction(5, 36), "any_number": Fraction(1, 9), "field": Fraction(1, 18),
              "any_craps": Fraction(1, 9), "any_seven": Fraction(1, 6),
              "any_doubles": Fraction(1, 6)}


def _kind(wager):
    if wager.endswith("_hardway"):
        return "hardway"
    if wager in HOUSE_EDGE:
        return wager
    return "any_number"


@pytest.mark.reg("585.2")
def test_there_is_a_sheet_for_every_585_2_wager():
    sheets = ph.sheets()
    assert [s.wager for s in sheets] == dice.wagers()
    assert sorted(EXPECTED) == sorted(dice.wagers())
    assert all(isinstance(s, WagerPar) and s.combinations == 36 for s in sheets)


@pytest.mark.reg("585.4")
@pytest.mark.parametrize("wager", sorted(EXPECTED))
def test_counts_and_house_edge_are_exact(wager):
    sheet = ph.sheet(wager)
    rows = EXPECTED[wager]
    won = 0
    ev = Fraction(0)
    for hand, n, odds in rows:
        won += n
        ev += odds * n
    ev -= 36 - won
    assert [(o.hand, o.count) for o in sheet.outcomes] == (
        [(h, n) for h, n, _ in rows] + [(LOSES, 36 - won)])
    assert sheet.house_edge() == -ev / 36 == HOUSE_EDGE[_kind(wager)]


@pytest.mark.reg("585.2(f)(1)")
def test_field_counts():
    assert [(o.hand, o.count) for o in ph.sheet("field").outcomes] == [
        ("two_or_twelve", 2), ("three_four_nine_ten_eleven", 14), (LOSES, 20)]


@pytest.mark.reg("585.4")
def test_sheets_serialise():
    for s in ph.sheets():
        j = s.to_json()
        assert j["section"] == "585.4" and j["combinations"] == 36
