"""The controller with its journal on disk: `boot(path, table, policies)`.

JournaledController is the TableController whose `journal` hook appends each entry to the
SQLite journal (an input is committed before the loop applies it), and which, after each
step, writes a snapshot when a round has ended and the meters when they changed, together
in one transaction. A timer that acted is journaled as a `tick` step with what it did.

boot() opens or creates the journal and, for an existing one, runs the boot checks before
anything else may start: the chain is verified, the state is rebuilt by replay (from the
snapshot before the last one, so the last snapshot is checked too) and the meters are
compared with that replay. A broken chain, a snapshot or a meter that differs locks the
table with a reason naming the first bad row; the lock-out is itself a journaled step, and
one in force at the power loss is in force again, since it is part of the replayed state.
Each boot writes the table clock's `clock` record (clock.py), after the records of any step
the power cut short: the controller's clock continues the journal's time line across power
cycles.
"""

import os
import time

from controller.errors import JournalError
from controller.games.engine import LOCKED_OUT, WAGERS_OPEN
from controller.journal import clock as table_clock
from controller.journal import meters as M
from controller.journal import state as S
from controller.journal.chain import Break
from controller.journal.replay import INTERRUPTED, Replay
from controller.journal.store import Store, load
from controller.table import MemoryJournal, Record, TableController


def entry_row(entry, round_no):
    if isinstance(entry, Record):
        return (entry.ts_ns, "controller", "record", entry.kind, round_no, entry.data)
    return (entry.ts_ns, entry.source, "event", entry.kind, round_no, entry.data)


MEMORY_TAIL = 10000


class _Hook(MemoryJournal):
    """The `journal` hook: to the disk first, then the last MEMORY_TAIL entries kept in memory
    (the file has them all; the console reads the file)."""

    def __init__(self, write):
        super().__init__(limit=MEMORY_TAIL)
        self.write = write

    def __call__(self, entry):
        self.write(entry)
        self.append(entry)


class JournaledController(TableController):
    """A TableController journaling to a Store; see the module docstring."""

    def __init__(self, table, *, store, counters=None, **kw):
        kw.setdefault("keep", MEMORY_TAIL)        # the file keeps them all
        super().__init__(table, journal=_Hook(self._write), **kw)
        self.store = store
        self.counters = counters or M.new_counters()
        self.meters = M.derive(self.model, self.counters)
        self.boot_report = {}
        self._buffer = None

    # ---- the journal hook -----------------------------------------------------------

    def _write(self, entry):
        row = entry_row(entry, self.model.round_no)
        if self._buffer is not None:
            self._buffer.append(row)
        else:
            self.store.append([row])

    def step_record(self, kind, data, ts_ns=None):
        """A step the controller takes on its own, journaled before it is applied."""
        ts = self.clock() if ts_ns is None else ts_ns
        self.store.append([(ts, "controller", "record", kind, self.model.round_no, data)])

    # ---- steps ----------------------------------------------------------------------

    def process(self, event):
        super().process(event)
        self.after_step()

    def tick(self):
        """Policies' timers; journaled as one `tick` step only when they did something."""
        now = self.clock()
        was = (self.model.state, self.model.round_no)
        self._buffer, clock = [], self.clock
        self.clock = lambda: now
        try:
            super().tick()
        finally:
            self.clock, buffered, self._buffer = clock, self._buffer, None
        if buffered or (self.model.state, self.model.round_no) != was:
            self.store.append([(now, "controller", "record", "tick", was[1], {})] + buffered)
            self.after_step()

    def after_step(self):
        ended = M.observe(self.counters, self.model)
        meters = M.derive(self.model, self.counters)
        rows = [self.snapshot_row()] if ended else []
        if rows or meters != self.meters:
            self.store.append(rows, meters=meters)
            self.meters = meters

    def snapshot_row(self):
        return (self.clock(), "controller", "snapshot", "snapshot", self.model.round_no,
                S.snapshot(self.table, self.policies, self.counters))

    # ---- inputs from outside the events ------------------------------------------------

    def capture_rng(self):
        """Journal each draw of the game's random number generator before it is used."""
        model = self.model
        if not hasattr(model, "use_rng"):
            return
        from controller.games.six_card_fortune import secrets_rng
        source = getattr(model, "_rng", None) or secrets_rng

        def draw():
            value = source()
            self._write(Record("rng", {"value": value}, self.clock()))
            return value
        model.use_rng(draw)

    def void_interrupted(self, reason=INTERRUPTED):
        """Void the round a power loss interrupted: every wager returned, once. True if one
        was; a table locked out stays locked (the clear comes first)."""
        m = self.model
        if not (m.state in m.ROUND_STATES or (m.state == WAGERS_OPEN and m.wagers)):
            return False
        self.step_record("resume_void", {"reason": reason})
        was = m.state
        m.void_round(reason)
        self._after(was)
        self.after_step()
        return True

    def lock_for_integrity(self, reason):
        self.step_record("integrity_lock", {"reason": reason})
        was = self.model.state
        if was == LOCKED_OUT:
            # already locked: the journal's reason replaces none, it is recorded beside it
            self.note("lock_out", reason=reason, section=None)
        else:
            self.model.lock(reason, None, "journal")
            self._after(was)
        self.after_step()

    def close(self):
        self.store.close()


# ---- boot -------------------------------------------------------------------------------

def header_of(policies, game):
    return {"format": 1, "game": game,
            "policies": [S.policy_name(p) for p in S.journaled(policies)]}


def check(store, model_cls, full=False, fallback_rng=None, round_no=None, anchor=None):
    """The boot checks on an open Store: (Replay or None, chain.Break or None).

    The chain is verified over the whole journal first (against `anchor` too, if given).
    The replay then starts at the genesis snapshot when `full`, else at the snapshot before
    the last one; it stops at the first broken row. With `round_no` (`journal show`) it
    starts at the last snapshot before that round began, keeps that round only, checks no
    meters and ends once the round is over. Both passes stream the rows inside one read
    transaction, so memory stays flat and a table appending meanwhile changes neither.
    """
    with store.reading():
        brk = store.verify(anchor)
        stop = None if brk is None else brk.seq
        first = [load(r) for r in store.rows(1, 3 if stop is None else min(3, stop))]
        if len(first) < 2 or first[0]["entry"] != "genesis" or \
                first[1]["entry"] != "snapshot":
            return None, brk or Break(1, "the journal does not begin with its genesis and "
                                         "first snapshot")
        header = first[0]["data"]
        if header.get("game") != model_cls.GAME:
            raise JournalError("journal %s is of %r, not %s"
                               % (store.path, header.get("game"), model_cls.GAME))
        meters_seq = None if round_no is not None else store.meters_seq()
        start = _start_snapshot(store, first[1]["seq"], stop, full, meters_seq, round_no)
        snap = first[1] if start == first[1]["seq"] else load(next(store.rows(start, start + 1)))
        keep, until = None, None             # boot: the course of the round or two replayed
        if round_no is not None:
            keep, until = (round_no,), (lambda r: _round_over(r, round_no))
        elif full:
            keep = ()                        # verify: no round's course, however many
        replay = Replay(header, model_cls, snap, fallback_rng, rounds=keep)
        replay.run((load(r) for r in store.rows(start + 1, stop)),
                   meters_seq=meters_seq if brk is None else None,
                   stored_meters=store.meters(), until=until)
    return replay, brk or replay.problem


def _start_snapshot(store, genesis_snap, stop, full, meters_seq, round_no):
    """The seq of the snapshot a check replays from (see `check`)."""
    if round_no is not None:
        return (store.snapshots(stop, before_round=round_no) or [genesis_snap])[0]
    start = genesis_snap if full else store.snapshots(stop, limit=2)[-1]
    if meters_seq is not None and start > meters_seq:
        below = meters_seq + 1 if stop is None else min(meters_seq + 1, stop)
        start = (store.snapshots(below) or [genesis_snap])[0]
    return start


def _round_over(replay, round_no):
    info = replay.rounds.get(round_no)
    return info is not None and info["status"] is not None


def boot(path, table, policies, *, clock=time.monotonic_ns, wall=time.time_ns,
         boot_id=table_clock.kernel_boot_id, utc_offset=table_clock.local_utc_offset_s,
         outputs=None, key=None):
    """The controller for `table`, resumed from the journal at `path` (created when absent).

    `table` and `policies` are fresh ones: for an existing journal their state is replaced
    by the replayed one. `ctl.boot_report["problem"]` is the lock-out reason, or None.
    `clock` (monotonic ns), `wall` (wall-clock ns), `boot_id` (the kernel's) and
    `utc_offset` (wall ns -> the local time zone's seconds ahead of UTC) are what the table
    clock (`ctl.clock`, controller/journal/clock.py) is made from. `key` (bytes)
    is the journal's key: a new journal is keyed with it; an existing one must be keyed with
    it, and is refused (JournalError) when keyed and no key is given.
    """
    model_cls = type(table.model)
    fresh = not os.path.exists(path) or os.path.getsize(path) == 0
    store = Store(path, _create=fresh, key=key)
    clock = table_clock.start(store, clock, wall, boot_id, utc_offset)
    if store.last_seq == 0:
        # new, or the power went before its first rows were committed: begin it (again)
        ctl = JournaledController(table, store=store, clock=clock, outputs=outputs,
                                  policies=policies)
        now = clock()
        store.append([(now, "controller", "genesis", "genesis", 0,
                       header_of(policies, model_cls.GAME)), ctl.snapshot_row(),
                      clock.row()], meters=ctl.meters)
        table_clock.apply(ctl, clock.boot)
        ctl.boot_report = {"created": True, "problem": None}
        return ctl
    try:
        replay, problem = check(store, model_cls)
    except BaseException:
        store.close()
        raise
    if replay is not None:
        table = replay.ctl.table
        S.restore_policies(policies, S.policies_state(replay.ctl.policies))
        counters = replay.counters
    else:
        counters = None
    ctl = JournaledController(table, store=store, counters=counters, clock=clock,
                              outputs=outputs, policies=policies)
    if hasattr(table.model, "use_rng") and replay is not None:
        table.model.use_rng(None)
    ctl.meters = store.meters()       # rewritten when they next change, never to hide one
    if problem is None:
        for value in replay.ctx.drawn:          # draws the cut-short last step made again
            ctl._write(Record("rng", {"value": value}, clock()))
    # a step of its own (replay.py), after the records of the step the power cut short
    store.append([clock.row(ctl.model.round_no)])
    table_clock.apply(ctl, clock.boot)
    if problem is None:
        if replay.snapshot_due:
            store.append([ctl.snapshot_row()], meters=M.derive(ctl.model, ctl.counters))
        ctl.after_step()
    model = ctl.model
    report = {"created": False, "problem": None if problem is None else str(problem),
              "from_snapshot": None if replay is None else replay.start_seq,
              "replayed_to": store.last_seq, "state": model.state,
              "round_no": model.round_no, "lockout": model.lockout,
              "digest": S.digest(ctl.table.snapshot())}
    ctl.note("boot", **report)
    ctl.boot_report = report
    if problem is not None:
        ctl.lock_for_integrity("journal: %s" % problem)
    ctl.sync_outputs()
    return ctl
