"""An automated device that malfunctions and cannot be used is covered, or signed out of order,
before any other method is used at the table: 581.13(k) (the shuffler), 583.13(f) and
669a.13(g) (the shuffler or the dealing shoe) say it in the same words. A mixin of Double
Attack Blackjack's model and of the single-deck games' (controller/games/single_deck/base.py).

    irregularity {"kind": "device_out_of_order", "device", "covered": true}
        between rounds; or while the table is locked out by that device's own fault and will
        resume between rounds (or in a round, where COVERED_MID_ROUND: Double Attack, whose
        covered shuffler changes only the next shuffle), since a device that cannot be used
        cannot pass the self-test a clear needs. The device is then out of use until the table is closed and opened again
        (a repaired device returns with the next opening, as configured).
    shuffle {"by": "shuffler" | "hand"}
        the shuffler's driver says "shuffler", the dealer panel "hand"; a shuffle that does not
        say (a scenario) is done the table's way. By hand while the automated shuffler is in
        use is refused, and so is a shuffle by a shuffler covered or not configured.
    a lock-out by a covered device (its fault, or covered while locked) is cleared by a
        floorperson without that device's self-test (`lockout["covered"]`, engine.on_clear):
        the device is out of service, and the fault path has made the table safe already.

The game gives SECTIONS["device_out_of_order"] and SECTIONS["shuffling"], OUT_OF_ORDER_DEVICES,
`in_use(device)` (configured and not covered) and `take_out_of_use(device)` (the table's
methods once it is covered: the details the record notes); it calls `check_shuffled_by` on a
shuffle, and lets this irregularity through while locked out (WHILE_LOCKED).
"""

from controller.games.engine import CLOSED, LOCKED_OUT, OPENED, ROUND_OVER, SHUFFLED, \
    IllegalEvent

BETWEEN_ROUNDS = (OPENED, SHUFFLED) + ROUND_OVER
SHUFFLED_BY = ("shuffler", "hand")
WHILE_LOCKED = ("device_out_of_order",)      # irregularities a locked-out table still takes


class OutOfOrder:
    OUT_OF_ORDER_DEVICES = ("shuffler",)
    # whether a device that locked the table during a round may be covered then: only where
    # taking it out of use changes nothing about the round being played (the next shuffle)
    COVERED_MID_ROUND = False

    def __init__(self, config):
        super().__init__(config)
        self.out_of_order = []        # devices covered as out of order since the table opened

    def in_use(self, device):
        """Whether the table uses this automated device now (the game's)."""
        raise NotImplementedError

    def take_out_of_use(self, device):
        """The table's methods once `device` is covered (the game's): {what: how} to note."""
        raise NotImplementedError

    def on_open_table(self, event):
        if self.state == CLOSED:
            self.out_of_order = []    # the configured devices are back in service
        super().on_open_table(event)

    def lock(self, reason, section=None, device=None):
        super().lock(reason, section, device)
        if device in self.out_of_order and (self.lockout or {}).get("device") == device:
            self.lockout["covered"] = True

    def irregular_device_out_of_order(self, event):
        """Covered or signed out of order before any other method is used."""
        device, section = event.get("device"), self.SECTIONS["device_out_of_order"]
        locked = self.state == LOCKED_OUT
        if locked and not ((self.lockout or {}).get("device") == device
                           and (self.resume_to in BETWEEN_ROUNDS or self.COVERED_MID_ROUND)):
            self.not_locked()
        if not locked and self.state not in BETWEEN_ROUNDS:
            raise IllegalEvent("irregularity device_out_of_order: between rounds, not while %s "
                               "(%s)" % (self.state, section))
        if device not in self.OUT_OF_ORDER_DEVICES:
            raise IllegalEvent("irregularity device_out_of_order: the device is one of %s, not "
                               "%r (%s)" % (", ".join(self.OUT_OF_ORDER_DEVICES), device, section))
        if not self.in_use(device):
            raise IllegalEvent("irregularity device_out_of_order: this table has no automated "
                               "%s in use (%s)" % (_named(device), section))
        if event.get("covered") is not True:
            raise IllegalEvent("the %s is covered or signed out of order before any other "
                               "method is used ('covered': true) (%s)" % (_named(device), section))
        self.out_of_order.append(device)
        if locked:
            self.lockout["covered"] = True
        self.note("out_of_order", device=device, section=section, **self.take_out_of_use(device))

    def not_used(self, device, section):
        """Why this table does not use `device` now, or None when it does; `section` says
        how the table works without one."""
        if device in self.out_of_order:
            return "the %s is covered as out of order until the table is closed and opened " \
                   "again (%s)" % (_named(device), self.SECTIONS["device_out_of_order"])
        if not self.in_use(device):
            return "this table has none in use (%s)" % section
        return None

    def check_shuffled_by(self, event):
        """A shuffle done the way the table shuffles now: by hand only once the automated
        shuffler is covered; by a shuffler only while one is in use."""
        by = event.get("by")
        if by is None:
            return
        if by not in SHUFFLED_BY:
            raise IllegalEvent("a shuffle is by %s, not %r" % (" or ".join(SHUFFLED_BY), by))
        if by == "hand" and self.in_use("shuffler"):
            raise IllegalEvent("no shuffle by hand while the automated shuffler is in use: it "
                               "is covered or signed out of order first (irregularity "
                               "device_out_of_order, 'covered': true) (%s)"
                               % self.SECTIONS["device_out_of_order"])
        why = self.not_used("shuffler", self.SECTIONS["shuffling"]) if by == "shuffler" else None
        if why:
            raise IllegalEvent("a shuffle by the automated shuffler: %s" % why)


def _named(device):
    return device.replace("_", " ")
