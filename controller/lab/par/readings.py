"""The hold under each reading of docs/interpretations.md that moves money, and under its
alternative (issue 19).

Why: a reading of a silent or loose text is a choice the certificate holder files. A choice
that turns a wager's hold negative, or moves it by more than a tenth of a percent, is one a
lab and a regulator must see with its figure; one that does not can be argued on the text
alone. Each Reading prices both sides with the par machinery (controller/lab/par/reading.py).
Each game's readings are its own modules, which its declaration's `readings` names, so this
module collects them and names no game (issue 12). tests/par/test_readings.py checks that
docs/interpretations.md prints exactly the figures this module computes (`render()`),
flagged where they cross the line.

Flop Poker is priced exactly under the optimal Flop decision (flop_poker_optimal, solved
under each reading); Six-Card Fortune under the house way by a seeded simulation
(SimulatedReading: both readings on the same deals, each figure with n and its 95% CI,
flagged unless the sample rules the line out). A reading whose hold the par machinery
cannot price yet is listed with `pending` saying what it waits for; its line says so
instead of a figure.
"""

from controller.games import all_declarations
from controller.games.declarations import load


def _collect():
    out = []
    for d in all_declarations():
        if d.readings:
            out.extend(load(d.readings))
    return out


READINGS = _collect()           # in the games' order, as docs/interpretations.md prints them


def by_key(key):
    for r in READINGS:
        if r.key == key:
            return r
    raise KeyError(key)


def render():
    """The lines of docs/interpretations.md's section "Holds under each reading", at full
    size (the simulations at six_card_fortune_house_way.SHUFFLES: about a minute)."""
    return [r.line() for r in READINGS]
