"""One `transitions` machine per game, driven only by events (see engine.py).

The firmware's one registry of games: each game's id, its model and its declaration (what
the table must know about it: controller/games/declarations/). Everything outside a game's
own modules asks `declaration(game)` (or `model.DECLARES`), never the game's name.
Game modules are imported when a table of that game is built; declarations are light.
"""

import importlib

from controller.errors import ConfigError

GAMES = {
    "double-attack-blackjack": "controller.games.blackjack.double_attack:DoubleAttackBlackjack",
    "blackjack": "controller.games.blackjack.model:Blackjack",
    "props-and-hops": "controller.games.props_and_hops:PropsAndHops",
    "six-card-fortune-pai-gow": "controller.games.six_card_fortune.model:SixCardFortune",
    "flop-poker": "controller.games.single_deck.flop_poker:FlopPoker",
    "raise-it-up-stud": "controller.games.single_deck.raise_it_up:RaiseItUpStud",
    "poker": "controller.games.poker_room:PokerRoom",
}

ALL_GAMES = ("double-attack-blackjack", "blackjack", "flop-poker", "props-and-hops",
             "raise-it-up-stud", "six-card-fortune-pai-gow", "poker")

DECLARATIONS = {
    "double-attack-blackjack": "controller.games.declarations.double_attack",
    "blackjack": "controller.games.declarations.blackjack",
    "flop-poker": "controller.games.declarations.flop_poker",
    "props-and-hops": "controller.games.declarations.props_and_hops",
    "raise-it-up-stud": "controller.games.declarations.raise_it_up",
    "six-card-fortune-pai-gow": "controller.games.declarations.six_card_fortune",
    "poker": "controller.games.declarations.poker",
}


def _unknown(game):
    if game in ALL_GAMES:
        return ConfigError("game %r is not playable yet in this version of tablectl" % game)
    return ConfigError("unknown game %r; one of %s" % (game, ", ".join(ALL_GAMES)))


def model_class(game):
    try:
        target = GAMES[game]
    except KeyError:
        raise _unknown(game)
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def declaration(game):
    """What the table must know about `game` (a Declaration), without importing its model."""
    try:
        module = DECLARATIONS[game]
    except KeyError:
        raise _unknown(game)
    return importlib.import_module(module).DECLARES


def all_declarations():
    """Every game's declaration, in ALL_GAMES order. (Not `declarations`: that name is the
    subpackage's, which replaces a function of that name here once it is imported.)"""
    return [declaration(game) for game in ALL_GAMES]
