"""A table simulated by a small publisher that speaks the link's wire contract
(docs/linked-progressives.md) with the table's own credential: contributions, withdraws and
hits on tablectl.link.<link>.<table> with their message ids, its link status every 100 ms,
awards heard on tablectl.award.<link>.<table> (or read back by direct get)."""

import asyncio
import json
import time

from controller.wire import subjects as S
from tests.floor.conftest import FLOOR_PW, _connect, signing_key


class LinkTable:
    def __init__(self, url, link, table, password, journal=False, journal_seq=0,
                 key="own", old_ids=False):
        self.url, self.link, self.table, self.password = url, link, table, password
        # the table's own signing key ("own": the tests' key of this table; None: unsigned,
        # as someone holding only its NATS password sends)
        self.key = signing_key(table) if key == "own" else key
        self.old_ids = old_ids          # the message ids of before issue 31's tags
        self.contributed = {}           # id -> the stream seq its contribution was stored at
        self.journal = journal          # journal link_* rows as the table side does
        self.journal_seq = journal_seq
        self.journaled = set()
        self.nc = self.js = None
        self.awards = {}                # id -> award heard
        self.meters = []                # meter docs heard
        self._status = None

    async def start(self, status=False):
        self.nc = await _connect(self.url, user=self.table, password=self.password)
        self.js = self.nc.jetstream(timeout=5)
        await self.nc.subscribe(S.award_subject(self.link, self.table), cb=self._on_award)
        await self.nc.subscribe(S.meter_subject(self.link), cb=self._on_meter)
        if status:
            self.status_on()
        return self

    def status_on(self):
        if self._status is None:
            self._status = asyncio.ensure_future(self._heartbeat())

    async def status_off(self):
        if self._status is not None:
            self._status.cancel()
            self._status = None

    async def _heartbeat(self):
        while True:
            await self.nc.publish(S.linkstatus_subject(self.link, self.table), b'{"up": true}')
            await asyncio.sleep(0.1)

    async def _on_award(self, msg):
        award = json.loads(msg.data)
        self.awards[award["id"]] = award

    async def _on_meter(self, msg):
        self.meters.append(json.loads(msg.data))
        del self.meters[:-50]

    def ident(self, round_no, seat):
        return "%s:%s:%s" % (self.table, round_no, seat)

    async def send(self, kind, round_no, seat, **fields):
        doc = {"type": kind, "id": self.ident(round_no, seat), "link": self.link,
               "table": self.table, "round": round_no, "seat": seat, "ts_ns": time.time_ns(),
               "jseq": self.journal_seq + 1}
        doc.update(fields)
        from controller.wire import signing
        if self.key is not None:
            doc = signing.sign(self.key, doc)
        # the id the table's key makes (a thief without it: the id anyone can compute)
        return await self._publish(S.link_subject(self.link, self.table),
                                   json.dumps(doc).encode(),
                                   signing.message_id(None if self.old_ids else self.key,
                                                      S.link_msg_id(kind, self.link,
                                                                    doc["id"])))

    async def _publish(self, subject, data, msg_id, within_s=60.0):
        """Stored, or retried with the same message id (stored once) as the table side does
        through an election or an outage."""
        end = time.monotonic() + within_s
        while True:
            try:
                return await self.js.publish(subject, data, headers={"Nats-Msg-Id": msg_id})
            except Exception:                   # noqa: BLE001 - no ack yet: again
                if time.monotonic() > end:
                    raise
                await asyncio.sleep(0.1)

    async def contribute(self, round_no, seat, wager):
        ack = await self.send("contribution", round_no, seat, wager=wager)
        self.contributed.setdefault(self.ident(round_no, seat), ack.seq)
        await self.journal_row("link_contribution", {
            "link": self.link, "id": self.ident(round_no, seat), "seq": ack.seq, "seat": seat,
            "wager": wager}, round_no)
        return ack

    async def withdraw(self, round_no, seat, wager):
        ack = await self.send("withdraw", round_no, seat, wager=wager)
        await self.journal_row("link_withdraw", {
            "link": self.link, "id": self.ident(round_no, seat), "seq": ack.seq, "seat": seat,
            "wager": wager}, round_no)
        return ack

    async def journal_row(self, kind, data, round_no=0, force=False):
        """A row of the table's journal on the floor's JOURNAL stream (as its uplink sends
        it; the hash chain is not what reconcile reads)."""
        if not (self.journal or force):
            return None
        self.journal_seq += 1
        row = {"seq": self.journal_seq, "ts_ns": time.time_ns(), "source": "link",
               "entry": "event", "kind": kind, "round_no": round_no,
               "data": json.dumps(data, sort_keys=True), "prev_hash": "0" * 64,
               "hash": "%064x" % self.journal_seq}
        await self._publish(S.journal_subject(self.table), json.dumps(row).encode(),
                            S.msg_id(self.table, self.journal_seq))
        return self.journal_seq

    async def hit(self, round_no, seat, hand=("AS", "KS", "QS"), share=(1, 1), cseq=None,
                  **fields):
        """A hit as the table sends it: the hand (the ace, king and queen of spades: the
        whole meter at Raise It Up, 669a.12(e)(1)), the share, the stream sequence its
        contribution was acknowledged at (that seat's in that round, unless given)."""
        if cseq is None:
            cseq = self.contributed.get(self.ident(round_no, seat))
        return await self.send("hit", round_no, seat, hand=list(hand), share=list(share),
                               cseq=cseq, **fields)

    async def contribute_and_hit(self, round_no, seat, wager=500, **kw):
        """A genuine hit: the seat's wager contributed and acknowledged, then the hit."""
        await self.contribute(round_no, seat, wager)
        return await self.hit(round_no, seat, **kw)

    async def award(self, round_no, seat, timeout=30.0):
        """The award of this seat's hit: heard, or read back by direct get of its entry."""
        ident = self.ident(round_no, seat)
        end = time.monotonic() + timeout
        polled = time.monotonic()
        while time.monotonic() < end:
            if ident not in self.awards and time.monotonic() - polled > 1.0:
                polled = time.monotonic()       # missed while reconnecting: read it back
                try:
                    got = await self.direct_get("award.%s.%s.%s-%s" % (self.link, self.table,
                                                                       round_no, seat))
                    if got:
                        self.awards[ident] = got
                except Exception:               # noqa: BLE001 - retried
                    pass
            if ident in self.awards:
                a = self.awards[ident]
                if ident not in self.journaled:
                    self.journaled.add(ident)
                    await self.journal_row("link_award", {
                        "link": self.link, "id": ident, "seq": a["seq"], "seat": seat,
                        "amount": a["amount"]}, round_no)
                return a
            await asyncio.sleep(0.01)
        raise AssertionError("no award for %s" % ident)

    async def direct_get(self, key):
        """A KV entry by direct get, as the table's credential allows (meter.*, its own
        award.*.<table>.>): the value or None; raises on a permission refused."""
        subj = "$JS.API.DIRECT.GET.KV_%s.$KV.%s.%s" % (S.LINK_BUCKET, S.LINK_BUCKET, key)
        msg = await self.nc.request(subj, b"", timeout=2)
        if msg.headers and msg.headers.get("Status") == "404":
            return None
        return json.loads(msg.data)

    async def close(self):
        await self.status_off()
        await self.nc.close()


async def floor_nc(url):
    return await _connect(url, user="floor", password=FLOOR_PW)
