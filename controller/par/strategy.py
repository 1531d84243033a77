"""`tablectl strategy GAME`: the strategy a par sheet's base_game entry assumes,
printed for a lab or a dealer training course.

One registry, game -> (module, function name[, arguments]); the function returns
the printable text. Each game's printer lives in its own module so
that adding a game (a blackjack chart, say) is one line here and a new module,
never an edit to another game's printer. Modules are imported only when asked for.
"""

import importlib

PRINTERS = {
    "raise-it-up-stud": ("controller.par.raise_it_up_strategy", "text"),
    "flop-poker": ("controller.par.flop_poker_strategy", "text"),
    "blackjack": ("controller.par.blackjack_strategy", "strategy_text", ("blackjack",)),
    "double-attack-blackjack": ("controller.par.blackjack_strategy", "strategy_text",
                                ("double-attack-blackjack",)),
}


def games():
    return sorted(PRINTERS)


def text(game):
    """The strategy of `game` as text; KeyError for a game without one."""
    entry = PRINTERS[game]
    module, name = entry[0], entry[1]
    args = entry[2] if len(entry) > 2 else ()
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
