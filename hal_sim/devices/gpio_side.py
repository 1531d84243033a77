"""The wire side of the GPIO devices on a SimFactory: chips on sensors, fingers on buttons.

Times are the caller's (monotonic ns): a test places a wager and presses the
lock-out button at the instants it chooses, and the drivers' callbacks receive
exactly those stamps (hal_sim/gpio.py). Lines are active low.

Each class is a GPIO device kind's simulator, named by its one registration
(controller/device_registry.py's `simulator`, as a serial device's is): `PINS` are its BCM
pins on the simulated table (any free lines do on a real one), from which the simulated
table's configuration derives, and `from_driver` builds it over a running table's driver
(the console's practice). A new GPIO device adds its class here or in a module of its own.
"""

PRESS_NS = 50_000_000       # how long a finger holds a button


class SimProgressiveWire:
    """place_wager(seat), clear(seat), press_lockout(), bounce(seat, n); reads outputs."""

    PINS = {"sensors": {1: 5, 2: 6, 3: 12, 4: 13, 5: 16, 6: 19},
            "lights": {1: 20, 2: 21, 3: 22, 4: 23, 5: 24, 6: 25},
            "lockout_button": 17, "lockout": 26, "jackpot_light": 27}

    @classmethod
    def from_driver(cls, factory, driver):
        """The wire of a running ProgressiveSystem's pins (its inputs sensor_N, outputs
        light_N)."""
        return cls(factory, lockout_button=driver.inputs["lockout_button"].bcm,
                   lockout=driver.outputs["lockout"].bcm,
                   sensors={int(k.split("_")[1]): p.bcm for k, p in driver.inputs.items()
                            if k.startswith("sensor_")},
                   lights={int(k.split("_")[1]): p.bcm for k, p in driver.outputs.items()
                           if k.startswith("light_")})

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

    # ---- its faults, as the console's `inject` and `repair` (hal_sim/practice.py) ask ----
    BOUNCES = 3                  # how often an injected bounce makes a sensor chatter

    def inject(self, kind):
        """Fault `kind` (its registration's `faults`) now; returns what happened."""
        if kind == "bounce":
            seat = min(self.sensors)
            self.bounce(seat, self.BOUNCES)
            return "the sensor of seat %d now chatters %d times at each change" % (
                seat, self.BOUNCES)
        if kind == "past_post":
            seat = max(self.sensors)
            self.clear(seat)
            self.place_wager(seat)
            return "a chip placed on seat %d's sensor now" % seat
        raise ValueError(kind)

    def repair(self):
        for seat in self.sensors:
            self.bounce(seat, 0)
        return "its sensors no longer chatter"

    def light(self, seat):
        return self.factory.level(self.lights[seat])


class SimButtonsWire:
    """press(name) for no_more_bets, round_complete, floor_call."""

    PINS = {"no_more_bets": 4, "round_complete": 18, "floor_call": 14}

    @classmethod
    def from_driver(cls, factory, driver):
        return cls(factory, **{k: p.bcm for k, p in driver.inputs.items()})

    def __init__(self, factory, **pins):
        self.factory = factory
        self.pins = {k: v for k, v in pins.items() if isinstance(v, int)}

    def press(self, button, at_ns=None, width_ns=PRESS_NS):
        return self.factory.pulse(self.pins[button], width_ns, at_ns)


class SimTowerWire:
    """lit(color): what the tower light shows (outputs only: nothing to drive)."""

    PINS = {"red": 7, "amber": 8, "green": 9, "buzzer": 10}

    def __init__(self, factory, **pins):
        self.factory = factory
        self.pins = {k: v for k, v in pins.items() if isinstance(v, int)}

    @classmethod
    def from_driver(cls, factory, driver):
        return cls(factory, **{k: p.bcm for k, p in driver.outputs.items()})

    def lit(self, color):
        return self.factory.level(self.pins[color])
