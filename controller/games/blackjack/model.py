"""Blackjack (58 Pa. Code 633a.7): the round of dealing and settlement, on the blackjack base.

The Blackjack Wager (required) and the optional wagers of 633a.7(g), (o) -> "no more bets" (the
progressive wagers add to their meters) -> with a double shoe, the determinant card (d) -> one
card to each box from seat 1 (the dealer's left), the dealer's up card, a second card to each
box, the hole card (f) -> the optional wagers of (g), from the dealer's right -> Insurance or
even money on an ace up -> the card reader on A K Q J 10 up (h) -> the wagers the reader's "no"
releases (g)(1)(i), (g)(6)(i), (g)(10)(i)(B) -> seat by seat from the dealer's left: a Blackjack
paid (i)(1), else decisions (i)(2)-(k) -> the hole card up (l); Royal Match against K or Q up
(g)(4); Blackjacks left on the table paid (i)(1)(ii)(B) -> the dealer draws to 17 (m) unless his
total cannot change the outcome (n) -> the progressives (o) -> the Blackjack Wagers (p), (q) in
the order of (r). A dealer Blackjack ends the round at the reader (h).

States: dealing -> side_wagers -> [insurance] -> [peek] -> decisions -> dealer -> settled.
`pending` (controller/lab/scenario.py's protocol):
    {"need": "card", "for": ...}        the next card; "the determinant card" with a double shoe
    {"need": "offer", "seat", "offer"}  "insurance" (amount), "even_money" (a seat holding a
                                        Blackjack, ace up), "house_money_to_blackjack" (with
                                        "amount", the cents the dealer would place)
    {"need": "reader", "for": ...}      the card reader's look at the hole card
    {"need": "decision", "seat", "hand", "allowed"}   hit, stand, double, split, surrender

Scenario files (`tablectl play`): wagers `blackjack` and the optional wagers by their snake_case
names; actions `insurance` (amount), `even_money`, `house_money_to_blackjack` (this
controller's name for the player's choice of (g)(10)(ii): the dealer places the House Money
payout, or the portion the Rules Submission allows, on the Blackjack Wager), `hit`, `stand`,
`double` (amount), `split`, `surrender`. An offer not taken is declined. With
`config.options.double_shoe` the `cards` list starts with the determinant card
(shoe.py says how it is read).
Output: wagers `blackjack`, `double_down`, `insurance`, the optional wagers; a split hand's
wagers `blackjack#2`, `double_down#2`...; `dealer` {cards}; when progressives were wagered
`meters` {wager: cents after the round}; when one won, `progressive_payouts` [{seat, wager,
hand, paid, floorperson, paid_from[, shared_with]}]; with a double shoe, `determinant`.

Configuration (options; what 633a.7 leaves to 633a.3, 633a.8-633a.11, 633a.13 and the Rules
Submission, none of which is in our texts, so these are choices, not regulation):
    decks 6 per batch; double_shoe false ((d)); determinant_side "hearts_diamonds";
    blackjack_pays "3 to 2" (633a.13(a)); blackjack_payment "immediately" ((i)(1)(ii)(A)) or
    "after_hole_card" ((i)(1)(ii)(B)); settlement_procedure "collect_then_pay" ((r)(1)) or
    "right_to_left" ((r)(2)), which changes only the order recorded; insurance true,
    insurance_pays "2 to 1", at most half the Blackjack Wager, offered on an ace up (633a.8 as
    commonly ruled); even_money true (a Blackjack paid 1 to 1 at once on an ace up);
    late_surrender true (the first two cards of an unsplit hand, after the peek: half the
    Blackjack Wager collected); double_on "any_two_cards" | "nine_ten_eleven" | "ten_eleven";
    double_after_split true; double_for_less false (a Double Down Wager matches the entire
    Blackjack Wager, as (g)(10)(ii)(C) words it); split_hands 4 (pairs of one value; split
    aces one card each and not split again); and the optional wagers' side_paytables, meters,
    bad_beat_any_twenty, house_money_added_pct (side_wagers.py).

Readings of the text:
  * Insurance and even money are offered on an ace up only, as 633a.8 is commonly ruled: (h)
    names the offer among the steps for any of A K Q J 10 up but sends its terms to 633a.8.
  * A player whose hand exceeds 21 loses, whatever the dealer's hand ((p), (q) name no case).
  * (n): the dealer's total cannot affect the outcome when every Blackjack Wager is settled
    or busted and no Hit and Run Progressive Wager (which counts the dealer's cards) is left.
  * A dealer Blackjack the card reader missed (found when the hole card is turned up) collects
    only each hand's original Blackjack Wager: Double Down Wagers and split hands made on the
    reader's word are returned, as 581.10(b) and 581.11(d) rule; the table locks for the
    reader after settling. A reader "yes" the hole card does not bear out locks at once.
  * The shoe's readings ((c) burn cards, the double shoe) are in shoe.py.
"""

from controller import progressive
from controller.errors import ConfigError
from controller.games.blackjack.family import DEALER, BlackjackFamily, parse, wager_name
from controller.games.blackjack.shoe import SIDES, BlackjackShoe
from controller.games.blackjack.side_wagers import (HOUSE_MONEY_OFFER, PROGRESSIVES, SIDE_WAGERS,
                                                  SideWagerBook, check_meters,
                                                  check_side_paytables)
from controller.games.engine import IllegalEvent
from controller.rules import blackjack as bj
from controller.rules import blackjack_side_payouts as P
from controller.rules import blackjack_side_wagers as W
from controller.rules import paytables as pt
from controller.rules import settle as S
from controller.games.declarations import blackjack as declared

GAME = "blackjack"
INSURANCE_OFFERS = ("insurance", "even_money")


def _one_of(section, *choices):
    return lambda v: None if v in choices else "one of %s (%s)" % (", ".join(choices), section)


def _between(lo, hi, section):
    return lambda v: None if lo <= v <= hi else "from %d to %d (%s)" % (lo, hi, section)


def _odds(section):
    def check(v):
        try:
            pay = P.parse_payout(v)
        except ConfigError:
            pay = None
        if pay is None or pay.kind != pt.TO:
            return "a payout written \"N to D\", such as \"3 to 2\" (%s)" % section
        return None
    return check


class Blackjack(progressive.LinkedGame, BlackjackFamily):
    """633a.7 on the family's round; it holds 633a.7's shoe (shoe.py), its optional wagers'
    book (side_wagers.py) and the players' decisions (decisions.py), and takes the link's
    inputs for its linked progressives (progressive.LinkedGame)."""
    GAME = GAME
    PARTS = dict(BlackjackFamily.PARTS, shoe=BlackjackShoe, side_wagers=SideWagerBook)
    DECLARES = declared.DECLARES     # what the table must know about it
    ROUND_STATES = ["dealing", "side_wagers", "insurance", "peek", "decisions", "dealer"]
    FIRST_ROUND_STATE = "dealing"
    WAITS = dict(BlackjackFamily.WAITS, side_wagers=("offer",))   # House Money's addition
    PRE_DEAL_WAGERS = ("blackjack",) + SIDE_WAGERS
    TABLE_LIMIT_WAGERS = ("blackjack",)
    REQUIRED_WAGERS = ("blackjack",)
    OPTIONAL_WAGERS = SIDE_WAGERS
    MAIN_WAGER = "blackjack"
    HAND_WAGERS = ("blackjack",)
    DOUBLE_WAGER = "double_down"
    PEEK_RANKS = "AKQJT"
    SECTIONS = {"draw_21": "633a.7(k)(1)", "double_one_card": "633a.7(k)(2)",
                "double_amount": "633a.10 as configured", "split_pair": "633a.11 as configured",
                "split_hands": "633a.11 as configured", "split_aces": "633a.11 as configured",
                "surrender": "633a.9 as configured", "refused_card": "633a.7(j)",
                "deck": "633a.3 as configured: options.decks", "reader": "633a.7(h)"}
    OPTIONS = {
        "decks": (int, _between(1, 8, "decks per batch, 633a.3")),
        "double_shoe": (bool, None),                                       # 633a.7(d)
        "determinant_side": (str, _one_of("633a.7(d)(1)", *SIDES)),
        "blackjack_pays": (str, _odds("633a.13(a)")),
        "blackjack_payment": (str, _one_of("633a.7(i)(1)(ii)(A), (B)", "immediately",
                                           "after_hole_card")),
        "settlement_procedure": (str, _one_of("633a.7(r)(1), (2)", "collect_then_pay",
                                              "right_to_left")),
        "insurance": (bool, None),                                         # 633a.8
        "insurance_pays": (str, _odds("633a.8")),
        "even_money": (bool, None),                                        # 633a.8
        "late_surrender": (bool, None),                                    # 633a.9
        "double_on": (str, _one_of("633a.10", "any_two_cards", "nine_ten_eleven",
                                   "ten_eleven")),
        "double_after_split": (bool, None),                                # 633a.10
        "double_for_less": (bool, None),                                   # 633a.10
        "split_hands": (int, _between(2, 4, "hands after splitting, 633a.11")),
        "house_money_added_pct": (int, _between(1, 100, "633a.7(g)(10)(ii)(A)")),
        "bad_beat_any_twenty": (bool, None),                               # 633a.7(o)(1)(i)
        "side_paytables": (dict, check_side_paytables),                    # 633a.13
        "meters": (dict, check_meters),                                    # 633a.7(o)
    }
    DEFAULTS = {"table_min": 100, "table_max": 1000000,
                "offered": {w: True for w in SIDE_WAGERS}, "limits": {}, "paytables": {},
                "options": {"decks": 6, "double_shoe": False,
                            "determinant_side": "hearts_diamonds", "blackjack_pays": "3 to 2",
                            "blackjack_payment": "immediately",
                            "settlement_procedure": "collect_then_pay", "insurance": True,
                            "insurance_pays": "2 to 1", "even_money": True,
                            "late_surrender": True, "double_on": "any_two_cards",
                            "double_after_split": True, "double_for_less": False,
                            "split_hands": 4, "house_money_added_pct": 100,
                            "bad_beat_any_twenty": False, "side_paytables": {},
                            "meters": {w: {"meter": 100000, "reset": 100000, "rate": 0.1}
                                       for w in PROGRESSIVES}}}

    def __init__(self, config):
        super().__init__(config)
        self.side_wagers.init_meters()
        self.shoe_side = None        # with a double shoe: the side this round is dealt from

    def reset_round(self):
        super().reset_round()
        self.side_wagers.new_round()
        self.waiting_blackjacks = []     # Blackjacks left on the table, (i)(1)(ii)(B)
        self.determinant = None
        self.drawn_from = None

    def option(self, key):
        return self.config["options"].get(key, self.DEFAULTS["options"][key])

    def odds(self, key):
        return P.parse_payout(self.option(key))

    @classmethod
    def round_transitions(cls):
        return [
            {"trigger": "settle_optional_wagers", "source": "dealing", "dest": "side_wagers"},
            {"trigger": "offer_insurance", "source": "side_wagers", "dest": "insurance"},
            {"trigger": "read_hole_card", "source": ["side_wagers", "insurance"],
             "dest": "peek"},
            {"trigger": "play_hands", "source": ["side_wagers", "insurance", "peek"],
             "dest": "decisions"},
            {"trigger": "reveal_hole_card", "source": "decisions", "dest": "dealer"},
        ]

    BURN_SECTION = "633a.7(c)"

    def deal_plan(self):
        """(f)(1)-(4): each box from the dealer's left, the up card, each box, the hole card
        (the shoe adds a double shoe's determinant card before them, (d))."""
        seats = self.seats()
        return seats + [DEALER] + seats + [DEALER]

    def on_irregularity(self, event):
        """The shoe's: the cover card (e) and a new dealer's burn card (c)."""
        self.not_locked()
        self.shoe.irregularity(event)

    # ---- wagers before "no more bets" ----------------------------------------------------

    def on_wager(self, event):
        if event.get("wager") == W.SUPER_MATCH:
            raise IllegalEvent("super_match at seat %s: the Super Match Wager is made only at a "
                               "Blackjack Switch table (633a.7(g)(7)), which this table is not"
                               % event.get("seat"))
        super().on_wager(event)

    def check_wager(self, seat, wager, amount, placed):
        if wager in SIDE_WAGERS and not self.side_wagers.offered(wager):
            raise IllegalEvent("%s at seat %s: this table does not offer the %s wager (%s; "
                               "offered.%s is false)" % (wager, seat, wager,
                                                         W.WIN_SECTION[wager], wager))

    def check_limits(self, seat, wager, amount):
        try:
            super().check_limits(seat, wager, amount)
        except IllegalEvent as e:
            raise IllegalEvent("%s (the Rules Submission's limits, 601a.2)" % e)

    def check_layout(self):
        """The optional wagers ride on a box's initial cards: no Blackjack Wager, no box."""
        for seat, placed in sorted(self.wagers.items()):
            if "blackjack" not in placed:
                raise IllegalEvent("seat %s has no Blackjack Wager: cards are dealt only to a "
                                   "box holding one (633a.7(f)(1)), and its optional wagers "
                                   "go with that hand" % seat)

    def start_round(self):
        """The progressive wagers are accepted at "no more bets": they add to their meters."""
        self.side_wagers.contribute()
        self.start_deal()

    def after_deal(self):
        self.initial = {s: list(self.hands[s][0]["cards"]) for s in self.seats()}
        self.settle_optional_wagers()
        self.side_wagers.start_pass()

    # ---- Insurance, even money, the reader (633a.7(h); 633a.8 as configured) --------------

    def side_pass_done(self):
        seats = [s for s in self.live_seats() if self.insurance_offer_for(s)]
        if self.up_rank() == "A" and seats:
            self.offer_insurance()
            self.offer("insurance", seats)
        else:
            self.peek_or_play()

    def insurance_offer_for(self, seat):
        """A Blackjack is offered even money, any other hand Insurance, as the table offers."""
        if self.up_rank() != "A" or self.hands[seat][0]["settled"]:
            return None
        if self.hands[seat][0]["blackjack"]:
            return "even_money" if self.option("even_money") else None
        return "insurance" if self.option("insurance") else None

    def offer_next(self, offer):
        """Insurance and even money are one round of offers, each seat asked its own."""
        if offer not in INSURANCE_OFFERS:
            super().offer_next(offer)
            return
        while self.offer_queue:
            name = self.insurance_offer_for(self.offer_queue[0])
            if name:
                self.pending = {"need": "offer", "seat": self.offer_queue[0], "offer": name}
                return
            self.offer_queue.pop(0)
        self.pending = None
        self.offers_done("insurance")

    def offers_done(self, offer):
        if offer == HOUSE_MONEY_OFFER:
            self.side_wagers.after_offer()
        else:
            self.peek_or_play()

    def take_offer(self, seat, offer, event):
        if offer == "insurance":
            super().take_offer(seat, offer, event)
        elif offer == "even_money":
            amount = self.wagers[seat]["blackjack"]
            self.result(seat, "blackjack", S.WIN, S.even_money(amount))
            hand = self.hands[seat][0]
            hand["done"] = hand["settled"] = True
            self.note("even_money", seat=seat, net=amount, section="633a.7(h)")
        elif offer == HOUSE_MONEY_OFFER:
            self.side_wagers.add_house_money(seat, event)
        else:
            raise IllegalEvent("%s has no %s offer" % (GAME, offer))

    def check_insurance(self, seat, amount):
        """At most half the Blackjack Wager (633a.8 as commonly ruled; configuration)."""
        bet = self.wagers[seat]["blackjack"]
        if 2 * amount > bet:
            raise IllegalEvent("insurance %d exceeds half the Blackjack Wager %d (633a.8 as "
                               "configured)" % (amount, bet))

    def insurance_result(self, amount, won):
        if won:
            return [S.WIN, S.net_for(self.odds("insurance_pays"), amount)]
        return [S.LOSE, -amount]

    def start_play(self):
        """After the reader's "no", the wagers it releases come first ((g)(1)(i), (g)(6)(i),
        (g)(10)(i)(B)): "before any other cards are dealt"."""
        if self.up_rank() in self.PEEK_RANKS and self.peek_pass is None:
            self.side_wagers.start_peek_pass()
            return
        super().start_play()

    def not_now_reason(self, action, seat):
        if action in INSURANCE_OFFERS:
            if self.up_rank() != "A":
                return ("%s is not offered: the dealer's up card is %s, not an ace (633a.7(h); "
                        "633a.8 as configured)" % (action, self.dealer[0] if self.dealer
                                                    else "not dealt"))
            if action == "even_money":
                return ("seat %s may not take even money now: it is offered to a Blackjack, "
                        "before the hole card is read (633a.7(h))" % seat)
            return ("seat %s may not insure now: Insurance is offered before the hole card "
                    "goes into the card reader (633a.7(h))" % seat)
        if action == HOUSE_MONEY_OFFER:
            return ("seat %s may not add House Money to its Blackjack Wager now: only a "
                    "winning House Money payout, when it is paid (633a.7(g)(10)(ii))" % seat)
        return None

    # ---- decisions (633a.7(i)-(k); 633a.9-633a.11 as configured) ---------------------------

    def pay_blackjack(self, seat, index):
        """(i)(1): at once against a 2-9 up card; against A K Q J 10 (the reader said no) at
        once (A) or, as the table chooses, once the hole card is up (B)."""
        if self.up_rank() not in self.PEEK_RANKS:
            self.pay_player_blackjack(seat, "633a.7(i)(1)(i)")
        elif self.option("blackjack_payment") == "after_hole_card":
            self.waiting_blackjacks.append(seat)
            self.note("blackjack_announced", seat=seat, section="633a.7(i)(1)(ii)(B)")
        else:
            self.pay_player_blackjack(seat, "633a.7(i)(1)(ii)(A)")

    def pay_player_blackjack(self, seat, section):
        amount = self.wagers[seat]["blackjack"]
        net = S.net_for(self.odds("blackjack_pays"), amount)
        self.result(seat, "blackjack", S.WIN, net)
        self.note("blackjack_paid", seat=seat, net=net, section=section)

    def split_refusal(self, seat, index):
        if len(self.hands[seat]) >= self.option("split_hands"):
            return "the seat has %d hands, the most this table splits to (%s)" % (
                len(self.hands[seat]), self.SECTIONS["split_hands"])
        return None

    def double_limit(self, seat, index):
        return self.wagers[seat][wager_name("blackjack", index)]

    def double_refusal(self, seat, index):
        hand = self.hands[seat][index]
        if len(hand["cards"]) != 2:
            return "a Double Down Wager is made on a hand's first two cards (633a.10 as configured)"
        if hand["split"] and not self.option("double_after_split"):
            return "this table allows no Double Down after a split (633a.10 as configured)"
        total = bj.total(parse(hand["cards"]))
        allowed = {"nine_ten_eleven": (9, 10, 11), "ten_eleven": (10, 11)}.get(
            self.option("double_on"))
        if allowed and total not in allowed:
            return "this table doubles on %s only, not %d (633a.10 as configured)" % (
                " or ".join(map(str, allowed)), total)
        return None

    def check_double(self, seat, index, amount):
        """The whole Blackjack Wager, unless the table lets a player double for less."""
        limit = self.double_limit(seat, index)
        if amount != limit and not self.option("double_for_less"):
            raise IllegalEvent("double %d: a Double Down Wager matches the entire Blackjack "
                               "Wager %d (633a.7(g)(10)(ii)(C); 633a.10 as configured)"
                               % (amount, limit))

    def surrender_refusal(self, seat, index):
        if not self.option("late_surrender"):
            return "this table offers no surrender (633a.9 as configured)"
        hand = self.hands[seat][index]
        if hand["split"] or len(hand["cards"]) != 2:
            return "a hand surrenders on its first two cards only (633a.9 as configured)"
        return None

    def settle_surrender(self, seat, index, dealer_blackjack):
        """Late surrender: half the Blackjack Wager collected, the odd cent to the player."""
        net = S.half_returned(self.wagers[seat]["blackjack"])
        self.result(seat, "blackjack", S.SURRENDER, net)
        self.note("surrender", seat=seat, net=net, section=self.SECTIONS["surrender"])

    # ---- the dealer's hand (633a.7(l)-(n)) --------------------------------------------------

    def reveal(self):
        """(l): the hole card up; then Royal Match against K or Q (g)(4) and the Blackjacks left
        on the table (i)(1)(ii)(B), before the dealer draws."""
        self.reveal_hole_card()
        self.note("hole_card", card=self.dealer[1], section="633a.7(l)")
        if bj.is_blackjack(parse(self.dealer[:2])):
            self.misread = "it read no Blackjack under %s %s" % tuple(self.dealer[:2])
            self.dealer_blackjack()
            return
        self.side_wagers.settle_royal_match()
        for seat in self.waiting_blackjacks:
            self.pay_player_blackjack(seat, "633a.7(i)(1)(ii)(B)")
        self.waiting_blackjacks = []
        self.dealer_next()

    def dealer_next(self):
        if bj.dealer_must_draw(parse(self.dealer)):
            if self.dealer_matters():
                self.ask_card("the dealer's draw")
                return
            self.note("dealer_stands", total=bj.total(parse(self.dealer)), section="633a.7(n)")
        self.finish_round()

    def dealer_matters(self):
        """(n): a hand still to be compared, or a Hit and Run Wager counting his cards."""
        for seat, i, hand in self.hands_in_order():
            if wager_name("blackjack", i) not in self.results.get(seat, {}) \
                    and bj.total(parse(hand["cards"])) <= 21:
                return True
        return any(self.side_wagers.unsettled(s, W.HIT_AND_RUN) for s in self.seats())

    # ---- settlement (633a.7(h), (o)-(r)) ------------------------------------------------------

    def finish_round(self):
        """(o) the progressives, then (p), (q) each hand, recorded in the order of (r)."""
        self.side_wagers.settle_progressives({W.BAD_BEAT: "633a.7(o)(1)",
                                              W.HIT_AND_RUN: "633a.7(o)(2)",
                                              W.STRAIGHT_JACK: "633a.7(o)(3)"})
        before = self.settled_names()
        for seat in self.settlement_order():
            for i, hand in enumerate(self.hands[seat]):
                if not hand["settled"]:
                    self.settle_hand(seat, i)
                    hand["settled"] = True
        self.record_settlement(before)
        self.end_round()

    def settle_hand(self, seat, index):
        """(p), (q): 1 to 1 (a Blackjack is paid when the dealer reaches it); a Double Down
        Wager goes with its hand."""
        hand = self.hands[seat][index]
        player = parse(hand["cards"])
        if bj.total(player) > 21:
            result = S.LOSE
        else:
            result = bj.bet_result(player, parse(self.dealer), hand["split"])
        for base in ("blackjack", "double_down"):
            name = wager_name(base, index)
            if name in self.wagers[seat] and name not in self.results.get(seat, {}):
                self.even_money(seat, name, result)

    def dealer_blackjack(self):
        """(h): no more cards; Royal Match (g)(4), then seat by seat from the dealer's right
        Insurance, the wagers held for the reader and the Blackjack Wagers, then Bad Beat and
        Hit and Run, then Straight Jack on the initial two cards ((o)(3))."""
        self.note("dealer_blackjack", cards=list(self.dealer[:2]), section="633a.7(h)")
        self.side_wagers.settle_royal_match()
        before = self.settled_names()
        for seat in self.settlement_order():
            amount = self.wagers[seat].get(self.INSURANCE)
            if amount and self.INSURANCE not in self.results.get(seat, {}):
                self.result(seat, self.INSURANCE, *self.insurance_result(amount, True))
            self.side_wagers.settle_with_dealer_blackjack(seat)
            self.settle_dealer_blackjack(seat)
        self.waiting_blackjacks = []
        self.record_settlement(before)
        self.side_wagers.settle_progressives({W.BAD_BEAT: "633a.7(h)",
                                              W.HIT_AND_RUN: "633a.7(h)"})
        self.side_wagers.settle_progressives({W.STRAIGHT_JACK: "633a.7(o)(3)"})
        self.end_round()

    def settle_dealer_blackjack(self, seat):
        """Each hand's Blackjack Wager against the dealer's Blackjack ((q): a Blackjack ties);
        a Double Down or split hand exists only if the reader missed it (module readings)."""
        dealer = parse(self.dealer[:2])
        for i, hand in enumerate(self.hands[seat]):
            names = [n for n in (wager_name("blackjack", i), wager_name("double_down", i))
                     if n in self.wagers[seat] and n not in self.results.get(seat, {})]
            if not names:
                continue
            hand["settled"] = True
            if i > 0:
                self.return_wagers(seat, names)
                continue
            self.even_money(seat, names[0], bj.bet_result(parse(hand["cards"]), dealer,
                                                          hand["split"]))
            self.return_wagers(seat, names[1:])

    def settled_names(self):
        return {(s, n) for s, res in self.results.items() for n in res}

    def record_settlement(self, before):
        """(r): collect every losing wager, then pay the winners ((1)); or seat by seat from
        the dealer's right ((2)). The amounts are the same; only the order differs."""
        done = [(s, n, r[1]) for s in self.settlement_order()
                for n, r in self.results.get(s, {}).items() if (s, n) not in before]
        if self.option("settlement_procedure") == "collect_then_pay":
            done = [d for d in done if d[2] < 0] + [d for d in done if d[2] >= 0]
            section = "633a.7(r)(1)"
        else:
            section = "633a.7(r)(2)"
        for seat, name, net in done:
            what = "collect" if net < 0 else ("pay" if net > 0 else "return")
            self.note(what, seat=seat, wager=name, amount=abs(net), section=section)

    def void_round(self, reason):
        self.side_wagers.restore_meters()
        self.pending = None
        super().void_round(reason)

    def on_fault(self, event):
        if event.get("device") == "card_reader":
            self.lock("card reader malfunction: %s" % event.get("reason"), "633a.7(h)",
                      "card_reader")
        else:
            super().on_fault(event)

    def split_award(self, name, hit, amount):
        """A jackpot won at several seats is shared by 633a.7(o)'s rule (the book's)."""
        return self.side_wagers.split_award(name, hit, amount)

    def reader_used_when_not_allowed(self, event):
        raise IllegalEvent("the card reader reads the hole card only under an ace, king, queen, "
                           "jack or 10, after the optional wagers and Insurance (633a.7(h)); "
                           "the round waits for %s" % self.waiting_for())
