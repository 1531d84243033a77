"""Which par sheets each game has; modules are imported only when asked for."""

import importlib

from controller.par.sheet import NoHouseEdge

GAMES = ("double-attack-blackjack", "blackjack", "flop-poker", "props-and-hops",
         "raise-it-up-stud", "six-card-fortune-pai-gow", "poker")

_MODULES = {
    "double-attack-blackjack": "controller.par.double_attack",
    "blackjack": "controller.par.blackjack",
    "flop-poker": "controller.par.flop_poker",
    "props-and-hops": "controller.par.props_and_hops",
    "raise-it-up-stud": "controller.par.raise_it_up",
    "six-card-fortune-pai-gow": "controller.par.six_card_fortune",
}


def _poker():
    return [NoHouseEdge("poker", "pot", "637a(e)(6)",
                        "players play each other; the house takes the rake, set by configuration")]


# Games whose sheets are computed from the table's configuration (`par --config TABLE.toml`):
# their holds move with the configured options and paytables.
CONFIGURED = ("double-attack-blackjack", "blackjack")


def sheets(game, config=None):
    """The game's sheets; `config` (a validated table configuration) prices the table as
    configured where the game's sheets depend on it."""
    if game == "poker":
        return _poker()
    try:
        module = _MODULES[game]
    except KeyError:
        raise KeyError(game)
    module = importlib.import_module(module)
    if game in CONFIGURED:
        return module.sheets(config)
    return module.sheets()
