"""Blackjack's shoe and deal (633a.7(a)-(f)): the batch the cards are counted against, the
burn card, the double shoe's determinant card, the order of the deal and the cover card.

A mixin of controller/games/blackjack/model.py's model (its `option`, and the blackjack base's
deal queue and card counting).

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

from controller.games.blackjack.hands import DEALER
from controller.games.engine import CLOSED, IllegalEvent
from controller.rules import cards as C

_BATCHES = {}                     # copies of each card -> {code: copies} (read-only)
DETERMINANT = "determinant"
SIDES = ("hearts_diamonds", "spades_clubs")
IRREGULARITIES = {"cover_card": "633a.7(e)", "new_dealer": "633a.7(c)"}


class Shoe:
    """Mixin of the Blackjack model: the shoe, the deal and the irregularities of 633a.7."""

    def batch_counts(self):
        """One batch of `decks` decks; a double shoe's two sides counted together.

        Asked twice for every card out of the shoe: built once per number of copies and
        shared, read-only (it was rebuilt each time, 7% of a simulated round's samples)."""
        copies = self.option("decks") * (2 if self.option("double_shoe") else 1)
        batch = _BATCHES.get(copies)
        if batch is None:
            batch = _BATCHES[copies] = MappingProxyType(
                {C.code(card): copies for card in C.standard_deck()})
        return batch


    # ---- the deal (633a.7(d), (f)) ----------------------------------------------------------

    def deal_plan(self):
        """(f)(1)-(4): each box from the dealer's left, the up card, each box, the hole card."""
        seats = self.seats()
        plan = seats + [DEALER] + seats + [DEALER]
        return ([DETERMINANT] + plan) if self.option("double_shoe") else plan

    def deal_next(self):
        if self.deal_queue and self.deal_queue[0] == DETERMINANT:
            self.ask_card("the determinant card")
            return
        super().deal_next()
        if self.pending and self.pending.get("for") == "the dealer's first card":
            self.pending["for"] = "the dealer's up card"

    def on_card(self, event):
        side = event.get("side")
        if side is not None:
            if not (self.deal_queue and self.deal_queue[0] == DETERMINANT
                    and self.pending and self.pending["need"] == "card"):
                raise IllegalEvent("a card's side of the double shoe is reported for the "
                                   "determinant card only (633a.7(d)(1))")
            if side not in SIDES:
                raise IllegalEvent("the determinant card's side is %s, not %r (633a.7(d)(1))"
                                   % (" or ".join(SIDES), side))
        self.drawn_from = side
        super().on_card(event)

    def card_in_dealing(self, code):
        if self.deal_queue[0] != DETERMINANT:
            super().card_in_dealing(code)
            return
        self.deal_queue.pop(0)
        drawn_from = self.drawn_from or self.option("determinant_side")
        names = "hearts_diamonds" if C.is_red(C.parse(code)) else "spades_clubs"
        used = names == drawn_from
        self.shoe_side = names
        self.determinant = {"card": code, "drawn_from": drawn_from, "deals_from": names,
                            "first_card": used}
        if used:                        # (d)(2): the first player's first card
            first = self.deal_queue.pop(0)
            self.hands[first][0]["cards"].append(code)
            self.note("card", to=first, card=code, determinant=True, section="633a.7(d)(2)")
        else:
            self.note("segregated", card=code, side=drawn_from, section="633a.7(d)(2)")
        self.deal_next()


    # ---- irregularities and devices (633a.7(c), (e)) ---------------------------------------

    def on_irregularity(self, event):
        self.not_locked()
        kind = event.get("kind")
        if kind not in IRREGULARITIES:
            raise IllegalEvent("unknown irregularity %r; the kinds are %s"
                               % (kind, ", ".join(sorted(IRREGULARITIES))))
        getattr(self, "irregular_" + kind)(event)

    def irregular_cover_card(self, event):
        """(e): the cover card put aside, the round completed, then the cards (of that side of
        a double shoe, (e)(2), (3)) collected and reshuffled."""
        if self.state == CLOSED:
            raise IllegalEvent("the table is closed: there is no shoe (633a.7(e))")
        if self.option("double_shoe"):
            side = event.get("side") or self.shoe_side or self.option("determinant_side")
            self.reshuffle_due = ("the cover card came out of the %s side in round %d: that "
                                  "side is reshuffled (633a.7(e)(2), (3))"
                                  % (side, self.round_no))
            self.note("cover_card", side=side, section="633a.7(e)(2)")
        else:
            self.reshuffle_due = ("the cover card came out in round %d: the cards are "
                                  "reshuffled (633a.7(e)(1), (3))" % self.round_no)
            self.note("cover_card", section="633a.7(e)(1)")

    BURN_SECTION = "633a.7(c)"

    def check_burn(self):
        """(d): a double shoe burns no card, for a new batch or a new dealer."""
        if self.option("double_shoe"):
            raise IllegalEvent("a double shoe burns no card: 633a.7(d) applies in lieu of "
                               "633a.7(c)")

