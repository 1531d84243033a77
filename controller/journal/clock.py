"""The table clock: one time line for every stamp, across power cycles (issue 7).

Intervals (decks and dice, 581.3(c), 585.3(b)(1), ...; the reader's gaming day, 581.2(d))
compare new stamps with stamps restored from the journal. The monotonic clock restarts near
zero with the machine, so raw monotonic stamps after a power cycle would look older than the
journal's, and a deck placed before it would never expire. Every stamp is therefore table time,

    table_ns = offset_ns + monotonic_ns()

with the offset chosen at each boot so that table time goes on from the journal's latest stamp
by the time the power was off. How that time is known goes into a `clock` record, the first row
of each boot, which also holds the wall-clock time the boot's table time maps to:

    monotonic  the same kernel as the last boot (its boot id): the process restarted, the
               monotonic clock kept counting, and the offset stays as it was
    wall       another kernel: the downtime is the wall clock now less the wall time of the
               latest stamp, derived from the last clock record (wall_ns at table_ns)
    None       unknown: the wall clock reads before that latest stamp (a Pi without an RTC,
               before NTP), or the journal has no clock record. Table time moves on by
               UNKNOWN_NS, longer than every interval the table keeps, so each one that could
               have run out has: the cards and dice are changed and the card reader inspected
               before play (docs/interpretations.md). The record gives the reason.

Table time never goes backwards. The stamps a replay reads are table time already; the one
thing it takes from the record is what the live table took: the casino's local time, for the
gaming day of the card reader's inspection (581.2(d)), so the record is a step of its own
(`apply`, replay.py's STEP_RECORDS), written after what the boot replayed.
"""

import time

from controller.units import DAY_NS

UNKNOWN_NS = DAY_NS + 3600 * 10 ** 9     # 25 h: more than any deck, dice or gaming-day interval
BOOT_ID = "/proc/sys/kernel/random/boot_id"


def kernel_boot_id():
    """This kernel's boot id (Linux), or None where there is none to read."""
    try:
        with open(BOOT_ID) as f:
            return f.read().strip() or None
    except OSError:
        return None


class TableClock:
    """Table time in ns: `offset_ns` + the injected monotonic clock. `boot` is this boot's
    `clock` record (see the module docstring)."""

    def __init__(self, monotonic=time.monotonic_ns, offset_ns=0, boot=None):
        self.monotonic = monotonic
        self.offset_ns = offset_ns
        self.boot = boot or {}

    @property
    def real_time(self):
        """It moves as time.monotonic_ns does (a link's thread may sleep until a timer)."""
        return self.monotonic is time.monotonic_ns

    def __call__(self):
        return self.offset_ns + self.monotonic()

    def row(self, round_no=0):
        """This boot's `clock` record as a journal row."""
        return (self.boot["table_ns"], "controller", "record", "clock", round_no, self.boot)


def reading(last, latest_ns, mono_ns, wall_ns, boot_id):
    """(table time now, downtime_ns or None, how it was known, the reason it is not).

    `last` is the journal's last clock record (None: none), `latest_ns` its latest stamp
    (None: an empty journal, which begins table time at the monotonic clock).
    """
    if latest_ns is None:
        return mono_ns, None, "new", None
    if not _usable(last):
        reason = "the journal has no clock record this version can read"
    else:
        same_kernel = boot_id is not None and last.get("boot_id") == boot_id
        if same_kernel and last["offset_ns"] + mono_ns >= latest_ns:
            now = last["offset_ns"] + mono_ns
            return now, now - latest_ns, "monotonic", None
        latest_wall = last["wall_ns"] + latest_ns - last["table_ns"]
        down = wall_ns - latest_wall
        if down >= 0:
            return latest_ns + down, down, "wall", None
        reason = ("the wall clock reads %.0f s before the journal's latest stamp (no RTC, or "
                  "not yet synchronized)" % (-down / 1e9))
    reason += (": the time the power was off is unknown, so table time moves on %d h and every "
               "deck, dice and card reader inspection interval is treated as run out"
               % (UNKNOWN_NS // (3600 * 10 ** 9)))
    return latest_ns + UNKNOWN_NS, None, None, reason


def apply(ctl, record):
    """The clock record's step: each policy keeping local days learns the wall clock."""
    for policy in ctl.policies:
        on_clock = getattr(policy, "on_clock", None)
        if on_clock is not None:
            on_clock(local_offset_ns(record), known=record.get("by") is not None)


def _usable(last):
    return isinstance(last, dict) and all(type(last.get(k)) is int
                                          for k in ("offset_ns", "wall_ns", "table_ns"))


def local_utc_offset_s(wall_ns):
    """Seconds the local time (the casino's, by the machine's time zone) is ahead of UTC."""
    return time.localtime(wall_ns // 10 ** 9).tm_gmtoff


def start(store, monotonic=time.monotonic_ns, wall=time.time_ns, boot_id=kernel_boot_id,
          utc_offset=local_utc_offset_s):
    """The TableClock for this boot of the journal in `store` (read before any row is added)."""
    last = store.last_record("clock")
    latest_ns = store.latest_ts()
    mono_ns, wall_ns, kernel = monotonic(), wall(), boot_id()
    now, down, how, reason = reading(last, latest_ns, mono_ns, wall_ns, kernel)
    offset = now - mono_ns
    boot = {"boot_id": kernel, "monotonic_ns": mono_ns, "offset_ns": offset, "wall_ns": wall_ns,
            "table_ns": now, "latest_ns": latest_ns, "downtime_ns": down, "by": how,
            "reason": reason, "utc_offset_s": int(utc_offset(wall_ns))}
    return TableClock(monotonic, offset, boot)


def local_offset_ns(record):
    """What to add to a table time for the casino's local wall-clock time, by a clock record
    (its mapping holds until the next boot's record)."""
    return record["wall_ns"] - record["table_ns"] + record.get("utc_offset_s", 0) * 10 ** 9
