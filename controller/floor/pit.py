"""The pit's figures: a floor consumer (service.py `register`) that splits each table's money,
rounds and lock-outs by gaming day, for the floor page's pit screen and the gaming-day report.

What it counts, per table and gaming day (money in cents):

    handle      the wagers of settled rounds. A void round returns every wager: it is no
                handle (the table's own money meters, controller/console/wager_meters.py,
                count it so; the page says so)
    win         the house's result: the losing wagers less what was paid (= -the players'
                net), late linked-progressive awards included when they are paid
    hold %      win / handle
    rounds, voids, rounds per hour (rounds over the hours from the table's first row of the
                day to its last)
    lock-outs   every lock-out record, each with its time and reason, and when and by whom it
                was cleared: one cleared within milliseconds is counted and listed still (the
                list of the last two gaming days, 200 a day; every day keeps its count)
    pots, rake, jackpot drop: a game whose players play each other (the poker room, the
                declaration's `house_take`): its win is the rake; it has no handle

The money is not counted twice: it is the fold's own per-wager totals (fold.py, equal to
the table's journal after each round), and each change of them is put on the gaming day of
the row that made it. The drop box is not seen by this system (it is counted in the count
room): the page says so where the drop would be.

The gaming day is the casino's: it starts at `day_start_s` after local midnight (the floor's
option `--gaming-day-start`, 06:00 by default); local time is the table's own clock record
(its wall clock and UTC offset at boot, as `journal show` uses it).
"""

import datetime
import re

NS = 10 ** 9
DAY_START_S = 6 * 3600
# What a table's entry keeps (the whole entry is one bucket value, under NATS's 1 MB payload
# and written again at each flush): two months of gaming days' figures, and the list of
# lock-outs of the last two gaming days (at most 200 a day; older days keep their count)
KEEP_DAYS = 62
KEEP_LISTS = 2
KEEP_LOCKOUTS = 200
MONEY = ("handle", "win", "paid", "pots", "rake", "jackpot_drop")
COUNTS = ("rounds", "voids", "hands")


def parse_day_start(text):
    """"06:00" -> seconds after local midnight; ValueError names what is expected."""
    m = re.fullmatch(r"(\d{1,2}):(\d\d)", (text or "").strip())
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise ValueError("--gaming-day-start %r: a local time HH:MM, e.g. 06:00" % text)
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60


def parse_pits(specs):
    """["MAIN=T01,T02", ...] -> {table: pit}; ValueError names the bad one."""
    out = {}
    for spec in specs or ():
        name, _, tables = spec.partition("=")
        ids = [t.strip() for t in tables.split(",") if t.strip()]
        if not name.strip() or not ids:
            raise ValueError("--pit %r: NAME=TABLE,TABLE,... e.g. MAIN=T01,T02" % spec)
        for t in ids:
            if t in out:
                raise ValueError("--pit: table %s is in two pits (%s, %s)"
                                 % (t, out[t], name.strip()))
            out[t] = name.strip()
    return out


def day_of(wall_ns, utc_offset_s, day_start_s):
    """The gaming day (the date it begins on) of a wall-clock time."""
    t = wall_ns // NS + int(utc_offset_s) - day_start_s
    return (datetime.date(1970, 1, 1) + datetime.timedelta(days=t // 86400)).isoformat()


def new_day():
    d = {k: 0 for k in MONEY + COUNTS}
    d.update(lockouts=0, first_ns=None, last_ns=None, lockout_list=[])
    return d


def totals(s):
    """The fold's running totals of one table (its state `s`), the pit's figures' source."""
    wagers = s.get("wagers") or {}
    meters = s.get("meters") or {}
    room = s.get("room") or {}
    return {"handle": sum(w.get("handle", 0) for w in wagers.values()),
            # the house's result: the banked wagers' (-the players' net) and the rake
            "win": -sum(w.get("net", 0) for w in wagers.values()) + room.get("rake", 0),
            "paid": sum(w.get("paid", 0) for w in wagers.values()),
            "rounds": int(meters.get("rounds", 0)), "voids": int(meters.get("voids", 0)),
            "pots": room.get("pots", 0), "rake": room.get("rake", 0),
            "jackpot_drop": room.get("jackpot_drop", 0), "hands": room.get("hands", 0)}


# the rows after which the fold's totals may have moved
MONEY_ROWS = {("snapshot", "snapshot"), ("event", "link_award")}
LOCKOUT_ROWS = {("record", "lock_out"), ("record", "integrity_lock")}
CLEAR_ROWS = {("event", "clear"), ("record", "selftest")}


class Pit:
    """The consumer. `clock()` is the floor's wall clock in seconds (injected), for a row
    of a table whose journal has no clock record yet, and for the age of a lock-out."""

    name = "pit"

    def __init__(self, service, day_start_s=DAY_START_S, pits=None):
        self.service = service
        self.day_start_s = day_start_s
        self.pits = dict(pits or {})
        self._spans = {}                # table -> (from ns, to ns, UTC offset, its gaming day)

    # ---- the consumer ---------------------------------------------------------------------

    def on_row(self, table, row, view):
        mine = view.slot(self.name)
        key = (row["entry"], row["kind"])
        wall, offset = self.wall(view.s, row["ts_ns"])
        days = mine.setdefault("days", {})
        day = self._day(table, wall, offset)
        d = days.get(day)
        if d is None:
            d = days[day] = new_day()
            for old in sorted(days)[:-KEEP_DAYS]:
                del days[old]
            for old in sorted(days)[:-KEEP_LISTS]:
                if days[old]["lockout_list"]:
                    days[old]["lockout_list"] = []
                    days[old]["list_dropped"] = True
        d["first_ns"] = wall if d["first_ns"] is None else min(d["first_ns"], wall)
        d["last_ns"] = wall if d["last_ns"] is None else max(d["last_ns"], wall)
        if key in MONEY_ROWS:
            now = totals(view.s)
            seen = mine.setdefault("seen", {k: 0 for k in now})
            for k, v in now.items():
                d[k] = d.get(k, 0) + v - seen.get(k, 0)
            mine["seen"] = now
        elif key in LOCKOUT_ROWS:
            data = _data(row)
            d["lockouts"] += 1
            d["lockout_list"] = (d["lockout_list"] + [{
                "seq": row["seq"], "wall_ns": wall, "reason": data.get("reason"),
                "section": data.get("section"), "cleared": None}])[-KEEP_LOCKOUTS:]
        elif key in CLEAR_ROWS:
            self._cleared(mine, view.s, row, wall)

    def _day(self, table, wall, offset):
        """day_of, kept per table for the span of its gaming day (a row's day is a compare,
        not a date computed: the fold's cost per row stays the fold's)."""
        lo, hi, off, day = self._spans.get(table, (0, -1, None, None))
        if off == offset and lo <= wall < hi:
            return day
        day = day_of(wall, offset, self.day_start_s)
        start_s = (wall // NS + offset - self.day_start_s) // 86400 * 86400 \
            + self.day_start_s - offset
        self._spans[table] = (start_s * NS, (start_s + 86400) * NS, offset, day)
        return day

    def _cleared(self, mine, s, row, wall):
        """The fold marked a lock-out cleared: the pit's entry of it gets when and by whom."""
        done = {lo["seq"]: lo["cleared"] for lo in s.get("lockouts") or [] if lo.get("cleared")}
        for d in (mine.get("days") or {}).values():
            for lo in d["lockout_list"]:
                c = done.get(lo["seq"])
                if lo["cleared"] is None and c is not None:
                    lo["cleared"] = {"wall_ns": wall if c.get("seq") == row["seq"] else
                                     self.wall(s, c.get("ts_ns"))[0],
                                     "by": c.get("by"), "role": c.get("role")}

    def wall(self, s, ts_ns):
        """(wall ns, UTC offset s) of a table time, by the table's clock record (the fold
        keeps it: its state `s`)."""
        c = s.get("clock")
        if c is None or type(ts_ns) is not int:
            import time
            now = self.service.clock()
            return int(now * NS), time.localtime(now).tm_gmtoff
        return c["wall_ns"] + ts_ns - c["table_ns"], c["utc_offset_s"]

    # ---- what the page and the report read -----------------------------------------------

    def today(self):
        import time
        now = self.service.clock()
        return day_of(int(now * NS), time.localtime(now).tm_gmtoff, self.day_start_s)

    def days(self):
        out = set()
        for view in self.service.views.values():
            out.update((view.s.get("consumers") or {}).get(self.name, {}).get("days") or {})
        out.add(self.today())
        return sorted(out, reverse=True)

    def pit_of(self, table, game):
        return self.pits.get(table) or (game or "unknown game")

    def figures(self, day=None):
        """{"day", "today", "tables": [...], "pits": [...], "floor": {...}} for the gaming
        day `day` (default: the current one). Money in cents."""
        day = day or self.today()
        now_ns = int(self.service.clock() * NS)
        rows = []
        for table in self.service.tables():
            summary = self.service.summary(table)
            view = self.service.views.get(table)
            mine = (view.s.get("consumers") or {}).get(self.name, {}) if view else {}
            d = dict((mine.get("days") or {}).get(day) or new_day())
            lockouts = d.pop("lockout_list")
            d["lockouts_listed"] = not d.pop("list_dropped", False) and \
                len(lockouts) == d["lockouts"]
            row = {"table": table, "game": summary.get("game"),
                   "pit": self.pit_of(table, summary.get("game")),
                   "player_banked": bool(view and view.s.get("house_take")),
                   "lockout_list": lockouts,
                   "last_lockout": lockouts[-1] if lockouts else None,
                   "open_lockouts": _open(summary, lockouts, now_ns, day == self.today()),
                   "devices": devices_of(summary),
                   "links": links_of(summary, self.service),
                   "reachable": summary["link"]["reachable"],
                   "utc_offset_s": (summary.get("clock") or {}).get("utc_offset_s")}
            row.update(d)
            rows.append(_rates(row))
        pits = {}
        for r in rows:
            pits.setdefault(r["pit"], []).append(r)
        return {"day": day, "today": self.today(), "day_start_s": self.day_start_s,
                "tables": rows,
                "pits": [_rates(dict(_sum(members), pit=name, tables=len(members)))
                         for name, members in sorted(pits.items())],
                "floor": _rates(dict(_sum(rows), tables=len(rows))),
                "drop": None}


def _data(row):
    from controller.floor.fold import _parse
    data = _parse(row)
    return data if isinstance(data, dict) else {}


def _sum(rows):
    out = {k: sum(r.get(k) or 0 for r in rows) for k in MONEY + COUNTS + ("lockouts",)}
    out["hours"] = sum(r.get("hours") or 0 for r in rows)
    out["open"] = sum(len(r.get("open_lockouts") or ()) for r in rows)
    return out


def _rates(r):
    """hold % (the banked games' win over their handle: a poker room's rake is win
    without handle) and rounds per hour."""
    if "hours" not in r:
        span = (r["last_ns"] - r["first_ns"]) if r.get("first_ns") is not None else 0
        r["hours"] = span / (3600.0 * NS)
    r["hold_pct"] = round(100.0 * (r["win"] - r.get("rake", 0)) / r["handle"], 2) \
        if r.get("handle") else None
    r["rounds_per_hour"] = round(r["rounds"] / r["hours"], 1) if r.get("hours") else None
    return r


def _open(summary, lockouts, now_ns, today):
    """The lock-outs open now, with their age in seconds: the table's live status says
    whether it is locked out; the pit's list when it began."""
    if not today:
        return []
    live = (summary.get("live") or {}).get("lockout")
    open_ = [lo for lo in lockouts if lo["cleared"] is None]
    if live is None and summary.get("state") != "locked_out":
        return []
    if not open_:
        return [{"reason": (live or {}).get("reason"), "since_ns": None, "age_s": None}]
    lo = open_[-1]
    return [{"reason": (live or {}).get("reason") or lo["reason"], "since_ns": lo["wall_ns"],
             "seq": lo["seq"], "age_s": max(0, (now_ns - lo["wall_ns"]) // NS)}]


def devices_of(summary):
    """{device: "ok" | "FAULT: reason"}: every device the table reports in its status, and
    the faults its journal shows."""
    out = {}
    for name, state in sorted(((summary.get("reported") or {}).get("devices") or {}).items()):
        out[name] = "ok" if state in ("ok", "ready", "idle", "connected") else str(state)
    for name, dev in sorted((summary.get("devices") or {}).items()):
        if not dev.get("ok"):
            out[name] = "FAULT: %s" % dev.get("reason")
    return out


def links_of(summary, service):
    """The linked progressives the table is on, as the table sees each (its status) and as
    the link's controller publishes it, with how many of its jackpots wait for a supervisor
    (locked: the link's meter is reset at every table meanwhile)."""
    out = []
    seen = ((summary.get("reported") or {}).get("progressive_links") or {})
    for link_id in sorted(set(seen) | {m.get("link") for m in service.links()
                                       if summary["table"] in (m.get("tables") or [])}):
        meter = service.link_meters.get(link_id) or {}
        mine = seen.get(link_id)
        out.append({"link": link_id, "value": meter.get("value"),
                    "operable": meter.get("operable"),
                    "pending": len(meter.get("pending") or []),
                    "table_sees": None if mine is None else
                    ("up" if mine.get("up") and mine.get("synced") else "down")})
    return out
