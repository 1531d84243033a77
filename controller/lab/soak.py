"""`tablectl soak`: many rounds of the whole table on virtual time, with faults and power cuts
drawn from one seed, every step checked against the invariants of controller/lab/soak_checks.py.

    tablectl soak --game GAME|all --rounds N --seed S [--faults RATE] [--power-cuts RATE]
                  [--json] [--replay SEED:STEP] [--journal-dir DIR] [--jobs N]

The table is hal_sim/virtual.py's: the real runtime, controller, game machine, policies,
drivers and link protocol objects, and the journal writing its real bytes to a real file (in
a temporary directory, under /dev/shm where there is one, unless --journal-dir), with the
simulated devices on in-memory lines, all stepped by one scheduler on a virtual clock. Each
round draws its faults from the seed: every device fault kind the game's table has, every line
fault (silence, junk, bad CRC, babble, delay, split) and a device replaced mid-round, at
`--faults` faults a round on average; `--power-cuts` is the chance a round has a power cut in
one of its next commits (hal_sim/power_cut.py: unsynced writes lost, the last torn; then
the clock may have stepped, the table boots, verifies and resumes).

A terminal gets one progress line; then the summary (`--json`: rounds, virtual_hours, faults by
kind, power_cuts, invariants_checked, violations, each violation with the seed and step that
replay it). `--replay SEED:STEP` runs the same soak (give the same other options) and stops at
that step with the table's state shown. The same seed gives a byte-identical journal. Exit 1
when a violation was found, 2 for bad usage.

`--game all` soaks the games side by side, one process each, at most `--jobs` at once (default:
the CPUs this process may use): a game's soak depends on its name and the seed alone, so each
writes the journal, and gives the summary, that it gives alone (only `cpu_s`, the sum of the
games' own CPU, and `wall_s` differ). `--first` and `--replay` run one game after another, as
they stop at a step.
"""

import json
import os
import random
import shutil
import sys
import tempfile
import time

from controller.cli_args import UsageError, positive_int
from controller.games import ALL_GAMES

LINE_FAULTS = ("junk", "bad_crc", "split", "delay", "babble", "silence")


def fault_plan(game, rate):
    """[(device, kind, rate)] of every fault the game's table can have, `rate` faults a round
    on average between them."""
    if not rate:
        return []
    from controller import config as configuration
    from controller.games import model_class
    from controller.progressive import progressives
    from hal_sim.autoplay import DEVICE_KINDS
    from hal_sim.devices import TABLE_DEVICES
    from hal_sim.simulation import game_config
    cls = model_class(game)
    cfg = configuration.validate(dict(game_config(game, [])[0], game=game), cls)
    has_display = bool(progressives(cls(cfg)))
    kinds = [(d, k) for d, ks in sorted(DEVICE_KINDS.items()) for k in ks
             if d != "meter_display" or has_display]
    serial = TABLE_DEVICES + (("meter_display",) if has_display else ())
    kinds += [(d, k) for d in serial for k in LINE_FAULTS]
    kinds += [("shoe", "replaced"), ("card_reader", "replaced")]
    return [(d, k, min(1.0, rate / len(kinds))) for d, k in kinds]


def parse_replay(text):
    try:
        seed, step = text.split(":")
        return int(seed), int(step)
    except ValueError:
        raise UsageError("--replay %r: SEED:STEP, as a violation names it (e.g. 7:1234)"
                         % text) from None


def soak_game(game, rounds, seed, faults=0.0, power_cuts=0.0, directory=None, progress=None,
              stop_at=None, first=False):
    """One game's soak; returns its summary (a dict, see the module docstring)."""
    from controller.lab.soak_checks import Checks, StopAt
    from hal_sim.autoplay import Stuck
    from hal_sim.power_cut import Disk, PowerCut
    from hal_sim.virtual import VirtualTable
    own = directory is None
    directory = directory or tempfile.mkdtemp(
        prefix="tablectl-soak-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    path = os.path.join(directory, "%s.journal" % game)
    rng = random.Random("soak:%s:%s" % (game, seed))
    checks = Checks(game, seed, stop_at, first)
    table = VirtualTable(game, seed, path, fault_plan(game, faults), on_boot=checks.attach)
    disk = Disk(directory, random.Random("disk:%s:%s" % (game, seed)))
    counts = {"faults": {}, "rounds_completed": 0, "rounds_void": 0, "lockouts": 0}
    stopped = stuck = None
    cpu = time.process_time()
    played = 0

    def keep_stats():
        ap = table.autoplay
        if ap is None:
            return
        for k, n in ap.stats["faults_injected"].items():
            counts["faults"][k] = counts["faults"].get(k, 0) + n
        counts["rounds_completed"] += ap.stats["rounds_completed"]
        counts["rounds_void"] += ap.stats["rounds_void"]
        counts["lockouts"] += len(table.ctl.lockouts)

    def cut_and_boot():
        """The power went off: the process thrown away, the disk as it landed; then it
        comes back (after a while, the wall clock maybe stepped) and the table boots."""
        keep_stats()
        checks.before_cut()
        disk.abandon()
        table.runtime = table.autoplay = None
        while True:
            disk.power_on()
            table.universe.t += rng.randint(1, 600) * 10 ** 9     # the power is off a while
            if faults and rng.random() < 0.3:
                step = rng.choice((-3 * 3600, -60, 90, 2 * 3600)) * 10 ** 9
                table.universe.wall_offset += step
                key = "clock:step_%s" % ("back" if step < 0 else "forward")
                counts["faults"][key] = counts["faults"].get(key, 0) + 1
            try:
                table.boot()
                checks.after_boot(path)
                return
            except PowerCut:                    # cut again while booting
                disk.abandon()
                table.runtime = table.autoplay = None

    checks.start_logs()
    try:
        with disk:
            table.boot()
            while played < rounds:
                if power_cuts and rng.random() < power_cuts:
                    disk.arm(path, rng.randint(1, 40))
                try:
                    table.play_round()
                    played += 1
                except PowerCut:
                    played += 1                 # the round the cut interrupted
                    cut_and_boot()
                if progress is not None:
                    progress(game, played, rounds, checks, len(disk.cuts))
            disk.armed = None
            keep_stats()
            table.close()
            checks.finish(path)
    except StopAt:
        stopped = _state_of(table, checks)
        keep_stats()
    except Stuck as e:
        stuck = str(e)
        keep_stats()                            # the rounds and faults of the boot it ended
        checks.check(False, "liveness", "round %d cannot end: %s" % (played + 1, e))
    finally:
        checks.stop_logs()
        if table.runtime is not None and stopped is None and stuck is None:
            table.close()
        elif table.runtime is not None:
            disk.abandon()
        if own:
            shutil.rmtree(directory, ignore_errors=True)
    cpu = time.process_time() - cpu
    summary = {"game": game, "seed": seed, "rounds": played,
               "rounds_completed": counts["rounds_completed"],
               "rounds_void": counts["rounds_void"], "lockouts": counts["lockouts"],
               "virtual_hours": round(table.universe.t / 3.6e12, 3),
               "faults": dict(sorted(counts["faults"].items())),
               "power_cuts": len(disk.cuts), "boots": table.boots,
               "torn_writes": sum(1 for cut in disk.cuts for f in cut.values()
                                  if f["torn_bytes"] is not None),
               "unsynced_writes_lost": sum(f["unsynced"] - f["landed"] for cut in disk.cuts
                                           for f in cut.values()),
               "steps": checks.step, "invariants_checked": checks.checked,
               "violations": checks.violations, "cpu_s": round(cpu, 2)}
    if stuck:
        summary["stuck"] = stuck
    if stopped is not None:
        summary["stopped_at"] = stopped
    return summary


def _state_of(table, checks):
    """The table at the step a replay stopped at, for a person to read."""
    ctl = table.ctl
    m = ctl.model
    from controller.console.view import redact
    return {"step": checks.step, "boot": table.boots, "state": m.state,
            "round": getattr(m, "round_no", None), "pending": m.pending,
            "lockout": m.lockout, "wagers": m.wagers, "results": m.results,
            "virtual_s": round(table.universe.t / 1e9, 3),
            "last_events": [str(redact(e.to_json())) for e in
                            list(getattr(ctl, "events", []))[-5:]
                            if hasattr(e, "to_json")]}


def cmd_soak(args, out, err=None):
    from controller.human import Progress
    err = err or sys.stderr
    if args.game != "all" and args.game not in ALL_GAMES:
        raise UsageError("game %r: one of all, %s" % (args.game, ", ".join(ALL_GAMES)))
    if not 0 <= args.faults <= 10:
        raise UsageError("--faults %r: faults a round, 0..10" % args.faults)
    if not 0 <= args.power_cuts <= 1:
        raise UsageError("--power-cuts %r: a chance, 0..1" % args.power_cuts)
    stop_at = None
    seed = args.seed
    if args.replay:
        seed, stop_at = parse_replay(args.replay)
    if args.journal_dir:
        if not os.path.isdir(args.journal_dir):
            raise UsageError("--journal-dir %s: no such directory" % args.journal_dir)
        if os.listdir(args.journal_dir):
            raise UsageError("--journal-dir %s: not empty (a soak starts its journals new)"
                             % args.journal_dir)
    games = ALL_GAMES if args.game == "all" else (args.game,)
    progress = Progress(err)

    def show(game, n, total, checks, cuts):
        progress.update("%s: round %d/%d  steps %d  power cuts %d  violations %d"
                        % (game, n, total, checks.step, cuts, len(checks.violations)),
                        force=n == total)
    jobs = min(args.jobs or _cpus(), len(games))
    wall = time.monotonic()
    try:
        if jobs > 1 and stop_at is None and not args.first:
            summaries = _side_by_side(games, jobs, (args.rounds, seed, args.faults,
                                                    args.power_cuts, args.journal_dir),
                                      progress)
        else:
            summaries = [soak_game(game, args.rounds, seed, args.faults, args.power_cuts,
                                   args.journal_dir, show, stop_at, args.first)
                         for game in games]
    finally:
        progress.done()
    total = {"games": summaries, "rounds": sum(s["rounds"] for s in summaries),
             "virtual_hours": round(sum(s["virtual_hours"] for s in summaries), 3),
             "power_cuts": sum(s["power_cuts"] for s in summaries),
             "invariants_checked": sum(s["invariants_checked"] for s in summaries),
             "violations": [v for s in summaries for v in s["violations"]],
             "cpu_s": round(sum(s["cpu_s"] for s in summaries), 2), "seed": seed,
             "jobs": jobs, "wall_s": round(time.monotonic() - wall, 2)}
    faults = {}
    for s in summaries:
        for k, n in s["faults"].items():
            faults[k] = faults.get(k, 0) + n
    total["faults"] = dict(sorted(faults.items()))
    if args.json:
        json.dump(total, out, indent=1, sort_keys=True)
        out.write("\n")
    else:
        _print(total, out)
    return 1 if total["violations"] else 0


def _cpus():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                      # not Linux
        return os.cpu_count() or 1


_REPORTS = None          # a worker's queue of progress reports to the parent


def _worker_start(reports):
    global _REPORTS
    _REPORTS = reports


def _report(game, n, total, checks, cuts):
    if n == total or n % 10 == 0:
        _REPORTS.put((game, n, total, checks.step, cuts, len(checks.violations)))


def _soak_in_worker(game, options):
    return soak_game(game, *options, progress=_report)


def _side_by_side(games, jobs, options, progress):
    """Each game's soak in a process of its own, `jobs` at once (spawned: nothing of this
    process's state comes along), the summaries in the games' order; the progress line sums
    the games' latest reports."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from queue import Empty
    ctx = multiprocessing.get_context("spawn")
    reports = ctx.Queue()
    latest = {}
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_start,
                             initargs=(reports,)) as pool:
        futures = {pool.submit(_soak_in_worker, game, options): game for game in games}
        pending = set(futures)
        while pending:
            _, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            while True:
                try:
                    got = reports.get_nowait()
                except Empty:
                    break
                latest[got[0]] = got[1:]
            ended = sum(1 for f in futures if f.done())
            progress.update("%d games, %d done: round %d/%d  steps %d  power cuts %d  "
                            "violations %d" % (
                                len(games), ended, sum(r[0] for r in latest.values()),
                                options[0] * len(games), sum(r[2] for r in latest.values()),
                                sum(r[3] for r in latest.values()),
                                sum(r[4] for r in latest.values())), force=not pending)
        by_game = {futures[f]: f.result() for f in futures}
    return [by_game[game] for game in games]


def _print(total, out):
    for s in total["games"]:
        out.write("%s, seed %s: %d rounds (%d completed, %d void), %.2f virtual hours, %d "
                  "lock-outs, %d power cuts, %d steps, %d invariants checked, %d violations, "
                  "%.2f s CPU\n" % (s["game"], s["seed"], s["rounds"], s["rounds_completed"],
                                    s["rounds_void"], s["virtual_hours"], s["lockouts"],
                                    s["power_cuts"], s["steps"], s["invariants_checked"],
                                    len(s["violations"]), s["cpu_s"]))
        if s.get("stopped_at"):
            st = s["stopped_at"]
            out.write("  stopped at step %d (boot %d, %.3f virtual s): table %s, round %s, "
                      "waiting for %s\n" % (st["step"], st["boot"], st["virtual_s"],
                                           st["state"], st["round"], st["pending"]))
            if st["lockout"]:
                out.write("  locked out: %s\n" % st["lockout"].get("reason"))
            for line in st["last_events"]:
                out.write("  %s\n" % line)
    if total["faults"]:
        out.write("faults: %s\n" % ", ".join("%s %d" % kv for kv in total["faults"].items()))
    for v in total["violations"]:
        out.write("VIOLATION %s (%s, round %s): %s; replay: tablectl soak --game %s "
                  "--replay %s (with the same --rounds, --faults, --power-cuts)\n"
                  % (v["invariant"], v["game"], v["round"], v["detail"], v["game"],
                     v["replay"]))
    if len(total["games"]) > 1:
        out.write("%d games: %.2f s CPU, %.2f s wall, %d side by side\n"
                  % (len(total["games"]), total["cpu_s"], total["wall_s"], total["jobs"]))
    if not total["violations"]:
        out.write("no violations\n")


def _rate(text):
    import argparse
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text) from None


def add_parser(sub):
    soak = sub.add_parser("soak", help="play many rounds of the whole table on virtual time "
                          "with faults and power cuts drawn from a seed; check invariants "
                          "after every step")
    soak.add_argument("--game", required=True, help="all, or one of: " + ", ".join(ALL_GAMES))
    soak.add_argument("--rounds", type=positive_int, required=True, metavar="N",
                      help="rounds per game")
    soak.add_argument("--seed", type=int, default=0, help="everything random comes from it")
    soak.add_argument("--faults", type=_rate, default=0.0, metavar="RATE",
                      help="device and line faults a round, on average (default 0)")
    soak.add_argument("--power-cuts", type=_rate, default=0.0, metavar="RATE",
                      help="the chance a round has a power cut, 0..1 (default 0)")
    soak.add_argument("--json", action="store_true", help="print the summary as JSON")
    soak.add_argument("--replay", metavar="SEED:STEP", help="the same soak, stopped at the "
                      "step a violation names, with the table's state shown")
    soak.add_argument("--first", action="store_true", help="stop at the first violation, "
                      "with the table's state shown (the time to find a bug)")
    soak.add_argument("--jobs", type=positive_int, metavar="N", help="with --game all, the "
                      "games soaked side by side, a process each (default: the CPUs usable)")
    soak.add_argument("--journal-dir", metavar="DIR", help="an empty directory to keep the "
                      "journals in (default: a temporary one, removed)")
    soak.set_defaults(func=cmd_soak)
    return soak
