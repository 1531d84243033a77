"""Which par sheets each game has; modules are imported only when asked for."""

import importlib

from controller.par.sheet import NoHouseEdge, StrategyDependent

GAMES = ("double-attack-blackjack", "blackjack", "flop-poker", "props-and-hops",
         "raise-it-up-stud", "six-card-fortune-pai-gow", "poker")

_MODULES = {
    "double-attack-blackjack": "controller.par.double_attack",
    "flop-poker": "controller.par.flop_poker",
    "props-and-hops": "controller.par.props_and_hops",
    "raise-it-up-stud": "controller.par.raise_it_up",
    "six-card-fortune-pai-gow": "controller.par.six_card_fortune",
}


def _blackjack():
    game = "blackjack"
    out = [StrategyDependent(game, "blackjack", "633a.7(p)",
                             "the player's hits, stands, doubles, splits and surrenders")]
    for wager in ("lucky_ladies", "match_the_dealer", "in_between", "royal_match_21",
                  "bet_the_set_21", "kings_bounty", "three_card_poker",
                  "straight_jack_progressive", "house_money", "bad_beat_progressive",
                  "hit_and_run_progressive"):
        out.append(StrategyDependent(
            game, wager, "633a.7(g),(o)",
            "its paytable (633a.13) is not in the regulation texts shipped with tablectl: "
            "it is chosen in the Rules Submission and priced when configured"))
    return out


def _poker():
    return [NoHouseEdge("poker", "pot", "637a(e)(6)",
                        "players play each other; the house takes the rake, set by configuration")]


def sheets(game):
    if game == "blackjack":
        return _blackjack()
    if game == "poker":
        return _poker()
    try:
        module = _MODULES[game]
    except KeyError:
        raise KeyError(game)
    return importlib.import_module(module).sheets()
