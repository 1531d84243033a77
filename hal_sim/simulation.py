"""The simulated table: `tablectl sim`'s device set for the one runtime, and the autoplay.

`Simulation(game, seed, faults)` hands controller/runtime.py a `SimulatedDevices` set (the
simulated devices, hal_sim.devices.SimHardware, on real ptys, with the progressive meter display
where the game's table has a progressive meter, and the simulated GPIO factory) instead of
the configured ones: the table itself (journal and boot checks, drivers, outputs, console,
policies, the one shutdown path) is assembled exactly as `tablectl run` assembles it. The
loop is not a thread here: hal_sim.autoplay drives it between device actions. Faults given as
DEVICE:KIND[:RATE] are drawn each round at RATE (default 1.0). The summary counts what the
table enforced; a round the autoplay could not finish ends the run and is named in it
(`stuck`), never a traceback.

The simulated table's buttons and sensors are debounced 1 ms (a real table: 20 ms) so that
rounds are not paced by the debounce; the autoplay keeps its edges further apart than that.

This is the simulator's side: nothing a table runs imports hal_sim (the CLI imports this
module lazily for `tablectl sim`).
"""

import logging
import time

from controller import config as configuration
from controller.console.auth import default_pin_store
from controller.errors import ConfigError
from controller.games import ALL_GAMES, declaration, model_class
from controller.games.engine import LOCKED_OUT, SHUFFLED
from controller.progressive import progressives
from controller.runtime import Runtime
from hal_sim.autoplay import Autoplay, Stuck

log = logging.getLogger(__name__)

# Games the autoplay plays (all games with a machine in this version).
PLAYABLE = ALL_GAMES

# What the controller keeps in memory without --journal: its latest entries (about 150
# blackjack rounds), not all of them.
MEMORY_JOURNAL = 5000


def parse_fault(text):
    parts = text.split(":")
    if len(parts) not in (2, 3) or not all(parts[:2]):
        raise ConfigError("--fault %r: DEVICE:KIND[:RATE], e.g. shoe:jam:0.05" % text)
    from hal_sim.autoplay import DEVICE_KINDS, LINE_KINDS
    from controller.device_registry import short_name, types
    device, kind = parts[0], parts[1]
    if device in types():           # its kind or any name it has: the simulated table's name
        device = short_name(types()[device])
    try:
        rate = float(parts[2]) if len(parts) == 3 else 1.0
    except ValueError:
        raise ConfigError("--fault %r: the rate is a number 0..1" % text)
    if not 0 <= rate <= 1:
        raise ConfigError("--fault %r: the rate is a number 0..1" % text)
    from hal_sim.devices import SIMULATORS
    serial = tuple(SIMULATORS)
    ok = kind in DEVICE_KINDS.get(device, ()) or (device in serial and kind in LINE_KINDS)
    if not ok:
        raise ConfigError("--fault %r: unknown; device faults: %s; line faults on %s: %s"
                          % (text, ", ".join("%s:%s" % (d, k) for d, ks in DEVICE_KINDS.items()
                                             for k in ks), "/".join(serial),
                             ", ".join(LINE_KINDS)))
    return device, kind, rate


def game_config(game, faults):
    """The simulated table's configuration, as the simulator's registry says the game is
    played (hal_sim/games.py: single-deck games from the simulated automated dealing shoe),
    and whether its shuffler counts (a miscount fault asks for a counter)."""
    from hal_sim.games import sim_game
    counting = any(d == "shuffler" and k == "miscount" for d, k, _ in faults)
    return sim_game(game).table_options(counting)


def resume(ctl, ap, settle):
    """Simulation.resume's steps (hal_sim/virtual.py's boots take them too): `settle()` runs
    what the boot left queued."""
    settle()
    for _ in range(1 if ap.manual_clear else 20):    # manual: waits for the console
        if ctl.model.state != LOCKED_OUT:
            break
        ap.floorperson()
    ctl.void_interrupted()
    if ctl.model.state == SHUFFLED and not ap.deck:
        ap.shuffle()


class SimulatedDevices:
    """The device set of a simulated table (controller/runtime.py): SimHardware's devices on
    real ptys and its GPIO factory, configured as the game's table needs them."""

    def __init__(self, game, faults, model, link_options=None):
        from hal_sim.devices import PROGRESSIVE_DEVICES, TABLE_DEVICES
        self.game = game
        self.link_options = link_options
        self.counting = game_config(game, faults)[1]
        self.names = TABLE_DEVICES + (PROGRESSIVE_DEVICES if progressives(model) else ())
        for device, kind, _ in faults:
            if device in PROGRESSIVE_DEVICES and device not in self.names:
                raise ConfigError("--fault %s:%s: %s has no progressive %s"
                                  % (device, kind, game, device.replace("_", " ")))
        self.sim = None
        self.config = {}

    def open(self, clock, on_rejected):
        from drivers.devices import build_devices
        from hal_sim.devices import SimHardware
        # the simulated lines' edges are stamped in table time, as the drivers' frames are
        self.sim = SimHardware(self.names, gpio_clock=clock).start()
        dev_cfg = self.configure(self.sim.config())
        return self.sim.factory, build_devices(dev_cfg, self.sim.factory, clock=clock,
                                               on_rejected=on_rejected,
                                               link_options=self.link_options)

    def configure(self, dev_cfg):
        """The simulated devices' configuration as the game's table needs it (the shuffler's
        count, the dice per roll, 1 ms debounce); kept as the console's `show config`.
        hal_sim/virtual.py's device set takes the same."""
        dev_cfg["shuffler"]["counts"] = self.counting
        dice = declaration(self.game).dice_per_roll
        if dice is not None:
            dev_cfg["dice_reader"]["dice"] = dice
        from drivers.devices import TYPES
        from hal_sim.devices import GPIO_SIMULATORS
        for kind in GPIO_SIMULATORS:         # every debounced GPIO device of the registry
            if kind in dev_cfg and "debounce_ms" in configuration.device_keys(
                    kind, TYPES[kind], False):
                dev_cfg[kind]["debounce_ms"] = 1
        self.config = dev_cfg                # the console's `show config`: these devices too
        return dev_cfg

    def connected(self, drivers):
        for driver in drivers.values():
            if hasattr(driver, "wait_connected") and not driver.wait_connected(2.0):
                raise RuntimeError("%s: no handshake with the simulated device" % driver.name)

    def close(self):
        """Every simulated device's thread joined, every pty fd closed, the factory closed."""
        if self.sim is not None:
            sim, self.sim = self.sim, None
            sim.stop()


class Simulation:
    """The whole simulated table; `run(rounds)` then `close()` (always)."""

    def __init__(self, game, seed=0, faults=(), progress=None, journal=None, key=None,
                 keep=MEMORY_JOURNAL, parts=(), link_options=None, pins=None,
                 manual_clear=False, on_locked=None, on_console=None, link=None):
        """`parts`: more parts of the table (a floor link), started after the console, before
        play; see Runtime.register_part. `link_options`: the drivers' Link options (e.g.
        heartbeat_timeout_ms), for a bench that measures something other than the link.
        `pins`: the console's PIN file (else auth.default_pin_store());
        `on_console(simulation)` is called once the console is up, before a resume that may
        wait for it; `manual_clear` and `on_locked` go to the autoplay (sim --manual-clear)."""
        self.pins_path = pins or default_pin_store()
        self.game, self.seed, self.progress = game, seed, progress
        self.faults = list(faults)
        cls = model_class(game)
        cfg = configuration.validate(dict(game_config(game, self.faults)[0], game=game), cls)
        if link:                 # a linked progressive (`tablectl sim --link L1`)
            cfg["link"] = link
        self.devices = SimulatedDevices(game, self.faults, cls(cfg), link_options)
        self.journal = journal
        # the boot checks pass before any device starts (a failed one: nothing starts)
        self.runtime = Runtime(cfg, self.devices, journal=journal, key=key, keep=keep,
                               console={"pins": self.pins_path},
                               loop=False, refuse_locked_boot=True)
        self.elapsed = 0.0
        self.pause_s = 0.0              # between rounds (`tablectl sim --pause`)
        self.stopped_by = None
        self.stuck = None
        self.autoplay = None
        for part in parts:
            self.runtime.register_part(part)
        try:
            self.runtime.start()
            if on_console is not None:
                on_console(self)
            self.autoplay = Autoplay(self.ctl, self.sim, self.drivers, seed, self.faults,
                                     manual_clear=manual_clear,
                                     on_locked=on_locked and (lambda lo: on_locked(
                                         self.spoken(lo))))
            if journal is not None:
                # the autoplay's seeded source replaced the one the boot journals: journal
                # each draw of this one (the real table's stays `secrets`, captured at boot)
                self.ctl.capture_rng()
                self.resume()
        except BaseException:
            self.close()
            raise

    ctl = property(lambda self: self.runtime.ctl)
    drivers = property(lambda self: self.runtime.drivers)
    console = property(lambda self: self.runtime.console)
    console_path = property(lambda self: self.runtime.console_path)
    sim = property(lambda self: self.devices.sim)

    def register_part(self, part, name=None):
        """One more part of the table (a floor link): see Runtime.register_part."""
        return self.runtime.register_part(part, name)

    def resume(self):
        """Where the journal left the table: a pending close of wagers happens, a lock-out
        in force is cleared by the floorperson as any other, then a round the power loss
        interrupted is void (every wager returned) and a shoe whose order died with the
        process is shuffled again."""
        resume(self.ctl, self.autoplay, self.ctl.run_until_idle)

    def run(self, rounds=None):
        """Play `rounds` rounds (None: until interrupted); a round that cannot end (Stuck)
        ends the run and is named in the summary."""
        start = time.perf_counter()
        n = 0
        try:
            while rounds is None or n < rounds:
                status = self.autoplay.play_round()
                n += 1
                if self.progress:
                    self.progress(n, rounds, status, self)
                if self.pause_s:
                    self.commit()                   # the round's end seen while we wait
                    time.sleep(self.pause_s)        # a person's pace (the floor demo)
        except KeyboardInterrupt:
            self.stopped_by = "interrupt"
        except Stuck as e:
            self.stopped_by = "stuck"
            self.stuck = {"round": n + 1, "state": self.ctl.model.state, "why": str(e)}
            log.warning("round %d: the autoplay is stuck: %s", n + 1, e)
        finally:
            self.elapsed = time.perf_counter() - start
            self.commit()
        return n

    def commit(self):
        """The journal's held rows (the last round's snapshot waits for the next input, or
        for a second of idle ticks that no one runs between two runs) on the disk: what the
        caller and the floor link read once a run is over."""
        commit = getattr(self.ctl, "commit_pending", None)
        if commit is not None:
            commit()

    def close(self):
        """The runtime's one shutdown path: the console, the outputs safe, the drivers (they
        close their slave ports), the devices, the journal: nothing left. Failures are
        logged and returned, never swallowed."""
        failures = self.runtime.close()
        for what, why in failures:
            log.warning("shutdown: %s failed: %s", what, why)
        return failures

    def spoken(self, value):
        """A text or a lock-out with each device kind it names (a lock-out's reason, "device
        dealing_shoe: jam") given the name the table's configuration gives it ("shoe"), as
        the console says it (device_registry.say_names)."""
        from controller.device_registry import configured_names, say_names
        return say_names(value, configured_names(
            {n: getattr(d, "device", n) for n, d in self.drivers.items()}))

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
            "lockouts": [{"reason": self.spoken(lo["reason"]),
                          "section": ctl.model.lockout_section(lo),
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
            **({"poker_room": dict(ap.stats["room"])} if "room" in ap.stats else {}),
            "controller": {k: ctl.stats[k] for k in ("events", "applied", "refused", "errors",
                                                     "faults")},
        }
        if self.stopped_by:
            out["stopped_by"] = self.stopped_by
        if self.stuck:
            out["stuck"] = dict(self.stuck)
        if timings:
            rounds = out["rounds_completed"] + out["rounds_void"]
            out["elapsed_s"] = round(self.elapsed, 3)
            out["rounds_per_s"] = round(rounds / self.elapsed, 1) if self.elapsed else None
        return out
