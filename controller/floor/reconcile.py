"""`tablectl floor reconcile LINK`: does the link's meter agree with its history, and each
table's journal with the link's records?

1. The meter against the stream. The link's messages in LINKS are replayed here, with exact
   fractions (not the controller's integer carry: a second arithmetic, so a bug of one is
   seen by the other), up to the meter's applied_seq: the value and its fraction of a cent,
   the hits and every award's amount and stream sequence must be the meter's and the award
   entries'. And the meter alone must hold its invariant: value == reset x (1 + resets)
   (the sum of the seeds when a version changed the reset) + contributed - withdrawn -
   awarded - over_cap, carry < den.
2. Each table's journal (its rows on the floor's JOURNAL stream) against the link's records
   of that table: every `link_contribution`, `link_withdraw` and `link_award` row the table
   journaled must be the link's (same id, stream sequence, wager or amount), and every
   contribution the link applied and did not withdraw, and every award it made, must be in
   the table's journal. The first row where they part is named.

A consistent cut (issue 31): the meter is compared with the stream up to its applied_seq,
and each table's journal with the link's records of that table stored (the server's own
clock on both streams) before the table's journal was: a record newer than the table's last
row on the floor less ACK_GRACE_S (HOLD_S for a table that is idle) is in flight, its
journal row still on its way (held with a round's cards, or not yet forwarded), not a
problem (`closed`: the tables are closed, nothing is in flight, every record is due). Every
problem is reported, each table's every one, and the link taken down with
the first of them and how many there are.

A mismatch takes the link down: a new version of its definition with operable false and why,
on the stream (the controller applies it) and in config.<link>. Exit 0 it holds, 1 a
mismatch, 2 bad input.
"""

import datetime
import json
from fractions import Fraction

from controller.wire import subjects as S

JOURNAL_KINDS = ("link_contribution", "link_withdraw", "link_award")
ACK_GRACE_S = 5.0       # a link record to its journal row on the floor, at most (live play)
HOLD_S = 120.0          # the longest a round holds a table's rows (its cards) back


class Replay:
    """The link's history replayed with exact fractions. `refused`: the stream sequences of
    the table messages the controller refused on the evidence (its refusal records, issue
    31): they moved no money. A hit's award is locked at its place in the stream and paid
    once its supervisors confirmed it, in the stream's order (the jackpot lock)."""

    def __init__(self, refused=()):
        self.value = None               # Fraction of cents
        self.cfg = None
        self.refused = set(refused)
        self.contributions = {}         # id -> [seq, table, wager, rate, withdrawn seq]
        self.withdraws = {}             # id -> seq
        self.awards = {}                # id -> {seq, table, amount}: paid (released)
        self.pending = []               # awards locked, waiting for their supervisors
        self.confirmations = {}         # award id -> [{by, ts_ns, seq}]
        self.hits = 0
        self.problems = []

    def _needs(self, amount):
        if amount < (self.cfg.get("confirm_above") or 0):
            return 0
        second = self.cfg.get("second_above")
        return 2 if second is not None and amount > second else 1

    def _release(self):
        while self.pending and len(self.confirmations.get(self.pending[0]["id"], [])) >= \
                self.pending[0]["needs"]:
            a = self.pending.pop(0)
            self.awards[a["id"]] = dict(a, ts=self.ts)

    def apply(self, seq, doc, ts=None):
        kind = doc.get("type")
        self.ts = ts
        if seq in self.refused:
            return
        if kind == "confirm":
            pending = [a["id"] for a in self.pending]
            by = self.confirmations.setdefault(doc.get("id"), [])
            if doc.get("id") in pending and doc.get("by") and \
                    doc.get("by") not in [c["by"] for c in by]:
                by.append({"by": doc.get("by"), "ts_ns": doc.get("ts_ns"), "seq": seq})
                self._release()
            return
        if kind == "config":
            if self.value is None:
                self.value = Fraction(doc["reset"])
            self.cfg = doc
            self._cap()
            return
        if kind == "operable" or self.cfg is None:
            return
        table, ident = doc.get("table"), doc.get("id")
        if table not in self.cfg["tables"] or not isinstance(ident, str) or \
                not ident.startswith("%s:" % table):
            return
        if kind == "contribution":
            wager = doc.get("wager")
            if ident in self.contributions or not isinstance(wager, int) or \
                    isinstance(wager, bool) or wager <= 0:
                return
            rate = Fraction(*self.cfg["rate"])
            self.contributions[ident] = [seq, table, wager, rate, None, self.ts]
            self.value += wager * rate
            self._cap()
        elif kind == "withdraw":
            c = self.contributions.get(ident)
            if c is None or c[4] is not None:
                return
            c[4] = seq
            self.withdraws[ident] = seq
            self.value -= c[2] * c[3]
        elif kind == "hit":
            share = doc.get("share", [1, 1])
            if ident in self.awards or not (isinstance(share, list) and len(share) == 2 and
                                            0 < share[0] <= share[1]):
                return
            whole = int(self.value)                 # the meter in whole cents
            amount = int(whole * Fraction(share[0], share[1]))
            if share[0] >= share[1]:
                self.value = Fraction(self.cfg["reset"]) + (self.value - whole)
            else:
                self.value -= amount
            self.hits += 1
            award = {"id": ident, "seq": seq, "table": table, "amount": amount,
                     "needs": self._needs(amount), "ts": self.ts}
            if award["needs"]:
                self.pending.append(award)
            else:
                self.awards[ident] = award

    def _cap(self):
        cap = self.cfg.get("cap")
        if cap is not None and self.value >= cap + 1:
            self.value -= int(self.value) - cap


def check_meter(meter, replay, award_entries):
    """Lines that fail, [] when the meter is its history."""
    from controller.floor.linkmeter import invariant
    bad = list(invariant(meter))
    if meter.get("resets") is not None and meter["seeded"] != meter["reset"] * (
            1 + meter["resets"]) and not replay_changed_reset(replay):
        bad.append("seeded %d != reset %d x (1 + resets %d)" % (
            meter["seeded"], meter["reset"], meter["resets"]))
    exact = Fraction(meter["value"]) + Fraction(meter["carry"], meter["rate"][1])
    if replay.value is not None and exact != replay.value:
        bad.append("meter %s cents != %s replayed from the stream up to seq %d" % (
            _frac(exact), _frac(replay.value), meter["applied_seq"]))
    if meter["hits"] != replay.hits:
        bad.append("hits %d != %d hits in the stream" % (meter["hits"], replay.hits))
    waiting = [a["id"] for a in meter.get("pending") or []]
    if waiting != [a["id"] for a in replay.pending]:
        bad.append("awards waiting for a supervisor %s != %s by the stream" % (
            waiting, [a["id"] for a in replay.pending]))
    awarded = sum(a["amount"] for a in replay.awards.values()) + \
        sum(a["amount"] for a in replay.pending)
    if meter["awarded"] != awarded:
        bad.append("awarded %d != %d paid by the stream's hits" % (meter["awarded"], awarded))
    for ident, a in sorted(replay.awards.items(), key=lambda kv: kv[1]["seq"]):
        got = award_entries.get(ident)
        if got is None:
            bad.append("award %s (hit seq %d) has no award entry" % (ident, a["seq"]))
        elif (got.get("amount"), got.get("seq")) != (a["amount"], a["seq"]):
            bad.append("award %s: entry %s at seq %s, the stream says %d at seq %d" % (
                ident, got.get("amount"), got.get("seq"), a["amount"], a["seq"]))
    return bad


def replay_changed_reset(replay):
    return getattr(replay, "reset_changed", False)


def _frac(f):
    whole = int(f)
    rest = f - whole
    return "%d" % whole if not rest else "%d+%d/%d" % (whole, rest.numerator, rest.denominator)


def check_journal(table, rows, replay, cut=None):
    """[] when the table's journal agrees with the link's records of it, else every
    [(row seq or None, why)]. `cut`: the link's records stored after it are in flight, not
    required in the journal yet."""
    def due(ts):
        return cut is None or ts is None or ts <= cut
    want_c = {i: c for i, c in replay.contributions.items() if c[1] == table}
    want_a = {i: a for i, a in replay.awards.items() if a["table"] == table}
    got_c, got_a = set(), set()
    out = []
    for row in rows:
        kind = row.get("kind")
        if kind not in JOURNAL_KINDS:
            continue
        data = row.get("data")
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                data = {}
        if not isinstance(data, dict) or data.get("link") != replay.cfg["link"]:
            continue
        ident, seq, at = data.get("id"), data.get("seq"), row.get("seq")
        if kind == "link_contribution":
            c = want_c.get(ident)
            if c is None:
                out.append((at, "journal row %s: contribution %s is not the link's" % (
                    at, ident)))
            elif (seq, data.get("wager")) != (c[0], c[2]):
                out.append((at, "journal row %s: contribution %s of %s at seq %s; the link "
                            "applied %d at seq %d" % (at, ident, data.get("wager"), seq,
                                                      c[2], c[0])))
            got_c.add(ident)
        elif kind == "link_withdraw":
            if ident not in replay.withdraws or want_c.get(ident) is None:
                out.append((at, "journal row %s: withdraw of %s the link did not apply" % (
                    at, ident)))
        else:
            a = want_a.get(ident)
            if a is None:
                out.append((at, "journal row %s: award %s the link did not make" % (
                    at, ident)))
            elif (seq, data.get("amount")) != (a["seq"], a["amount"]):
                out.append((at, "journal row %s: award %s of %s at seq %s; the link awarded "
                            "%d at seq %d" % (at, ident, data.get("amount"), seq, a["amount"],
                                              a["seq"])))
            got_a.add(ident)
    for ident, c in sorted(want_c.items(), key=lambda kv: kv[1][0]):
        if c[4] is None and ident not in got_c and due(c[5] if len(c) > 5 else None):
            out.append((None, "the link's contribution %s (seq %d, %d cents) is not in %s's "
                        "journal" % (ident, c[0], c[2], table)))
    for ident, a in sorted(want_a.items(), key=lambda kv: kv[1]["seq"]):
        if ident not in got_a and due(a.get("ts")):
            out.append((None, "the link's award %s (seq %d, %d cents) is not in %s's "
                        "journal" % (ident, a["seq"], a["amount"], table)))
    return out


def cut_of(stored, now=None):
    """The cut for a table whose last row reached the floor at `stored` (a datetime, or
    None: none yet): the link's records stored after it are in flight."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    idle = now - datetime.timedelta(seconds=HOLD_S)
    last = stored if stored is not None and stored > idle else idle
    return last - datetime.timedelta(seconds=ACK_GRACE_S)


def account(msgs):
    """Every hit on the link's stream and what became of it (issue 31): refused (why), or
    locked (its amount), confirmed (by whom, when) and paid, or still waiting."""
    out, by_seq = {}, {}
    refused = {d.get("of") for _, d, _ in msgs if d.get("type") == "refusal"}
    for seq, doc, _ in msgs:
        kind = doc.get("type")
        if kind == "confirm" and seq in refused:
            continue                            # not a floor page's: it counted for nothing
        if kind == "hit":
            by_seq[seq] = out.setdefault(doc.get("id"), {
                "id": doc.get("id"), "hit_seq": seq, "table": doc.get("table"),
                "state": "sent", "confirmations": []})
        elif kind == "refusal" and doc.get("of") in by_seq:
            by_seq[doc["of"]].update(state="refused", why=doc.get("why"))
        elif kind == "locked" and doc.get("of") in by_seq:
            by_seq[doc["of"]].update(state="locked", amount=doc.get("amount"),
                                     needs=doc.get("needs"))
        elif kind == "confirm" and doc.get("id") in out:
            out[doc["id"]]["confirmations"].append({"by": doc.get("by"),
                                                    "ts_ns": doc.get("ts_ns"), "seq": seq})
        elif kind == "paid" and doc.get("of") in by_seq:
            by_seq[doc["of"]].update(state="paid", amount=doc.get("amount"), paid_seq=seq)
    return sorted(out.values(), key=lambda a: a["hit_seq"])


async def journal_rows(js, table, stored=None):
    """The table's rows on the JOURNAL stream, in order (`stored`, a list: the time the
    server stored the last of them is put in it)."""
    from nats.js import api
    from nats.js.errors import NotFoundError
    subj = S.journal_subject(table)
    try:
        info = await js.stream_info(S.STREAM, subjects_filter=subj)
    except NotFoundError:
        return []
    want = (info.state.subjects or {}).get(subj, 0)
    out = []
    if not want:
        return out
    sub = await js.subscribe(subj, stream=S.STREAM, ordered_consumer=True,
                             config=api.ConsumerConfig(deliver_policy=api.DeliverPolicy.ALL))
    try:
        while len(out) < want:
            msg = await sub.next_msg(timeout=5)
            if stored is not None:
                stored[:] = [msg.metadata.timestamp]
            try:
                out.append(json.loads(msg.data))
            except ValueError:
                out.append({})
    finally:
        await sub.unsubscribe()
    return out


async def reconcile(nc, js, kv, link, take_down=True, closed=False, secret=None):
    """{"holds": bool, "problems": [...], "tables": {t: why or None}, ...}. `secret`: the
    floor's NATS password, which tags the id of the version that takes the link down."""
    from controller.floor.linkcfg import Refused, read_config, write_version
    from controller.floor.linkctl import history, kv_entry
    from controller.wire import links as L
    raw, _ = await kv_entry(kv, S.meter_key(link))
    cfg, rev = await read_config(kv, link)
    if cfg is None:
        raise Refused("link %s is not defined" % link)
    if raw is None:
        raise Refused("link %s has no meter yet (is its controller running?)" % link)
    meter = json.loads(raw)
    msgs = await history(js, link)
    refused = {d.get("of") for _, d, _ in msgs if d.get("type") == "refusal"}
    replay = Replay(refused)
    resets = set()
    for seq, doc, ts in msgs:
        if seq > meter["applied_seq"]:
            break
        if doc.get("type") == "config":
            resets.add(doc.get("reset"))
        replay.apply(seq, doc, ts)
    replay.reset_changed = len(resets) > 1
    awards = {}
    for ident, a in replay.awards.items():
        _, round_no, seat = ident.split(":", 2)
        got, _ = await kv_entry(kv, "award.%s.%s.%s-%s" % (link, a["table"], round_no, seat))
        if got is not None:
            awards[ident] = json.loads(got)
    problems = check_meter(meter, replay, awards)
    # the tables' journals against every record of the link (the whole stream)
    full = Replay(refused)
    for seq, doc, ts in msgs:
        full.apply(seq, doc, ts if isinstance(ts, datetime.datetime) else None)
    tables = {}
    for t in sorted(set(cfg["tables"])):
        stored = []
        rows = await journal_rows(js, t, stored)
        found = check_journal(t, rows, full, None if closed else
                              cut_of(stored[0] if stored else None))
        tables[t] = None if not found else {"row": found[0][0], "why": found[0][1],
                                            "problems": len(found)}
        problems.extend("table %s: %s" % (t, why) for _, why in found)
    report = {"link": link, "holds": not problems, "problems": problems, "tables": tables,
              "value": meter["value"], "applied_seq": meter["applied_seq"],
              "stream_last": msgs[-1][0] if msgs else 0, "hits": meter["hits"],
              "contributions": len(full.contributions), "taken_down": False,
              "jackpots": account(msgs)}
    if problems and take_down and cfg.get("operable", True):
        why = "reconcile: %s%s" % (problems[0], "" if len(problems) == 1 else
                                    " (and %d more)" % (len(problems) - 1))
        new = L.next_version(cfg, dict(cfg, operable=False, why=why[:300]))
        new = L.check(dict(new, operable=False, why=why[:300]))
        await write_version(nc, js, kv, cfg, rev, new, listen_s=0, secret=secret)
        report["taken_down"] = True
    return report
