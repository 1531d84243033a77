"""Par of Flop Poker (ch. 583)."""

from controller.lab.par import flop_poker_optimal
from controller.lab.par.sheet import NoHouseEdge, StrategyDependent, StrategyPar, from_paytable
from controller.lab.par.three_card import COMBINATIONS, three_card_counts
from controller.rules import paytables as pt

GAME = pt.FLOP


METHOD = ("exact enumeration of every deal (22,100 player hands x 18,424 community sets "
          "from 52 cards without replacement), the Flop Wager made when its expected "
          "return is at least the fold's (583.11(b)); counted by rank classes, a flush "
          "only from three suited cards and two of the community's in their suit")


def base_game_sheet():
    rows, deals, _ = flop_poker_optimal.full_rows()
    pays = {}
    for decision, hand, _, _ in rows:
        if hand == flop_poker_optimal.FOLD:
            pays[(decision, hand)] = "Ante lost"
        elif hand == flop_poker_optimal.LOSES:
            pays[(decision, hand)] = "Ante and Flop lost"
        else:
            pays[(decision, hand)] = "Ante %s, Flop %s" % (
                pt.get(GAME, "ante").pay("win").text(), pt.get(GAME, "flop").pay(hand).text())
    return StrategyPar(GAME, "583.12(a)-(b)", "optimal", METHOD, ("ante", "flop"),
                       rows=rows, combinations=deals, pays=pays,
                       note="per unit of Ante; the Flop Wager equals the Ante (583.7(d)(2)); "
                            "the Pot is paid between players (583.11(e))")


def sheets():
    return [
        base_game_sheet(),
        StrategyDependent(GAME, "ante", "583.12(a)",
                          "the player folds or makes the Flop Wager (583.11(b)); priced with "
                          "the Flop Wager as base_game"),
        StrategyDependent(GAME, "flop", "583.12(b)",
                          "made only by players who choose not to fold (583.11(b)); priced "
                          "with the Ante as base_game"),
        NoHouseEdge(GAME, "pot", "583.11(e)",
                    "the Pots of all players go to the best hand among them"),
        from_paytable(pt.get(GAME, "three_card_bonus"), three_card_counts(royal=True),
                      COMBINATIONS),
    ]
