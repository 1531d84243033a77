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

The round's waits are machine states too (issue 12). A round step that waits for
something (a card, the reader, a seat's decision, the dice, a stub count) declares it in
WAITS = {step: (need, ...)}; the machine then has, for each, the state
`<step>_waits_<need>` (WAITING_SEP), entered by `wait_for_<need>` and left by `answered`,
and every transition out of the step leaves from its waits as well (a wait is a sub-state
of its step, drawn as such). `pending` ({"need": ..., and what the wait is about}) is the
wait's data: setting it moves the machine into the wait it names, so the machine's state
and `pending` cannot disagree. A game's ANSWERS = {event kind: (need, ...)} lets only
those waits take an event of that kind: the machine refuses it anywhere else
(`take_<kind>`, an internal transition), before the game's handler runs.

The machine's full state is `machine_state`; `state` is its round step (the wait's step,
or the state itself), what the policies, the outputs and a game's own checks read. A
snapshot is {"format": 2, "game", "state": machine_state, "model"} and restores with
add_model(model, initial=state); a snapshot of format 1 (before the waits, state = the
step) is migrated on restore and before a replay compares it (`migrate_snapshot`).
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

WAITING_SEP = "_waits_"        # <step>_waits_<need>: the machine state of a round's wait
SNAPSHOT_FORMAT = 2            # 1: before the waits (no "format"; "state" the round step)


def wait_state(step, need):
    return step + WAITING_SEP + need


_STEPS = {}                    # machine state -> its round step (the states are few)


def step_of(state):
    """The round step of a machine state: a wait's step, or the state itself. Remembered:
    `state` is read some 70 times a step (the outputs, the policies, the checks)."""
    step = _STEPS.get(state)
    if step is None:
        step = state.split(WAITING_SEP, 1)[0]
        if len(_STEPS) < 4096:                 # a journal's unknown names cannot grow it
            _STEPS[state] = step
    return step


class IllegalEvent(RulesError):
    """An event the game's procedure does not allow now."""


class GameModel:
    """Base of every game's model. Subclasses set GAME, ROUND_STATES, the
    round transitions and the wagers placed before "no more bets"."""

    GAME = None
    DECLARES = Declaration(game=None, model=None, modules=())   # each game's own: declarations/
    ROUND_STATES = []            # between "no more bets" and settled/voided
    WAITS = {}                   # {round step: (need, ...)}: the waits of each step
    ANSWERS = {}                 # {event kind: (need, ...)}: only those waits take it
    REFUSALS = {}                # {event kind: why the machine refused it, with {state},
                                 # {machine_state}, {waiting} (default: the engine's words)}
    FIRST_ROUND_STATE = None     # where "no more bets" leads
    PRE_DEAL_WAGERS = ()         # wagers placed before "no more bets"
    TABLE_LIMIT_WAGERS = ()      # wagers the table minimum and maximum bound
    REQUIRED_WAGERS = ()         # a seat plays only with all of these
    OPTIONAL_WAGERS = ()         # offered or not by the Rules Submission (config "offered")
    OPTIONS = {}                 # the game's own config options: {key: (type, check)}
    SHAKER = False               # the game's `shuffle` is the dealer shaking a dice shaker
    # {attribute: class}: the parts a model holds and delegates to (the blackjack family's
    # shoe, side-wager book and decisions), each built as class(model). A part is behaviour
    # with a declared interface, not round data: the data it keeps stays on the model, so a
    # snapshot is the model's data alone and a part is built again on restore.
    PARTS = {}
    DEFAULTS = {"table_min": 100, "table_max": 1000000, "offered": {}, "limits": {},
                "paytables": {}, "options": {}}

    def __init__(self, config):
        self.attach_parts()
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
    def waits(cls, step):
        """The machine states of `step`'s waits."""
        return [wait_state(step, need) for need in cls.WAITS.get(step, ())]

    @classmethod
    def wait_states(cls):
        return [w for step in cls.ROUND_STATES for w in cls.waits(step)]

    @classmethod
    def states(cls):
        return COMMON_STATES + list(cls.ROUND_STATES) + cls.wait_states()

    @classmethod
    def steps(cls):
        """The states a game's own checks name: the lifecycle and the round steps."""
        return COMMON_STATES + list(cls.ROUND_STATES)

    @classmethod
    def round_transitions(cls):
        """The game's own transitions, as transitions' dicts."""
        return []

    @classmethod
    def transitions(cls):
        """The machine's transitions: those between steps (`step_transitions`), each also
        leaving from the waits of its source steps, and the waits' own."""
        out = []
        for t in cls.step_transitions():
            t = dict(t)
            if t["trigger"] != "resume":
                sources = t["source"] if isinstance(t["source"], list) else [t["source"]]
                t["source"] = [w for src in sources for w in [src] + cls.waits(src)]
            out.append(t)
        return out + cls.wait_transitions()

    @classmethod
    def wait_transitions(cls):
        out = []
        for step in cls.ROUND_STATES:
            waits = cls.waits(step)
            for need in cls.WAITS.get(step, ()):
                out.append({"trigger": "wait_for_" + need, "source": [step] + waits,
                            "dest": wait_state(step, need)})
            if waits:
                out.append({"trigger": "answered", "source": waits, "dest": step})
        for kind, needs in cls.ANSWERS.items():
            takes = [wait_state(step, need) for step in cls.ROUND_STATES
                     for need in cls.WAITS.get(step, ()) if need in needs]
            out.append({"trigger": "take_" + kind, "source": takes, "dest": None})
        return out

    @classmethod
    def step_transitions(cls):
        in_round = [WAGERS_OPEN] + list(cls.ROUND_STATES)
        every = cls.steps()
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

    # ---- the machine's state and the round's wait ----------------------------------

    @property
    def state(self):
        """The round step (a wait's step): what the table's checks read."""
        return step_of(self.machine_state)

    @property
    def pending(self):
        """What the round waits for ({"need", ...}) or None: the data of the wait state."""
        return self.__dict__.get("pending")

    @pending.setter
    def pending(self, value):
        self.__dict__["pending"] = value
        self.enter_wait()

    def enter_wait(self, *_):
        """The machine into the wait `pending` names, if the step has it, else out of any
        wait: after `pending` is set, and after every change of step."""
        current = self.__dict__.get("machine_state")
        if current is None:                  # not on a machine yet (from_json)
            return
        step = step_of(current)
        need = (self.pending or {}).get("need")
        target = wait_state(step, need) if need in type(self).WAITS.get(step, ()) else step
        if target == current:
            return
        if target == step:
            self.answered()
        else:
            getattr(self, "wait_for_" + need)()

    # ---- persistence ----------------------------------------------------------

    def attach_parts(self):
        for name, part in type(self).PARTS.items():
            self.__dict__[name] = part(self)

    def to_json(self):
        return {k: v for k, v in vars(self).items() if not k.startswith("_")
                and k not in ("state", "machine_state") and k not in self.PARTS
                and not callable(v)}

    @classmethod
    def from_json(cls, doc):
        model = cls.__new__(cls)
        model.attach_parts()
        for k, v in doc.items():
            setattr(model, k, v)
        return model

    # ---- events ---------------------------------------------------------------

    def apply(self, event):
        handler = getattr(type(self), "on_" + event.kind, None)
        if handler is None:
            raise IllegalEvent("%s has no use for a %r event" % (self.GAME, event.kind))
        if event.kind in self.ANSWERS:
            try:
                getattr(self, "take_" + event.kind)()
            except MachineError:
                self.not_locked()
                raise IllegalEvent(self.refusal_of(event))
        handler(self, event)

    def not_locked(self):
        """Refuses play while the table is locked out, saying why it is."""
        if self.state == LOCKED_OUT:
            raise IllegalEvent("the table is locked out (%s); play resumes after a floorperson "
                               "clears it" % (self.lockout or {}).get("reason"))

    def refusal_of(self, event):
        """Why the machine refused `event` (no wait of this state takes it), in one line:
        the game's REFUSALS wording, filled with {state}, {machine_state}, {waiting} and the
        event's own fields."""
        text = self.REFUSALS.get(event.kind, "%s: no %s event is due while {machine_state}; "
                                 "the round waits for {waiting}" % (self.GAME, event.kind))
        fields = _Fields({k: v for k, v in event.data.items() if isinstance(k, str)})
        fields.update(self.refusal_fields())
        fields.update(state=self.state, waiting=self.waiting_for(),
                      machine_state=self.machine_state)
        return text.format_map(fields)

    def refusal_fields(self):
        """A game's own fields for its REFUSALS (a section that depends on its options)."""
        return {}

    # How a refusal names what the round waits for; a game adds or rewords needs in WAITING.
    WAITING = {}
    _WAITING = {"card": "a card for {for}", "reader": "the card reader ({for})",
                "offer": "seat {seat}'s answer to the {offer} offer",
                "decision": "seat {seat}'s decision ({allowed})", "dice": "the dice for {for}",
                "stub_count": "the dealer's stub count ({section})"}

    def waiting_for(self):
        p = self.pending
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

    def lockout_section(self, lockout):
        """The section a lock-out cites: its own, else for a device's fault the game's
        `fault_section` (its declaration). Shown, not stored: a journal written before the
        declaration said it replays to the same state."""
        lockout = lockout or {}
        return lockout.get("section") or (self.DECLARES.fault_section
                                           if lockout.get("device") else None)

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
            # `failed`: the device whose self-test failed, when the clear service names one
            # (it tests every device faulted since, not only the lock-out's)
            raise IllegalEvent("lock-out not cleared: %s has not passed its self-test"
                               % (event.get("failed") or lockout.get("device")
                                  or "the device"))
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


class _Fields(dict):
    def __missing__(self, key):
        return "?"


def seat_key(value):
    key = str(value)
    if key not in SEAT_KEYS:
        raise IllegalEvent("seat %r does not exist: seats are 1..6" % (value,))
    return key


class GameMachine:
    """One game's machine and model, fed one event at a time. (It was `Table`, one of five
    things called "table": the controller is TableController, the console's commands, a
    paytable, the simulator's devices.)"""

    def __init__(self, model, initial=CLOSED):
        self.model = model
        cls = type(model)
        self.machine = Machine(model=None, states=cls.states(), transitions=cls.transitions(),
                               initial=CLOSED, auto_transitions=False, queued=True,
                               name=cls.GAME, model_attribute="machine_state",
                               after_state_change="enter_wait")
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

    @property
    def machine_state(self):
        return self.model.machine_state

    def snapshot(self):
        return {"format": SNAPSHOT_FORMAT, "game": self.model.GAME,
                "state": self.model.machine_state, "model": self.model.to_json()}

    @classmethod
    def restore(cls, model_cls, snap):
        if snap.get("game") != model_cls.GAME:
            raise RulesError("snapshot of %r cannot restore a %s table"
                             % (snap.get("game"), model_cls.GAME))
        snap = migrate_snapshot(model_cls, snap)
        if snap["state"] not in model_cls.states():
            raise RulesError("snapshot state %r is not a state of %s"
                             % (snap["state"], model_cls.GAME))
        return cls(model_cls.from_json(snap["model"]), initial=snap["state"])


def migrate_snapshot(model_cls, snap):
    """A table snapshot in the current format. Format 1 (no "format": before the round's
    waits were states) saved the round step; its wait is the one its `pending` names, as
    the model would have entered it."""
    if snap.get("format", 1) == SNAPSHOT_FORMAT:
        return snap
    if snap.get("format", 1) != 1:
        raise RulesError("snapshot format %r is not one this version reads (1..%d)"
                         % (snap.get("format"), SNAPSHOT_FORMAT))
    state = snap["state"]
    need = ((snap.get("model") or {}).get("pending") or {}).get("need")
    if need in model_cls.WAITS.get(state, ()):
        state = wait_state(state, need)
    out = dict(snap, state=state)
    out["format"] = SNAPSHOT_FORMAT
    return out


def mermaid(model_cls):
    """The machine drawn from its own definition (transitions' Mermaid support)."""
    from transitions.extensions import GraphMachine

    class _Blank:
        pass
    m = _Blank()
    # the transitions between steps as defined (a wait leaves by its step's), the waits'
    # own but the moves between two waits of one step, and no internal ones
    waits = [t for t in model_cls.wait_transitions() if t["dest"] is not None]
    for t in waits:
        if t["trigger"].startswith("wait_for_"):
            t["source"] = step_of(t["dest"])
    GraphMachine(model=m, states=model_cls.states(),
                 transitions=[t for t in model_cls.step_transitions() if t["trigger"] != "resume"]
                 + waits
                 + [{"trigger": "clear: resume where it was", "source": LOCKED_OUT,
                     "dest": LOCKED_OUT}],
                 initial=CLOSED, auto_transitions=False, graph_engine="mermaid",
                 title=model_cls.GAME, show_conditions=False)
    return m.get_graph().draw(None)
