"""A whole simulated table's devices: serial devices on real ptys and the GPIO side.

    table = SimHardware(clock=...).start()
    drivers = build_devices(table.config(), table.factory)   # drivers/devices
    table.serial["shoe"].deal("As"); table.progressive.place_wager(3)
    SimHardware(TABLE_DEVICES + PROGRESSIVE_DEVICES)          # a table with a progressive
    ...
    table.stop()     # every device's thread joined, every pty fd closed, the factory closed

`stop()` leaves no threads or fds behind; stop the drivers first (they close
their own slave ports), then the table.
"""

import time

from controller import device_registry as registry
from hal_sim.devices.gpio_side import SimButtonsWire, SimProgressiveWire
from hal_sim.gpio import SimFactory

# {short name: simulator class} of the serial devices, derived from each kind's one
# registration (controller/device_registry.py), which names its simulator
SIMULATORS = {registry.short_name(d): registry.resolve(d.simulator)
              for d in registry.DEVICES if d.simulator}
# Every table's serial devices; a table with a progressive adds the meter display.
TABLE_DEVICES = tuple(registry.short_name(d) for d in registry.DEVICES
                      if d.simulator and d.simulated_on == "every")
PROGRESSIVE_DEVICES = tuple(registry.short_name(d) for d in registry.DEVICES
                            if d.simulator and d.simulated_on == "progressive")

# BCM pins of the simulated table (any free lines do on a real one).
PROGRESSIVE_PINS = {"sensors": {1: 5, 2: 6, 3: 12, 4: 13, 5: 16, 6: 19},
                    "lights": {1: 20, 2: 21, 3: 22, 4: 23, 5: 24, 6: 25},
                    "lockout_button": 17, "lockout": 26, "jackpot_light": 27}
BUTTON_PINS = {"no_more_bets": 4, "round_complete": 18, "floor_call": 14}
TOWER_PINS = {"red": 7, "amber": 8, "green": 9, "buzzer": 10}


class SimHardware:
    """The simulated hardware of one table: its serial devices on ptys and its GPIO wires
    (it was SimTable: "table" meant five things; hal_sim.simulation.SimulatedDevices is
    the runtime's device set built on it).
    `serial`: {name: sim}; `paths`: {name: pty path}."""

    def __init__(self, devices=TABLE_DEVICES, *, gpio=True, clock=time.monotonic_ns,
                 gpio_clock=None):
        self.serial = {name: SIMULATORS[name](clock=clock) for name in devices}
        self.gpio = gpio
        self.factory = SimFactory(clock=gpio_clock or clock) if gpio else None
        self.progressive = SimProgressiveWire(self.factory, **PROGRESSIVE_PINS) if gpio else None
        self.buttons = SimButtonsWire(self.factory, **BUTTON_PINS) if gpio else None

    @property
    def paths(self):
        return {name: sim.path for name, sim in self.serial.items()}

    def start(self):
        started = []
        try:
            for sim in self.serial.values():
                started.append(sim.start())
        except BaseException:
            for sim in started:
                sim.stop()
            raise
        return self

    def config(self):
        """The table configuration drivers.devices.build_devices() takes."""
        config = {name: {"url": path} for name, path in self.paths.items()}
        if self.gpio:
            config.update(progressive_system=dict(PROGRESSIVE_PINS), buttons=dict(BUTTON_PINS),
                          tower_light=dict(TOWER_PINS))
        return config

    def stop(self):
        for sim in self.serial.values():
            sim.stop()
        if self.factory is not None:
            self.factory.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
