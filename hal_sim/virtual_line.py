"""The virtual table's serial lines (hal_sim/virtual.py): in-memory byte pipes with every fault
a pty line has, the same `PtyPort` code applying them, and the hooks by which the scheduler
wakes an end when bytes arrive for it and brings an idle line up to date before anyone looks
at it (`World._touch`)."""


def _pty_port():
    from hal_sim.devices.pty_port import PtyPort
    return PtyPort


class VirtualLine(_pty_port()):
    """A serial line in memory: the device's end is this object, a `PtyPort` without the pty
    (the line faults are PtyPort's own code: `write` delays, splits and corrupts, `junk`,
    `silent`, `disconnect`); `driver_end` is what the driver's Link reads and writes."""

    def __init__(self, clock, name):         # noqa: super().__init__ would open a pty
        from hal_sim.devices.pty_port import WRITTEN_KEPT
        from hal_sim.recent import RecentBytes
        self.clock = clock
        self.path = "virtual://%s" % name
        self.before_use = None                # World._touch, World._look: see the
        self.before_look = None               # properties below
        self._lock = _NoLock()
        self._pending = []
        self.closed = False
        self.silent = False
        self.delay_ns = self.split_ns = self.bad_crc = 0
        self.written = RecentBytes(WRITTEN_KEPT)
        self.read_total = 0
        self.to_driver = bytearray()          # on the wire towards the driver, arrived
        self.to_device = bytearray()          # what the driver wrote, for the device
        self.driver_end = DriverEnd(self)
        # the scheduler's wake-ups when bytes arrive for an end (a pty's select() would
        # return): World.add_line sets them
        self.wake_driver = self.wake_device = None

    # What the scheduler moves on in bulk for an idle line and counts when someone looks
    # (World._look, `before_look`): the bytes that went by and the driver's the device read;
    # and what ends a line's idleness, set only once the line is brought up to date
    # (World._touch, `before_use`): a delay, a split or silence begun or healed, the cable cut

    def _brought_up_to_date(key):          # noqa: N805 -- makes the two properties below
        def get(self):
            if self.before_look is not None:
                self.before_look()
            return self.__dict__[key]

        def put(self, value):
            self.__dict__[key] = value
        return property(get, put)

    written = _brought_up_to_date("_written")
    read_total = _brought_up_to_date("_read_total")
    del _brought_up_to_date

    _IDLENESS = frozenset(("delay_ns", "split_ns", "silent", "closed"))

    def __setattr__(self, name, value):
        if name in self._IDLENESS and self.__dict__.get("before_use") is not None:
            self.before_use()
        object.__setattr__(self, name, value)

    @property
    def in_waiting(self):
        self._check()
        if self._pending:
            self._flush(self.clock())
        return len(self.to_device)

    def read(self, n):
        self._check()
        data = bytes(self.to_device[:n])
        del self.to_device[:n]
        # (in place, here and below: a set of an attribute is __setattr__'s, one per frame)
        self.__dict__["_read_total"] += len(data)
        return data

    def _put(self, data):
        written = self.written                # (the line brought up to date first)
        written += data
        self.to_driver.extend(data)
        if self.wake_driver is not None:
            self.wake_driver()

    def next_due(self):
        """When the bytes at the head of the wire are due: bytes do not overtake one another
        (PtyPort's own answers the earliest of all, which wakes its thread early for
        nothing when a delay was healed behind delayed bytes; here it would be a livelock)."""
        return self._pending[0][0] if self._pending else None

    def fileno(self):
        return None

    def disconnect(self):
        self.closed = True

    def close(self):
        self.closed = True


class DriverEnd:
    """The driver's side of a VirtualLine: the little of a pyserial port a Link uses."""

    def __init__(self, line):
        self.line = line

    @property
    def in_waiting(self):
        line = self.line
        line._check()
        if line._pending:
            line._flush(line.clock())
        return len(line.to_driver)

    def read(self, n):
        line = self.line
        line._check()
        data = bytes(line.to_driver[:n])
        del line.to_driver[:n]
        return data

    def write(self, data):
        line = self.line
        line._check()
        line.to_device.extend(data)
        if line.wake_device is not None:
            line.wake_device()
        return len(data)

    def fileno(self):
        return None

    def close(self):
        pass


class _NoLock:
    """One thread runs everything here: PtyPort's lock has nothing to guard."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
