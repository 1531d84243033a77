"""Raise It Up Stud settlement of one player's wagers (669a.11, 669a.12)."""
import pytest

from controller.errors import RulesError
from controller.rules import cards as C
from controller.rules import raise_it_up as R


def cs(codes):
    return C.parse_all(codes)


@pytest.mark.reg("669a.11(b)", "669a.11(d)", "669a.11(f)")
@pytest.mark.parametrize("street, play, ok", [
    ("before_4th_street", 500, True), ("before_4th_street", 1000, True),
    ("before_4th_street", 1500, True), ("before_4th_street", 2000, False),
    ("before_5th_street", 1000, True), ("before_5th_street", 1500, False),
    ("before_6th_street", 500, True), ("before_6th_street", 1000, False),
    ("before_4th_street", 750, False),
])
def test_play_wager_multiples_by_street(street, play, ok):
    if ok:
        R.check_play_wager(500, play, street)
    else:
        with pytest.raises(RulesError, match="669a.11"):
            R.check_play_wager(500, play, street)


@pytest.mark.reg("669a.11(i)(1)", "669a.12(a)")
@pytest.mark.parametrize("letter, codes, net", [
    ("A", "As Ks Qs", 4000), ("A", "7c 7d 7h", 3000), ("B", "7c 7d 7h", 2500),
    ("C", "4h 5d 6c", 500), ("D", "2h 9h Kh", 300), ("A", "2h 9h Kh", 400),
    ("A", "5h 5d Kc", 100), ("A", "Kh 9d 3c", -100),
])
def test_pair_plus(letter, codes, net):
    assert R.settle_pair_plus(cs(codes), 100, letter)[1] == net


@pytest.mark.reg("669a.11(i)(2)(ii)", "669a.12(b)", "669a.12(c)", "669a.12(d)")
def test_ante_play_blind_paid_on_tens_or_better_with_the_blind_pushing():
    # pair of tens: Ante 1 to 1, Play 1 to 1, Blind pushes
    got = R.settle_ante_blind_play(cs("Tc 8d 2s"), cs("Ts 5d 4h"), 500, 500, 1500)
    assert got == {"ante": ("win", 500), "play": ("win", 1500), "blind": ("push", 0)}
    # two pair: Play 3 to 2, Blind pushes
    got = R.settle_ante_blind_play(cs("Tc 8d 2s"), cs("Ts 8h 4h"), 500, 500, 1000)
    assert got == {"ante": ("win", 500), "play": ("win", 1500), "blind": ("push", 0)}
    # straight: Play 4 to 1, Blind 2 to 1
    got = R.settle_ante_blind_play(cs("4c 5d 6s"), cs("7s 8h Kh"), 500, 500, 500)
    assert got == {"ante": ("win", 500), "play": ("win", 2000), "blind": ("win", 1000)}
    # royal flush: Play 100 to 1, Blind 1,000 to 1
    got = R.settle_ante_blind_play(cs("Ah Kh Qh"), cs("Jh Th 2c"), 500, 500, 1500)
    assert got["play"] == ("win", 150000) and got["blind"] == ("win", 500000)


@pytest.mark.reg("669a.11(i)(2)(i)")
def test_below_tens_collects_ante_blind_and_play():
    got = R.settle_ante_blind_play(cs("9c 8d 2s"), cs("9s 5d 4h"), 500, 500, 500)
    assert got == {"ante": ("lose", -500), "blind": ("lose", -500), "play": ("lose", -500)}


@pytest.mark.reg("669a.11(f)")
def test_fold_collects_ante_and_blind():
    got = R.settle_ante_blind_play(cs("Ac Ad As"), cs("9s 5d 4h"), 500, 500, 0)
    assert got == {"ante": ("lose", -500), "blind": ("lose", -500)}


@pytest.mark.reg("669a.7(d)(1)")
def test_blind_must_equal_ante():
    with pytest.raises(RulesError, match=r"669a\.7\(d\)\(1\)"):
        R.settle_ante_blind_play(cs("Ac Ad As"), cs("9s 5d 4h"), 500, 1000, 500)


@pytest.mark.reg("669a.11(i)(3)(ii)", "669a.12(f)", "669a.11(g)")
@pytest.mark.parametrize("letter, player, community, net", [
    ("A", "9c 9d 2s", "9s 5d 4h", 500),          # three of a kind 5 to 1
    ("C", "9c 9d 2s", "9s 5d 4h", 800),          # 8 to 1 on C
    ("A", "9c 9d 2s", "Ks 5d 4h", -100),         # a pair loses
    ("D", "Ah Kh Qh", "Jh Th 2c", 100000),       # royal 1,000 to 1
    ("B", "2h 7h 9h", "Jh 3h 2c", 1500),         # flush 15 to 1 on B
])
def test_six_card_bonus_even_after_a_fold(letter, player, community, net):
    assert R.settle_six_card_bonus(cs(player), cs(community), 100, letter)[1] == net


@pytest.mark.reg("669a.11(i)(3)(i)", "669a.12(e)(1)", "669a.11(g)")
def test_progressive_on_the_three_cards_and_forfeited_without_a_play_wager():
    assert R.settle_progressive(cs("As Ks Qs"), True, 100, 250000) == ("win", 249900, 250000)
    assert R.settle_progressive(cs("Ad Kd Qd"), True, 100, 250000) == ("win", 49900, 0)
    assert R.settle_progressive(cs("7d 8d 9d"), True, 100, 250000) == ("win", 6900, 0)
    assert R.settle_progressive(cs("7d 7s 7c"), True, 100, 250000) == ("win", 5900, 0)
    assert R.settle_progressive(cs("7d 8s 9c"), True, 100, 250000) == ("win", 500, 0)
    assert R.settle_progressive(cs("7d 7s 9c"), True, 100, 250000) == ("lose", -100, 0)
    assert R.settle_progressive(cs("As Ks Qs"), False, 100, 250000) == ("lose", -100, 0)


@pytest.mark.reg("669a.11(i)(3)(i)(E)", "669a.12(e)(5)")
def test_envy_bonus_per_other_qualifying_hand():
    others = [cs("As Ks Qs"), cs("Ah Kh Qh"), cs("2c 3c 4c")]
    assert R.envy_bonuses(100, others) == 10000 + 2500
    assert R.envy_bonuses(500, others) == 50000 + 12500
    assert R.envy_bonuses(500, []) == 0
