"""For the table side's tests of a linked progressive: a real nats-server whose table users
have the link permissions of the contract, and a small link controller that speaks
docs/linked-progressives.md (stream LINKS, KV bucket PROGRESSIVE, the meter every 100 ms
and on every change, awards on the award subject and in their KV entries). It is the
contract's controller reduced to what the table sees, written in the test so the table side
is tested against the page, not against the other side's code; the end-to-end tests run
the real one (controller/floor/linkctl.py) where it is there."""

import asyncio
import json
import threading
import time

from controller.wire import link_client as LC
from tests.floor.conftest import _connect


async def ensure_link_streams(js):
    """The LINKS stream and the PROGRESSIVE bucket as the floor makes them."""
    from controller.floor.linkctl import ensure_link_streams as ensure
    return await ensure(js)


class FakeLink:
    """The link's controller, as the table sees it. `hold_awards`: hits wait (unanswered)
    until `release()`; `paused`: no meter is published (the table finds the link lost)."""

    def __init__(self, url, link="L1", reset=100000, rate=(7, 50), value=None):
        self.url, self.link = url, link
        self.reset, self.rate = reset, list(rate)
        self.value = reset if value is None else value
        self.carry = 0
        self.applied_seq = 0
        self.contributions, self.withdrawals, self.hits, self.awards = {}, [], [], []
        self.refused = []
        self.hold_awards = False
        self.paused = False
        self.held = []
        self.changes = []                 # (monotonic time, value) of each meter change
        self.error = None
        self._loop = self._stop = None
        self._thread = threading.Thread(target=self._run, daemon=True, name="fake-link")
        ready = threading.Event()
        self._ready = ready
        self._thread.start()
        ready.wait(20)
        if self.error:
            raise self.error

    def _run(self):
        try:
            asyncio.run(self._main())
        except Exception as e:                  # noqa: BLE001 - reported by stop()
            self.error = e
            self._ready.set()

    async def _main(self):
        from nats.js.api import ConsumerConfig, DeliverPolicy
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        nc = await _connect(self.url)
        js = nc.jetstream(timeout=5)
        await ensure_link_streams(js)
        self.kv = await js.key_value(LC.KV_BUCKET)
        self.nc, self.js = nc, js
        await self._write_meter()
        sub = await js.subscribe("tablectl.link.%s.>" % self.link, ordered_consumer=True,
                                 config=ConsumerConfig(deliver_policy=DeliverPolicy.ALL))
        self._ready.set()
        ticker = asyncio.ensure_future(self._tick())
        try:
            while not self._stop.is_set():
                try:
                    msg = await sub.next_msg(timeout=0.05)
                except Exception:               # noqa: BLE001 - nats' TimeoutError
                    continue
                await self._apply(json.loads(msg.data), msg.metadata.sequence.stream)
        finally:
            ticker.cancel()
            await nc.close()

    async def _tick(self):
        while True:
            if not self.paused:
                await self._publish_meter()
            await asyncio.sleep(0.1)

    def meter_doc(self):
        return {"link": self.link, "version": 1, "value": self.value, "carry": self.carry,
                "rate": self.rate, "reset": self.reset, "cap": None,
                "applied_seq": self.applied_seq, "hits": len(self.awards),
                "operable": True}

    async def _publish_meter(self):
        await self.nc.publish(LC.meter_subject(self.link), json.dumps(self.meter_doc()).encode())

    async def _write_meter(self):
        await self.kv.put("meter.%s" % self.link, json.dumps(self.meter_doc()).encode())

    async def _apply(self, doc, seq):
        self.applied_seq = seq
        num, den = self.rate
        was = self.value
        kind, wire_id = doc.get("type"), doc.get("id")
        if kind == "contribution":
            self.contributions[wire_id] = dict(doc, seq=seq)
            self.carry += doc["wager"] * num
            self.value += self.carry // den
            self.carry %= den
        elif kind == "withdraw":
            if wire_id in self.contributions and \
                    wire_id not in [w["id"] for w in self.withdrawals]:
                self.withdrawals.append(dict(doc, seq=seq))
                self.carry -= doc["wager"] * num
                self.value += self.carry // den
                self.carry %= den
            else:
                self.refused.append(dict(doc, seq=seq))
        elif kind == "hit":
            self.hits.append(dict(doc, seq=seq))
            if self.hold_awards:
                self.held.append((doc, seq))
            else:
                await self._award(doc, seq)
        if self.value != was:
            self.changes.append((time.monotonic(), self.value))
        await self._write_meter()
        if not self.paused:
            await self._publish_meter()

    async def _award(self, doc, seq, publish=True):
        n, d = doc["share"]
        before = self.value
        amount = self.value * n // d
        if n >= d:
            self.value = self.reset
        else:
            self.value -= amount
        award = {"type": "award", "id": doc["id"], "link": self.link, "table": doc["table"],
                 "round": doc["round"], "seat": doc["seat"], "amount": amount, "seq": seq,
                 "meter_before": before, "meter_after": self.value, "hand": doc["hand"],
                 "ts_ns": time.time_ns()}
        self.awards.append(award)
        self.changes.append((time.monotonic(), self.value))
        await self.kv.put(LC.award_key(self.link, doc["table"], doc["round"], doc["seat"]),
                          json.dumps(award).encode())
        await self._write_meter()
        if publish:
            await self.nc.publish("tablectl.award.%s.%s" % (self.link, doc["table"]),
                                  json.dumps(award).encode())

    def call(self, coro_fn, timeout=10):
        return asyncio.run_coroutine_threadsafe(coro_fn(), self._loop).result(timeout)

    def release(self, publish=True):
        """The held hits awarded now (`publish` False: written to the KV only, as a table
        that was away would find them)."""
        async def go():
            held, self.held = self.held, []
            for doc, seq in held:
                await self._award(doc, seq, publish)
        self.hold_awards = False
        self.call(go)

    def stop(self):
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)
        if self.error:
            raise self.error
