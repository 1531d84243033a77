"""Flop Poker settlement of one player's wagers and the Pot (583.11, 583.12)."""
import pytest

from controller.errors import RulesError
from controller.rules import cards as C
from controller.rules import flop_poker as F
from controller.rules import poker as P


def cs(codes):
    return C.parse_all(codes)


@pytest.mark.reg("583.11(d)(1)", "583.12(c)")
@pytest.mark.parametrize("codes, result, net", [
    ("As Ks Qs", "win", 10000),      # royal 100 to 1 on $1
    ("9h Th Jh", "win", 5000),
    ("7c 7d 7h", "win", 2500),
    ("Ah 2d 3c", "win", 600),
    ("2h 9h Kh", "win", 300),
    ("5h 5d Kc", "win", 100),
    ("Kh 9d 3c", "lose", -100),
])
def test_three_card_bonus_on_the_players_three_cards(codes, result, net):
    assert F.settle_three_card_bonus(cs(codes), 100) == (result, net)


@pytest.mark.reg("583.11(d)(2)", "583.12(a)", "583.12(b)")
def test_ante_and_flop_paid_on_jacks_or_better_from_three_plus_two():
    # two pair with the community kings: Ante 1 to 1, Flop 2 to 1
    got = F.settle_ante_and_flop(cs("9c 9d 2s"), cs("Ks Kd 4h"), 500, 500)
    assert got == {"ante": ("win", 500), "flop": ("win", 1000)}
    # a pair of jacks exactly
    got = F.settle_ante_and_flop(cs("Jc 8d 2s"), cs("Js 5d 4h"), 500, 500)
    assert got == {"ante": ("win", 500), "flop": ("win", 500)}
    # a pair of tens does not qualify: both lose
    got = F.settle_ante_and_flop(cs("Tc 8d 2s"), cs("Ts 5d 4h"), 500, 500)
    assert got == {"ante": ("lose", -500), "flop": ("lose", -500)}
    # four hearts on board and one in hand: only two community cards play, no flush
    got = F.settle_ante_and_flop(cs("Ah 2c 7d"), cs("Kh Qh Jh"), 500, 500)
    assert got == {"ante": ("lose", -500), "flop": ("lose", -500)}
    # royal flush: 1,000 to 1
    got = F.settle_ante_and_flop(cs("Ah Kh Qh"), cs("Jh Th 2c"), 500, 500)
    assert got["flop"] == ("win", 500000)


@pytest.mark.reg("583.11(b)")
def test_a_fold_loses_the_ante_and_makes_no_flop_wager():
    assert F.settle_ante_and_flop(cs("Ah Ad 7d"), cs("Kh Qh Jh"), 500, 0, folded=True) == \
        {"ante": ("lose", -500)}
    with pytest.raises(RulesError, match="583"):
        F.settle_ante_and_flop(cs("Ah Ad 7d"), cs("Kh Qh Jh"), 500, 500, folded=True)


@pytest.mark.reg("583.7(d)(2)")
def test_flop_wager_must_equal_the_ante():
    with pytest.raises(RulesError, match=r"583\.7\(d\)\(2\)"):
        F.settle_ante_and_flop(cs("Ah Ad 7d"), cs("Kh Qh Jh"), 500, 1000)


def _value(p3, c3):
    return P.best_flop_poker(cs(p3), cs(c3))[0]


@pytest.mark.reg("583.11(e)")
def test_pot_to_the_best_hand_folded_players_included():
    community = "Kd 7s 2h"
    # seat 2 folded with kings and sevens; it still takes the Pot over a pair of aces
    values = {1: _value("Ac Ad 3c", community), 2: _value("Kc 7d 4s", community),
              3: _value("Qc Qd 5s", community)}
    assert P.category_name(values[2]) == "two_pair"
    assert F.pot_shares(values, {1: 500, 2: 500, 3: 500}) == {1: -500, 2: 1000, 3: -500}


@pytest.mark.reg("583.11(e)")
def test_pot_tie_goes_to_the_next_highest_card_and_identical_hands_split():
    community = "Kd 7s 2h"
    kicker = {1: _value("Ac Ad 9c", community), 2: _value("Ah As 8c", community)}
    assert F.pot_shares(kicker, {1: 500, 2: 500}) == {1: 500, 2: -500}
    same = {4: _value("Ac Ad 9c", community), 5: _value("Ah As 9h", community),
            6: _value("3c 4d 5s", community)}
    assert F.pot_shares(same, {4: 500, 5: 500, 6: 500}) == {4: 250, 5: 250, 6: -500}


@pytest.mark.reg("583.11(e)")
def test_pot_split_that_does_not_divide_gives_odd_cents_from_the_dealers_right():
    community = "Kd 7s 2h"
    same = {1: _value("Ac Ad 9c", community), 2: _value("Ah As 9h", community),
            3: _value("3c 4d 5s", community)}
    # three Pot Wagers of 101 cents split between seats 1 and 2: 303 = 151 + 152
    got = F.pot_shares(same, {1: 101, 2: 101, 3: 101})
    assert got == {1: 151 - 101, 2: 152 - 101, 3: -101}
    assert sum(got.values()) == 0
