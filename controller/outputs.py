"""The lines the controller commands, each with a declared safe value.

The loop (controller/table.py) derives every output from the table's state after each step
and drives them all to their safe values on any fault, each on its own, so one line that
cannot be written stops no other.
"""

from drivers.hal import safe_all


class _Named:
    """A safe-path target under the name its failure is reported by."""

    def __init__(self, what, target):
        self.what, self.to_safe = what, target.to_safe

    def __repr__(self):
        return self.what


class Output:
    """One commanded line; `active` is the level meaning "on" for this output."""

    def __init__(self, pin, active):
        self.pin = pin
        self.active = active

    def set(self, on):
        level = self.active if on else not self.active
        if self.pin.value != level:
            self.pin.write(level)

    @property
    def on(self):
        return self.pin.value == self.active


class Outputs:
    """The lines the controller commands, each an OutputPin with a declared safe value.

    The lock-out and the tower light are "on" at their safe level (engaged, calling
    attention); acceptance lights and the jackpot light are "on" away from it (a lit
    light claims something, which a fault must not leave claimed). `meters` is the
    progressive meter display (drivers/devices/meter_display.py): it sends only amounts
    that changed, so it is shown every step like a line; its safe value is "LOCKED".
    """

    def __init__(self, lockout=None, seat_lights=None, jackpot=None, tower=None, meters=None):
        self.lockout = lockout and Output(lockout, lockout.safe)
        self.tower = tower and Output(tower, tower.safe)
        self.jackpot = jackpot and Output(jackpot, not jackpot.safe)
        self.seats = {str(s): Output(p, not p.safe) for s, p in (seat_lights or {}).items()}
        self.meters = meters

    def all(self):
        return [o for o in [self.lockout, self.tower, self.jackpot] + list(self.seats.values())
                if o is not None]

    def engage_lockout(self):
        if self.lockout is not None:
            self.lockout.set(True)

    def safe_all(self):
        """Every output to its safe value, each on its own: one bad line stops no other.
        drivers.hal.safe_all is the loop; the failures come back JSON-able for the journal."""
        targets = [out.pin for out in self.all()]
        if self.meters is not None:
            targets.append(_Named("meter display %s" % self.meters.name, self.meters))
        return [(what, repr(e)) for what, e in safe_all(targets)]

    def show(self, lockout, tower, jackpot, lit, meters=None):
        """`meters` {name: cents} for the display, None while the table is closed."""
        for out, on in ((self.lockout, lockout), (self.tower, tower), (self.jackpot, jackpot)):
            if out is not None:
                out.set(on)
        for seat, out in self.seats.items():
            out.set(seat in lit)
        if self.meters is not None:
            if meters is None:
                self.meters.blank("CLOSED")
            elif isinstance(meters, str):
                self.meters.blank(meters)        # e.g. "LINK DOWN": no amount to read
            else:
                self.meters.show(meters)
