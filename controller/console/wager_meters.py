"""Money meters per wager for the console: handle, paid, hold and rounds, for the gaming day
and since installation, in integer cents (people read them as dollars, view.dollars).

    handle   the amounts wagered in settled rounds (a void round returns every wager: none)
    paid     what the table paid out on winning wagers, beyond the stake returned
    hold     what the table kept: the losing stakes less what it paid (= -sum of the nets)
    rounds   settled rounds in which the wager was placed

The live rounds are observed on the loop's thread (a TableController watcher, cheap, never
blocking); the rounds before this console started are read, once, from the journal file's
snapshots (one is written after every round that ends), on the console's thread, the first
time the meters are shown. Rounds up to the one the table stood at when the console started
are the journal's, later ones the live observer's: no round is counted twice.
"""

import json
import threading
from collections import deque


def new_meter():
    return {"handle": 0, "paid": 0, "hold": 0, "rounds": 0}


def add_late(book, name, entry):
    """A linked progressive's award paid after its round was counted (controller/progressive.py
    late_awards): the round counted its wager lost; the award is paid now."""
    m = book.setdefault(name, new_meter())
    m["paid"] += entry["paid"]
    m["hold"] -= entry["net"]


def add_round(book, wagers, results):
    """Add one settled round's wagers and results to `book` {wager: meter}."""
    seen = set()
    for seat, placed in (wagers or {}).items():
        res = (results or {}).get(seat) or (results or {}).get(str(seat)) or {}
        for wager, amount in (placed or {}).items():
            if not isinstance(amount, int):
                continue
            m = book.setdefault(wager, new_meter())
            m["handle"] += amount
            outcome = res.get(wager)
            net = outcome[1] if isinstance(outcome, (list, tuple)) and len(outcome) > 1 \
                and isinstance(outcome[1], int) else 0
            if net > 0:
                m["paid"] += net
            m["hold"] -= net
            if wager not in seen:
                seen.add(wager)
                m["rounds"] += 1


class WagerMeters:
    """`day_of(ts_ns)` gives a stamp's gaming day; `journal_path` the file whose snapshots
    hold the rounds before now (None: since this controller started)."""

    def __init__(self, ctl, day_of, journal_path=None):
        self.ctl = ctl
        self.day_of = day_of
        self.journal_path = journal_path
        self.start_round = getattr(ctl.model, "round_no", 0) or 0
        self.last = self.start_round
        self.live_total, self.live_days = {}, {}      # {wager: meter}, {day: {wager: meter}}
        self.past_total, self.past_days = {}, {}
        self.seeded = journal_path is None
        # late awards (a linked progressive's award after its round was counted): those the
        # model holds at start are the journal's (seeded), later ones the live observer's
        from controller.progressive import late_awards
        self.start_late = [(name, dict(e)) for name, e in late_awards(ctl.model)]
        self.late_seen = {}
        for name, e in self.start_late:
            self.late_seen[name] = max(self.late_seen.get(name, 0), e["n"])
        self.recent = deque(maxlen=5)      # the last rounds seen ended: round, status, handle, net
        self._seed_lock = threading.Lock()
        watchers = getattr(ctl, "step_watchers", None)
        if watchers is not None:
            watchers.append(self.observe)

    def observe(self, ctl):
        """After each step (loop thread): count a round that has just been settled, once;
        and a late award, once."""
        model = ctl.model
        from controller.progressive import late_since
        late = late_since(model, self.late_seen)
        if late:
            day = self.day_of(ctl.clock())
            for name, e in late:
                add_late(self.live_total, name, e)
                add_late(self.live_days.setdefault(day, {}), name, e)
        n = getattr(model, "round_no", 0) or 0
        if n <= self.last or getattr(model, "status", None) not in ("settled", "void"):
            return
        self.last = n
        self.recent.append(round_line(n, model.status, model.wagers, model.results))
        if model.status != "settled":
            return
        day = self.day_of(ctl.clock())
        add_round(self.live_total, model.wagers, model.results)
        add_round(self.live_days.setdefault(day, {}), model.wagers, model.results)

    def _seed(self):
        with self._seed_lock:
            if self.seeded:
                return
            import types
            from controller.journal.reader import JournalReader
            from controller.progressive import late_awards
            last = 0
            upto = dict(self.late_seen)           # the late awards before this console
            late = {}                             # (name, n) -> (entry, day)
            for row in JournalReader(self.journal_path).iter_records(kinds=("snapshot",)):
                data = row.get("data")
                if isinstance(data, (str, bytes)):
                    data = json.loads(data)
                model = ((data or {}).get("table") or {}).get("model") or {}
                ns = types.SimpleNamespace(meters=model.get("meters"), meter=model.get("meter"))
                for name, e in late_awards(ns):
                    if e["n"] <= upto.get(name, 0):
                        late.setdefault((name, e["n"]), (e, self.day_of(row.get("ts_ns") or 0)))
                n = model.get("round_no") or 0
                if n <= last or n > self.start_round or model.get("status") != "settled":
                    continue
                last = n
                day = self.day_of(row.get("ts_ns") or 0)
                add_round(self.past_total, model.get("wagers"), model.get("results"))
                add_round(self.past_days.setdefault(day, {}), model.get("wagers"),
                          model.get("results"))
            today = self.day_of(self.ctl.clock())
            for name, e in self.start_late:        # paid after the last snapshot
                late.setdefault((name, e["n"]), (e, today))
            for (name, _), (e, day) in sorted(late.items()):
                add_late(self.past_total, name, e)
                add_late(self.past_days.setdefault(day, {}), name, e)
            self.seeded = True

    def read(self):
        """(today's {wager: meter}, since installation {wager: meter}, today's day)."""
        self._seed()
        today = self.day_of(self.ctl.clock())
        return (merge(self.past_days.get(today, {}), self.live_days.get(today, {})),
                merge(self.past_total, self.live_total), today)


def round_line(n, status, wagers, results):
    """{"round", "status", "handle", "net"} of one ended round (net: the players' net)."""
    book = {}
    if status == "settled":
        add_round(book, wagers, results)
    return {"round": n, "status": status, "handle": sum(m["handle"] for m in book.values()),
            "net": -sum(m["hold"] for m in book.values())}


def merge(*books):
    out = {}
    for book in books:
        for wager, m in list(book.items()):
            o = out.setdefault(wager, new_meter())
            for k in o:
                o[k] += m[k]
    return out
