"""Fuzz campaign: mutated frames against the codec, the link protocol object and the drivers.

    python bench/fuzz_link.py [--frames N] [--seed S]

Frames are drawn from a corpus of every message type and every catalogue EVENT, plus
CRC-valid hostile payloads (NaN, Infinity, 1e999, 2^53, lone surrogates, duplicate keys,
deep nesting, terminal escapes, wrong types, bytes that are not UTF-8), then mutated (bit
flips, inserted/deleted/duplicated bytes, stray start bytes, wrong LEN, cut frames, spliced
frames; half of the mutants get their CRC recomputed so the hostile content passes the
CRC). The stream goes, in random chunks with time advancing, into

  1. a Codec as a line analyser (sequenced=False),
  2. a connected controller-role LinkProtocol (drivers/link_protocol.py: no I/O, no
     thread), whose deliveries go through every serial driver's translation
     (SerialDevice._on_message) as the real drivers would take them.

Counted: crashes (any exception out of the codec, the protocol or a driver; must be 0),
hangs (a feed that leaves bytes pending after expire(), or one call slower than 1 s; must
be 0), every rejection by reason, deliveries, bad_events. The last line compares the
campaign's rate with a reference measured in the same run: json.loads of the same corpus
payloads, the least a decoder of JSON frames must spend.
"""
import argparse
import json
import os
import random
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from drivers.codec import MAX_FRAME, Codec, MsgType, crc16_ccitt_false  # noqa: E402
from drivers.devices import SERIAL  # noqa: E402
from drivers.link_protocol import Deliver, LinkProtocol, Message, Reject  # noqa: E402

MS = 1_000_000
HELLO = {"proto": 2, "protocol": "tablectl-serial", "role": "device", "device": "shuffler",
         "id": "SH-1", "boot": 7}
EVENTS = [
    {"kind": "card", "card": "As"}, {"kind": "stack", "cards": ["As", "Kd", "7h"]},
    {"kind": "jam"}, {"kind": "empty"}, {"kind": "fault", "reason": "jam"},
    {"kind": "fault_cleared"}, {"kind": "selftest", "ok": True, "detail": "ok"},
    {"kind": "status", "state": "ready"}, {"kind": "shuffle_started"},
    {"kind": "shuffle_completed", "cards": 52}, {"kind": "card_count", "count": 52,
                                                 "expected": 52},
    {"kind": "stopped", "reason": "door open"}, {"kind": "jam", "where": "elevator"},
    {"kind": "hole_card", "inserted": True}, {"kind": "reader", "blackjack": False},
    {"kind": "dice", "dice": [3, 5]}, {"kind": "die_out"}, {"kind": "not_flat", "die": 2},
    {"kind": "decision", "seat": 3, "action": "hit"},
    {"kind": "wager", "seat": 3, "wager": "ante", "amount": 500}, {"kind": "no_more_bets"},
    {"kind": "count", "what": "decks", "count": 6},
    {"kind": "irregularity", "irregularity": "exposed_card", "seat": 2},
    {"kind": "shuffle"}, {"kind": "approval", "role": "floor", "what": "clear", "badge": "F1"},
    {"kind": "shake"}, {"kind": "dealer_setting", "low": "7c"},
    {"kind": "showing", "meter": "progressive", "cents": 600020},
]
HOSTILE = [
    b'{"kind":"card_count","count":1e999}', b'{"kind":"card_count","count":NaN}',
    b'{"kind":"shuffle_completed","cards":Infinity}', b'{"kind":"card_count","count":-1e400}',
    b'{"kind":"card_count","count":9007199254740993}', b'{"kind":"fault","reason":"\\ud800"}',
    b'{"kind":"fault","reason":"\\udfff\\ud800"}', b'{"kind":"fault","reason":"\xed\xa0\x80"}',
    b'{"kind":"fault","kind":"jam"}', b'{"kind":"x","a":[[[[[[[[[[1]]]]]]]]]]}',
    b'{"kind":"fault","reason":"\\u001b[2J\\u001b]0;x\\u0007"}', b'{"kind":"card","card":7}',
    b'{"kind":"stack","cards":"AsKd"}', b'{"kind":"stack","cards":[]}',
    b'{"kind":"dice","dice":[3.5,2]}', b'{"kind":"wager","seat":3,"wager":"a","amount":-1}',
    b'{"kind":"wager","seat":1e3,"wager":"a","amount":5}', b'{"kind":"selftest","ok":"yes"}',
    b'{"kind":"status","state":{"a":[1]}}', b'{"kind":"showing","meter":[],"cents":1}',
    b'{"kind":"decision","seat":3,"action":"hit","amount":1e30}', b'\xff\xfe{"kind":"x"}',
    b'{"kind":"card","card":"As"} trailing', b'[]', b'"kind"', b'{"kind":null}',
    b'{"kind":"approval","role":["floor"]}', b'{"kind":"dealer_setting","low":{"a":1}}',
    b'{"kind":"count","what":"decks","count":true}', b'{"kind":"not_flat","die":99}',
]


def frame(type_byte, seq, body):
    inner = bytes((len(body) & 0xFF, seq & 0xFF, type_byte & 0xFF)) + body
    return b"\x7e" + inner + crc16_ccitt_false(inner).to_bytes(2, "big")


def corpus():
    codec = Codec()
    good = [codec.encode(MsgType.ACK, 1), codec.encode(MsgType.HEARTBEAT, 0),
            codec.encode(MsgType.HELLO, 0, HELLO),
            codec.encode(MsgType.COMMAND, 1, {"cmd": "selftest"})]
    good += [codec.encode(MsgType.EVENT, 1 + i % 255, e) for i, e in enumerate(EVENTS)]
    hostile = [frame(MsgType.EVENT, 1, body) for body in HOSTILE if len(body) <= 200]
    return good, hostile


def recrc(raw):
    if len(raw) >= 6 and raw[0] == 0x7E:
        body = raw[1:-2]
        return raw[:1] + body + crc16_ccitt_false(body).to_bytes(2, "big")
    return raw


def mutate(rng, raw, pool):
    raw = bytearray(raw)
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        op = rng.randrange(9)
        if op == 0 and raw:
            i = rng.randrange(len(raw))
            raw[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            raw.insert(rng.randrange(len(raw) + 1), rng.randrange(256))
        elif op == 2 and raw:
            del raw[rng.randrange(len(raw))]
        elif op == 3:
            raw.insert(rng.randrange(len(raw) + 1), 0x7E)
        elif op == 4 and len(raw) > 1:
            raw[1] = rng.randrange(256)                          # LEN
        elif op == 5 and len(raw) > 2:
            raw[2] = rng.randrange(256)                          # SEQ
        elif op == 6 and len(raw) > 3:
            raw[3] = rng.choice((1, 2, 3, 0x10, 0x11, rng.randrange(256)))   # TYPE
        elif op == 7:
            raw = raw[:rng.randrange(len(raw) + 1)]
        elif op == 8:
            other = rng.choice(pool)
            cut = rng.randrange(len(other) + 1)
            raw = raw[:rng.randrange(len(raw) + 1)] + other[cut:]
    raw = bytes(raw)
    return recrc(raw) if rng.random() < 0.5 else raw


class _NoPort:
    """What a driver's constructor needs to exist without a link (translation only)."""


def drivers():
    made = []
    for kind, cls in SERIAL.items():
        if kind == "shoe":
            continue
        driver = cls(kind, port=_NoPort(), reject_interval_ms=0)
        driver.sink = lambda event: None
        made.append(driver)
    return made


def run(frames, seed):
    rng = random.Random(seed)
    good, hostile = corpus()
    pool = good + hostile
    analyser = Codec(sequenced=False)
    link = LinkProtocol({"device": "controller", "id": "fuzz"}, boot_id=1, now=0,
                        babble_limit=10 ** 9)
    now = 0
    link.begin_handshake(now)
    link.receive(Codec().encode(MsgType.ACK, 0) + Codec().encode(MsgType.HELLO, 0, HELLO), now)
    assert link.connected
    devs = drivers()
    rejected = Counter()
    for d in devs:
        d.on_rejected = lambda name, reason, raw, count=1: rejected.update({reason: count})
    stats = Counter()
    reasons, link_reasons = Counter(), Counter()
    slowest = 0.0
    start = time.perf_counter()
    sent = 0
    while sent < frames:
        batch = []
        for _ in range(rng.randrange(1, 8)):
            base = rng.choice(pool)
            batch.append(base if rng.random() < 0.15 else mutate(rng, base, pool))
            if rng.random() < 0.05:
                batch.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))))
        sent += len(batch)
        stream = b"".join(batch)
        pos = 0
        while pos < len(stream):
            size = rng.randrange(1, 300)
            chunk = stream[pos:pos + size]
            pos += size
            now += rng.randrange(0, 3 * MS)
            t0 = time.perf_counter()
            try:
                for item in analyser.feed(chunk):
                    if hasattr(item, "reason"):
                        reasons[item.reason] += 1
                    elif item.type is MsgType.EVENT:      # every intact EVENT, any SEQ
                        stats["translated"] += 1
                        message = Message(item.type, item.payload, item.seq, now)
                        for d in devs:
                            d._on_message(message)
                actions = link.receive(chunk, now) + link.poll(now)
                for action in actions:
                    if type(action) is Reject:
                        link_reasons[action.reason] += 1
                    elif type(action) is Deliver:
                        stats["delivered"] += 1
                        for d in devs:
                            d._on_message(action.message)
            except Exception as exc:                  # noqa: BLE001 - the figure is the count
                stats["crashes"] += 1
                if stats["crashes"] <= 3:
                    print("CRASH %r on %s" % (exc, chunk.hex()))
            slowest = max(slowest, time.perf_counter() - t0)
        if rng.random() < 0.02:                       # the line goes quiet
            now += 150 * MS
            try:
                for item in analyser.expire():
                    if hasattr(item, "reason"):
                        reasons[item.reason] += 1
                for action in link.poll(now):
                    if type(action) is Reject:
                        link_reasons[action.reason] += 1
            except Exception as exc:                  # noqa: BLE001
                stats["crashes"] += 1
                print("CRASH in expire: %r" % exc)
            if analyser.pending or link.codec.pending:
                stats["hangs"] += 1
        if not link.connected:                        # a mutated HELLO refused: connect again
            link.receive(Codec().encode(MsgType.HELLO, 0, HELLO), now)
            link.receive(Codec().encode(MsgType.ACK, 0), now)
            if not link.connected:
                for action in link.begin_handshake(now):
                    pass
                link.receive(Codec().encode(MsgType.ACK, 0), now)
            stats["reconnects"] += 1
    elapsed = time.perf_counter() - start
    stats["translate_errors"] = sum(d.counters["translate_errors"] for d in devs)
    if slowest > 1.0:
        stats["hangs"] += 1
    return sent, elapsed, slowest, stats, reasons, link_reasons, rejected, pool


def reference(pool, n):
    """json.loads of the corpus payloads, n times in all."""
    bodies = [raw[4:-2] for raw in pool if len(raw) > 6]
    start = time.perf_counter()
    for i in range(n):
        try:
            json.loads(bodies[i % len(bodies)])
        except ValueError:
            pass
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    sent, elapsed, slowest, stats, reasons, link_reasons, rejected, pool = run(args.frames,
                                                                               args.seed)
    ref = reference(pool, sent)
    print("frames: %d in %.1f s (%.0f frames/s), slowest call %.2f ms, max frame %d bytes"
          % (sent, elapsed, sent / elapsed, slowest * 1000, MAX_FRAME))
    print("crashes: %d  hangs: %d  delivered: %d  translated: %d  reconnects: %d  "
          "translation errors caught: %d"
          % (stats["crashes"], stats["hangs"], stats["delivered"], stats["translated"],
             stats["reconnects"], stats["translate_errors"]))
    print("codec (analyser) rejections: %s" % json.dumps(dict(sorted(reasons.items()))))
    print("link rejections: %s" % json.dumps(dict(sorted(link_reasons.items()))))
    print("driver rejections: %s" % json.dumps(dict(sorted(rejected.items()))))
    if stats["crashes"] or stats["hangs"] or stats["translate_errors"]:
        print("FAILED: crashes or hangs")
        sys.exit(1)
    print("ratio vs json.loads of the same payloads: %.1f" % (elapsed / ref))


if __name__ == "__main__":
    main()
