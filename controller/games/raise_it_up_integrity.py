"""Raise It Up Stud Poker (ch. 669a): the deck, the stub count, irregularities and devices.

The part of the game that keeps the deck whole and the devices honest, apart from the round
itself (raise_it_up.py, whose steps the handlers here call: `ask_4th_street`, `start_street`,
`ask_next`, `void_round`, `result`, `in_play`). The same event shapes as Flop Poker's twin
rules (controller/games/flop_poker_deck.py):
    open_table   one deck, or two with an automated card shuffling device (669a.3(a), (b))
    shuffle      before play and after every round (669a.5(a)); {"count": n} from a counting
                 shuffler (not 52: the deck is removed, 669a.5(b)); {"cut": n} at least ten
                 cards in (669a.5(d))
    deck hours   a deck is changed after 4 hours dealt by hand, 8 from a shoe (669a.3(c))
    irregularity {"kind": "card_face_up", "card"}        669a.13(a): discarded; a second voids
                 {"kind": "card_drawn_in_error"}          669a.13(b): the next card event is it
                 {"kind": "wrong_number_of_cards", "to": seat | "community"}  669a.13(c): void
                 {"kind": "community_card_exposed"}       669a.13(d): void
                 {"kind": "information_exchanged", "seat"}  669a.11(a)(3): wagers forfeited
                 {"kind": "stub_count", "count" | "stub", "misdealt"?}  669a.8(f)-(h) and kin
                 {"kind": "device_out_of_order", "device", "covered": true}  669a.13(g)
    fault        {"device": "shuffler"}: a reshuffle is due (669a.13(e)); {"device":
                 "dealing_shoe"}: the round is void, the cards reshuffled (669a.13(f)); every
                 fault locks the table until a floorperson clears it after the self-test

Stub counts (669a.8(f)-(h), 669a.9(d)-(f), 669a.10(d)-(f)). Without a counting shuffler the
dealer counts the stub at least once every 5 rounds (the house may say more often:
`stub_count_every`). `stub_rounds` counts the rounds played (settled or void) since the stub was
last counted, a counting shuffler counted 52 or a deck was opened. The round that would make
`stub_count_every` rounds without a count waits in `counting_stub` after the deal: the count is
"count" (cards in the deck) or "stub" (cards counted in the stub, the controller adding the
cards it saw leave the deck, a card found face up included); a wrong count also needs the
dealer's "misdealt": true (void) or false (void, and the deck removed).
"""

from controller.errors import ConfigError, InvalidCard
from controller.games.engine import CLOSED, LOCKED_OUT, OPENED, ROUND_OVER, SHUFFLED, \
    WAGERS_OPEN, IllegalEvent, seat_key
from controller.rules import cards as C
from controller.rules import settle as S

DEALING, COUNTING_STUB = "dealing", "counting_stub"
STREETS = ("before_4th_street", "before_5th_street", "before_6th_street")
DECK_SIZE = 52
HOUR_NS = 3600 * 10 ** 9
MANUAL_SHOE, HAND, AUTOMATED_SHOE = "manual_shoe", "hand", "automated_shoe"
SHUFFLERS = ("manual", "automated", "counting")
DEVICES = ("shuffler", "dealing_shoe")

# Where each dealing procedure puts its steps (669a.8, 669a.9, 669a.10), and the deck's hours.
SECTIONS = {
    MANUAL_SHOE: {"deal": "669a.8(d)", "chips": "669a.8(b)", "count": "669a.8(f)",
                  "count_right": "669a.8(g)", "count_wrong": "669a.8(h)",
                  "hours": (8, "669a.3(c)(2)")},
    HAND: {"deal": "669a.9(b)", "chips": "669a.9(a)(3)", "count": "669a.9(d)",
           "count_right": "669a.9(e)", "count_wrong": "669a.9(f)", "hours": (4, "669a.3(c)(1)")},
    AUTOMATED_SHOE: {"deal": "669a.10(b)", "chips": "669a.10(a)(2)", "count": "669a.10(d)",
                     "count_right": "669a.10(e)", "count_wrong": "669a.10(f)",
                     "hours": (8, "669a.3(c)(2)")},
}


def one_of(choices, section):
    return lambda v: None if v in choices else "one of %s (%s)" % (", ".join(choices), section)


class DeckIntegrity:
    """Mixed into the game's model ahead of GameModel."""

    def methods(self):
        """How the table shuffles and deals, as configured (669a.5, 669a.8-669a.10)."""
        options = dict(self.DEFAULTS["options"], **self.config.get("options", {}))
        if options["dealing"] == HAND and options["shuffler"] == "manual":
            raise ConfigError("options.dealing = 'hand' needs an automated card shuffling device "
                              "(669a.9(a)(1)): set options.shuffler")
        self.dealing = options["dealing"]
        self.shuffler = options["shuffler"]
        self.stub_every = options["stub_count_every"]

    def section(self, step):
        return SECTIONS[self.dealing][step]

    def not_locked(self):
        if self.state == LOCKED_OUT:
            raise IllegalEvent("the table is locked out (%s); play resumes after a floorperson "
                               "clears it" % (self.lockout or {}).get("reason"))

    # ---- the deck on the table (669a.3, 669a.4, 669a.5) -----------------------------------

    def on_open_table(self, event):
        """One deck, or two with an automated card shuffling device (669a.3(a), (b))."""
        if self.state == CLOSED:
            self.methods()           # a device out of order stays so until the table reopens
        decks = event.get("decks", 1)
        if decks not in (1, 2) or (decks == 2 and self.shuffler == "manual"):
            raise IllegalEvent("%r decks: Raise It Up Stud Poker is played with one deck, or two "
                               "with an automated card shuffling device (669a.3(a), (b))"
                               % (decks,))
        super().on_open_table(event)
        self.decks = decks
        self.deck_opened_ns = event.ts_ns
        self.stub_rounds = 0

    def check_deck_hours(self, event):
        """Decks are changed every 4 hours dealt by hand, 8 from a shoe (669a.3(c)). A round
        being dealt plays to its end; wagers still open are returned."""
        if self.state not in (OPENED, SHUFFLED, WAGERS_OPEN) + ROUND_OVER:
            return
        hours, section = self.section("hours")
        if event.ts_ns - self.deck_opened_ns <= hours * HOUR_NS:
            return
        reason = "the deck has been in use more than %d hours: it is changed (%s)" \
            % (hours, section)
        if self.state == WAGERS_OPEN and self.wagers:
            self.void_round(reason)
        self.remove_the_deck(reason)
        raise IllegalEvent(reason)

    def on_shuffle(self, event):
        """A shuffle before play or after a round (669a.5(a)); a counting shuffler's count other
        than 52 removes the deck (669a.5(b)); a cut at least ten cards in (669a.5(d))."""
        self.check_deck_hours(event)
        if self.state not in (OPENED, SHUFFLED) + ROUND_OVER:
            raise IllegalEvent("the cards are shuffled before play or after a round, not while "
                               "%s (669a.5(a))" % self.state)
        cut = event.get("cut")
        if cut is not None and (not isinstance(cut, int) or isinstance(cut, bool) or cut < 10):
            raise IllegalEvent("the cover card goes at least ten cards in from the top, not %r "
                               "(669a.5(d))" % (cut,))
        count = event.get("count")
        if count is not None:
            if count != DECK_SIZE:
                self.note("shuffler_count", count=count, section="669a.5(b)")
                self.remove_the_deck("the shuffler counted %r cards, not 52: the deck is removed "
                                     "from the table (669a.5(b))" % (count,))
                return
            self.stub_rounds = 0
        super().on_shuffle(event)

    def start_shoe(self, event):
        """A new shuffle: nothing is out of the shoe; a stacked shoe is one 52-card deck."""
        self.shoe_out = []
        seen = []
        for n, code in enumerate(event.get("stack") or [], 1):
            seen.append(self.check_card(code, seen, "card %d (%r)" % (n, code)))

    def check_card(self, code, seen, what):
        """The canonical code of a card of the 52-card deck not in `seen` (669a.3(a))."""
        try:
            card = C.parse(code)
        except InvalidCard:
            card = None
        if card is None or card == C.JOKER:
            raise IllegalEvent("%s is not a card of the 52-card deck (669a.3(a))" % what)
        code = C.code(card)
        if code in seen:
            raise IllegalEvent("%s: a second %s; the one 52-card deck holds each card once "
                               "(669a.3(a))" % (what, code))
        return code

    # ---- irregularities (669a.13, 669a.11(a)(3)) and the stub count ------------------------

    def on_irregularity(self, event):
        kind = event.get("kind")
        handler = getattr(self, "irregular_" + str(kind), None)
        if handler is None:
            raise IllegalEvent("unknown irregularity %r; the kinds are %s" % (kind, ", ".join(
                sorted(n[len("irregular_"):] for n in dir(self) if n.startswith("irregular_")))))
        self.not_locked()
        handler(event)

    def in_round(self, kind, section, states=None):
        if self.state not in (states or self.ROUND_STATES):
            raise IllegalEvent("irregularity %s: %s while %s (%s)"
                               % (kind, "no card is being dealt" if states == (DEALING,)
                                  else "no round is being played", self.state, section))

    def irregular_card_face_up(self, event):
        """Not used, to the discard rack; a second one voids the round (669a.13(a))."""
        self.in_round("card_face_up", "669a.13(a)", (DEALING,))
        code = self.check_card(event.get("card"), self.shoe_out, "the card found face up")
        self.shoe_out.append(code)
        self.face_up += 1
        self.note("discard_face_up", card=code, section="669a.13(a)")
        if self.face_up > 1:
            self.void_round("more than one card found face up in the shoe or the deck: the "
                            "round is void and the cards reshuffled (669a.13(a))")

    def irregular_card_drawn_in_error(self, event):
        """Its face not exposed, it is used as the next card (669a.13(b)): the next card event."""
        self.in_round("card_drawn_in_error", "669a.13(b)", (DEALING,))
        self.note("card_drawn_in_error", to=self.pending["for"], section="669a.13(b)")

    def irregular_wrong_number_of_cards(self, event):
        """A player or the community area dealt too many or too few cards (669a.13(c))."""
        self.in_round("wrong_number_of_cards", "669a.13(c)")
        to = str(event.get("to"))
        if to != "community" and to not in self.seats:
            raise IllegalEvent("irregularity wrong_number_of_cards: 'to' is a seat in this round "
                               "(%s) or 'community', not %r (669a.13(c))"
                               % (", ".join(self.seats), event.get("to")))
        where = "the community area" if to == "community" else "seat " + to
        self.void_round("%s was dealt an incorrect number of cards: the round is void and the "
                        "cards reshuffled (669a.13(c))" % where)

    def irregular_community_card_exposed(self, event):
        """Before the dealer reveals it (669a.11(c), (e), (h)): all hands void (669a.13(d))."""
        self.in_round("community_card_exposed", "669a.13(d)")
        self.void_round("a community card was exposed before the dealer revealed it: the round "
                        "is void and the cards reshuffled (669a.13(d))")

    def irregular_information_exchanged(self, event):
        """A player who shares his hand before every community card is revealed forfeits all
        his wagers on the round and is asked nothing more (669a.11(a)(3))."""
        self.in_round("information_exchanged", "669a.11(a)(3)")
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

    def irregular_stub_count(self, event):
        """52: the stub to the discard rack and the round goes on; wrong: void, and the deck
        removed unless a misdeal explains it (669a.8(f)-(h), 669a.9(d)-(f), 669a.10(d)-(f))."""
        if self.state != COUNTING_STUB:
            raise IllegalEvent("irregularity stub_count: the stub is counted after the deal in a "
                               "round the count is due, not while %s (%s)"
                               % (self.state, self.section("count")))
        count, stub = event.get("count"), event.get("stub")
        given = count if stub is None else stub
        if (count is None) == (stub is None) or not isinstance(given, int) \
                or isinstance(given, bool):
            raise IllegalEvent("irregularity stub_count: give 'count' (cards in the deck) or "
                               "'stub' (cards counted in the stub), a whole number (%s)"
                               % self.section("count"))
        total = count if stub is None else stub + len(self.shoe_out)
        misdealt = event.get("misdealt")
        wrong = self.section("count_wrong")
        if total != DECK_SIZE and not isinstance(misdealt, bool):
            raise IllegalEvent("the stub count shows %d cards, not 52: the dealer determines "
                               "whether the cards were misdealt ('misdealt': true or false) (%s)"
                               % (total, wrong))
        self.note("stub_count", deck=total, section=self.section("count"))
        self.stub_counted = True
        if total == DECK_SIZE:
            self.note("stub_discarded", section=self.section("count_right"))
            self.ask_4th_street()
            self.start_street()
        elif misdealt:
            self.void_round("the stub count shows %d cards and the cards were misdealt: the "
                            "round is void (%s)" % (total, wrong))
        else:
            reason = "the stub count shows %d cards, not 52, with no misdeal: the round is " \
                     "void and the deck removed (%s)" % (total, wrong)
            self.void_round(reason)
            self.remove_the_deck(reason)

    def irregular_device_out_of_order(self, event):
        """Covered or signed out of order before another method is used (669a.13(g))."""
        device = event.get("device")
        if self.state not in (OPENED, SHUFFLED) + ROUND_OVER:
            raise IllegalEvent("irregularity device_out_of_order: between rounds, not while %s "
                               "(669a.13(g))" % self.state)
        if device not in DEVICES:
            raise IllegalEvent("irregularity device_out_of_order: the device is one of %s, not "
                               "%r (669a.13(g))" % (", ".join(DEVICES), device))
        if device == "dealing_shoe" and self.dealing != AUTOMATED_SHOE or \
                device == "shuffler" and self.shuffler == "manual":
            raise IllegalEvent("irregularity device_out_of_order: this table has no automated "
                               "%s in use (669a.13(g))" % device.replace("_", " "))
        if event.get("covered") is not True:
            raise IllegalEvent("the %s is covered or signed out of order before any other "
                               "method is used ('covered': true) (669a.13(g))"
                               % device.replace("_", " "))
        if device == "dealing_shoe":
            self.dealing = MANUAL_SHOE
        else:
            self.shuffler = "manual"
            self.decks = 1                          # two decks need the shuffler (669a.3(b))
            if self.dealing == HAND:
                self.dealing = MANUAL_SHOE          # dealt by hand only after one (669a.9(a)(1))
        self.note("out_of_order", device=device, dealing=self.dealing, shuffler=self.shuffler,
                  section="669a.13(g)")

    def on_fault(self, event):
        """A shuffler that jams or stops: the cards are reshuffled (669a.13(e)); an automated
        dealing shoe that fails in a round: the round is void and the cards reshuffled
        (669a.13(f)). Every fault locks the table (the one fail-safe path)."""
        device, why = event.get("device"), event.get("reason")
        section = event.get("section")
        if device == "shuffler" and self.shuffler != "manual":
            section = "669a.13(e)"
            self.reshuffle_due = "the shuffler jammed or did not complete the shuffle: %s " \
                                 "(669a.13(e))" % why
        elif device == "dealing_shoe" and self.dealing == AUTOMATED_SHOE:
            section = "669a.13(f)"
            reason = "the automated dealing shoe failed: %s; the cards are reshuffled with any " \
                     "dealt (669a.13(f))" % why
            if self.state in self.ROUND_STATES:
                self.void_round(reason)
            self.reshuffle_due = reason
        elif device in DEVICES:
            raise IllegalEvent("fault of the %s: this table has none in use (669a.13)"
                               % device.replace("_", " "))
        self.lock("device %s: %s" % (device, why), section, device)

