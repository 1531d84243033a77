"""What a device may put in an EVENT's fields, checked at the driver boundary.

The codec guarantees strict JSON (drivers/codec.py); this guarantees what a person or the
journal will later read: device text has no control characters or terminal escapes (an
`ESC[2J` in a fault reason must not clear the technician's screen), is short, and every
number is a whole number within a bound, so no later int(), sum or journal write can raise
on it. The catalogue (docs/protocols.md section 10) has no fractional number, so one is a
bad_event wherever it appears. Each driver then checks its own fields' ranges.
"""

import re

MAX_TEXT = 80                 # characters of device text kept (a fault reason, a detail)
MAX_INT = 10 ** 12            # any whole number a device sends: +-10^12
MAX_CENTS = 10 ** 11          # a money amount: $1,000,000,000.00
MAX_CARDS = 10 ** 4           # a card count: far above any shoe's

# C0 and C1 controls, DEL, and a whole ESC/CSI/OSC sequence where one starts
_ESCAPE = re.compile(r"\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|\x1b\[[0-?]*[ -/]*[@-~]?|\x1b.?"
                     r"|[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class FieldError(ValueError):
    """An EVENT field a driver does not take (a bad_event, named)."""


def clean_text(text, limit=MAX_TEXT):
    """Device text as a person may read it: escape sequences and control characters
    removed, at most `limit` characters (an ellipsis marks a cut)."""
    text = _ESCAPE.sub("", str(text))
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def clean_payload(payload):
    """A copy of an EVENT payload with every string cleaned (keys too); FieldError for a
    number that is not whole or beyond MAX_INT."""
    return _clean(payload, "payload")


def _clean(value, where):
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise FieldError("%s: %d is beyond +-10^12" % (where, value))
        return value
    if isinstance(value, float):
        raise FieldError("%s: %r is not a whole number" % (where, value))
    if isinstance(value, list):
        return [_clean(v, where) for v in value]
    if isinstance(value, dict):
        return {clean_text(k): _clean(v, "%s.%s" % (where, clean_text(k)))
                for k, v in value.items()}
    raise FieldError("%s: %r is not JSON" % (where, value))


def whole(payload, name, low=0, high=MAX_INT, optional=False):
    """payload[name] as an int in low..high (booleans are not numbers)."""
    value = payload.get(name)
    if value is None and optional:
        return None
    if type(value) is not int or not low <= value <= high:
        raise FieldError("field %r: %r is not a whole number %d..%d" % (name, value, low, high))
    return value


def flag(payload, name):
    value = payload.get(name)
    if not isinstance(value, bool):
        raise FieldError("field %r: %r is not true or false" % (name, value))
    return value


def text(payload, name, optional=True):
    value = payload.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise FieldError("field %r: %r is not text" % (name, value))
    return value
