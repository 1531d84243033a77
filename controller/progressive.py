"""Progressive meters (669a.2(c), 669a.12(e), 670a.2(c), 670a.12(d), 605a.7).

A meter is JSON-native state a game model keeps: its value in cents, the
fraction of a cent carried from contributions (never lost, never rounded),
the rate as an exact fraction, the reset amount, and the regulation meters
(hits, amount paid, amount contributed). Every accepted Progressive Payout
Wager contributes rate x amount when it is accepted; a meter share is paid at
the meter's value when the player's turn comes (669a.12(e)(4), 670a.12(d)(3)),
so several winners at one table are paid in settlement order, each from what
the one before left; a 100% hit resets the meter to its reset amount.
"""

from fractions import Fraction

from controller.errors import ConfigError, SettlementError
from controller.rules import paytables as pt
from controller.units import cents  # noqa: F401 - its home is the bottom layer


def new_meter(game, prog):
    """Meter state for `game` from the validated `progressive` configuration."""
    if prog is None:
        raise ConfigError("progressive: this table offers a Progressive Payout Wager but has no "
                          "progressive configuration (meter, reset, rate)")
    minimums = pt.PROGRESSIVE_MINIMUMS[game]
    reset = prog.get("reset", minimums["reset"])
    rate = prog.get("rate")
    if rate is None:
        raise ConfigError("progressive.rate: the rate of progression must be in the Rules "
                          "Submission (%s)" % minimums["section"])
    exact = Fraction(repr(rate)) if isinstance(rate, float) else Fraction(rate)
    return {"value": prog.get("meter", reset), "carry": 0, "rate": [exact.numerator,
                                                                     exact.denominator],
            "reset": reset, "hits": 0, "paid": 0, "contributed": 0, "wagers": 0}


def contribute(meter, amount):
    """An accepted Progressive Payout Wager of `amount` cents adds rate x amount."""
    if not isinstance(amount, int) or amount <= 0:
        raise SettlementError("a Progressive Payout Wager is whole cents > 0, not %r" % (amount,))
    num, den = meter["rate"]
    total = meter["carry"] + amount * num
    meter["value"] += total // den
    meter["contributed"] += total // den
    meter["carry"] = total % den
    meter["wagers"] += 1
    return meter["value"]


def pay(meter, pay_, wager):
    """Settle one winning Progressive Payout Wager now.

    Returns (net to the player, cents taken from the meter). A meter share is paid
    at the meter's value now; a 100% hit resets it. "N for 1" payouts are paid by
    the table, the meter untouched.
    """
    if pay_ is None:
        return -wager, 0
    if pay_.kind != pt.METER:
        return _net_fixed(pay_, wager), 0
    amount = meter["value"] * pay_.num // 100
    meter["hits"] += 1
    meter["paid"] += amount
    if pay_.num >= 100:
        meter["value"] = meter["reset"]
    else:
        meter["value"] -= amount
    return amount - wager, amount


def progressives(model):
    """{wager name: meter dict} of the progressive meters the model keeps."""
    meters = getattr(model, "meters", None)
    if isinstance(meters, dict):
        return {name: m for name, m in meters.items() if isinstance(m, dict)}
    meter = getattr(model, "meter", None)
    return {"progressive": meter} if isinstance(meter, dict) else {}


def meter_values(model):
    """{wager name: cents} the model's progressive meters stand at."""
    return {name: m["value"] for name, m in progressives(model).items()}


def _net_fixed(pay_, wager):
    from controller.rules.settle import net_for
    return net_for(pay_, wager)


def needs_attendant(game, pay_):
    """A payout the table inventory may not pay: 100% of the meter at Raise It Up
    (669a.11(i)(3)(i)(D)); any percentage of the meter at Six-Card Fortune
    (670a.11(h)(3)(i)(B)(IV)). The player's cards stay until it is documented."""
    if pay_ is None or pay_.kind != pt.METER:
        return False
    if game == pt.RIU:
        return pay_.num >= 100
    return True


def progressive_wagers(model):
    """The wager names a progressive table game system accepts at this game."""
    meters = getattr(model, "meters", None)
    return ("progressive",) + tuple(meters) if isinstance(meters, dict) else ("progressive",)
