"""The progressive table game system: per-seat wager sensors, acceptance lights, lock-out.

No more bets must stop every progressive wager at once (583.7(c), 669a.7(c)):
the dealer's lock-out button drives the lock-out output to LOCKED inside its own
edge callback, before anything is queued, and the Event carries the edge's
time, so the controller can tell a wager placed before the press from one after.
"""

from drivers.devices.gpio_device import GpioDevice

LOCKED, UNLOCKED = True, False          # the lock-out output's levels; safe = LOCKED


class ProgressiveSystem(GpioDevice):
    """Events: Event("wager", {"seat", "wager": "progressive", "amount"}) at a sensor's edge;
    Event("no_more_bets", {"button": "lockout"}) at the lock-out button's edge.
    Commands: lock(), unlock(), accept(seat, on), lights_off(), jackpot(on).

    Pins (BCM): sensors {seat: bcm}, lights {seat: bcm}, lockout_button, lockout,
    jackpot_light. Sensors and button are active low with pull-ups.
    """

    device = "progressive_system"

    def __init__(self, name=None, factory=None, *, sensors, lockout_button, lockout,
                 lights=None, jackpot_light=None, amount=100, debounce_ms=20, **_ignored):
        super().__init__(name, factory)
        self.pins = {"sensors": {int(s): b for s, b in sensors.items()},
                     "lights": {int(s): b for s, b in (lights or {}).items()},
                     "lockout_button": lockout_button, "lockout": lockout,
                     "jackpot_light": jackpot_light}
        self.amount = amount
        self.debounce_ms = debounce_ms
        self.locked_at_ns = None

    def _claim(self):
        p = self.pins
        self._output("lockout", p["lockout"], safe=LOCKED)
        for seat, bcm in p["lights"].items():
            self._output("light_%d" % seat, bcm, safe=False)
        if p["jackpot_light"] is not None:
            self._output("jackpot_light", p["jackpot_light"], safe=False)
        for seat, bcm in p["sensors"].items():
            self._input("sensor_%d" % seat, bcm, self._sensor_callback(seat),
                        debounce_ms=self.debounce_ms)
        self._input("lockout_button", p["lockout_button"], self._on_button,
                    debounce_ms=self.debounce_ms)

    def _sensor_callback(self, seat):
        def on_sensor(ts_ns):
            self._emit("wager", {"seat": seat, "wager": "progressive", "amount": self.amount},
                       ts_ns)
        return on_sensor

    def _on_button(self, ts_ns):
        if self._running:
            self.lock(ts_ns)
        self._emit("no_more_bets", {"button": "lockout"}, ts_ns)

    # -- commands -----------------------------------------------------------------

    @property
    def locked(self):
        return self.outputs["lockout"].value == LOCKED

    def lock(self, ts_ns=None):
        """Engage the lock-out (idempotent): no sensor wager is accepted by the system."""
        self.outputs["lockout"].write(LOCKED)
        if self.locked_at_ns is None:
            self.locked_at_ns = ts_ns

    def unlock(self):
        """Release the lock-out for a new round of wagering."""
        self.outputs["lockout"].write(UNLOCKED)
        self.locked_at_ns = None

    def accept(self, seat, on=True):
        """The seat's acceptance light: its progressive wager was accepted."""
        self.outputs["light_%d" % seat].write(bool(on))

    def lights_off(self):
        for key, pin in self.outputs.items():
            if key.startswith("light_"):
                pin.write(False)

    def jackpot(self, on=True):
        self.outputs["jackpot_light"].write(bool(on))

    def status(self):
        return dict(super().status(), locked=self.locked if self.outputs else None,
                    locked_at_ns=self.locked_at_ns)
