"""Flop Poker's readings of docs/interpretations.md: under the optimal Flop decision
(583.11(d)(2)) and the Three Card Bonus's straights and royal (583.6(d), 583.12(c))."""

from fractions import Fraction

from controller.lab.par.reading import Reading, three_card_hold
from controller.rules import paytables as pt

def _flop_hold(below_jacks):
    from controller.lab.par import flop_poker_optimal as FO
    rows, deals, _ = FO.rows(FO.Solver(below_jacks=below_jacks))
    return -sum(Fraction(net) * n for _, _, n, net in rows) / deals


def _flop_below_jacks():
    return _flop_hold("lost"), _flop_hold("returned")


def _bonus_straights():
    return (three_card_hold(pt.FLOP, "three_card_bonus", royal=True),
            three_card_hold(pt.FLOP, "three_card_bonus", royal=True, a23=False))


def _bonus_royal():
    return (three_card_hold(pt.FLOP, "three_card_bonus", royal=True),
            three_card_hold(pt.FLOP, "three_card_bonus", royal=False))


READINGS = [
    Reading("three-card-straights-bonus",
            "Three-card straights include A-2-3 and A-K-Q (583.6(d))",
            "Three Card Bonus (583.12(c))",
            "A-2-3 a straight", "A-2-3 ace high, no straight",
            holds=_bonus_straights),
    Reading("three-card-bonus-royal",
            "Three Card Bonus pays A-K-Q suited as its royal (583.12(c))",
            "Three Card Bonus (583.12(c))",
            "A-K-Q suited the royal, 100 to 1", "a straight flush, 50 to 1",
            holds=_bonus_royal),
    Reading("flop-below-jacks", "A hand below a pair of jacks loses the Ante and the Flop "
            "Wager (583.11(d)(2))", "Flop Poker Ante and Flop under the optimal Flop decision",
            "both lost", "both returned", holds=_flop_below_jacks),
]
