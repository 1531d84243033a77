"""Flop Poker (58 Pa. Code ch. 583): one round of 583.7-583.13 on the game engine.

Ante and Pot (required, 583.7(d)(1)) and the optional Three Card Bonus (583.7(d)(3)) before
"no more bets" (583.7(c)) -> the Pot Wagers to the centre (583.8(b), 583.9(b), 583.10(a)(2))
-> three cards to each player from seat 1 clockwise, one at a time (583.8(c), 583.9(c)) or in
stacks of three from an automated dealing shoe, then the community stack under a cover card
(583.10(b)) -> each player from seat 1 folds or makes the Flop Wager equal to the Ante
(583.11(b)) -> one card burned and the flop dealt face up, or the community stack turned up
(583.11(c)) -> settlement one player at a time from the dealer's right (583.11(d)), then the Pot
(583.11(e)), through controller/rules/flop_poker.py.

Round states and what each waits for (`pending`; each wait is the machine state
<state>_waits_<need>, WAITS below):
    dealing     {"need": "card", "for": "seat N" | "community"}
    stub_count  {"need": "stub_count", "section": ...}: the dealer's count of the stub, when due
    decisions   {"need": "decision", "seat": s, "allowed": ["flop", "fold"]}
    flop        {"need": "card", "for": "burn" | "community"}
Wagers in the output: ante, pot, three_card_bonus, flop (a fold has no flop).

Table options (config `options`):
    dealing          "manual_shoe" (583.8), "hand" (583.9) or "automated_shoe" (583.10)
    shuffler         "manual", "automated" or "counting": an automated card shuffling device
                     that counts the deck after each shuffle (583.5(b))
    stub_count_every the house's interval, 1..5 rounds, for the dealer's stub count

The deck, its hours and shuffles, the stub counts (583.8(e)-(g), 583.9(e)-(g), 583.10(d)-(f)),
the irregularities and device faults of 583.13 are controller/games/single_deck/base.py, with the
sections below. A round due a stub count waits in `stub_count` once the stub is out (after the
flop; from an automated shoe after the community stack, 583.10(c)). A scenario's stub count is
what its deck holds (the listed cards, the rest of the deck, `deck.missing` and `deck.extra`),
the dealer finding no misdeal.

Readings of the text:
  * The cards are shuffled after every round (583.5(a)): a new round needs a shuffle event.
  * A Pot taken by every player in the round (a lone player, or all tied) is a push.
  * A void round returns every wager, the collected Ante of a fold and the Flop Wagers too.
  * A device out of order (583.13(f)) is covered first (a shuffle by hand is refused while the
    automated shuffler is in use); the table then deals from a manual shoe or shuffles by hand
    until it is closed and opened again (controller/games/out_of_order.py).
  * Any shuffler or dealing shoe fault also locks the table (583.13(d), (e)), as every device
    fault does.
"""

from controller.games.engine import ROUND_OVER, SHUFFLED, WAGERS_OPEN, IllegalEvent, seat_key
from controller.games.single_deck.base import AUTOMATED_SHOE, HAND, MANUAL_SHOE, OPTION_DEFAULTS, \
    SingleDeckGame, deck_options
from controller.rules import cards as C
from controller.rules import flop_poker as F
from controller.games.declarations import flop_poker as declared

GAME = "flop-poker"
DEALING, STUB, DECISIONS, FLOP = "dealing", "stub_count", "decisions", "flop"
SECTIONS = {
    "deck": "583.3(a)", "decks": "583.3(a), (b)", "shuffle": "583.5(a)",
    "shuffler_count": "583.5(b)", "cut": "583.5(d)", "shuffling": "583.5",
    "dealings": "583.8-583.10", "hand_needs_shuffler": "583.9(a)(1)", "irregularities": "583.13",
    "card_face_up": "583.13(a)", "card_drawn_in_error": "583.13(b)",
    "wrong_number_of_cards": "583.13(c)", "shuffler_fault": "583.13(d)",
    "shoe_fault": "583.13(e)", "device_out_of_order": "583.13(f)",
    MANUAL_SHOE: {"hours": (8, "583.3(c)(2)"), "pots": "583.8(b)", "deal": "583.8(c)",
                  "count": "583.8(e)", "count_right": "583.8(f)", "count_wrong": "583.8(g)"},
    HAND: {"hours": (4, "583.3(c)(1)"), "pots": "583.9(b)", "deal": "583.9(c)",
           "count": "583.9(e)", "count_right": "583.9(f)", "count_wrong": "583.9(g)"},
    AUTOMATED_SHOE: {"hours": (8, "583.3(c)(2)"), "pots": "583.10(a)(2)", "deal": "583.10(b)",
                     "count": "583.10(d)", "count_right": "583.10(e)",
                     "count_wrong": "583.10(f)"},
}


class FlopPoker(SingleDeckGame):
    """Players against a posted paytable (Ante, Flop, Three Card Bonus) and each other (Pot)."""

    GAME = GAME
    DECLARES = declared.DECLARES     # what the table must know about it
    WAITING = {"decision": "seat {seat} to fold or make the Flop Wager (583.11(b))"}
    ROUND_STATES = [DEALING, STUB, DECISIONS, FLOP]
    # the round's waits, machine states (engine.py)
    WAITS = {DEALING: ("card",), STUB: ("stub_count",), DECISIONS: ("decision",),
             FLOP: ("card",)}
    ANSWERS = {"card": ("card",), "decision": ("decision",)}
    REFUSALS = {"card": "no card is due: the round waits for {waiting}",
                "decision": "{action} for seat {seat}: no decision is asked now; the round "
                            "waits for {waiting}"}
    FIRST_ROUND_STATE = DEALING
    PRE_DEAL_WAGERS = ("ante", "pot", "three_card_bonus")
    TABLE_LIMIT_WAGERS = ("ante", "pot")
    REQUIRED_WAGERS = ("ante", "pot")
    OPTIONAL_WAGERS = ("three_card_bonus",)
    SECTIONS = SECTIONS
    OPTIONS = deck_options(SECTIONS)
    DEFAULTS = {"table_min": 100, "table_max": 1000000, "offered": {"three_card_bonus": True},
                "limits": {}, "paytables": {}, "options": dict(OPTION_DEFAULTS)}
    # The words its scenario library pins for a card the deck cannot give (583.3(a)).
    CARD_REFUSALS = {
        "not_a_card": "{what}: {error}",
        "joker": "{what}: Flop Poker's deck has no joker ({section})",
        "twice": "{what}: {code} is already out of the deck this round; one deck holds each "
                 "card once ({section})",
        "stacked_twice": "card {n}: {code} is stacked twice; one deck holds each card once "
                         "({section})",
    }

    def reset_round(self):
        super().reset_round()
        self.players = []            # seats in the round, from the dealer's left
        self.hands = {}              # seat -> [card codes]
        self.community = []
        self.burn = None
        self.deal_queue = []         # where the next cards go
        self.folded = []
        self.pot = 0
        self.seat_players = {}       # seat -> player, when wagers name their player (583.7(e))
        self.pending = None

    @classmethod
    def round_transitions(cls):
        return [{"trigger": "count_stub", "source": [DEALING, FLOP], "dest": STUB},
                {"trigger": "ask_players", "source": [DEALING, STUB], "dest": DECISIONS},
                {"trigger": "deal_flop", "source": DECISIONS, "dest": FLOP}]

    def round_seats(self):
        return self.players

    def after_stub_count(self):
        """From an automated shoe the decisions come next (583.10(c)); else settlement."""
        if self.dealing == AUTOMATED_SHOE:
            self._ask_players()
        else:
            self._settle_round()

    # ---- wagers (583.7) -------------------------------------------------------------------

    def on_wager(self, event):
        wager, seat = event.get("wager"), event.get("seat")
        if self.state in self.ROUND_STATES:
            if wager == "flop":
                raise IllegalEvent("the Flop Wager is made when the dealer asks seat %s to fold "
                                   "or flop (583.11(b))" % seat)
            raise IllegalEvent("wager %s at seat %s refused: \"no more bets\" was called; no "
                               "wager is made, increased or withdrawn after it (583.7(c))"
                               % (wager, seat))
        if wager == "three_card_bonus" and event.get("amount") and \
                not self.config["offered"].get("three_card_bonus"):
            raise IllegalEvent("the Three Card Bonus Wager is not offered at this table "
                               "(583.7(d)(3))")
        player = event.get("player")
        if player is not None and event.get("amount"):
            owners = {} if self.state in ROUND_OVER + (SHUFFLED,) else self.seat_players
            other = [s for s, p in owners.items() if p == str(player) and s != str(seat)]
            if other:
                raise IllegalEvent("player %s already wagers at seat %s: one player position "
                                   "per player (583.7(e))" % (player, other[0]))
        super().on_wager(event)
        key = seat_key(seat)
        if player is not None and key in self.wagers:
            self.seat_players[key] = str(player)
        elif key not in self.wagers:
            self.seat_players.pop(key, None)

    def check_limits(self, seat, wager, amount):
        if wager == "pot" and amount != self.config["table_min"]:
            raise IllegalEvent("pot %d at seat %s is not the table minimum %d (583.7(d)(1))"
                               % (amount, seat, self.config["table_min"]))
        super().check_limits(seat, wager, amount)

    # ---- "no more bets" and the deal (583.8-583.10) ---------------------------------------

    def on_no_more_bets(self, event):
        if self.state == WAGERS_OPEN:
            for seat, placed in sorted(self.wagers.items()):
                missing = [w.capitalize() for w in self.REQUIRED_WAGERS if w not in placed]
                if missing:
                    raise IllegalEvent("seat %s has no %s Wager: a player places a Pot Wager "
                                       "and an Ante Wager to play (583.7(d)(1))"
                                       % (seat, " or ".join(missing)))
        super().on_no_more_bets(event)
        self.players = sorted(self.wagers, key=int)
        self.hands = {s: [] for s in self.players}
        self.pot = sum(self.wagers[s]["pot"] for s in self.players)
        self.note("pot_to_centre", amount=self.pot, section=self.section("pots"))
        if self.dealing == AUTOMATED_SHOE:
            self.deal_queue = [s for s in self.players for _ in range(3)] + ["community"] * 3
        else:
            self.deal_queue = [s for _ in range(3) for s in self.players]
        self._ask_card()

    def _ask_card(self):
        target = self.deal_queue[0]
        self.pending = {"need": "card",
                        "for": target if target in ("burn", "community") else "seat " + target}

    def on_card(self, event):
        """Taken only in a card wait (ANSWERS); the queue is the wait's own check."""
        if not self.deal_queue:
            raise IllegalEvent("no card is due: the round waits for %s" % self.waiting_for())
        code = self.take(event.get("card"), "card")
        target = self.deal_queue.pop(0)
        if target == "burn":
            self.burn = code
            self.note("burn", card=code, section="583.11(c)")
        elif target == "community":
            self.community.append(code)
            self.note("community", card=code, section="583.11(c)" if self.state == FLOP
                      else self.section("deal"))
        else:
            self.hands[target].append(code)
            self.note("deal", seat=target, card=code, section=self.section("deal"))
        if self.deal_queue:
            self._ask_card()
        elif self.state == DEALING:
            self._dealt()
        else:
            self.stub_out(self.count_stub)

    def _dealt(self):
        """Every player has three cards (and, from an automated shoe, the community stack
        lies under a cover card: the stub comes out now, 583.10(c))."""
        if self.dealing == AUTOMATED_SHOE:
            self.stub_out(self.count_stub)
        else:
            self._ask_players()

    # ---- fold or Flop Wager (583.11(b)) ----------------------------------------------------

    def _ask_players(self):
        if self.state != DECISIONS:
            self.ask_players()
        self._ask_decision(self.players[0])

    def _ask_decision(self, seat):
        self.pending = {"need": "decision", "seat": seat, "allowed": ["flop", "fold"]}

    def on_decision(self, event):
        p = self.pending
        seat, action = str(event.get("seat")), event.get("action")
        if seat != p["seat"]:
            raise IllegalEvent("seat %s acts (%s), but the dealer asks seat %s first, from the "
                               "dealer's left clockwise (583.11(b))" % (seat, action, p["seat"]))
        ante = self.wagers[seat]["ante"]
        amount = event.get("amount")
        if action == "fold":
            if amount:
                raise IllegalEvent("seat %s folds: a fold makes no Flop Wager (583.1)" % seat)
            self.folded.append(seat)
            self.note("fold", seat=seat, section="583.11(b)")
            self.note("collect", seat=seat, wager="ante", amount=ante, section="583.11(b)")
        elif action == "flop":
            if amount is None:
                raise IllegalEvent("flop needs its amount: the Flop Wager equals the Ante %d "
                                   "(583.7(d)(2), 583.11(b))" % ante)
            if amount != ante or not isinstance(amount, int) or isinstance(amount, bool):
                raise IllegalEvent("flop %r is not equal to the Ante %d: the Flop Wager equals "
                                   "the Ante Wager (583.7(d)(2), 583.11(b))" % (amount, ante))
            self.wagers[seat]["flop"] = amount
            self.note("flop_wager", seat=seat, amount=amount, section="583.11(b)")
        else:
            raise IllegalEvent("%r is not a Flop Poker decision: seat %s folds or makes the Flop "
                               "Wager (583.11(b))" % (action, seat))
        later = self.players[self.players.index(seat) + 1:]
        if later:
            self._ask_decision(later[0])
        elif self.dealing == AUTOMATED_SHOE:
            self.note("flop_turned_up", cards=list(self.community), section="583.11(c)")
            self._settle_round()
        else:
            self.deal_flop()
            self.deal_queue = ["burn"] + ["community"] * 3
            self._ask_card()

    # ---- settlement (583.11(d), (e); 583.12) ----------------------------------------------

    def _settle_round(self):
        """One player at a time from the dealer's right: Three Card Bonus, then Ante and Flop;
        then the Pot to the best hand, folded players included."""
        self.pending = None
        community = C.parse_all(self.community)
        order = sorted(self.players, key=int, reverse=True)
        values = {}
        for seat in order:
            cards, placed = C.parse_all(self.hands[seat]), self.wagers[seat]
            hand, values[seat], five = F.flop_hand(cards, community)
            self.note("turned_up", seat=seat, cards=list(self.hands[seat]), hand=hand,
                      five=C.codes(five), section="583.11(d)")
            got = {}
            if "three_card_bonus" in placed:
                got["three_card_bonus"] = list(F.settle_three_card_bonus(
                    cards, placed["three_card_bonus"]))
            folded = seat in self.folded
            for wager, outcome in F.settle_ante_and_flop(cards, community, placed["ante"],
                                                         placed.get("flop", 0), folded).items():
                got[wager] = list(outcome)
            for wager, (result, net) in got.items():
                if not (folded and wager == "ante"):      # collected at the fold
                    self.note("pay" if net > 0 else "collect", seat=seat, wager=wager,
                              amount=abs(net))
            self.results[seat] = got
        shares = F.pot_shares(values, {s: self.wagers[s]["pot"] for s in order})
        best = max(values.values())
        for seat in order:
            net = shares[seat]
            result = "lose" if values[seat] != best else ("win" if net > 0 else "push")
            self.results[seat]["pot"] = [result, net]
        winners = [s for s in order if values[s] == best]
        self.note("pot", amount=self.pot, to=winners, section="583.11(e)")
        self.status = "settled"
        self.end_round()
        self.settle()

    def end_round(self, reshuffle=None):
        self.deal_queue = []
        super().end_round(reshuffle)
