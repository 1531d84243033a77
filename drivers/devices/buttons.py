"""The dealer's buttons: no more bets, round complete, floorperson call.

No more bets is an Event stamped at the edge. Round complete and the floor call
have no game Event of their own: they reach `on_signal(name, ts_ns)`, which the
controller wires to its round bookkeeping and its floor-call alarm.
"""

from drivers.devices.gpio_device import GpioDevice

BUTTONS = ("no_more_bets", "round_complete", "floor_call")


class Buttons(GpioDevice):
    """Events: Event("no_more_bets", {"button": "no_more_bets"}). Signals: round_complete,
    floor_call through on_signal. Pins: {button name: bcm}, active low with pull-ups."""

    device = "buttons"

    def __init__(self, name=None, factory=None, *, on_signal=None, debounce_ms=20, **pins):
        super().__init__(name, factory)
        self.pins = {k: v for k, v in pins.items() if k in BUTTONS and v is not None}
        self.on_signal = on_signal
        self.debounce_ms = debounce_ms

    def _claim(self):
        for button, bcm in self.pins.items():
            self._input(button, bcm, self._callback(button), debounce_ms=self.debounce_ms)

    def _callback(self, button):
        def on_edge(ts_ns):
            if not self._running:
                return
            if button == "no_more_bets":
                self._emit("no_more_bets", {"button": button}, ts_ns)
            else:
                self.counters[button] += 1
                if self.on_signal is not None:
                    self.on_signal(button, ts_ns)
        return on_edge
