"""The single-writer controller loop: event in -> journal -> policies -> game -> outputs.

Driver threads and GPIO callbacks only `submit()` events stamped at their edge or frame;
the loop thread (or a test calling `run_once()`) is the only code that changes the table.
Every input is journaled before it is applied; a refusal is journaled after it, so a
replay sees the same inputs and the same refusals. The outputs are derived from the
table's state after every step, so they can never disagree with it for longer than a
step; the "no more bets" press writes the lock-out output itself, before anything else,
because that write is the regulated moment (see controller/policies/no_more_bets.py).

Fail safe: a `fault` event first drives every output to its safe value, then asks the
game to lock out; a game that refuses the fault (a device it does not use) is locked out
anyway through the engine's one idempotent `lock()`. Any unexpected exception while
applying an event is treated the same way: refused, journaled, table locked.
"""

import logging
import queue
import threading
import time
from collections import Counter

from controller.errors import TablectlError
from controller.games.engine import CLOSED, LOCKED_OUT, ROUND_OVER, SHUFFLED, WAGERS_OPEN
from controller.games.events import Event
from controller.outputs import Outputs
from controller.progressive import meter_values

log = logging.getLogger(__name__)

CONSUMED = object()          # a policy handled the event itself: the game does not see it
ACCEPTING = (SHUFFLED, WAGERS_OPEN) + ROUND_OVER   # where a wager is (or opens) a round
_STOP = object()
FRAME_REJECTED = "frame_rejected"        # input a driver threw away; journaled, not applied


class Record:
    """A journal entry the controller writes itself (refusals, holds, warnings)."""

    __slots__ = ("kind", "data", "ts_ns")

    def __init__(self, kind, data, ts_ns):
        self.kind, self.data, self.ts_ns = kind, data, ts_ns

    def to_json(self):
        return {"record": self.kind, "data": self.data, "ts_ns": self.ts_ns}

    def __repr__(self):
        return "Record(%r, %r)" % (self.kind, self.data)


class Tail(list):
    """A list that, with a `limit`, keeps only about its last `limit` items (trimmed a quarter
    at a time): what a table keeps in memory, when it runs for months, of what it journals."""

    def __init__(self, limit=None):
        super().__init__()
        self.limit = limit

    def append(self, item):
        super().append(item)
        if self.limit is not None and len(self) > self.limit + self.limit // 4:
            del self[:len(self) - self.limit]


class MemoryJournal(Tail):
    """The default journal: entries in memory, in order (the SQLite journal replaces it)."""

    def __call__(self, entry):
        self.append(entry)

    def records(self, kind):
        return [e for e in self if isinstance(e, Record) and e.kind == kind]


class TableController:
    """Owns one game Table; only its loop changes it. See the module docstring."""

    def __init__(self, table, *, clock=time.monotonic_ns, journal=None, outputs=None,
                 policies=None, keep=None):
        """`keep`: how many refusals and lock-outs to keep in memory (None: all of them)."""
        self.table = table
        self.model = table.model
        self.clock = clock
        self.journal = MemoryJournal() if journal is None else journal
        self.outputs = outputs or Outputs()
        if policies is None:
            from controller.policies import default_policies
            policies = default_policies(self.model.GAME)
        self.policies = list(policies)
        self.queue = queue.SimpleQueue()
        self.seq = 0
        self.stats = {"events": 0, "applied": 0, "refused": 0, "errors": 0, "faults": 0,
                      "lockouts": 0}
        self.kinds = Counter()       # events journaled this run, by kind (irregularity:KIND)
        self.refusals = Tail(keep)   # (event, reason) of the refused events, in order
        # per lock-out: {"reason", "section", "device", "ts_ns", "cleared", "cleared_by",
        # "cleared_at", "cleared_ns"}
        self.lockouts = Tail(keep)
        self.watchers = []           # fn(what, lockout) on the loop thread: "lock_out", "cleared"
        self.step_watchers = []      # fn(ctl) on the loop thread after each step (meters)
        self._event = None           # the event being applied (who cleared a lock-out)
        self._thread = None
        self._running = False

    # ---- inputs (any thread) ----------------------------------------------------------

    def submit(self, event):
        """Queue an event; safe from driver threads and GPIO callbacks."""
        self.queue.put(event)

    def frame_rejected(self, device, reason, frame):
        """A driver threw input away (a malformed frame, junk, a bad entry): journaled like
        every input, on the loop's thread, and never applied. Safe from driver threads."""
        self.submit(Event(FRAME_REJECTED, {"device": device, "reason": reason, "frame": frame},
                          device, self.clock()))

    def event(self, kind, data=None, source="dealer_panel"):
        """An event stamped now by the injected clock."""
        return Event(kind, data, source, self.clock())

    def policy(self, cls):
        return next((p for p in self.policies if isinstance(p, cls)), None)

    # ---- the loop (one thread) --------------------------------------------------------

    def run_once(self):
        """Apply every event queued now (see `order`), then the policies' timers."""
        batch = []
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                break
            if item is not _STOP:
                batch.append(item)
        for event in order(batch):
            self.process(event)
        self.tick()
        return len(batch)

    def run_until_idle(self, limit=100000):
        for _ in range(limit):
            if not self.run_once() and self.queue.empty():
                return
        raise RuntimeError("the controller did not become idle after %d steps" % limit)

    def start(self, name="tablectl-loop"):
        if self._thread is not None:
            raise RuntimeError("the controller loop is already running")
        self._running = True
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def stop(self, timeout=5.0):
        """Stop the loop after what is queued now, and join its thread."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._running = False
        self.queue.put(_STOP)
        thread.join(timeout)
        if thread.is_alive():
            raise RuntimeError("the controller loop did not stop within %.1f s" % timeout)

    def _loop(self):
        while self._running:
            try:
                first = self.queue.get(timeout=self._wait_s())
            except queue.Empty:
                self.tick()
                continue
            if first is _STOP:
                break
            batch = [first]
            while True:
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    self._running = False
                    break
                batch.append(item)
            for event in order(batch):
                self.process(event)
            self.tick()

    def _wait_s(self):
        due = [d for d in (p.deadline() for p in self.policies) if d is not None]
        if not due:
            return 0.05
        return min(0.05, max(0.0, (min(due) - self.clock()) / 1e9))

    # ---- one event ----------------------------------------------------------------------

    def note(self, what, ts_ns=None, /, **data):
        """Journal something the controller decided (a refusal, a hold, a warning)."""
        self.journal(Record(what, data, self.clock() if ts_ns is None else ts_ns))

    def process(self, event):
        self.seq += 1
        self.stats["events"] += 1
        was = self.model.state
        self.journal(event)                      # before it is applied, always
        self._event = event
        self.kinds[event.kind] += 1
        if event.kind == "irregularity":
            self.kinds["irregularity:%s" % event.get("kind")] += 1
        try:
            if event.kind == FRAME_REJECTED:
                return                           # journaled (and counted) is all
            if event.kind == "fault":
                self.stats["faults"] += 1
                self._safe_path(event)
            else:
                self._apply(event)
            self.stats["applied"] += 1
        except TablectlError as e:
            self.refuse(event, e)
        except Exception as e:                   # noqa: BLE001 - a bug must not stop the loop
            # the kind and source only: a card event's data may be an unrevealed hole card,
            # which no log may show (the journal keeps the event itself)
            log.exception("controller error on a %s event from %s", event.kind, event.source)
            self.stats["errors"] += 1
            self.refuse(event, e)
            self.model.lock("controller error on a %s event: %r" % (event.kind, e), None,
                            "controller")
        self._after(was)
        self._event = None

    def _apply(self, event):
        for p in self.policies:
            if p.before(self, event) is CONSUMED:
                break
        else:
            self.table.handle(event)
        for p in self.policies:
            p.after(self, event)

    def _safe_path(self, event):
        """The one fault path: outputs safe first, then the game's lock-out whatever it says."""
        failures = self.outputs.safe_all()
        if failures:
            self.note("safe_path_failures", event.ts_ns, failures=failures)
        try:
            self.table.handle(event)
        finally:
            if self.model.state != LOCKED_OUT:
                self.model.lock("device %s: %s" % (event.get("device"), event.get("reason")),
                                event.get("section"), event.get("device"))
            for p in self.policies:
                p.after(self, event)

    def refuse(self, event, error, attempt=False):
        self.stats["refused"] += 1
        self.refusals.append((event, str(error)))
        self.note("refused", event.ts_ns, seq=self.seq, event_kind=event.kind,
                  error=type(error).__name__, reason=str(error))

    def tick(self):
        """Timers of the policies (a deferred close of wagers, interval warnings)."""
        now = self.clock()
        for p in self.policies:
            was = self.model.state
            try:
                p.tick(self, now)
            except TablectlError as e:
                self.note("refused", now, event_kind="tick", error=type(e).__name__, reason=str(e))
            self._track_lockout(was)
        self.sync_outputs()            # once: an idle loop ticks thousands of times a second

    def _after(self, was):
        self._track_lockout(was)
        self.sync_outputs()
        for fn in list(self.step_watchers):
            try:
                fn(self)
            except Exception:                    # noqa: BLE001 - a watcher's bug is its own
                log.exception("step watcher")

    def _track_lockout(self, was):
        now = self.model.state
        if now == LOCKED_OUT and was != LOCKED_OUT:
            lo = self.model.lockout or {}
            self.stats["lockouts"] += 1
            entry = {"reason": lo.get("reason"), "section": lo.get("section"),
                     "device": lo.get("device"), "ts_ns": self.clock(), "cleared": False,
                     "cleared_by": None, "cleared_at": None, "cleared_ns": None}
            self.lockouts.append(entry)
            self.note("lock_out", reason=lo.get("reason"), section=lo.get("section"))
            self._tell("lock_out", entry)
        elif was == LOCKED_OUT and now != LOCKED_OUT and self.lockouts:
            entry = self.lockouts[-1]
            ev = self._event if self._event is not None and self._event.kind == "clear" else None
            entry.update(cleared=True, cleared_ns=self.clock(),
                         cleared_by=ev.get("role") if ev else None,
                         cleared_at=(ev.get("at") or ev.source) if ev else None)
            self._tell("cleared", entry)

    def _tell(self, what, entry):
        """The watchers (the console's announcements): a failing one never stops the loop."""
        for fn in list(self.watchers):
            try:
                fn(what, dict(entry))
            except Exception:                    # noqa: BLE001 - a watcher's bug is its own
                log.exception("lock-out watcher")

    # ---- outputs --------------------------------------------------------------------------

    def accepting(self):
        """Whether the table recognizes wagers now: the lock-out output is off only then."""
        return self.model.state in ACCEPTING and all(p.accepting(self) for p in self.policies)

    def sync_outputs(self):
        state = self.model.state
        if state == LOCKED_OUT:
            failures = self.outputs.safe_all()
            if failures:
                self.note("safe_path_failures", failures=failures)
            return
        in_round = state == WAGERS_OPEN or state in self.model.ROUND_STATES
        lit = {s for s, placed in self.model.wagers.items()
               if any(w in placed for w in progressive_wagers(self.model))} if in_round else ()
        attention = state not in ACCEPTING + tuple(self.model.ROUND_STATES) or \
            any(p.attention(self) for p in self.policies)
        meters = None if state == CLOSED else meter_values(self.model)
        try:
            self.outputs.show(lockout=not self.accepting(), tower=attention,
                              jackpot=state == "settled" and bool(getattr(self.model, "jackpots",
                                                                          None)), lit=lit,
                              meters=meters)
        except TablectlError as e:
            # an output that cannot be written is a malfunction: the table locks out
            self.note("output_failure", reason=str(e))
            self.model.lock("output failure: %s" % e, None, "outputs")
            self.outputs.safe_all()


def progressive_wagers(model):
    """The wager names a progressive table game system accepts at this game."""
    meters = getattr(model, "meters", None)
    return ("progressive",) + tuple(meters) if isinstance(meters, dict) else ("progressive",)


def order(batch):
    """Wagers and presses within one batch in timestamp order (others keep their places), so
    a wager stamped before a press but queued after it is applied before wagers close."""
    slots = [i for i, e in enumerate(batch) if e.kind in ("wager", "no_more_bets")]
    if len(slots) < 2:
        return batch
    timed = sorted((batch[i] for i in slots), key=lambda e: e.ts_ns)
    out = list(batch)
    for i, e in zip(slots, timed):
        out[i] = e
    return out
