"""`tablectl strategy GAME`: the strategy a par sheet's base_game entry assumes,
printed for a lab or a dealer training course.

Each game declares its printer (`strategy`: module, function name, arguments; the function
returns the printable text), so that adding a game (a blackjack chart, say) is a line in its
declaration and a new module, never an edit here nor to another game's printer. Modules are
imported only when asked for.
"""

import importlib

from controller.games import ALL_GAMES, declaration


def games():
    return sorted(g for g in ALL_GAMES if declaration(g).strategy is not None)


def text(game):
    """The strategy of `game` as text; KeyError for a game without one."""
    if game not in ALL_GAMES or declaration(game).strategy is None:
        raise KeyError(game)
    module, name, args = declaration(game).strategy
    return getattr(importlib.import_module(module), name)(*args)


def cmd_strategy(args, out):
    import sys
    try:
        body = text(args.game)
    except KeyError:
        sys.stderr.write("tablectl strategy: no strategy for %r; one of: %s\n"
                         % (args.game, ", ".join(games())))
        return 2
    out.write(body)
    if not body.endswith("\n"):
        out.write("\n")
    return 0


def add_parser(sub):
    p = sub.add_parser("strategy", help="the strategy a game's base_game par assumes "
                       "(decision rules, charts)")
    p.add_argument("game", help="one of: %s" % ", ".join(games()))
    p.set_defaults(func=cmd_strategy)
