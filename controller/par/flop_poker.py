"""Par of Flop Poker (ch. 583)."""

from controller.par.sheet import NoHouseEdge, StrategyDependent, from_paytable
from controller.par.three_card import COMBINATIONS, three_card_counts
from controller.rules import paytables as pt

GAME = pt.FLOP


def sheets():
    return [
        StrategyDependent(GAME, "ante", "583.12(a)",
                          "the player folds or makes the Flop Wager (583.11(b))"),
        StrategyDependent(GAME, "flop", "583.12(b)",
                          "made only by players who choose not to fold (583.11(b))"),
        NoHouseEdge(GAME, "pot", "583.11(e)",
                    "the Pots of all players go to the best hand among them"),
        from_paytable(pt.get(GAME, "three_card_bonus"), three_card_counts(royal=True),
                      COMBINATIONS),
    ]
