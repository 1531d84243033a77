"""The gaming-day report a shift manager exports (CSV), from the pit's figures (pit.py): one
line per table, one per pit, one for the floor, then the notes a reader needs (what handle
leaves out, that the drop is not seen here, the day's start). Amounts are dollars with two
decimals and no sign of currency, so a spreadsheet sums them; times are the casino's local
time. Served by the floor page (`/report.csv?day=YYYY-MM-DD`).
"""

import csv
import io

COLUMNS = ("gaming day", "pit", "table", "game", "handle ($)", "win ($)", "hold %",
           "rounds", "hours open", "rounds per hour", "voids", "lock-outs", "open lock-outs",
           "last lock-out", "pots ($)", "rake ($)", "jackpot drop ($)", "drop")
NO_DROP = "not seen by this system (counted in the count room)"


def amount(cents):
    """Cents as a spreadsheet's dollars: 123456 -> "1234.56", -5 -> "-0.05"."""
    if not isinstance(cents, int):
        return ""
    sign = "-" if cents < 0 else ""
    return "%s%d.%02d" % (sign, abs(cents) // 100, abs(cents) % 100)


def text(value):
    """A text cell as a spreadsheet shows it and never runs it: a table's words (a lock-out's
    reason comes from the table, whose credential may be stolen, issue 31) that begin with
    = + - @ would be a formula; they are quoted."""
    value = "" if value is None else str(value)
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _line(fig, day, pit, table, game, last=""):
    pit, table, game, last = text(pit), text(table), text(game), text(last)
    return [day, pit, table, game, amount(fig.get("handle")), amount(fig.get("win")),
            "" if fig.get("hold_pct") is None else "%.2f" % fig["hold_pct"],
            fig.get("rounds", 0), "%.2f" % (fig.get("hours") or 0),
            "" if fig.get("rounds_per_hour") is None else "%.1f" % fig["rounds_per_hour"],
            fig.get("voids", 0), fig.get("lockouts", 0),
            fig.get("open", len(fig.get("open_lockouts") or ())), last,
            amount(fig.get("pots")), amount(fig.get("rake")), amount(fig.get("jackpot_drop")),
            NO_DROP]


def csv_text(figures, local_iso):
    """The report of `figures` (Pit.figures); `local_iso(wall_ns, utc_offset_s)` says a
    time as people read it (controller/human.py wall_iso)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(COLUMNS)
    day = figures["day"]
    for t in figures["tables"]:
        lo = t.get("last_lockout")
        last = "" if lo is None else "%s %s" % (local_iso(lo["wall_ns"], t.get("utc_offset_s")),
                                                lo.get("reason"))
        w.writerow(_line(t, day, t["pit"], t["table"], t.get("game") or "", last))
    for p in figures["pits"]:
        w.writerow(_line(p, day, p["pit"], "pit total (%d tables)" % p["tables"], ""))
    f = figures["floor"]
    w.writerow(_line(f, day, "", "floor total (%d tables)" % f["tables"], ""))
    w.writerow([])
    w.writerow(["note", "handle is the wagers of settled rounds: a voided round returns every "
                "wager and is not handle"])
    w.writerow(["note", "win is the house's result (the wagers lost less what was paid); a "
                "poker room's win is its rake, its pots are the players' money"])
    w.writerow(["note", "drop is %s" % NO_DROP])
    s = figures.get("day_start_s", 0)
    w.writerow(["note", "the gaming day %s begins at %02d:%02d local time"
                % (day, s // 3600, s % 3600 // 60)])
    return out.getvalue()
