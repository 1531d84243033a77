"""Exact par sheets of every Props & Hops wager (585.2, 585.4).

Every wager is settled on one roll, so its par is a count over the 36 equally
likely ordered rolls of two fair dice (585.3(a)), decided by the rules core.
"""

from controller.lab.par.sheet import from_paytable
from controller.rules import dice, paytables

GAME = paytables.PH
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def counts(wager):
    """{hand: rolls} of the 36 that `wager` wins with."""
    out = dict((h, 0) for h in paytables.get(GAME, wager).hands())
    for a, b in ROLLS:
        hand = dice.outcome(wager, a, b)
        if hand is not None:
            out[hand] += 1
    return out


def sheet(wager):
    return from_paytable(paytables.get(GAME, wager), counts(wager), len(ROLLS),
                         note="ordered rolls of two dice, 36 equally likely")


def sheets():
    """Every wager of 585.2, in the order of the section."""
    return [sheet(w) for w in dice.wagers()]
