"""The tower light over the table: green open, amber a call, red locked out.

Its safe state is red on and the others off, so a table whose controller has
gone to the fault path shows it from across the floor.
"""

from drivers.devices.gpio_device import GpioDevice
from drivers.errors import DeviceError

SAFE = {"red": True, "amber": False, "green": False, "buzzer": False}
SHOWS = {"open": {"green"}, "call": {"amber"}, "locked": {"red"}, "fault": {"red", "buzzer"},
         "closed": set()}


class TowerLight(GpioDevice):
    """Commands: set(color, on), show(open|call|locked|fault|closed). Pins: {color: bcm}."""

    device = "tower_light"

    def __init__(self, name=None, factory=None, **pins):
        super().__init__(name, factory)
        self.pins = {k: v for k, v in pins.items() if k in SAFE and v is not None}
        self.shown = None

    def _claim(self):
        for color, bcm in self.pins.items():
            self._output(color, bcm, safe=SAFE[color])

    def set(self, color, on=True):
        self.outputs[color].write(bool(on))

    def show(self, what):
        if what not in SHOWS:
            raise DeviceError("tower light: %r is not one of %s" % (what, ", ".join(SHOWS)))
        for color, pin in self.outputs.items():
            pin.write(color in SHOWS[what])
        self.shown = what

    def to_safe(self):
        self.shown = None
        return super().to_safe()
