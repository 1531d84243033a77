"""What a person reads: dollars, the casino's local wall-clock time, the gaming day as a date,
repeated lines collapsed, and progress that is a line on a terminal and milestones in a log.

Code and JSON keep integer cents and table time (nanoseconds on the table's own time line,
controller/journal/clock.py); only what is printed for a person goes through here, so every
command says an amount, a time and a gaming day the same way. Stdlib only: callable from the
console, the journal tools and the simulator alike.
"""

import datetime
import sys
import time

NS = 10 ** 9


# ---- money ---------------------------------------------------------------------------------

def dollars(cents, sign=False):
    """Integer cents as dollars: 1250 -> "$12.50", -500 -> "-$5.00" (with `sign`, "+$5.00");
    thousands are separated ("$1,234.00") because a meter is read at a glance."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        return str(cents)
    mark = "-" if cents < 0 else ("+" if sign and cents > 0 else "")
    whole, part = divmod(abs(cents), 100)
    return "%s$%s.%02d" % (mark, format(whole, ","), part)


# ---- time ----------------------------------------------------------------------------------

def zone(utc_offset_s):
    return datetime.timezone(datetime.timedelta(seconds=int(utc_offset_s)))


def wall_iso(wall_ns, utc_offset_s=None):
    """A wall-clock time (ns since the epoch) as ISO 8601 with its offset, to the second:
    "2026-12-01T10:15:02-05:00". Without `utc_offset_s`, this machine's local zone (the
    casino's, on the table's controller)."""
    if utc_offset_s is None:
        utc_offset_s = time.localtime(wall_ns // NS).tm_gmtoff
    t = datetime.datetime.fromtimestamp(wall_ns / NS, zone(utc_offset_s))
    return t.isoformat(timespec="seconds")


def parse_when(text):
    """A time a person types (`--since`, `--until`): ISO 8601, with or without its offset
    (without: this machine's local time), or a date alone (its midnight). -> wall ns.
    ValueError names what is expected."""
    try:
        t = datetime.datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError("%r is not a time such as 2026-12-01T14:30 or 2026-12-01T14:30-05:00"
                         % text)
    if t.tzinfo is None:
        t = t.astimezone()                       # the machine's (the casino's) local zone
    return int(t.timestamp()) * NS + t.microsecond * 1000


class WallClock:
    """Table time -> the casino's local wall clock, by the journal's `clock` records (one per
    boot: its table time maps to its wall time, in its UTC offset). `add(record)` each clock
    record in journal order; `iso(ts_ns)` uses the latest one added."""

    def __init__(self):
        self.record = None

    def add(self, record):
        if isinstance(record, dict) and all(type(record.get(k)) is int
                                            for k in ("wall_ns", "table_ns")):
            self.record = record

    def wall_ns(self, ts_ns):
        if self.record is None or type(ts_ns) is not int:
            return None
        return self.record["wall_ns"] + ts_ns - self.record["table_ns"]

    def offset_s(self):
        return int((self.record or {}).get("utc_offset_s") or 0)

    def iso(self, ts_ns):
        """Local ISO 8601 time of a table time; "table time N s" when no clock record maps
        it (a journal written before clock records)."""
        wall = self.wall_ns(ts_ns)
        if wall is None:
            return table_time(ts_ns)
        return wall_iso(wall, self.offset_s())


def table_time(ts_ns):
    """Table time for a person: seconds on the table's own time line."""
    if type(ts_ns) is not int:
        return "-"
    return "table time %.3f s" % (ts_ns / NS)


def gaming_day(day_number):
    """The gaming day as the date it begins on: day numbers count days since 1970-01-01 in
    local time, shifted by the hour the gaming day starts (controller/units.py
    GAMING_DAY_START, or [controller] gaming_day_start)."""
    if type(day_number) is not int:
        return str(day_number)
    return (datetime.date(1970, 1, 1) + datetime.timedelta(days=day_number)).isoformat()


# ---- lines ---------------------------------------------------------------------------------

def collapsed(lines):
    """Repeated identical lines, adjacent or not, as one line with its count, in the order
    each first appears: ["a", "b", "a"] -> ["a  (x2)", "b"]."""
    counts, order = {}, []
    for line in lines:
        if line not in counts:
            order.append(line)
            counts[line] = 0
        counts[line] += 1
    return [line if counts[line] == 1 else "%s  (x%d)" % (line, counts[line])
            for line in order]


def hand_note(names):
    """The one line that explains `bet#2` names, when any of `names` has one (None if not):
    a wager followed by #N is that wager on the seat's Nth hand, after a split."""
    marked = sorted({n for n in names if isinstance(n, str) and "#" in n})
    if not marked:
        return None
    return ("%s: WAGER#N is the wager on the seat's Nth hand, after a split"
            % ", ".join(marked[:3] + (["..."] if len(marked) > 3 else [])))


def rounds_range(first, last):
    """"rounds 1..12", "round 3", or "no rounds"."""
    if not last or last < first:
        return "no rounds"
    return "round %d" % last if first == last else "rounds %d..%d" % (first, last)


# ---- progress ------------------------------------------------------------------------------

_OPEN = []          # progress lines not ended yet: an error message first ends them


def end_progress_lines():
    """End any progress line still open, so a message that follows is a line of its own
    (controller/cli.py main calls it before printing an error)."""
    for progress in list(_OPEN):
        progress.done()


class Progress:
    """Progress of a long command (sim, journal verify, par --all), written to `stream`.

    On a terminal: one line rewritten in place (carriage return, cleared tail), at most
    every `interval_s`, and ended with a newline by `done()`. On a pipe or into a log file:
    only `milestone()` lines, one each, never carriage returns; `update()` prints nothing.
    """

    def __init__(self, stream=None, interval_s=0.1, clock=time.monotonic, tty=None):
        self.stream = stream or sys.stderr
        self.tty = self._isatty(self.stream) if tty is None else tty
        self.interval_s = interval_s
        self.clock = clock
        self.last = None
        self.width = 0

    @staticmethod
    def _isatty(stream):
        try:
            return stream.isatty()
        except (AttributeError, ValueError):
            return False

    def update(self, text, force=False):
        if not self.tty:
            return
        now = self.clock()
        if not force and self.last is not None and now - self.last < self.interval_s:
            return
        self.last = now
        pad = max(0, self.width - len(text))
        self.width = len(text)
        if self not in _OPEN:
            _OPEN.append(self)
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()

    def milestone(self, text):
        """A line worth keeping in a log (started, finished, a stage done)."""
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.width = 0
        self.stream.write(text + "\n")
        self.stream.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.done()            # an error or Ctrl-C then prints on a line of its own

    def done(self):
        """End the progress line (terminal only)."""
        if self in _OPEN:
            _OPEN.remove(self)
        if self.tty and self.width:
            self.width = 0
            self.stream.write("\n")
            self.stream.flush()
