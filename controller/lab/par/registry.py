"""Which par sheets each game has: the game declares its par module (`par_sheets`) and
whether its sheets are computed from the table's configuration (`par_configured`: `par
--config TABLE.toml`, holds that move with the configured options and paytables). Modules
are imported only when asked for."""

import importlib

from controller.errors import ConfigError
from controller.games import ALL_GAMES, declaration

GAMES = ALL_GAMES


def sheets(game, config=None):
    """The game's sheets; `config` (a validated table configuration) prices the table as
    configured where the game's sheets depend on it."""
    try:
        declared = declaration(game)
    except ConfigError:
        raise KeyError(game)
    if declared.par_sheets is None:
        raise KeyError(game)
    module = importlib.import_module(declared.par_sheets)
    if declared.par_configured:
        return module.sheets(config)
    return module.sheets()


def spreads(game):
    """Whether the game's par module spreads pieces of its own sheets over the pool `tablectl
    par` opens (controller/lab/par/spread.py; its module says SPREADS = True): such a game is
    computed in the command's process, its pieces in the workers, where the other games'
    sheets are each computed whole by one worker (a worker opens no pool of its own)."""
    module = importlib.import_module(declaration(game).par_sheets)
    return getattr(module, "SPREADS", False)
