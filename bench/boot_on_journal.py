"""A table booted on a long journal, as after a power cut: what a boot and the console's first
screen cost on it, with the console's wager meters read from every snapshot and resumed from
their checkpoint (controller/console/wager_meters.py), in the same run.

    python bench/boot_on_journal.py GAME JOURNAL [--verify]
    python bench/boot_on_journal.py --rounds N [--game G]

The first form takes a journal a soak left (`tablectl soak --journal-dir DIR`; issue 33's
simulated year is `--game props-and-hops --rounds 500000`), copies it beside itself (the
original is not touched) and boots a virtual table (hal_sim/virtual.py) on the copy, its
clock past the journal's last stamp; the second first plays N rounds into a new journal.
Printed, CPU s of this process: the boot (the verify from the anchor, the replay from the last
snapshot), the console's first screen with no checkpoint (every snapshot read), a second boot,
its console's first screen (resumed from the checkpoint the first wrote); with `--verify` the
whole `journal verify` too. The last line: `ratio first screen resumed / read whole: X`.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SUFFIXES = ("", ".anchor", ".index")
YEAR_NS = 400 * 24 * 3600 * 10 ** 9       # past any soak's last stamp


def cpu(fn):
    c = time.process_time()
    out = fn()
    return out, time.process_time() - c


def measure(game, path, verify=False):
    from controller.console.commands import Commands
    from controller.journal.cli import verify_path
    from hal_sim.virtual import VirtualTable
    copy = path + ".bench-copy"
    for suffix in SUFFIXES:
        if os.path.exists(path + suffix):
            shutil.copyfile(path + suffix, copy + suffix)
    out = {"journal_bytes": os.path.getsize(path)}
    try:
        table = VirtualTable(game, 99, copy)
        table.universe.t = YEAR_NS
        for n in (1, 2):
            report, out["boot%d_cpu_s" % n] = cpu(table.boot)
            out["boot%d_problem" % n] = (report or {}).get("problem")
            console, took = cpu(lambda: Commands(table.ctl, table.runtime.drivers))
            _, screen = cpu(console.screen)
            out["screen%d_cpu_s" % n] = took + screen
            out["screen%d_read_after_row" % n] = console.meters_book.read_from
            table.close()
        if verify:
            (ok, message, _), out["verify_cpu_s"] = cpu(lambda: verify_path(copy))
            out["verify"] = message if ok else "FAILED: %s" % message
    finally:
        for suffix in SUFFIXES + (".lock", ".wager-meters"):
            try:
                os.unlink(copy + suffix)
            except OSError:
                pass
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", nargs="?")
    ap.add_argument("journal", nargs="?")
    ap.add_argument("--rounds", type=int, help="play this many rounds into a new journal")
    ap.add_argument("--game", dest="new_game", default="props-and-hops")
    ap.add_argument("--verify", action="store_true")
    args = ap.parse_args(argv)
    folder = None
    try:
        if args.rounds:
            from controller.lab.soak import soak_game
            folder = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
            soak_game(args.new_game, args.rounds, 1, directory=folder)
            game, path = args.new_game, os.path.join(folder, "%s.journal" % args.new_game)
        elif args.game and args.journal:
            game, path = args.game, args.journal
        else:
            ap.error("GAME JOURNAL, or --rounds N")
        out = measure(game, path, args.verify)
    finally:
        if folder:
            shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(out, indent=1, sort_keys=True))
    if out["boot1_problem"] or out["boot2_problem"] or out["screen2_read_after_row"] == 0:
        print("the boot or the checkpoint failed (above)")
        return 1
    print("ratio first screen resumed / read whole: %.3f"
          % (out["screen2_cpu_s"] / out["screen1_cpu_s"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
