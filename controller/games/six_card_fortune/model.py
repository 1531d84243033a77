"""Six-Card Fortune Pai Gow Poker (58 Pa. Code ch. 670a): the round of 670a.7-670a.13.

Wagers (six_card_fortune required, 670a.7(d); fortune_bonus, insurance, progressive optional,
670a.7(e)) -> "no more bets": Envy lammers on Qualifying Wagers, the progressive lock-out and the
meter contributions (670a.8(b)) -> the starting position (670a.5(i)) -> six cards one at a time
clockwise to all seven positions (670a.8(d)) -> the 11-card stub (670a.8(e), (f)) -> unwagered
stacks collected (670a.8(g)) -> seat by seat from the dealer's right: the Double Down offer, then
the seat sets its hands (670a.11(b), (c)) -> the dealer sets by the house way (670a.11(d)) ->
settlement (670a.11(e)-(h), 670a.12). The players' and dealer's turns are in
players.py, settlement in settle.py, the irregularities of
670a.13 in irregularities.py (this folder).

States after "no more bets" and what the round waits for (`pending`; each wait is the
machine state <state>_waits_<need>, WAITS below):
    starting_position  {"need": "dice", "for": ...}  three dice, Event("dice", {"dice": [a, b, c]})
                       or {"no_roll": why} (670a.13(a), (b): shaken again). With the random
                       number generator nothing is asked: the model draws 1..7 itself from its
                       injected source (`secrets` unless a test injects one) and records it.
    dealing            {"need": "card", "for": "seat 3" | "dealer"}, 42 times
    players            {"need": "decision", "seat", "allowed": ["play_hand", "void_hand"]}
                       (a card exposed to that seat, 670a.13(d)); {"need": "offer", "seat",
                       "offer": "double_down"}; {"need": "decision", "seat", "allowed": ["set"]}
    dealer_setting     {"need": "dealer_setting", "house_way": {"high", "low"}}: the dealer's
                       own setting, Event("decision", {"seat": "dealer", "action": "set",
                       "low": card}); a wrong one is reset to the house way (670a.13(i))

Readings of the text:
  * Every round is dealt from a freshly shuffled deck (670a.5(a)): after a round the next
    wager waits for a `shuffle` event.
  * The starting position in a scenario is its `start_position`: an int is the random number
    generator's value, {"dice": [a, b, c]} the dice; that form decides the method for the
    round (a config that names the other method contradicts it and is refused).
  * The stub: the deck holds the cards a scenario's shoe holds (its listed cards, then the rest
    of the deck less `deck.missing`, plus `deck.extra`: controller/lab/scenario.py), or the `count`
    a shuffle event gives (a shuffler that counts), else 53. After the deal that count less the
    42 cards dealt must be 11; a card found face up went to the discard rack (670a.13(f)) and
    is counted with the stub, not missing. A scenario deck with a card missing or extra: no
    position was misdealt, so all hands are void and the deck is removed from the table
    (670a.8(f)); the next round waits for a new deck. A dealer who counts a different stub
    reports it: Event("irregularity", {"kind": "stub_count", "count": n, "misdealt": bool}).
  * The Double Down offer and the setting go seat by seat from the dealer's right, the order
    of 670a.11(e): a seat is offered the Double Down, then sets its hands, then the next seat.
  * Envy lammers belong to a wager (670a.8(b)(1) places one "next to that player's wager"): a
    Fortune Bonus of $5 or more earns Fortune Bonus Envy Bonuses, a Progressive of $5 or more
    Progressive Envy Bonuses. Only Qualifying Wagers ($5 or more, 670a.1) carry a lammer, so
    the printed $1 schedules are never reached; a larger wager is paid on the $5 schedule.
  * A hand voided by its player (670a.13(d)) returns every wager of that seat and is neither
    a holder of an Envy Bonus Qualifying Hand nor paid Envy Bonuses.
  * Meter contributions are made once, at "no more bets". A void round returns every wager
    and takes their contributions back off the meter (as Raise It Up does); a hand its player
    voids (670a.13(d)) keeps its contribution on the meter: the round goes on and the system
    accepted the wager.
"""

from controller.errors import ConfigError, InvalidCard, RulesError
from controller.games.six_card_fortune import irregularities
from controller.games.engine import OPENED, ROUND_OVER, SHUFFLED, WAGERS_OPEN, \
    GameModel, IllegalEvent, seat_key
from controller.games.out_of_order import WHILE_LOCKED, OutOfOrder
from controller.games.six_card_fortune.players import DEALER, DEALER_SETTING, PLAYERS, \
    PlayersAndDealer, card_code
from controller import progressive
from controller.progressive import contribute, new_meter
from controller.rules import paigow as pg
from controller.games.declarations import six_card_fortune as declared
from controller.games.declarations.six_card_fortune import secrets_rng  # its declared RNG

GAME = "six-card-fortune-pai-gow"
START, DEALING = "starting_position", "dealing"
IN_ROUND = (START, DEALING, PLAYERS, DEALER_SETTING)
SEATS_FROM_DEALERS_RIGHT = ("6", "5", "4", "3", "2", "1")
QUALIFYING = 500                  # a Qualifying Wager is at least $5 (670a.1)
CARDS_DEALT = pg.CARDS_PER_HAND * 7
OPTIONAL_SECTIONS = {"double_down": "670a.7(e)(1)", "fortune_bonus": "670a.7(e)(2)",
                     "insurance": "670a.7(e)(3)", "progressive": "670a.7(e)(4)"}
# Each dealing procedure's sections: manual shoe 670a.8, by hand 670a.9, automated shoe 670a.10.
DEALING_SECTIONS = {
    "manual_shoe": {"nmb": "670a.8(b)", "deal": "670a.8(d)", "stub": "670a.8(e)",
                    "short": "670a.8(f)", "collect": "670a.8(g)"},
    "hand": {"nmb": "670a.9(a)(3)", "deal": "670a.9(c)", "stub": "670a.9(d)",
             "short": "670a.9(e)", "collect": "670a.9(f)"},
    "automated_shoe": {"nmb": "670a.10(a)(2)", "deal": "670a.10(c)", "stub": "670a.10(d)",
                       "short": "670a.10(e)", "collect": "670a.10(f)"},
}
NO_ROLL = {"not_flat": ("the dice did not all land flat on the bottom of the shaker", "670a.13(a)"),
           "die_out": ("a die fell out of the shaker", "670a.13(b)")}


def _one_of(*choices):
    return lambda v: None if v in choices else "one of %s" % ", ".join(choices)


class SixCardFortune(progressive.LinkedGame, OutOfOrder, GameModel):
    GAME = GAME
    DECLARES = declared.DECLARES     # what the table must know about it
    # the players' turn and the dealer's setting, a part it holds (players.py)
    PARTS = {"players": PlayersAndDealer}
    # A shuffler or dealing shoe that cannot be used is covered before any other method
    # (670a.13(n)); the sections the shared mixin names (controller/games/out_of_order.py).
    OUT_OF_ORDER_DEVICES = ("shuffler", "dealing_shoe")
    SECTIONS = {"device_out_of_order": "670a.13(n)", "shuffling": "670a.5(a)"}
    WAITING = {"offer": "seat {seat}'s answer to the Double Down offer",
               "dealer_setting": "the dealer's setting"}
    ROUND_STATES = list(IN_ROUND)
    FIRST_ROUND_STATE = START
    # the round's waits, machine states (engine.py): the dice of the starting position, each
    # of the 42 cards, a seat's decision or Double Down offer, the dealer's own setting
    WAITS = {START: ("dice",), DEALING: ("card",), PLAYERS: ("decision", "offer"),
             DEALER_SETTING: ("dealer_setting",)}
    ANSWERS = {"dice": ("dice",), "card": ("card",),
               "decision": ("decision", "offer", "dealer_setting")}
    REFUSALS = {"dice": "no roll of the dice is due: {waiting}",
                "card": "no card is due: {waiting}",
                "decision": "{action} for seat {seat}: no player decision is due: {waiting}"}
    PRE_DEAL_WAGERS = ("six_card_fortune", "fortune_bonus", "insurance", "progressive")
    TABLE_LIMIT_WAGERS = ("six_card_fortune",)
    REQUIRED_WAGERS = ("six_card_fortune",)
    OPTIONAL_WAGERS = ("double_down", "fortune_bonus", "insurance", "progressive")
    OPTIONS = {
        # 670a.5(i): three dice in a Pai Gow Poker shaker, or a random number generator
        "start_method": (str, _one_of("rng", "dice")),
        # 670a.8 manual dealing shoe, 670a.9 from the hand, 670a.10 automated dealing shoe
        "dealing": (str, _one_of("manual_shoe", "hand", "automated_shoe")),
        # the cards are shuffled by hand or by an automated card shuffling device; dealing
        # from the hand needs the device (670a.9(a)(1))
        "shuffler": (str, _one_of("manual", "automated")),
    }
    DEFAULTS = {"table_min": 100, "table_max": 1000000,
                "offered": {"double_down": True, "fortune_bonus": True, "insurance": True,
                            "progressive": True},
                "limits": {}, "paytables": {},
                "progressive": {"meter": 500000, "reset": 500000, "rate": 0.2},
                "options": {"start_method": "rng", "dealing": "manual_shoe",
                            "shuffler": "automated"}}

    def __init__(self, config, rng=None):
        super().__init__(config)
        if self.option("dealing") == "hand" and self.option("shuffler") != "automated":
            raise ConfigError("options.dealing = 'hand' needs an automated card shuffling device "
                              "(670a.9(a)(1)): set options.shuffler = 'automated'")
        self._rng = rng
        self.meter = new_meter(GAME, config.get("progressive")) if self.offers("progressive") \
            else None
        if self.meter is not None and config.get("link"):
            progressive.link_meter(self.meter, config["link"])   # docs/linked-progressives.md
        self.stacked = False         # the deck is a scenario's stacked deck
        self.stacked_start = None    # the scenario's start_position
        self.stacked_method = None   # the start_method its config names
        self.deck_count = pg.DECK_SIZE
        self.deck_unfit = None       # why the deck must leave the table (670a.8(f))
        self.reset_round()

    def reset_round(self):
        self.lammers = {}            # seat -> wagers carrying an Envy lammer (670a.8(b)(1))
        self.start = None            # {"method", "count", "position", "dice"?}
        self.no_rolls = 0
        self.deal_order = []         # the 42 positions in the order the cards go
        self.hands = {p: [] for p in ("1", "2", "3", "4", "5", "6", DEALER)}
        self.discards = []           # cards found face up in the deck (670a.13(f))
        self.exposed = []            # seats a card was exposed to while dealing (670a.13(d))
        self.voided_hands = []       # seats whose player voided the hand (670a.13(d))
        self.queue = []              # [seat, step] still to come in the players' phase
        self.settings = {}           # seat -> {"high": [...], "low": code, "foul": bool}
        self.dealer_setting = None
        self.meter_paid = {}         # seat -> cents paid from the meter, not the table inventory
        self.meter_before = None     # the meter before this round's contributions
        self.pending = None
        if progressive.linked(getattr(self, "meter", None)):
            progressive.link_new_round(self.meter)

    # ---- the machine ----------------------------------------------------------------------

    @classmethod
    def round_transitions(cls):
        return [{"trigger": "deal", "source": START, "dest": DEALING},
                {"trigger": "hands_dealt", "source": DEALING, "dest": PLAYERS},
                {"trigger": "players_set", "source": PLAYERS, "dest": DEALER_SETTING}]

    def offers(self, wager):
        return bool(self.config.get("offered", {}).get(wager))

    def option(self, key):
        """The table's method now: as configured, unless its device is covered as out of
        order (670a.13(n)): then shuffled by hand, dealt from a manual shoe (dealing from the
        hand needs the shuffler, 670a.9(a)(1))."""
        value = self.config.get("options", {}).get(key, self.DEFAULTS["options"][key])
        covered = getattr(self, "out_of_order", ())
        if key == "shuffler" and "shuffler" in covered:
            return "manual"
        if key == "dealing" and ((value == "automated_shoe" and "dealing_shoe" in covered)
                                 or (value == "hand" and "shuffler" in covered)):
            return "manual_shoe"
        return value

    def in_use(self, device):
        if device == "shuffler":
            return self.option("shuffler") == "automated"
        return self.option("dealing") == "automated_shoe"

    def take_out_of_use(self, device):
        # out_of_order already names the device: option() now gives the methods left
        return {"shuffler": self.option("shuffler"), "dealing": self.option("dealing")}

    def section(self, what):
        return DEALING_SECTIONS[self.option("dealing")][what]

    def use_rng(self, source):
        """Inject the random number generator (a callable giving 1..7); kept out of snapshots."""
        self._rng = source

    def live_seats(self):
        """Seats with a hand in play, from the dealer's right (670a.11(e))."""
        return [s for s in SEATS_FROM_DEALERS_RIGHT
                if s in self.wagers and s not in self.voided_hands]

    # ---- the deck (670a.3, 670a.5) ---------------------------------------------------------

    def on_open_table(self, event):
        self.deck_unfit = None           # decks received and inspected (670a.4)
        super().on_open_table(event)

    def on_new_deck(self, event):
        if self.deck_unfit and self.state in ROUND_OVER:
            self.remove_the_deck(self.deck_unfit)
        super().on_new_deck(event)

    def on_shuffle(self, event):
        if self.deck_unfit:
            raise IllegalEvent("this deck may not be shuffled again: %s; a new deck is needed"
                               % self.deck_unfit)
        if self.state == WAGERS_OPEN:
            raise IllegalEvent("the cards are shuffled before wagering or after a round "
                               "(670a.5(a)), not while wagers are open")
        self.check_shuffled_by(event)
        super().on_shuffle(event)

    def start_shoe(self, event):
        """A stacked deck is checked whole: 53 distinct cards at most, one joker (670a.3(a))."""
        stack = event.get("stack")
        doc = event.get("scenario")
        self.stacked = doc is not None
        self.stacked_start = doc.get("start_position") if isinstance(doc, dict) else None
        # the method a scenario's own config names, if it names one (not the default)
        options = ((doc or {}).get("config") or {}).get("options") or {}
        self.stacked_method = options.get("start_method") if isinstance(options, dict) else None
        if stack is not None:
            extra = {}
            for value in ((event.get("deck") or {}).get("extra") or []):
                code = card_code(value, "deck.extra %r" % (value,))
                extra[code] = extra.get(code, 0) + 1
            seen = {}
            for n, value in enumerate(stack, 1):
                code = card_code(value, "card %d (%r)" % (n, value))
                if seen.get(code, 0) > extra.get(code, 0):
                    raise InvalidCard("card %d: %s is listed twice; the game uses one deck "
                                      "(670a.3(a)) and deck.extra does not add one" % (n, code))
                seen[code] = seen.get(code, 0) + 1
            self.deck_count = len(stack)
        else:
            count = event.get("count", pg.DECK_SIZE)
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise IllegalEvent("shuffle count must be a number of cards, not %r" % (count,))
            self.deck_count = count

    def on_irregularity(self, event):
        if event.get("kind") not in WHILE_LOCKED:
            self.not_locked()
        irregularities.handle(self, event)

    def on_fault(self, event):
        """A dealing shoe that jams in a round voids it (670a.13(m)); a shuffler fault means
        the cards are shuffled again (670a.13(l)). Either way the table locks for the device."""
        device = event.get("device")
        section = event.get("section")
        if device == "dealing_shoe":
            section = "670a.13(m)"
            if self.state in IN_ROUND:
                self.void_round("the automated dealing shoe failed during the round: all wagers "
                                "are returned and the cards reshuffled (670a.13(m))")
        elif device == "shuffler":
            section = "670a.13(l)"
            self.reshuffle_due = "the shuffler failed to complete a shuffle (670a.13(l))"
        self.lock("device %s: %s" % (device, event.get("reason")), section, device)

    # ---- wagers (670a.7) -------------------------------------------------------------------

    def on_wager(self, event):
        wager, seat = event.get("wager"), event.get("seat")
        if wager == "double_down":
            raise IllegalEvent("double_down at seat %s: the Double Down Wager is offered after "
                               "the players examine their cards, not before \"no more bets\" "
                               "(670a.7(c), 670a.11(c))" % seat)
        if self.state in IN_ROUND:
            if wager == "progressive":
                raise IllegalEvent("progressive at seat %s refused: the progressive table game "
                                   "system is locked out after \"no more bets\" (670a.2(c)(2), "
                                   "%s)" % (seat, self.section("nmb")))
            raise IllegalEvent("wager %s at seat %s refused: a wager may not be made, increased "
                               "or withdrawn after \"no more bets\" (670a.7(c))" % (wager, seat))
        if self.deck_unfit and self.state in ROUND_OVER + (SHUFFLED, OPENED):
            raise IllegalEvent("no round until a new deck is opened: %s" % self.deck_unfit)
        super().on_wager(event)

    def check_wager(self, seat, wager, amount, placed):
        if wager in OPTIONAL_SECTIONS and not self.offers(wager):
            raise IllegalEvent("%s at seat %s: this table does not offer that wager (%s)"
                               % (wager, seat, OPTIONAL_SECTIONS[wager]))

    # ---- "no more bets" (670a.8(b)) --------------------------------------------------------

    def on_no_more_bets(self, event):
        self.not_locked()
        if self.state != WAGERS_OPEN:
            raise IllegalEvent("\"no more bets\" while %s" % self.state)
        for seat, placed in sorted(self.wagers.items()):
            if "six_card_fortune" not in placed:
                raise IllegalEvent("seat %s has %s but no six_card_fortune Wager: a player "
                                   "places one to take part, and the optional wagers are "
                                   "offered to those who did (670a.7(d), (e))"
                                   % (seat, " and ".join(sorted(placed))))
        self._check_progressive_system(event)
        method = self._start_method()
        count = self._draw() if method == pg.RNG else None
        super().on_no_more_bets(event)
        nmb = self.section("nmb")
        for seat in sorted(self.wagers, key=int):
            placed = self.wagers[seat]
            marked = [w for w in ("fortune_bonus", "progressive")
                      if placed.get(w, 0) >= QUALIFYING]
            if marked:
                self.lammers[seat] = marked
                self.note("envy_lammer", seat=seat, wagers=marked, section=nmb + "(1)")
        if self.linked_meter() is not None:
            # the link took each contribution when it acknowledged the wager; what it has
            # not acknowledged by now is not accepted (670a.2(c)(1)) and is withdrawn
            late = progressive.link_close(self.meter, self.round_no)
            on_layout = [s for s in sorted(self.wagers, key=int) if "progressive" in self.wagers[s]]
            self.note("progressive_lockout", wagers=len(on_layout), section=nmb + "(2)",
                      link=self.meter["link"]["id"], not_acknowledged=late)
        elif self.meter is not None:
            on_layout = [s for s in sorted(self.wagers, key=int) if "progressive" in self.wagers[s]]
            self.meter_before = dict(self.meter)
            self.note("progressive_lockout", wagers=len(on_layout), section=nmb + "(2)")
            for seat in on_layout:
                value = contribute(self.meter, self.wagers[seat]["progressive"])
                self.note("meter_contribution", seat=seat, amount=self.wagers[seat]["progressive"],
                          meter=value)
        if method == pg.DICE:
            self.pending = {"need": "dice", "for": "the starting position (670a.5(i)(1))"}
        else:
            self._start_at(pg.RNG, count)

    def _check_progressive_system(self, event):
        """The system's acceptance lights must match the Progressive chips (670a.8(b)(2))."""
        accepted = event.get("progressive_accepted")
        if accepted is None:
            return
        if not isinstance(accepted, list):
            raise IllegalEvent("progressive_accepted must list the seats the progressive table "
                               "game system accepted, not %r" % (accepted,))
        lit = sorted({seat_key(s) for s in accepted}, key=int)
        chips = sorted((s for s in self.wagers if "progressive" in self.wagers[s]), key=int)
        if lit != chips:
            raise IllegalEvent("the progressive table game system accepted Progressive Payout "
                               "Wagers at seats %s but chips are at seats %s: they must agree "
                               "before the deal (%s(2))" % (", ".join(lit) or "none",
                                                           ", ".join(chips) or "none",
                                                           self.section("nmb")))

    # ---- the starting position (670a.5(i), 670a.13(a)-(b)) ---------------------------------

    def _start_method(self):
        """"rng" or "dice" for this round; a scenario's start_position is checked here."""
        if not self.stacked:
            return self.option("start_method")
        given = self.stacked_start
        configured = self.stacked_method
        if given is None:
            raise IllegalEvent("start_position: the scenario does not give it: the random "
                               "number generator's value 1..7 or {\"dice\": [a, b, c]} "
                               "(670a.5(i))")
        try:
            if isinstance(given, dict) and set(given) == {"dice"}:
                dice = given["dice"]
                if not isinstance(dice, list) or len(dice) != 3:
                    raise IllegalEvent("dice must be three dice [a, b, c], not %r "
                                       "(670a.5(i)(1))" % (dice,))
                pg.dice_total(*dice)
                method = pg.DICE
            elif isinstance(given, int) and not isinstance(given, bool):
                pg.starting_position(given, pg.RNG)
                method = pg.RNG
            else:
                raise IllegalEvent("it must be the random number generator's value 1..7 or "
                                   "{\"dice\": [a, b, c]}, not %r (670a.5(i))" % (given,))
        except RulesError as e:
            raise IllegalEvent("start_position: %s" % e)
        if configured is not None and configured != method:
            raise IllegalEvent("start_position %r uses %s but config options.start_method is "
                               "%r (670a.5(i))" % (given, "the dice" if method == pg.DICE
                                                   else "the random number generator",
                                                   configured))
        return method

    def _draw(self):
        """The random number generator's value: the scenario's, else the injected source's. A
        value outside 1..7 refuses "no more bets", so the round does not start on it."""
        if self.stacked:
            return self.stacked_start
        count = (getattr(self, "_rng", None) or secrets_rng)()
        try:
            pg.starting_position(count, pg.RNG)
        except RulesError as e:
            raise IllegalEvent("the random number generator failed: %s" % e)
        return count

    def refusal_of(self, event):
        if event.kind == "decision" and str(event.get("seat")) == DEALER:
            return ("the dealer sets his hands after every player has set (670a.11(d)); the "
                    "round waits for %s" % self.waiting_for())
        return super().refusal_of(event)

    def on_dice(self, event):
        """Taken only in starting_position_waits_dice (ANSWERS)."""
        why, dice = event.get("no_roll"), event.get("dice")
        if why is not None:
            if dice is not None:
                raise IllegalEvent("a dice event is either a roll or a no roll, not both")
            if why not in NO_ROLL:
                raise IllegalEvent("no_roll %r: one of %s" % (why, ", ".join(NO_ROLL)))
            self.no_rolls += 1
            self.note("no_roll", why=NO_ROLL[why][0], section=NO_ROLL[why][1])
            return                                   # the dealer shakes again
        if not isinstance(dice, list) or len(dice) != 3:
            raise IllegalEvent("the shaker holds three dice [a, b, c], not %r (670a.5(i)(1))"
                               % (dice,))
        self._start_at(pg.DICE, pg.dice_total(*dice), list(dice))

    def _start_at(self, method, count, dice=None):
        position = pg.starting_position(count, method)
        position = DEALER if position == DEALER else str(position)
        self.start = {"method": method, "count": count, "position": position}
        if dice is not None:
            self.start["dice"] = dice
        self.note("starting_position", **self.start)
        ring = [DEALER if p == DEALER else str(p)
                for p in pg.dealing_order(DEALER if position == DEALER else int(position))[:7]]
        if self.option("dealing") == "automated_shoe":     # stacks of six (670a.10(c))
            self.deal_order = [p for p in ring for _ in range(pg.CARDS_PER_HAND)]
        else:                                              # one at a time (670a.8(d), 9(c))
            self.deal_order = ring * pg.CARDS_PER_HAND
        self.deal()
        self._ask_card()

    # ---- the deal and the stub (670a.8(d)-(g)) ---------------------------------------------

    def dealt(self):
        return sum(len(h) for h in self.hands.values())

    def _ask_card(self):
        target = self.deal_order[self.dealt()]
        self.pending = {"need": "card", "for": "dealer" if target == DEALER else "seat " + target}

    def out_of_deck(self):
        """Every card that has left the deck since the shuffle."""
        out = list(self.discards)
        for cards in self.hands.values():
            out.extend(cards)
        return out

    def check_fresh(self, value, what):
        code = card_code(value, what)
        if code in self.out_of_deck():
            raise InvalidCard("%s: %s has already left this deck; the game uses one deck "
                              "(670a.3(a))" % (what, code))
        return code

    def on_card(self, event):
        """Taken only in dealing_waits_card (ANSWERS)."""
        code = self.check_fresh(event.get("card"), "card")
        target = self.deal_order[self.dealt()]
        self.hands[target].append(code)
        self.note("card", to=target, card=code)
        if self.dealt() < CARDS_DEALT:
            self._ask_card()
        else:
            self.pending = None
            self._after_deal()

    def _after_deal(self):
        # a card found face up went to the discard rack: it is out of the stub, not missing
        stub = self.deck_count - CARDS_DEALT
        self.note("stub", count=stub - len(self.discards), discarded=len(self.discards),
                  section=self.section("stub"))
        if stub != pg.STUB_SIZE:
            self.stub_wrong(stub, misdealt=False)
            return
        for seat in ("1", "2", "3", "4", "5", "6"):
            if seat not in self.wagers:
                self.note("stack_collected", position=seat, section=self.section("collect"))
        self.hands_dealt()
        for seat in self.live_seats():
            if seat in self.exposed:
                self.queue.append([seat, "exposed"])
        for seat in self.live_seats():
            if self.offers("double_down"):
                self.queue.append([seat, "double_down"])
            self.queue.append([seat, "set"])
        self.players.next_step()

    def on_decision(self, event):
        self.players.decide(event)

    def stub_wrong(self, count, misdealt):
        """670a.8(f): more or less than 11 cards left. A misdeal voids the round; a deck that
        was dealt properly but holds the wrong number of cards leaves the table."""
        short = self.section("short")
        if misdealt:
            self.void_round("%d cards remained instead of 11 and the cards were misdealt: all "
                            "hands are void (%s)" % (count, short))
            return
        reason = ("%d cards remained after the deal instead of 11 and no position was "
                  "misdealt: all hands are void and the deck is removed from the table (%s)"
                  % (count, short))
        self.deck_unfit = reason
        self.void_round(reason)

    # ---- ending a round ---------------------------------------------------------------------

    def void_round(self, reason):
        self.pending = None
        self.queue = []
        if self.meter_before is not None:
            self.meter = self.meter_before
            self.note("meter_contributions_returned", meter=self.meter["value"])
        self.meter_before = None
        if self.linked_meter() is not None:
            progressive.link_void(self.meter, self.round_no)
            self.note("link_contributions_withdrawn", link=self.meter["link"]["id"])
        super().void_round(reason)
        self.reshuffle_due = self.deck_unfit or ("the cards are reshuffled after a void round "
                                                 "(670a.5(a), 670a.13)")
