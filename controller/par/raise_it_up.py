"""Par of Raise It Up Stud Poker (ch. 669a)."""

from math import comb

from controller.par.counting import best_category_counts
from controller.par.sheet import StrategyDependent, from_paytable
from controller.par.three_card import COMBINATIONS, three_card_counts
from controller.rules import paytables as pt

GAME = pt.RIU


def sheets():
    out = [
        StrategyDependent(GAME, "ante", "669a.12(b)",
                          "settled with the Play Wager the player chooses (669a.11(b),(d),(f))"),
        StrategyDependent(GAME, "blind", "669a.12(d)",
                          "collected when the player folds (669a.11(f))"),
        StrategyDependent(GAME, "play", "669a.12(c)", "one to three times the Ante, or fold"),
        StrategyDependent(GAME, "progressive", "669a.12(e)",
                          "forfeited by a player who makes no Play Wager (669a.11(g))"),
    ]
    three = three_card_counts(royal=False)
    for letter in pt.letters(GAME, "pair_plus"):
        out.append(from_paytable(pt.get(GAME, "pair_plus", letter), three, COMBINATIONS))
    six = best_category_counts(6)
    for letter in pt.letters(GAME, "six_card_bonus"):
        out.append(from_paytable(pt.get(GAME, "six_card_bonus", letter), six, comb(52, 6)))
    return out
