"""`tablectl sim`: the real controller and drivers against simulated devices, autoplayed.

Starts the simulated devices (hal_sim.devices.SimTable) on real ptys, with the progressive
meter display where the game's table has a progressive meter, builds the real drivers over
those ptys and the simulated GPIO factory, runs the TableController with the default
policies and lets hal_sim.autoplay deal rounds through the devices. Faults given as
DEVICE:KIND[:RATE] are drawn each round at RATE (default 1.0). The summary counts what the
table enforced; `--json` prints it as one object.

The simulated table's buttons and sensors are debounced 1 ms (a real table: 20 ms) so that
rounds are not paced by the debounce; the autoplay keeps its edges further apart than that.
"""

import json
import logging
import os
import signal
import sys
import time

from controller import config as configuration
from controller.errors import ConfigError, JournalError
from controller.games import ALL_GAMES, model_class
from controller.games.engine import LOCKED_OUT, SHUFFLED, Table
from controller.policies import default_policies
from controller.policies.clear import SelftestOnClear
from controller.progressive import progressives
from controller.run import make_outputs
from controller.table import TableController

log = logging.getLogger(__name__)

# Games the autoplay plays (all games with a machine in this version).
PLAYABLE = ALL_GAMES
SINGLE_DECK = ("flop-poker", "raise-it-up-stud")


# The console's PIN file under simulation: $TABLECTL_PINS, else this (tablectl passwd writes it).
CONSOLE_PINS = os.path.join(os.path.expanduser("~"), ".tablectl", "console-pins.json")


def parse_fault(text):
    parts = text.split(":")
    if len(parts) not in (2, 3) or not all(parts[:2]):
        raise ConfigError("--fault %r: DEVICE:KIND[:RATE], e.g. shoe:jam:0.05" % text)
    from hal_sim.autoplay import DEVICE_KINDS, LINE_KINDS
    device, kind = parts[0], parts[1]
    try:
        rate = float(parts[2]) if len(parts) == 3 else 1.0
    except ValueError:
        raise ConfigError("--fault %r: the rate is a number 0..1" % text)
    if not 0 <= rate <= 1:
        raise ConfigError("--fault %r: the rate is a number 0..1" % text)
    serial = ("shoe", "card_reader", "shuffler", "dice_reader", "dealer_panel", "meter_display")
    ok = kind in DEVICE_KINDS.get(device, ()) or (device in serial and kind in LINE_KINDS)
    if not ok:
        raise ConfigError("--fault %r: unknown; device faults: %s; line faults on %s: %s"
                          % (text, ", ".join("%s:%s" % (d, k) for d, ks in DEVICE_KINDS.items()
                                             for k in ks), "/".join(serial),
                             ", ".join(LINE_KINDS)))
    return device, kind, rate


def game_config(game, faults):
    """The simulated table's configuration: single-deck games deal from the simulated
    automated dealing shoe (583.10, 669a.10) and use an automated shuffler that does not count
    (the dealer counts the stub) unless a miscount fault asks for a counter."""
    counting = any(d == "shuffler" and k == "miscount" for d, k, _ in faults)
    if game in SINGLE_DECK:
        return {"options": {"shuffler": "counting" if counting else "automated",
                            "dealing": "automated_shoe"}}, counting
    if game == "poker" and counting:
        return {"options": {"shuffler": "counting"}}, True
    return {}, False


class Simulation:
    """The whole simulated table; `run(rounds)` then `close()` (always)."""

    def __init__(self, game, seed=0, faults=(), progress=None, journal=None, key=None):
        from drivers.devices import build_devices
        from hal_sim.autoplay import Autoplay
        from hal_sim.devices import TABLE_DEVICES, SimTable
        self.game, self.seed, self.progress = game, seed, progress
        self.faults = list(faults)
        cls = model_class(game)
        cfg, counting = game_config(game, self.faults)
        self.started = []
        model = cls(configuration.validate(dict(cfg, game=game), cls))
        devices = TABLE_DEVICES + (("meter_display",) if progressives(model) else ())
        for device, kind, _ in self.faults:
            if device == "meter_display" and device not in devices:
                raise ConfigError("--fault %s:%s: %s has no progressive meter display"
                                  % (device, kind, game))
        self.selftests = SelftestOnClear({})
        policies = [self.selftests] + default_policies(game)
        self.journal = journal
        if journal is None:
            self.ctl = TableController(Table(model), policies=policies)
        else:
            # the boot checks pass before any device starts (a failed one: nothing starts)
            from controller.journal import boot
            self.ctl = boot(journal, Table(model), policies, key=key)
            if self.ctl.boot_report["problem"]:
                self.ctl.close()
                raise JournalError("journal %s: the table is locked out: %s"
                                   % (journal, self.ctl.boot_report["problem"]))
        # the simulated lines' edges are stamped in table time, as the drivers' frames are
        self.sim = SimTable(devices, gpio_clock=self.ctl.clock).start()
        try:
            dev_cfg = self.sim.config()
            dev_cfg["shuffler"]["counts"] = counting
            if game == "six-card-fortune-pai-gow":
                dev_cfg["dice_reader"]["dice"] = 3
            dev_cfg["progressive_system"]["debounce_ms"] = 1
            dev_cfg["buttons"]["debounce_ms"] = 1
            self.drivers = build_devices(dev_cfg, self.sim.factory, clock=self.ctl.clock,
                                         on_rejected=self.ctl.frame_rejected)
            self.selftests.drivers = self.drivers
            for driver in self.drivers.values():
                driver.start(self.ctl.submit)
                self.started.append(driver)
            self.ctl.outputs = make_outputs(self.drivers)
            self.ctl.sync_outputs()                   # the meter display's start-up amounts
            for driver in self.drivers.values():
                if hasattr(driver, "wait_connected") and not driver.wait_connected(2.0):
                    raise RuntimeError("%s: no handshake with the simulated device" % driver.name)
            from controller.console import start_console
            self.console_path, self.console = start_console(
                self.ctl, self.drivers, clock=self.ctl.clock,
                pin_store_path=os.environ.get("TABLECTL_PINS", CONSOLE_PINS),
                config=dict(getattr(model, "config", None) or {},     # `show config`: the
                            controller={"devices": dev_cfg}))         # simulated devices too
            self.autoplay = Autoplay(self.ctl, self.sim, self.drivers, seed, self.faults)
            if journal is not None:
                self.ctl.capture_rng()
                self.resume()
        except BaseException:
            self.close()
            raise
        self.elapsed = 0.0
        self.stopped_by = None

    def resume(self):
        """Where the journal left the table: a pending close of wagers happens, a lock-out
        in force is cleared by the floorperson as any other, then a round the power loss
        interrupted is void (every wager returned) and a shoe whose order died with the
        process is shuffled again."""
        ctl, ap = self.ctl, self.autoplay
        ctl.run_until_idle()
        for _ in range(20):
            if ctl.model.state != LOCKED_OUT:
                break
            ap.floorperson()
        ctl.void_interrupted()
        if ctl.model.state == SHUFFLED and not ap.deck:
            ap.shuffle()

    def run(self, rounds=None):
        """Play `rounds` rounds (None: until interrupted)."""
        start = time.perf_counter()
        n = 0
        try:
            while rounds is None or n < rounds:
                status = self.autoplay.play_round()
                n += 1
                if self.progress:
                    self.progress(n, rounds, status, self)
        except KeyboardInterrupt:
            self.stopped_by = "interrupt"
        finally:
            self.elapsed = time.perf_counter() - start
        return n

    def close(self):
        """The console, the drivers (they close their slave ports), then the devices:
        nothing left."""
        if getattr(self, "console", None) is not None:
            self.console.stop()
            self.console = None
        if self.started:
            for what, why in self.ctl.outputs.safe_all():    # a table left safe, as on a Pi
                log.warning("%s: safe value not applied at shutdown: %s", what, why)
        for driver in reversed(self.started):
            try:
                driver.stop()
            except Exception:           # noqa: BLE001 - stop everything else regardless
                pass
        self.started = []
        self.sim.stop()
        if self.journal is not None:
            self.ctl.close()

    def summary(self, timings=True):
        from controller.policies.no_more_bets import NoMoreBets
        ap, ctl = self.autoplay, self.ctl
        nmb = ctl.policy(NoMoreBets)
        stub = ctl.kinds["irregularity:stub_count"] + ctl.kinds["irregularity:deck_count"]
        frames = {}
        for name, d in self.drivers.items():
            for reason, count in dict(getattr(d, "rejected", {})).items():
                frames.setdefault(name, {})[reason] = count
        removed = ctl.kinds["open_table"] - 1
        returns = {}
        for wager, r in sorted(ap.stats["returns"].items()):
            rtp = (r["wagered"] + r["net"]) / r["wagered"] if r["wagered"] else None
            returns[wager] = {"wagered": r["wagered"], "net": r["net"], "rtp": rtp}
        out = {
            "game": self.game, "seed": self.seed,
            "rounds_completed": ap.stats["rounds_completed"],
            "rounds_void": ap.stats["rounds_void"],
            "lockouts": [{"reason": lo["reason"], "section": lo["section"],
                          "cleared": lo["cleared"]} for lo in ctl.lockouts],
            "wagers_after_no_more_bets": {
                "attempted": ap.stats["past_post_attempts"],
                "recognized": ap.stats["past_post_recognized"],
                "journaled_attempts": nmb.stats["attempted"] if nmb else 0},
            "stub_counts": {"performed": stub,
                            "mismatches": len([r for r in ctl.refusals if "stub count" in r[1]])
                            + sum(1 for lo in ctl.lockouts if "count" in (lo["reason"] or ""))},
            "decks_removed": max(0, removed),
            "frames_rejected": frames,
            "faults_injected": dict(ap.stats["faults_injected"]),
            "return_to_player": returns,
            "controller": {k: ctl.stats[k] for k in ("events", "applied", "refused", "errors",
                                                     "faults")},
        }
        if self.stopped_by:
            out["stopped_by"] = self.stopped_by
        if timings:
            rounds = out["rounds_completed"] + out["rounds_void"]
            out["elapsed_s"] = round(self.elapsed, 3)
            out["rounds_per_s"] = round(rounds / self.elapsed, 1) if self.elapsed else None
        return out


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
    return 0


def _print_summary(s, out):
    out.write("%s, seed %s: %d rounds completed, %d void in %.2f s\n"
              % (s["game"], s["seed"], s["rounds_completed"], s["rounds_void"], s["elapsed_s"]))
    out.write("lock-outs: %d (%d cleared)\n" % (len(s["lockouts"]),
                                                sum(lo["cleared"] for lo in s["lockouts"])))
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
