"""Double Attack Blackjack (58 Pa. Code ch. 581): the round of 581.6-581.13.

Bet (required, 581.6(d)) and Bust It (optional, at most the Bet, 581.6(f)) -> "no more bets" ->
the dealer's up card -> the Double Attack offer to each seat (at most the Bet, 581.6(e), 581.7(e))
-> one card to each box from seat 1, a second to each box, the hole card (581.7(f)) -> Insurance
on an ace up (at most half the Bet, 581.8) -> the card reader on A K Q J up (581.7(g)) -> seat by
seat: a Blackjack paid even money at once (581.7(h)(1)), else decisions (581.7(h)-(k), 581.9-.11)
-> the hole card up (581.7(l)) -> Bust It on the dealer's third card (581.7(m)) -> the dealer
draws to 17 (581.7(n)) -> settlement from the dealer's right (581.7(o)).

Wagers in the output: bet, double_attack, bust_it, insurance, double_down; a seat's k-th hand
after splitting carries "#k": bet#2, double_attack#2, double_down#2 (581.11(a): each new hand
wagers the original Bet and Double Attack Wagers again).

Readings of the text (581 is silent or loose on them):
  * A Double Down Wager wins, loses or ties with its hand's Bet and is paid 1 to 1: 581.12 prints
    no odds for it, and it is an addition to the hand's wager.
  * A surrender after doubling collects half of the Double Down Wager too, with the Bet and
    Double Attack halves (options.surrender_double_down "half", the default). 581.9(b) names
    only the Bet and Double Attack Wagers; read literally ("returned") the Double Down is a free
    option to look at the card and surrender, and the game's house edge under basic strategy
    goes from +0.52% to -2.31% (controller/lab/par/readings.py; docs/interpretations.md).
  * A hand that can take no more cards (doubled, split aces) but totals under 21 is not asked
    to stand: the surrender 581.9(a) still allows it is an offer, and the hand stands when it
    is declined.
  * Each surrender with A K Q J up asks the card reader again, as 581.9(b)(2) says. A "yes" that
    the earlier peek missed ends the round as a dealer Blackjack (581.9(b)(2)(i), 581.10(b),
    581.11(d)) and locks the table for the reader (581.13(i)); so does a Blackjack found when the
    hole card is turned up (581.7(l)). A "yes" the hole card does not bear out locks the table
    before anything is settled, and the reading is asked again after the repair.
  * With a dealer Blackjack the Bet of a split hand after the first is returned (581.11(d)),
    also when that hand was surrendered.
  * 581.13(f): a box dealt no card is out of the round, every wager on it returned; a box left
    with one card whose player declines the late second card is dead as in 581.13(g): its Bet
    and Double Attack Wagers are returned and its Bust It Wager stays.
  * 581.13(c): a card exposed in error is used for the next card the procedure needs; a player
    asked to decide while it waits may "refuse" it and then takes no more cards.

The shuffle (581.5(a)): `options.shuffler` says how the table shuffles, "automated" (an
automated card shuffling device, the default) or "manual" (by hand). A shuffle event says how
it was done, {"by": "shuffler"} from the shuffler's driver or {"by": "hand"} from the dealer
panel; one that does not say (a scenario) was done the table's way. Then:
  * 581.13(j): a shuffler that jams or stops makes a reshuffle due and, like any device fault,
    locks the table until a floorperson clears it after the shuffler passes its self-test.
  * 581.13(k): with an automated shuffler a shuffle by hand is refused until the dealer reports
    the shuffler out of order and covered, {"kind": "device_out_of_order", "device":
    "shuffler", "covered": true}: between rounds, or while the table is locked out by the
    shuffler's own fault (which it cannot clear by a self-test). The table shuffles by hand
    until it is closed and opened again, when the configured shuffler is back; the covered
    shuffler's shuffles are refused, and a lock-out by it is cleared without its self-test
    (controller/games/out_of_order.py, shared with Flop Poker and Raise It Up).
"""

from controller.games.blackjack.family import DEALER, BlackjackFamily, parse, wager_name
from controller.games.engine import ROUND_OVER, SEAT_KEYS, SETTLED, SHUFFLED, IllegalEvent
from controller.games.out_of_order import WHILE_LOCKED, OutOfOrder
from controller.games.single_deck.base import one_of
from controller.rules import blackjack as bj
from controller.rules import cards as C
from controller.rules import paytables as pt
from controller.rules import settle
from controller.games.declarations import double_attack as declared

GAME = "double-attack-blackjack"
BUST_IT_TABLE = pt.get(GAME, "bust_it")

# The irregularities a dealer reports, Event("irregularity", {"kind": ...}), by section.
IRREGULARITIES = {
    "cover_card": "581.7(d)",
    "card_face_up_in_shoe": "581.13(a)",          # {"card"}
    "card_drawn_in_error": "581.13(b)",
    "card_exposed_in_error": "581.13(c)",         # {"card"}
    "dealer_drew_at_17": "581.13(d)",             # {"card"}
    "insufficient_cards": "581.13(e)",            # {"stack"?}
    "hand_not_dealt": "581.13(f)",                # {"seat"}
    "one_card_dealt": "581.13(f)",                # {"seat", "accept": bool}
    "card_not_dealt": "581.13(g)",                # {"seat", "option": "deal_later"|"dead"}
    "reader_not_allowed": "581.13(h)",
    "device_out_of_order": "581.13(k)",           # {"device": "shuffler", "covered": true}
    "new_dealer": "581.7(c)",                     # {"card"}: the card a new dealer burns
}
ANY_TIME = ("cover_card", "device_out_of_order", "new_dealer")   # check their own states
SHUFFLERS = ("automated", "manual")
SURRENDER_DOUBLE_DOWN = ("half", "returned")


def _positive(what, section):
    return lambda v: None if v >= 1 else "%s must be at least 1 (%s)" % (what, section)


class DoubleAttackBlackjack(OutOfOrder, BlackjackFamily):
    GAME = GAME
    DECLARES = declared.DECLARES     # what the table must know about it
    ROUND_STATES = ["up_card", "double_attack"] + BlackjackFamily.ROUND_STATES
    FIRST_ROUND_STATE = "up_card"
    WAITS = dict(BlackjackFamily.WAITS, up_card=("card",), double_attack=("offer",))
    PRE_DEAL_WAGERS = ("bet", "bust_it")
    TABLE_LIMIT_WAGERS = ("bet",)
    REQUIRED_WAGERS = ("bet",)
    OPTIONAL_WAGERS = ("bust_it",)
    OPTIONS = {
        # 581.13(h): whether the card reader in use lets a player determine the hole card
        "reader_shows_hole_card": (bool, None),
        # 581.8(b): the smallest chip, in cents, Insurance can be bet in
        "insurance_chip_unit": (int, _positive("the chip unit", "581.8(b)")),
        # 581.6(g): adjacent boxes one player may place a Bet Wager on
        "boxes_per_player": (int, lambda v: None if 1 <= v <= 6
                             else "a player bets on 1 to 6 boxes (581.6(g))"),
        # 581.5(a): the cards are shuffled by an automated card shuffling device or by hand
        "shuffler": (str, one_of(SHUFFLERS, "581.5(a)")),
        # 581.9(b) on a surrender after doubling: "half" of the Double Down Wager collected
        # with the Bet and Double Attack halves, or "returned" whole (docs/interpretations.md)
        "surrender_double_down": (str, one_of(SURRENDER_DOUBLE_DOWN, "581.9(b)")),
    }
    DEFAULTS = {"table_min": 100, "table_max": 1000000, "offered": {"bust_it": True},
                "limits": {}, "paytables": {},
                "options": {"reader_shows_hole_card": False, "insurance_chip_unit": 100,
                            "boxes_per_player": 2, "shuffler": "automated",
                            "surrender_double_down": "half"}}
    MAIN_WAGER = "bet"
    HAND_WAGERS = ("bet", "double_attack")
    PEEK_RANKS = "AKQJ"
    DECK = staticmethod(C.spanish_deck)
    DECKS = C.DOUBLE_ATTACK_DECKS
    SECTIONS = {"draw_21": "581.7(j)(1)", "double_one_card": "581.7(j)(2), 581.10(a)",
                "double_amount": "581.10(a)", "split_pair": "581.11(a)",
                "split_hands": "581.11(c)", "split_aces": "581.11(e)", "surrender": "581.7(k)",
                "refused_card": "581.13(c)", "insurance": "581.8(a)", "deck": "581.3(a)",
                "reader": "581.13(i)", "shuffling": "581.5(a)",
                "device_out_of_order": "581.13(k)"}

    def reset_round(self):
        super().reset_round()
        self.box_players = {}      # seat -> player, when wagers name their player (581.6(g))

    @classmethod
    def round_transitions(cls):
        return [{"trigger": "offer_double_attack", "source": "up_card", "dest": "double_attack"},
                {"trigger": "deal_cards", "source": "double_attack", "dest": "dealing"}
                ] + super().round_transitions()

    def card_refusal(self, card):
        if card != C.JOKER and C.rank(card) == C.TEN:
            return "a ten: Double Attack Blackjack decks have the tens removed (581.3(a))"
        return super().card_refusal(card)

    def option(self, key):
        return self.config["options"].get(key, self.DEFAULTS["options"][key])

    # ---- the shuffle (581.5(a), 581.13(j), (k)) -----------------------------------------

    def in_use(self, device):
        """The automated shuffler, if configured and not covered (the one device of 581.13(k))."""
        return device == "shuffler" and self.option("shuffler") == "automated" \
            and device not in self.out_of_order

    # a shuffler failing on the next batch during a round: the round's cards are dealt already
    COVERED_MID_ROUND = True

    def take_out_of_use(self, device):
        return {"shuffled_by": "hand"}

    BURN_SECTION = "581.7(c)"

    def on_shuffle(self, event):
        """By hand only once the automated shuffler is covered (581.13(k)); the batch's first
        card is burned ({"burn": code}, 581.7(c))."""
        self.check_shuffled_by(event)
        super().on_shuffle(event)

    # ---- wagers before "no more bets" (581.6) -------------------------------------------

    def on_wager(self, event):
        """A wager may name its player; one player's Bet boxes are few and adjacent (581.6(g))."""
        player, seat = event.get("player"), str(event.get("seat"))
        if player is not None and event.get("wager") == "bet" and event.get("amount") \
                and seat in SEAT_KEYS:
            owners = {} if self.state in ROUND_OVER + (SHUFFLED,) else self.box_players
            boxes = sorted({int(s) for s, p in owners.items() if p == str(player)} | {int(seat)})
            most = self.option("boxes_per_player")
            if len(boxes) > most:
                raise IllegalEvent("player %s would bet on %d boxes; the Rules Submission allows "
                                   "%d (581.6(g))" % (player, len(boxes), most))
            if boxes and boxes[-1] - boxes[0] != len(boxes) - 1:
                raise IllegalEvent("player %s's boxes %s are not adjacent (581.6(g))"
                                   % (player, ", ".join(map(str, boxes))))
        super().on_wager(event)
        if player is not None and event.get("wager") == "bet":
            if event.get("amount"):
                self.box_players[seat] = str(player)
            else:
                self.box_players.pop(seat, None)

    def check_wager(self, seat, wager, amount, placed):
        if wager == "bust_it":
            if not self.config["offered"].get("bust_it"):
                raise IllegalEvent("bust_it at seat %s: this table does not offer the Bust It "
                                   "Wager (581.6(f))" % seat)
            if "bet" in placed and amount > placed["bet"]:
                raise IllegalEvent("bust_it %d exceeds the Bet Wager %d (581.6(f))"
                                   % (amount, placed["bet"]))

    def check_layout(self):
        for seat, placed in sorted(self.wagers.items()):
            if "bet" not in placed:
                raise IllegalEvent("seat %s has no Bet Wager: a player places one to take part "
                                   "in a round (581.6(d))" % seat)
            if placed.get("bust_it", 0) > placed["bet"]:
                raise IllegalEvent("seat %s: bust_it %d exceeds the Bet Wager %d (581.6(f))"
                                   % (seat, placed["bust_it"], placed["bet"]))

    # ---- up card, Double Attack, deal, Insurance (581.7(e)-(g), 581.8) ----------------

    def start_round(self):
        self.ask_card("the dealer's up card")

    def card_in_up_card(self, code):
        self.dealer.append(code)
        self.note("card", to=DEALER, card=code)
        self.offer_double_attack()
        self.offer("double_attack", self.seats())

    def take_offer(self, seat, offer, event):
        if offer != "double_attack":
            return super().take_offer(seat, offer, event)
        amount = self.amount(event, "double_attack")
        bet = self.wagers[seat]["bet"]
        if amount > bet:
            raise IllegalEvent("double_attack %d exceeds the Bet Wager %d (581.6(e))"
                               % (amount, bet))
        self.wagers[seat]["double_attack"] = amount
        self.note("double_attack", seat=seat, amount=amount)

    def offers_done(self, offer):
        if offer == "double_attack":
            self.deal_cards()
            self.start_deal()
        else:
            super().offers_done(offer)

    def check_insurance(self, seat, amount):
        bj.check_insurance(amount, self.wagers[seat]["bet"], self.option("insurance_chip_unit"))

    def insurance_result(self, amount, won):
        """5 to 2 when the hole card gives the dealer Blackjack (581.8(a), 581.12(b)); else
        collected once the reader says no (581.8(d))."""
        if won:
            return [settle.WIN, bj.insurance_net(amount, *parse(self.dealer[:2]))]
        return [settle.LOSE, settle.net_for(None, amount)]

    def not_now_reason(self, action, seat):
        if action == "double_attack":
            return ("seat %s may not place a Double Attack Wager now: it is placed after the "
                    "dealer's up card, before the deal (581.7(e))" % seat)
        if action == "insurance":
            if self.up_rank() != "A":
                return ("Insurance is not offered: the dealer's first card is %s, not an ace "
                        "(581.8(a))" % (self.dealer[0] if self.dealer else "not dealt"))
            return ("seat %s may not insure now: Insurance is placed before the hole card goes "
                    "into the card reader (581.8(b))" % seat)
        if action == "even_money":
            return ("Double Attack Blackjack offers no even money: a Blackjack is paid even "
                    "money at once (581.7(h)(1))")
        return None

    # ---- decisions (581.7(h)-(k), 581.9-581.11) ------------------------------------------

    def double_limit(self, seat, index):
        """The original Bet and Double Attack Wagers (581.10(a))."""
        placed = self.wagers[seat]
        return placed["bet"] + placed.get("double_attack", 0)

    def surrender_refusal(self, seat, index):
        return None         # any time before standing, after hits, splits, doubles (581.9(a))

    def surrender_needs_reader(self):
        return self.up_rank() in self.PEEK_RANKS          # 581.9(b)(2)

    def settle_surrender(self, seat, index, dealer_blackjack):
        if dealer_blackjack:                               # 581.9(b)(2)(i)
            self.hand_against_blackjack(seat, index)
            return
        bet_name, da_name = wager_name("bet", index), wager_name("double_attack", index)
        placed = self.wagers[seat]
        bet, da = placed[bet_name], placed.get(da_name, 0)
        if dealer_blackjack is None:                       # 581.9(b)(1)
            nets = bj.surrender(bet, da, C.parse(self.dealer[0]))
        else:       # 581.9(b)(2)(ii): the reader's "no" decides; the hole card is unseen
            nets = (settle.half_returned(bet), settle.half_returned(da))
        self.result(seat, bet_name, settle.SURRENDER, nets[0])
        if da_name in placed:
            self.result(seat, da_name, settle.SURRENDER, nets[1])
        dd_name = wager_name("double_down", index)
        if dd_name in placed and self.option("surrender_double_down") == "half":
            # The Double Down Wager is part of the hand's wager and goes with it: half is
            # collected (581.9(b) read with 581.10(a); docs/interpretations.md, issue 19).
            self.result(seat, dd_name, settle.SURRENDER, settle.half_returned(placed[dd_name]))
        self.return_wagers(seat, [dd_name])

    def pay_blackjack(self, seat, index):
        """Even money on the Bet and Double Attack Wagers at once; Bust It stays (581.7(h)(1))."""
        for name in self.hand_wager_names(seat, index):
            self.even_money(seat, name, settle.WIN)
        self.note("blackjack_paid", seat=seat)

    # ---- the dealer and settlement (581.7(l)-(o)) --------------------------------------

    def dealer_checkpoint(self):
        """Bust It once the dealer's first two cards stand or his third is out (581.7(m))."""
        if len(self.dealer) >= 3 or bj.total(parse(self.dealer[:2])) >= bj.BUST_IT_DRAW_BELOW:
            for seat in self.settlement_order():
                self.settle_bust_it(seat)

    def settle_bust_it(self, seat):
        amount = self.wagers[seat].get("bust_it")
        if not amount or "bust_it" in self.results.get(seat, {}):
            return
        dealer = parse(self.dealer)
        first = dealer[:2] if bj.total(dealer[:2]) >= bj.BUST_IT_DRAW_BELOW else dealer[:3]
        self.result(seat, "bust_it", *settle.settle(BUST_IT_TABLE, bj.bust_it(first), amount))

    def settle_hand(self, seat, index):
        """581.7(o)(1) for the Bet and, with it, the Double Down; (o)(2) Double Attack."""
        hand = self.hands[seat][index]
        player, dealer = parse(hand["cards"]), parse(self.dealer)
        bet = bj.bet_result(player, dealer, hand["split"])
        results = {"bet": bet, "double_down": bet,
                   "double_attack": bj.double_attack_result(player, dealer, hand["split"])}
        for base in ("bet", "double_attack", "double_down"):
            name = wager_name(base, index)
            if name in self.wagers[seat]:
                self.even_money(seat, name, results[base])

    def settle_dealer_blackjack(self, seat):
        for i, hand in enumerate(self.hands[seat]):
            if not hand["settled"]:
                self.hand_against_blackjack(seat, i)
                hand["settled"] = True
        self.settle_bust_it(seat)

    def hand_against_blackjack(self, seat, index):
        """The original Bet is collected (a tie with a player's Blackjack), the Double Attack
        returned (581.7(o)); Double Down and split hands' wagers returned (581.10(b), 581.11(d))."""
        names = self.hand_wager_names(seat, index)
        hand = self.hands[seat][index]
        if index > 0:
            self.return_wagers(seat, names)
            return
        player, dealer = parse(hand["cards"]), parse(self.dealer)
        self.even_money(seat, "bet", bj.bet_result(player, dealer, hand["split"]))
        if "double_attack" in names:
            self.even_money(seat, "double_attack",
                            bj.double_attack_result(player, dealer, hand["split"]))
        self.return_wagers(seat, names)

    # ---- irregularities (581.7(d), 581.13) ----------------------------------------------

    def on_irregularity(self, event):
        kind = event.get("kind")
        if kind not in WHILE_LOCKED:
            self.not_locked()
        if kind not in IRREGULARITIES:
            raise IllegalEvent("unknown irregularity %r; the kinds are %s"
                               % (kind, ", ".join(sorted(IRREGULARITIES))))
        if self.state not in self.ROUND_STATES + [SETTLED] and kind not in ANY_TIME:
            raise IllegalEvent("irregularity %s: no round is being dealt (%s)"
                               % (kind, self.state))
        getattr(self, "irregular_" + kind)(event)

    def _in(self, kind, states, why):
        if self.state not in states:
            raise IllegalEvent("irregularity %s while %s: %s (%s)"
                               % (kind, self.state, why, IRREGULARITIES[kind]))

    def _seat(self, event, kind):
        seat = str(event.get("seat"))
        if seat not in self.hands:
            raise IllegalEvent("irregularity %s: seat %s has no hand in this round (%s)"
                               % (kind, seat, IRREGULARITIES[kind]))
        return seat

    def irregular_new_dealer(self, event):
        self.shoe.new_dealer(event)

    def irregular_cover_card(self, event):
        """The round is completed, then the cards are reshuffled (581.7(d), 581.5(f))."""
        if self.state == "closed":
            raise IllegalEvent("the table is closed: there is no shoe (581.7(d))")
        self.reshuffle_due = "the cover card came out in round %d (581.7(d))" % self.round_no
        self.note("cover_card", section="581.7(d)")

    def irregular_card_face_up_in_shoe(self, event):
        self._in("card_face_up_in_shoe", self.ROUND_STATES, "no card is being drawn")
        code = self.shoe.draw(event.get("card"), "the card found face up")
        self.note("discard", card=code, section="581.13(a)")

    def irregular_card_drawn_in_error(self, event):
        """Not exposed: it is the next card out of the shoe, wherever that goes (581.13(b))."""
        self._in("card_drawn_in_error", self.ROUND_STATES, "no card is being drawn")
        self.note("card_drawn_in_error", section="581.13(b)")

    def irregular_card_exposed_in_error(self, event):
        self._in("card_exposed_in_error", ("insurance", "peek", "decisions"),
                 "581.13(c) applies once every player and the dealer have two cards")
        if self.exposed_card is not None:
            raise IllegalEvent("a card exposed in error (%s) is already waiting (581.13(c))"
                               % self.exposed_card)
        code = self.shoe.draw(event.get("card"), "the card exposed in error")
        self.note("card_exposed_in_error", card=code, section="581.13(c)")
        if self.pending and self.pending["need"] == "card":
            self.pending = None
            self.place(code)
            return
        self.exposed_card = code
        if self.pending and self.pending["need"] == "decision":
            self.pending["allowed"] = self.decisions.allowed(*self.turn)

    def irregular_dealer_drew_at_17(self, event):
        dealer = parse(self.dealer)
        if self.state != SETTLED or self.status != "settled" or len(dealer) < 2 or \
                bj.dealer_must_draw(dealer):
            raise IllegalEvent("irregularity dealer_drew_at_17: the dealer has not stood on 17 "
                               "or more this round (581.13(d))")
        code = self.shoe.draw(event.get("card"), "the card the dealer drew in error")
        self.note("discard", card=code, section="581.13(d)")

    def irregular_insufficient_cards(self, event):
        """The discards are shuffled and cut, one card burned, the round completed (581.13(e))."""
        self._in("insufficient_cards", self.ROUND_STATES, "no round is being dealt")
        on_table = list(self.dealer) + [c for _, _, h in self.hands_in_order()
                                        for c in h["cards"]]
        if self.exposed_card:
            on_table.append(self.exposed_card)
        self.shoe.recount(on_table)
        seen = dict(self.shoe_seen)
        for n, code in enumerate(event.get("stack") or [], 1):
            self.shoe.check_card(code, seen, "card %d (%r) of the reshuffled discards" % (n, code))
        self.note("reshuffled_discards", burned=1, section="581.13(e)")

    def irregular_hand_not_dealt(self, event):
        """A box dealt no card is dead; its player is in the next deal (581.13(f))."""
        self._in("hand_not_dealt", ("dealing",), "it is found during the deal")
        seat = self._seat(event, "hand_not_dealt")
        if self.hands[seat][0]["cards"]:
            raise IllegalEvent("irregularity hand_not_dealt: seat %s holds a card (581.13(f))"
                               % seat)
        self.deal_queue = [t for t in self.deal_queue if t != seat]
        self.kill_hand(seat, 0, list(self.wagers[seat]), "581.13(f)")
        self.deal_next()

    def irregular_one_card_dealt(self, event):
        """At the player's option the second card comes after every other player's (581.13(f))."""
        self._in("one_card_dealt", ("dealing",), "it is found during the deal")
        seat = self._seat(event, "one_card_dealt")
        accept = event.get("accept")
        if len(self.hands[seat][0]["cards"]) != 1 or seat not in self.deal_queue:
            raise IllegalEvent("irregularity one_card_dealt: seat %s is not waiting for its "
                               "second card (581.13(f))" % seat)
        if not isinstance(accept, bool):
            raise IllegalEvent("irregularity one_card_dealt: the player's option 'accept' is "
                               "true or false (581.13(f))")
        self.deal_queue.remove(seat)
        if accept:
            last = len(self.deal_queue) - self.deal_queue[::-1].index(DEALER) - 1
            self.deal_queue.insert(last, seat)
            self.note("second_card_later", seat=seat, section="581.13(f)")
        else:
            self.kill_hand(seat, 0, self.hand_wager_names(seat, 0), "581.13(f)")
        self.deal_next()

    def irregular_card_not_dealt(self, event):
        """The player's option: the card after all others, or the hand dead and its Bet and
        Double Attack returned (581.13(g))."""
        self._in("card_not_dealt", ("decisions",), "a player asked for a card")
        seat = self._seat(event, "card_not_dealt")
        option = event.get("option")
        hand = self.hands[seat][self.turn[1]] if self.turn and self.turn[0] == seat else None
        if hand is None or self.pending is None or self.pending["need"] != "card" \
                or len(hand["cards"]) < 2 or hand["owed"]:
            raise IllegalEvent("irregularity card_not_dealt: seat %s is not waiting for a card "
                               "it asked for (581.13(g))" % seat)
        if option not in ("deal_later", "dead"):
            raise IllegalEvent("irregularity card_not_dealt: the player's option is deal_later "
                               "or dead, not %r (581.13(g))" % (option,))
        self.pending = None
        if option == "deal_later":
            hand["owed"] = "double" if hand["doubled"] else "hit"
            self.note("card_owed", seat=seat, hand=self.turn[1] + 1, section="581.13(g)")
        else:
            self.kill_hand(seat, self.turn[1], self.hand_wager_names(seat, self.turn[1]),
                           "581.13(g)")
        self.decisions.next_hand()

    def kill_hand(self, seat, index, returned, section):
        hand = self.hands[seat][index]
        hand.update(dead=True, done=True, settled=True)
        self.return_wagers(seat, returned)
        self.note("dead_hand", seat=seat, hand=index + 1, section=section)

    def irregular_reader_not_allowed(self, event):
        self.reader_used_when_not_allowed(event)

    def reader_used_when_not_allowed(self, event):
        """A floorperson is called; play is void if players could see the hole card (581.13(h))."""
        if self.up_rank() in self.PEEK_RANKS:
            raise IllegalEvent("the card reader is not asked for now: with %s up it reads the "
                               "hole card after the deal and Insurance (581.7(g)) and on a "
                               "surrender (581.9(b)(2)); the round waits for %s"
                               % (self.dealer[0], self.waiting_for()))
        if self.state != "decisions":
            raise IllegalEvent("the card reader is not to be used now: the hole card is %s "
                               "(581.13(h))" % ("face up" if len(self.dealer) > 1
                                                else "not dealt"))
        self.note("floorperson_notified", reason="hole card read with %s up" % self.dealer[0],
                  section="581.13(h)")
        if self.option("reader_shows_hole_card"):
            self.pending = None
            self.void_round("the hole card went into the card reader with %s up and the reader "
                            "lets players see it (581.13(h)(1))" % self.dealer[0])
        else:
            self.note("play_continues", section="581.13(h)(2)")

    def on_fault(self, event):
        """A card reader malfunction stops the game until repaired or replaced (581.13(i)); a
        shuffler that jams or stops makes the cards due for a reshuffle (581.13(j)) and, like
        any device fault, locks the table until a floorperson clears it. A fault of a shuffler
        the table does not use is refused (the controller locks the table all the same)."""
        device = event.get("device")
        unused = self.not_used(device, "581.5(a)") if device == "shuffler" else None
        if unused:
            raise IllegalEvent("fault of the shuffler: %s" % unused)
        if device == "card_reader":
            self.lock("card reader malfunction: %s; no dealing until it is repaired or replaced"
                      % event.get("reason"), "581.13(i)", device)
        elif device == "shuffler":
            self.reshuffle_due = "the shuffler failed: %s (581.13(j))" % event.get("reason")
            self.note("reshuffle_due", reason=event.get("reason"), section="581.13(j)")
            self.lock("shuffler fault: %s" % event.get("reason"), "581.13(j)", device)
        else:
            super().on_fault(event)
