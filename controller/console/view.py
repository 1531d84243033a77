"""What the console may show: card identities removed, journal entries in one shape.

The console never shows a card. Structured fields that hold cards are replaced by
"[hidden]" and any card code left in free text (a refusal's reason, a lock-out's
reason) by "[card]", so neither a hole card nor an undealt card can reach the screen,
and a search of the journal matches only what would be shown (it cannot confirm a card
by finding it). Rounds are reconstructed with `tablectl journal show`, not here.

Journals. `entries(journal)` reads any of:
  - the controller's MemoryJournal (a list of Events and Records), or any iterable of them;
  - the journal file (controller/journal/reader.py JournalReader), which selects by kind and
    reads a tail itself;
  - an object with `iter_records()` yielding, in journal order, Events, Records, dicts
    {"kind" | "record", "data", "ts_ns", "source"?, "seq"?, "entry"?} or (seq, one of
    those) pairs. `data` may be JSON text; "entry" ("event", "record", "snapshot", ...)
    gives the row's type, and the data of anything but an event or a record (a snapshot
    holds the whole table, the shoe too) is never shown. The SQLite journal's rows
    (controller/journal/store.py `Store.rows()`) are such dicts.
Each becomes an Entry(seq, ts_ns, type, kind, source, data), seq counting from 1 when the
journal gives none.
"""

import json
import re
import textwrap
from collections import deque, namedtuple
from functools import lru_cache

from controller.games.events import Event
from controller.table import Record

WIDTH = 80                   # a serial terminal's columns: what every screen fits unless told
HIDDEN = "[hidden]"
CARD = "[card]"
# fields that name cards anywhere in events, records, device status or the model
CARD_FIELDS = frozenset(("card", "cards", "stack", "hole", "hole_card", "hole_cards", "hand",
                         "hands", "upcard", "up_card", "dealer", "dealer_cards", "player_cards",
                         "shoe", "deck", "board", "community", "flop", "turn", "river", "burn",
                         "reading", "misread", "stub", "cards_dealt", "peek",
                         "frame"))             # a rejected frame's bytes may carry a card
# A card code in free text: 10 or a rank 2-9TJQKA then a suit, or JK, with no letter, digit,
# "_" or "-" before it and no letter, digit or "_" after it. Written to begin with the class
# of a code's first character, each condition after it (the one before it looked at from
# one character on), so the engine skips to where a code can begin: the alternation of the
# codes with the look-behind ahead of them, (?<![A-Za-z0-9_\-])(?:10|[2-9TJQKA])[shdc]
# (?![A-Za-z0-9_])|(?<![A-Za-z0-9_\-])JK(?![A-Za-z0-9_]), which finds the same codes
# (tests/console/test_view_caches.py compares them), scrubbed four times slower (every line
# the console draws is scrubbed, after every card of a soak, issue 33).
CARD_TEXT = re.compile(r"[1-9TJQKA](?<![A-Za-z0-9_\-].)"
                       r"(?:(?<=1)0[shdc]|(?<=[2-9TJQKA])[shdc]|(?<=J)K)(?![A-Za-z0-9_])")

Entry = namedtuple("Entry", "seq ts_ns type kind source data")
# the fields of journal entries that hold money (integer cents), shown in dollars at the console
MONEY_FIELDS = frozenset(("amount", "award", "paid", "payout", "handle", "net", "meter",
                          "reset", "contributed", "cents", "wagered", "won"))


def scrub(text):
    """Free text with every card code replaced by [card]."""
    return CARD_TEXT.sub(CARD, text)


def redact(value):
    """A copy of a JSON-like value with card fields hidden and card codes scrubbed."""
    if isinstance(value, dict):
        return {str(k): HIDDEN if str(k).lower() in CARD_FIELDS else redact(v)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact(v) for v in value]
    if isinstance(value, str):
        return scrub(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return scrub(repr(value))


def _entry(seq, item):
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], int):
        seq, item = item
    if isinstance(item, Event):
        return Entry(seq, item.ts_ns, "event", item.kind, item.source, item.data)
    if isinstance(item, Record):
        return Entry(seq, item.ts_ns, "record", item.kind, None, item.data)
    if isinstance(item, dict):
        data = item.get("data") or {}
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except ValueError:
                data = {"value": data}
        kind = item.get("record") if "record" in item else item.get("kind")
        typ = str(item.get("entry") or ("record" if "record" in item else "event"))
        if typ not in ("event", "record"):
            data = {}                      # a snapshot holds the whole table: never shown
        return Entry(item.get("seq", seq), item.get("ts_ns"), typ, kind, item.get("source"),
                     data)
    return Entry(seq, getattr(item, "ts_ns", None), "other", type(item).__name__, None, {})


def entries(journal, kinds=None, last=None):
    """The journal's entries in order as Entry tuples (see the module docstring): only those
    of `kinds` if given, only the last `last` if given. A journal with `filters` (the journal
    file, controller/journal/reader.py) selects them itself, without reading the rest."""
    if journal is None:
        return
    if getattr(journal, "filters", False):
        for n, item in enumerate(journal.iter_records(kinds=kinds, last=last), 1):
            yield _entry(n, item)
        return
    source = journal.iter_records() if hasattr(journal, "iter_records") else list(journal)
    picked = (entry for entry in (_entry(n, item) for n, item in enumerate(source, 1))
              if kinds is None or entry.kind in kinds)
    if last is not None:
        picked = deque(picked, maxlen=last)
    yield from picked


def seconds(ts_ns):
    return "-" if ts_ns is None else "%.3f" % (ts_ns / 1e9)


def flat(value, prefix=""):
    """key=value pairs of a nested JSON-like value, dotted keys."""
    if isinstance(value, dict) and value:
        out = []
        for k in sorted(value, key=str):
            out.extend(flat(value[k], "%s%s" % (prefix + "." if prefix else "", k)))
        return out
    if isinstance(value, (list, tuple)):
        return [(prefix, _atom(value))]
    return [(prefix, _atom(value))]


def humane(pairs, when):
    """flat()'s (key, value) pairs as a person reads them: a table-time stamp (a key ending
    in `ts_ns` or `_ns`, an int) becomes its time, `when(ts_ns)` (the casino's local time),
    under the key without its unit (`last_fault.ts_ns` -> `last_fault.at`)."""
    out = []
    for key, value in pairs:
        if (key.endswith("_ns") or key == "ts_ns") and str(value).lstrip("-").isdigit():
            key = key[:-len("ts_ns")] + "at" if key.endswith("ts_ns") else key[:-len("_ns")]
            value = when(int(value))
        out.append((key, value))
    return out


def _atom(v):
    if isinstance(v, (dict, list, tuple)) and not v:
        return "none"                      # a person reads "none", not {} or []
    if isinstance(v, dict):
        return "{" + ", ".join("%s=%s" % (k, _atom(x)) for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_atom(x) for x in v) + "]"
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def render(entry, when=None):
    """One line for an entry, already redacted; `when(ts_ns)` gives its time as a person
    reads it (the console: casino local time), else the table clock's seconds."""
    data = redact(entry.data if isinstance(entry.data, dict) else {"value": entry.data})
    if when is not None:             # a person reads it: money in dollars, stamps in local time
        data = {k: dollars(v) if k in MONEY_FIELDS and type(v) is int else
                when(v) if (k == "ts_ns" or k.endswith("_ns")) and type(v) is int else v
                for k, v in data.items()}
    detail = " ".join("%s=%s" % (k, _atom(v)) for k, v in data.items())
    tag = entry.kind if entry.type == "event" else "%s:%s" % (entry.type, entry.kind)
    src = " (%s)" % entry.source if entry.source else ""
    stamp = seconds(entry.ts_ns) if when is None or entry.ts_ns is None else when(entry.ts_ns)
    return scrub("#%-6s %12s  %s%s  %s" % (entry.seq, stamp, tag, src, detail)).rstrip()




# ---- what a person reads: no terminal control from a device, the casino's wall clock ----

def printable(text):
    """Text a terminal shows as text: a device's reason holding ESC[2J, ESC]0;x BEL or any
    other control or 8-bit byte cannot clear the screen, retitle the window or ring the bell.
    ESC becomes "^[", any other control or non-ASCII character "?"; newlines are kept.
    (A table and a regular expression, not a loop over the characters: the live screen is
    drawn from it after every card of a soak, issue 33.)"""
    return _NOT_ASCII.sub("?", str(text)).translate(_CONTROLS)


# every ASCII control but the newline, and DEL, as printable() shows it; past ASCII "?"
_CONTROLS = {o: "?" for o in range(0x20) if o != 0x0A}
_CONTROLS.update({0x7F: "?", 0x09: " ", 0x1B: "^["})
_NOT_ASCII = re.compile(r"[^\x00-\x7f]")


def wall_ns(ctl, ts_ns):
    """The wall-clock time of a table-time stamp: by this boot's clock record (journal/clock.py)
    when the controller keeps one, else by the wall clock now less the stamp's age."""
    import time
    boot = getattr(getattr(ctl, "clock", None), "boot", None) or {}
    if isinstance(boot.get("wall_ns"), int) and isinstance(boot.get("table_ns"), int):
        return ts_ns - boot["table_ns"] + boot["wall_ns"]
    return time.time_ns() - (ctl.clock() - ts_ns)


def local_time(ctl, ts_ns):
    """ISO 8601 in the casino's local time (the machine's time zone), with its offset."""
    import time
    if not isinstance(ts_ns, int):
        return "-"
    return _local_iso(wall_ns(ctl, ts_ns), time.tzname, time.timezone, time.altzone)


@lru_cache(maxsize=256)
def _local_iso(wall, *zone):
    """local_time()'s text of a wall-clock stamp in the time zone `zone` names (what
    time.tzset() changes): the live screen says the same lock-outs' times at every refresh
    (after every card of a soak, issue 33)."""
    import datetime
    return datetime.datetime.fromtimestamp(wall / 1e9).astimezone().isoformat(
        timespec="seconds")


def local_offset_ns(ctl):
    """What to add to a table time for the casino's local wall-clock time now."""
    import time
    now = ctl.clock()
    wall = wall_ns(ctl, now)
    return wall - now + time.localtime(wall // 10 ** 9).tm_gmtoff * 10 ** 9


def dollars(cents):
    """1250 -> '$12.50'; -1250 -> '-$12.50' (money is integer cents; people read dollars)."""
    if not isinstance(cents, int) or isinstance(cents, bool):
        return "-"
    sign = "-" if cents < 0 else ""
    return "%s$%s.%02d" % (sign, format(abs(cents) // 100, ","), abs(cents) % 100)


def fit(text, width):
    """Text whose every line is at most `width` columns (a serial terminal's 80): a longer
    line is folded between words, its next lines indented under its value (the column after
    the first run of two spaces, as in `status`'s two columns) or four columns in; a word
    longer than the width is cut, as nothing else fits."""
    out = []
    for line in str(text).split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        out.extend(_fold(line, width))
    return "\n".join(out)


FOLDED_KEPT = 1024


@lru_cache(maxsize=FOLDED_KEPT)
def _fold(line, width):
    """fit()'s lines for one line longer than `width`, as a tuple; kept by (line, width),
    the latest FOLDED_KEPT: a fold depends on nothing else, and the live screen folds the same
    lock-out lines at every refresh (after every card of a soak, issue 33: textwrap was a
    tenth of drawing it)."""
    m = re.match(r"\s*\S+(?: \S+)*\s{2,}", line)
    lead = len(line) - len(line.lstrip(" "))
    # a line already indented (a value's own next line) goes on under its own text
    indent = len(m.group(0)) if m and len(m.group(0)) <= width // 2 else min(
        lead if lead else 4, width // 2)
    if max(len(w) for w in line.split()) > width - indent:
        indent = min(lead + 2, width // 2)  # a hash or a path whole on a line of its own
    return tuple(textwrap.wrap(line, width, subsequent_indent=" " * indent,
                               break_on_hyphens=False) or [""])
