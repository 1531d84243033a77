"""Flop Poker's deck and devices (58 Pa. Code 583.3-583.5, the stub counts, 583.13).

The part of the game that keeps the deck whole and the devices honest, apart from the
procedure of a round (controller/games/flop_poker.py, whose steps the handlers here call:
`_settle_round`, `_ask_players`, `_void`, `waiting_for`):
    open_table   one deck, or two with an automated card shuffling device (583.3(a), (b))
    shuffle      before play and after every round (583.5(a)); {"count": n} from a counting
                 shuffler (not 52: the deck is removed, 583.5(b)); {"cut": n} at least ten
                 cards in (583.5(d))
    deck hours   a deck is changed after 4 hours dealt by hand, 8 from a shoe (583.3(c))
    irregularity {"kind": "card_face_up", "card"}        583.13(a): discarded; a second voids
                 {"kind": "card_drawn_in_error"}          583.13(b): the next card event is it
                 {"kind": "wrong_number_of_cards", "to": seat | "community"}  583.13(c): void
                 {"kind": "stub_count", "count" | "stub", "misdealt"?}  583.8(e)-(g) and kin
                 {"kind": "device_out_of_order", "device", "covered": true}  583.13(f)
    fault        {"device": "shuffler"}: reshuffle (583.13(d)); {"device": "dealing_shoe"}:
                 the round void, the cards reshuffled (583.13(e)); another device locks the table
"""

from controller.errors import ConfigError, InvalidCard
from controller.games.engine import CLOSED, LOCKED_OUT, OPENED, ROUND_OVER, SHUFFLED, \
    WAGERS_OPEN, GameModel, IllegalEvent
from controller.rules import cards as C

DEALING, STUB, DECISIONS, FLOP = "dealing", "stub_count", "decisions", "flop"
HOUR_NS = 3600 * 10 ** 9

MANUAL_SHOE, HAND, AUTOMATED_SHOE = "manual_shoe", "hand", "automated_shoe"
# Where each dealing procedure puts its steps.
SECTIONS = {
    MANUAL_SHOE: {"pots": "583.8(b)", "deal": "583.8(c)", "count": "583.8(e)",
                  "count_right": "583.8(f)", "count_wrong": "583.8(g)"},
    HAND: {"pots": "583.9(b)", "deal": "583.9(c)", "count": "583.9(e)",
           "count_right": "583.9(f)", "count_wrong": "583.9(g)"},
    AUTOMATED_SHOE: {"pots": "583.10(a)(2)", "deal": "583.10(b)", "count": "583.10(d)",
                     "count_right": "583.10(e)", "count_wrong": "583.10(f)"},
}
SHUFFLERS = ("manual", "automated", "counting")
DEVICES = ("shuffler", "dealing_shoe")


def one_of(choices):
    return lambda v: None if v in choices else "one of %s" % ", ".join(choices)


class FlopPokerDeck(GameModel):
    """The deck, the shuffles and counts, the devices and the irregularities of 583.13."""

    def __init__(self, config):
        super().__init__(config)
        self._methods()
        self.decks = 1
        self.deck_opened_ns = 0
        self.stub_rounds = 0         # rounds since the deck was last found to hold 52 cards

    def _methods(self):
        """How the table shuffles and deals, as configured (583.5, 583.8-583.10)."""
        options = dict(self.DEFAULTS["options"], **self.config.get("options", {}))
        if options["dealing"] == HAND and options["shuffler"] == "manual":
            raise ConfigError("options.dealing = 'hand' needs an automated card shuffling device "
                              "(583.9(a)(1)): set options.shuffler")
        self.dealing = options["dealing"]
        self.shuffler = options["shuffler"]
        self.stub_every = options["stub_count_every"]

    def section(self, step):
        return SECTIONS[self.dealing][step]

    # ---- the deck on the table (583.3, 583.4, 583.5) --------------------------------------

    def on_open_table(self, event):
        """One deck, or two with an automated card shuffling device (583.3(a), (b))."""
        if self.state == CLOSED:
            self._methods()          # a device out of order stays so until the table reopens
        decks = event.get("decks", 1)
        if decks not in (1, 2) or (decks == 2 and self.shuffler == "manual"):
            raise IllegalEvent("%r decks: Flop Poker is played with one deck, or two with an "
                               "automated card shuffling device (583.3(a), (b))" % (decks,))
        super().on_open_table(event)
        self.decks = decks
        self.deck_opened_ns = event.ts_ns
        self.stub_rounds = 0

    def _check_deck_hours(self, event):
        """Decks are changed every 4 hours dealt by hand, 8 from a shoe (583.3(c)). A round
        being dealt plays to its end; wagers still open are returned."""
        if self.state not in (OPENED, SHUFFLED, WAGERS_OPEN) + ROUND_OVER:
            return
        hours, sub = (4, "583.3(c)(1)") if self.dealing == HAND else (8, "583.3(c)(2)")
        if event.ts_ns - self.deck_opened_ns <= hours * HOUR_NS:
            return
        reason = "the deck has been in use more than %d hours: it is changed (%s)" % (hours, sub)
        if self.state == WAGERS_OPEN and self.wagers:
            self.void_round(reason)
        self.remove_the_deck(reason)
        raise IllegalEvent(reason)

    def on_shuffle(self, event):
        """A shuffle before play or after a round (583.5(a)); a counting shuffler's count other
        than 52 removes the deck (583.5(b)); a cut at least ten cards in (583.5(d))."""
        if self.state not in (OPENED, SHUFFLED) + ROUND_OVER:
            raise IllegalEvent("the cards are shuffled before play or after a round, not while "
                               "%s (583.5(a))" % self.state)
        cut = event.get("cut")
        if cut is not None and (not isinstance(cut, int) or isinstance(cut, bool) or cut < 10):
            raise IllegalEvent("the cover card goes at least ten cards in from the top, not %r "
                               "(583.5(d))" % (cut,))
        count = event.get("count")
        if count is not None:
            if count != 52:
                self.note("shuffler_count", count=count, section="583.5(b)")
                self.remove_the_deck("the shuffler counted %r cards, not 52 (583.5(b))"
                                     % (count,))
                return
            self.stub_rounds = 0
        super().on_shuffle(event)

    def start_shoe(self, event):
        """A stacked deck (a scenario) holds each card once (583.3(a))."""
        seen = set()
        for n, code in enumerate(event.get("stack") or [], 1):
            code = self._card(code, "card %d (%r)" % (n, code))
            if code in seen:
                raise InvalidCard("card %d: %s is stacked twice; one deck holds each card "
                                  "once (583.3(a))" % (n, code))
            seen.add(code)

    def _card(self, code, what="card"):
        """The canonical code of a card of Flop Poker's standard deck (583.3(a))."""
        try:
            card = C.parse(code)
        except InvalidCard as e:
            raise InvalidCard("%s: %s" % (what, e))
        if card == C.JOKER:
            raise InvalidCard("%s: Flop Poker's deck has no joker (583.3(a))" % what)
        return C.code(card)

    def _take(self, code, what):
        """A card out of the deck: a standard card not already out this round (583.3(a))."""
        code = self._card(code, what)
        if code in self.out:
            raise InvalidCard("%s: %s is already out of the deck this round; one deck holds "
                              "each card once (583.3(a))" % (what, code))
        self.out.append(code)
        return code

    # ---- irregularities (583.13) and the stub count ---------------------------------------

    def on_irregularity(self, event):
        kind = event.get("kind")
        handler = getattr(self, "irregular_" + str(kind), None)
        if handler is None:
            raise IllegalEvent("unknown irregularity %r; the kinds are %s" % (kind, ", ".join(
                sorted(n[len("irregular_"):] for n in dir(self) if n.startswith("irregular_")))))
        if self.state == LOCKED_OUT:
            raise IllegalEvent("irregularity %s: the table is locked out (%s)"
                               % (kind, (self.lockout or {}).get("reason")))
        handler(event)

    def _dealing_now(self, kind, section):
        if self.state not in (DEALING, FLOP) or not self.deal_queue:
            raise IllegalEvent("irregularity %s: no card is being dealt; the round waits for %s "
                               "(%s)" % (kind, self.waiting_for(), section))

    def irregular_card_face_up(self, event):
        """Not used, to the discard rack; a second one voids the round (583.13(a))."""
        self._dealing_now("card_face_up", "583.13(a)")
        code = self._take(event.get("card"), "the card found face up")
        self.face_up += 1
        self.note("discard_face_up", card=code, section="583.13(a)")
        if self.face_up > 1:
            self._void("more than one card was found face up in the deck: the cards are "
                       "reshuffled (583.13(a))")

    def irregular_card_drawn_in_error(self, event):
        """Its face not exposed, it is used as the next card (583.13(b)): the next card event."""
        self._dealing_now("card_drawn_in_error", "583.13(b)")
        self.note("card_drawn_in_error", to=self.pending["for"], section="583.13(b)")

    def irregular_wrong_number_of_cards(self, event):
        """A player or the community area dealt too many or too few cards (583.13(c))."""
        if self.state not in self.ROUND_STATES:
            raise IllegalEvent("irregularity wrong_number_of_cards: no round is being dealt "
                               "(583.13(c))")
        to = str(event.get("to"))
        if to != "community" and to not in self.players:
            raise IllegalEvent("irregularity wrong_number_of_cards: 'to' is a seat in this round "
                               "(%s) or 'community', not %r (583.13(c))"
                               % (", ".join(self.players), event.get("to")))
        where = "the community area" if to == "community" else "seat " + to
        self._void("%s was dealt an incorrect number of cards: the cards are reshuffled "
                   "(583.13(c))" % where)

    def irregular_stub_count(self, event):
        """52: the stub to the discard rack; wrong: void, and the deck removed unless a misdeal
        explains it (583.8(e)-(g), 583.9(e)-(g), 583.10(d)-(f))."""
        if self.state != STUB:
            raise IllegalEvent("irregularity stub_count: the stub is counted once the community "
                               "cards are dealt, in a round the count is due; the round waits "
                               "for %s (%s)" % (self.waiting_for(), self.section("count")))
        count, stub = event.get("count"), event.get("stub")
        if (count is None) == (stub is None) or not isinstance(count if stub is None else stub,
                                                               int):
            raise IllegalEvent("irregularity stub_count: give 'count' (cards in the deck) or "
                               "'stub' (cards counted in the stub), a whole number (%s)"
                               % self.section("count"))
        total = count if stub is None else stub + len(self.out)
        misdealt = event.get("misdealt")
        wrong = self.section("count_wrong")
        if total != 52 and not isinstance(misdealt, bool):
            raise IllegalEvent("the stub count shows %d cards, not 52: the dealer determines "
                               "whether the cards were misdealt ('misdealt': true or false) (%s)"
                               % (total, wrong))
        self.note("stub_count", deck=total, section=self.section("count"))
        self.stub_counted = True
        if total == 52:
            self.note("stub_discarded", section=self.section("count_right"))
            if self.dealing == AUTOMATED_SHOE:
                self._ask_players()
            else:
                self._settle_round()
            return
        if misdealt:
            self._void("the stub count shows %d cards and the cards were misdealt (%s)"
                       % (total, wrong))
            return
        reason = "the stub count shows %d cards, not 52, with no misdeal (%s)" % (total, wrong)
        self._void(reason)
        self.remove_the_deck(reason)

    def irregular_device_out_of_order(self, event):
        """Covered or signed out of order before another method is used (583.13(f))."""
        device = event.get("device")
        if self.state not in (OPENED, SHUFFLED) + ROUND_OVER:
            raise IllegalEvent("irregularity device_out_of_order: between rounds, not while %s "
                               "(583.13(f))" % self.state)
        if device == "dealing_shoe" and self.dealing != AUTOMATED_SHOE or \
                device == "shuffler" and self.shuffler == "manual":
            raise IllegalEvent("irregularity device_out_of_order: this table has no automated "
                               "%s in use (583.13(f))" % str(device).replace("_", " "))
        if device not in DEVICES:
            raise IllegalEvent("irregularity device_out_of_order: the device is one of %s, not "
                               "%r (583.13(f))" % (", ".join(DEVICES), device))
        if event.get("covered") is not True:
            raise IllegalEvent("the %s is covered or signed out of order before any other "
                               "method is used ('covered': true) (583.13(f))"
                               % device.replace("_", " "))
        if device == "dealing_shoe":
            self.dealing = MANUAL_SHOE
        else:
            self.shuffler = "manual"
            self.decks = 1                          # two decks need the shuffler (583.3(b))
            if self.dealing == HAND:
                self.dealing = MANUAL_SHOE          # dealt by hand only after one (583.9(a)(1))
        self.note("out_of_order", device=device, dealing=self.dealing, shuffler=self.shuffler,
                  section="583.13(f)")

    def on_fault(self, event):
        """A shuffler jam: reshuffle (583.13(d)); a dealing shoe jam: the round void and the
        cards reshuffled (583.13(e)); any other device locks the table."""
        device, why = event.get("device"), event.get("reason")
        if device == "shuffler" and self.shuffler != "manual":
            self.reshuffle_due = "the shuffler jammed or did not complete the shuffle: %s " \
                                 "(583.13(d))" % why
            self.note("reshuffle_due", reason=why, section="583.13(d)")
        elif device == "dealing_shoe" and self.dealing == AUTOMATED_SHOE:
            reason = "the automated dealing shoe failed: %s; the cards are reshuffled " \
                     "(583.13(e))" % why
            if self.state in self.ROUND_STATES:
                self._void(reason)
            else:
                self.reshuffle_due = reason
                self.note("reshuffle_due", reason=why, section="583.13(e)")
        elif device in DEVICES:
            raise IllegalEvent("fault of the %s: this table has none in use (583.13)"
                               % device.replace("_", " "))
        else:
            super().on_fault(event)
