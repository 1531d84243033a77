"""The controller with its journal on disk: `boot(path, table, policies)`.

DurableJournal is the journal part (controller/journal_part.py) a TableController holds when
its table has a journal file (`journaled_controller`): each entry goes to the JournalStore
(the sector log; an older version's SQLite file when resumed). An input (an event, a random
draw, a self-test result, a failed output, a console command) is committed before the loop
applies it; what a step derives (refusals, notes, the snapshot at a round's end, the meters)
is committed with the next input's row or after FLUSH_IDLE_NS idle, in one transaction. A
timer that acted is journaled as a `tick` step with what it did. At each round's end, at boot
and at a clean stop the head is written to the anchor's witnesses (anchor.py).

boot() takes the journal's lock (lock.py), then opens the journal, or creates it whole when
no file is there; a file that is there but cannot be resumed is never adopted as new (the
table boots locked out, journaling beside it). For a journal with rows it runs the boot
checks before anything else may start: the head (keyed: under the key) and the anchor's
witnesses against the rows, the chain from the last verified anchor, the state rebuilt by
replay (from the snapshot before the last one, so the last snapshot is checked too) and the
meters compared with that replay. A problem locks the table with a reason naming the first
bad row; the lock-out is itself a journaled step, and one in force at the power loss is in
force again, since it is part of the replayed state. The rows before the anchor are verified
in the background after the start (`verify_older_rows`). Each boot writes the table clock's
`clock` record (clock.py), after the records of any step the power cut short: the
controller's clock continues the journal's time line across power cycles.
"""

import os
import threading
import time

from controller.errors import JournalDamaged, JournalError
from controller.journal import anchor as A
from controller.games.engine import LOCKED_OUT, WAGERS_OPEN
from controller.journal import clock as table_clock
from controller.journal import meters as M
from controller.journal import state as table_state
from controller.journal.chain import Break
from controller.journal.chain import verify as chain_verify
from controller.journal.replay import INTERRUPTED, Replay
from controller.journal.lock import JournalLock
from controller.journal.formats import create_journal, open_journal
from controller.journal.store import load
from controller.journal_part import MemoryJournal, Record
from controller.table import TableController


def entry_row(entry, round_no):
    if isinstance(entry, Record):
        return (entry.ts_ns, "controller", "record", entry.kind, round_no, entry.data)
    return (entry.ts_ns, entry.source, "event", entry.kind, round_no, entry.data)


MEMORY_TAIL = 10000
FLUSH_IDLE_NS = 10 ** 9          # derived rows wait at most this long for the next input
ROWS_PER_PAUSE = 2000
VERIFY_AFTER_S = 10.0            # the background verification begins this long after start


class _Stopped(Exception):
    pass


# records that are inputs (from outside the table: a draw, a device's self-test, an output
# that failed): on the disk before they are used, as the events are
INPUT_RECORDS = ("rng", "selftest", "output_failure")


class DurableJournal(MemoryJournal):
    """The journal part (controller/journal_part.py) of a table with a journal file: each
    entry to the JournalStore `store` first, then the last MEMORY_TAIL of them kept in memory
    (the file has them all; the console reads the file). See the module docstring."""

    def __init__(self, *, store, counters=None, witnesses=()):
        super().__init__(limit=MEMORY_TAIL)
        self.store = store
        self.counters = counters or M.new_counters()
        self.meters = None               # derived from the model once attached
        self.boot_report = {}
        self.witnesses = list(witnesses)
        self.locks = []                # JournalLock(s) held while the journal is open
        self.anchor_seq = -1
        self.anchor_failures = 0
        self._buffer = None            # a tick's rows, journaled as one step (see `ticked`)
        self._tick_was = None
        self._tick_now = None
        self._pending = []             # derived rows not yet committed (see `flush`)
        self._pending_meters = None
        self._anchor_due = False
        self._pending_since = None
        self._background_break = None
        self.background = None
        self._closing = threading.Event()

    def attach(self, ctl):
        super().attach(ctl)
        self.meters = M.derive(ctl.model, self.counters)

    # ---- the entries ------------------------------------------------------------------

    def __call__(self, entry):
        self._write(entry)
        self.append(entry)

    def _write(self, entry):
        ctl = self.ctl
        row = entry_row(entry, ctl.model.round_no)
        loop = ctl._thread
        if loop is not None and threading.current_thread() is not loop:
            self.store.append([row])              # the console's thread: its own commit
        elif self._buffer is not None:
            self._buffer.append(row)
        elif isinstance(entry, Record) and entry.kind not in INPUT_RECORDS and \
                not entry.kind.startswith("console"):
            self._pending.append(row)             # derived: committed with the step's end
        else:
            self.flush([row])                     # an input: on the disk before it is used

    def flush(self, rows=(), meters=None):
        """Commit what is pending (the derived rows and meters of the steps before) followed
        by `rows`, in one transaction; then the anchor, if a round ended."""
        derived = len(self._pending)
        rows = self._pending + list(rows)
        if meters is not None:                # the caller's: after all the rows
            self._pending_meters, derived = meters, len(rows)
        meters, self._pending, self._pending_meters = self._pending_meters, [], None
        self._pending_since = None
        if rows or meters is not None:
            # the meters are those of the steps before: after the derived rows, not after
            # the input committed with them (which is not applied yet)
            self.store.append(rows, meters=meters, meters_after=derived)
        if self._anchor_due and not self.boot_report.get("problem"):
            self._anchor_due = False
            self.write_anchor()

    def write_anchor(self):
        """The head, written to every witness of the anchor (anchor.py); only forward. A
        witness that cannot be written is journaled, and the table plays on: the journal
        itself is committed, only rollback detection is older."""
        seq, digest = self.store.last()
        if seq <= self.anchor_seq:
            return
        anchor = A.make(seq, digest, self.store.key, self.store.key_id)
        for w in self.witnesses:
            try:
                w.write(anchor)
            except OSError as e:
                self.anchor_failures += 1
                self.ctl.note("anchor_failure", witness=w.name, reason=str(e))
        self.anchor_seq = seq

    def step_record(self, kind, data, ts_ns=None):
        """A step the controller takes on its own, journaled before it is applied."""
        ts = self.ctl.clock() if ts_ns is None else ts_ns
        self.flush([(ts, "controller", "record", kind, self.ctl.model.round_no, data)])

    # ---- steps ----------------------------------------------------------------------

    def stepped(self, batched):
        """An input's step is over. What it derived is committed with the next input's row
        when more of its batch follow (each input committed before it is applied), or by
        `ticked` once the loop has been idle FLUSH_IDLE_NS; a step on its own commits it
        at once."""
        self.after_step()
        if not batched:
            self.flush()

    def tick_clock(self, now):
        """The policies' timers are journaled as one `tick` step, when they did something:
        their rows are held until the tick is over, and every stamp in it is `now`, the
        stamp of the `tick` record a replay runs the timers at."""
        model = self.ctl.model
        self._tick_now, self._tick_was, self._buffer = now, (model.state, model.round_no), []
        return lambda: now

    def ticked(self, done):
        now, was = self._tick_now, self._tick_was
        buffered, self._buffer, self._tick_now, self._tick_was = self._buffer, None, None, None
        if not done:
            return
        model = self.ctl.model
        if buffered or (model.state, model.round_no) != was:
            self.flush([(now, "controller", "record", "tick", was[1], {})] + buffered)
            self.after_step()
        if self._pending or self._pending_meters is not None:
            if self._pending_since is None:
                self._pending_since = now
            elif now - self._pending_since >= FLUSH_IDLE_NS:
                self.flush()
        if self._background_break is not None:
            self._apply_background()

    def quiet_tick(self, now):
        """A tick that journals nothing (no policy acted) leaves this part as it is unless
        rows wait for their idle flush (the tick starts its second, or ends it) or a
        background break waits to be applied (see `ticked`)."""
        if self._background_break is not None:
            return False
        if self._pending or self._pending_meters is not None:
            return self._pending_since is not None and now - self._pending_since < FLUSH_IDLE_NS
        return True

    def after_step(self):
        model = self.ctl.model
        ended = M.observe(self.counters, model)
        meters = M.derive(model, self.counters)
        if ended:
            self._pending.append(self.snapshot_row())
            self._anchor_due = True
        if ended or meters != self.meters:
            self._pending_meters = meters
            self.meters = meters

    def snapshot_row(self):
        ctl = self.ctl
        return (ctl.clock(), "controller", "snapshot", "snapshot", ctl.model.round_no,
                table_state.snapshot(ctl.table, ctl.policies, self.counters))

    # ---- inputs from outside the events ------------------------------------------------

    def capture_rng(self):
        """Journal each draw of the game's random number generator before it is used."""
        model = self.ctl.model
        secure_rng = model.DECLARES.secure_rng       # the game declares it draws from one
        if secure_rng is None:
            return
        source = getattr(model, "_rng", None) or secure_rng

        def draw():
            value = source()
            self._write(Record("rng", {"value": value}, self.ctl.clock()))
            return value
        model.use_rng(draw)

    def void_interrupted(self, reason=INTERRUPTED):
        """Void the round a power loss interrupted: every wager returned, once. True if one
        was; a table locked out stays locked (the clear comes first)."""
        m = self.ctl.model
        if not (m.state in m.ROUND_STATES or (m.state == WAGERS_OPEN and m.wagers)):
            return False
        self.step_record("resume_void", {"reason": reason})
        was = m.state
        m.void_round(reason)
        self.ctl._after(was)
        self.after_step()
        self.flush()
        return True

    def lock_for_integrity(self, reason):
        ctl = self.ctl
        self.step_record("integrity_lock", {"reason": reason})
        was = ctl.model.state
        if was == LOCKED_OUT:
            # already locked: the journal's reason replaces none, it is recorded beside it
            ctl.note("lock_out", reason=reason, section=None)
        else:
            ctl.model.lock(reason, None, "journal")
            ctl._after(was)
        self.after_step()
        self.flush()

    # ---- the full verification, at idle ------------------------------------------------

    def started(self):
        """The rows before this boot's check verified in the background, once the loop runs."""
        if self.boot_report.get("verified_from", 1) and \
                (self.boot_report.get("verified_from") or 1) > 1:
            threading.Thread(target=self._verify_when_idle, name="tablectl-journal-verify",
                             daemon=True).start()

    def _verify_when_idle(self):
        # after READY and the first inputs: the boot's own work is never slowed by it
        if not self._closing.wait(VERIFY_AFTER_S):
            self.verify_older_rows()

    def verify_older_rows(self, pause_s=0.001):
        """The chain from the genesis up to where this boot's check began (the rows since
        were verified before READY): on its own connection, a batch at a time with a pause
        between batches so the loop keeps the processor. A break is handed to the loop, which
        locks the table for it (`tick`). Returns the Break or None."""
        upto = self.boot_report.get("verified_from") or 1
        self.background = {"state": "running", "rows": upto - 1}
        brk = None
        try:
            store = open_journal(self.store.path, key=self.store.key)
            try:
                def paced():
                    for n, row in enumerate(store.rows(1, upto)):
                        if n % ROWS_PER_PAUSE == ROWS_PER_PAUSE - 1:
                            if self._closing.is_set():
                                raise _Stopped()
                            time.sleep(pause_s)
                        yield row
                with store.reading():
                    brk = chain_verify(paced(), None, store.key)
                    if brk is None and upto > 1:
                        row = next(store.rows(upto - 1, upto), None)
                        nxt = next(store.rows(upto, upto + 1), None)
                        if row is None or (nxt is not None and nxt["prev_hash"] != row["hash"]):
                            brk = Break(upto, "its link does not match row %d" % (upto - 1))
            finally:
                store.close()
        except _Stopped:
            self.background = {"state": "stopped", "rows": upto - 1}
            return None
        except Exception as e:              # noqa: BLE001 - reported, never raised in a thread
            brk = Break(0, "the full verification could not run: %s" % e)
        self.background = {"state": "passed" if brk is None else "failed", "rows": upto - 1,
                           "problem": None if brk is None else str(brk)}
        self._background_break = brk
        return brk

    def _apply_background(self):
        brk, self._background_break = self._background_break, None
        if brk is not None:
            self.boot_report["problem"] = "journal (the full verification at idle): %s" % brk
            self.lock_for_integrity(self.boot_report["problem"])

    def commit_pending(self):
        """What is still held (derived rows, the batched rejections when no loop runs) on
        the disk now: the runtime's shutdown calls it once the loop stopped and before the
        parts that read the journal file (the floor link) stop."""
        if self.store is None:
            return
        ctl = self.ctl
        if ctl._thread is None:
            ctl.flush_rejections(force=True, submit=ctl.process)
        self.flush()

    def close(self):
        """What is held committed, the anchor written (no problem found), the store closed;
        the witnesses closed and the journal's locks released whatever happens."""
        self._closing.set()
        try:
            if self.store is not None:
                try:
                    ctl = self.ctl
                    if ctl._thread is None:        # no loop to take them: journaled here
                        ctl.flush_rejections(force=True, submit=ctl.process)
                    self.flush()
                    if not self.boot_report.get("problem"):
                        self.write_anchor()
                finally:
                    self.store.close()
        finally:
            for w in self.witnesses:
                getattr(w, "close", lambda: None)()
            for lock in self.locks:
                lock.release()
            self.locks = []


# ---- boot -------------------------------------------------------------------------------

def journaled_controller(table, *, store, counters=None, witnesses=(), **kw):
    """A TableController holding a DurableJournal on `store` (`kw`: the controller's own:
    clock, outputs, policies; it keeps MEMORY_TAIL refusals and lock-outs, the file the
    rest). What `boot` builds; a caller that has a store and no boot checks to run (a
    bench) builds one the same way."""
    kw.setdefault("keep", MEMORY_TAIL)        # the file keeps them all
    return TableController(table, journal=DurableJournal(store=store, counters=counters,
                                                         witnesses=witnesses), **kw)


def header_of(policies, game):
    return {"format": 1, "game": game,
            "policies": [table_state.policy_name(p) for p in table_state.journaled(policies)]}



def check(store, model_cls, full=False, fallback_rng=None, round_no=None, anchor=None,
          verify_from=1):
    """The boot checks on an open Store: (Replay or None, chain.Break or None).

    The chain is verified first (against `anchor` too, if given): over the whole journal,
    or at a boot from `verify_from` (the row after the last verified anchor, anchor.py), or
    from the snapshot the replay starts at if that is earlier, so every row replayed is
    verified too. The replay then starts at the genesis snapshot when `full`, else at the
    snapshot before the last one; it stops at the first broken row. With `round_no`
    (`journal show`) it starts at the last snapshot before that round began, keeps that round
    only, checks no meters and ends once the round is over. Both passes stream the rows inside
    one read transaction, so memory stays flat and a table appending meanwhile changes neither.
    """
    with store.reading():
        if verify_from > 1 and not full and round_no is None:
            first_snap = store.snapshots(3, limit=1)
            if first_snap:
                verify_from = min(verify_from, _start_snapshot(
                    store, first_snap[0], None, False, store.meters_seq(), None))
        else:
            verify_from = 1
        brk = store.verify(anchor, start=max(1, verify_from))
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
        replay.verified_from = verify_from
    return replay, brk or replay.problem


def _start_snapshot(store, genesis_snap, stop, full, meters_seq, round_no):
    """The seq of the snapshot a check replays from (see `check`)."""
    if round_no is not None:
        return (store.snapshots(stop, before_round=round_no) or [genesis_snap])[0]
    start = genesis_snap if full else (store.snapshots(stop, limit=2) or [genesis_snap])[-1]
    if meters_seq is not None and start > meters_seq:
        below = meters_seq + 1 if stop is None else min(meters_seq + 1, stop)
        start = (store.snapshots(below) or [genesis_snap])[0]
    return start


def _round_over(replay, round_no):
    info = replay.rounds.get(round_no)
    return info is not None and info["status"] is not None


class _NoJournal:
    """What the table clock reads of a journal that has no row yet."""

    def last_record(self, kind):
        return None

    def latest_ts(self):
        return None


def witnesses_for(path, extra=()):
    """The copies of the anchor a boot compares: the file beside the journal, then any other
    (the floor link's, when it keeps one: anchor.Witness)."""
    return [A.FileWitness(path)] + list(extra)


def anchor_problem(store, witnesses, key):
    """The first disagreement between the journal and a witness of its anchor, or None;
    and the highest anchor seq that agreed (the boot verifies the rows after it)."""
    verified = 0
    for w in witnesses:
        try:
            a = w.read()
        except JournalError as e:
            return str(e), 0
        if a is None:
            if store.meta("anchored") == "1" and isinstance(w, A.FileWitness):
                return ("%s is missing, but the journal's anchor was written there (deleted: "
                        "a rollback could not be told)" % w.name), 0
            continue
        problem = A.check(store, a, w.name, key)
        if problem:
            return problem, 0
        verified = max(verified, a["seq"])
    return None, verified


def boot(path, table, policies, *, clock=time.monotonic_ns, wall=time.time_ns,
         boot_id=table_clock.kernel_boot_id, utc_offset=table_clock.local_utc_offset_s,
         outputs=None, key=None, witnesses=(), full=False, journal_format=None):
    """The controller for `table`, resumed from the journal at `path` (created only when no
    file is there).

    First the journal's lock (lock.py: a second controller on it raises JournalInUse). Then:
    no file (and no anchor naming a row): a new journal, created whole. A file that cannot
    be resumed (zero bytes, no tables, no rows, not initialized; JournalDamaged) is kept as
    found and the table boots locked out on a new journal beside it (`PATH.refused-STAMP.db`)
    naming the problem. A journal with rows: its head (keyed: under the key), its anchor's
    witnesses (anchor.py) and the chain from the last verified anchor (`full`: from the
    genesis) are checked, then the state is rebuilt by replay; any problem locks the table
    naming it, journaled in the journal itself.

    `table` and `policies` are fresh ones: for an existing journal their state is replaced
    by the replayed one. `ctl.boot_report["problem"]` is the lock-out reason, or None.
    `clock` (monotonic ns), `wall` (wall-clock ns), `boot_id` (the kernel's) and
    `utc_offset` (wall ns -> the local time zone's seconds ahead of UTC) are what the table
    clock (`ctl.clock`, controller/journal/clock.py) is made from. `key` (bytes)
    is the journal's key: a new journal is keyed with it; an existing one must be keyed with
    it, and is refused (JournalError) when keyed and no key is given. `witnesses`: further
    copies of the anchor than the file beside the journal (anchor.Witness). `journal_format`
    is what a new journal is written as (formats.new_format; an existing one is read as what
    it is).
    """
    # with the clocks, the format a new journal is made in: every way to _new passes them
    clocks = dict(clock=clock, wall=wall, boot_id=boot_id, utc_offset=utc_offset,
                  journal_format=journal_format)
    lock = JournalLock(path)
    try:
        ctl = _boot_locked(path, table, policies, clocks, outputs, key,
                           witnesses_for(path, witnesses), full)
    except BaseException:
        lock.release()
        raise
    ctl.journal.locks.append(lock)
    return ctl


def _boot_locked(path, table, policies, clocks, outputs, key, witnesses, full):
    if not os.path.lexists(path):
        for w in witnesses:
            a = w.read()
            if a is not None and a["seq"] > 0:
                return _refused(path, table, policies, clocks, outputs, key,
                                "there is no journal file, but %s names row %d: the journal "
                                "was moved or deleted" % (w.name, a["seq"]))
        return _new(path, table, policies, clocks, outputs, key, witnesses)
    try:
        store = open_journal(path, key=key)
    except JournalDamaged as e:
        return _refused(path, table, policies, clocks, outputs, key, str(e))
    try:
        if store.last_seq == 0:
            head = store.head()[0]
            anchors = [a for a in (w.read() for w in witnesses) if a is not None]
            if store.meta("initialized") == "1" and not head and \
                    all(a["seq"] == 0 for a in anchors):
                return _begin(store, table, policies, clocks, outputs, witnesses)
            raise JournalDamaged("journal %s has no rows%s: emptied (a journal file is never "
                                 "adopted as new; `tablectl journal init` makes a new one)"
                                 % (path, "" if not head else
                                    ", but its head names row %d" % head))
        return _resume(store, table, policies, clocks, outputs, key, witnesses, full)
    except JournalDamaged as e:
        store.close()
        return _refused(path, table, policies, clocks, outputs, key, str(e))
    except BaseException:
        store.close()
        raise


def _genesis_rows(ctl, clock, policies, model_cls):
    return [(clock(), "controller", "genesis", "genesis", 0,
             header_of(policies, model_cls.GAME)), ctl.journal.snapshot_row(), clock.row()]


def _new(path, table, policies, clocks, outputs, key, witnesses):
    """A journal where there was none: its genesis, first snapshot and clock record and its
    meters, linked into place whole (Store.create), and its anchor."""
    clock = table_clock.start(_NoJournal(), clocks["clock"], clocks["wall"],
                              clocks["boot_id"], clocks["utc_offset"])
    ctl = journaled_controller(table, store=None, clock=clock, outputs=outputs,
                              policies=policies, witnesses=witnesses)
    store = create_journal(path, key=key, entries=_genesis_rows(ctl, clock, policies,
                                                              type(table.model)),
                         meters=ctl.journal.meters, meta={"anchored": "1"},
                         fmt=clocks.get("journal_format"))
    ctl.journal.store = store
    ctl.journal.write_anchor()
    table_clock.apply(ctl, clock.boot)
    ctl.journal.boot_report = {"created": True, "problem": None}
    return ctl


def _begin(store, table, policies, clocks, outputs, witnesses):
    """The first boot of a journal made by `tablectl journal init`: its genesis."""
    clock = table_clock.start(store, clocks["clock"], clocks["wall"], clocks["boot_id"],
                              clocks["utc_offset"])
    ctl = journaled_controller(table, store=store, clock=clock, outputs=outputs,
                              policies=policies, witnesses=witnesses)
    store.append(_genesis_rows(ctl, clock, policies, type(table.model)),
                 meters=ctl.journal.meters)
    ctl.journal.write_anchor()
    table_clock.apply(ctl, clock.boot)
    ctl.journal.boot_report = {"created": True, "problem": None}
    return ctl


def _refused(path, table, policies, clocks, outputs, key, problem):
    """The journal at `path` cannot be resumed: it is left as found (it is the evidence) and
    the table boots locked out, journaling to a new journal beside it."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(clocks["wall"]() // 10 ** 9))
    side = "%s.refused-%s.db" % (path, stamp)
    n = 1
    while os.path.lexists(side):
        n += 1
        side = "%s.refused-%s-%d.db" % (path, stamp, n)
    lock = JournalLock(side)
    try:
        ctl = _new(side, table, policies, clocks, outputs, key, witnesses_for(side))
    except BaseException:
        lock.release()
        raise
    ctl.journal.locks.append(lock)
    reason = ("journal %s: %s; it is kept as found and this boot journals to %s; a technician "
              "investigates, then moves it aside and runs `tablectl journal init %s`"
              % (path, problem, side, path))
    ctl.journal.boot_report = {"created": False, "problem": reason, "journal": side,
                       "refused": path}
    ctl.note("boot", **ctl.journal.boot_report)
    ctl.journal.lock_for_integrity(reason)
    ctl.sync_outputs()
    return ctl


def _resume(store, table, policies, clocks, outputs, key, witnesses, full):
    model_cls = type(table.model)
    if store.keyed:
        store._need_key()
    problem, verified = None, 0
    authentic = store.head_authentic()
    if authentic is False:
        problem = Break(store.head()[0] or 0, "the journal's head in meta is not authenticated "
                                              "by the key (edited: the tail cut, the head "
                                              "rewritten)")
    else:
        text, verified = anchor_problem(store, witnesses, key)
        if text:
            problem = Break(store.last_seq, text)
    if store.keyed and authentic is None:
        verified = 0                 # an older version's keyed journal: verified in full once
    clock = table_clock.start(store, clocks["clock"], clocks["wall"], clocks["boot_id"],
                              clocks["utc_offset"])
    replay, brk = check(store, model_cls, verify_from=1 if full else verified + 1)
    if replay is not None and replay.verified_from > 1 and (brk is not None or (
            replay.ctl.model.lockout or {}).get("device") == "journal"):
        # a problem, or locked for the journal's integrity: the whole journal is checked,
        # so the first bad row is the one named, at every boot until the lock is cleared
        replay, brk = check(store, model_cls, verify_from=1)
    problem = problem or brk
    if replay is not None:
        table = replay.ctl.table
        table_state.restore_policies(policies, table_state.policies_state(replay.ctl.policies))
        counters = replay.counters
    else:
        counters = None
    ctl = journaled_controller(table, store=store, counters=counters, clock=clock,
                              outputs=outputs, policies=policies, witnesses=witnesses)
    if table.model.DECLARES.secure_rng is not None and replay is not None:
        table.model.use_rng(None)
    ctl.journal.meters = store.meters()    # rewritten when they next change, never to hide one
    if problem is None:
        for value in replay.ctx.drawn:          # draws the cut-short last step made again
            ctl.journal._write(Record("rng", {"value": value}, clock()))
    # a step of its own (replay.py), after the records of the step the power cut short
    ctl.journal.flush([clock.row(ctl.model.round_no)])
    table_clock.apply(ctl, clock.boot)
    if problem is None:
        if replay.snapshot_due:
            ctl.journal.flush([ctl.journal.snapshot_row()],
                              meters=M.derive(ctl.model, ctl.journal.counters))
        ctl.journal.after_step()
    model = ctl.model
    report = {"created": False, "problem": None if problem is None else str(problem),
              "from_snapshot": None if replay is None else replay.start_seq,
              "verified_from": None if replay is None else replay.verified_from,
              "replayed_to": store.last_seq, "state": model.state,
              "round_no": model.round_no, "lockout": model.lockout,
              "digest": table_state.digest(ctl.table.snapshot())}
    ctl.note("boot", **report)
    ctl.journal.boot_report = report
    if problem is not None:
        ctl.journal.lock_for_integrity("journal: %s" % problem)
    else:
        ctl.journal.flush()
        ctl.journal.write_anchor()
    if store.meta("anchored") != "1":
        store._put_meta({"anchored": "1"})
    ctl.sync_outputs()
    return ctl


def integrity_beyond_chain(ctl, store):
    """What a full verification adds to the chain, the snapshots and the meters, on `store`
    (its own connection to the controller's journal): the head under the key and the anchor
    file; and for a boot that refused its journal (`_refused`), that journal, which is still
    as found. None, or the problem as text. For the clearing of a journal lock-out."""
    refused = (getattr(ctl, "boot_report", None) or {}).get("refused")
    if refused:
        return ("this boot refused the journal %s and journals beside it: that journal is "
                "still as found (move it aside and run `tablectl journal init`, "
                "docs/journal.md)" % refused)
    if store.head_authentic() is False:
        return "the journal's head in meta is not authenticated by the key (edited)"
    witness = A.FileWitness(store.path)
    found = witness.read()
    if found is None:
        return ("%s is missing (deleted)" % witness.name) if store.meta("anchored") == "1" \
            else None
    return A.check(store, found, witness.name, store.key)
