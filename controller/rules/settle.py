"""Settlement of one wager in integer cents.

The net is what changes hands: positive is paid to the player, negative is
collected, 0 is a push or a returned wager. Fractions of a cent (a 5 to 2
payout on an odd number of cents) are not paid: the payout is rounded down,
the way a dealer pays to the smallest unit on hand.
"""

from controller.errors import SettlementError
from controller.rules import paytables as pt

WIN, LOSE, PUSH, RETURNED, SURRENDER = "win", "lose", "push", "returned", "surrender"


def _check_wager(wager):
    if not isinstance(wager, int) or isinstance(wager, bool) or wager < 0:
        raise SettlementError("a wager is a whole number of cents >= 0, not %r" % (wager,))


def net_for(pay, wager, meter=None):
    """Net cents for a winning `pay` on `wager`; `meter` (cents) for meter shares."""
    _check_wager(wager)
    if pay is None:
        return -wager
    kind = pay.kind
    if kind == pt.TO:
        return wager * pay.num // pay.den
    if kind == pt.FOR:
        return wager * (pay.num - 1)
    if kind == pt.PUSH:
        return 0
    if kind == pt.AMOUNT:
        return pay.num
    if kind == pt.METER:
        if meter is None or not isinstance(meter, int) or meter < 0:
            raise SettlementError("a payout of %s needs the meter's value in cents, got %r"
                                  % (pay.text(), meter))
        return meter * pay.num // 100 - wager
    raise SettlementError("unknown payout kind %r" % (kind,))


def result_of(pay):
    if pay is None:
        return LOSE
    if pay.kind == pt.PUSH:
        return PUSH
    return WIN


def settle(table, hand, wager, meter=None):
    """(result, net) for `wager` on `table` when the outcome is `hand` (None or a
    hand the table does not list: the wager loses)."""
    pay = None if hand is None else table.pay(hand)
    return result_of(pay), net_for(pay, wager, meter)


def meter_payout(pay, meter):
    """Cents a meter-share payout takes from the meter (the amount the meter is reduced by)."""
    if pay is None or pay.kind != pt.METER:
        return 0
    return meter * pay.num // 100


def even_money(wager):
    """1 to 1."""
    _check_wager(wager)
    return wager


def half_returned(wager):
    """A surrender collects half and returns half (581.9(b)(1)); the odd cent stays with the player."""
    _check_wager(wager)
    return -(wager // 2)


def envy_bonus(schedules, wager, hand):
    """Fixed Envy Bonus for one qualifying hand of another player.

    The texts print schedules for $1 and $5 wagers only; a wager between or above
    them is paid on the largest printed schedule it reaches. A wager below the
    smallest schedule earns nothing.
    """
    _check_wager(wager)
    best = None
    for amount in sorted(schedules):
        if wager >= amount:
            best = schedules[amount]
    if best is None:
        return 0
    pay = best.pay(hand)
    return 0 if pay is None else pay.num
