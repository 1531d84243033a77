"""The bench as a place to practise (issue 35): on a table whose devices are all simulated
(`tablectl run --config deploy/tables/GAME-bench.toml`), the console's `inject`, `repair`
and `autoplay` reach the simulated devices through this module.

A technician learns the clear procedure on the controller they will service: they make a
device fail from the console (`inject shoe jam`), watch the lock-out, find the device failing
its self-test, repair it (`repair shoe`: the simulated device works again, as a person
would fix a real one) and clear the lock-out, which the clear service grants only after the
self-test passes. `autoplay on` plays rounds meanwhile (the simulator's autoplaying dealer
and players, hal_sim/autoplay.py), so a fault can land mid-round.

Why by name: the firmware never imports hal_sim (.importlinter); the console loads this
module with importlib only when every device it holds is a simulated one (a serial device
whose port is a `sim://` simulator, hal_sim/protocol_sim.py; a GPIO device on the simulated
pin factory), as drivers/hal.py loads hal_sim.gpio for `hal = "sim"`. On a table with a real
device the console refuses before anything here is loaded.

The fault kinds are the simulator's own (hal_sim/autoplay.py DEVICE_KINDS, by device, and
LINE_KINDS, the line faults any serial device takes), so `tablectl sim --fault` and the
console's `inject` offer the same ones.
"""

import logging
import threading
import time

from controller import device_registry as registry
from controller.games.engine import LOCKED_OUT
from hal_sim.autoplay import DEVICE_KINDS, LINE_KINDS, Autoplay, Stuck
from hal_sim.devices import GPIO_SIMULATORS

log = logging.getLogger(__name__)

# DEVICE_KINDS names the progressive system "progressive" (its --fault name)
# {kind: the name `--fault` and DEVICE_KINDS know it by}, from the registrations
SHORT = {d.kind: registry.short_name(d) for d in registry.DEVICES}


def simulator_of(driver):
    """The simulated device behind a serial driver (its `sim://` port's), or None."""
    link = getattr(driver, "link", None)
    return getattr(getattr(link, "port", None), "simulator", None)


class Hardware:
    """What the autoplay drives (SimHardware's shape) over a running table's drivers: the
    simulators behind their serial ports, and the wires of the simulated pin factory."""

    def __init__(self, drivers):
        self.serial = {name: simulator_of(d) for name, d in drivers.items()
                       if simulator_of(d) is not None}
        gpio = {name: d for name, d in drivers.items() if getattr(d, "factory", None)}
        self.factory = next((d.factory for d in gpio.values()), None)
        # {kind: wire} over each GPIO driver, by the kind its class is registered as (its
        # simulator's from_driver reads the driver's pins)
        kinds = {d.driver: d.kind for d in registry.DEVICES}
        self.wires, self.named, self.kinds = {}, {}, {}      # by kind; by the driver's name
        for name, d in gpio.items():
            kind = kinds.get("%s:%s" % (type(d).__module__, type(d).__name__))
            self.kinds[name] = kind
            if kind in GPIO_SIMULATORS and kind not in self.wires:
                self.wires[kind] = GPIO_SIMULATORS[kind].from_driver(self.factory, d)
                self.named[name] = self.wires[kind]
        self.progressive = self.wires.get("progressive_system")
        self.buttons = self.wires.get("buttons")


class ThreadedAutoplay(Autoplay):
    """The autoplay beside a running loop (`tablectl run`'s, on its own thread): it waits
    for the loop to apply what a device sent instead of running the loop itself, and a
    lock-out waits for the console's clear (the technician's), never the simulated
    floorperson's."""

    def pump(self, until, timeout_s=None):
        end = time.monotonic() + (self.wait_s if timeout_s is None else timeout_s)
        while not until():
            if time.monotonic() >= end or self.stopping.is_set():
                return False
            time.sleep(0.005)
        return True

    def wait_for_console_clear(self, lockout):
        if self.on_locked is not None:
            self.on_locked(lockout)
        while self.model.state == LOCKED_OUT and not self.stopping.is_set():
            time.sleep(0.02)


class Practice:
    """The console's bench commands over one all-simulated table (see the module docstring).
    `say(text)` announces on the console (the autoplay's rounds and what stops it)."""

    def __init__(self, ctl, drivers, say=None):
        self.ctl, self.drivers = ctl, dict(drivers)
        self.say = say or (lambda text: None)
        self.hw = Hardware(self.drivers)
        self.autoplay = None
        self.thread = None

    # ---- faults -------------------------------------------------------------------------

    def kinds(self, name):
        """The fault kinds device `name` takes: its own, then the line's (a serial device)."""
        kind = self.hw.kinds.get(name, name)
        own = DEVICE_KINDS.get(SHORT.get(kind, kind), ())
        return tuple(own) + (tuple(LINE_KINDS) if name in self.hw.serial else ())

    def inject(self, name, kind):
        """Make device `name` fail as `kind`; returns what happened, for the console."""
        sim = self.hw.serial.get(name)
        if kind in LINE_KINDS and sim is not None:
            sim.inject(kind, LINE_KINDS[kind])
            return "the line to %s: %s (its driver sees what a real line would do)" % (name, kind)
        if sim is not None:
            if kind == "miscount":
                sim.miscount(-1)
                return "%s now reports one card short at every count" % name
            sim.malfunction = kind          # its self-test fails until it is repaired
            sim.fault(kind)
            return "%s reported a fault: %s; its self-test fails until `repair %s`" % (
                name, kind, name)
        wire = self.hw.named.get(name)
        if wire is not None and hasattr(wire, "inject"):    # a GPIO device's wire injects it
            return wire.inject(kind)
        raise ValueError(kind)

    def repair(self, name):
        """Device `name` works again (a technician's repair): its self-test passes."""
        sim = self.hw.serial.get(name)
        if sim is not None:
            sim.malfunction = None
            sim.inject("none")
            if hasattr(sim, "delta"):
                sim.delta = 0
            return "%s repaired: it passes its self-test now" % name
        wire = self.hw.named.get(name)
        if wire is not None and hasattr(wire, "repair"):
            return "%s repaired: %s" % (name, wire.repair())
        return "%s has nothing to repair" % name

    # ---- autoplay -----------------------------------------------------------------------

    def playing(self):
        return self.thread is not None and self.thread.is_alive()

    def start_autoplay(self, seed=0):
        if self.playing():
            return "autoplay is already on (round %s)" % self.ctl.model.round_no
        ap = ThreadedAutoplay(self.ctl, self.hw, self.drivers, seed=seed, manual_clear=True,
                              on_locked=lambda lo: self.say(
                                  "autoplay waits: the table is locked out; clear it here"))
        ap.stopping = threading.Event()
        self.autoplay = ap
        self.thread = threading.Thread(target=self._play, args=(ap,),
                                       name="tablectl-practice-autoplay", daemon=True)
        self.thread.start()
        return "autoplay on: the simulated dealer and players play rounds; `autoplay off` stops"

    def _play(self, ap):
        while not ap.stopping.is_set():
            try:
                ap.play_round()
            except Stuck as e:
                if ap.stopping.is_set():
                    break
                self.say("autoplay: %s" % e)
                while self.ctl.model.state == LOCKED_OUT and not ap.stopping.is_set():
                    time.sleep(0.02)
            except Exception as e:          # noqa: BLE001 - said on the console, then it stops
                log.exception("practice autoplay")
                self.say("autoplay stopped: %s" % e)
                return

    def stop_autoplay(self, timeout=10.0):
        if not self.playing():
            return "autoplay is off"
        self.autoplay.stopping.set()
        self.thread.join(timeout)
        done = self.autoplay.stats
        return "autoplay off after %d rounds (%d void)" % (
            done["rounds_completed"] + done["rounds_void"], done["rounds_void"])

    def close(self):
        if self.playing():
            self.stop_autoplay()


__all__ = ["Practice", "Hardware", "ThreadedAutoplay", "simulator_of"]
