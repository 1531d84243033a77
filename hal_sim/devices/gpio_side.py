"""The wire side of the GPIO devices on a SimFactory: chips on sensors, fingers on buttons.

Times are the caller's (monotonic ns): a test places a wager and presses the
lock-out button at the instants it chooses, and the drivers' callbacks receive
exactly those stamps (hal_sim/gpio.py). Lines are active low.
"""

PRESS_NS = 50_000_000       # how long a finger holds a button


class SimProgressiveWire:
    """place_wager(seat), clear(seat), press_lockout(), bounce(seat, n); reads outputs."""

    def __init__(self, factory, *, sensors, lockout_button, lockout, lights=None,
                 jackpot_light=None, **_ignored):
        self.factory = factory
        self.sensors = {int(s): b for s, b in sensors.items()}
        self.lights = {int(s): b for s, b in (lights or {}).items()}
        self.button, self.lockout, self.jackpot_light = lockout_button, lockout, jackpot_light

    def place_wager(self, seat, at_ns=None):
        """A chip lands on the seat's sensor (the line goes low); returns callbacks made."""
        return self.factory.drive(self.sensors[seat], False, at_ns)

    def clear(self, seat, at_ns=None):
        return self.factory.drive(self.sensors[seat], True, at_ns)

    def bounce(self, seat, bounces, interval_ns=200_000):
        """The seat's sensor chatters on every change from now on."""
        self.factory.inject_bounce(self.sensors[seat], bounces, interval_ns)

    def press_lockout(self, at_ns=None, width_ns=PRESS_NS):
        return self.factory.pulse(self.button, width_ns, at_ns)

    def locked(self):
        return self.factory.level(self.lockout)

    def light(self, seat):
        return self.factory.level(self.lights[seat])


class SimButtonsWire:
    """press(name) for no_more_bets, round_complete, floor_call."""

    def __init__(self, factory, **pins):
        self.factory = factory
        self.pins = {k: v for k, v in pins.items() if isinstance(v, int)}

    def press(self, button, at_ns=None, width_ns=PRESS_NS):
        return self.factory.pulse(self.pins[button], width_ns, at_ns)
