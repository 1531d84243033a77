"""Replay: a table restored from a snapshot, then every step journaled after it, again.

A step is an input event, or a record of something the controller did on its own:
    tick            a policy's timer acted (a deferred close of wagers, a warning)
    resume_void     the round interrupted by a power loss was voided at restart
    integrity_lock  the boot checks locked the table
    clock           a boot's table clock: the policies learn the casino's local time
Inputs the controller took from outside the events are journaled as records during their
step and read back here: `rng` (a random number generator's draw) and `selftest` (a
device's self-test on a clear; none journaled means not passed, the safe reading). An
`output_failure` locked the live table, so it locks the replay too. The clock of the
replay is the step's timestamp; the outputs are none.

The replay also checks: each snapshot it passes must equal its own state, and the meters
must equal its own at the row they were written after.

It keeps no history: rows are taken one step at a time from any iterable (a Store cursor),
the rounds kept for `journal show` are only those asked for, and the controller's lists of
refusals and lock-outs are emptied after each step; so its memory does not grow with the
journal.
"""

from collections import deque

from controller.errors import ClearRefused, JournalError
from controller.games.engine import LOCKED_OUT, GameMachine
from controller.games.events import Event
from controller.journal import clock as table_clock
from controller.journal import meters as M
from controller.journal import state as table_state
from controller.journal.chain import Break
from controller.outputs import Outputs
from controller.policies import CONSUMED, Policy, default_policies
from controller.policies.devices import FaultedInLockout
from controller.journal_part import MemoryJournal
from controller.table import TableController

STEP_RECORDS = ("tick", "resume_void", "integrity_lock", "clock")
INTERRUPTED = "power lost during the round: the round is void and every wager returned"


def is_step(row):
    return row["entry"] == "event" or (row["entry"] == "record" and row["kind"] in STEP_RECORDS)


class Context:
    """What the replay's clock, self-tests and random draws read: the current step."""

    def __init__(self, fallback_rng=None):
        self.now = 0
        self.records = []
        self.rng = deque()
        self.fallback_rng = fallback_rng
        self.drawn = []              # draws no record held (the last step, cut short)


class ReplaySelftest(FaultedInLockout, Policy):
    """SelftestOnClear (controller/lab/sim.py) in a replay: the journaled result, not a device."""

    STATE_NAME = "SelftestOnClear"

    def __init__(self, ctx):
        self.ctx = ctx
        self.results = []

    def after(self, ctl, event):
        self.note_fault(ctl, event)

    def before(self, ctl, event):
        if event.kind == "clear" and ctl.model.state == LOCKED_OUT:
            # controller/clearing.py: the live policy refused it, or deferred it to the clear
            # service (whose own clear event follows with its result); the replay does the same
            refused = next((r["data"] for r in self.ctx.records if r["kind"] == "refused"
                            and r["data"].get("error") == "ClearRefused"), None)
            if refused is not None:
                raise ClearRefused(refused.get("reason"))
            if any(r["kind"] == "clear_deferred" for r in self.ctx.records):
                return CONSUMED
        if event.kind == "clear" and "selftest" not in event.data and \
                ctl.model.state == LOCKED_OUT:
            hint = next((r["data"] for r in self.ctx.records if r["kind"] == "selftest"), None)
            device = hint.get("device") if hint else (ctl.model.lockout or {}).get("device")
            ok = bool(hint and hint.get("ok"))
            event.data["selftest"] = ok
            self.results.append((device, ok))
            ctl.note("selftest", event.ts_ns, device=device, ok=ok)
        return None


def build_policies(game, names, ctx):
    defaults = default_policies(game)
    out = []
    for name in names:
        if name == ReplaySelftest.STATE_NAME:
            out.append(ReplaySelftest(ctx))
            continue
        match = [p for p in defaults if table_state.policy_name(p) == name]
        if not match:
            raise JournalError("the journal names a policy %r this version does not have" % name)
        defaults.remove(match[0])
        out.append(match[0])
    return out


class Replay:
    """A controller rebuilt from a snapshot row; `run(rows)` replays the rows after it.

    `rounds`: the round numbers whose course is kept in `self.rounds` (None: every one; an
    empty tuple: none, as a verification of months needs).
    """

    def __init__(self, header, model_cls, snap_row, fallback_rng=None, rounds=None):
        snap = snap_row["data"]
        self.ctx = Context(fallback_rng)
        table = GameMachine.restore(model_cls, snap["table"])
        policies = build_policies(header["game"], header["policies"], self.ctx)
        table_state.restore_policies(policies, snap["policies"])
        self.counters = dict(snap["counters"])
        self.produced = MemoryJournal()      # what the replayed steps journal, step by step
        self.ctl = TableController(table, clock=lambda: self.ctx.now, journal=self.produced,
                                   outputs=Outputs(), policies=policies)
        self.model_cls = model_cls
        self.secure_rng = model_cls.DECLARES.secure_rng     # where the game draws from one
        if self.secure_rng is not None:
            table.model.use_rng(self._draw)
        self.start_seq = self.last_snapshot = snap_row["seq"]
        self.snapshot_due = False
        self.problem = None
        self.meters_checked = False
        self.last_step = None        # (row, journaled records, produced records)
        self.rounds = {}             # round_no -> {"first", "last", "record", "status"}
        self.keep = rounds
        self.last_round = table.model.round_no

    def _draw(self):
        if self.ctx.rng:
            return self.ctx.rng.popleft()
        value = (self.ctx.fallback_rng or self.secure_rng)()
        self.ctx.drawn.append(value)
        return value

    def state(self):
        return table_state.snapshot(self.ctl.table, self.ctl.policies, self.counters)

    # ---- running ---------------------------------------------------------------------

    def run(self, rows, meters_seq=None, stored_meters=None, stop_at_problem=False,
            until=None):
        """Replay `rows` (parsed, after the snapshot). Sets `problem` (a chain.Break) at the
        first snapshot or meter that disagrees, or a step that cannot be replayed. `until`
        (replay -> bool) ends the run early, after the step it is first true at."""
        for row, records, snapshots in _group(rows):
            if row is not None:
                if meters_seq is not None and not self.meters_checked and row["seq"] > meters_seq:
                    self._check_meters(meters_seq, stored_meters)
                self.produced.clear()
                try:
                    self.step(row, records)
                except Exception as e:          # noqa: BLE001 - a row that cannot be replayed
                    self._fail(Break(row["seq"], "cannot be replayed: %r" % (e,)))
                self.last_step = (row, records, list(self.produced))
                del self.ctl.refusals[:]
                del self.ctl.lockouts[:-1]      # the last one: a clear marks it cleared
            for snap in snapshots:
                self._check_snapshot(snap)
            if (self.problem and stop_at_problem) or (until is not None and until(self)):
                return self
        if meters_seq is not None and not self.meters_checked:
            self._check_meters(meters_seq, stored_meters)
        return self

    def step(self, row, records):
        ctx, ctl = self.ctx, self.ctl
        ctx.now, ctx.records = row["ts_ns"], records
        ctx.rng = deque(r["data"]["value"] for r in records if r["kind"] == "rng")
        model = ctl.model
        before = model.round_no
        if row["entry"] == "event":
            ctl.process(Event(row["kind"], row["data"], row["source"], row["ts_ns"]))
        elif row["kind"] == "tick":
            ctl.tick()
        else:
            was = model.state
            if row["kind"] == "clock":
                table_clock.apply(ctl, row["data"])
            elif row["kind"] == "resume_void":
                model.void_round(row["data"]["reason"])
            else:
                model.lock(row["data"]["reason"], None, "journal")
            ctl._after(was)
        for r in records:
            if r["kind"] == "output_failure" and model.state != LOCKED_OUT:
                was = model.state
                model.lock("output failure: %s" % r["data"].get("reason"), None, "outputs")
                ctl._after(was)
        self._track_round(row, before)
        if M.observe(self.counters, model):
            self.snapshot_due = True

    def _track_round(self, row, before):
        model = self.ctl.model
        n = model.round_no
        self.last_round = max(self.last_round, n)
        if self.keep is not None and n not in self.keep:
            return
        if n != before or n not in self.rounds:
            self.rounds.setdefault(n, {"first": row["seq"], "last": row["seq"], "status": None})
        info = self.rounds[n]
        if info["status"] is None:
            info["last"] = row["seq"]
            info["record"] = _copy(getattr(model, "record", []))
            info["status"] = getattr(model, "status", None)
            info["wagers"] = _copy(model.wagers)
            info["results"] = _copy(model.results)

    # ---- checks ---------------------------------------------------------------------

    def _fail(self, brk):
        if self.problem is None:
            self.problem = brk

    def _check_snapshot(self, snap):
        self.last_snapshot = snap["seq"]
        self.snapshot_due = False
        theirs = table_state.migrate(self.model_cls, snap["data"])
        mine = table_state.as_written(self.state(), theirs)
        if table_state.digest(mine) != table_state.digest(theirs):
            self._fail(Break(snap["seq"], "the snapshot differs from the replay of the journal "
                                          "(%s)" % _difference(theirs, mine)))

    def _check_meters(self, meters_seq, stored):
        self.meters_checked = True
        if stored is None:
            return
        diff = M.compare(stored, M.derive(self.ctl.model, self.counters))
        if diff:
            self._fail(Break(meters_seq, diff))


def _copy(obj):
    import json
    return json.loads(json.dumps(obj))


def _group(rows):
    """(step row or None, its journaled records, the snapshots after it), one step at a
    time as the rows come."""
    step, records, snapshots = None, [], []
    for row in rows:
        if row["entry"] == "snapshot":
            snapshots.append(row)
        elif is_step(row):
            if step is not None or snapshots:
                yield step, records, snapshots
            step, records, snapshots = row, [], []
        elif row["entry"] == "record":
            records.append(row)
    if step is not None or snapshots:
        yield step, records, snapshots


def _difference(theirs, mine):
    """Where two snapshots first differ, for the lock-out's reason."""
    def walk(a, b, path):
        if type(a) is not type(b):
            return path
        if isinstance(a, dict):
            for k in sorted(set(a) | set(b)):
                if k not in a or k not in b:
                    return path + "." + k
                p = walk(a[k], b[k], path + "." + k)
                if p:
                    return p
            return None
        if isinstance(a, list):
            if len(a) != len(b):
                return path
            for i, (x, y) in enumerate(zip(a, b)):
                p = walk(x, y, "%s[%d]" % (path, i))
                if p:
                    return p
            return None
        return None if a == b else path
    import json
    from controller.journal.chain import canonical
    mine = json.loads(canonical(mine))
    return "first difference at %s" % (walk(theirs, mine, "snapshot") or "?")
