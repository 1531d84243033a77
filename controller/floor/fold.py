"""One table as the floor sees it: its rows folded, in the order they arrive, into its state.

The fold checks the chain from what it receives: each row must be the next seq, link to the
hash of the row before it, and (for an unkeyed journal) hash to its own hash. A row that
breaks it is flagged (`integrity`), whether rows arrive out of order or the journal was
rewritten, and the fold goes on from it so that one break is one flag. A row at or below the
head already folded is a redelivery (the floor restarted between its KV write and its
acknowledgement) and is skipped.

What it keeps is what the floor page and the KV bucket show: game, state, round, devices,
lock-outs (reason, section, time, who cleared), handle and paid per wager, and the
regulation meters, computed from each round-end snapshot by the table's own derivation
(journal/meters.py), so that they equal the table's own meters table after each round. The
state is JSON and restarts the fold exactly (`TableView.load`).
"""

import json
import types

from controller.device_registry import configured_names, say_names
from controller.journal import meters as M
from controller.journal.chain import GENESIS_HASH, row_hash
from controller.floor.sentences import sentence

RECENT = 40
MAX_LOCKOUTS = 50
MAX_PROBLEMS = 20


def _parse(row):
    data = row["data"]
    try:
        return json.loads(data) if isinstance(data, str) else data
    except ValueError:
        return None


class TableView:
    def __init__(self, table_id, state=None):
        self.s = state or {
            "table": table_id, "game": None, "state": None, "round_no": 0,
            "head": {"seq": 0, "hash": GENESIS_HASH}, "keyed": None,
            "integrity": {"ok": True, "problems": []},
            "meters": {}, "wagers": {}, "lockouts": [], "devices": {},
            "recent": [], "rows": 0, "redelivered": 0, "last_row_ts_ns": None,
            "last_round_counted": 0,
        }

    @classmethod
    def load(cls, table_id, text):
        return cls(table_id, json.loads(text))

    def dump(self):
        return json.dumps(self.s, sort_keys=True).encode()

    def slot(self, name):
        """A consumer's own state for this table (service.py `register`), saved with the
        table's entry in the bucket and loaded with it."""
        return self.s.setdefault("consumers", {}).setdefault(name, {})

    @property
    def head(self):
        return self.s["head"]["seq"], self.s["head"]["hash"]

    # ---- the chain ----------------------------------------------------------------------

    def _flag(self, seq, reason):
        integ = self.s["integrity"]
        integ["ok"] = False
        integ["problems"] = (integ["problems"] + [{"seq": seq, "reason": reason}])[-MAX_PROBLEMS:]

    def _check(self, row):
        seq, prev = self.head
        if row["seq"] != seq + 1:
            self._flag(row["seq"], "out of order: row %d arrived after row %d"
                       % (row["seq"], seq))
        elif row["prev_hash"] != prev:
            self._flag(row["seq"], "its link does not match the hash of row %d as received: "
                                   "the journal was rewritten" % seq)
        if self.s["keyed"] is None:
            # the genesis row tells: an unkeyed chain's hash is recomputable, a keyed one not
            self.s["keyed"] = row_hash(row["prev_hash"], row) != row["hash"]
        elif not self.s["keyed"] and row_hash(row["prev_hash"], row) != row["hash"]:
            self._flag(row["seq"], "its hash does not match its contents (edited)")

    # ---- the fold -----------------------------------------------------------------------

    def apply(self, row):
        """Fold one received row; False if it was a redelivery and skipped."""
        if row["seq"] <= self.head[0]:
            self.s["redelivered"] += 1
            return False
        self._check(row)
        s = self.s
        s["head"] = {"seq": row["seq"], "hash": row["hash"]}
        s["rows"] += 1
        s["last_row_ts_ns"] = row["ts_ns"]
        s["round_no"] = max(s["round_no"], int(row.get("round_no") or 0))
        data = _parse(row)
        if not isinstance(data, dict):
            data = {}
        handler = getattr(self, "_%s_%s" % (row["entry"], row["kind"]), None)
        if handler is None and row["entry"] == "snapshot":
            handler = self._snapshot
        if handler is not None:
            handler(row, data)
        if row["entry"] == "event" or row["kind"] in ("lock_out", "integrity_lock"):
            s["recent"] = (s["recent"] + [{"seq": row["seq"], "kind": row["kind"],
                                           "source": row["source"],
                                           "round": row["round_no"], "ts_ns": row["ts_ns"],
                                           "text": sentence(row["kind"], row["source"], data,
                                                            s.get("device_names")),
                                           "detail": _short(data)}])[-RECENT:]
        return True

    def _record_clock(self, row, data):
        """The table's clock record (one per boot): its table time -> the casino's wall clock
        and UTC offset, so the page says every time in local time."""
        if all(type(data.get(k)) is int for k in ("wall_ns", "table_ns")):
            self.s["clock"] = {"wall_ns": data["wall_ns"], "table_ns": data["table_ns"],
                               "utc_offset_s": int(data.get("utc_offset_s") or 0)}

    def _record_floor_integrity(self, row, data):
        """The table found on the stream a row of its own seq that it did not write (issue
        31): that row is named, as the table reports it (the chain check names only the row
        after it, whose link no longer matches)."""
        self._flag(data.get("seq"), "row %s on the stream is not the table's (forged; the "
                   "table's own was refused as a duplicate), reported at the table's row %d: "
                   "%s" % (data.get("seq"), row["seq"], data.get("why")))

    def _record_table(self, row, data):
        """The runtime's record at start: {configured name: kind} of the table's devices, so
        that the page names each device as the table's configuration and console do
        (device_registry.configured_names), not by the kind the games journal."""
        self.s["device_names"] = configured_names(data.get("devices"))

    def _genesis_genesis(self, row, data):
        self.s["game"] = data.get("game")

    def _snapshot(self, row, data):
        s = self.s
        table = data.get("table") or {}
        model = table.get("model") or {}
        counters = data.get("counters") or {}
        s["state"] = table.get("state")
        s["game"] = s["game"] or table.get("game")
        ns = types.SimpleNamespace(meters=model.get("meters"), meter=model.get("meter"))
        s["meters"] = M.derive(ns, {"rounds": counters.get("rounds", 0),
                                    "voids": counters.get("voids", 0)})
        last = counters.get("last_round", 0)
        if last > s["last_round_counted"]:
            s["last_round_counted"] = last
            self._count_round(model)
        self._count_late_awards(ns)
        self._keep_link_hits(ns)

    # ---- a linked progressive's award after its round was counted ---------------------
    #
    # The round's snapshot counted the hit "pending" (its wager lost). The award comes as
    # a `link_award` input row after it: counted there, at once, as the table counts it
    # (controller/progressive.py LinkedGame.on_link_award numbers it as a late award), from
    # the pending hit the last snapshot holds. A late award the fold did not see as a row
    # (a fold started from a later snapshot) is counted from the next snapshot's list of
    # late awards; each is counted once, by its number.

    def _count_late(self, name, net, paid):
        w = self.s["wagers"].setdefault(name, {"handle": 0, "paid": 0, "net": 0})
        w["net"] += net
        w["paid"] += paid

    def _count_late_awards(self, ns):
        from controller.progressive import late_since
        for name, e in late_since(ns, self.s.setdefault("late_seen", {})):
            self._count_late(name, e["net"], e["paid"])

    def _keep_link_hits(self, ns):
        from controller.progressive import linked_meters
        kept = {}
        for name, m in linked_meters(ns).items():
            lk = m["link"]
            kept[lk["id"]] = {"name": name, "late_n": lk.get("late_n", 0), "hits": {
                k: {f: h.get(f) for f in ("round", "seat", "wager", "seats")}
                for k, h in (lk.get("hits") or {}).items()}}
        self.s["link_hits"] = kept

    def _event_link_award(self, row, data):
        link = (self.s.get("link_hits") or {}).get(data.get("link"))
        parts = str(data.get("id")).split(":")
        if link is None or len(parts) < 3:
            return
        hit = link["hits"].pop("%s:%s" % (parts[-2], parts[-1]), None)
        amount = data.get("amount")
        if hit is None or not isinstance(amount, int) or \
                hit["round"] > self.s["last_round_counted"]:
            return                  # paid in its round: the round's snapshot counts it
        name, seats = link["name"], hit.get("seats") or {hit["seat"]: hit["wager"]}
        if len(seats) > 1:          # a jackpot shared at the table: the game's own rule
            from controller.games import declaration
            from controller.games.declarations import load
            shares = load(declaration(self.s["game"]).jackpot_shares)(name, amount, seats)
        else:
            shares = {hit["seat"]: amount}
        seen = self.s.setdefault("late_seen", {})
        for seat, share in sorted(shares.items()):
            link["late_n"] += 1
            if link["late_n"] > seen.get(name, 0):
                seen[name] = link["late_n"]
                self._count_late(name, share, max(0, share - seats[seat]))

    def _house_take(self):
        """The game's declared count of a hand's pots and take (a poker room), or None."""
        if "house_take" not in self.s and self.s["game"]:
            from controller.games import declaration
            try:
                self.s["house_take"] = declaration(self.s["game"]).house_take
            except Exception:                   # noqa: BLE001 - a game this floor lacks
                self.s["house_take"] = None
        return self.s.get("house_take")

    def _count_round(self, model):
        """One round ended: its handle and what it paid, per wager. A void round returns
        every wager (it is no handle, as the table's own money meters count it:
        controller/console/wager_meters.py); a poker room's hand is its pots and the house's
        take (the declaration's `house_take`), not the players' stacks."""
        if model.get("status") != "settled":
            return
        take = self._house_take()
        if take:
            from controller.games.declarations import load
            room = self.s.setdefault("room", {"hands": 0, "pots": 0, "rake": 0,
                                              "jackpot_drop": 0})
            room["hands"] += 1
            for k, v in load(take)(model).items():
                room[k] = room.get(k, 0) + v
            return
        wagers = self.s["wagers"]
        for seat, placed in (model.get("wagers") or {}).items():
            for name, amount in (placed or {}).items():
                if isinstance(amount, int):
                    w = wagers.setdefault(name, {"handle": 0, "paid": 0, "net": 0})
                    w["handle"] += amount
        for seat, res in (model.get("results") or {}).items():
            for name, r in (res or {}).items():
                if isinstance(r, (list, tuple)) and len(r) >= 2 and isinstance(r[1], int):
                    w = wagers.setdefault(name, {"handle": 0, "paid": 0, "net": 0})
                    w["net"] += r[1]
                    if r[1] > 0:
                        w["paid"] += r[1]

    def _record_lock_out(self, row, data):
        self.s["state"] = "locked_out"
        self.s["lockouts"] = (self.s["lockouts"] + [{
            "reason": say_names(data.get("reason"), self.s.get("device_names")),
            "section": data.get("section"), "seq": row["seq"],
            "ts_ns": row["ts_ns"], "cleared": None}])[-MAX_LOCKOUTS:]

    _record_integrity_lock = _record_lock_out

    def _event_fault(self, row, data):
        name = say_names(data.get("device") or data.get("name") or row["source"],
                         self.s.get("device_names"))
        self.s["devices"][name] = {"ok": False, "reason": data.get("reason"),
                                   "section": data.get("section"), "seq": row["seq"]}

    def _event_clear(self, row, data):
        clear = {"seq": row["seq"], "ts_ns": row["ts_ns"], "by": data.get("badge"),
                 "role": data.get("role")}
        if "selftest" in data:
            # the clear service's own clear: the device's self-test result rides on it
            self._cleared(row, clear, bool(data["selftest"]), data.get("device"))
        else:
            self.s["pending_clear"] = clear     # older journals: a selftest record follows

    def _record_selftest(self, row, data):
        clear = self.s.pop("pending_clear", None)
        if clear is not None:
            self._cleared(row, clear, bool(data.get("ok")), data.get("device"))

    def _cleared(self, row, clear, ok, dev):
        if not ok:
            return
        dev = say_names(dev, self.s.get("device_names"))      # a kind: its configured name
        for lo in reversed(self.s["lockouts"]):
            if lo["cleared"] is None:
                lo["cleared"] = clear
                break
        if dev in self.s["devices"]:
            self.s["devices"][dev] = {"ok": True, "seq": row["seq"]}
        self.s["state"] = "cleared"

    # ---- what the page and the checks read ------------------------------------------------

    def meters(self):
        return dict(self.s["meters"])


def _short(data):
    text = json.dumps(data, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."

