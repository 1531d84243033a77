"""Power cuts: SIGKILL `tablectl sim --journal` at random moments across all seven games,
restart, verify, resume; and damage the `-wal` a kill left (deleted, truncated, a byte
flipped). Issue 11's campaign.

    python bench/power_cut.py [--kills 1000] [--seed 7] [--damage-every 10] [--keep DIR]
                              [--game GAME ...]

The kills are tests/journal/power_loss.py's (a forked `cli.main(["sim", ...])` killed after
a random delay from its boot or from its start, or killing itself at a lock-out or inside a
round), with that harness's checks after every kill (the chain verifies, the meters and the
last snapshot equal their replay, the restart resumes in the exact prior state, a lock-out in
force stays in force) and at the end (`journal verify` from the genesis, every round ended
once, every void returned every wager once).

Beside them, an INDEPENDENT check that no settlement is lost or doubled, sharing no code with
the journal: `settled()` reads the file with plain sqlite3 and json, takes the round number
and status of every snapshot row (written at each round's end), and checks that no round
number ends twice, that the counts equal the `meters` table's rounds and voids, and that the
rounds ended after one kill are a superset of those after the kill before (nothing lost).

Every --damage-every'th kill, copies of the journal and its `-wal` are damaged three ways and
booted (the real boot checks, on the copy): each must be caught (the table boots locked out)
or lose nothing (the independent reader finds every round ended before the damage).

Prints per game and in total: kills, kills in a round / at a lock-out / in the boot, restarts
checked, rounds and voids, and the damaged -wal outcomes (caught / lost nothing / LOST).
"""
import argparse
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from controller import config as configuration  # noqa: E402
from controller.games import ALL_GAMES, model_class  # noqa: E402
from controller.games.engine import LOCKED_OUT, GameMachine  # noqa: E402
from controller.policies import default_policies  # noqa: E402
from controller.clearing import SelftestOnClear  # noqa: E402
from tests.journal.power_loss import Series  # noqa: E402


class Lost(AssertionError):
    pass


def settled(path):
    """{round_no: status} of the rounds ended in the journal at `path`, and the meters'
    rounds and voids; plain sqlite3 on a copy (so the -wal is not checkpointed away)."""
    scratch = tempfile.mkdtemp(prefix="pc-read-")
    try:
        for suffix in ("", "-wal"):
            if os.path.exists(path + suffix):
                shutil.copy(path + suffix, os.path.join(scratch, "j.db" + suffix))
        db = sqlite3.connect(os.path.join(scratch, "j.db"))
        try:
            ended = {}
            for seq, data in db.execute("SELECT seq, data FROM journal WHERE entry = "
                                        "'snapshot' ORDER BY seq"):
                model = json.loads(data)["table"]["model"]
                status, n = model.get("status"), model.get("round_no")
                if status not in ("settled", "void") or n in ended and ended[n][1] == seq:
                    continue
                if n in ended:
                    raise Lost("round %d ends twice (rows %d and %d)" % (n, ended[n][1], seq))
                ended[n] = (status, seq)
            meters = dict(db.execute("SELECT name, value FROM meters"))
        finally:
            db.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {n: s for n, (s, _) in ended.items()}, meters


def independent_check(path, before):
    """The rounds ended now; Lost if one ended before is gone or the counts disagree."""
    ended, meters = settled(path)
    rounds = sum(1 for s in ended.values() if s == "settled")
    voids = len(ended) - rounds
    if (meters.get("rounds"), meters.get("voids")) != (rounds, voids):
        # the meters are written with the round's snapshot: equal whenever both are there
        raise Lost("meters say rounds %s voids %s, the snapshots %d and %d"
                   % (meters.get("rounds"), meters.get("voids"), rounds, voids))
    gone = set(before) - set(ended)
    if gone:
        raise Lost("rounds %s ended before and are no longer in the journal" % sorted(gone))
    changed = [n for n in before if before[n] != ended[n]]
    if changed:
        raise Lost("rounds %s ended otherwise than before" % changed)
    return ended


def damage(path, how, where):
    """A copy of the journal with its -wal damaged `how`; the copy's path."""
    d = tempfile.mkdtemp(prefix="pc-wal-", dir=where)
    copy = os.path.join(d, "j.db")
    for suffix in ("", "-wal", ".anchor"):
        if os.path.exists(path + suffix):
            shutil.copy(path + suffix, copy + suffix)
    wal = copy + "-wal"
    if os.path.exists(wal):
        size = os.path.getsize(wal)
        if how == "deleted":
            os.unlink(wal)
        elif how == "truncated":
            with open(wal, "r+b") as f:
                f.truncate(size // 2)
        elif size:
            with open(wal, "r+b") as f:
                f.seek(size // 2)
                b = f.read(1)
                f.seek(size // 2)
                f.write(bytes([b[0] ^ 0xFF]))
    return copy


def boot_copy(copy, game):
    from controller.journal import boot
    cls = model_class(game)
    table = GameMachine(cls(configuration.validate({"game": game}, cls)))
    ctl = boot(copy, table, [SelftestOnClear({})] + default_policies(game))
    try:
        return ctl.model.state == LOCKED_OUT and bool(ctl.boot_report.get("problem"))
    finally:
        ctl.close()


def damaged_wal(series, game, before, where, outcome):
    for how in ("deleted", "truncated", "flipped"):
        copy = damage(series.path, how, where)
        try:
            ended_before, _ = settled(copy)      # what the damaged copy still holds...
            caught = boot_copy(copy, game)
            if caught:
                outcome[how]["caught"] += 1
            else:
                ended, _ = settled(copy)
                if set(before) - set(ended):
                    outcome[how]["LOST"] += 1
                    raise Lost("-wal %s: rounds %s lost and not caught"
                               % (how, sorted(set(before) - set(ended))))
                outcome[how]["lost nothing"] += 1
            del ended_before
        finally:
            shutil.rmtree(os.path.dirname(copy), ignore_errors=True)


def campaign(game, kills, seed, where, damage_every, outcome):
    d = os.path.join(where, game)
    os.makedirs(d, exist_ok=True)
    series = Series(game, os.path.join(d, "journal.db"), seed, os.path.join(d, "stderr.log"))
    ended = {}
    for i in range(kills):
        if i % 5 == 0 and game != "props-and-hops":
            series.run(300.0, at_lockout=True)
        elif i % 5 == 1:
            series.run(300.0, mid_round=series.rng.randint(1, 12))
        else:
            series.run(series.rng.uniform(0.02, 0.6), after_boot=i % 5 != 2)
        if damage_every and i % damage_every == damage_every - 1 and \
                os.path.exists(series.path):
            damaged_wal(series, game, ended, where, outcome)
        series.after_kill()
        if os.path.exists(series.path):
            ended = independent_check(series.path, ended)
    totals = series.finish()
    independent_check(series.path, ended)
    return series.stats, totals


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=1000, help="in all, spread over the seven "
                    "games (default %(default)s)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--damage-every", type=int, default=10, metavar="N",
                    help="damage the -wal of a copy after every N-th kill (0: never)")
    ap.add_argument("--keep", metavar="DIR", help="keep the journals in DIR")
    ap.add_argument("--game", action="append", metavar="GAME",
                    help="only these games (repeatable; default all seven), --kills spread "
                    "over them: a campaign can run as several processes")
    args = ap.parse_args(argv)
    games = args.game or ALL_GAMES
    where = args.keep or tempfile.mkdtemp(prefix="tablectl-bench-power-cut-")
    os.makedirs(where, exist_ok=True)
    per = [args.kills // len(games) + (1 if i < args.kills % len(games) else 0)
           for i in range(len(games))]
    outcome = {h: {"caught": 0, "lost nothing": 0, "LOST": 0}
               for h in ("deleted", "truncated", "flipped")}
    total = {"kills": 0, "mid_round": 0, "locked_out": 0, "in_boot": 0, "resumes_checked": 0,
             "rounds": 0, "voids": 0, "voided_at_resume": 0}
    t0 = time.perf_counter()
    try:
        for game, kills in zip(games, per):
            if not kills:
                continue
            stats, totals = campaign(game, kills, args.seed, where, args.damage_every, outcome)
            row = dict(stats, **totals)
            for k in total:
                total[k] += row.get(k, 0)
            print("%-24s kills %4d  in a round %4d  at a lock-out %3d  in the boot %3d  "
                  "resumes checked %4d  rounds %5d  voids %4d (%d at resume)"
                  % (game, row["kills"], row["mid_round"], row["locked_out"], row["in_boot"],
                     row["resumes_checked"], row["rounds"], row["voids"],
                     row["voided_at_resume"]), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(where, ignore_errors=True)
    for how, o in outcome.items():
        print("-wal %-9s caught %4d  lost nothing %4d  LOST %d"
              % (how, o["caught"], o["lost nothing"], o["LOST"]))
    print("settlements: none lost, none doubled (independent reader) over %d kills, %d rounds "
          "and %d voids in %.0f s" % (total["kills"], total["rounds"], total["voids"],
                                      time.perf_counter() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
