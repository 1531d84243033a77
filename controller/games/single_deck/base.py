"""One 52-card deck (two with an automated shuffler) dealt from a manual shoe, the hand or an
automated shoe: the deck's integrity and the devices, shared by Flop Poker (583.3-583.13) and
Raise It Up Stud Poker (669a.3-669a.13). The chapters say the same here in the same words;
only the section numbers differ, so each game gives its `SECTIONS`:
    deck, decks, shuffle, shuffler_count, cut, shuffling, dealings, hand_needs_shuffler,
    irregularities, and one per irregularity kind and fault (shuffler_fault, shoe_fault);
    per dealing procedure (MANUAL_SHOE, HAND, AUTOMATED_SHOE): hours, deal, count,
    count_right, count_wrong, and the game's own steps.

The events handled here:
    open_table   one deck, or two with an automated card shuffling device
    shuffle      before play or after a round; {"count": n} from a counting shuffler (not 52:
                 the deck is removed); {"cut": n}, the cover card at least ten cards in;
                 {"by": "shuffler" | "hand"}: how (controller/games/out_of_order.py)
    deck hours   checked on shuffle, wager and "no more bets": 4 hours dealt by hand, 8 from a
                 shoe; then wagers still open are returned and the deck is removed
    irregularity {"kind": "card_face_up", "card"}: discarded; a second voids the round
                 {"kind": "card_drawn_in_error"}: the next card event is that card
                 {"kind": "wrong_number_of_cards", "to": seat | "community"}: void
                 {"kind": "stub_count", "count" | "stub", "misdealt"?}: see below
                 {"kind": "device_out_of_order", "device", "covered": true}: between rounds
                 (or locked out by its fault); a manual shoe or shuffle by hand until the
                 table is closed and opened again (controller/games/out_of_order.py)
    fault        {"device": "shuffler"}: a reshuffle is due; {"device": "dealing_shoe"}: a
                 round being played is void, every wager returned, and a reshuffle is due.
                 Every fault locks the table (the fail-safe: a floorperson clears it after a
                 passing self-test)

Stub counts. Without a counting shuffler the dealer counts the stub at least once every 5
rounds (`stub_count_every`, 1..5). `stub_rounds` counts the rounds played (settled or void)
since a count, a counting shuffler's 52 or a new deck; the round that would reach
`stub_count_every` waits, once its stub is out, for {"need": "stub_count"}: "count" (cards in
the deck) or "stub" (cards in the stub, to which the cards seen leaving the deck since the
shuffle, `shoe_out`, are added). A wrong count also needs the dealer's "misdealt": true (void)
or false (void, and the deck removed).
"""

from controller.errors import ConfigError, InvalidCard
from controller.games.engine import CLOSED, OPENED, ROUND_OVER, SHUFFLED, \
    WAGERS_OPEN, GameModel, IllegalEvent
from controller.games.out_of_order import WHILE_LOCKED, OutOfOrder
from controller.rules import cards as C

MANUAL_SHOE, HAND, AUTOMATED_SHOE = "manual_shoe", "hand", "automated_shoe"
DEALINGS = (MANUAL_SHOE, HAND, AUTOMATED_SHOE)
SHUFFLERS = ("manual", "automated", "counting")
DEVICES = ("shuffler", "dealing_shoe")
DECK_SIZE = 52
HOUR_NS = 3600 * 10 ** 9
OPTION_DEFAULTS = {"dealing": MANUAL_SHOE, "shuffler": "manual", "stub_count_every": 5}
HOURS_CHECKED = ("shuffle", "wager", "no_more_bets")     # events that go on with the deck


class CardRefused(InvalidCard, IllegalEvent):
    """A card the deck cannot give: not one of its 52, or already out of it. Both kinds, since
    Flop Poker refused such a card as an InvalidCard and Raise It Up as an IllegalEvent."""


def one_of(choices, section):
    return lambda v: None if v in choices else "one of %s (%s)" % (", ".join(choices), section)


def deck_options(sections):
    """The table options (config `options`) every single-deck game has."""
    return {
        "dealing": (str, one_of(DEALINGS, sections["dealings"])),
        "shuffler": (str, one_of(SHUFFLERS, sections["shuffling"])),
        "stub_count_every": (int, lambda v: None if 1 <= v <= 5 else
                             "the stub is counted at least once every 5 rounds (%s); 1..5"
                             % sections[MANUAL_SHOE]["count"]),
    }


class SingleDeckGame(OutOfOrder, GameModel):
    """Base of a single-deck game's model. The game sets SECTIONS and OPTIONS =
    deck_options(SECTIONS); deals with `take` (or `card`); calls `stub_out` once the stub is
    out and `end_round` when it settles; and gives `round_seats` and `after_stub_count`."""

    SECTIONS = {}
    OUT_OF_ORDER_DEVICES = DEVICES
    # How a refused card is worded ({what}, {code}, {n}, {error}, {section}); a game whose
    # scenario library pins other words gives its own.
    CARD_REFUSALS = {
        "not_a_card": "{what} is not a card of the 52-card deck ({section})",
        "joker": "{what} is not a card of the 52-card deck ({section})",
        "twice": "{what}: a second {code}; the one 52-card deck holds each card once ({section})",
        "stacked_twice": "{what}: a second {code}; the one 52-card deck holds each card once "
                         "({section})",
    }

    def __init__(self, config):
        super().__init__(config)
        self.methods()
        self.decks = 1
        self.deck_opened_ns = 0
        self.stub_rounds = 0          # rounds since the deck was last found to hold 52 cards
        self.shoe_out = []            # cards out of the deck since the shuffle
        self.reset_round()

    def methods(self):
        """How the table shuffles and deals, as configured (reset when the table opens)."""
        options = dict(self.DEFAULTS["options"], **self.config.get("options", {}))
        if options["dealing"] == HAND and options["shuffler"] == "manual":
            raise ConfigError("options.dealing = 'hand' needs an automated card shuffling device "
                              "(%s): set options.shuffler" % self.SECTIONS["hand_needs_shuffler"])
        self.dealing = options["dealing"]
        self.shuffler = options["shuffler"]
        self.out_of_order = []
        self.stub_every = options["stub_count_every"]

    def section(self, step):
        """The dealing procedure's own section for `step` if it has one, else the chapter's."""
        own = self.SECTIONS[self.dealing]
        return own[step] if step in own else self.SECTIONS[step]

    def round_seats(self):
        """The seats dealt into this round (the game's)."""
        raise NotImplementedError

    def after_stub_count(self):
        """The stub is in the discard rack: the round goes on (the game's)."""
        raise NotImplementedError

    def reset_round(self):
        self.face_up = 0              # cards found face up this round
        self.stub_counted = False

    def refusal_fields(self):
        return {"deal_section": self.section("deal")}

    # ---- the deck on the table: decks, hours, shuffle, cards ------------------------------

    def apply(self, event):
        """A deck past its hours is changed before anything goes on with it."""
        if event.kind in HOURS_CHECKED:
            self.check_deck_hours(event)
        super().apply(event)

    def on_open_table(self, event):
        """One deck, or two with an automated card shuffling device."""
        if self.state == CLOSED:
            self.methods()           # a device out of order stays so until the table reopens
        decks = event.get("decks", 1)
        if decks not in (1, 2) or (decks == 2 and self.shuffler == "manual"):
            raise IllegalEvent("%r decks: the game is played with one deck, or two with an "
                               "automated card shuffling device (%s)"
                               % (decks, self.section("decks")))
        super().on_open_table(event)
        self.decks = decks
        self.deck_opened_ns = event.ts_ns
        self.stub_rounds = 0

    def check_deck_hours(self, event):
        """Decks are changed every 4 hours dealt by hand, 8 from a shoe: a round being dealt
        plays to its end; wagers still open are returned."""
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
        """Before play or after a round; a counting shuffler's count other than 52 removes the
        deck; a cut at least ten cards in."""
        if self.state not in (OPENED, SHUFFLED) + ROUND_OVER:
            raise IllegalEvent("the cards are shuffled before play or after a round, not while "
                               "%s (%s)" % (self.state, self.section("shuffle")))
        self.check_shuffled_by(event)
        cut = event.get("cut")
        if cut is not None and (not isinstance(cut, int) or isinstance(cut, bool) or cut < 10):
            raise IllegalEvent("the cover card goes at least ten cards in from the top, not %r "
                               "(%s)" % (cut, self.section("cut")))
        count = event.get("count")
        if count is not None:
            if count != DECK_SIZE:
                section = self.section("shuffler_count")
                self.note("shuffler_count", count=count, section=section)
                self.remove_the_deck("the shuffler counted %r cards, not 52 (%s)"
                                     % (count, section))
                return
            self.stub_rounds = 0
        super().on_shuffle(event)

    def start_shoe(self, event):
        """Nothing is out of a freshly shuffled deck; a stacked deck (a scenario) holds each
        card once, or as many more times as its `deck.extra` says (a stub count's surplus,
        583.8(e), 669a.8(f))."""
        self.shoe_out = []
        self.extra_cards = {}
        for code in ((event.get("deck") or {}).get("extra") or []):
            code = self.card(code, "deck.extra %r" % (code,), ())
            self.extra_cards[code] = self.extra_cards.get(code, 0) + 1
        seen = []
        for n, code in enumerate(event.get("stack") or [], 1):
            what = "card %d (%r)" % (n, code)
            code = self.card(code, what, ())
            if seen.count(code) > self.extra_cards.get(code, 0):
                raise self.refused("stacked_twice", what=what, n=n, code=code)
            seen.append(code)

    def card(self, code, what, seen=None):
        """The canonical code of a card of the deck not in `seen` (default: out of the deck)."""
        try:
            card = C.parse(code)
        except InvalidCard as e:
            raise self.refused("not_a_card", what=what, error=e) from None
        if card == C.JOKER:
            raise self.refused("joker", what=what)
        code = C.code(card)
        out = self.shoe_out if seen is None else seen
        if code in out and out.count(code) > getattr(self, "extra_cards", {}).get(code, 0):
            raise self.refused("twice", what=what, code=code)
        return code

    def take(self, code, what):
        """A card out of the deck, dealt or found face up."""
        code = self.card(code, what)
        self.shoe_out.append(code)
        return code

    def refused(self, key, **fields):
        return CardRefused(self.CARD_REFUSALS[key].format(section=self.section("deck"), **fields))

    # ---- the end of a round and the stub ------------------------------------------------

    def end_round(self, reshuffle=None):
        """The cards are shuffled before the next round; the stub-count clock moves on."""
        self.pending = None
        self.stub_rounds = 0 if self.stub_counted else self.stub_rounds + 1
        if not self.reshuffle_due:
            self.reshuffle_due = reshuffle or "the cards are shuffled after each round (%s)" \
                % self.section("shuffle")

    def void_round(self, reason):
        """All hands void, every wager returned, the cards reshuffled."""
        self.end_round(reason)
        super().void_round(reason)

    def stub_out(self, to_counting):
        """The stub is out: counted when due (`to_counting` is the game's trigger into its
        state waiting for the count), else discarded and the round goes on."""
        if self.shuffler != "counting" and self.stub_rounds + 1 >= self.stub_every:
            to_counting()
            self.pending = {"need": "stub_count", "section": self.section("count")}
        else:
            self.after_stub_count()

    # ---- irregularities -----------------------------------------------------------------

    def on_irregularity(self, event):
        kind = event.get("kind")
        handler = getattr(self, "irregular_" + str(kind), None)
        if handler is None:
            raise IllegalEvent("unknown irregularity %r; the kinds are %s" % (kind, ", ".join(
                sorted(n[len("irregular_"):] for n in dir(self) if n.startswith("irregular_")))))
        if kind not in WHILE_LOCKED:
            self.not_locked()
        handler(event)

    def in_round(self, kind):
        if self.state not in self.ROUND_STATES:
            raise IllegalEvent("irregularity %s: no round is being played while %s (%s)"
                               % (kind, self.state, self.section(kind)))

    def dealing_now(self, kind):
        if self.state not in self.ROUND_STATES or \
                (self.pending or {}).get("need") not in ("card", "stack"):
            raise IllegalEvent("irregularity %s: no card is being dealt while %s (%s)"
                               % (kind, self.state, self.section(kind)))

    def irregular_card_face_up(self, event):
        """Not used, to the discard rack; a second one voids the round."""
        self.dealing_now("card_face_up")
        section = self.section("card_face_up")
        code = self.take(event.get("card"), "the card found face up")
        self.face_up += 1
        self.note("discard_face_up", card=code, section=section)
        if self.face_up > 1:
            self.void_round("more than one card found face up in the shoe or the deck: the "
                            "round is void and the cards reshuffled (%s)" % section)

    def irregular_card_drawn_in_error(self, event):
        """Its face not exposed, it is used as the next card: the next card event."""
        self.dealing_now("card_drawn_in_error")
        self.note("card_drawn_in_error", to=self.pending["for"],
                  section=self.section("card_drawn_in_error"))

    def irregular_wrong_number_of_cards(self, event):
        """A player or the community area dealt too many or too few cards: void."""
        self.in_round("wrong_number_of_cards")
        section = self.section("wrong_number_of_cards")
        to, seats = str(event.get("to")), self.round_seats()
        if to != "community" and to not in seats:
            raise IllegalEvent("irregularity wrong_number_of_cards: 'to' is a seat in this round "
                               "(%s) or 'community', not %r (%s)"
                               % (", ".join(seats), event.get("to"), section))
        where = "the community area" if to == "community" else "seat " + to
        self.void_round("%s was dealt an incorrect number of cards: the round is void and the "
                        "cards reshuffled (%s)" % (where, section))

    def irregular_stub_count(self, event):
        """52: the stub to the discard rack and the round goes on; wrong: void, and the deck
        removed unless a misdeal explains it."""
        if self.state not in self.ROUND_STATES or \
                (self.pending or {}).get("need") != "stub_count":
            raise IllegalEvent("irregularity stub_count: the stub is counted once the community "
                               "cards are dealt, in a round the count is due: it is counted "
                               "after the deal, not while %s (%s)"
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
            self.after_stub_count()
        elif misdealt:
            self.void_round("the stub count shows %d cards and the cards were misdealt: the "
                            "round is void (%s)" % (total, wrong))
        else:
            reason = "the stub count shows %d cards, not 52, with no misdeal (%s): the round " \
                     "is void and the deck removed" % (total, wrong)
            self.void_round(reason)
            self.remove_the_deck(reason)

    def take_out_of_use(self, device):
        """A manual shoe for the shoe; for the shuffler one deck shuffled by hand, dealt from a
        manual shoe if it was dealt by hand."""
        if device == "dealing_shoe":
            self.dealing = MANUAL_SHOE
        else:
            self.shuffler = "manual"
            self.decks = 1                          # two decks need the shuffler
            if self.dealing == HAND:
                self.dealing = MANUAL_SHOE          # dealt by hand only after one
        return {"dealing": self.dealing, "shuffler": self.shuffler}

    def in_use(self, device):
        return self.shuffler != "manual" if device == "shuffler" else \
            self.dealing == AUTOMATED_SHOE

    # ---- device faults --------------------------------------------------------------------

    def on_fault(self, event):
        """A shuffler that jams or stops: the cards are reshuffled. An automated dealing shoe
        that fails: a round being played is void and the cards reshuffled with any dealt.
        Either, like any device fault, locks the table: its safe state until a floorperson
        clears it after a passing self-test. A fault of a device the table does not use (none
        configured, or covered) is refused; the controller locks the table all the same."""
        device, why, section = event.get("device"), event.get("reason"), event.get("section")
        unused = self.not_used(device, self.section("irregularities")) \
            if device in DEVICES else None
        if unused:
            raise IllegalEvent("fault of the %s: %s" % (device.replace("_", " "), unused))
        if device == "shuffler":
            section = self.section("shuffler_fault")
            self.reshuffle_due = "the shuffler jammed or did not complete the shuffle: %s (%s)" \
                % (why, section)
            if self.state == WAGERS_OPEN:
                # the cards for this round are not shuffled and cannot be until it ends
                self.void_round(self.reshuffle_due)
        elif device == "dealing_shoe":
            section = self.section("shoe_fault")
            reason = "the automated dealing shoe failed: %s; the cards are reshuffled with any " \
                     "dealt (%s)" % (why, section)
            if self.state in self.ROUND_STATES or self.state == WAGERS_OPEN:
                self.void_round(reason)
            self.reshuffle_due = reason
        if device in DEVICES:
            self.note("reshuffle_due", reason=why, section=section)
        self.lock("device %s: %s" % (device, why), section, device)
