"""The shape every game follows: a `transitions` machine over a plain model.

The model holds only JSON-native data (str seat keys, lists, ints for cents,
card codes as strings), so a snapshot is `{"game", "state", "model"}` and a
restore is `add_model(model, initial=state)`: never pickle. The machine has no
auto transitions (no `to_settled()` back door) and queues events raised inside
callbacks, so a transition completes before the next begins.

Common lifecycle, shared by every game:

    closed -> opened -> shuffled -> wagers_open -> <the game's round states>
           -> settled | voided -> wagers_open (next round) ...
    any state -> locked_out -> (authorized clear, self-test passed) -> back where it was
                 (no self-test of a device covered as out of order: games/out_of_order.py)
    any state -> deck_removed -> (a new deck opened) -> opened

A game adds its round states (from "no more bets" to settlement) and handles
the events of a round in `on_<kind>` methods; the common events are handled here.
"""

from transitions import Machine, MachineError

from controller.errors import RulesError
from controller.games.declarations import Declaration
from controller.games.events import Event

CLOSED, OPENED, SHUFFLED, WAGERS_OPEN = "closed", "opened", "shuffled", "wagers_open"
SETTLED, VOIDED, LOCKED_OUT, DECK_REMOVED = "settled", "voided", "locked_out", "deck_removed"
COMMON_STATES = [CLOSED, OPENED, SHUFFLED, WAGERS_OPEN, SETTLED, VOIDED, LOCKED_OUT, DECK_REMOVED]
ROUND_OVER = (SETTLED, VOIDED)

# Who may clear a lock-out (floorperson or above).
CLEARING_ROLES = ("floorperson", "technician", "administrator")
SEAT_KEYS = ("1", "2", "3", "4", "5", "6")


class IllegalEvent(RulesError):
    """An event the game's procedure does not allow now."""


class GameModel:
    """Base of every game's model. Subclasses set GAME, ROUND_STATES, the
    round transitions and the wagers placed before "no more bets"."""

    GAME = None
    DECLARES = Declaration(game=None, modules=())   # each game's own: games/declarations/
    ROUND_STATES = []            # between "no more bets" and settled/voided
    FIRST_ROUND_STATE = None     # where "no more bets" leads
    PRE_DEAL_WAGERS = ()         # wagers placed before "no more bets"
    TABLE_LIMIT_WAGERS = ()      # wagers the table minimum and maximum bound
    REQUIRED_WAGERS = ()         # a seat plays only with all of these
    OPTIONAL_WAGERS = ()         # offered or not by the Rules Submission (config "offered")
    OPTIONS = {}                 # the game's own config options: {key: (type, check)}
    SHAKER = False               # the game's `shuffle` is the dealer shaking a dice shaker
    DEFAULTS = {"table_min": 100, "table_max": 1000000, "offered": {}, "limits": {},
                "paytables": {}, "options": {}}

    def __init__(self, config):
        self.config = config
        self.round_no = 0
        self.wagers = {}         # seat -> {wager: cents}
        self.results = {}        # seat -> {wager: [result, net]}
        self.record = []         # this round as it happened: [[what, detail], ...] (581.7(q))
        self.status = None       # "settled" or "void" once the round is over
        self.void_reason = None
        self.resume_to = None
        self.lockout = None      # {"device", "reason", "section"} while locked out
        self.reshuffle_due = None
        self.deck_reason = None

    # ---- machine definition -------------------------------------------------

    @classmethod
    def states(cls):
        return COMMON_STATES + list(cls.ROUND_STATES)

    @classmethod
    def round_transitions(cls):
        """The game's own transitions, as transitions' dicts."""
        return []

    @classmethod
    def transitions(cls):
        in_round = [WAGERS_OPEN] + list(cls.ROUND_STATES)
        every = cls.states()
        out = [
            {"trigger": "open_table", "source": [CLOSED, DECK_REMOVED], "dest": OPENED},
            {"trigger": "shuffled", "source": [OPENED, SHUFFLED] + list(ROUND_OVER),
             "dest": SHUFFLED},
            {"trigger": "begin_round", "source": [SHUFFLED] + list(ROUND_OVER),
             "dest": WAGERS_OPEN},
            {"trigger": "close_wagers", "source": WAGERS_OPEN, "dest": cls.FIRST_ROUND_STATE},
            {"trigger": "void", "source": in_round, "dest": VOIDED},
            {"trigger": "settle", "source": list(cls.ROUND_STATES), "dest": SETTLED},
            {"trigger": "lock_out", "source": [s for s in every if s != LOCKED_OUT],
             "dest": LOCKED_OUT},
            {"trigger": "remove_deck", "source": [s for s in every if s != DECK_REMOVED],
             "dest": DECK_REMOVED},
            {"trigger": "close", "source": [OPENED, SHUFFLED] + list(ROUND_OVER), "dest": CLOSED},
        ]
        for s in every:
            if s != LOCKED_OUT:
                out.append({"trigger": "resume", "source": LOCKED_OUT, "dest": s,
                            "conditions": "_resumes_to_" + s})
        return out + cls.round_transitions()

    def __getattr__(self, name):
        # "_resumes_to_<state>" conditions of the lock-out's return transitions
        if name.startswith("_resumes_to_"):
            target = name[len("_resumes_to_"):]
            return lambda *a, **k: self.resume_to == target
        raise AttributeError(name)

    # ---- persistence ----------------------------------------------------------

    def to_json(self):
        return {k: v for k, v in vars(self).items() if not k.startswith("_") and k != "state"
                and not callable(v)}

    @classmethod
    def from_json(cls, doc):
        model = cls.__new__(cls)
        for k, v in doc.items():
            setattr(model, k, v)
        return model

    # ---- events ---------------------------------------------------------------

    def apply(self, event):
        handler = getattr(type(self), "on_" + event.kind, None)
        if handler is None:
            raise IllegalEvent("%s has no use for a %r event" % (self.GAME, event.kind))
        handler(self, event)

    # How a refusal names what the round waits for; a game adds or rewords needs in WAITING.
    WAITING = {}
    _WAITING = {"card": "a card for {for}", "reader": "the card reader ({for})",
                "offer": "seat {seat}'s answer to the {offer} offer",
                "decision": "seat {seat}'s decision ({allowed})", "dice": "the dice for {for}",
                "stub_count": "the dealer's stub count ({section})"}

    def waiting_for(self):
        p = getattr(self, "pending", None)
        if p is None:
            return "nothing (%s)" % self.state
        text = self.WAITING.get(p["need"]) or self._WAITING.get(p["need"])
        if text is None:
            return p["need"].replace("_", " ")
        fields = dict(p)
        if "allowed" in fields:
            fields["allowed"] = ", ".join(fields["allowed"])
            fields["allowed_or"] = " or ".join(p["allowed"])
        return text.format(**fields)

    def note(self, what, **detail):
        self.record.append([what, detail])

    def on_open_table(self, event):
        if self.state == DECK_REMOVED:
            self.deck_reason = None
        self.note("open_table", decks=event.get("decks"))
        self.open_table()

    def on_new_deck(self, event):
        if self.state != DECK_REMOVED:
            raise IllegalEvent("no deck has been removed from the table")
        self.on_open_table(event)

    def on_shuffle(self, event):
        if event.get("shake") and not self.SHAKER:
            raise IllegalEvent("a shake of the dice shaker does not shuffle the cards of %s"
                               % self.GAME)
        self.reshuffle_due = None
        self.start_shoe(event)
        self.shuffled()

    def start_shoe(self, event):
        """A game keeps what it needs of a new shoe (a stacked shoe in a scenario)."""

    def on_wager(self, event):
        seat = seat_key(event.get("seat"))
        wager = event.get("wager")
        amount = event.get("amount")
        if self.state in ROUND_OVER or self.state == SHUFFLED:
            self.new_round()
        if self.state != WAGERS_OPEN:
            raise IllegalEvent("wager %s at seat %s refused: wagers are not open (%s)"
                               % (wager, seat, self.state))
        if wager not in self.PRE_DEAL_WAGERS:
            raise IllegalEvent("%r is not a wager placed before the deal at %s; one of %s"
                               % (wager, self.GAME, ", ".join(self.PRE_DEAL_WAGERS)))
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise IllegalEvent("wager %s at seat %s: amount must be whole cents >= 0, not %r"
                               % (wager, seat, amount))
        placed = self.wagers.setdefault(seat, {})
        if amount == 0 and self.hold_wager(seat, wager, amount, placed):
            return
        if amount == 0:
            placed.pop(wager, None)
            if not placed:
                del self.wagers[seat]
            self.note("wager_withdrawn", seat=seat, wager=wager)
            return
        self.check_limits(seat, wager, amount)
        self.check_wager(seat, wager, amount, placed)
        if self.hold_wager(seat, wager, amount, placed):
            if not placed:
                self.wagers.pop(seat, None)
            return
        placed[wager] = amount
        self.note("wager", seat=seat, wager=wager, amount=amount)

    def new_round(self):
        if self.reshuffle_due:
            raise IllegalEvent("the cards must be reshuffled before the next round (%s)"
                               % self.reshuffle_due)
        self.round_no += 1
        self.wagers = {}
        self.results = {}
        self.record = []
        self.status = None
        self.void_reason = None
        self.reset_round()
        self.begin_round()

    def reset_round(self):
        """A game clears its own round data here."""

    def check_limits(self, seat, wager, amount):
        limits = self.config.get("limits", {})
        if wager in self.TABLE_LIMIT_WAGERS:
            lo, hi = self.config["table_min"], self.config["table_max"]
            where = "the table limits"
        elif wager in limits:
            lo, hi = limits[wager]
            where = "limits.%s" % wager
        else:
            return
        if amount < lo or amount > hi:
            raise IllegalEvent("wager %s %d at seat %s is outside %s %d..%d"
                               % (wager, amount, seat, where, lo, hi))

    def check_wager(self, seat, wager, amount, placed):
        """A game's own wager rules (e.g. Bust It no more than the Bet, 581.6(f))."""

    def hold_wager(self, seat, wager, amount, placed):
        """True when the game takes the wager itself rather than placing it now: a
        Progressive Payout Wager on a linked meter waits for the link's acknowledgement
        (controller/progressive.py LinkedGame)."""
        return False

    def on_no_more_bets(self, event):
        if self.state != WAGERS_OPEN:
            raise IllegalEvent("\"no more bets\" while %s" % self.state)
        for seat, placed in list(self.wagers.items()):
            missing = [w for w in self.REQUIRED_WAGERS if w not in placed]
            if missing:
                raise IllegalEvent("seat %s has no %s Wager: it is required to play a round"
                                   % (seat, " and ".join(missing)))
        if not self.wagers:
            raise IllegalEvent("\"no more bets\" with no wager on the layout")
        if self.reshuffle_due:
            # a fault made a reshuffle due while wagers were open: these cards are not dealt
            self.void_round("the cards must be reshuffled before they are dealt (%s)"
                            % self.reshuffle_due)
            return
        self.note("no_more_bets")
        self.close_wagers()

    def on_fault(self, event):
        self.lock("device %s: %s" % (event.get("device"), event.get("reason")),
                  event.get("section"), event.get("device"))

    def lock(self, reason, section=None, device=None):
        """The one lock-out path: idempotent, remembers where to resume."""
        if self.state == LOCKED_OUT:
            return
        self.lockout = {"device": device, "reason": reason, "section": section}
        self.resume_to = self.state
        self.note("lock_out", reason=reason, section=section)
        self.lock_out()

    def on_clear(self, event):
        if self.state != LOCKED_OUT:
            raise IllegalEvent("nothing to clear: the table is not locked out")
        role = event.get("role")
        if role not in CLEARING_ROLES:
            raise IllegalEvent("a lock-out is cleared by a floorperson or above, not %r" % (role,))
        lockout = self.lockout or {}
        # a device covered as out of order is out of service: no self-test of it is asked for
        if event.get("selftest") is not True and not lockout.get("covered"):
            raise IllegalEvent("lock-out not cleared: %s has not passed its self-test"
                               % (lockout.get("device") or "the device"))
        self.note("clear", role=role)
        self.lockout = None
        self.resume()
        self.resume_to = None

    def on_close_table(self, event):
        self.close()

    def remove_the_deck(self, reason):
        self.deck_reason = reason
        self.note("deck_removed", reason=reason)
        self.remove_deck()

    # ---- ending a round -------------------------------------------------------

    def void_round(self, reason):
        """Every wager goes back (the round is void)."""
        self.results = {}
        for seat, placed in self.wagers.items():
            self.results[seat] = {w: ["returned", 0] for w in placed}
        self.status = "void"
        self.void_reason = reason
        self.note("void", reason=reason)
        self.void()


def seat_key(value):
    key = str(value)
    if key not in SEAT_KEYS:
        raise IllegalEvent("seat %r does not exist: seats are 1..6" % (value,))
    return key


class Table:
    """One game's machine and model, fed one event at a time."""

    def __init__(self, model, initial=CLOSED):
        self.model = model
        cls = type(model)
        self.machine = Machine(model=None, states=cls.states(), transitions=cls.transitions(),
                               initial=CLOSED, auto_transitions=False, queued=True,
                               name=cls.GAME)
        self.machine.add_model(model, initial=initial)

    def handle(self, event):
        if not isinstance(event, Event):
            event = Event.from_json(event)
        try:
            self.model.apply(event)
        except MachineError as e:
            raise IllegalEvent("%s: %s event not allowed while %s (%s)"
                               % (self.model.GAME, event.kind, self.model.state, e.value))

    @property
    def state(self):
        return self.model.state

    def snapshot(self):
        return {"game": self.model.GAME, "state": self.model.state, "model": self.model.to_json()}

    @classmethod
    def restore(cls, model_cls, snap):
        if snap.get("game") != model_cls.GAME:
            raise RulesError("snapshot of %r cannot restore a %s table"
                             % (snap.get("game"), model_cls.GAME))
        return cls(model_cls.from_json(snap["model"]), initial=snap["state"])


def mermaid(model_cls):
    """The machine drawn from its own definition (transitions' Mermaid support)."""
    from transitions.extensions import GraphMachine

    class _Blank:
        pass
    m = _Blank()
    GraphMachine(model=m, states=model_cls.states(),
                 transitions=[t for t in model_cls.transitions() if t["trigger"] != "resume"]
                 + [{"trigger": "clear: resume where it was", "source": LOCKED_OUT,
                     "dest": LOCKED_OUT}],
                 initial=CLOSED, auto_transitions=False, graph_engine="mermaid",
                 title=model_cls.GAME, show_conditions=False)
    return m.get_graph().draw(None)
