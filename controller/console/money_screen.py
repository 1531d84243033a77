"""The console's money and inspection screen: the money meters per wager for the gaming day
and since installation, in dollars (`meters`), the card reader's daily inspection, the decks
opened and how long the deck and dice have been in play (`inspections`, and `inspections
reader pass|fail`), and the gaming day they count from ([controller] gaming_day_start).

One of the screens console/commands.py was split into (issue 32).
"""

import time

from controller.console import view
from controller.console.table_screen import _two_columns
from controller.console.tree import Screen
from controller.console.wager_meters import meter_text
from controller.errors import ConsoleError
from controller.progressive import cents, progressives

_PENDING = object()          # _await: neither applied nor refused within apply_timeout_s


class MoneyScreen(Screen):
    """meters, inspections (reader pass|fail); the gaming day."""

    # What this screen shows of the policies it asks the controller for by name
    # (`ctl.offered`, Policy.offers): it imports no policy (issue 32; .importlinter keeps it).

    def day_start_ns(self):
        """When the gaming day begins (ns past local midnight): the table's configuration's
        ([controller] gaming_day_start, which the runtime hands the controller and the card
        reader's policy, which offers its "gaming_day"), else the default (controller/units.py)."""
        from controller.units import day_start_ns
        day = self.ctl.offered("gaming_day")
        if day is not None:
            return day["start_ns"]
        start = getattr(self.ctl, "day_start_ns", None)
        return day_start_ns() if not isinstance(start, int) else start

    def gaming_day(self, ts_ns):
        """The gaming day of a stamp: the day a policy counts where one offers it (the card
        reader's, once its clock maps table time to local time), else a day from the
        configured start, casino local time."""
        from controller.units import gaming_day_of
        day = self.ctl.offered("gaming_day")
        if day is not None and day["local_offset_ns"]:
            return gaming_day_of(ts_ns, day["local_offset_ns"], day["start_ns"])
        return gaming_day_of(ts_ns, view.local_offset_ns(self.ctl), self.day_start_ns())

    def day_text(self, day):
        from controller.human import gaming_day
        return gaming_day(int(day))

    def c_meters(self, role, args):
        model = self.ctl.model
        today, total, day = self.meters_book.read()
        start = self.day_start_ns()
        lines = ["money meters per wager (a gaming day begins %02d:%02d local time):"
                 % (start // (3600 * 10 ** 9), start // (60 * 10 ** 9) % 60)]
        since = "since installation" if self.meters_book.journal_path else \
            "since this controller started (no journal file)"
        for title, book in (("gaming day %s" % self.day_text(day), today), (since, total)):
            lines.append("  %s" % title)
            if not book:
                lines.append("    no settled rounds")
            for wager, m in sorted(book.items()):
                lines.append("    " + meter_text(wager, m, hold_share=True))
        rows = [("round number", getattr(model, "round_no", "-"))]
        kept = getattr(self.ctl, "meters", None)          # the journal's regulation meters
        if isinstance(kept, dict):
            rows += [(k, v) for k, v in sorted(kept.items())
                     if not str(k).startswith("progressive.")]
        rows += [("lock-outs", self.ctl.stats["lockouts"]),
                 ("events", self.ctl.stats["events"]), ("refused", self.ctl.stats["refused"])]
        meters = progressives(model)
        for name, m in sorted(meters.items()):
            num, den = (m.get("rate") or [0, 1])
            rows.append((name, "value %s  reset %s  rate %s/%s  hits %s  paid %s  "
                         "contributed %s  wagers %s"
                         % (cents(m.get("value")), cents(m.get("reset")), num, den,
                            m.get("hits"), cents(m.get("paid")),
                            cents(m.get("contributed")), m.get("wagers"))))
            lk = m.get("link") if isinstance(m.get("link"), dict) else None
            if lk is not None:                    # a linked meter: the link's (issue 14)
                from controller.progressive import link_up
                pending = sorted(lk.get("hits") or {})
                rows.append(("%s link" % name, "%s %s  meter %s (the link's)  pending hits %s"
                             % (lk.get("id"), "up" if link_up(m) else "DOWN",
                                cents(m.get("value")),
                                ", ".join("round %s seat %s PENDING" % tuple(k.split(":"))
                                          for k in pending) or "none")))
        if not meters:
            rows.append(("progressive", "none at this table"))
        return "\n".join(lines) + "\n" + _two_columns(rows)

    def c_inspections(self, role, args):
        return "\n".join(self._inspection_lines(self.ctl.offered("reader_inspection")))

    def c_reader_pass(self, role, args):
        return self._reader(role, True)

    def c_reader_fail(self, role, args):
        return self._reader(role, False)

    def _reader(self, role, passed):
        if self.ctl.offered("reader_inspection") is None:
            raise ConsoleError("this table has no card reader inspection (%s)"
                               % self.ctl.model.GAME)
        return self._record_inspection(role, passed)

    def _record_inspection(self, role, passed):
        ctl = self.ctl
        before = ctl.offered("reader_inspection")["count"]
        event = ctl.event("irregularity", {"kind": "reader_inspected", "role": role,
                                           "passed": passed}, source="console")
        ctl.submit(event)
        outcome = self._await(event, lambda: ctl.offered("reader_inspection")["count"] > before)
        if outcome is _PENDING:
            return "inspection submitted; the controller has not applied it yet"
        if outcome is not None:
            raise ConsoleError("the controller refused the inspection: %s" % outcome)
        if passed:
            return "card reader inspection recorded: passed, by %s" % role
        return ("card reader inspection recorded: FAILED, by %s; the table is locked out until "
                "the reader is repaired or replaced and a floorperson clears it" % role)

    def _inspection_lines(self, reader):
        from controller.units import HOUR_NS
        ctl, now = self.ctl, self.ctl.clock()
        lines = []
        if reader is None:
            lines.append("card reader: no daily inspection at this table")
        else:
            lines.append("card reader: %s this gaming day (%s)"
                         % ("inspected and passed" if reader["inspected_today"] else
                            "INSPECTION DUE", reader["section"]))
            for i in reader["recent"]:
                # the gaming day as its date, the time in local time (not table seconds)
                lines.append("  day %s  %s  by %s  at %s" % (
                    self.day_text(i["day"]), "passed" if i["passed"] else "FAILED", i["role"],
                    self.when(i["ts_ns"])))
        opened = [e for e in view.entries(self.journal, kinds=("open_table", "new_deck"))
                  if e.type == "event"]
        lines.append("decks opened: %d" % len(opened))
        for e in opened[-5:]:
            lines.append("  %s at %s%s" % (e.kind, self.when(e.ts_ns), "  decks=%s" % e.data[
                "decks"] if "decks" in e.data else ""))
        intervals = ctl.offered("intervals")
        placed = dict(intervals["placed"]) if intervals else {}
        if getattr(ctl.model, "dice_placed_ns", None):
            placed.setdefault("dice", ctl.model.dice_placed_ns)
        for interval in ctl.model.DECLARES.intervals:     # the game's declared intervals
            what, got = interval.what, interval.limit(ctl.model)
            if what not in placed:
                lines.append("%s: not on the table yet" % ("dice" if what == "dice" else "deck"))
                continue
            age_h = (now - placed[what]) / HOUR_NS
            label = "dice placed" if what == "dice" else "deck in play"
            lines.append("%s: %.1f h ago%s" % (label, age_h, "" if got is None else
                                              ", to be changed within %d h (%s)" % got))
        return lines

    def _await(self, event, done):
        """None once `done()`, the refusal's reason if the controller refused `event`,
        _PENDING if neither within apply_timeout_s (real time: the loop is a thread)."""
        end = time.monotonic() + self.apply_timeout_s
        while True:
            for ev, reason in list(self.ctl.refusals[-50:]):
                if ev is event:
                    return reason
            if done():
                return None
            if time.monotonic() >= end:
                return _PENDING
            time.sleep(0.002)

