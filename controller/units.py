"""Units of the bottom layer (with controller/events.py and controller/errors.py): money shown
as people read it, and the table's time spans. Drivers, policies and the journal share these
instead of taking them from one another."""

SECOND_NS = 10 ** 9
HOUR_NS = 3600 * SECOND_NS
DAY_NS = 24 * HOUR_NS


def cents(n):
    """1234567 -> '$12,345.67', as the console and the meter display show an amount."""
    if not isinstance(n, int):
        return str(n)
    sign = "-" if n < 0 else ""
    return "%s$%s.%02d" % (sign, format(abs(n) // 100, ","), abs(n) % 100)
