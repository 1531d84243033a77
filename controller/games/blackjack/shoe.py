"""The shoe of a blackjack-family table, a part its model holds (`model.shoe`): the batch the
cards are counted against, the burn card, and, for Blackjack (633a.7), the double shoe's
determinant card and the shoe's irregularities.

`Shoe` is the family's (Double Attack Blackjack's as it is); `BlackjackShoe` adds 633a.7's.
The family's round asks its shoe at four places: the plan of the deal (`plan`), the next card
the deal asks for (`draws_next`), a card event (`check_drawn`, then `draw`) and a card the deal
places (`places`); every card out of the shoe is `draw`n, checked and counted against the batch.

The double shoe (options.double_shoe, 633a.7(d)): before each round's deal the determinant
card. A `card` event carries it and may name the side of the shoe it was drawn from ("side":
"hearts_diamonds" or "spades_clubs", the side whose backs the certificate holder matched to
those suits, (d)(1)). A scenario's `cards` list holds card codes only: its first card is the
determinant card, taken as drawn from the side `options.determinant_side` names (the side the
table draws its determinant cards from). A determinant card of that side's suits is seat 1's
first card, and the next card in `cards` is the next box's (or the up card); one of the other
side's suits is segregated, and the next card in `cards` is seat 1's first card, dealt from the
other side ((d)(2)). Either way the round is dealt from the side its suit names.

Readings: the batch check counts a double shoe's two sides together (two batches), and a
shuffle restarts the count; (c)'s burn card of a new batch is not in a scenario's cards (the
format leaves it out): a live table reports it on the shuffle event ({"burn": code}), and a new
dealer's as the irregularity `new_dealer` ({"card": code}); a double shoe burns none.
"""

from types import MappingProxyType

from controller.errors import InvalidCard
from controller.games.engine import CLOSED, ROUND_OVER, SHUFFLED, WAGERS_OPEN, IllegalEvent
from controller.rules import cards as C

_BATCHES = {}                     # copies (or deck, decks) -> {code: copies} (read-only)
DETERMINANT = "determinant"
SIDES = ("hearts_diamonds", "spades_clubs")
IRREGULARITIES = {"cover_card": "633a.7(e)", "new_dealer": "633a.7(c)"}


class Shoe:
    """The batch a blackjack-family table deals from, card by card.

    Needs from the model: DECK and DECKS (one batch), SECTIONS["deck"], BURN_SECTION,
    `card_refusal(card)` (what the game's decks cannot hold), `state`, `note`; its data is
    the model's round data (snapshotted there): `shoe_seen` {code: copies out since the
    shuffle} and `extra_cards` {code: copies a stacked shoe's deck.extra adds}.
    Offers: batch_counts, batch_words, check_card, draw, start (a new shoe), recount,
    check_burn, burn, new_dealer; and the deal's hooks plan, draws_next, check_drawn, places
    (a plain shoe has no cards of its own)."""

    def __init__(self, model):
        self.model = model

    def batch_counts(self):
        """{code: copies} in one batch of the game's decks: built once per deck and number
        of decks and shared, read-only (asked twice for every card out of the shoe; rebuilt
        each time it was 4% of a Double Attack soak, issue 33)."""
        m = self.model
        key = (m.DECK, m.DECKS)
        batch = _BATCHES.get(key)
        if batch is None:
            counts = {}
            for card in m.DECK():
                code = C.code(card)
                counts[code] = counts.get(code, 0) + m.DECKS
            batch = _BATCHES[key] = MappingProxyType(counts)
        return batch

    def check_card(self, code, seen, what):
        """A code that is a card the batch holds and not one copy too many; its canonical code."""
        m = self.model
        try:
            card = C.parse(code)
        except InvalidCard as e:
            raise InvalidCard("%s: %s" % (what, e))
        problem = m.card_refusal(card)
        if problem:
            raise InvalidCard("%s: %s" % (what, problem))
        code = C.code(card)
        copies = self.batch_counts()[code] + getattr(m, "extra_cards", {}).get(code, 0)
        if seen.get(code, 0) + 1 > copies:
            raise InvalidCard("%s: one %s too many: %s %d (%s)"
                              % (what, code, self.batch_words(), copies, m.SECTIONS["deck"]))
        seen[code] = seen.get(code, 0) + 1
        return code

    def batch_words(self):
        """The batch as a refusal of one copy too many names it ("... holds N")."""
        return "a batch of %d decks holds" % self.model.DECKS

    def draw(self, code, what="card"):
        """A card out of the shoe, checked and counted against the batch."""
        return self.check_card(code, self.model.shoe_seen, what)

    def start(self, event):
        """A new shoe: the count of cards out of it restarts; a stacked shoe is checked whole,
        a card the batch holds once more for each time its `deck.extra` names it.
        A live table reports the batch's first card, burned to the discard rack, on the
        shuffle event ({"burn": code}: 581.7(c), 633a.7(c)); it counts against the batch."""
        m = self.model
        m.shoe_seen = {}
        m.extra_cards = {}
        for code in ((event.get("deck") or {}).get("extra") or []):
            code = self.check_card(code, {}, "deck.extra %r" % (code,))
            m.extra_cards[code] = m.extra_cards.get(code, 0) + 1
        seen = {}
        for n, code in enumerate(event.get("stack") or [], 1):
            self.check_card(code, seen, "card %d (%r)" % (n, code))
        burn = event.get("burn")
        if burn is not None:
            self.check_burn()
            self.burn(burn, "the burn card")

    def recount(self, on_table):
        """The count restarts from the cards on the table (the discards reshuffled)."""
        seen = self.model.shoe_seen = {}
        for code in on_table:
            seen[code] = seen.get(code, 0) + 1

    def check_burn(self):
        """Whether this table burns cards at all (a double shoe does not)."""

    def burn(self, value, what):
        code = self.draw(value, what)
        self.model.note("discard", card=code, section=self.model.BURN_SECTION)

    def new_dealer(self, event):
        """A new dealer burns one card before dealing to the players (581.7(c), 633a.7(c))."""
        m = self.model
        self.check_burn()
        if m.state not in (SHUFFLED, WAGERS_OPEN) + ROUND_OVER:
            raise IllegalEvent("a new dealer burns a card before dealing any cards, not while "
                               "%s (%s)" % (m.state, m.BURN_SECTION))
        self.burn(event.get("card"), "the card the new dealer burns")

    # ---- the deal's hooks: the shoe's own draws ----------------------------------------

    def plan(self, plan):
        """The targets of the initial deal with the shoe's own draws added."""
        return plan

    def draws_next(self):
        """Whether the deal's next card is the shoe's own (then it has asked for it)."""
        return False

    def check_drawn(self, event):
        """A card event's own data about the shoe, before the card is drawn."""

    def places(self, code):
        """Whether the card the deal got was the shoe's own (then it has placed it)."""
        return False


class BlackjackShoe(Shoe):
    """633a.7's shoe: decks per batch and the double shoe ((d)) from the model's `option`,
    the cover card ((e)) and the new dealer's burn card ((c)) as irregularities.

    Needs from the model besides Shoe's: `option`, `deal_queue`, `hands`, `pending`,
    `ask_card`, `deal_next`, `round_no`; its round data on the model: `drawn_from`,
    `shoe_side`, `determinant` and `reshuffle_due` (the cover card's)."""

    def batch_counts(self):
        """One batch of `decks` decks; a double shoe's two sides counted together.

        Asked twice for every card out of the shoe: built once per number of copies and
        shared, read-only (it was rebuilt each time, 7% of a simulated round's samples)."""
        option = self.model.option
        copies = option("decks") * (2 if option("double_shoe") else 1)
        batch = _BATCHES.get(copies)
        if batch is None:
            batch = _BATCHES[copies] = MappingProxyType(
                {C.code(card): copies for card in C.standard_deck()})
        return batch

    def batch_words(self):
        """The configured decks (the family's DECKS is Double Attack's 8, not options.decks)."""
        decks = self.model.option("decks")
        if self.model.option("double_shoe"):
            return "a double shoe's two batches of %d decks hold" % decks
        return "a batch of %d decks holds" % decks

    # ---- the deal (633a.7(d)) --------------------------------------------------------

    def plan(self, plan):
        return ([DETERMINANT] + plan) if self.model.option("double_shoe") else plan

    def draws_next(self):
        m = self.model
        if m.deal_queue and m.deal_queue[0] == DETERMINANT:
            m.ask_card("the determinant card")
            return True
        return False

    def check_drawn(self, event):
        m = self.model
        side = event.get("side")
        if side is not None:
            if not (m.deal_queue and m.deal_queue[0] == DETERMINANT
                    and m.pending and m.pending["need"] == "card"):
                raise IllegalEvent("a card's side of the double shoe is reported for the "
                                   "determinant card only (633a.7(d)(1))")
            if side not in SIDES:
                raise IllegalEvent("the determinant card's side is %s, not %r (633a.7(d)(1))"
                                   % (" or ".join(SIDES), side))
        m.drawn_from = side

    def places(self, code):
        m = self.model
        if m.deal_queue[0] != DETERMINANT:
            return False
        m.deal_queue.pop(0)
        drawn_from = m.drawn_from or m.option("determinant_side")
        names = "hearts_diamonds" if C.is_red(C.parse(code)) else "spades_clubs"
        used = names == drawn_from
        m.shoe_side = names
        m.determinant = {"card": code, "drawn_from": drawn_from, "deals_from": names,
                         "first_card": used}
        if used:                        # (d)(2): the first player's first card
            first = m.deal_queue.pop(0)
            m.hands[first][0]["cards"].append(code)
            m.note("card", to=first, card=code, determinant=True, section="633a.7(d)(2)")
        else:
            m.note("segregated", card=code, side=drawn_from, section="633a.7(d)(2)")
        m.deal_next()
        return True

    # ---- irregularities (633a.7(c), (e)) ---------------------------------------------

    def irregularity(self, event):
        kind = event.get("kind")
        if kind not in IRREGULARITIES:
            raise IllegalEvent("unknown irregularity %r; the kinds are %s"
                               % (kind, ", ".join(sorted(IRREGULARITIES))))
        if kind == "cover_card":
            self.cover_card(event)
        else:
            self.new_dealer(event)

    def cover_card(self, event):
        """(e): the cover card put aside, the round completed, then the cards (of that side of
        a double shoe, (e)(2), (3)) collected and reshuffled."""
        m = self.model
        if m.state == CLOSED:
            raise IllegalEvent("the table is closed: there is no shoe (633a.7(e))")
        if m.option("double_shoe"):
            side = event.get("side") or m.shoe_side or m.option("determinant_side")
            m.reshuffle_due = ("the cover card came out of the %s side in round %d: that "
                               "side is reshuffled (633a.7(e)(2), (3))" % (side, m.round_no))
            m.note("cover_card", side=side, section="633a.7(e)(2)")
        else:
            m.reshuffle_due = ("the cover card came out in round %d: the cards are "
                               "reshuffled (633a.7(e)(1), (3))" % m.round_no)
            m.note("cover_card", section="633a.7(e)(1)")

    def check_burn(self):
        """(d): a double shoe burns no card, for a new batch or a new dealer."""
        if self.model.option("double_shoe"):
            raise IllegalEvent("a double shoe burns no card: 633a.7(d) applies in lieu of "
                               "633a.7(c)")
