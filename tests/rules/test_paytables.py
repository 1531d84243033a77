"""Every paytable as printed in the texts, and what each kind of payout settles to."""
import pytest

from controller.errors import SettlementError, UnknownPaytable
from controller.rules import paytables as pt
from controller.rules import settle as S


def rows(game, wager, letter=None):
    return [(h, p.text()) for h, p in pt.get(game, wager, letter).rows]


@pytest.mark.reg("581.12(c)")
def test_bust_it_paytable():
    assert rows(pt.DAB, "bust_it") == [
        ("eight_eight_eight_suited", "200 to 1"), ("eight_eight_eight_same_color", "50 to 1"),
        ("third_card_6", "15 to 1"), ("third_card_7", "10 to 1"), ("third_card_8", "8 to 1"),
        ("third_card_9", "6 to 1"), ("third_card_face", "3 to 1")]


@pytest.mark.reg("581.12(a)", "581.12(b)")
def test_double_attack_bet_even_money_and_insurance_five_to_two():
    assert rows(pt.DAB, "bet") == [("win", "1 to 1")]
    assert rows(pt.DAB, "double_attack") == [("win", "1 to 1")]
    assert rows(pt.DAB, "insurance") == [("win", "5 to 2")]
    assert S.settle(pt.get(pt.DAB, "insurance"), "win", 1000) == ("win", 2500)


@pytest.mark.reg("583.12(b)")
def test_flop_wager_paytable():
    assert rows(pt.FLOP, "flop") == [
        ("royal_flush", "1,000 to 1"), ("straight_flush", "500 to 1"),
        ("four_of_a_kind", "100 to 1"), ("full_house", "30 to 1"), ("flush", "20 to 1"),
        ("straight", "10 to 1"), ("three_of_a_kind", "4 to 1"), ("two_pair", "2 to 1"),
        ("pair_jacks_or_better", "1 to 1")]


@pytest.mark.reg("583.12(c)")
def test_three_card_bonus_paytable():
    assert rows(pt.FLOP, "three_card_bonus") == [
        ("royal", "100 to 1"), ("straight_flush", "50 to 1"), ("three_of_a_kind", "25 to 1"),
        ("straight", "6 to 1"), ("flush", "3 to 1"), ("pair", "1 to 1")]


@pytest.mark.reg("585.4")
def test_props_and_hops_payouts():
    for w in ("two_hardway", "four_hardway", "six_hardway", "eight_hardway", "ten_hardway",
              "twelve_hardway"):
        assert rows(pt.PH, w) == [("win", "30 to 1")]
    for w in ("one_two", "one_six", "three_four", "five_six"):
        assert rows(pt.PH, w) == [("win", "15 to 1")]
    assert rows(pt.PH, "field") == [("two_or_twelve", "2 to 1"),
                                    ("three_four_nine_ten_eleven", "1 to 1")]
    assert rows(pt.PH, "any_craps") == [("win", "7 to 1")]
    assert rows(pt.PH, "any_seven") == [("win", "4 to 1")]
    assert rows(pt.PH, "any_doubles") == [("win", "4 to 1")]


@pytest.mark.reg("669a.12(a)")
@pytest.mark.parametrize("letter, expected", [
    ("A", ["40 to 1", "30 to 1", "6 to 1", "4 to 1", "1 to 1"]),
    ("B", ["40 to 1", "25 to 1", "6 to 1", "4 to 1", "1 to 1"]),
    ("C", ["40 to 1", "30 to 1", "5 to 1", "4 to 1", "1 to 1"]),
    ("D", ["40 to 1", "30 to 1", "6 to 1", "3 to 1", "1 to 1"]),
])
def test_pair_plus_paytables_a_to_d(letter, expected):
    got = rows(pt.RIU, "pair_plus", letter)
    assert [h for h, _ in got] == ["straight_flush", "three_of_a_kind", "straight", "flush",
                                   "pair"]
    assert [p for _, p in got] == expected


@pytest.mark.reg("669a.12(f)")
@pytest.mark.parametrize("letter, expected", [
    ("A", [1000, 200, 50, 25, 20, 10, 5]),
    ("B", [1000, 200, 50, 25, 15, 10, 5]),
    ("C", [1000, 200, 100, 20, 15, 9, 8]),
    ("D", [1000, 200, 100, 20, 15, 10, 7]),
])
def test_six_card_bonus_paytables_a_to_d(letter, expected):
    table = pt.get(pt.RIU, "six_card_bonus", letter)
    assert table.hands() == ["royal_flush", "straight_flush", "four_of_a_kind", "full_house",
                             "flush", "straight", "three_of_a_kind"]
    assert [p.num for _, p in table.rows] == expected
    assert all(p.kind == pt.TO and p.den == 1 for _, p in table.rows)


@pytest.mark.reg("669a.12(a)", "669a.12(f)")
def test_a_letter_the_regulation_does_not_offer_is_refused():
    with pytest.raises(UnknownPaytable, match="669a.12"):
        pt.get(pt.RIU, "pair_plus", "E")
    with pytest.raises(UnknownPaytable):
        pt.get(pt.RIU, "pair_plus")
    with pytest.raises(UnknownPaytable):
        pt.get(pt.FLOP, "three_card_bonus", "A")
    assert pt.letters(pt.RIU, "six_card_bonus") == ["A", "B", "C", "D"]


@pytest.mark.reg("669a.12(c)", "669a.12(d)")
def test_play_and_blind_tables_with_the_blind_pushes():
    assert rows(pt.RIU, "play")[-2:] == [("two_pair", "3 to 2"), ("pair_tens_or_better", "1 to 1")]
    blind = pt.get(pt.RIU, "blind")
    assert S.settle(blind, "two_pair", 500) == ("push", 0)
    assert S.settle(blind, "pair_tens_or_better", 500) == ("push", 0)
    assert S.settle(blind, "straight", 500) == ("win", 1000)
    assert S.settle(blind, None, 500) == ("lose", -500)
    assert S.settle(pt.get(pt.RIU, "play"), "two_pair", 1500) == ("win", 2250)


@pytest.mark.reg("669a.12(e)(1)")
def test_raise_it_up_progressive_pays_for_one_and_from_the_meter():
    table = pt.get(pt.RIU, "progressive")
    assert [(h, p.text()) for h, p in table.rows] == [
        ("ace_king_queen_of_spades", "100% of meter"), ("ace_king_queen_suited", "500 for 1"),
        ("straight_flush", "70 for 1"), ("three_of_a_kind", "60 for 1"), ("straight", "6 for 1")]
    # "500 for 1": the $1 wager is part of the $500
    assert S.settle(table, "ace_king_queen_suited", 100) == ("win", 49900)
    assert S.settle(table, "straight", 500) == ("win", 2500)
    # 100% of a $1,234.56 meter for a $1 wager collected at no more bets
    assert S.settle(table, "ace_king_queen_of_spades", 100, meter=123456) == ("win", 123356)
    with pytest.raises(SettlementError, match="meter"):
        S.settle(table, "ace_king_queen_of_spades", 100)


@pytest.mark.reg("669a.12(e)(3)", "670a.12(d)(2)")
def test_progressive_minimums():
    assert pt.PROGRESSIVE_MINIMUMS[pt.RIU]["reset"] == 100000
    assert pt.PROGRESSIVE_MINIMUMS[pt.RIU]["rate"] == (14, 100)
    assert pt.PROGRESSIVE_MINIMUMS[pt.SCF]["reset"] == 500000


@pytest.mark.reg("669a.12(e)(5)")
def test_raise_it_up_envy_schedules():
    sched = pt.envy_schedules(pt.RIU, "envy")
    assert sorted(sched) == [100, 500]
    assert S.envy_bonus(sched, 100, "ace_king_queen_of_spades") == 10000
    assert S.envy_bonus(sched, 100, "ace_king_queen_suited") == 2500
    assert S.envy_bonus(sched, 500, "ace_king_queen_of_spades") == 50000
    assert S.envy_bonus(sched, 500, "ace_king_queen_suited") == 12500
    assert S.envy_bonus(sched, 500, "straight_flush") == 0
    assert S.envy_bonus(sched, 50, "ace_king_queen_of_spades") == 0


@pytest.mark.reg("670a.12(b)(1)", "670a.12(b)(2)")
def test_fortune_bonus_and_its_envy():
    assert rows(pt.SCF, "fortune_bonus") == [
        ("five_aces", "1,000 to 1"), ("royal_flush", "250 to 1"), ("straight_flush", "100 to 1"),
        ("four_of_a_kind", "50 to 1"), ("full_house", "15 to 1"), ("flush", "10 to 1"),
        ("straight", "8 to 1"), ("three_of_a_kind", "5 to 1")]
    sched = pt.envy_schedules(pt.SCF, "fortune_bonus_envy")
    assert [p.text() for _, p in sched[100].rows] == ["$1,000", "$200", "$50", "$15", "$5"]
    assert [p.text() for _, p in sched[500].rows] == ["$5,000", "$1,000", "$250", "$75", "$25"]
    # a $10 Qualifying Wager is paid on the $5 schedule
    assert S.envy_bonus(sched, 1000, "full_house") == 2500


@pytest.mark.reg("670a.12(c)")
def test_six_card_fortune_insurance_paytable():
    assert rows(pt.SCF, "insurance") == [
        ("eight_high", "100 to 1"), ("nine_high", "30 to 1"), ("ten_high", "10 to 1"),
        ("jack_high", "7 to 1"), ("queen_high", "4 to 1"), ("king_high", "3 to 1")]


@pytest.mark.reg("670a.12(d)(1)", "670a.12(d)(4)")
def test_six_card_fortune_progressive_and_envy():
    table = pt.get(pt.SCF, "progressive")
    assert [(h, p.text()) for h, p in table.rows] == [
        ("five_aces", "100% of meter"), ("royal_flush", "10% of meter"),
        ("straight_flush", "300 for 1"), ("four_of_a_kind", "150 for 1"),
        ("full_house", "15 for 1"), ("flush", "6 for 1"), ("straight", "3 for 1")]
    # 10% of a $50,000.00 meter on a $5 wager
    assert S.settle(table, "royal_flush", 500, meter=5000000) == ("win", 499500)
    assert S.meter_payout(table.pay("royal_flush"), 5000000) == 500000
    sched = pt.envy_schedules(pt.SCF, "progressive_envy")
    assert [p.text() for _, p in sched[500].rows] == ["$500", "$250", "$50", "$25"]


@pytest.mark.reg("670a.12(a)")
def test_six_card_fortune_and_double_down_even_money():
    assert rows(pt.SCF, "six_card_fortune") == [("win", "1 to 1")]
    assert rows(pt.SCF, "double_down") == [("win", "1 to 1")]


def test_every_table_names_its_section_and_has_rows():
    for t in pt.all_tables():
        assert t.section[:3] in ("581", "583", "585", "669", "670")
        assert t.rows


def test_fractions_of_a_cent_are_not_paid_and_bad_wagers_are_refused():
    assert S.net_for(pt.to(5, 2), 101) == 252
    assert S.half_returned(1001) == -500
    with pytest.raises(SettlementError):
        S.net_for(pt.to(1), -5)
    with pytest.raises(SettlementError):
        S.net_for(pt.to(1), 2.5)
