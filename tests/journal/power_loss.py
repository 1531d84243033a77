"""The power-loss harness: `tablectl sim --journal` killed with SIGKILL at random points.

Each run is `cli.main(["sim", ...])` in a forked child of this process (the modules are
already imported, so a run starts in milliseconds instead of the ~0.3 s of a new
interpreter); the parent kills it after a delay drawn from a seeded Random, then reads the
journal as the restart will. The checks are in `Series.after_kill` and `Series.finish`;
each names the rule it checks (issue 7, "Power loss").
"""

import json
import os
import random
import signal
import sys
import time

from controller import cli
from controller.games import model_class
from controller.games.engine import LOCKED_OUT, WAGERS_OPEN
from controller.journal import meters as M
from controller.journal import state as S
from controller.journal.cli import verify_path
from controller.journal.live import check
from controller.journal.replay import INTERRUPTED
from controller.journal.formats import open_journal
from controller.journal.store import load

# faults that lock the table now and then, so that some kills find it locked out
FAULTS = {"flop-poker": ["shoe:jam:0.3"], "raise-it-up-stud": ["shuffler:jam:0.3"],
          "double-attack-blackjack": ["card_reader:fail:0.3"],
          "blackjack": ["card_reader:fail:0.3"], "six-card-fortune-pai-gow": ["shoe:jam:0.3"],
          "poker": ["shuffler:jam:0.3"],
          "props-and-hops": ["dice_reader:no_roll:0.3"]}
# props-and-hops has no lock-out fault the simulator raises quickly (a silent dice reader
# takes 2 s to be declared): its kills at a lock-out fall back to their random point


def _kill_at_lockout():
    """In the child: SIGKILL itself right after a step that leaves the table locked out
    (once the boot is over), the lock-out's snapshot and meters committed or not."""
    from controller.journal.live import DurableJournal
    after_step = DurableJournal.after_step

    def patched(self):
        after_step(self)
        if self.boot_report and self.ctl.model.state == LOCKED_OUT:
            os.kill(os.getpid(), signal.SIGKILL)
    DurableJournal.after_step = patched


def _signal_after_boot(fd):
    """In the child: one byte on `fd` once the journal's boot is over."""
    import controller.journal as journal
    boot = journal.boot

    def patched(*a, **kw):
        ctl = boot(*a, **kw)
        try:
            os.write(fd, b"1")
        except OSError:                     # the parent does not wait for it
            pass
        return ctl
    journal.boot = patched


def _kill_mid_round(after):
    """In the child: SIGKILL itself in a round (wagers on the layout or past "no more
    bets"), at the `after`-th input applied in a round after the boot: a kill point counted
    in steps, not seconds, so a loaded machine moves it in time but not in the game."""
    from controller.table import TableController
    process = TableController.process
    seen = [0]

    def patched(self, event):
        process(self, event)
        m = self.model
        if self.boot_report and (m.state in m.ROUND_STATES or
                                 (m.state == WAGERS_OPEN and m.wagers)):
            seen[0] += 1
            if seen[0] >= after:
                os.kill(os.getpid(), signal.SIGKILL)
    TableController.process = patched


BETWEEN_ROUNDS = ("closed", "opened", "shuffled", "settled", "voided", "deck_removed")


def in_round(model_json, state):
    """Whether a round was being played: wagers on the layout, or past "no more bets"."""
    if state == LOCKED_OUT:
        state = model_json.get("resume_to")
    if model_json.get("status") is not None or state in BETWEEN_ROUNDS:
        return False
    return state != WAGERS_OPEN or bool(model_json.get("wagers"))


class Series:
    """One game's journal, killed `kills` times; `stats` feeds the report."""

    def __init__(self, game, path, seed, errlog):
        self.game, self.path, self.errlog = game, str(path), str(errlog)
        self.cls = model_class(game)
        self.rng = random.Random("kills:%s:%d" % (game, seed))
        self.seed = seed
        self.expected = None           # the replayed state the next restart must resume in
        self.last_seq = 0
        self.stats = {"kills": 0, "restarts": 0, "mid_round": 0, "locked_out": 0,
                      "in_boot": 0, "resumes_checked": 0, "unchecked_draws": 0}

    # ---- one run ------------------------------------------------------------------------

    def run(self, *args, **kw):
        """`_run`, again when the simulator could not start its simulated devices in time
        (a loaded machine: `no handshake with the simulated device`), up to 5 times: that
        start-up wait is the simulator's, not the journal's, and the journal is as the
        failed start left it (checked by the next restart like any other)."""
        for attempt in range(5):
            mark = os.path.getsize(self.errlog) if os.path.exists(self.errlog) else 0
            try:
                return self._run(*args, **kw)
            except AssertionError:
                with open(self.errlog) as f:
                    f.seek(mark)
                    new = f.read()
                if "no handshake with the simulated device" not in new or attempt == 4:
                    raise
                self.stats["start_retries"] = self.stats.get("start_retries", 0) + 1

    def _run(self, delay_s=None, rounds=100000, at_lockout=False, mid_round=None,
             after_boot=False):
        """A restart; killed after `delay_s` (None: let it finish) or, `at_lockout`, by
        itself in the step that locks the table out, or, `mid_round` (N), by itself at the
        N-th input in a round; those two wait for it as long as it takes (`delay_s` is then
        only the limit after which the run is a failure). `after_boot`: `delay_s` counts
        from the end of the child's boot, however long a loaded machine takes for it."""
        argv = ["sim", "--game", self.game, "--journal", self.path, "--rounds", str(rounds),
                "--seed", str(self.seed + self.stats["restarts"]), "--json"]
        for f in FAULTS[self.game]:
            argv += ["--fault", f]
        self.stats["restarts"] += 1
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:                                  # the child: the real command line
            rc = 3
            os.close(ready_r)
            try:
                _signal_after_boot(ready_w)
                err = open(self.errlog, "a")
                os.dup2(err.fileno(), 2)
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, 1)
                sys.stdout, sys.stderr = open(os.devnull, "w"), err
                if at_lockout:
                    _kill_at_lockout()
                if mid_round:
                    _kill_mid_round(mid_round)
                rc = cli.main(argv)
            except BaseException:                     # noqa: BLE001 - reported by exit code
                import traceback
                traceback.print_exc()
            finally:
                try:
                    sys.stderr.flush()
                finally:
                    os._exit(rc if isinstance(rc, int) else 3)
        os.close(ready_w)
        if delay_s is None:
            os.close(ready_r)
            _, status = os.waitpid(pid, 0)
            return os.waitstatus_to_exitcode(status)
        if after_boot:
            os.read(ready_r, 1)                       # b"" too: the child ended first
        end = time.monotonic() + delay_s
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done or time.monotonic() >= end:
                break
            time.sleep(0.005)
        os.close(ready_r)
        if not done:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            assert not (at_lockout or mid_round), (
                "the run did not kill itself %s within %.0f s: %s"
                % ("at a lock-out" if at_lockout else "in a round", delay_s, self.tail()))
        code = os.waitstatus_to_exitcode(status)
        assert code == -signal.SIGKILL, "the run ended by itself (exit %s): %s" % (
            code, self.tail())
        self.stats["kills"] += 1
        return code

    def tail(self):
        with open(self.errlog) as f:
            return f.read()[-3000:]

    # ---- after each kill -----------------------------------------------------------------

    def after_kill(self):
        if not os.path.exists(self.path):
            self.stats["in_boot"] += 1
            return
        store = open_journal(self.path)
        try:
            # [rule: the chain verifies] after every kill, whatever it cut
            brk = store.verify()
            assert brk is None, "kill %d: %s" % (self.stats["kills"], brk)
            rows = [load(r) for r in store.rows(self.last_seq + 1)]
            # [rule: meters equal their replay; the last snapshot equals its replay]
            replay, problem = check(store, self.cls)
            assert problem is None, "kill %d: %s" % (self.stats["kills"], problem)
            last = store.last_seq
        finally:
            store.close()
        boots = [r for r in rows if r["kind"] == "boot"]
        if self.expected is not None and boots:
            # [rule: the table resumes in its exact prior state] the restart's replay of the
            # journal the kill left is the state this process replayed from it
            got, want = boots[0]["data"], self.expected
            assert got["problem"] is None
            assert (got["state"], got["round_no"], got["lockout"]) == \
                (want["state"], want["round_no"], want["lockout"]), (got, want)
            if want["digest"] is not None:
                assert got["digest"] == want["digest"]
                self.stats["resumes_checked"] += 1
            # [rule: a lock-out in force at the power loss is in force after the restart]
            if want["state"] == LOCKED_OUT:
                assert got["state"] == LOCKED_OUT and got["lockout"] == want["lockout"]
        elif self.expected is not None:
            self.stats["in_boot"] += 1                  # killed before its boot record
        model = replay.ctl.model
        snap = replay.ctl.table.snapshot()
        self.expected = {"state": model.state, "round_no": model.round_no,
                         "lockout": model.lockout,
                         # a draw the cut-short step had not journaled is drawn again
                         # by the restart: its state is then not this one's
                         "digest": None if replay.ctx.drawn else S.digest(snap)}
        if replay.ctx.drawn:
            self.stats["unchecked_draws"] += 1
        if model.state == LOCKED_OUT:
            self.stats["locked_out"] += 1
        if in_round(snap["model"], model.state):
            self.stats["mid_round"] += 1
        self.last_seq = last

    # ---- at the end ------------------------------------------------------------------------

    def finish(self):
        """A last restart that resumes and plays one round to its end (`sim --rounds` is at
        least 1), then the checks over the whole journal."""
        assert self.run(None, rounds=1) == 0, self.tail()
        # [rule: the chain verifies; every snapshot and the meters equal the replay of the
        # journal from its genesis]
        ok, message, replay = verify_path(self.path)
        assert ok, message
        store = open_journal(self.path)
        try:
            rows = [load(r) for r in store.rows()]
        finally:
            store.close()
        snaps = [r for r in rows if r["entry"] == "snapshot"]
        # [rule: no settlement is applied twice] every round ends once: each snapshot after
        # the genesis' one counts exactly one more round, of a round number not seen before
        ended = set()
        for before, after in zip(snaps, snaps[1:]):
            a, b = before["data"]["counters"], after["data"]["counters"]
            assert b["rounds"] + b["voids"] == a["rounds"] + a["voids"] + 1, after["seq"]
            n = after["data"]["table"]["model"]["round_no"]
            assert n not in ended and n == b["last_round"]
            ended.add(n)
        final = snaps[-1]["data"]["counters"]
        assert final["rounds"] + final["voids"] == len(ended)
        # [rule: the round in progress is voided with every wager returned exactly once]
        voided = self.check_voids(rows, snaps)
        return {"rows": len(rows), "rounds": final["rounds"], "voids": final["voids"],
                "voided_at_resume": voided}

    def check_voids(self, rows, snaps):
        steps = [r for r in rows if r["entry"] == "record" and r["kind"] == "resume_void"]
        for step in steps:
            end = next(s for s in snaps if s["seq"] > step["seq"])
            model = end["data"]["table"]["model"]
            assert model["status"] == "void" and model["void_reason"] == INTERRUPTED
            assert model["wagers"], "a void with no wager"
            # each wager placed has one result, "returned", nothing won or lost
            assert model["results"] == {seat: {w: ["returned", 0] for w in placed}
                                        for seat, placed in model["wagers"].items()}
            assert [w for w, _ in model["record"]].count("void") == 1
            # no money moved: the progressive meters are what the round began with
            prev = max((s for s in snaps if s["seq"] < step["seq"]), key=lambda s: s["seq"])
            assert _prog(prev) == _prog(end), (prev["seq"], end["seq"])
        return len(steps)


def _prog(snap):
    model = snap["data"]["table"]["model"]

    class View:
        pass
    v = View()
    v.meters, v.meter = model.get("meters"), model.get("meter")
    return {k: x for k, x in M.derive(v, {"rounds": 0, "voids": 0}).items()
            if k.startswith("progressive.")}


def report(game, series, totals, elapsed):
    return json.dumps({"game": game, "elapsed_s": round(elapsed, 1), **series.stats, **totals})
