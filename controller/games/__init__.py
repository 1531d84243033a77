"""One `transitions` machine per game, driven only by events (see engine.py).

The firmware's one registry of games: a line per game naming its declaration (what the table
must know about it, its id and its model among it: controller/games/declarations/).
Everything outside a game's own modules asks `declaration(game)` (or `model.DECLARES`), never
the game's name. Game modules are imported when a table of that game is built; declarations
are light (the standard library only), so all of them are read here.
"""

import importlib

from controller.errors import ConfigError

# The registry: one line per game, its declaration (controller/games/declarations/), which
# names the game's id, its model and all the table must know about it. The order is the
# order games are listed in. GAMES, ALL_GAMES and DECLARATIONS derive from it.
REGISTRY = (
    "controller.games.declarations.double_attack",
    "controller.games.declarations.blackjack",
    "controller.games.declarations.flop_poker",
    "controller.games.declarations.props_and_hops",
    "controller.games.declarations.raise_it_up",
    "controller.games.declarations.six_card_fortune",
    "controller.games.declarations.poker",
)

_DECLARED = [(module, importlib.import_module(module).DECLARES) for module in REGISTRY]
DECLARATIONS = {d.game: module for module, d in _DECLARED}      # game -> its declaration
GAMES = {d.game: d.model for _, d in _DECLARED}                 # game -> "module:Class"
ALL_GAMES = tuple(GAMES)


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
    return [d for _, d in _DECLARED]
