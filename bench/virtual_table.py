"""The whole table on virtual time (hal_sim/virtual.py): CPU per round, a gaming day's CPU,
and the ratio to the game machine alone replaying the same inputs, in the same run.

    python bench/virtual_table.py [--rounds N] [--repeat R] [--seed S] [--game G]...
                                  [--pace S] [--faults RATE] [--power-cuts RATE]

For each game, N rounds of the virtual table (the runtime, controller, policies, game
machine, outputs, the journal writing real bytes to a file in /dev/shm, drivers and link
protocol objects, simulated devices on in-memory lines, one scheduler; the dealer's pace,
`--pace` seconds of virtual time before each action, runs the table's timers through it),
then the very Events its controller journaled replayed into a bare engine GameMachine (what
`tablectl play` runs; bench/sim_rounds.py's reference), and into the journaled controller
alone (bench/loop_parts.py's `replayed`: booted as `tablectl run` boots it, its journal in
/dev/shm as the virtual table's is, each input submitted and applied by run_once on one
thread; no devices, drivers, links or scheduler: what the firmware costs with nothing
simulated). All are process or thread CPU time, the best of R repeats, interleaved. Printed
per game:
    whole      CPU ms per round of the whole virtual table (devices and scheduler included)
    ctl alone  CPU ms per round of the controller alone on the same inputs
    machine    CPU ms per round of the machine alone on the same inputs
    ratio      whole / machine (the issue's goal: within 3x)
    ctl ratio  controller alone / machine: the floor under `ratio` that no simulator can
               take off (issue 33's 3x is at or below it for every game but poker)
    per hour   rounds a virtual hour at that pace, and the CPU s a gaming day (24 h) takes
               (the whole table's; `ctl day`: the controller alone's)
With `--faults`/`--power-cuts` the rounds are `tablectl soak`'s, its checks included (the
references are then left out: a cut replays inputs the machine alone cannot).
The last two lines: `ratio controller alone / machine alone: GAME X.X, ...` and `ratio
whole / machine alone: GAME X.X, ...`.

    python bench/virtual_table.py --parts [--rounds N] [--game G]...

where a round's CPU goes: N rounds of each game's virtual table under cProfile, each
function's own time given to the part of the table its module is (the game machine with
`transitions`; the journal; the drivers with the link protocol objects of both ends of each
line, the simulated device's end too; the controller's loop with its policies and outputs;
the simulated devices; the autoplay; the scheduler); time in the
standard library and built-ins (json, zlib, fdatasync, ...) goes to the parts that called it,
in the shares the profile's call edges give. Shares of the profiled run, so of a run slowed
by the profiler (most where calls are smallest): where to look, not a figure to quote alone.

    python bench/virtual_table.py --spans [--rounds N] [--game G]...

the idle spans' own bookkeeping per round (World.idle_span's CPU less the loop's ticks it
runs: the lines' plans, their instants, the watchdogs, the lines carried), and its share of
the whole table's; the process's CPU clock read around each call, the better of two runs.

    python bench/virtual_table.py --hours 24 [--game G]... [--stepwise]

plays each game's virtual table for that many virtual hours (a gaming day: 24) and prints the
rounds played and the CPU it took, measured, not extrapolated; the last line: `CPU s for H
virtual hours: GAME X.X, ...`. `--stepwise` (either form)
runs the stepwise scheduler (every heartbeat serviced, every end asked at every pass:
TABLECTL_VIRTUAL_STEPWISE=1), for the before and after of hal_sim/virtual.py's bulk path.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from controller.games import ALL_GAMES  # noqa: E402
from loop_parts import replayed  # noqa: E402
from sim_rounds import capture_events, machine_alone  # noqa: E402


def shm_folder():
    """A new folder for a table's journal, in memory where the machine has /dev/shm (a disk's
    waits are not the table's CPU)."""
    return tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)


def whole(game, rounds, seed, pace_s, bulk=None):
    """(CPU s per round, virtual hours, the events journaled)."""
    from hal_sim.virtual import VirtualTable
    folder = shm_folder()
    try:
        table = VirtualTable(game, seed, os.path.join(folder, "j.journal"), pace_s=pace_s,
                             bulk=bulk)
        table.boot()
        events = capture_events(table.ctl)
        c0 = time.process_time()
        for _ in range(rounds):
            table.play_round()
        cpu = time.process_time() - c0
        hours = table.universe.t / 3.6e12
        table.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return cpu / rounds, hours, events


def controller_alone(game, events, rounds, seed):
    """CPU s per round of the journaled controller alone on `events` (loop_parts.replayed),
    its journal in a shm_folder."""
    folder = shm_folder()
    try:
        return replayed(game, events, rounds, seed, 1, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def day(game, hours, seed, pace_s, bulk=None):
    """(rounds, virtual hours, CPU s) of the booted virtual table played for `hours` virtual
    hours."""
    from hal_sim.virtual import VirtualTable
    folder = shm_folder()
    try:
        table = VirtualTable(game, seed, os.path.join(folder, "j.journal"), pace_s=pace_s,
                             bulk=bulk)
        table.boot()                    # (the first one imports the table's modules)
        c0 = time.process_time()
        end = table.universe.t + int(hours * 3.6e12)
        rounds = 0
        while table.universe.t < end:
            table.play_round()
            rounds += 1
        cpu = time.process_time() - c0
        hours = table.universe.t / 3.6e12
        table.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return rounds, hours, cpu


# the parts of a table, by the path of a module (first match); the rest goes to its callers
PARTS = (("game machine", ("/controller/games/", "/controller/rules/", "/transitions/",
                           "/controller/paytables")),
         ("journal", ("/controller/journal/",)),
         ("drivers and link protocol", ("/drivers/",)),
         ("simulated devices", ("/hal_sim/devices/", "/hal_sim/sim")),
         ("autoplay", ("/hal_sim/autoplay",)),
         ("scheduler", ("/hal_sim/",)),
         ("loop, policies, outputs", ("/controller/",)))


SHORT = {"game machine": "machine", "drivers and link protocol": "links",
         "simulated devices": "devices", "loop, policies, outputs": "loop"}


def parts(profile):
    """{part: own CPU s} of a cProfile run (see the module docstring)."""
    import pstats
    stats = pstats.Stats(profile).stats
    memo = {}

    def part_of(func):
        path = func[0].replace(os.sep, "/")
        if "/site-packages/" in path and "/transitions/" not in path:
            return None
        for name, marks in PARTS:
            if any(m in path for m in marks):
                return name
        return None

    def shares(func):
        name = part_of(func)
        if name is not None:
            return {name: 1.0}
        if func in memo:
            return memo[func]
        memo[func] = {"other": 1.0}                 # a cycle through callers: left there
        callers = stats.get(func, (0, 0, 0, 0, {}))[4]
        total = sum(edge[2] for edge in callers.values())
        got = {}
        for caller, edge in callers.items():
            weight = edge[2] / total if total > 0 else 1.0 / len(callers)
            for name, f in shares(caller).items():
                got[name] = got.get(name, 0.0) + weight * f
        memo[func] = got or {"other": 1.0}
        return memo[func]

    out = {}
    for func, (_, _, own, _, _) in stats.items():
        for name, f in shares(func).items():
            out[name] = out.get(name, 0.0) + own * f
    return out


def where(game, rounds, seed, pace_s):
    """{part: share of the profiled CPU} of `rounds` rounds of the virtual table."""
    import cProfile
    whole(game, 5, seed, pace_s)                   # the modules imported, the caches warm
    profile = cProfile.Profile()
    profile.enable()
    try:
        whole(game, rounds, seed, pace_s)
    finally:
        profile.disable()
    got = parts(profile)
    total = sum(got.values()) or 1.0
    return {name: own / total for name, own in got.items()}


def span_cost(game, rounds, seed, pace_s):
    """(CPU s per round of the whole table, of its idle spans' own bookkeeping): the time in
    World.idle_span less the loop's ticks it runs (hal_sim/virtual.py: the lines' plans,
    their instants, the watchdogs, the lines carried), the better of two runs."""
    from hal_sim import virtual
    world = virtual.World
    span_fn, tick_fn = world.idle_span, world.tick
    spent = {"span": 0.0, "ticks": 0.0, "in": False}

    def idle_span(self, end):
        c0, spent["in"] = time.process_time(), True
        try:
            return span_fn(self, end)
        finally:
            spent["in"] = False
            spent["span"] += time.process_time() - c0

    def tick(self):
        if not spent["in"]:
            return tick_fn(self)
        c0 = time.process_time()
        try:
            return tick_fn(self)
        finally:
            spent["ticks"] += time.process_time() - c0
    world.idle_span, world.tick = idle_span, tick
    try:
        whole(game, 5, seed, pace_s)
        best = None
        for _ in range(2):
            spent["span"] = spent["ticks"] = 0.0
            per_round, _, _ = whole(game, rounds, seed, pace_s)
            got = (per_round, (spent["span"] - spent["ticks"]) / rounds)
            best = got if best is None or got[1] < best[1] else best
        return best
    finally:
        world.idle_span, world.tick = span_fn, tick_fn


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append")
    ap.add_argument("--pace", type=float, default=None, help="virtual seconds before each "
                    "action (default: the virtual table's dealer's pace)")
    ap.add_argument("--faults", type=float, default=0.0)
    ap.add_argument("--power-cuts", type=float, default=0.0)
    ap.add_argument("--hours", type=float, default=None, help="play each game this many "
                    "virtual hours and print its CPU (24: a gaming day)")
    ap.add_argument("--stepwise", action="store_true", help="the stepwise scheduler (every "
                    "heartbeat serviced), to compare with")
    ap.add_argument("--parts", action="store_true", help="where a round's CPU goes, by part "
                    "of the table (under cProfile)")
    ap.add_argument("--spans", action="store_true", help="the idle spans' own bookkeeping per "
                    "round (World.idle_span less the ticks it runs)")
    args = ap.parse_args(argv)
    from hal_sim.virtual import DEALER_PACE_S
    pace = DEALER_PACE_S if args.pace is None else args.pace
    games = args.game or list(ALL_GAMES)
    bulk = False if args.stepwise else None
    if args.parts:
        names = [name for name, _ in PARTS] + ["other"]
        print("%% of a round's CPU (cProfile, %d rounds, pace %g s)" % (args.rounds, pace))
        print("%-26s " % "game" + " ".join("%9s" % SHORT.get(n, n) for n in names))
        for game in games:
            got = where(game, args.rounds, args.seed, pace)
            print("%-26s " % game + " ".join("%9.1f" % (100 * got.get(n, 0)) for n in names))
        print("parts: " + "; ".join(names))
        return
    if args.spans:
        print("%-26s %9s %9s %7s" % ("game", "whole ms", "spans ms", "share"))
        shares = []
        for game in games:
            per_round, spans = span_cost(game, args.rounds, args.seed, pace)
            shares.append((game, 100 * spans / per_round))
            print("%-26s %9.2f %9.3f %6.1f%%" % (game, per_round * 1e3, spans * 1e3,
                                                 shares[-1][1]))
        print("idle spans' bookkeeping / whole: %s"
              % ", ".join("%s %.1f%%" % share for share in shares))
        return
    if args.hours:
        print("%-26s %7s %9s %9s %11s" % ("game", "rounds", "virtual h", "CPU s", "ms/round"))
        cpus = []
        for game in games:
            rounds, hours, cpu = day(game, args.hours, args.seed, pace, bulk)
            cpus.append((game, cpu))
            print("%-26s %7d %9.2f %9.1f %11.2f" % (game, rounds, hours, cpu,
                                                     cpu / rounds * 1e3))
        print("CPU s for %g virtual hours%s: %s" % (args.hours, ", stepwise" if args.stepwise
                                                    else "", ", ".join("%s %.1f" % c
                                                                       for c in cpus)))
        return
    ratios, floors = [], []
    print("%-26s %9s %9s %9s %6s %9s %9s %11s %9s" % (
        "game", "whole ms", "ctl alone", "machine", "ratio", "ctl ratio", "rounds/h",
        "day CPU s", "ctl day"))
    for game in games:
        if args.faults or args.power_cuts:
            from controller.lab.soak import soak_game
            best = None
            for _ in range(args.repeat):
                s = soak_game(game, args.rounds, args.seed, args.faults, args.power_cuts)
                best = s if best is None or s["cpu_s"] < best["cpu_s"] else best
            per_round = best["cpu_s"] / args.rounds
            per_hour = args.rounds / best["virtual_hours"] if best["virtual_hours"] else 0
            print("%-26s %9.2f %9s %9s %6s %9s %9.0f %11.1f %9s   (soak: %d power cuts, %d "
                  "faults, %d violations)" % (game, per_round * 1e3, "-", "-", "-", "-",
                                              per_hour, per_round * per_hour * 24, "-",
                                              best["power_cuts"], sum(best["faults"].values()),
                                              len(best["violations"])))
            continue
        best_whole = best_machine = best_ctl = None
        for _ in range(args.repeat):
            per_round, hours, events = whole(game, args.rounds, args.seed, pace, bulk)
            _, machine = machine_alone(game, events, args.rounds, "%s:1" % args.seed, 1)
            ctl = controller_alone(game, events, args.rounds, "%s:1" % args.seed)
            best_whole = per_round if best_whole is None else min(best_whole, per_round)
            best_machine = machine if best_machine is None else min(best_machine, machine)
            best_ctl = ctl if best_ctl is None else min(best_ctl, ctl)
        per_hour = args.rounds / hours if hours else 0
        ratio = best_whole / best_machine if best_machine else float("inf")
        floor = best_ctl / best_machine if best_machine else float("inf")
        ratios.append((game, ratio))
        floors.append((game, floor))
        print("%-26s %9.2f %9.2f %9.2f %6.1f %9.1f %9.0f %11.1f %9.1f" % (
            game, best_whole * 1e3, best_ctl * 1e3, best_machine * 1e3, ratio, floor,
            per_hour, best_whole * per_hour * 24, best_ctl * per_hour * 24))
    if ratios:
        print("ratio controller alone / machine alone: %s"
              % ", ".join("%s %.1f" % r for r in floors))
        print("ratio whole / machine alone: %s" % ", ".join("%s %.1f" % r for r in ratios))
    else:
        print("ratio whole / machine alone: - (soak rounds: no reference)")


if __name__ == "__main__":
    main()
