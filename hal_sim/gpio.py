"""The simulated GPIO backend: the drivers' pins, with the test or simulator on the wire.

The other side of each line belongs to whoever holds the factory: `drive()`
sets an input's level at a given monotonic-ns time and, if that is an edge the
pin detects, applies the pin's debounce exactly as configured -- an edge less
than `debounce_ms` after the last ACCEPTED edge is dropped and counted -- then
calls the driver's callback with that time. `inject_bounce()` makes a sensor
chatter, `level()`/`history()` read what the drivers wrote, `fail_writes()`
breaks an output. Everything runs synchronously in the caller's thread: no
threads, no sleeping, times are whatever the caller says.
"""

import time

from drivers.hal import Edge, HalError, InputPin, OutputPin, PinFactory, Pull
from hal_sim.recent import Recent

HISTORY_KEPT = 1000                  # writes remembered per output (a simulator runs for hours)


class SimFactory(PinFactory):
    """Simulated pins; `clock` (monotonic ns) stamps writes and edges driven without a time."""

    name = "sim"

    def __init__(self, clock=time.monotonic_ns):
        super().__init__()
        self.clock = clock
        self.released = False
        self._levels = {}
        self._history = {}
        self._write_errors = {}
        self._last_ns = {}
        self._last_accepted = {}
        self._dropped = {}
        self._bounce = {}

    # -- the backend side, called through PinFactory --------------------------------

    def _setup_input(self, pin):
        # A floating input reads low in the simulation.
        self._levels[pin.bcm] = pin.pull is Pull.UP
        self._dropped[pin.bcm] = 0

    def _setup_output(self, bcm, level):
        self._levels[bcm] = level
        self._history[bcm] = Recent(HISTORY_KEPT, [(self.clock(), level)])

    def _read(self, bcm):
        return self._levels[bcm]

    def _write(self, bcm, level):
        error = self._write_errors.get(bcm)
        if error is not None:
            raise error
        self._levels[bcm] = level
        self._history[bcm].append((self.clock(), level))

    def _release(self):
        self.released = True

    # -- the wire side, for tests and the simulator ---------------------------------

    def level(self, bcm):
        """The level of a claimed line now (an output's last write, an input's last drive)."""
        self._pin(bcm, (InputPin, OutputPin))
        return self._levels[bcm]

    def history(self, bcm):
        """The writes to an output as (monotonic ns, level), its setup level first: the latest
        HISTORY_KEPT of them once there were more."""
        self._pin(bcm, OutputPin)
        return list(self._history[bcm])

    def dropped(self, bcm):
        """How many detected edges the input's debounce has dropped."""
        self._pin(bcm, InputPin)
        return self._dropped[bcm]

    def fail_writes(self, bcm, error):
        """Make every write to an output raise `error` (None: work again)."""
        self._pin(bcm, OutputPin)
        self._write_errors[bcm] = error

    def inject_bounce(self, bcm, bounces, interval_ns=200_000):
        """From now on each level change driven on `bcm` chatters `bounces` times.

        A chatter is a reversal and a return, `interval_ns` apart, so a driven change
        becomes 1 + 2 x bounces transitions ending at the driven level. 0 stops it.
        """
        self._pin(bcm, InputPin)
        if not isinstance(bounces, int) or bounces < 0 or interval_ns <= 0:
            raise HalError("GPIO%d: bounce needs bounces >= 0 and interval_ns > 0" % bcm)
        self._bounce[bcm] = (bounces, interval_ns)

    def drive(self, bcm, level, at_ns=None):
        """Set input `bcm` to `level` at `at_ns` (default: the clock); returns callbacks made.

        No change of level, no edge. After close() levels still change but no
        callback runs, as on a released line.
        """
        pin = self._pin(bcm, InputPin)
        level = bool(level)
        at_ns = self.clock() if at_ns is None else at_ns
        if at_ns < self._last_ns.get(bcm, at_ns):
            raise HalError("GPIO%d: edge at %d ns is before the last one at %d ns"
                           % (bcm, at_ns, self._last_ns[bcm]))
        if level == self._levels[bcm]:
            return 0
        bounces, interval = self._bounce.get(bcm, (0, 0))
        delivered = 0
        for i in range(1 + 2 * bounces):
            delivered += self._transition(pin, level if i % 2 == 0 else not level,
                                          at_ns + i * interval)
        return delivered

    def pulse(self, bcm, width_ns, at_ns=None):
        """Drive `bcm` away from its level and back `width_ns` later; returns callbacks made."""
        at_ns = self.clock() if at_ns is None else at_ns
        away = not self.level(bcm)
        return self.drive(bcm, away, at_ns) + self.drive(bcm, not away, at_ns + width_ns)

    def _transition(self, pin, level, at_ns):
        self._levels[pin.bcm] = level
        self._last_ns[pin.bcm] = at_ns
        if self.closed or pin.edge is None:
            return 0
        if pin.edge is (Edge.FALLING if level else Edge.RISING):
            return 0
        last = self._last_accepted.get(pin.bcm)
        if last is not None and at_ns - last < pin.debounce_ms * 1_000_000:
            self._dropped[pin.bcm] += 1
            return 0
        self._last_accepted[pin.bcm] = at_ns
        pin._deliver(at_ns)
        return 1

    def _pin(self, bcm, kind):
        pin = self._pins.get(bcm)
        if not isinstance(pin, kind):
            raise HalError("GPIO%s is %s" % (bcm, "not claimed" if pin is None else
                                               "an %s" % type(pin).__name__))
        return pin
