"""Blackjack's optional wagers at the table (633a.7(g), (h), (o)): when each one settles, in
what order, House Money on the Blackjack Wager, and the three progressives' meters and jackpots.

The win conditions, the timing and the progressive rules are the rules core's
(controller/rules/blackjack_side_wagers.py, blackjack_side_payouts.py): the side-wager book
(SideWagerBook, a part the model holds) only walks the round through them. The steps, each
from the dealer's right (the highest seat first):
    (g)         after the second cards, before the card reader: every wager that
                `settlement_time` puts there; a winning House Money Wager against a 2-9 up
                card is paid and its player is offered to add the payout to the Blackjack
                Wager (offer `house_money_to_blackjack`, (g)(10)(ii))
    after peek  the reader said no Blackjack: two queens of hearts (g)(1)(i), two kings of
                spades (g)(6)(i) and a winning House Money Wager (g)(10)(i)(B), with its offer
    (h)         the dealer has Blackjack: those three with it ((g)(1)(ii), (g)(6)(ii),
                (g)(10)(i)(A)), then Bad Beat and Hit and Run
    hole card   Royal Match against a K or Q up card, once the hole card is exposed (g)(4)
    (o)         after all cards: Bad Beat, Hit and Run, Straight Jack ((o)(1)-(3))

Configuration (table options, not regulation; 633a.13 is not in our texts):
    side_paytables  {wager: {hand: "N to 1" | "N to D" | "N for 1" | "P% of meter"}}: a wager
                    listed here is paid on these rows only (a hand left out loses; the Crown
                    Treasure Bonus is paid only where a table adds its row); any other wager
                    on the rules core's DEFAULT_PAYTABLES
    meters          {wager: {meter, reset, rate}} for the three progressives: the meter's
                    value in cents before this round, its reset amount, and the fraction of
                    each accepted wager added to it at "no more bets" (cents carried exactly,
                    controller/progressive.py)
    bad_beat_any_twenty   the Rules Submission's option of (o)(1)(i)
    house_money_added_pct the portion of a House Money payout that may go on the Blackjack
                    Wager, in percent ((g)(10)(ii)(A): all, 100, unless the Rules Submission
                    specifies a portion)

Readings of the text:
  * The House Money "payout" added to the Blackjack Wager is the winnings (the House Money
    Wager itself goes back to the player); the added amount is then Blackjack Wager in every
    respect ((g)(10)(ii)(C)): a split or Double Down matches it, a win or loss counts it.
  * Bad Beat looks at each of the seat's hands that was not surrendered: it wins if any of
    them is a 20 under its win condition (after a split each hand is "the player's hand").
  * Straight Jack counts only the cards drawn to the unsplit hand (a Double Down card
    included); after a split the initial two-card straight is paid (the rules core's reading).
  * A shared 100% jackpot is the meter's value when the first of its winners is reached in
    settlement order; the meter is reset then. Payouts of a fixed "N for 1" are the table's;
    a meter share below 100% is taken from the meter as it stands when the seat is reached.
  * Every winning progressive payout is listed in the round's `progressive_payouts` with its
    floorperson verification ((o)(1)(ii)(B), (o)(2)(ii)(B), (o)(3)(ii)(B)) and where it is
    paid from: the game account for Bad Beat ((o)(1)(ii)(C)), not the table inventory when
    (o)(2)(ii)(C) or (o)(3)(ii)(C) says so (the player's cards then stay on the table).
"""

import copy
from fractions import Fraction

from controller import progressive
from controller.errors import ConfigError, SettlementError
from controller.games.blackjack.hands import parse
from controller.games.engine import IllegalEvent
from controller.rules import blackjack as bj
from controller.rules import blackjack_side_payouts as P
from controller.rules import blackjack_side_wagers as W
from controller.rules import cards as C
from controller.rules import paytables as pt
from controller.rules import settle as S

# The optional wagers a Blackjack table may offer, in 633a.7's order. Super Match ((g)(7))
# is offered only at a Blackjack Switch table, which this controller does not run.
SIDE_WAGERS = (W.LUCKY_LADIES, W.MATCH_THE_DEALER, W.IN_BETWEEN, W.ROYAL_MATCH_21,
               W.BET_THE_SET_21, W.KINGS_BOUNTY, W.THREE_CARD_POKER, W.STRAIGHT_JACK,
               W.HOUSE_MONEY, W.BAD_BEAT, W.HIT_AND_RUN)
PROGRESSIVES = (W.BAD_BEAT, W.HIT_AND_RUN, W.STRAIGHT_JACK)
HOUSE_MONEY_OFFER = "house_money_to_blackjack"
METER_KEYS = ("meter", "reset", "rate")


# ---- configuration checks (options.side_paytables, options.meters) -----------------------

def check_side_paytables(value):
    for wager, rows in value.items():
        if wager == W.SUPER_MATCH:
            return ("super_match is offered only at a Blackjack Switch table (633a.7(g)(7)), "
                    "which this controller does not run")
        try:
            P.paytable_from_config(wager, rows)
        except ConfigError as e:
            return str(e)
    return None


def check_meters(value):
    for wager, meter in value.items():
        if wager not in PROGRESSIVES:
            return "%r has no progressive meter; the progressives are %s (633a.7(o))" % (
                wager, ", ".join(PROGRESSIVES))
        if not isinstance(meter, dict) or sorted(meter) != sorted(METER_KEYS):
            return "meters.%s is a table of meter, reset and rate, not %r" % (wager, meter)
        for key in ("meter", "reset"):
            v = meter[key]
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                return "meters.%s.%s is whole cents >= 0, not %r" % (wager, key, v)
        if meter["meter"] < meter["reset"]:
            return "meters.%s: the meter %d is below its reset amount %d" % (
                wager, meter["meter"], meter["reset"])
        rate = meter["rate"]
        if not isinstance(rate, (int, float)) or isinstance(rate, bool) or not 0 < rate < 1:
            return "meters.%s.rate is a fraction between 0 and 1, not %r" % (wager, rate)
    return None


def new_meter(prog):
    """A meter in controller/progressive.py's shape from one `meters` entry."""
    rate = prog["rate"]
    exact = Fraction(repr(rate)) if isinstance(rate, float) else Fraction(rate)
    return {"value": prog["meter"], "carry": 0, "rate": [exact.numerator, exact.denominator],
            "reset": prog["reset"], "hits": 0, "paid": 0, "contributed": 0, "wagers": 0}


class SideWagerBook:
    """The Blackjack model's optional wagers, step by step: a part the model holds
    (`model.side_wagers`). A progressive whose meter is on a link (config `links` {wager:
    link id}, docs/linked-progressives.md) takes the link's inputs (the model is a
    progressive.LinkedGame): its wager is accepted on the link's acknowledgement, its meter
    is the link's, and a meter payout waits for the link's award (`settle_linked_hit`).

    Needs from the model (model.py): `option`, `config`, MAIN_WAGER, `state`, `round_no`,
    its round data `wagers`, `results`, `hands`, `dealer`, `pending`; `seats`,
    `settlement_order`, `result`, `note`, `offer`, `settle_linked_hit`; and the steps after
    a pass, `side_pass_done` (after (g)) and `start_play` (after the peek's pass). Its own
    data is the model's (snapshotted there): `meters`, `meters_before` (a void round's
    restore), and per round `initial`, `pass_queue`, `peek_pass`, `jackpots`,
    `house_money_asked`.
    Offers: offered, init_meters, new_round, contribute (at "no more bets"),
    restore_meters (a void round), start_pass ((g)), start_peek_pass, after_offer (House
    Money answered), add_house_money, settle_royal_match ((g)(4)),
    settle_with_dealer_blackjack ((h)), settle_progressives ((o)), unsettled, split_award."""

    def __init__(self, model):
        self.model = model

    def offered(self, wager):
        return bool(self.model.config["offered"].get(wager))

    def paytable(self, wager):
        return P.paytable_for(wager, self.model.option("side_paytables").get(wager))

    def init_meters(self):
        m = self.model
        meters = m.option("meters")
        m.meters = {w: new_meter(meters[w]) for w in PROGRESSIVES
                    if self.offered(w) and w in meters}
        m.meters_before = None
        links = m.config.get("links") or {}
        if m.config.get("link"):
            raise ConfigError("link %r: a Blackjack table's progressives are linked one by one "
                              "(links = {%s = \"LINK\", ...}, 633a.7(o))"
                              % (m.config["link"], PROGRESSIVES[1]))
        for wager, link_id in sorted(links.items()):
            if wager not in m.meters:
                raise ConfigError("links.%s: not a progressive this table offers with a meter; "
                                  "the progressives are %s (633a.7(o))"
                                  % (wager, ", ".join(PROGRESSIVES)))
            if list(links.values()).count(link_id) > 1:
                raise ConfigError("links: link %s is named for more than one progressive (a "
                                  "link's meter pays one wager)" % link_id)
            progressive.link_meter(m.meters[wager], link_id)

    def new_round(self):
        m = self.model
        m.initial = {}             # seat -> its initial two cards
        m.pass_queue = []          # seats still to settle in the (g) or after-peek pass
        m.peek_pass = None         # None until the after-peek pass starts
        m.jackpots = []            # winning progressive payouts of this round
        m.house_money_asked = []   # seats offered to add House Money to the Blackjack Wager
        for meter in progressive.linked_meters(m).values() if hasattr(m, "meters") else ():
            progressive.link_new_round(meter)

    # ---- "no more bets": progressive contributions ------------------------------------

    def contribute(self):
        """Each accepted progressive wager adds its rate to its meter (scenario-format.md)."""
        m = self.model
        linked = progressive.linked_meters(m)
        for wager, meter in sorted(linked.items()):
            # the lock-out: a wager the link has not acknowledged is not accepted (withdrawn)
            late = progressive.link_close(meter, m.round_no)
            if late:
                m.note("link_not_acknowledged", wager=wager, seats=late,
                       link=meter["link"]["id"], section="633a.7(o)")
        m.meters_before = copy.deepcopy(m.meters)
        for seat in m.seats():
            for wager in PROGRESSIVES:
                amount = m.wagers[seat].get(wager)
                if amount and wager not in linked:        # a linked meter is the link's
                    if wager not in m.meters:
                        raise ConfigError("options.meters.%s: the table offers this "
                                          "progressive but has no meter for it" % wager)
                    progressive.contribute(m.meters[wager], amount)

    def restore_meters(self):
        """A void round: the table's own meters as before it; a linked meter's contributions
        of the round withdrawn from its link (its state is the link's, never rolled back)."""
        m = self.model
        if m.meters_before is not None:
            for wager, before in m.meters_before.items():
                if not progressive.linked(m.meters.get(wager)):
                    m.meters[wager] = before
            m.meters_before = None
        for meter in progressive.linked_meters(m).values():
            progressive.link_void(meter, m.round_no)

    # ---- one wager's outcome --------------------------------------------------------------

    def outcome(self, seat, wager, dealer_blackjack=None, hole=None):
        m = self.model
        two = parse(m.initial[seat])
        up = C.parse(m.dealer[0])
        if wager == W.LUCKY_LADIES:
            return W.lucky_ladies(two, up, dealer_blackjack)
        if wager == W.MATCH_THE_DEALER:
            return W.match_the_dealer(two, up)
        if wager == W.IN_BETWEEN:
            return W.in_between(two, up)
        if wager == W.ROYAL_MATCH_21:
            return W.royal_match_21(two, up, hole)
        if wager == W.BET_THE_SET_21:
            return W.bet_the_set_21(two)
        if wager == W.KINGS_BOUNTY:
            return W.kings_bounty(two, up, dealer_blackjack)
        if wager == W.THREE_CARD_POKER:
            return W.three_card_poker(two, up)
        if wager == W.HOUSE_MONEY:
            return W.house_money(two)
        if wager == W.STRAIGHT_JACK:
            first = m.hands[seat][0]
            drawn = [] if first["split"] else first["cards"][2:]
            return W.straight_jack_progressive(two, parse(drawn))
        if wager == W.HIT_AND_RUN:
            return W.hit_and_run_progressive(parse(m.dealer))
        if wager == W.BAD_BEAT:
            best = None
            rows = W.HANDS[W.BAD_BEAT]
            for hand in m.hands[seat]:
                if hand["surrendered"] or hand["dead"]:
                    continue
                got = W.bad_beat_progressive(parse(hand["cards"]), parse(m.dealer),
                                             m.option("bad_beat_any_twenty"))
                if got is not None and (best is None or rows.index(got) < rows.index(best)):
                    best = got
            return best
        raise SettlementError("%r is not an optional wager of this table" % wager)

    def settle_side(self, seat, wager, section, dealer_blackjack=None, hole=None):
        """A non-progressive optional wager (or a losing Straight Jack, (g)(9)), now."""
        m = self.model
        amount = m.wagers[seat][wager]
        hand = self.outcome(seat, wager, dealer_blackjack, hole)
        result, net = W.settle_outcome(self.paytable(wager), hand, amount)
        m.result(seat, wager, result, net)
        m.note("optional_wager", seat=seat, wager=wager, hand=hand, result=result, net=net,
               section=section)
        return result

    def unsettled(self, seat, wager):
        m = self.model
        return wager in m.wagers.get(seat, {}) and wager not in m.results.get(seat, {})

    def when(self, seat, wager, dealer_blackjack=None):
        m = self.model
        return P.settlement_time(wager, parse(m.initial[seat]), C.parse(m.dealer[0]),
                                 dealer_blackjack)

    # ---- (g): after the second cards, before the card reader ---------------------------

    def start_pass(self):
        m = self.model
        m.pass_queue = P.settlement_order(m.seats())
        self.continue_pass()

    def continue_pass(self):
        """Seat by seat from the dealer's right; a House Money offer holds the pass."""
        m = self.model
        while m.pass_queue:
            seat = m.pass_queue.pop(0)
            for wager in SIDE_WAGERS:
                if not self.unsettled(seat, wager):
                    continue
                step, section = self.when(seat, wager)
                if step == P.AT_SECOND_CARDS:
                    self.settle_side(seat, wager, section)
                else:
                    m.note("deferred", seat=seat, wager=wager, until=step, section=section)
            if self.offer_house_money(seat):
                return
        m.side_pass_done()

    # ---- after the peek: the deferred (g) wagers when the dealer has no Blackjack --------

    def start_peek_pass(self):
        m = self.model
        m.peek_pass = P.settlement_order(m.seats())
        self.continue_peek_pass()

    def continue_peek_pass(self):
        m = self.model
        while m.peek_pass:
            seat = m.peek_pass.pop(0)
            for wager in (W.LUCKY_LADIES, W.KINGS_BOUNTY, W.HOUSE_MONEY):
                if self.unsettled(seat, wager):
                    step, section = self.when(seat, wager, False)
                    if step == P.AFTER_PEEK:
                        self.settle_side(seat, wager, section, dealer_blackjack=False)
            if self.offer_house_money(seat):
                return
        m.start_play()

    def offers_house_money_now(self, seat):
        """Won just now, against a 2-9 up card or after the reader's "no" ((g)(10)(ii))."""
        m = self.model
        res = m.results.get(seat, {}).get(W.HOUSE_MONEY)
        if res is None or res[0] != S.WIN or seat in m.house_money_asked:
            return False
        hand = m.hands[seat][0]
        return not hand["settled"] and self.house_money_addition(seat) > 0

    def house_money_addition(self, seat):
        """Cents the dealer may place on the Blackjack Wager: the winnings, or the portion the
        Rules Submission specifies ((g)(10)(ii)(A))."""
        m = self.model
        amount = m.wagers[seat][W.HOUSE_MONEY]
        pay = self.paytable(W.HOUSE_MONEY).pay(W.house_money(parse(m.initial[seat])))
        return P.payout_amount(pay, amount) * m.option("house_money_added_pct") // 100

    def offer_house_money(self, seat):
        m = self.model
        if not self.offers_house_money_now(seat):
            return False
        m.house_money_asked.append(seat)
        m.offer(HOUSE_MONEY_OFFER, [seat])
        m.pending["amount"] = self.house_money_addition(seat)
        return True

    def add_house_money(self, seat, event):
        """(g)(10)(ii)(B), (C): the dealer places the payout on the Blackjack Wager, which it
        then is in full."""
        add = self.house_money_addition(seat)
        asked = event.get("amount")
        if asked is not None and asked != add:
            raise IllegalEvent("house_money_to_blackjack %r: the dealer places %d, the portion "
                               "of the House Money payout the certificate holder authorizes "
                               "(633a.7(g)(10)(ii)(A), (B))" % (asked, add))
        m = self.model
        m.wagers[seat][m.MAIN_WAGER] += add
        m.note("house_money_added", seat=seat, amount=add,
               blackjack=m.wagers[seat][m.MAIN_WAGER], section="633a.7(g)(10)(ii)")

    def after_offer(self):
        if self.model.state == "side_wagers":
            self.continue_pass()
        else:
            self.continue_peek_pass()

    # ---- with the dealer's Blackjack (h), after the hole card (g)(4), after all cards (o) ----

    def settle_royal_match(self):
        """(g)(4): a Royal Match against a K or Q up card, before the Blackjack Wagers."""
        m = self.model
        hole = C.parse(m.dealer[1])
        for seat in m.settlement_order():
            if self.unsettled(seat, W.ROYAL_MATCH_21):
                step, section = self.when(seat, W.ROYAL_MATCH_21)
                if step == P.AFTER_HOLE_CARD:
                    self.settle_side(seat, W.ROYAL_MATCH_21, section, hole=hole)

    def settle_with_dealer_blackjack(self, seat):
        """(g)(1)(ii), (g)(6)(ii), (g)(10)(i)(A): paid when the Blackjack Wager is collected."""
        for wager in (W.LUCKY_LADIES, W.KINGS_BOUNTY, W.HOUSE_MONEY):
            if self.unsettled(seat, wager):
                _, section = self.when(seat, wager, True)
                self.settle_side(seat, wager, section, dealer_blackjack=True)

    def settle_progressives(self, sections):
        """The progressives of `sections` ({wager: section}), seat by seat from the dealer's
        right; a 100% jackpot won at more than one seat is shared ((o)(1)(ii)(C), (o)(2)(ii)(C),
        (o)(3)(ii)(C))."""
        m = self.model
        plans = {}
        for wager in sections:
            seats = [s for s in m.settlement_order() if self.unsettled(s, wager)]
            table = self.paytable(wager)
            hands = {s: self.outcome(s, wager) for s in seats}
            pays = {s: (table.pay(hands[s]) if hands[s] else None) for s in seats}
            jackpot = [s for s in seats if pays[s] is not None and pays[s].kind == pt.METER
                       and pays[s].num >= 100]
            plans[wager] = {"hands": hands, "pays": pays, "jackpot": jackpot, "shares": None}
        for seat in m.settlement_order():
            for wager, section in sections.items():
                if seat in plans[wager]["hands"]:
                    self.pay_progressive(seat, wager, section, plans[wager])

    def pay_progressive(self, seat, wager, section, plan):
        m = self.model
        amount, pay, hand = m.wagers[seat][wager], plan["pays"][seat], plan["hands"][seat]
        meter = m.meters.get(wager)
        if pay is None:
            m.result(seat, wager, S.LOSE, -amount)
            m.note("optional_wager", seat=seat, wager=wager, hand=hand, result=S.LOSE,
                   net=-amount, section=section)
            return
        if pay.kind == pt.METER and meter is None:
            raise ConfigError("options.meters.%s: a %s payout needs the progressive meter"
                              % (wager, pay.text()))
        value = None if meter is None else meter["value"]
        if pay.kind == pt.METER and progressive.linked(meter):
            self.pay_linked_progressive(seat, wager, section, plan, pay, amount, value)
            return
        if pay.kind == pt.METER and len(plan["jackpot"]) > 1:
            if plan["shares"] is None:          # the jackpot is taken whole, then reset
                plan["value"] = value
                plan["shares"] = P.share_jackpot(
                    wager, value, {s: m.wagers[s][wager] for s in plan["jackpot"]})
                meter["hits"] += 1
                meter["paid"] += value
                meter["value"] = meter["reset"]
            value = plan["value"]
            paid = plan["shares"][seat]
            net = paid - amount
            floor = P.needs_floorperson(wager, pay, amount, paid)
        else:
            paid = P.payout_amount(pay, amount, value)
            floor = P.needs_floorperson(wager, pay, amount, value)
            if pay.kind == pt.METER:
                net, _ = progressive.pay(meter, pay, amount)
            else:
                net = S.net_for(pay, amount)
        source = P.payment_source(wager, pay, amount, value)
        m.result(seat, wager, S.WIN, net)
        entry = {"seat": seat, "wager": wager, "hand": hand, "paid": paid,
                 "floorperson": floor, "paid_from": source}
        if plan["shares"] is not None and seat in plan["shares"]:
            entry["shared_with"] = [s for s in plan["jackpot"] if s != seat]
        m.jackpots.append(entry)
        m.note("progressive_payout", section=section, net=net, **entry)

    # ---- a progressive on a link (docs/linked-progressives.md) ----------------------------

    def pay_linked_progressive(self, seat, wager, section, plan, pay, amount, value):
        """A meter payout on a linked meter: sent to the link as a hit with the hand; the seat
        is held ("pending") until the link's award, paid then (LinkedGame.on_link_award). A
        100% jackpot won at several seats is ONE hit (the meter is taken once, at the hit's
        place in the link's order), sent at the first of them in settlement order; its award
        is shared by split_award: Bad Beat in proportion to the wagers ((o)(1)(ii)(C)), Hit
        and Run and Straight Jack equally ((o)(2)(ii)(C), (o)(3)(ii)(C))."""
        m = self.model
        jackpot = plan["jackpot"] if pay.num >= 100 and len(plan["jackpot"]) > 1 else None
        if jackpot is None or seat == jackpot[0]:
            seats = {s: m.wagers[s][wager] for s in jackpot} if jackpot else None
            result = m.settle_linked_hit(seat, self.hit_hand(seat, wager), pay, amount,
                                         name=wager, seats=seats,
                                         dealer=list(m.dealer) if wager == W.BAD_BEAT
                                         else None)
        else:
            result = ["pending", -amount]               # its share comes with the first's
        m.result(seat, wager, *result)
        entry = {"seat": seat, "wager": wager, "hand": plan["hands"][seat], "paid": None,
                 "floorperson": P.needs_floorperson(wager, pay, amount, value),
                 "paid_from": P.payment_source(wager, pay, amount, value),
                 "link": m.meters[wager]["link"]["id"]}
        if jackpot:
            entry["shared_with"] = [s for s in jackpot if s != seat]
        m.jackpots.append(entry)
        m.note("progressive_payout", section=section, net=None, pending=True, **entry)

    def hit_hand(self, seat, wager):
        """The cards a hit is sent with, the ones its win condition reads: the dealer's hand
        for Hit and Run ((o)(2)(i)), the seat's first hand for Straight Jack ((o)(3)(i)),
        the seat's 20 for Bad Beat ((o)(1)(i): the dealer's 21 is its condition)."""
        m = self.model
        if wager == W.HIT_AND_RUN:
            return list(m.dealer)
        hands = [h for h in m.hands.get(seat, []) if not h["surrendered"] and not h["dead"]]
        if wager == W.BAD_BEAT:
            twenty = [h for h in hands if bj.total(parse(h["cards"])) == 20]
            hands = twenty or hands
        return list(hands[0]["cards"]) if hands else []

    def split_award(self, name, hit, amount):
        if not hit.get("seats") or len(hit["seats"]) < 2:
            return {hit["seat"]: amount}
        return P.share_jackpot(name, amount, hit["seats"])
