"""Raise It Up Stud Poker (58 Pa. Code ch. 669a): the round of 669a.7-669a.13.

Ante and an equal Blind (required, 669a.7(d)(1)), Pair Plus, and the optional Progressive
Payout and Six Card Bonus Wagers (669a.7(d)(3)-(5)) before "no more bets" -> the progressive
lock-out: the wagers the system accepted contribute to the meter, the chips are reconciled
(669a.8(b), 669a.9(a)(3), 669a.10(a)(2)) -> three cards to each seat one at a time from seat 1,
then three community cards (669a.8(d), 669a.9(b)), or stacks of three from an automated shoe
(669a.10(b)) -> the stub count when one is due (669a.8(f)) -> check or Play 1-3x the Ante,
4th Street revealed, check or Play 1-2x, 5th Street, Play 1x or fold, 6th Street (669a.11(b)-(h))
-> settlement from the dealer's right (669a.11(i)).

The machine: dealing -> [counting_stub] -> before_4th_street -> before_5th_street ->
before_6th_street -> settled. `pending` says what the round waits for (each wait is the
machine state <state>_waits_<need>, WAITS below):
    {"need": "card", "for": "seat 2, card 1"}      the next card (manual shoe or hand)
    {"need": "stack", "for": "seat 2"}              the next stack of three (automated shoe):
                                                    Event("card", {"cards": [a, b, c]})
    {"need": "stub_count", "section"}               the dealer's count, when one is due (see
                                                    single_deck.py)
    {"need": "decision", "seat", "allowed", "amounts"}  play (amount) / check / fold

Table options (config `options`): `dealing` "manual_shoe" (669a.8), "hand" (669a.9) or
"automated_shoe" (669a.10); `shuffler` "manual", "automated" or "counting" (a device that counts
the deck after each shuffle, 669a.5(b)); `stub_count_every` 1..5 rounds (669a.8(f)).

Also on "no more bets": {"progressive_chips": n}, the chips counted on the layout. A count
that is not the number of wagers the progressive system accepted holds the round for a
floorperson (a lock-out; the clear resumes the deal with the accepted wagers: the player
verifies his own wager was accepted, 669a.7(d)(4)). The deck, the stub count, the
irregularities and device faults shared with Flop Poker are controller/games/single_deck/base.py,
with the sections below; this game's own irregularities are here: a community card exposed
early (669a.13(d)) and information exchanged (669a.11(a)(3)).

Readings of the text (each a place for a lab to challenge):
  * A fold forfeits the Pair Plus Wager with the Ante and Blind: the player withdraws from the
    round (669a.1 "Fold") and 669a.11(g) keeps only Envy and Six Card Bonus eligibility.
  * Envy Bonuses are paid for the hands of the other players still in the round and for a
    folded hand left on the table for its Progressive Payout or Six Card Bonus Wager: 669a.11(f)
    keeps it there "until the Six Card Bonus Wager and any Envy Bonus is settled", (g) takes
    from its player only his own Progressive Payout, and the Envy definitions ask only that
    another player hold the hand. A folded hand without either wager goes to the discard rack
    unseen (669a.11(f)) and qualifies nobody (docs/interpretations.md, `riu-envy-folded-hand`).
  * Progressive contributions are made at "no more bets", when the lock-out makes acceptance
    final; a void round returns the wagers and takes their contributions back off the meter.
  * The cards are shuffled after every round (669a.5(a)): the next round's wagers wait for it.
  * Any shuffler or dealing shoe fault also locks the table (669a.13(e), (f)), as every device
    fault does.
"""

import copy

from controller import progressive
from controller.games.engine import ROUND_OVER, SHUFFLED, IllegalEvent, seat_key
from controller.games.single_deck.base import AUTOMATED_SHOE, HAND, MANUAL_SHOE, \
    OPTION_DEFAULTS, SingleDeckGame, deck_options
from controller.rules import cards as C
from controller.rules import paytables as pt
from controller.rules import raise_it_up as R
from controller.rules import settle as S
from controller.games.declarations import raise_it_up as declared

GAME = pt.RIU
DEALING, COUNTING_STUB = "dealing", "counting_stub"
STREETS = ("before_4th_street", "before_5th_street", "before_6th_street")
SECTIONS = {
    "deck": "669a.3(a)", "decks": "669a.3(a), (b)", "shuffle": "669a.5(a)",
    "shuffler_count": "669a.5(b)", "cut": "669a.5(d)", "shuffling": "669a.5",
    "dealings": "669a.8-669a.10", "hand_needs_shuffler": "669a.9(a)(1)",
    "irregularities": "669a.13", "card_face_up": "669a.13(a)",
    "card_drawn_in_error": "669a.13(b)", "wrong_number_of_cards": "669a.13(c)",
    "community_card_exposed": "669a.13(d)", "shuffler_fault": "669a.13(e)",
    "shoe_fault": "669a.13(f)", "device_out_of_order": "669a.13(g)",
    "information_exchanged": "669a.11(a)(3)",
    MANUAL_SHOE: {"hours": (8, "669a.3(c)(2)"), "deal": "669a.8(d)", "chips": "669a.8(b)",
                  "count": "669a.8(f)", "count_right": "669a.8(g)", "count_wrong": "669a.8(h)"},
    HAND: {"hours": (4, "669a.3(c)(1)"), "deal": "669a.9(b)", "chips": "669a.9(a)(3)",
           "count": "669a.9(d)", "count_right": "669a.9(e)", "count_wrong": "669a.9(f)"},
    AUTOMATED_SHOE: {"hours": (8, "669a.3(c)(2)"), "deal": "669a.10(b)",
                     "chips": "669a.10(a)(2)", "count": "669a.10(d)",
                     "count_right": "669a.10(e)", "count_wrong": "669a.10(f)"},
}
REVEALS = {"before_4th_street": ("4th Street", "669a.11(c)"),
           "before_5th_street": ("5th Street", "669a.11(e)"),
           "before_6th_street": ("6th Street", "669a.11(h)")}
OPTIONAL = {"progressive": ("Progressive Payout", "669a.7(d)(4)"),
            "six_card_bonus": ("Six Card Bonus", "669a.7(d)(5)")}
ASKED = {"before_4th_street": (["play", "check"], "669a.11(b)"),
         "before_5th_street": (["play", "check"], "669a.11(d)"),
         "before_6th_street": (["play", "fold"], "669a.11(f)")}


class RaiseItUpStud(progressive.LinkedGame, SingleDeckGame):
    GAME = GAME
    DECLARES = declared.DECLARES     # what the table must know about it
    ROUND_STATES = [DEALING, COUNTING_STUB] + list(STREETS)
    # the round's waits, machine states (engine.py): a card or a stack of three, the
    # dealer's stub count, each seat's decision on each street
    WAITS = dict({DEALING: ("card", "stack"), COUNTING_STUB: ("stub_count",)},
                 **{street: ("decision",) for street in STREETS})
    ANSWERS = {"card": ("card", "stack"), "decision": ("decision",)}
    REFUSALS = {"card": "no card is due while {state}: the cards are dealt after \"no more "
                        "bets\" ({deal_section})",
                "decision": "no player decision is asked while {state}"}
    FIRST_ROUND_STATE = DEALING
    PRE_DEAL_WAGERS = ("ante", "blind", "pair_plus", "progressive", "six_card_bonus")
    TABLE_LIMIT_WAGERS = ("ante", "blind")
    REQUIRED_WAGERS = ("ante", "blind")
    OPTIONAL_WAGERS = tuple(OPTIONAL)
    SECTIONS = SECTIONS
    OPTIONS = deck_options(SECTIONS)
    DEFAULTS = {"table_min": 100, "table_max": 1000000,
                "offered": {"progressive": True, "six_card_bonus": True},
                "limits": {}, "paytables": {"pair_plus": "A", "six_card_bonus": "A"},
                "progressive": {"meter": 100000, "reset": 100000, "rate": 0.14},
                "options": dict(OPTION_DEFAULTS)}

    def __init__(self, config):
        super().__init__(config)
        self.meter = (progressive.new_meter(GAME, config.get("progressive"))
                      if self.offered("progressive") else None)
        if self.meter is not None and config.get("link"):
            progressive.link_meter(self.meter, config["link"])   # docs/linked-progressives.md

    def reset_round(self):
        super().reset_round()
        self.seats = []               # seats dealt in, from the dealer's left
        self.hands = {}               # seat -> [card codes]
        self.community = []
        self.revealed = 0
        self.to_ask = []              # seats still to decide on this street
        self.folded = []
        self.forfeited = []
        self.meter_before = None
        self.jackpots = []
        if progressive.linked(getattr(self, "meter", None)):
            progressive.link_new_round(self.meter)
        self.players = {}             # seat -> player, when wagers name their player
        self.pending = None

    @classmethod
    def round_transitions(cls):
        return [{"trigger": "count_the_stub", "source": DEALING, "dest": COUNTING_STUB},
                {"trigger": "ask_4th_street", "source": [DEALING, COUNTING_STUB],
                 "dest": STREETS[0]},
                {"trigger": "reveal_4th_street", "source": STREETS[0], "dest": STREETS[1]},
                {"trigger": "reveal_5th_street", "source": STREETS[1], "dest": STREETS[2]}]

    def round_seats(self):
        return self.seats

    def after_stub_count(self):
        self.ask_4th_street()
        self.start_street()

    def offered(self, wager):
        return bool(self.config["offered"].get(wager))

    def automated(self):
        return self.dealing == AUTOMATED_SHOE

    # ---- wagers (669a.7) ------------------------------------------------------------------

    def on_wager(self, event):
        """Wagers before "no more bets" (669a.7(c)); a wager naming its player keeps that
        player to one position (669a.7(e))."""
        if self.state in self.ROUND_STATES:
            raise IllegalEvent("wager %s at seat %s refused: \"no more bets\" was called; a "
                               "wager may not be made, increased or withdrawn (669a.7(c))"
                               % (event.get("wager"), event.get("seat")))
        player, seat = event.get("player"), seat_key(event.get("seat"))
        owners = {} if self.state in ROUND_OVER + (SHUFFLED,) else self.players
        if player is not None and event.get("amount"):
            taken = [s for s, p in owners.items() if p == str(player) and s != seat]
            if taken:
                raise IllegalEvent("player %s already wagers at seat %s: one player position "
                                   "per player (669a.7(e))" % (player, taken[0]))
        super().on_wager(event)
        if player is not None and event.get("amount"):
            self.players[seat] = str(player)

    def check_wager(self, seat, wager, amount, placed):
        if wager in OPTIONAL and not self.offered(wager):
            raise IllegalEvent("the %s Wager is not offered at this table (%s)" % OPTIONAL[wager])

    def on_no_more_bets(self, event):
        """The lock-out engages; the accepted Progressive Payout Wagers contribute and their
        chips are reconciled (669a.8(b)); the deal begins with seat 1 (669a.8(d))."""
        for seat, placed in sorted(self.wagers.items()):
            if "ante" not in placed or "blind" not in placed:
                raise IllegalEvent("seat %s has no %s Wager: a player places an Ante and an "
                                   "equal Blind Wager to take part in a round (669a.7(d)(1))"
                                   % (seat, "Ante" if "ante" not in placed else "Blind"))
            if placed["blind"] != placed["ante"]:
                raise IllegalEvent("seat %s: the Blind Wager %s must equal the Ante Wager %d "
                                   "(669a.7(d)(1))" % (seat, placed.get("blind"), placed["ante"]))
        chips = event.get("progressive_chips")
        if chips is not None and (not isinstance(chips, int) or isinstance(chips, bool)
                                  or chips < 0):
            raise IllegalEvent("progressive_chips is the number of chips counted, not %r"
                               % (chips,))
        super().on_no_more_bets(event)
        if self.linked_meter() is not None:
            late = progressive.link_close(self.meter, self.round_no)
            if late:
                self.note("link_not_acknowledged", seats=late, section="669a.2(c)(1)")
        self.seats = sorted(self.wagers, key=int)
        self.hands = {s: [] for s in self.seats}
        accepted = [s for s in self.seats if "progressive" in self.wagers[s]]
        if self.meter is not None and accepted and self.linked_meter() is None:
            self.meter_before = copy.deepcopy(self.meter)
            for s in accepted:
                progressive.contribute(self.meter, self.wagers[s]["progressive"])
        self.note("progressive_lockout", accepted=accepted,
                  meter=None if self.meter is None else self.meter["value"])
        self.ask_for_cards()
        if chips is not None and chips != len(accepted):
            self.lock("%d progressive chips counted but the system accepted %d Progressive "
                      "Payout Wagers: a floorperson resolves it before the deal"
                      % (chips, len(accepted)), self.section("chips"), "progressive")

    # ---- the deal (669a.8(d), 669a.9(b), 669a.10(b)) ------------------------------------

    def next_target(self):
        """Seat (one card a round, seat 1 first) or "community", by what is dealt so far."""
        n = len(self.seats)
        if self.automated():
            done = sum(1 for s in self.seats if self.hands[s])
            return self.seats[done] if done < n else "community"
        dealt = sum(len(h) for h in self.hands.values())
        return self.seats[dealt % n] if dealt < 3 * n else "community"

    def ask_for_cards(self):
        target = self.next_target()
        if self.automated():
            where = "the community cards" if target == "community" else "seat " + target
            self.pending = {"need": "stack", "for": where}
        elif target == "community":
            self.pending = {"need": "card", "for": "community card %d" % (len(self.community) + 1)}
        else:
            self.pending = {"need": "card",
                            "for": "seat %s, card %d" % (target, len(self.hands[target]) + 1)}

    def on_card(self, event):
        """Taken only in dealing_waits_card or dealing_waits_stack (ANSWERS)."""
        if self.automated():
            codes = event.get("cards")
            if not isinstance(codes, list) or len(codes) != 3:
                raise IllegalEvent("the automated shoe dispenses stacks of three cards: "
                                   "{'cards': [a, b, c]}, not %r (669a.10(b))" % (event.data,))
        else:
            if event.get("cards") is not None:
                raise IllegalEvent("cards are dealt one at a time, not in stacks, without an "
                                   "automated dealing shoe (%s)" % self.section("deal"))
            codes = [event.get("card")]
        checked = []
        for code in codes:
            checked.append(self.card(code, "card %r" % (code,), self.shoe_out + checked))
        target = self.next_target()
        self.shoe_out.extend(checked)
        (self.community if target == "community" else self.hands[target]).extend(checked)
        self.note("card", to=target, cards=checked)
        if len(self.community) < 3:
            self.ask_for_cards()
            return
        self.note("dealt", hands={s: list(h) for s, h in self.hands.items()},
                  community_face_down=True)
        self.stub_out(self.count_the_stub)

    # ---- the streets (669a.11(b)-(h)) -------------------------------------------------------

    def in_play(self, seat):
        return seat not in self.folded and seat not in self.forfeited

    def kept_on_the_table(self, seat):
        """A folded hand whose Progressive Payout or Six Card Bonus Wager keeps it on the table
        until that wager and any Envy Bonus is settled (669a.11(f)): still held, so still an
        Envy Bonus Qualifying Hand for the other players (the module's readings)."""
        return (seat in self.folded and seat not in self.forfeited
                and any(w in self.wagers[seat] for w in ("progressive", "six_card_bonus")))

    def start_street(self):
        self.to_ask = [s for s in self.seats
                       if self.in_play(s) and "play" not in self.wagers[s]]
        self.ask_next()

    def ask_next(self):
        """Ask the next seat, or reveal the street's card once everyone has decided."""
        while self.to_ask and not self.in_play(self.to_ask[0]):
            self.to_ask.pop(0)
        if self.to_ask:
            seat = self.to_ask[0]
            allowed, _ = ASKED[self.state]
            ante = self.wagers[seat]["ante"]
            self.pending = {"need": "decision", "seat": seat, "allowed": list(allowed),
                            "amounts": [ante * m for m in R.PLAY_MULTIPLES[self.state]]}
            return
        street, section = REVEALS[self.state]
        self.revealed += 1
        self.note("reveal", street=street, card=self.community[self.revealed - 1],
                  section=section)
        if self.state == STREETS[0]:
            self.reveal_4th_street()
        elif self.state == STREETS[1]:
            self.reveal_5th_street()
        else:
            self.pending = None
            self.settle_round()
            return
        self.start_street()

    def on_decision(self, event):
        """Taken only in a street's decision wait (ANSWERS)."""
        p = self.pending
        seat = seat_key(event.get("seat"))
        action = event.get("action")
        allowed, section = ASKED[self.state]
        if seat != p["seat"]:
            raise IllegalEvent("seat %s acts, but the procedure asks seat %s first (%s)"
                               % (seat, p["seat"], section))
        if action not in allowed:
            raise IllegalEvent("%s is not allowed before %s: seat %s may %s (%s)"
                               % (action, REVEALS[self.state][0], seat, " or ".join(allowed),
                                  section))
        placed = self.wagers[seat]
        if action == "play":
            amount = event.get("amount")
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise IllegalEvent("play needs an amount in whole cents, not %r (%s)"
                                   % (amount, section))
            R.check_play_wager(placed["ante"], amount, self.state)
            placed["play"] = amount
        elif action == "fold":
            self.fold(seat)
        self.note(action, seat=seat, amount=placed.get("play") if action == "play" else None,
                  street=self.state)
        self.to_ask.pop(0)
        self.ask_next()

    def fold(self, seat):
        """Ante and Blind collected at once (669a.11(f)); the Pair Plus goes with the hand
        (see the module's readings); Progressive and Six Card Bonus wait for settlement."""
        self.folded.append(seat)
        for name in ("ante", "blind", "pair_plus"):
            if name in self.wagers[seat]:
                self.result(seat, name, S.LOSE, -self.wagers[seat][name])

    # ---- settlement (669a.11(i), 669a.12) ------------------------------------------------

    def result(self, seat, name, result, net):
        self.results.setdefault(seat, {})[name] = [result, net]

    def settle_round(self):
        """From the dealer's right (seat 6) counterclockwise, each seat in the order of
        669a.11(i): Pair Plus; Ante, Play and Blind; Progressive Payout and Envy Bonuses;
        Six Card Bonus. A meter payout is at the meter's value when the seat's turn comes
        (669a.12(e)(4))."""
        community = C.parse_all(self.community)
        holders = {s: C.parse_all(self.hands[s]) for s in self.seats
                   if self.in_play(s) or self.kept_on_the_table(s)}
        for seat in reversed(self.seats):
            if seat in self.forfeited:
                continue
            placed = self.wagers[seat]
            mine = C.parse_all(self.hands[seat])
            if seat not in self.folded:
                if "pair_plus" in placed:
                    self.result(seat, "pair_plus", *R.settle_pair_plus(
                        mine, placed["pair_plus"], self.config["paytables"]["pair_plus"]))
                main = R.settle_ante_blind_play(mine, community, placed["ante"],
                                                placed["blind"], placed["play"])
                for name in ("ante", "play", "blind"):
                    self.result(seat, name, *main[name])
            if "progressive" in placed:
                self.settle_progressive(seat, mine, placed["progressive"], holders)
            if "six_card_bonus" in placed:
                self.result(seat, "six_card_bonus", *R.settle_six_card_bonus(
                    mine, community, placed["six_card_bonus"],
                    self.config["paytables"]["six_card_bonus"]))
            self.note("settled_seat", seat=seat, hand=list(self.hands[seat]),
                      results=dict(self.results.get(seat, {})))
        self.status = "settled"
        self.end_round()
        self.settle()

    def settle_progressive(self, seat, mine, wager, holders):
        """669a.11(i)(3)(i): forfeited without a Play Wager (669a.11(g)); a 100% meter payout
        is not paid from the table inventory (669a.11(i)(3)(i)(D)); Envy Bonuses for the
        other players' A-K-Q suited, never one's own (669a.12(e)(5))."""
        hand = R.progressive_hand(mine, "play" in self.wagers[seat])
        pay = pt.get(GAME, "progressive").pay(hand) if hand else None
        if self.linked_meter() is not None and pay is not None and pay.kind == pt.METER:
            # the link pays the meter share: the seat's award waits for it (LinkedGame)
            self.result(seat, "progressive", *self.settle_linked_hit(
                seat, self.hands[seat], pay, wager))
            from_meter = None
        else:
            net, from_meter = progressive.pay(self.meter, pay, wager)
            self.result(seat, "progressive", S.result_of(pay), net)
        if progressive.needs_attendant(GAME, pay):
            self.jackpots.append({"seat": seat, "hand": hand, "amount": from_meter,
                                  "table_inventory": False})
            self.note("meter_payout", seat=seat, amount=from_meter, table_inventory=False,
                      section="669a.11(i)(3)(i)(D)")
        envy = R.envy_bonuses(wager, [h for s, h in holders.items() if s != seat])
        if envy:
            self.result(seat, "envy", S.WIN, envy)

    def void_round(self, reason):
        """Every wager returned; their progressive contributions come back off the meter."""
        if self.meter_before is not None:
            self.meter = self.meter_before
            self.meter_before = None
        if self.linked_meter() is not None:
            progressive.link_void(self.meter, self.round_no)
        self.to_ask = []
        super().void_round(reason)

    # ---- this game's own irregularities (669a.13(d), 669a.11(a)(3)) ----------------------

    def irregular_community_card_exposed(self, event):
        """Before the dealer reveals it (669a.11(c), (e), (h)): all hands void (669a.13(d))."""
        self.in_round("community_card_exposed")
        self.void_round("a community card was exposed before the dealer revealed it: the round "
                        "is void and the cards reshuffled (669a.13(d))")

    def irregular_information_exchanged(self, event):
        """A player who shares his hand before every community card is revealed forfeits all
        his wagers on the round and is asked nothing more (669a.11(a)(3))."""
        self.in_round("information_exchanged")
        seat = seat_key(event.get("seat"))
        if seat not in self.seats or not self.in_play(seat):
            raise IllegalEvent("irregularity information_exchanged: seat %s has no hand in "
                               "play (669a.11(a)(3))" % seat)
        self.forfeited.append(seat)
        for name, amount in self.wagers[seat].items():
            self.result(seat, name, S.LOSE, -amount)
        self.note("forfeited", seat=seat, section="669a.11(a)(3)")
        if self.state in STREETS:
            self.ask_next()
