"""`tablectl sim`: the real controller and drivers against simulated devices, autoplayed.

The command line only: the simulated table (its device set for the one runtime,
controller/runtime.py, and the autoplay) lives on the simulator's side, hal_sim/simulation.py,
imported here lazily so that nothing a table runs imports hal_sim. The summary counts what the
table enforced; `--json` prints it as one object; a round the autoplay could not finish is
named in it (`stuck`) and the command exits 1.
"""

import json
import os
import sys

from controller import config as configuration
from controller.cli_args import UsageError, interrupted_by_signals, positive_int
from controller.console.auth import PIN_DEFAULT_TEXT
from controller.errors import ConfigError, JournalError, JournalInUse
from controller.games import ALL_GAMES

PLAYABLE = ALL_GAMES


def __getattr__(name):
    """`controller.lab.sim.Simulation` and friends, for callers of the former module (lazily:
    importing this module imports no hal_sim)."""
    if name in ("Simulation", "SimulatedDevices", "game_config", "parse_fault"):
        import hal_sim.simulation
        return getattr(hal_sim.simulation, name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def _progress(progress, rounds):
    """The per-round callback: a progress line on a terminal; on a pipe or into a log, a
    milestone line each tenth of the rounds asked for (none when playing until Ctrl-C)."""
    step = max(1, rounds // 10) if rounds else None

    def show(n, total, status, simulation):
        s = simulation.autoplay.stats
        text = ("round %d%s  %s  completed %d  void %d  lock-outs %d"
                % (n, "" if total is None else "/%d" % total, status, s["rounds_completed"],
                   s["rounds_void"], len(simulation.ctl.lockouts)))
        if progress.tty:
            progress.update(text, force=total is not None and n == total)
        elif step and (n % step == 0 or n == total):
            progress.milestone("tablectl sim: " + text)
    return show


def _warn_about_pins(simulation, err):
    """Every log-in is refused without a PIN: say so at start, and how to set one."""
    from controller.console.auth import pin_warning
    warning = pin_warning(simulation.pins_path)
    if warning:
        err.write("tablectl sim: %s\n" % warning)


def cmd_sim(args, out, err=None):
    from controller.human import Progress
    from hal_sim.simulation import Simulation, parse_fault
    err = err or sys.stderr
    if args.game not in PLAYABLE:
        raise UsageError("game %r cannot be simulated; one of %s"
                         % (args.game, ", ".join(PLAYABLE)))
    faults = [parse_fault(f) for f in args.fault or ()]
    if args.key and not args.journal:
        raise UsageError("--key is the key of a journal: give --journal PATH too")
    if args.journal:
        configuration.check_journal_path(args.journal)
    if args.link:
        from controller.wire.subjects import TABLE_ID
        if not args.floor:
            raise UsageError("--link is a link on the floor's NATS: give --floor NATS_URL too")
        if not TABLE_ID.match(args.link):
            raise UsageError("--link %r: 1 to 64 letters, digits, '-' or '_'" % args.link)
        if not args.floor_signing_key:
            raise UsageError("--link needs --floor-signing-key FILE: the link pays nothing "
                             "the table did not sign")
    from controller.journal.keys import read_key
    try:
        key = read_key(args.key) if args.key else None
    except JournalError as e:            # a key others may read: the journal's trust, exit 1
        err.write("tablectl sim: %s\n" % " ".join(str(e).split()))
        return 1
    progress = Progress(err)

    def on_console(simulation):
        err.write("console: %s\n" % simulation.console_path)
        err.flush()
        _warn_about_pins(simulation, err)

    def on_locked(lockout):
        progress.milestone("tablectl sim: locked out (%s): clear it at the console %s; play "
                           "waits" % ((lockout or {}).get("reason") or "no reason given",
                                      simulation_path[0]))
    simulation_path = ["(see console: above)"]

    # Ctrl-C, SIGTERM and SIGHUP end the run the same way: the loop ends, the simulation
    # closes (the floor link drained), the summary follows
    with interrupted_by_signals():
        try:
            simulation = Simulation(args.game, args.seed, faults,
                                    _progress(progress, args.rounds), journal=args.journal,
                                    key=key, pins=args.pins, manual_clear=args.manual_clear,
                                    on_locked=on_locked, on_console=on_console,
                                    link=args.link)
        except KeyboardInterrupt:
            raise UsageError("interrupted while starting; nothing was played")
        except JournalInUse as e:            # another process holds it: a usage error
            err.write("tablectl sim: %s\n" % " ".join(str(e).split()))
            return 2
        except JournalError as e:
            err.write("tablectl sim: %s\n" % " ".join(str(e).split()))
            return 1
        simulation_path[0] = simulation.console_path
        if args.floor:
            try:
                from controller.wire.uplink import attach, read_password
                attach(simulation, simulation.ctl, args.journal, args.table_id or "",
                       args.floor, read_password(args.floor_password_file)
                       if args.floor_password_file else None, ca_file=args.floor_ca)
                if args.link:
                    from controller.wire import link_client
                    from controller.wire.signing import load_key
                    link_client.attach(simulation, args.table_id or "", args.link, args.floor,
                                       read_password(args.floor_password_file)
                                       if args.floor_password_file else None,
                                       ca_file=args.floor_ca,
                                       signing_key=load_key(args.floor_signing_key))
                    # a person's table opens once its link's meter is there; without it,
                    # base play goes on and the progressive waits for the link
                    from controller.progressive import link_up
                    if not simulation.autoplay.pump(
                            lambda: link_up(simulation.ctl.model.meter), 5.0):
                        err.write("tablectl sim: warning: link %s is down: its progressive "
                                  "is not offered until it comes up\n" % args.link)
            except ConfigError as e:
                simulation.close()
                err.write("tablectl sim: %s\n" % e)
                return 2
        simulation.pause_s = args.pause or 0.0
        try:
            simulation.run(args.rounds)      # Ctrl-C ends the loop; the summary follows
        finally:
            progress.done()
            simulation.close()
    summary = simulation.summary()
    plink = getattr(simulation.ctl, "progressive_link", None)
    if callable(plink):
        summary["progressive_link"] = plink()
    link = getattr(simulation.ctl, "link_status", None)
    if callable(link):
        summary["floor_link"] = link()
    if args.json:
        json.dump(summary, out, indent=1, sort_keys=True)
        out.write("\n")
    else:
        _print_summary(summary, out)
    return 1 if simulation.stuck else 0


def _print_summary(s, out):
    """The summary for a person: dollars, one line per kind of lock-out with its count,
    nothing printed as a Python value."""
    from controller.human import collapsed, dollars, hand_note
    rounds = s["rounds_completed"] + s["rounds_void"]
    played = ("no rounds" if not rounds else "%d rounds completed, %d void"
              % (s["rounds_completed"], s["rounds_void"]))
    out.write("%s, seed %s: %s%s%s\n"
              % (s["game"], s["seed"], played,
                 "" if "elapsed_s" not in s else " in %.2f s" % s["elapsed_s"],
                 " (stopped by Ctrl-C)" if s.get("stopped_by") == "interrupt" else ""))
    if s.get("stuck"):
        out.write("stuck at round %(round)d (table %(state)s): %(why)s\n" % s["stuck"])
    los = s["lockouts"]
    out.write("lock-outs: %s\n" % ("none" if not los else "%d (%d cleared)"
                                    % (len(los), sum(1 for lo in los if lo["cleared"]))))
    lines = []
    for lo in los:
        lines.append("  %s%s%s" % (lo["reason"] or "no reason given",
                                   " [%s]" % lo["section"] if lo["section"] else "",
                                   "" if lo["cleared"] else "  NOT CLEARED"))
    for line in collapsed(lines):
        out.write(line + "\n")
    w = s["wagers_after_no_more_bets"]
    out.write("wagers after no more bets: %d attempted, %d recognized\n"
              % (w["attempted"], w["recognized"]))
    out.write("stub counts: %(performed)d (%(mismatches)d mismatches)\n" % s["stub_counts"])
    out.write("decks removed: %d\n" % s["decks_removed"])
    if "floor_link" in s:
        fl = s["floor_link"]
        out.write("floor link: %s, rows waiting %d, acknowledged to row %d\n"
                  % (fl["state"], fl["rows_waiting"], fl["acked_seq"]))
    frames = s["frames_rejected"]
    if not frames:
        out.write("frames rejected: none\n")
    else:
        out.write("frames rejected: %d\n" % sum(sum(r.values()) for r in frames.values()))
        for device, reasons in sorted(frames.items()):
            out.write("  %s: %s\n" % (device, ", ".join("%s %d" % (why, n) for why, n
                                                         in sorted(reasons.items()))))
    faults = s.get("faults_injected") or {}
    out.write("faults injected: %s\n" % (", ".join("%s %d" % (f, n) for f, n
                                                  in sorted(faults.items())) or "none"))
    room = s.get("poker_room")
    if room is not None:             # the players play each other: the house takes the rake
        out.write("poker room: %d hands, pots %s, rake %s, jackpot drop %s\n"
                  % (room["hands"], dollars(room["pots"]), dollars(room["rake"]),
                     dollars(room["jackpot_drop"])))
    returns = s["return_to_player"]
    if not returns:
        out.write("return to player: no wagers against the house\n" if room is not None
                  else "return to player: no wagers\n")
        return
    out.write("return to player:\n")
    width = max(len(w) for w in returns)
    for wager, r in returns.items():
        out.write("  %-*s wagered %14s  net %14s  RTP %s\n"
                  % (width, wager, dollars(r["wagered"]), dollars(r["net"], sign=True),
                     "-" if r["rtp"] is None else "%.2f%%" % (100 * r["rtp"])))
    note = hand_note(returns)
    if note:
        out.write("  (%s)\n" % note)


def add_parser(sub):
    sim = sub.add_parser("sim", help="autoplay rounds on simulated devices through the real "
                         "drivers and controller; ends with a summary")
    sim.add_argument("--game", required=True, help="one of: " + ", ".join(PLAYABLE))
    sim.add_argument("--rounds", type=positive_int, metavar="N",
                     help="rounds to play, at least 1 (default: until Ctrl-C)")
    sim.add_argument("--seed", type=int, default=0, help="simulation randomness (deck, play)")
    sim.add_argument("--fault", action="append", metavar="DEVICE:KIND[:RATE]",
                     help="inject a fault each round at RATE (default 1.0); repeatable")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--journal", metavar="PATH", help="journal to PATH (a sector log); resume from "
                     "it when it exists, after the boot checks")
    sim.add_argument("--key", metavar="FILE", help="the journal's key file (mode 0600): a new "
                     "journal is keyed with it, an existing keyed one is resumed with it")
    sim.add_argument("--pins", metavar="FILE", help="the console's PIN file (default "
                     "%s; `tablectl passwd ROLE --file FILE` sets one)" % PIN_DEFAULT_TEXT)
    sim.add_argument("--manual-clear", action="store_true", help="the simulated floorperson "
                     "repairs a device but leaves its lock-out for you to clear at the console "
                     "(practice); play waits until it is cleared")
    sim.add_argument("--pause", type=float, metavar="S", help="seconds between rounds (the "
                     "floor demo plays at a person's pace)")
    sim.add_argument("--floor", metavar="NATS_URL", help="forward the journal to the floor's "
                     "NATS JetStream (docs/floor.md); needs --journal and --table-id")
    sim.add_argument("--table-id", metavar="ID", help="this table's id on the floor (its "
                     "NATS user)")
    sim.add_argument("--floor-password-file", metavar="FILE", help="the table's floor "
                     "credential (first line)")
    sim.add_argument("--floor-ca", metavar="PEM", help="the CA the floor servers' "
                     "certificates are checked against (tls:// URLs)")
    sim.add_argument("--link", metavar="LINK", help="the table's Progressive Payout Wager on "
                     "linked progressive LINK (docs/linked-progressives.md); needs --floor")
    sim.add_argument("--floor-signing-key", metavar="FILE", help="the table's own Ed25519 "
                     "key (tablectl signing-key): what it sends a link is signed with it")
    sim.set_defaults(func=cmd_sim)
    return sim
