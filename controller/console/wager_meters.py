"""Money meters per wager for the console: handle, paid, hold and rounds, for the gaming day
and since installation, in integer cents (people read them as dollars, view.dollars).

    handle   the amounts wagered in settled rounds (a void round returns every wager: none)
    paid     what the table paid out on winning wagers, beyond the stake returned
    hold     what the table kept: the losing stakes less what it paid (= -sum of the nets)
    rounds   settled rounds in which the wager was placed

A poker room's players play each other (the game declares `house_take`): their stacks are
no wagers against the house, so its hands are counted as the floor counts them
(controller/floor/fold.py), one meter under ROOM: hands, pots, rake and jackpot drop.

The live rounds are observed on the loop's thread (a TableController watcher, cheap, never
blocking); the rounds before this console started are read, once, from the journal file's
snapshots (one is written after every round that ends), on the console's thread, the first
time the meters are shown. Rounds up to the one the table stood at when the console started
are the journal's, later ones the live observer's: no round is counted twice.

Reading every snapshot since installation at each start grows with the journal: on a year's
journal (tablectl soak, issue 33: about 500,000 rounds) the first screen after a boot took
some 30 s of CPU here, minutes on a Pi. So what the reading found is kept beside the journal,
`PATH.wager-meters` (a checkpoint: the books up to the snapshot row `seq`, with that row's
hash, the last round counted and the late awards seen), and the next start reads only the
snapshots after it. It is checked against what the journal shows before it is used: row
`seq` must be in the journal with that hash (a rewritten or rolled-back journal, another
journal's file: read from the start), and on a keyed journal its HMAC under the journal key
(keys.py), so a file edited without the key (a leaked config or a shell on the table) cannot
change a meter; it is read from the start then. It is only ever a shortcut: a missing,
damaged or refused checkpoint costs the full read, never a count. Written whole (a temporary
file renamed over it), not synced: a power cut that loses it loses the shortcut.
"""

import hashlib
import hmac
import json
import os
import threading
from collections import deque

CHECKPOINT_FORMAT = 1


def checkpoint_path(journal_path):
    return str(journal_path) + ".wager-meters"


def _checkpoint_mac(key, doc):
    from controller.journal.chain import canonical
    body = canonical({k: v for k, v in doc.items() if k != "mac"})
    return hmac.new(key, b"tablectl wager meters\0" + body, hashlib.sha256).hexdigest()


def new_meter():
    return {"handle": 0, "paid": 0, "hold": 0, "rounds": 0}


def add_late(book, name, entry):
    """A linked progressive's award paid after its round was counted (controller/progressive.py
    late_awards): the round counted its wager lost; the award is paid now."""
    m = book.setdefault(name, new_meter())
    m["paid"] += entry["paid"]
    m["hold"] -= entry["net"]


ROOM = "poker room"          # a poker room's one meter: its hands, pots and the house's take


def house_take(game):
    """The game's declared count of a hand's pots and take ("module:function" loaded), or
    None: a game whose players wager against the house (controller/games/declarations)."""
    if not game:
        return None
    from controller.games import declaration
    from controller.games.declarations import load
    try:
        take = declaration(game).house_take
    except Exception:                       # noqa: BLE001 - a game this version lacks
        return None
    return load(take) if take else None


def add_ended(book, model, take):
    """Add one settled round to `book` from its model's data (a snapshot's "model"): a
    poker room's hand (`take`, house_take(game)) to its ROOM meter, else its wagers."""
    if take is None:
        add_round(book, model.get("wagers"), model.get("results"))
        return
    room = book.setdefault(ROOM, {"hands": 0, "pots": 0, "rake": 0, "jackpot_drop": 0})
    room["hands"] += 1
    for k, v in take(model).items():
        room[k] = room.get(k, 0) + v


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

    def __init__(self, ctl, day_of, journal_path=None, key=None):
        self.ctl = ctl
        self.day_of = day_of
        self.journal_path = journal_path
        self.key = key                     # the journal key, for the checkpoint's HMAC
        self.read_from = None              # the row the last seeding read after (tests)
        self.start_round = getattr(ctl.model, "round_no", 0) or 0
        self.last = self.start_round
        # the round the table stood at, if it was settled: its snapshot is committed with the
        # next input or a second later (journal/live.py), so a console started in between
        # found it neither in the journal nor live (a session begun right after a round)
        model = ctl.model
        self.take = house_take(getattr(model, "GAME", None))
        self.start_settled = None
        if getattr(model, "status", None) == "settled" and self.start_round and journal_path:
            data = model.to_json() if self.take else {"wagers": model.wagers,
                                                      "results": model.results}
            self.start_settled = (json.loads(json.dumps(data)), self.day_of(ctl.clock()))
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
        data = model.to_json() if self.take else {"wagers": model.wagers,
                                                   "results": model.results}
        self.recent.append(round_line(n, model.status, data, self.take))
        if model.status != "settled":
            return
        day = self.day_of(ctl.clock())
        add_ended(self.live_total, data, self.take)
        add_ended(self.live_days.setdefault(day, {}), data, self.take)

    def _seed(self):
        if self.seeded:                  # set last, under the lock, once the books are read
            return
        with self._seed_lock:
            if self.seeded:
                return
            import types
            from controller.journal.formats import open_journal
            from controller.progressive import late_awards
            upto = dict(self.late_seen)           # the late awards before this console
            store = open_journal(self.journal_path, readonly=True)
            try:
                found = store.snapshots(before_round=self.start_round + 1)
                last_counted = found[0] if found else 0     # rows after it count no round
                kept = self._checkpoint(store, last_counted)
                seq, last = kept["seq"], kept["last"]
                late = {(name, n): (e, day) for name, n, e, day in kept["late"]}
                total, days = kept["total"], kept["days"]
                self.read_from = seq
                mark = None                      # the checkpoint at row last_counted
                for row in store.select(kinds=("snapshot",), after=seq):
                    if mark is None and row["seq"] > last_counted:
                        mark = self._mark(store, seq, last, total, days, late)
                    seq = row["seq"]
                    data = row.get("data")
                    if isinstance(data, (str, bytes)):
                        data = json.loads(data)
                    model = ((data or {}).get("table") or {}).get("model") or {}
                    ns = types.SimpleNamespace(meters=model.get("meters"),
                                               meter=model.get("meter"))
                    for name, e in late_awards(ns):
                        if e["n"] <= upto.get(name, 0):
                            late.setdefault((name, e["n"]),
                                            (e, self.day_of(row.get("ts_ns") or 0)))
                    n = model.get("round_no") or 0
                    if n <= last or n > self.start_round or model.get("status") != "settled":
                        continue
                    last = n
                    day = self.day_of(row.get("ts_ns") or 0)
                    add_ended(total, model, self.take)
                    add_ended(days.setdefault(day, {}), model, self.take)
                if mark is None:
                    mark = self._mark(store, seq, last, total, days, late)
            finally:
                store.close()
            if mark is not None and mark["seq"] > self.read_from:
                self._write_checkpoint(mark)
            if last < self.start_round and self.start_settled is not None:
                data, day = self.start_settled      # not in the journal yet: the model's
                add_ended(total, data, self.take)
                add_ended(days.setdefault(day, {}), data, self.take)
            self.past_total, self.past_days = total, days
            today = self.day_of(self.ctl.clock())
            for name, e in self.start_late:        # paid after the last snapshot
                late.setdefault((name, e["n"]), (e, today))
            for (name, _), (e, day) in sorted(late.items()):
                add_late(self.past_total, name, e)
                add_late(self.past_days.setdefault(day, {}), name, e)
            self.seeded = True

    # ---- the checkpoint (see the module docstring) -------------------------------------------

    def _empty(self):
        return {"seq": 0, "last": 0, "total": {}, "days": {}, "late": []}

    def _checkpoint(self, store, limit):
        """The checkpoint's books if the journal bears it out, else empty ones (row 0)."""
        try:
            with open(checkpoint_path(self.journal_path), encoding="utf-8") as f:
                doc = json.load(f)
            seq = doc["seq"]
            ok = (doc.get("format") == CHECKPOINT_FORMAT and type(seq) is int
                  and 0 < seq <= limit and store.hash_at(seq) == doc["hash"]
                  and doc.get("key_id") == getattr(store, "key_id", None)
                  and (self.key is None) == (doc.get("mac") is None)
                  and (self.key is None or hmac.compare_digest(
                      str(doc["mac"]), _checkpoint_mac(self.key, doc)))
                  and doc.get("take") == bool(self.take))
            if not ok:
                return self._empty()
            last, total, days, late = doc["last"], doc["total"], doc["days"], doc["late"]
            if not (type(last) is int and isinstance(total, dict) and
                    all(isinstance(d, list) and len(d) == 2 for d in days) and
                    all(isinstance(x, list) and len(x) == 4 for x in late)):
                return self._empty()
            return {"seq": seq, "last": last, "total": total, "days": dict(days),
                    "late": late}
        except (OSError, ValueError, KeyError, TypeError):
            return self._empty()

    def _mark(self, store, seq, last, total, days, late):
        """The books as they stand after row `seq`, as the checkpoint holds them (a copy)."""
        if not seq:
            return None
        doc = {"format": CHECKPOINT_FORMAT, "seq": seq, "hash": store.hash_at(seq),
               "key_id": getattr(store, "key_id", None), "take": bool(self.take),
               "last": last, "total": total, "days": sorted(days.items()),
               "late": [[name, n, e, day] for (name, n), (e, day) in sorted(late.items())]}
        doc = json.loads(json.dumps(doc))
        doc["mac"] = None if self.key is None else _checkpoint_mac(self.key, doc)
        return doc

    def _write_checkpoint(self, doc):
        path = checkpoint_path(self.journal_path)
        tmp = "%s.%d.tmp" % (path, os.getpid())
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(doc, f, sort_keys=True, separators=(",", ":"))
            os.replace(tmp, path)
        except OSError:                        # a read-only place: the shortcut is lost only
            try:
                os.unlink(tmp)
            except OSError:
                pass

    def read(self):
        """(today's {wager: meter}, since installation {wager: meter}, today's day)."""
        meters, today = self.today()
        return meters, merge(self.past_total, self.live_total), today

    def today(self):
        """(today's {wager: meter}, today's day): what the live screen shows, which draws
        it after every card of a soak (issue 33) and has no use for the total."""
        self._seed()
        today = self.day_of(self.ctl.clock())
        return merge(self.past_days.get(today, {}), self.live_days.get(today, {})), today


def round_line(n, status, model, take=None):
    """{"round", "status", "handle", "net"} of one ended round from its model's data (net:
    the players' net); a poker room's hand (`take`) is {"round", "status", "pots", "rake"}."""
    book = {}
    if status == "settled":
        add_ended(book, model, take)
    if take is not None:
        room = book.get(ROOM) or {}
        return {"round": n, "status": status, "pots": room.get("pots", 0),
                "rake": room.get("rake", 0)}
    return {"round": n, "status": status, "handle": sum(m["handle"] for m in book.values()),
            "net": -sum(m["hold"] for m in book.values())}


def merge(*books):
    out = {}
    for book in books:
        for wager, m in list(book.items()):
            o = out.setdefault(wager, dict.fromkeys(m, 0))
            for k, v in m.items():
                o[k] = o.get(k, 0) + v
    return out


def meter_text(wager, m, hold_share=False):
    """One meter as a person reads it, in dollars: a wager's handle, paid, hold and rounds,
    or the poker room's hands, pots, rake and jackpot drop (the house's take: its win)."""
    from controller.console import view
    if wager == ROOM:
        return "%-20s hands %d  pots %s  rake %s  jackpot drop %s" % (
            wager, m["hands"], view.dollars(m["pots"]), view.dollars(m["rake"]),
            view.dollars(m.get("jackpot_drop", 0)))
    share = "  (%.1f%% of handle)" % (100.0 * m["hold"] / m["handle"]) \
        if hold_share and m["handle"] else ""
    return "%-20s handle %s  paid %s  hold %s%s  rounds %d" % (
        wager, view.dollars(m["handle"]), view.dollars(m["paid"]), view.dollars(m["hold"]),
        share, m["rounds"])


def round_text(r):
    """A "last rounds" line: a wager game's handle and players' net, a poker hand's pots
    and rake."""
    from controller.console import view
    if "pots" in r:
        return "round %-6s %-8s pots %s  rake %s" % (r["round"], r["status"],
                                                    view.dollars(r["pots"]),
                                                    view.dollars(r["rake"]))
    return "round %-6s %-8s handle %s  players' net %s" % (
        r["round"], r["status"], view.dollars(r["handle"]), view.dollars(r["net"]))
