"""One `transitions` machine per game, driven only by events (see engine.py).

Game modules are imported when a table of that game is built.
"""

import importlib

from controller.errors import ConfigError

GAMES = {
    "double-attack-blackjack": "controller.games.double_attack:DoubleAttackBlackjack",
    "blackjack": "controller.games.blackjack:Blackjack",
    "props-and-hops": "controller.games.props_and_hops:PropsAndHops",
    "six-card-fortune-pai-gow": "controller.games.six_card_fortune:SixCardFortune",
    "flop-poker": "controller.games.flop_poker:FlopPoker",
    "raise-it-up-stud": "controller.games.raise_it_up:RaiseItUpStud",
    "poker": "controller.games.poker:PokerRoom",
}

ALL_GAMES = ("double-attack-blackjack", "blackjack", "flop-poker", "props-and-hops",
             "raise-it-up-stud", "six-card-fortune-pai-gow", "poker")


def model_class(game):
    try:
        target = GAMES[game]
    except KeyError:
        if game in ALL_GAMES:
            raise ConfigError("game %r is not playable yet in this version of tablectl" % game)
        raise ConfigError("unknown game %r; one of %s" % (game, ", ".join(ALL_GAMES)))
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)
