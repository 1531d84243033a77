"""Where the controller loop's CPU goes, per round, with the journal: the parts of issue 16's
"loop CPU with the journal / the machine alone" (bench/sim_rounds.py prints the whole).

    python bench/loop_parts.py [--game G] [--rounds N] [--repeat R] [--seed S]

`tablectl sim`'s Simulation plays N rounds journaled (the default journal format), each part
timed on the loop's thread by time.thread_time (user and system CPU, never wall time: waiting
for the disk is not counted, the kernel's work for a write is) around:
    handle    the game machine's handle, as the loop calls it
    append    the journal's append of one input's rows and meters (its commit included)
    commit    the commit alone: deflate, sectors, their writes and the flush
    write     the commit's writes (pwrite, O_DIRECT where the file system takes it)
    flush     the commit's fdatasync
and the loop's whole run_once. The reference, measured in the same run, is the machine alone:
the very events replayed into a bare GameMachine (bench/sim_rounds.py's machine_alone). Each
part is printed as ms per round and as a ratio to the reference; best of R repeats each
(the reference, a tenth of a second a repeat, best of 5R), the references measured after
each repeat of the simulation (interleaved: a machine slower for a while slows both sides).
Beside them, the physical floor (sim_rounds.least_durable, best of 3R): the same replay
with one 512-byte sector written O_DIRECT and fdatasync'd before each input, in the
journal's folder, and the same with each input handed over from another thread, as the
drivers hand theirs to the loop; and the journaled controller itself replaying the events
on one thread, without the simulation (`replayed`, best of R).
The last line is
    loop parts / machine alone: loop X.XXx, handle H.HHx, journal J.JJx (writes W.WWx,
    flushes F.FFx), the rest R.RRx; the least durable loop L.LLx (inputs from a thread T.TTx)
"""
import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import sim_rounds  # noqa: E402
from hal_sim.simulation import Simulation  # noqa: E402

PARTS = ("loop", "handle", "append", "commit", "write", "flush")


def _timed(owner, name, totals, part, inside=None, marks=None):
    """Wrap owner.name so its thread CPU adds to totals[part] (and to totals["nested"] too
    while `inside` holds a true first item: an input journaled from within handle, such as
    a shuffle's draw); `marks`: a one-item list the call holds true while it runs. Returns
    the undo."""
    real, had = getattr(owner, name), name in vars(owner)

    def timed(*a, **k):
        t0 = time.thread_time()
        if marks is not None:
            marks[0] = True
        try:
            return real(*a, **k)
        finally:
            if marks is not None:
                marks[0] = False
            dt = time.thread_time() - t0
            totals[part] += dt
            if inside is not None and inside[0]:
                totals["nested"] += dt
    setattr(owner, name, timed)
    return lambda: setattr(owner, name, real) if had else delattr(owner, name)


def played(game, rounds, seed, folder):
    """({part: CPU s per round}, the events applied) of one journaled simulation."""
    totals = dict.fromkeys(PARTS + ("nested",), 0.0)
    s = Simulation(game, seed, journal=os.path.join(folder, "%s-%d.log"
                                                    % (game, time.monotonic_ns())), keep=None)
    undo = []
    try:
        ctl, store = s.ctl, s.ctl.store
        events = sim_rounds.capture_events(ctl)
        undo.append(_timed(ctl, "run_once", totals, "loop"))
        inside = [False]
        undo.append(_timed(ctl.table, "handle", totals, "handle", marks=inside))
        undo.append(_timed(store, "_append", totals, "append", inside=inside))
        if hasattr(store, "_commit"):                       # SQLite has none
            undo.append(_timed(store, "_commit", totals, "commit"))
        if hasattr(store, "_pwrite"):                       # the sector log
            undo.append(_timed(store, "_pwrite", totals, "write"))
            real_sync = os.fdatasync

            def fdatasync(fd):
                t0 = time.thread_time()
                try:
                    real_sync(fd)
                finally:
                    totals["flush"] += time.thread_time() - t0
            sys.modules[type(store).__module__].os = _OsWith(fdatasync)
            undo.append(lambda: setattr(sys.modules[type(store).__module__], "os", os))
        s.run(rounds)
        if s.stuck:
            raise SystemExit("bench: %s stuck at round %d: %s"
                             % (game, s.stuck["round"], s.stuck["why"]))
    finally:
        for u in reversed(undo):
            u()
        s.close()
    return {k: v / rounds for k, v in totals.items()}, events


def replayed(game, events, rounds, seed, repeat, folder):
    """CPU s per round of the journaled controller itself, without the simulation: a new
    journal in `folder`, booted as `tablectl run` boots one (controller.journal.boot, the
    default format, the table's policies, capture_rng), the same events each submitted
    and applied by run_once on this one thread, the table clock at each event's stamp. No
    devices, drivers, outputs' lines or console: what the simulation adds is the rest of the
    loop's figure. Best of `repeat`."""
    from controller.journal import boot
    from controller.runtime import table_policies
    best = None
    for _ in range(repeat):
        now = [events[0].ts_ns if events else 0]
        ctl = boot(os.path.join(folder, "replayed-%d.log" % time.monotonic_ns()),
                   sim_rounds.fresh_machine(game, seed),
                   table_policies(game)[1], clock=lambda: now[0])
        try:
            ctl.capture_rng()
            c0 = time.thread_time()
            for e in events:
                now[0] = e.ts_ns
                ctl.submit(e)
                ctl.run_once()
            cpu = time.thread_time() - c0
        finally:
            ctl.close()
        best = cpu if best is None else min(best, cpu)
    return best / rounds


class _OsWith:
    """The os module with fdatasync timed (the log module's `os`, for this bench only)."""

    def __init__(self, fdatasync):
        self.fdatasync = fdatasync

    def __getattr__(self, name):
        return getattr(os, name)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="blackjack")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.repeat < 1:
        ap.error("--rounds and --repeat must be at least 1")
    best, ev, refs = None, None, {}
    with tempfile.TemporaryDirectory(prefix="tablectl-loop-parts-") as folder:
        for _ in range(args.repeat):
            got, events = played(args.game, args.rounds, args.seed, folder)
            best = got if best is None else {k: min(best[k], got[k]) for k in best}
            # the references after each repeat, on the first repeat's events: interleaved, so
            # a machine that is slower or faster for a while moves both sides of a ratio
            ev = events if ev is None else ev
            took = {"alone": sim_rounds.machine_alone(args.game, ev, args.rounds, args.seed,
                                                      5)[1],     # short: more repeats
                    "replayed": replayed(args.game, ev, args.rounds, args.seed, 1, folder),
                    "least": sim_rounds.least_durable(args.game, ev, args.rounds, args.seed,
                                                      3, folder),
                    "handed": sim_rounds.least_durable(args.game, ev, args.rounds, args.seed,
                                                       3, folder, threaded=True)}
            for k, v in took.items():
                refs[k] = min(refs.get(k, v), v)
    alone, alone_ctl, least, handed = (refs[k] for k in ("alone", "replayed", "least",
                                                          "handed"))
    rest = best["loop"] - best["handle"] - (best["append"] - best["nested"])
    for part in PARTS:
        print("%-8s %7.3f ms/round = %6.2fx the machine alone"
              % (part, best[part] * 1e3, best[part] / alone))
    print("%-8s %7.3f ms/round of handle's is the journal's (inputs journaled within it)"
          % ("nested", best["nested"] * 1e3))
    print("%-8s %7.3f ms/round = %6.2fx (the loop less handle and the journal: policies, "
          "outputs, ticks, queue)" % ("rest", rest * 1e3, rest / alone))
    print("%-8s %7.3f ms/round = %6.2fx (the journaled controller replaying the same events "
          "on one thread, no simulation)" % ("replayed", alone_ctl * 1e3, alone_ctl / alone))
    print("%-8s %7.3f ms/round = %6.2fx (the machine with one durable sector write per input)"
          % ("least", least * 1e3, least / alone))
    print("%-8s %7.3f ms/round = %6.2fx (the same, each input handed over from a thread)"
          % ("handed", handed * 1e3, handed / alone))
    print("machine alone %.3f ms/round" % (alone * 1e3))
    print("loop parts / machine alone: loop %.2fx, handle %.2fx, journal %.2fx (writes %.2fx, "
          "flushes %.2fx), the rest %.2fx; the least durable loop %.2fx (inputs from a thread "
          "%.2fx)"
          % (best["loop"] / alone, best["handle"] / alone, best["append"] / alone,
             best["write"] / alone, best["flush"] / alone, rest / alone, least / alone,
             handed / alone))


if __name__ == "__main__":
    main()
