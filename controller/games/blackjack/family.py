"""What the blackjack games share (581 Double Attack Blackjack, 633a.7 Blackjack), on the engine.

A round: the initial deal, offers (insurance and the game's own), the card reader's look at the
hole card, each player's decisions hand by hand, the dealer's hand, settlement. The chapters
agree on that procedure and differ in wagers, deal order, what is peeked, what may be doubled
and what everything pays: those differences are the hooks below, which a game overrides.

Round data (JSON-native, restored from a snapshot as is):
    dealer      card codes in order: up card, hole card, draws
    hands       {seat: [hand, ...]}: a seat's hands in playing order (a split inserts the new
                hand after the one split, 581.11(b)); a hand is a dict made by `new_hand`
    wagers      {seat: {name: cents}}: every wager on the layout under its output name
                (`wager_name`): the hand wagers of the k-th hand carry "#k" ("bet#2")
    pending     what the round waits for (controller/lab/scenario.py's protocol): the data of
                the machine's wait state <step>_waits_<need> (WAITS)
    deal_queue  targets ("1".."6" or "dealer") of the initial deal still to come
    offer_queue seats still to be asked the offer in `pending`
    turn        [seat, hand index] whose hand is being played, or None
    reading     why the card reader was asked: "peek", or [seat, hand index] of a surrender
    exposed_card  a card drawn in error and exposed, waiting to be used (581.13(c))
    misread     what the card reader got wrong this round (lock after settling, 581.13(i))
    shoe_seen   {code: copies dealt or discarded since the shuffle}: against the batch

What a game provides (see each hook's docstring):
    engine:     GAME, PRE_DEAL_WAGERS, TABLE_LIMIT_WAGERS, REQUIRED_WAGERS, OPTIONAL_WAGERS,
                OPTIONS, DEFAULTS, check_wager
    must:       pay_blackjack, settle_hand, settle_dealer_blackjack, insurance_result,
                settle_surrender (if surrender_refusal lets a hand surrender)
    may:        MAIN_WAGER, HAND_WAGERS, DOUBLE_WAGER, PEEK_RANKS, SECTIONS, DECK, DECKS,
                BURN_SECTION; check_layout, start_round, deal_plan, after_deal, take_offer,
                offers_done, check_insurance, double_limit, double_refusal, check_double,
                split_refusal, surrender_refusal, surrender_needs_reader, not_now_reason,
                dealer_checkpoint, dealer_must_draw, card_refusal, reader_used_when_not_allowed
    parts:      PARTS {attribute: class}, the objects the model holds and delegates to, each
                with its declared interface (what it needs from the model, what it offers):
                `shoe` (shoe.py: Shoe, or the game's own such as BlackjackShoe), `decisions`
                (decisions.py), and a game's own (Blackjack's `side_wagers`). Their data is
                the model's round data above, so a snapshot is the model's data alone.
A game's own round states go in ROUND_STATES and round_transitions (plus super()'s); its own
cards go through `card_in_<state>`, its own offers through `offer` / `take_offer`.
Trigger names must differ from every method name (transitions skips a trigger a method hides).
"""

from controller.games.engine import LOCKED_OUT, WAGERS_OPEN, GameModel, IllegalEvent
from controller.rules import blackjack as bj
from controller.rules import cards as C
from controller.rules import settle
from controller.games.blackjack.decisions import Decisions
from controller.games.blackjack.hands import DEALER, new_hand, parse, wager_name
from controller.games.blackjack.shoe import Shoe


class BlackjackFamily(GameModel):
    """Base of the blackjack games: the round's procedure; the game fills in the hooks. The
    shoe and the players' decisions are parts it holds (shoe.py, decisions.py: what each
    needs from the model and offers); a game may hold its own kind of shoe."""

    PARTS = {"shoe": Shoe, "decisions": Decisions}

    ROUND_STATES = ["dealing", "insurance", "peek", "decisions", "dealer"]
    FIRST_ROUND_STATE = "dealing"
    # the round's waits, machine states (engine.py): a card of the deal, an offer (insurance,
    # even money; surrender), the card reader's look at the hole card, a hand's decision or
    # card, the dealer's draws. A game adds its own steps' waits.
    WAITS = {"dealing": ("card",), "insurance": ("offer",), "peek": ("reader", "offer"),
             "decisions": ("card", "decision", "offer", "reader"), "dealer": ("card",)}
    # the card reader is not here: a reading no wait asks for is the game's to judge
    # (reader_used_when_not_allowed: refused, or the round void, 581.13(h))
    ANSWERS = {"card": ("card",), "decision": ("decision", "offer")}
    REFUSALS = {"card": "no card is due: the round waits for {waiting}",
                "decision": "{action} for seat {seat}: no decision is asked now; the round "
                            "waits for {waiting}"}
    MAIN_WAGER = "bet"              # the wager that seats a hand
    HAND_WAGERS = ("bet",)          # riding on each hand; a split hand matches them
    DOUBLE_WAGER = "double_down"
    INSURANCE = "insurance"
    PEEK_RANKS = "AKQJ"             # up cards the reader checks the hole card for
    DECK = staticmethod(C.standard_deck)
    DECKS = 8
    # Section cited when a decision is refused; a game names its own chapter's.
    SECTIONS = {"draw_21": "", "double_one_card": "", "double_amount": "", "split_pair": "",
                "split_hands": "", "split_aces": "", "surrender": "", "refused_card": "",
                "deck": "", "reader": ""}

    def __init__(self, config):
        super().__init__(config)
        self.shoe_seen = {}
        self.reset_round()

    def reset_round(self):
        self.dealer = []
        self.hands = {}
        self.pending = None
        self.deal_queue = []
        self.offer_queue = []
        self.turn = None
        self.reading = None
        self.exposed_card = None
        self.misread = None

    # ---- the machine ----------------------------------------------------------------------

    @classmethod
    def round_transitions(cls):
        return [
            {"trigger": "offer_insurance", "source": "dealing", "dest": "insurance"},
            {"trigger": "read_hole_card", "source": ["dealing", "insurance"], "dest": "peek"},
            {"trigger": "play_hands", "source": ["dealing", "insurance", "peek"],
             "dest": "decisions"},
            {"trigger": "reveal_hole_card", "source": "decisions", "dest": "dealer"},
        ]

    # ---- hooks: what a game decides ------------------------------------------------------

    def deal_plan(self):
        """Targets of the initial deal in order: one card to each box from seat 1 (the
        dealer's left), a second to each box, the hole card last (581.7(f))."""
        seats = self.seats()
        return seats + seats + [DEALER]

    def start_round(self):
        """After "no more bets": by default the initial deal."""
        self.start_deal()

    def after_deal(self):
        """After the initial deal: insurance on an ace up, then the reader, then play."""
        if self.up_rank() == "A":
            self.offer_insurance()
            self.offer(self.INSURANCE, self.live_seats())
        else:
            self.peek_or_play()

    def take_offer(self, seat, offer, event):
        """A seat takes `offer` (the decision's amount in `event`); raise when it may not."""
        if offer != self.INSURANCE:
            raise IllegalEvent("%s has no %s offer" % (self.GAME, offer))
        amount = self.amount(event, offer)
        self.check_insurance(seat, amount)
        self.wagers[seat][self.INSURANCE] = amount
        self.note("insurance", seat=seat, amount=amount)

    def offers_done(self, offer):
        """Every seat has answered `offer`."""
        self.peek_or_play()

    def check_insurance(self, seat, amount):
        """Raise when the Insurance Wager is more than the game allows."""

    def insurance_result(self, amount, won):
        """[result, net] of an Insurance Wager."""
        raise NotImplementedError

    def double_limit(self, seat, index):
        """Most cents a Double Down Wager may be."""
        return self.wagers[seat][self.MAIN_WAGER]

    def double_refusal(self, seat, index):
        """Why this hand may not double besides the common reasons, or None."""
        return None

    def surrender_refusal(self, seat, index):
        """Why this hand may not surrender now, or None (the game decides whether it may)."""
        return "%s has no surrender" % self.GAME

    def split_refusal(self, seat, index):
        """Why a pair the common rules let split may not split at this table, or None."""
        return None

    def check_double(self, seat, index, amount):
        """Raise when a Double Down Wager within the limit is not one the table takes."""

    def not_now_reason(self, action, seat):
        """Why one of the game's own offers is not what the procedure asks now, or None."""
        return None

    def surrender_needs_reader(self):
        """Whether a surrender waits for the card reader's reading of the hole card."""
        return False

    def settle_surrender(self, seat, index, dealer_blackjack):
        """Settle a surrendered hand; `dealer_blackjack` is the reader's answer or None."""
        raise NotImplementedError

    def pay_blackjack(self, seat, index):
        """A player's Blackjack when the dealer reaches it in turn."""
        raise NotImplementedError

    def settle_hand(self, seat, index):
        """Settle a finished hand against the dealer's finished hand."""
        raise NotImplementedError

    def settle_dealer_blackjack(self, seat):
        """Settle what is left of a seat when the dealer has Blackjack."""
        raise NotImplementedError

    def dealer_checkpoint(self):
        """Called each time the dealer's hand changes, before he decides to draw."""

    def dealer_must_draw(self):
        return bj.dealer_must_draw(parse(self.dealer))

    def card_refusal(self, card):
        """Why the game's decks cannot hold `card` (int), or None."""
        if C.code(card) not in self.shoe.batch_counts():
            return "%s is not in this game's decks (%s)" % (C.code(card), self.SECTIONS["deck"])
        return None

    def reader_used_when_not_allowed(self, event):
        """The hole card went into the reader when the procedure did not ask for it."""
        raise IllegalEvent("the card reader is not to be used now: the round waits for %s"
                           % self.waiting_for())

    # ---- helpers a game uses --------------------------------------------------------------

    def seats(self):
        """Seats in play, from the dealer's left (seat 1) clockwise."""
        return sorted(self.hands, key=int)

    def live_seats(self):
        return [s for s in self.seats() if any(not h["dead"] for h in self.hands[s])]

    def hands_in_order(self):
        for seat in self.seats():
            for i, hand in enumerate(self.hands[seat]):
                yield seat, i, hand

    def up_rank(self):
        return self.dealer[0][0] if self.dealer else None

    def amount(self, event, what):
        value = event.get("amount")
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise IllegalEvent("%s needs an amount in whole cents above 0, not %r"
                               % (what, value))
        return value

    def result(self, seat, name, result, net):
        self.results.setdefault(seat, {})[name] = [result, net]

    def even_money(self, seat, name, result):
        """Record a wager paid 1 to 1 when it wins, collected when it loses, else returned."""
        amount = self.wagers[seat][name]
        if result == settle.WIN:
            net = settle.even_money(amount)
        elif result == settle.LOSE:
            net = settle.net_for(None, amount)
        else:
            net = 0
        self.result(seat, name, result, net)

    def return_wagers(self, seat, names):
        for name in names:
            if name in self.wagers.get(seat, {}) and name not in self.results.get(seat, {}):
                self.result(seat, name, settle.RETURNED, 0)

    def hand_wager_names(self, seat, index):
        names = [wager_name(w, index) for w in self.HAND_WAGERS + (self.DOUBLE_WAGER,)]
        return [n for n in names if n in self.wagers.get(seat, {})]

    def on_shuffle(self, event):
        burn = event.get("burn")
        if burn is not None:             # refused before the shuffle changes anything
            self.shoe.check_burn()
            self.shoe.check_card(burn, {}, "the burn card")
        super().on_shuffle(event)

    def start_shoe(self, event):
        """A new shoe (the shoe's `start`)."""
        self.shoe.start(event)

    # The game's section for the burn card of each batch and of each new dealer.
    BURN_SECTION = None

    def not_locked(self):
        if self.state == LOCKED_OUT:
            lo = self.lockout or {}
            raise IllegalEvent("the table is locked out (%s); play resumes after a floorperson "
                               "clears it%s" % (lo.get("reason"), " (%s)" % lo["section"]
                                                if lo.get("section") else ""))

    # ---- the round ------------------------------------------------------------------------

    def on_no_more_bets(self, event):
        self.not_locked()
        if self.state == WAGERS_OPEN:
            self.check_layout()
        super().on_no_more_bets(event)
        self.hands = {s: [new_hand()] for s in sorted(self.wagers, key=int)}
        self.start_round()

    def check_layout(self):
        """The game's checks of the layout when wagering closes."""

    def ask_card(self, why):
        """The procedure needs the next card: a card exposed in error is used first (581.13(c))."""
        if self.exposed_card is not None:
            code, self.exposed_card = self.exposed_card, None
            self.note("exposed_card_used", card=code, to=why)
            self.place(code)
        else:
            self.pending = {"need": "card", "for": why}

    def on_card(self, event):
        """Taken only in a card wait (ANSWERS)."""
        self.shoe.check_drawn(event)
        code = self.shoe.draw(event.get("card"))
        self.pending = None
        self.place(code)

    def place(self, code):
        getattr(self, "card_in_" + self.state)(code)

    def start_deal(self):
        self.deal_queue = self.shoe.plan(self.deal_plan())
        self.deal_next()

    def deal_next(self):
        if self.shoe.draws_next():
            return
        if self.deal_queue:
            target = self.deal_queue[0]
            if target == DEALER:
                who, what = "the dealer", ("up", "hole")[min(len(self.dealer), 1)]
            else:
                n = len(self.hands[target][0]["cards"])
                who, what = "seat %s" % target, ("first", "second")[min(n, 1)]
            self.ask_card("%s's %s card" % (who, what))
            return
        for seat, i, hand in self.hands_in_order():
            hand["blackjack"] = not hand["dead"] and bj.is_blackjack(parse(hand["cards"]))
        self.after_deal()

    def card_in_dealing(self, code):
        if self.shoe.places(code):
            return
        target = self.deal_queue.pop(0)
        if target == DEALER:
            self.dealer.append(code)
        else:
            self.hands[target][0]["cards"].append(code)
        self.note("card", to=target, card=code)
        self.deal_next()

    def offer(self, offer, seats):
        self.offer_queue = list(seats)
        self.offer_next(offer)

    def offer_next(self, offer):
        if self.offer_queue:
            self.pending = {"need": "offer", "seat": self.offer_queue[0], "offer": offer}
        else:
            self.pending = None
            self.offers_done(offer)

    def peek_or_play(self):
        if self.up_rank() in self.PEEK_RANKS:
            self.read_hole_card()
            self.ask_reader("peek")
        else:
            self.start_play()

    def ask_reader(self, reading):
        self.reading = reading
        why = ("the dealer's %s up" % self.dealer[0] if reading == "peek"
               else "surrender of seat %s" % reading[0])
        self.pending = {"need": "reader", "for": why}

    def start_play(self):
        self.play_hands()
        self.decisions.next_hand()

    # ---- the players' decisions (decisions.py) ------------------------------------------

    def on_decision(self, event):
        self.decisions.decide(event)

    def card_in_decisions(self, code):
        self.decisions.take_card(code)

    # ---- the card reader ---------------------------------------------------------------

    def on_reader(self, event):
        self.not_locked()
        said = event.get("blackjack")
        if self.pending is None or self.pending["need"] != "reader":
            self.reader_used_when_not_allowed(event)
            return
        if not isinstance(said, bool):
            raise IllegalEvent("the card reader answers blackjack true or false, not %r" % (said,))
        reading, self.reading = self.reading, None
        self.pending = None
        self.note("reader", blackjack=said, reading=reading)
        if said:
            if not bj.is_blackjack(parse(self.dealer[:2])):
                # The hole card, turned up to settle, does not make a Blackjack.
                self.reading = reading
                self.pending = {"need": "reader", "for": "the reading again after repair"}
                self.lock("card reader malfunction: it read a Blackjack under %s %s"
                          % tuple(self.dealer[:2]),
                          self.SECTIONS["reader"], "card_reader")
                return
            if reading != "peek":       # the peek's "no" was wrong: the round ends here
                self.misread = "it read no Blackjack under %s %s" % tuple(self.dealer[:2])
                self.decisions.surrendered(reading[0], reading[1], True)
            self.dealer_blackjack()
            return
        if reading == "peek":
            for seat in self.seats():
                amount = self.wagers[seat].get(self.INSURANCE)
                if amount:
                    self.result(seat, self.INSURANCE, *self.insurance_result(amount, False))
            self.start_play()
        else:
            self.decisions.surrendered(reading[0], reading[1], False)
            self.decisions.next_hand()

    # ---- the dealer and settlement -----------------------------------------------------

    def reveal(self):
        """The hole card face up (581.7(l)); a Blackjack the reader missed ends the round."""
        self.reveal_hole_card()
        self.note("hole_card", card=self.dealer[1])
        if bj.is_blackjack(parse(self.dealer[:2])):
            self.misread = "it read no Blackjack under %s %s" % tuple(self.dealer[:2])
            self.dealer_blackjack()
            return
        self.dealer_next()

    def dealer_next(self):
        self.dealer_checkpoint()
        if self.dealer_must_draw():
            self.ask_card("the dealer's draw")
        else:
            self.finish_round()

    def card_in_dealer(self, code):
        self.dealer.append(code)
        self.note("card", to=DEALER, card=code)
        self.dealer_next()

    def settlement_order(self):
        """From the dealer's right (seat 6) counterclockwise (581.7(o),(p), 633a.7(o))."""
        return list(reversed(self.seats()))

    def dealer_blackjack(self):
        for seat in self.settlement_order():
            amount = self.wagers[seat].get(self.INSURANCE)
            if amount and self.INSURANCE not in self.results.get(seat, {}):
                self.result(seat, self.INSURANCE, *self.insurance_result(amount, True))
            self.settle_dealer_blackjack(seat)
            self.note("settled", seat=seat)
        self.end_round()

    def finish_round(self):
        for seat in self.settlement_order():
            for i, hand in enumerate(self.hands[seat]):
                if not hand["settled"]:
                    self.settle_hand(seat, i)
                    hand["settled"] = True
            self.note("settled", seat=seat)
        self.end_round()

    def end_round(self):
        self.pending = None
        self.turn = None
        if self.exposed_card is not None:
            self.note("discard", card=self.exposed_card, section=self.SECTIONS["refused_card"])
            self.exposed_card = None
        self.order_results()
        self.status = "settled"
        self.settle()
        if self.misread:
            self.lock("card reader malfunction: %s" % self.misread, self.SECTIONS["reader"],
                      "card_reader")

    def order_results(self):
        """Each seat's results in layout order: hand by hand, then the other wagers."""
        per_hand = self.HAND_WAGERS + (self.DOUBLE_WAGER,)

        def key(name, placed):
            base, _, k = name.partition("#")
            if base in per_hand:
                return (int(k or 1), per_hand.index(base), 0)
            return (99, 0, placed.index(name) if name in placed else 99)
        ordered = {}
        for seat in sorted(self.results, key=int):
            res, placed = self.results[seat], list(self.wagers.get(seat, {}))
            ordered[seat] = {n: res[n] for n in sorted(res, key=lambda n: key(n, placed))}
        self.results = ordered
