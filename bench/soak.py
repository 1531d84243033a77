"""Soak: the simulated table's resident memory over thousands of rounds, with or without a journal.

    python bench/soak.py [--game G] [--at 500,5000] [--seed S] [--mode memory|journal|both]
                         [--journal] [--stall-s S]

`tablectl sim`'s Simulation (real drivers on ptys, the controller, the autoplay) plays rounds;
the resident set size (/proc/self/statm: what the kernel holds, SQLite's memory included,
which tracemalloc does not see) is read after a garbage collection at each round of `--at`.
Each mode runs in a fresh interpreter of its own, so one cannot inherit the other's heap.
The figure is the ratio of the last checkpoint's RSS to the first's, measured in the same
run: flat memory is a ratio near 1 (goal: within 10%, issue 16), whatever the machine.

`--journal` is `--mode journal`. A soak that stops making progress says where: each child
prints its checkpoints to stderr as it reaches them, and when --stall-s seconds pass without
100 more rounds played, faulthandler writes every thread's stack to stderr (again every
--stall-s while it lasts), so a stuck soak is read, not guessed (py-spy dump PID says the
same from outside).
"""
import argparse
import faulthandler
import gc
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE // 1024


CHUNK = 100                 # rounds between two resets of the stall timer


def soak(game, at, seed, journal, heartbeat_ms, stall_s=120.0):
    """In this process: play to each checkpoint, {round: RSS kB}."""
    from hal_sim.simulation import Simulation
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "journal.db") if journal else None
        s = Simulation(game, seed, journal=path,
                       link_options={"heartbeat_timeout_ms": heartbeat_ms})
        out, played = {}, 0
        try:
            for checkpoint in at:
                while played < checkpoint:
                    faulthandler.dump_traceback_later(stall_s, repeat=True)
                    n = s.run(min(CHUNK, checkpoint - played))
                    faulthandler.cancel_dump_traceback_later()
                    if s.stuck:
                        raise SystemExit("bench: stuck at round %(round)d: %(why)s" % s.stuck)
                    if not n:
                        raise SystemExit("bench: no round played after round %d" % played)
                    played += n
                gc.collect()
                out[checkpoint] = rss_kb()
                sys.stderr.write("soak %s %s: round %d %d kB\n"
                                 % (game, "journal" if journal else "memory", checkpoint,
                                    out[checkpoint]))
                sys.stderr.flush()
        finally:
            faulthandler.cancel_dump_traceback_later()
            s.close()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="blackjack")
    ap.add_argument("--at", default="500,5000", help="rounds at which RSS is read")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--mode", choices=("memory", "journal", "both"), default="both")
    ap.add_argument("--journal", dest="mode", action="store_const", const="journal",
                    help="the same as --mode journal")
    ap.add_argument("--stall-s", type=float, default=120.0, help="every thread's stack to "
                    "stderr when this long passes without %d more rounds (default "
                    "%%(default)s)" % CHUNK)
    ap.add_argument("--heartbeat-timeout-ms", type=int, default=2000,
                    help="the drivers' silence rule (default the protocol's 2000): a machine "
                    "that stalls for seconds trips it, and a silent dealer panel does not "
                    "recover yet (issue 11); this bench measures memory, not the link")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    at = sorted({int(x) for x in args.at.split(",")})
    if args.child:
        json.dump(soak(args.game, at, args.seed, args.mode == "journal",
                       args.heartbeat_timeout_ms, args.stall_s), sys.stdout)
        return 0
    modes = ("memory", "journal") if args.mode == "both" else (args.mode,)
    ratios = []
    for mode in modes:
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "--mode", mode,
                            "--game", args.game, "--at", args.at, "--seed", str(args.seed),
                            "--heartbeat-timeout-ms", str(args.heartbeat_timeout_ms),
                            "--stall-s", str(args.stall_s)],
                           cwd=ROOT, stdout=subprocess.PIPE, text=True)   # stderr: progress
        if r.returncode:
            raise SystemExit("bench: the %s soak failed (its stderr above)" % mode)
        rss = {int(k): v for k, v in json.loads(r.stdout).items()}
        first, last = rss[at[0]], rss[at[-1]]
        ratios.append((mode, last / first))
        print("%-8s %s: %s" % (mode, args.game, "  ".join("round %d %d kB" % (n, rss[n])
                                                         for n in at)))
    print("RSS ratio round %d / round %d: %s (goal <= 1.10; heartbeat timeout %d ms)"
          % (at[-1], at[0], ", ".join("%s %.3f" % r for r in ratios), args.heartbeat_timeout_ms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
