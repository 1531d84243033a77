"""Units of the bottom layer (with controller/events.py and controller/errors.py): money shown
as people read it, and the table's time spans. Drivers, policies and the journal share these
instead of taking them from one another."""

SECOND_NS = 10 ** 9
HOUR_NS = 3600 * SECOND_NS
DAY_NS = 24 * HOUR_NS
# When the casino's gaming day begins, local time, where the table's configuration names
# no other ([controller] gaming_day_start, controller/config.py): the one place it is said.
GAMING_DAY_START = "06:00"


def day_start_ns(text=GAMING_DAY_START):
    """"HH:MM" (00:00 to 23:59, two digits each) -> ns past local midnight; ValueError naming
    the form for anything else (a strict getter: "6:00", "06:00:00", "24:00" are refused)."""
    if not isinstance(text, str) or len(text) != 5 or text[2] != ":" or \
            not (text[:2] + text[3:]).isdigit():
        raise ValueError("%r is not a time of day as HH:MM (e.g. %s)" % (text, GAMING_DAY_START))
    hours, minutes = int(text[:2]), int(text[3:])
    if hours > 23 or minutes > 59:
        raise ValueError("%r is not a time of day (00:00 to 23:59)" % text)
    return hours * HOUR_NS + minutes * 60 * SECOND_NS


def gaming_day_of(ts_ns, local_offset_ns, start_ns):
    """The gaming day (a day number) of a table stamp: table time + `local_offset_ns` is the
    casino's local time, and a day begins `start_ns` past local midnight. The one count the
    reader's inspection, the console's meters and `tablectl top` share."""
    return (ts_ns + local_offset_ns - start_ns) // DAY_NS


def cents(n):
    """1234567 -> '$12,345.67', as the console and the meter display show an amount."""
    if not isinstance(n, int):
        return str(n)
    sign = "-" if n < 0 else ""
    return "%s$%s.%02d" % (sign, format(abs(n) // 100, ","), abs(n) % 100)
