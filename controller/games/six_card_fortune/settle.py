"""Six-Card Fortune settlement (670a.11(e)-(h), 670a.12), once the dealer has set his hands.

From the dealer's right, counterclockwise (670a.11(e)): each player's Six-Card Fortune Pai Gow
Poker Wager (670a.11(f)) and Double Down Wager (670a.11(g)). Then, the six cards of each player
rearranged to the highest hand (670a.11(h)): every Fortune Bonus, then the Fortune Bonus Envy
Bonuses; every Insurance Wager; every Progressive Payout Wager in the same order, each paid at
the meter's value when its turn comes (670a.12(d)(3)), then the Progressive Envy Bonuses. A seat's
Envy Bonuses of both kinds are one result, `envy`.

Every outcome comes from the rules core (controller/rules/paigow.py, settle.py, paytables.py,
controller/progressive.py); this module only puts them in the order the procedure takes.
"""

from controller import progressive
from controller.rules import cards as C
from controller.rules import paigow as pg
from controller.rules import paytables as pt
from controller.rules import settle

GAME = pt.SCF
ENVY = {"fortune_bonus": ("fortune_bonus_envy", "670a.11(h)(1)(ii), 670a.12(b)(2)"),
        "progressive": ("progressive_envy", "670a.11(h)(3)(ii), 670a.12(d)(4)")}


def _net(result, amount):
    """1 to 1 (670a.12(a)) on a win, the wager on a loss, nothing on a tie or a return."""
    if result == settle.WIN:
        return settle.net_for(pt.get(GAME, "six_card_fortune").pay("win"), amount)
    if result == settle.LOSE:
        return settle.net_for(None, amount)
    return 0


def settle_round(model):
    seats = model.live_seats()
    dealer_high = C.parse_all(model.dealer_setting["high"])
    dealer_low = C.parse(model.dealer_setting["low"])
    dealer_six = dealer_high + [dealer_low]
    qualifies = pg.dealer_qualifies_double_down(dealer_six)
    model.note("dealer_double_down_qualifier", pair_of_eights_or_better=qualifies,
               section="670a.11(g)")
    for seat in seats:
        _main_wagers(model, seat, dealer_high, dealer_low)
    best = {seat: pg.best_hand(C.parse_all(model.hands[seat]))[0] for seat in seats}
    sixes = {seat: C.parse_all(model.hands[seat]) for seat in seats}
    envy = {}
    for seat in seats:
        _fortune_bonus(model, seat, sixes[seat])
    _envy_bonuses(model, "fortune_bonus", seats, sixes, best, envy)
    for seat in seats:
        _insurance(model, seat, sixes[seat], best[seat])
    for seat in seats:
        _progressive(model, seat, sixes[seat])
    _envy_bonuses(model, "progressive", seats, sixes, best, envy)
    for seat in seats:
        if envy.get(seat):
            model.results[seat]["envy"] = [settle.WIN, envy[seat]]


def _result(model, seat, wager, result, net):
    model.results.setdefault(seat, {})[wager] = [result, net]
    model.note("collect" if net < 0 else "pay" if net > 0 else result, seat=seat, wager=wager,
               amount=abs(net))


def _main_wagers(model, seat, dealer_high, dealer_low):
    """670a.11(f) for the Six-Card Fortune Pai Gow Poker Wager, (g) for the Double Down."""
    setting = model.settings[seat]
    high, low = C.parse_all(setting["high"]), C.parse(setting["low"])
    placed = model.wagers[seat]
    result = pg.wager_result(high, low, dealer_high, dealer_low)
    _result(model, seat, "six_card_fortune", result, _net(result, placed["six_card_fortune"]))
    if "double_down" in placed:
        result = pg.double_down_result(high, low, dealer_high, dealer_low)
        _result(model, seat, "double_down", result, _net(result, placed["double_down"]))


def _fortune_bonus(model, seat, six):
    """670a.11(h)(1)(i): three of a kind or better pays by 670a.12(b)(1), else collected."""
    amount = model.wagers[seat].get("fortune_bonus")
    if amount is None:
        return
    result, net = settle.settle(pt.get(GAME, "fortune_bonus"), pg.fortune_bonus_hand(six), amount)
    _result(model, seat, "fortune_bonus", result, net)


def _insurance(model, seat, six, best):
    """670a.11(h)(2): king-high or less pays by 670a.12(c); better is collected."""
    amount = model.wagers[seat].get("insurance")
    if amount is None:
        return
    hand = best if pg.insurance_wins(six) else None
    result, net = settle.settle(pt.get(GAME, "insurance"), hand, amount)
    _result(model, seat, "insurance", result, net)


def _progressive(model, seat, six):
    """670a.11(h)(3)(i): a straight or better pays by 670a.12(d)(1); a meter share is paid at
    the meter's value now (670a.12(d)(3)) and not from the table inventory."""
    amount = model.wagers[seat].get("progressive")
    if amount is None:
        return
    hand = pg.progressive_hand(six)
    pay = None if hand is None else pt.get(GAME, "progressive").pay(hand)
    if model.linked_meter() is not None and pay is not None and pay.kind == pt.METER:
        # the link pays the meter share at the hit's place in its order; the seat's award
        # waits for it (controller/progressive.py LinkedGame)
        _result(model, seat, "progressive", *model.settle_linked_hit(
            seat, model.hands[seat], pay, amount))
        model.note("progressive_meter_payout", seat=seat, hand=hand, amount=None,
                   link=model.meter["link"]["id"], table_inventory=False,
                   section="670a.11(h)(3)(i)(B)(IV)")
        return
    net, taken = progressive.pay(model.meter, pay, amount)
    _result(model, seat, "progressive", settle.result_of(pay), net)
    if taken:
        model.meter_paid[seat] = taken
        model.note("progressive_meter_payout", seat=seat, hand=hand, amount=taken,
                   meter_after=model.meter["value"],
                   table_inventory=not progressive.needs_attendant(GAME, pay),
                   section="670a.11(h)(3)(i)(B)(IV)")


def _envy_bonuses(model, wager, seats, sixes, best, envy):
    """Each seat with an Envy lammer on `wager` is paid for every OTHER player's Envy Bonus
    Qualifying Hand, never its own or the dealer's, on the schedule of its own wager."""
    schedule, section = ENVY[wager]
    schedules = pt.envy_schedules(GAME, schedule)
    holders = [s for s in seats if pg.envy_qualifying(sixes[s], wager)]
    for holder in holders:
        model.note("envy_qualifying_hand", seat=holder, wager=wager, hand=best[holder])
    for seat in seats:
        if wager not in model.lammers.get(seat, []):
            continue
        for holder in holders:
            if holder == seat:
                continue
            amount = settle.envy_bonus(schedules, model.wagers[seat][wager], best[holder])
            if amount:
                envy[seat] = envy.get(seat, 0) + amount
                model.note("envy_bonus", seat=seat, holder=holder, wager=wager,
                           hand=best[holder], amount=amount, section=section)
