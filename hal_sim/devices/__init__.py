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
from hal_sim.gpio import SimFactory

# {short name: simulator class} of the serial devices, derived from each kind's one
# registration (controller/device_registry.py), which names its simulator
_SERIAL = [d for d in registry.DEVICES if d.simulator and d.wire == "serial"]
SIMULATORS = {registry.short_name(d): registry.resolve(d.simulator) for d in _SERIAL}
# Every table's serial devices; a table with a progressive adds the meter display.
TABLE_DEVICES = tuple(registry.short_name(d) for d in _SERIAL if d.simulated_on == "every")
PROGRESSIVE_DEVICES = tuple(registry.short_name(d) for d in _SERIAL
                            if d.simulated_on == "progressive")
# {kind: wire class} of the GPIO devices, from the same registrations: the simulated table
# wires each on its pin factory at the class's PINS (hal_sim/devices/gpio_side.py)
GPIO_SIMULATORS = {d.kind: registry.resolve(d.simulator) for d in registry.DEVICES
                   if d.simulator and d.wire == "gpio"}


def gpio_config():
    """{kind: pins} of every simulated GPIO device: the simulated table's configuration."""
    return {kind: dict(cls.PINS) for kind, cls in GPIO_SIMULATORS.items()}


# BCM pins of the simulated table (the tests' and the bench's names for them)
PROGRESSIVE_PINS = GPIO_SIMULATORS["progressive_system"].PINS
BUTTON_PINS = GPIO_SIMULATORS["buttons"].PINS
TOWER_PINS = GPIO_SIMULATORS["tower_light"].PINS


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
        # {kind: wire}; the autoplay drives two of them by name (`progressive`, `buttons`)
        self.wires = {kind: cls(self.factory, **cls.PINS)
                      for kind, cls in GPIO_SIMULATORS.items()} if gpio else {}
        self.progressive = self.wires.get("progressive_system")
        self.buttons = self.wires.get("buttons")

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
            config.update(gpio_config())
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
