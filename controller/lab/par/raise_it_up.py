"""Par of Raise It Up Stud Poker (ch. 669a)."""

from math import comb

from controller.lab.par.counting import best_category_counts
from controller.lab.par import raise_it_up_optimal, raise_it_up_progressive
from controller.lab.par.sheet import StrategyDependent, StrategyPar, from_paytable
from controller.lab.par.three_card import COMBINATIONS, three_card_counts
from controller.rules import paytables as pt

GAME = pt.RIU


METHOD = ("exact enumeration of every deal (the player's 3 cards, then the community "
          "cards one at a time: 22,100 x 49 x 48 x 47 ordered deals from 52 cards without "
          "replacement), with the decision of greatest expected return at each street "
          "given the cards seen (669a.11(b),(d),(f)); counted by rank multisets and the one "
          "suit that can still flush, each final hand settled by the rules core")


def _pays(rows):
    """How each row is paid: Ante, Blind and Play by 669a.12(b)-(d)."""
    out = {}
    for decision, hand, _, _ in rows:
        if hand in (raise_it_up_optimal.FOLD, raise_it_up_optimal.LOSES):
            out[(decision, hand)] = ("Ante and Blind lost" if hand == raise_it_up_optimal.FOLD
                                     else "Ante, Blind and Play lost")
            continue
        multiple = int(decision.split("_")[1][0])
        out[(decision, hand)] = "Ante %s, Blind %s, Play %s on %dx" % (
            pt.get(GAME, "ante").pay("win").text(), pt.get(GAME, "blind").pay(hand).text(),
            pt.get(GAME, "play").pay(hand).text(), multiple)
    return out


def base_game_sheet():
    rows, deals, _ = raise_it_up_optimal.full_rows()
    return StrategyPar(GAME, "669a.12(b)-(d)", "optimal", METHOD, ("ante", "blind", "play"),
                       rows=rows, combinations=deals, pays=_pays(rows),
                       note="per unit of Ante; the Blind equals the Ante (669a.7(d)(1)) and "
                            "the Play Wager is 1-3 times it; a tie between choices goes to "
                            "the Play Wager")


def sheets():
    out = [
        base_game_sheet(),
        StrategyDependent(GAME, "ante", "669a.12(b)",
                          "settled with the Play Wager the player chooses (669a.11(b),(d),(f)); "
                          "priced with Blind and Play as base_game"),
        StrategyDependent(GAME, "blind", "669a.12(d)",
                          "collected when the player folds (669a.11(f)); priced with Ante "
                          "and Play as base_game"),
        StrategyDependent(GAME, "play", "669a.12(c)", "one to three times the Ante, or fold; "
                          "priced with Ante and Blind as base_game"),
        # forfeited by a player who makes no Play Wager (669a.11(g)): priced under the
        # optimal strategy, as `par --link-tables` prices it (issue 36)
        raise_it_up_progressive.LinkedSheet(raise_it_up_optimal.full_rows()[2]),
    ]
    three = three_card_counts(royal=False)
    for letter in pt.letters(GAME, "pair_plus"):
        out.append(from_paytable(pt.get(GAME, "pair_plus", letter), three, COMBINATIONS))
    six = best_category_counts(6)
    for letter in pt.letters(GAME, "six_card_bonus"):
        out.append(from_paytable(pt.get(GAME, "six_card_bonus", letter), six, comb(52, 6)))
    return out
