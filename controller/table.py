"""The single-writer controller loop: event in -> journal -> policies -> game -> outputs.

Driver threads and GPIO callbacks only `submit()` events stamped at their edge or frame;
the loop thread (or a test calling `run_once()`) is the only code that changes the table.
Every input is journaled before it is applied; a refusal is journaled after it, so a
replay sees the same inputs and the same refusals. How a step is kept is not the loop's
business: it holds a journal part (`self.journal`) and calls the hooks that
controller/journal_part.py declares (an in-memory one by default; the journal file's is
controller/journal/live.py's DurableJournal, which `journal.boot` gives it). The outputs
are derived from the table's state after every step, so they can never disagree with it
for longer than a step; the "no more bets" press writes the lock-out output itself, before
anything else, because that write is the regulated moment (see
controller/policies/no_more_bets.py).

Fail safe: a `fault` event first drives every output to its safe value, then asks the
game to lock out; a game that refuses the fault (a device it does not use) is locked out
anyway through the engine's one idempotent `lock()`. Any unexpected exception while
applying an event is treated the same way: refused, journaled, table locked.
"""

import collections
import logging
import queue
import threading
import time
from collections import Counter

from controller.errors import TablectlError
from controller.games.engine import CLOSED, LOCKED_OUT, ROUND_OVER, SHUFFLED, WAGERS_OPEN
from controller.games.events import Event
# the journal part's interface, and the entries and tails the loop keeps (Record and Tail
# importable from here as before they moved)
from controller.journal_part import JournalPart, MemoryJournal, Record, Tail
from controller.outputs import Outputs
from controller.policies import CONSUMED  # noqa: F401 - a policy handled the event itself
from controller.progressive import (accepting_progressive, display_values, progressive_wagers,
                                    progressives)

log = logging.getLogger(__name__)

ACCEPTING = (SHUFFLED, WAGERS_OPEN) + ROUND_OVER   # where a wager is (or opens) a round
_STOP = object()
_WAKE = object()                         # "look at the priority lane"
URGENT = ("no_more_bets",)               # the lock-out press: its line engaged ahead of the queue
FRAME_REJECTED = "frame_rejected"        # input a driver threw away; journaled, not applied
REJECT_INTERVAL_NS = 10 ** 9               # rejections journaled as one count per interval


class TableController:
    """Owns one game machine (engine.GameMachine); only its loop changes it. See the module
    docstring."""

    def __init__(self, table, *, clock=time.monotonic_ns, journal=None, outputs=None,
                 policies=None, keep=None):
        """`journal`: the JournalPart the loop holds (controller/journal_part.py; None: a
        MemoryJournal, what a table without a journal file keeps). `keep`: how many refusals,
        lock-outs and (without a journal) entries to keep in memory (None: all of them)."""
        if journal is not None and not isinstance(journal, JournalPart):
            raise TypeError("journal: a JournalPart (controller/journal_part.py), not %s"
                            % type(journal).__name__)
        self.table = table
        self.model = table.model
        self._clock = clock
        self._tick_clock = None      # the part's clock while a tick runs (see `clock`)
        self._batching = False       # a batch's inputs are being applied (see `stepped`)
        self.outputs = outputs or Outputs()      # (sets _shown: nothing written yet)
        if policies is None:
            from controller.policies import default_policies
            policies = default_policies(self.model.GAME)
        self.policies = list(policies)
        self.queue = queue.SimpleQueue()
        self.urgent = queue.SimpleQueue()    # the priority lane (see `submit`)
        self._held = set()                   # presses taken from it, not applied yet
        self.seq = 0
        self.stats = {"events": 0, "applied": 0, "refused": 0, "errors": 0, "faults": 0,
                      "lockouts": 0}
        self.kinds = Counter()       # events journaled this run, by kind (irregularity:KIND)
        self.sources = Counter()     # inputs taken this run by source, rejected frames aside
        self.refusals = Tail(keep)   # (event, reason) of the refused events, in order
        # per lock-out: {"reason", "section", "device", "ts_ns", "cleared", "cleared_by",
        # "cleared_at", "cleared_ns"}
        self.lockouts = Tail(keep)
        self.watchers = []           # fn(what, lockout) on the loop thread: "lock_out", "cleared"
        self.step_watchers = []      # fn(ctl) on the loop thread after each step (meters)
        self._event = None           # the event being applied (who cleared a lock-out)
        self._thread = None
        self._running = False
        self._reject_lock = threading.Lock()
        self._rejects = {}           # (device, reason) -> this interval's count (frame_rejected)
        self._notes = 0              # notes written (a timer that wrote one did something)
        self._synced = False         # the outputs were synced by the step just applied
        self.journal = MemoryJournal(keep) if journal is None else journal
        self.journal.attach(self)    # last: a part may read what the loop holds

    # ---- the journal part's clock, and what callers read of the part -----------------------

    @property
    def clock(self):
        """The table clock; while a tick runs, the clock the journal part gives for it
        (`JournalPart.tick_clock`: a part that journals the tick as one step fixes every
        stamp in it to the tick's time, so a replay, which runs the tick at that time,
        stamps the same)."""
        tick_clock = self._tick_clock
        return self._clock if tick_clock is None else tick_clock

    @clock.setter
    def clock(self, clock):
        self._clock = clock

    # Read-only delegations to the journal part, for the many callers (the console, the
    # runtime, the benches, the tests) that read them off the controller; None where the part
    # keeps none (a table without a journal file: `getattr(ctl, "store", None)` as before).
    store = property(lambda self: self.journal.store, doc="the part's JournalStore, or None")
    meters = property(lambda self: self.journal.meters,
                      doc="the regulation meters as committed last, or None")
    boot_report = property(lambda self: self.journal.boot_report,
                           doc="what the journal's boot checks found, or None")

    def capture_rng(self):
        """Each draw of the game's random number generator journaled before it is used."""
        self.journal.capture_rng()

    def commit_pending(self):
        """What the journal part still holds, kept now (the runtime's shutdown, once the loop
        stopped; a simulation between runs)."""
        self.journal.commit_pending()

    def close(self):
        """The journal part closed: its files, witnesses and locks released."""
        self.journal.close()

    def void_interrupted(self, *reason):
        """The durable part's (controller/journal/live.py): the round a power loss cut short
        voided at the restart; a table without a journal file has no such round to void."""
        return self.journal.void_interrupted(*reason)

    # ---- inputs (any thread) ----------------------------------------------------------

    def submit(self, event):
        """Queue an event; safe from driver threads and GPIO callbacks.

        A lock-out press (URGENT) takes the priority lane: the loop engages the lock-out
        output before it applies the next queued event, so the line never waits behind
        wagers queued before the press. The press itself is then journaled and applied in
        stamp order among those wagers (`order`), so what is recognized, and what a replay
        of the journal sees, is what it was without the lane."""
        if event.kind in URGENT:
            self.urgent.put(event)
            self.queue.put(_WAKE)            # wakes a loop asleep on the queue
        else:
            self.queue.put(event)

    def frame_rejected(self, device, reason, frame, count=1):
        """A driver threw input away (a malformed frame, junk, a bad entry): journaled like
        every input, on the loop's thread, and never applied. Safe from driver threads.
        `count`: how many rejections of this reason the report stands for (the driver
        batches a burst too, drivers/devices/serial_device.py); `frame` is the last one's.

        Counted, not journaled one by one (issue 11: a babbling device wrote ~2,900 fsync'd
        rows a second): the first rejection of a (device, reason) after a quiet interval is
        journaled at once, with count 1; the ones after it within REJECT_INTERVAL_NS are
        counted, and journaled as one row with their count and the last frame when the
        interval ends (`tick`, on the injected clock) or the loop stops. So a device makes at
        most two rows per reason per interval, and every rejected frame is in a count."""
        now = self.clock()
        key = (str(device), str(reason))
        with self._reject_lock:
            b = self._rejects.get(key)
            if b is not None and now - b["since"] < REJECT_INTERVAL_NS:
                b["count"] += count
                b["frame"], b["last_ns"] = frame, now
                if b["first_ns"] is None:
                    b["first_ns"] = now
                return
            if b is not None and b["count"]:
                self._submit_rejections(key, b)
            self._rejects[key] = {"since": now, "count": 0, "frame": None, "first_ns": None,
                                  "last_ns": None}
        self.submit(Event(FRAME_REJECTED, {"device": device, "reason": reason, "frame": frame,
                                           "count": count}, device, now))

    def _submit_rejections(self, key, b, submit=None):
        device, reason = key
        (submit or self.submit)(Event(FRAME_REJECTED, {"device": device, "reason": reason,
                                           "frame": b["frame"], "count": b["count"],
                                           "first_ns": b["first_ns"], "last_ns": b["last_ns"]},
                          device, b["last_ns"]))

    def flush_rejections(self, now=None, force=False, submit=None):
        """Submit the counts of the intervals that have ended (all of them, `force`);
        `submit`: where to (the queue, else e.g. `process` when no loop runs)."""
        now = self.clock() if now is None else now
        with self._reject_lock:
            for key, b in list(self._rejects.items()):
                if force or now - b["since"] >= REJECT_INTERVAL_NS:
                    if b["count"]:
                        self._submit_rejections(key, b, submit)
                    if force:
                        del self._rejects[key]
                    else:
                        b.update(since=now, count=0, frame=None, first_ns=None, last_ns=None)

    def idle(self):
        """Nothing queued in either lane."""
        return self.queue.empty() and self.urgent.empty()

    def event(self, kind, data=None, source="dealer_panel"):
        """An event stamped now by the injected clock."""
        return Event(kind, data, source, self.clock())

    def policy(self, cls):
        return next((p for p in self.policies if isinstance(p, cls)), None)

    def offered(self, name):
        """What a policy offers a screen under `name` (Policy.offers), or None when no
        policy at this table offers it (a table without the reader's inspection)."""
        for p in self.policies:
            got = p.offers(self)
            if name in got:
                return got[name]
        return None

    # ---- the loop (one thread) --------------------------------------------------------

    def run_once(self, wait_s=None):
        """Apply every event queued now (see `order`), then the policies' timers.

        `wait_s`: when nothing is queued, sleep on the queue up to that long (and no later
        than a policy's next deadline) for the first event: the caller is woken by an input,
        not by polling."""
        batch = []
        if wait_s is not None and self.queue.empty() and self.urgent.empty():
            try:
                batch.append(self.queue.get(timeout=max(0.0, min(wait_s, self._wait_s()))))
            except queue.Empty:
                pass
        while True:
            try:
                batch.append(self.queue.get_nowait())
            except queue.Empty:
                break
        batch = [item for item in batch if item is not _STOP]
        self._apply_batch(batch)
        self.tick()
        return len(batch)

    def run_until_idle(self, limit=100000):
        for _ in range(limit):
            if not self.run_once() and self.queue.empty() and self.urgent.empty():
                return
        raise RuntimeError("the controller did not become idle after %d steps" % limit)

    def start(self, name="tablectl-loop"):
        if self._thread is not None:
            raise RuntimeError("the controller loop is already running")
        self._running = True
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()
        self.journal.started()

    def stop(self, timeout=5.0):
        """Stop the loop after what is queued now, and join its thread."""
        self.flush_rejections(force=True)        # the counts so far, journaled before the end
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
            self._apply_batch(batch)
            self.tick()

    def _apply_batch(self, batch):
        """The batch in `order`, with the priority lane looked at before each event: a press
        found there engages the lock-out line at once, then joins the events queued so far
        in `order`, so the wagers stamped before it are applied (and journaled) before it,
        exactly as when it waited in line."""
        pending = collections.deque(order([e for e in batch if e is not _WAKE]))
        self._batching = True            # the journal part may commit a step's derived rows
        try:                             # with the next input's (JournalPart.stepped)
            while True:
                if not self.urgent.empty():
                    pending = collections.deque(order(list(pending) + self._take_urgent()))
                if not pending:
                    return
                self.process(pending.popleft())
        finally:
            self._batching = False

    def _take_urgent(self):
        """The presses in the priority lane, each holding the lock-out line engaged from now
        until it is applied, and every event queued behind them so far."""
        presses = []
        while True:
            try:
                presses.append(self.urgent.get_nowait())
            except queue.Empty:
                break
        for press in presses:
            self._held.add(id(press))
        self.outputs.engage_lockout()         # the regulated moment: before any queued wager
        queued = []
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                break
            if item is _STOP:
                self._running = False
            elif item is not _WAKE:
                queued.append(item)
        return presses + queued

    def _wait_s(self):
        due = [d for d in (p.deadline() for p in self.policies) if d is not None]
        if not due:
            return 0.05
        return min(0.05, max(0.0, (min(due) - self.clock()) / 1e9))

    # ---- one event ----------------------------------------------------------------------

    def note(self, what, ts_ns=None, /, **data):
        """Journal something the controller decided (a refusal, a hold, a warning)."""
        self._notes += 1
        self.journal(Record(what, data, self.clock() if ts_ns is None else ts_ns))

    def process(self, event):
        """One input's step: journaled, applied, the outputs derived; then the journal part
        told the step is over (`JournalPart.stepped`)."""
        self._step(event)
        self.journal.stepped(self._batching)

    def _step(self, event):
        self._held.discard(id(event))
        self.seq += 1
        self.stats["events"] += 1
        was = self.model.state
        self.journal(event)                      # before it is applied, always
        self._event = event
        self.kinds[event.kind] += 1
        if event.kind != FRAME_REJECTED:
            self.sources[event.source] += 1
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
        """A device's fault: the safe state first, then the game's lock-out whatever it says."""
        self.safe_state(event.ts_ns)
        try:
            self.table.handle(event)
        finally:
            if self.model.state != LOCKED_OUT:
                self.model.lock("device %s: %s" % (event.get("device"), event.get("reason")),
                                event.get("section"), event.get("device"))
            for p in self.policies:
                p.after(self, event)

    def safe_state(self, ts_ns=None):
        """THE safe path: every output to its safe value (drivers.hal.safe_all, one try/except
        per line), failures journaled. A fault, a locked table, an output that cannot be
        written and the runtime's shutdown (controller/runtime.py) all come here."""
        self._shown = LOCKED_OUT
        failures = self.outputs.safe_all()
        if failures:
            self.note("safe_path_failures", ts_ns, failures=failures)
        return failures

    def refuse(self, event, error, attempt=False):
        self.stats["refused"] += 1
        self.refusals.append((event, str(error)))
        self.note("refused", event.ts_ns, seq=self.seq, event_kind=event.kind,
                  error=type(error).__name__, reason=str(error))

    def tick(self):
        """Timers of the policies (a deferred close of wagers, interval warnings), at the
        clock the journal part gives for the tick (`JournalPart.tick_clock`), which is then
        told the tick is over (`ticked`)."""
        now = self.clock()
        self._tick_clock = self.journal.tick_clock(now)
        done = False
        try:
            self._timers(now)
            done = True
        finally:
            self._tick_clock = None
            self.journal.ticked(done)

    def tick_is_quiet(self, now):
        """Whether a tick at `now` would change nothing: nothing queued, no rejections
        batched, no policy's timer or time-dependent output due (`Policy.quiet_until`), the
        outputs written, the journal part with nothing to flush. hal_sim/virtual.py's bulk
        scheduler skips such ticks (the stepwise one runs them all, and both are held to
        the same journal byte for byte); the real loop runs them all."""
        if not self.idle() or self._rejects or self._shown is None:
            return False
        for p in self.policies:
            q = p.quiet_until(self)
            if q is not None and q <= now:
                return False
        return self.journal.quiet_tick(now)

    def skip_quiet_tick(self):
        """What a quiet tick leaves (see tick_is_quiet): the next tick syncs the outputs."""
        self._synced = False

    def _timers(self, now):
        if self._rejects:
            self.flush_rejections(now)
        notes, changed, model = self._notes, False, self.model
        for p in self.policies:
            was = model.state
            try:
                p.tick(self, now)
            except TablectlError as e:
                self.note("refused", now, event_kind="tick", error=type(e).__name__, reason=str(e))
            if model.state != was:               # (no step changed: no lock-out to track)
                changed = True
                self._track_lockout(was)
        # once, and not again right after a step that synced them, unless a timer did
        # something (a close of wagers, a warning): a step costs one sync, not two
        if changed or notes != self._notes or not self._synced:
            self.sync_outputs()
        self._synced = False

    def _after(self, was):
        self._track_lockout(was)
        self.sync_outputs()
        self._synced = True
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
        return not self._held and self.model.state in ACCEPTING and \
            all(p.accepting(self) for p in self.policies)

    @property
    def outputs(self):
        return self._outputs

    @outputs.setter
    def outputs(self, outputs):
        self._outputs = outputs
        self._shown = None            # new lines: the next sync writes them all

    def sync_outputs(self):
        """The outputs derived from the table's state; written only when that changed (the
        lines keep their levels: an idle loop, or a step that changes nothing they show,
        costs no write and no frame)."""
        state = self.model.state
        if state == LOCKED_OUT:
            if self._shown is not LOCKED_OUT:
                self.safe_state()
            return
        in_round = state == WAGERS_OPEN or state in self.model.ROUND_STATES
        # a linked meter whose link is down: its progressive is unplayable, the sensors locked
        # out and the acceptance lights off (docs/linked-progressives.md); base play goes on
        meters_of = progressives(self.model)
        link_ok = accepting_progressive(self.model, meters_of)
        if in_round and self._outputs.seats and link_ok:
            names = progressive_wagers(self.model)
            lit = frozenset(s for s, placed in self.model.wagers.items()
                            if any(w in placed for w in names))
        else:
            lit = frozenset()
        attention = state not in ACCEPTING + tuple(self.model.ROUND_STATES) or \
            any(p.attention(self) for p in self.policies)
        meters = None if state == CLOSED or self._outputs.meters is None \
            else display_values(self.model, meters_of)
        jackpot = state == "settled" and bool(getattr(self.model, "jackpots", None))
        lockout = not self.accepting() or not link_ok
        shown = (lockout, attention, jackpot, lit,
                 meters if not isinstance(meters, dict) else tuple(sorted(meters.items())))
        if shown == self._shown:
            return
        try:
            self._outputs.show(lockout=lockout, tower=attention, jackpot=jackpot, lit=lit,
                               meters=meters)
            self._shown = shown
        except TablectlError as e:
            # an output that cannot be written is a malfunction: the table locks out
            self.note("output_failure", reason=str(e))
            self.model.lock("output failure: %s" % e, None, "outputs")
            self.safe_state()


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
