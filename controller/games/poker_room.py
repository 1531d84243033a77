"""Poker room tables (58 Pa. Code 637a): non-banking poker on the game engine.

Players play each other for the pot; the dealer only runs the game (637a(b)). The betting,
side pots and showdown are pokerkit's (controller/games/poker_hand.py); this machine owns what
the controller adds: the deck and its counts, the burn cards, the house take and the pot award
of 637a(e)(6) (controller/games/poker_pot_award.py), the record of the hand.

How the common lifecycle reads at a poker table:
    open_table / new_deck  a deck on the table, taken as verified: the count clock restarts
    shuffle      before each hand; {"count": n} from an approved counting shuffler
                 (options.shuffler = "counting", 637a(e)(4)(ii)): not 52 removes the deck
    wager        {"seat", "wager": "stack", "amount"}: the chips a player has in play for
                 the hand (a scenario's seats {"N": {"stack": cents}})
    no_more_bets the hand begins: at least two players (637a(b)); {"button": seat} may place
                 the dealer button (Hold'em, Omaha); antes and blinds are posted (637a(c))
    card         the next card off the deck: burn, hole (Stud: down or up) or board
    decision     {"seat", "action": fold|check|call|bet|raise|bring_in, "amount"?}; bet and
                 raise amounts are "to" amounts: the seat's whole bet in this betting round
    irregularity {"kind": "losing_hands_count", "counts": {seat: n}}   637a(e)(6)(i)
                 {"kind": "stub_count", "stub": n}   Hold'em and Omaha, during a hand
                 {"kind": "deck_count", "count": n}  between hands     637a(e)(4)(i), (5)
    fault        any device fault locks the table (engine)

Round states and what each waits for (`pending`; each wait is the machine state
<state>_waits_<need>, WAITS below):
    dealing    {"need": "card", "for": "burn" | "board" | "seat N"}
    betting    {"need": "decision", "seat", "allowed", "to_call"?, "min"?, "max"?}
    pot_award  {"need": "losing_hands_count", "expected": {seat: cards}, "section"}

The deck count (637a(e)(4), (5)): `deck_rounds` counts the hands played since the deck was
last found to hold 52 cards (a deck or stub count by the dealer, a counting shuffler's 52, a
new deck). Once it reaches `deck_count_every` (1..5) no hand starts until the deck is counted.
A count other than 52 removes the deck from the table: a hand being played is void (every
stack returned) and no hand is dealt until a new deck is opened.

Readings of the text (documented choices, not in 637a):
  * The deck is shuffled before each hand.
  * A losing hand returned with the wrong number of cards does not change the award (the
    winning hand and the pot are not in doubt); the deck then cannot hold 52 cards, so it is
    removed from the table after the award, as a wrong count is (637a(e)(5)).
  * Odd chips, the rake and the jackpot drop: see poker_hand.py and poker_pot_award.py.
"""

from controller.errors import InvalidCard
from controller.games.engine import DECK_REMOVED, OPENED, ROUND_OVER, SHUFFLED, \
    WAGERS_OPEN, GameModel, IllegalEvent, seat_key, wait_state
from controller.games.poker_hand import ACTIONS, STUD, BettingRefused, Hand, evaluate
from controller.games import poker_pot_award as award
from controller.games import poker_stakes as stakes
from controller.rules import cards as C
from controller.games.declarations import poker as declared

GAME = "poker"
DEALING, BETTING, POT_AWARD = "dealing", "betting", "pot_award"
DECK_SIZE = 52
class PokerRoom(GameModel):
    """One hand of poker room poker per round: stacks, the deal and betting, the pot award."""

    GAME = GAME
    DECLARES = declared.DECLARES     # what the table must know about it
    WAITING = {"decision": "seat {seat} to {allowed_or}",
               "losing_hands_count": "the count of the losing hands (637a(e)(6)(i))"}
    ROUND_STATES = [DEALING, BETTING, POT_AWARD]
    # the round's waits, machine states (engine.py)
    WAITS = {DEALING: ("card",), BETTING: ("decision",), POT_AWARD: ("losing_hands_count",)}
    ANSWERS = {"card": ("card",), "decision": ("decision",)}
    REFUSALS = {"card": "no card is due: the hand waits for {waiting}",
                "decision": "{action} for seat {seat}: no player is asked to act; the hand "
                            "waits for {waiting}"}
    FIRST_ROUND_STATE = DEALING
    PRE_DEAL_WAGERS = ("stack",)
    TABLE_LIMIT_WAGERS = ()          # stakes are the options below, not table_min/table_max
    REQUIRED_WAGERS = ("stack",)
    OPTIONAL_WAGERS = ()
    OPTIONS = stakes.OPTIONS
    DEFAULTS = dict(GameModel.DEFAULTS, options=dict(stakes.OPTION_DEFAULTS))

    def __init__(self, config):
        super().__init__(config)
        self.options = dict(stakes.OPTION_DEFAULTS, **config.get("options", {}))
        stakes.check_stakes(self.options)
        self.button = None            # the dealer button's seat in the last hand
        self.deck_rounds = 0          # hands since the deck was last found to hold 52
        self.reset_round()

    def reset_round(self):
        self.setup = None             # the hand's inputs: variant, betting, players, stacks
        self.log = []                 # the steps pokerkit replays
        self.hands = {}               # seat -> cards dealt to it, in order
        self.board = []
        self.burns = []               # kept apart from the discards (637a(e)(3))
        self.discards = []            # folded and losing hands
        self.out = []                 # every card off the deck this hand
        self.showdown = {}
        self.pots = []
        self.rake = 0
        self.jackpot_drop = 0
        self.deck_counted = False
        self.pending = None
        self._hand = None

    @classmethod
    def round_transitions(cls):
        return [{"trigger": "open_betting", "source": DEALING, "dest": BETTING},
                {"trigger": "deal_cards", "source": BETTING, "dest": DEALING},
                {"trigger": "award_pot", "source": [DEALING, BETTING], "dest": POT_AWARD}]

    # ---- the hand's pokerkit state (never persisted) --------------------------------------

    def hand(self):
        if getattr(self, "_hand", None) is None:
            self._hand = Hand(self.setup, self.options, self.house_rule, self.log)
        return self._hand

    def house_rule(self, total, main, rounds):
        return award.house_take(self.options, total, main, rounds)

    def step(self, step, what):
        try:
            self.hand().apply(step)
        except BettingRefused as e:
            self._hand = None         # rebuilt from the log: the refused step is not in it
            raise IllegalEvent("%s: %s (637a(c))" % (what, e)) from None
        self.log.append(step)

    # ---- the deck: shuffle, counts, removal (637a(e)(4), (5)) ---------------------------

    def on_open_table(self, event):
        super().on_open_table(event)
        self.deck_rounds = 0

    def on_shuffle(self, event):
        if self.state not in (OPENED, SHUFFLED) + ROUND_OVER:
            raise IllegalEvent("the deck is shuffled between hands, not while %s" % self.state)
        count = event.get("count")
        if count is not None:
            if self.options["shuffler"] != "counting":
                raise IllegalEvent("a shuffle count comes from an approved counting shuffler; "
                                   "this table shuffles by hand (637a(e)(4)(ii))")
            self.note("shuffler_count", count=count, section="637a(e)(4)(ii)")
            if count != DECK_SIZE:
                self.remove_the_deck("the shuffler counted %r cards, not 52: the deck is removed "
                                     "from the table (637a(e)(5))" % (count,))
                return
            self.deck_rounds = 0
        super().on_shuffle(event)

    def start_shoe(self, event):
        """A stacked deck (a scenario) holds each of the 52 cards at most once, or as many
        more times as its `deck.extra` says: a deck that is not whole is said explicitly
        (../shared/scenario-format.md), never guessed from a card listed twice."""
        self.extra_cards = {}
        for value in ((event.get("deck") or {}).get("extra") or []):
            code = self.card(value, "deck.extra %r" % (value,), ())
            self.extra_cards[code] = self.extra_cards.get(code, 0) + 1
        seen = []
        for n, value in enumerate(event.get("stack") or [], 1):
            seen.append(self.card(value, "card %d (%r)" % (n, value), seen))

    def card(self, value, what, seen):
        try:
            card = C.parse(value)
        except InvalidCard as e:
            raise InvalidCard("%s: %s" % (what, e)) from None
        if card == C.JOKER:
            raise InvalidCard("%s: a poker deck has no joker: 52 cards (637a(e)(4))" % what)
        code = C.code(card)
        if seen.count(code) > getattr(self, "extra_cards", {}).get(code, 0):
            raise InvalidCard("%s: a second %s; the 52-card deck holds each card once "
                              "(637a(e)(4))" % (what, code))
        return code

    def count_due(self):
        if self.deck_rounds >= self.options["deck_count_every"]:
            raise IllegalEvent("the deck has not been counted in %d rounds: the dealer counts it "
                               "before another hand (637a(e)(4)(i))" % self.deck_rounds)

    def irregular_deck_count(self, event):
        """The entire deck counted between hands."""
        if self.state not in (OPENED, SHUFFLED) + ROUND_OVER:
            raise IllegalEvent("the entire deck is counted between hands, not while %s; in "
                               "Hold'em and Omaha the stub may be counted (637a(e)(4)(i))"
                               % self.state)
        self.counted(event.get("count"), "count", 0)

    def irregular_stub_count(self, event):
        """The stub counted during a Hold'em or Omaha hand: with the cards off the deck."""
        if self.options["variant"] == STUD:
            raise IllegalEvent("the stub may be counted in Hold'em and Omaha only; in Seven Card "
                               "Stud the entire deck is counted (637a(e)(4)(i))")
        if self.state not in self.ROUND_STATES:
            raise IllegalEvent("no hand is being dealt: the stub is counted during a hand; "
                               "count the entire deck (637a(e)(4)(i))")
        self.counted(event.get("stub"), "stub", len(self.out))

    def counted(self, given, key, out):
        if not isinstance(given, int) or isinstance(given, bool):
            raise IllegalEvent("%s_count needs %r, a whole number of cards (637a(e)(4)(i))"
                               % (key, key))
        total = given + out
        self.note("%s_count" % ("deck" if key == "count" else key), counted=given, deck=total,
                  section="637a(e)(4)(i)")
        if total == DECK_SIZE:
            self.deck_counted = True
            if self.state not in self.ROUND_STATES:
                self.deck_rounds = 0
            return
        reason = "the %s count shows %d cards, not 52: the deck is removed from the table " \
                 "(637a(e)(5))" % ("deck" if key == "count" else key, total)
        if self.state in self.ROUND_STATES:
            self.void_round(reason)
        self.remove_the_deck(reason)

    # ---- stacks and the start of the hand (637a(b), (c)) ---------------------------------

    def on_wager(self, event):
        wager, seat, amount = event.get("wager"), event.get("seat"), event.get("amount")
        if self.state == DECK_REMOVED:
            raise IllegalEvent("no hand until a new deck is opened: %s" % self.deck_reason)
        if wager != "stack":
            raise IllegalEvent("%r: at a poker table a seat declares its 'stack', the chips it "
                               "plays the hand with; bets are made in the betting rounds "
                               "(637a(c))" % (wager,))
        if self.state in self.ROUND_STATES:
            raise IllegalEvent("stack at seat %s refused: the hand is being played; chips in "
                               "play are declared before the deal (637a(c))" % seat)
        if self.state in ROUND_OVER + (SHUFFLED,):
            self.count_due()
        unit = self.options["chip_unit"]
        if isinstance(amount, int) and not isinstance(amount, bool) and amount % unit:
            raise IllegalEvent("stack %d at seat %s is not whole chips of %d cents"
                               % (amount, seat, unit))
        super().on_wager(event)

    def on_no_more_bets(self, event):
        players = button = None
        if self.state == WAGERS_OPEN:
            self.count_due()
            seats = sorted(self.wagers, key=int)
            if len(seats) < 2:
                raise IllegalEvent("poker is played with no less than two players; %d seated "
                                   "with chips (637a(b))" % len(seats))
            if self.options["variant"] == STUD:
                players = seats
            else:
                button = self.find_button(seats, event.get("button"))
                i = seats.index(button) + 1
                players = seats[i:] + seats[:i]     # from the button's left round to it
        super().on_no_more_bets(event)
        if self.state != DEALING:
            return                    # voided by the engine (a reshuffle was due)
        self.button = button
        self.setup = {"variant": self.options["variant"], "betting": self.options["betting"],
                      "players": players, "stacks": [self.wagers[s]["stack"] for s in players]}
        self.hands = {s: [] for s in players}
        try:
            kit = self.hand().kit
        except (ValueError, BettingRefused) as e:
            raise IllegalEvent("the hand cannot be dealt: %s" % e) from None
        posted = {}
        for op in kit.operations:
            if hasattr(op, "amount") and op.amount:
                seat = players[op.player_index]
                posted[seat] = posted.get(seat, 0) + op.amount
        self.note("hand", players=players, button=self.button, stacks=self.setup["stacks"],
                  posted=posted, section="637a(c)")
        self.advance()

    def find_button(self, seats, asked):
        """The dealer button: as the event places it, else moved clockwise to the next
        player; for the table's first hand options.button, or the highest seat in the hand."""
        if asked is not None:
            button = seat_key(asked)
        elif self.button is None and self.options["button"]:
            button = str(self.options["button"])
        elif self.button is None:
            button = seats[-1]
        else:
            later = [s for s in seats if int(s) > int(self.button)]
            button = (later or seats)[0]
        if button not in seats:
            raise IllegalEvent("the dealer button is at seat %s, which has no player in the "
                               "hand (players: %s)" % (button, ", ".join(seats)))
        return button

    # ---- cards and betting rounds (637a(c)) ---------------------------------------------

    def advance(self):
        """The hand's next need, and the state that waits for it."""
        kind, seat = self.hand().need()
        if kind in ("burn", "hole", "board"):
            if self.state == BETTING:
                self.deal_cards()
            self.pending = {"need": "card", "for": "seat " + seat if kind == "hole" else kind}
        elif kind == "decision":
            if self.state == DEALING:
                self.open_betting()
            self.pending = dict({"need": "decision", "seat": seat}, **self.hand().decision())
        else:
            self.begin_award()

    def on_card(self, event):
        """Taken only in dealing_waits_card (ANSWERS)."""
        code = self.card(event.get("card"), "card", self.out)
        kind, seat = self.hand().need()
        self.step([kind, code], "card %s" % code)
        self.out.append(code)
        if kind == "burn":
            self.burns.append(code)
            self.note("burn", card=code, burns=len(self.burns), section="637a(e)(3)")
        elif kind == "board":
            self.board.append(code)
            self.note("board", card=code, section="637a(c)")
        else:
            self.hands[seat].append(code)
            self.note("deal", seat=seat, card=code, section="637a(c)")
        self.advance()

    def on_decision(self, event):
        """Taken only in betting_waits_decision (ANSWERS)."""
        p = self.pending
        seat, action, amount = str(event.get("seat")), event.get("action"), event.get("amount")
        if seat != p["seat"]:
            raise IllegalEvent("seat %s acts (%s) out of turn: the dealer asks seat %s to act "
                               "(637a(e)(2))" % (seat, action, p["seat"]))
        if action not in ACTIONS:
            raise IllegalEvent("%r is not a poker action; one of %s" % (action, ", ".join(ACTIONS)))
        if action not in p["allowed"]:
            raise IllegalEvent("seat %s cannot %s now: it may %s (637a(c))"
                               % (seat, action, ", ".join(p["allowed"])))
        amount = self.check_amount(seat, action, amount, p)
        self.step(["act", seat, action, amount], "seat %s %s%s" % (
            seat, action, "" if amount is None else " %d" % amount))
        if action == "fold":
            self.discards.extend(self.hands[seat])
        self.note(action, seat=seat, amount=amount, section="637a(c)")
        self.advance()

    def check_amount(self, seat, action, amount, p):
        if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool)
                                   or amount < 0):
            raise IllegalEvent("seat %s %s: the amount is whole cents, not %r"
                               % (seat, action, amount))
        if action in ("bet", "raise"):
            if amount is None:
                if self.options["betting"] != "limit":
                    raise IllegalEvent("seat %s %s needs its amount: the seat's bet this round "
                                       "comes to at least %d" % (seat, action, p["min"]))
                return p["min"]
            if amount % self.options["chip_unit"]:
                raise IllegalEvent("seat %s %s %d is not whole chips of %d cents"
                                   % (seat, action, amount, self.options["chip_unit"]))
            return amount
        if action == "call" and amount is not None and amount != p["to_call"]:
            raise IllegalEvent("seat %s calls %d, but the call is %d" % (seat, amount,
                                                                         p["to_call"]))
        if action in ("check", "fold") and amount:
            raise IllegalEvent("seat %s %ss: no amount goes with it" % (seat, action))
        return None

    # ---- the pot award (637a(d), (e)(6)) --------------------------------------------------

    def begin_award(self):
        """The showdown (if two or more remain), then the losing hands collected and
        counted (637a(e)(6)(i))."""
        self.award_pot()
        hand = self.hand()
        for seat in hand.shown:
            self.showdown[seat] = dict({"cards": list(self.hands[seat])},
                                       **evaluate(self.setup["variant"], self.hands[seat],
                                                  self.board))
        if hand.shown:
            self.note("showdown", seats=list(hand.shown), section="637a(d)")
        losers = hand.folded() + [s for s in hand.killed() if s not in hand.folded()]
        for seat in hand.killed():
            self.discards.extend(self.hands[seat])
        expected = {s: len(self.hands[s]) for s in sorted(losers, key=int)}
        self.note("losing_hands_collected", seats=sorted(losers, key=int),
                  section="637a(e)(6)(i)")
        if expected:
            self.pending = {"need": "losing_hands_count", "expected": expected,
                            "section": "637a(e)(6)(i)"}
        else:
            self.finish_award(None)

    def irregular_losing_hands_count(self, event):
        """The dealer's count of the cards returned by each losing hand."""
        p = self.pending or {}
        if self.machine_state != wait_state(POT_AWARD, "losing_hands_count"):
            raise IllegalEvent("no losing hands are being counted: they are counted at the pot "
                               "award, before the pot is pushed (637a(e)(6)(i))")
        counts = event.get("counts")
        if not isinstance(counts, dict) or sorted(counts, key=str) != sorted(p["expected"]):
            raise IllegalEvent("losing_hands_count gives 'counts' for each losing seat (%s) "
                               "(637a(e)(6)(i))" % ", ".join(p["expected"]))
        wrong = {s: n for s, n in counts.items() if n != p["expected"][s]}
        self.note("losing_hands_counted", counts=dict(counts), section="637a(e)(6)(i)")
        reason = None
        if wrong:
            reason = "the losing hands returned the wrong number of cards (%s): the deck is " \
                     "removed from the table (637a(e)(6)(i), (5))" % ", ".join(
                         "seat %s %r of %d" % (s, n, p["expected"][s]) for s, n in wrong.items())
        self.finish_award(reason)

    def finish_award(self, remove_reason):
        """Side pots, rake, jackpot drop, then the pot pushed (637a(e)(6)(ii)-(iv))."""
        hand = self.hand()
        pots, (rake, drop) = award.award(hand)
        award.record(self, pots, rake, drop)
        self.note("winning_hand_collected", seats=[s for s in hand.in_hand()],
                  section="637a(e)(6)")
        self.note("burns_counted", count=len(self.burns), discards=len(self.discards),
                  section="637a(e)(3)")
        self.pots, self.rake, self.jackpot_drop = pots, rake, drop
        self.results = award.results(hand, pots)
        self.status = "settled"
        self.end_round()
        self.settle()
        if remove_reason:
            self.remove_the_deck(remove_reason)

    def end_round(self):
        self.pending = None
        self.deck_rounds = 0 if self.deck_counted else self.deck_rounds + 1
        if not self.reshuffle_due:
            self.reshuffle_due = "the deck is shuffled before each hand"

    def void_round(self, reason):
        """Every stack goes back as it was before the hand."""
        self.end_round()
        super().void_round(reason)

    # ---- irregularities, what the round waits for, scenarios ------------------------------

    def on_irregularity(self, event):
        kind = event.get("kind")
        handler = getattr(self, "irregular_" + str(kind), None)
        if handler is None:
            raise IllegalEvent("unknown irregularity %r; the kinds are deck_count, "
                               "losing_hands_count, stub_count" % (kind,))
        self.not_locked()
        handler(event)
