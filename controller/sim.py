"""`tablectl sim`: the real controller and drivers against simulated devices, autoplayed.

The command line only: the simulated table (its device set for the one runtime,
controller/runtime.py, and the autoplay) lives on the simulator's side, hal_sim/simulation.py,
imported here lazily so that nothing a table runs imports hal_sim. The summary counts what the
table enforced; `--json` prints it as one object; a round the autoplay could not finish is
named in it (`stuck`) and the command exits 1.
"""

import json
import signal
import sys

from controller.errors import ConfigError, JournalError
from controller.games import ALL_GAMES

PLAYABLE = ALL_GAMES


def __getattr__(name):
    """`controller.sim.Simulation` and friends, for callers of the former module (lazily:
    importing this module imports no hal_sim)."""
    if name in ("Simulation", "SimulatedDevices", "game_config", "parse_fault", "SINGLE_DECK",
                "CONSOLE_PINS"):
        import hal_sim.simulation
        return getattr(hal_sim.simulation, name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def _progress(stream):
    def show(n, rounds, status, simulation):
        s = simulation.autoplay.stats
        stream.write("\rround %d%s  %s  completed %d  void %d  lock-outs %d   "
                     % (n, "" if rounds is None else "/%d" % rounds, status,
                        s["rounds_completed"], s["rounds_void"], len(simulation.ctl.lockouts)))
        stream.flush()
    return show


def cmd_sim(args, out, err=None):
    err = err or sys.stderr
    if args.game not in PLAYABLE:
        err.write("tablectl sim: game %r cannot be simulated; one of %s\n"
                  % (args.game, ", ".join(PLAYABLE)))
        return 2
    from hal_sim.simulation import Simulation, parse_fault
    try:
        faults = [parse_fault(f) for f in args.fault or ()]
    except ConfigError as e:
        err.write("tablectl sim: %s\n" % e)
        return 2
    if args.key and not args.journal:
        err.write("tablectl sim: --key is the key of a journal: give --journal PATH too\n")
        return 2
    from controller.journal.keys import read_key
    old = signal.getsignal(signal.SIGINT)
    try:
        key = read_key(args.key) if args.key else None
        simulation = Simulation(args.game, args.seed, faults, _progress(err) if err.isatty() or
                                not args.json else None, journal=args.journal, key=key)
    except ConfigError as e:
        err.write("tablectl sim: %s\n" % e)
        return 2
    except JournalError as e:
        err.write("tablectl sim: %s\n" % e)
        return 1
    err.write("console: %s\n" % simulation.console_path)
    err.flush()
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)   # Ctrl-C ends the loop
        simulation.run(args.rounds)
    finally:
        simulation.close()
        signal.signal(signal.SIGINT, old)
        err.write("\n")
    summary = simulation.summary()
    if args.json:
        json.dump(summary, out, indent=1, sort_keys=True)
        out.write("\n")
    else:
        _print_summary(summary, out)
    return 1 if simulation.stuck else 0


def _print_summary(s, out):
    out.write("%s, seed %s: %d rounds completed, %d void in %.2f s\n"
              % (s["game"], s["seed"], s["rounds_completed"], s["rounds_void"], s["elapsed_s"]))
    out.write("lock-outs: %d (%d cleared)\n" % (len(s["lockouts"]),
                                                sum(lo["cleared"] for lo in s["lockouts"])))
    if s.get("stuck"):
        out.write("stuck at round %(round)d (table %(state)s): %(why)s\n" % s["stuck"])
    for lo in s["lockouts"]:
        out.write("  %s [%s]%s\n" % (lo["reason"], lo["section"], "" if lo["cleared"]
                                     else "  NOT CLEARED"))
    w = s["wagers_after_no_more_bets"]
    out.write("wagers after no more bets: %d attempted, %d recognized\n"
              % (w["attempted"], w["recognized"]))
    out.write("stub counts: %(performed)d (%(mismatches)d mismatches)\n" % s["stub_counts"])
    out.write("decks removed: %d\n" % s["decks_removed"])
    out.write("frames rejected: %s\n" % (json.dumps(s["frames_rejected"]) or "none"))
    for wager, r in s["return_to_player"].items():
        out.write("  %-20s wagered %10d  net %10d  RTP %s\n"
                  % (wager, r["wagered"], r["net"],
                     "-" if r["rtp"] is None else "%.4f" % r["rtp"]))


def add_parser(sub):
    sim = sub.add_parser("sim", help="autoplay rounds on simulated devices through the real "
                         "drivers and controller; ends with a summary")
    sim.add_argument("--game", required=True, help="one of: " + ", ".join(PLAYABLE))
    sim.add_argument("--rounds", type=int, help="rounds to play (default: until Ctrl-C)")
    sim.add_argument("--seed", type=int, default=0, help="simulation randomness (deck, play)")
    sim.add_argument("--fault", action="append", metavar="DEVICE:KIND[:RATE]",
                     help="inject a fault each round at RATE (default 1.0); repeatable")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--journal", metavar="PATH", help="journal to PATH (SQLite); resume from "
                     "it when it exists, after the boot checks")
    sim.add_argument("--key", metavar="FILE", help="the journal's key file (mode 0600): a new "
                     "journal is keyed with it, an existing keyed one is resumed with it")
    sim.set_defaults(func=cmd_sim)
    return sim
