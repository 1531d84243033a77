"""The documented serial codec: CRC, framing, and a decoder that never raises."""
import random
from pathlib import Path

import pytest

from controller.errors import TablectlError
from drivers.codec import (BAD_CRC, BAD_LENGTH, BAD_PAYLOAD, DUPLICATE, JUNK, MAX_FRAME,
                           MAX_PAYLOAD, OUT_OF_SEQUENCE, SOF, TRUNCATED, UNKNOWN_TYPE, Codec,
                           Frame, MsgType, Rejected, crc16_ccitt_false, next_seq)
from drivers.errors import FrameError, ProtocolError

HELLO = {"proto": 1, "device": "shuffler", "id": "SH-1", "boot": 7}
CARDS = ["As", "Kd", "Th", "2c", "9s", "Qh", "Jc", "5d"]


def enc(msg_type, seq, payload=None):
    return Codec().encode(msg_type, seq, payload)


def hello():
    return enc(MsgType.HELLO, 0, HELLO)


def event(seq, **payload):
    return enc(MsgType.EVENT, seq, payload or {"kind": "card", "card": CARDS[seq % len(CARDS)]})


def decode(stream, chunks=None):
    codec = Codec()
    out = []
    if chunks is None:
        out += codec.feed(stream)
    else:
        pos = 0
        for size in chunks:
            out += codec.feed(stream[pos:pos + size])
            pos += size
        out += codec.feed(stream[pos:])
    return codec, out


def frames(items):
    return [i for i in items if isinstance(i, Frame)]


def rejected(items):
    return [i for i in items if isinstance(i, Rejected)]


# -- CRC ---------------------------------------------------------------------

def test_crc_check_values_of_ccitt_false():
    assert crc16_ccitt_false(b"123456789") == 0x29B1
    assert crc16_ccitt_false(b"") == 0xFFFF
    assert crc16_ccitt_false(b"A") == 0xB915


def crc_bitwise(data):
    """The textbook CRC-16/CCITT-FALSE, one bit at a time."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def test_crc_agrees_with_a_bitwise_reference_on_random_data():
    rng = random.Random(1234)
    for _ in range(200):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        assert crc16_ccitt_false(data) == crc_bitwise(data)
    assert crc_bitwise(b"123456789") == 0x29B1


def test_crc_is_over_len_to_payload_big_endian():
    raw = event(1)
    assert raw[0] == SOF
    assert int.from_bytes(raw[-2:], "big") == crc16_ccitt_false(raw[1:-2])


# -- encoding ----------------------------------------------------------------

def test_worked_example_of_the_docs():
    raw = event(1, kind="card", card="As")
    assert raw.hex(" ") == ("7e 1b 01 10 7b 22 63 61 72 64 22 3a 22 41 73 22 2c 22 6b 69 6e 64"
                            " 22 3a 22 63 61 72 64 22 7d 10 f6")
    assert raw[4:-2] == b'{"card":"As","kind":"card"}'
    assert enc(MsgType.ACK, 1).hex(" ") == "7e 00 01 02 df ef"
    assert enc(MsgType.HEARTBEAT, 0).hex(" ") == "7e 00 00 03 fc ff"


def test_the_docs_show_the_bytes_the_codec_sends():
    docs = (Path(__file__).parents[2] / "docs" / "protocols.md").read_text()
    for raw in (event(1, kind="card", card="As"), enc(MsgType.ACK, 1),
                enc(MsgType.HEARTBEAT, 0), enc(MsgType.COMMAND, 1, {"cmd": "shuffle"})):
        assert raw.hex(" ") in docs
    assert "%04X" % crc16_ccitt_false(event(1, kind="card", card="As")[1:-2]) in docs
    assert enc(MsgType.EVENT, 2, {"kind": "note", "text": "a~b"})[4:-2].decode() in docs


@pytest.mark.parametrize("msg_type,seq,payload", [
    (MsgType.HELLO, 0, HELLO),
    (MsgType.ACK, 17, None),
    (MsgType.HEARTBEAT, 0, None),
    (MsgType.EVENT, 1, {"kind": "fault", "reason": "jam"}),
    (MsgType.COMMAND, 1, {"cmd": "selftest"}),
])
def test_round_trip_of_every_type(msg_type, seq, payload):
    stream = (hello() if msg_type is not MsgType.HELLO else b"") + enc(msg_type, seq, payload)
    codec, out = decode(stream)
    assert not rejected(out)
    got = frames(out)[-1]
    assert (got.seq, got.type, got.payload) == (seq, msg_type, payload or {})


def test_payload_never_contains_the_start_byte():
    payload = {"kind": "irregularity", "note": "~tilde~ and ünïcödé ♠"}
    raw = event(1, **payload)
    assert SOF not in raw[4:-2]
    _, out = decode(hello() + raw)
    assert frames(out)[-1].payload == payload


@pytest.mark.parametrize("args", [
    (MsgType.EVENT, 1, {"kind": "stack", "cards": ["As"] * 60}),    # too long
    (MsgType.EVENT, 1, {"card": "As"}),                              # no kind
    (MsgType.COMMAND, 1, {"kind": "x"}),                             # no cmd
    (MsgType.HELLO, 3, HELLO),                                       # HELLO not seq 0
    (MsgType.EVENT, 0, {"kind": "card"}),                            # seq 0 is HELLO's
    (MsgType.ACK, 1, {"x": 1}),                                      # ACK has no payload
    (0x42, 1, None),                                                 # unknown type
    (MsgType.ACK, 256, None),                                        # seq out of range
])
def test_encode_refuses_what_the_format_cannot_carry(args):
    with pytest.raises(FrameError) as err:
        Codec().encode(*args)
    assert isinstance(err.value, ProtocolError) and isinstance(err.value, TablectlError)


def test_sequence_wraps_past_zero():
    assert next_seq(0) == 1 and next_seq(254) == 255 and next_seq(255) == 1
    seq, stream = 0, hello()
    for _ in range(600):
        seq = next_seq(seq)
        stream += event(seq)
    codec, out = decode(stream)
    assert len(frames(out)) == 601 and not codec.counts


# -- chunking ----------------------------------------------------------------

def test_every_split_of_a_stream_decodes_the_same():
    stream = hello() + event(1) + b"\x00\x13" + event(2)
    _, whole = decode(stream)
    assert len(frames(whole)) == 3
    n = len(stream)
    for i in range(n + 1):
        for j in range(i, n + 1):
            _, out = decode(stream, [i, j - i])
            assert out == whole, (i, j)


def test_byte_by_byte_decodes_the_same():
    stream = hello() + b"noise" + event(1) + event(1) + event(2)[:-1] + b"\xff" + event(2)
    codec_whole, whole = decode(stream)
    codec_bytes, by_byte = decode(stream, [1] * len(stream))
    assert by_byte == whole and codec_bytes.counts == codec_whole.counts


def test_random_chunkings_decode_the_same():
    rng = random.Random(42)
    stream, _ = noisy_stream(rng, 80)
    _, whole = decode(stream)
    for _ in range(40):
        chunks = [rng.randrange(1, 40) for _ in range(len(stream))]
        _, out = decode(stream, chunks)
        assert out == whole


# -- rejections, each counted by reason ---------------------------------------

def test_junk_between_frames_is_one_rejection_per_run():
    codec, out = decode(b"\x01\x02" + hello() + b"garbage" + event(1) + b"\xaa" * 3 + event(2))
    assert [f.seq for f in frames(out)] == [0, 1, 2]
    assert [(r.reason, r.raw) for r in rejected(out)] == [
        (JUNK, b"\x01\x02"), (JUNK, b"garbage"), (JUNK, b"\xaa\xaa\xaa")]
    assert codec.counts == {JUNK: 3}


def test_trailing_junk_waits_for_a_start_byte_or_expire():
    codec, out = decode(hello() + b"tail")
    assert len(out) == 1 and codec.counts == {}
    assert [(r.reason, r.raw) for r in codec.expire()] == [(JUNK, b"tail")]


def test_endless_noise_is_still_counted():
    codec, out = decode(b"\x00" * (3 * MAX_FRAME))
    assert codec.counts == {JUNK: 3} and len(out) == 3


def test_bad_crc_is_counted_and_the_retransmission_decodes():
    bad = bytearray(event(2))
    bad[6] ^= 0x20
    codec, out = decode(hello() + event(1) + bytes(bad) + event(2) + event(3))
    assert [f.seq for f in frames(out)] == [0, 1, 2, 3]
    assert codec.counts == {BAD_CRC: 1}
    assert rejected(out)[0].raw == bytes(bad)


def test_bad_crc_in_the_checksum_bytes():
    bad = bytearray(event(1))
    bad[-1] ^= 0xFF
    codec, out = decode(hello() + bytes(bad) + event(1))
    assert codec.counts == {BAD_CRC: 1} and [f.seq for f in frames(out)] == [0, 1]


def test_truncated_frame_followed_by_a_frame():
    codec, out = decode(hello() + event(1)[:9] + event(1) + event(2))
    assert [f.seq for f in frames(out)] == [0, 1, 2]
    assert codec.counts == {TRUNCATED: 1}
    assert rejected(out)[0].raw == event(1)[:9]


def test_truncated_frame_at_the_end_expires():
    codec, out = decode(hello() + event(1)[:9])
    assert len(out) == 1 and codec.pending == 9
    assert [r.reason for r in codec.expire()] == [TRUNCATED]
    assert codec.pending == 0 and codec.counts == {TRUNCATED: 1}


def test_oversize_length_is_rejected_at_the_header():
    oversize = bytes([SOF, MAX_PAYLOAD + 1, 1, MsgType.EVENT])
    codec, out = decode(hello() + oversize + event(1))
    assert [f.seq for f in frames(out)] == [0, 1]
    assert codec.counts == {BAD_LENGTH: 1}
    assert rejected(out)[0].raw == oversize


def test_expire_delivers_frames_held_behind_a_false_start():
    false_start = bytes([SOF, 150, 1, MsgType.EVENT])      # 150 bytes that never come
    codec, out = decode(hello() + false_start + event(1))
    assert len(frames(out)) == 1
    late = codec.expire()
    assert [type(i).__name__ for i in late] == ["Rejected", "Frame"]
    assert late[0].reason == TRUNCATED and late[0].raw == false_start
    assert late[1].seq == 1 and codec.pending == 0


def test_oversize_length_does_not_stall_the_decoder():
    codec, out = decode(bytes([SOF, 0xFF]) + hello())
    assert codec.counts == {BAD_LENGTH: 1} and len(frames(out)) == 1


def test_duplicate_and_out_of_sequence():
    codec, out = decode(hello() + event(1) + event(1) + event(3) + event(2))
    assert [f.seq for f in frames(out)] == [0, 1, 2]
    assert [(r.reason, r.seq) for r in rejected(out)] == [(DUPLICATE, 1), (OUT_OF_SEQUENCE, 3)]
    assert codec.counts == {DUPLICATE: 1, OUT_OF_SEQUENCE: 1}


def test_data_before_hello_is_out_of_sequence_and_hello_restarts():
    codec, out = decode(event(1) + hello() + event(1) + event(2) + hello() + event(1))
    assert [(type(i).__name__, i.seq) for i in out] == [
        ("Rejected", 1), ("Frame", 0), ("Frame", 1), ("Frame", 2), ("Frame", 0), ("Frame", 1)]
    assert codec.counts == {OUT_OF_SEQUENCE: 1}


def test_unsequenced_frames_pass_any_time():
    codec, out = decode(enc(MsgType.ACK, 9) + enc(MsgType.HEARTBEAT, 0) * 2)
    assert [f.type for f in frames(out)] == [MsgType.ACK, MsgType.HEARTBEAT, MsgType.HEARTBEAT]


def _frame(seq, type_byte, body):
    from drivers.codec import crc16_ccitt_false as crc
    inner = bytes([len(body), seq, type_byte]) + body
    return bytes([SOF]) + inner + crc(inner).to_bytes(2, "big")


@pytest.mark.parametrize("raw,reason", [
    (_frame(1, 0x55, b""), UNKNOWN_TYPE),
    (_frame(1, MsgType.EVENT, b"not json"), BAD_PAYLOAD),
    (_frame(1, MsgType.EVENT, b"[1, 2]"), BAD_PAYLOAD),
    (_frame(1, MsgType.EVENT, b'{"card": "As"}'), BAD_PAYLOAD),
    (_frame(1, MsgType.EVENT, b"\xff\xfe"), BAD_PAYLOAD),
    (_frame(1, MsgType.EVENT, b""), BAD_PAYLOAD),
    (_frame(1, MsgType.ACK, b'{"a": 1}'), BAD_PAYLOAD),
    (_frame(1, MsgType.EVENT, b"[" * 150), BAD_PAYLOAD),
])
def test_intact_frames_with_bad_content(raw, reason):
    codec, out = decode(hello() + raw + event(1))
    assert codec.counts == {reason: 1}
    assert [f.seq for f in frames(out)] == [0, 1]


# -- property-style ----------------------------------------------------------

def noisy_stream(rng, n_events):
    """A stream of n events with every kind of damage, each damaged frame sent again."""
    stream, expected, injected = hello(), [], {}
    seq = 0

    def count(reason):
        injected[reason] = injected.get(reason, 0) + 1

    for _ in range(n_events):
        seq = next_seq(seq)
        payload = {"kind": "card", "card": rng.choice(CARDS), "n": rng.randrange(1000)}
        good = enc(MsgType.EVENT, seq, payload)
        damage = rng.choice(["none", "none", "junk", "crc", "cut", "dup", "oversize"])
        if damage == "junk":
            stream += bytes(rng.choice([b for b in range(256) if b != SOF])
                            for _ in range(rng.randrange(1, 20)))
            count(JUNK)
        elif damage == "crc":
            bad = bytearray(good)
            bad[rng.randrange(1, len(bad))] ^= 1 << rng.randrange(8)
            if bytes(bad) != good and bad[1] == good[1]:   # keep LEN: a pure CRC failure
                stream += bytes(bad)
                count(BAD_CRC)
        elif damage == "cut":
            stream += good[:rng.randrange(4, len(good) - 1)]
            count(TRUNCATED)
        elif damage == "oversize":
            stream += bytes([SOF, rng.randrange(MAX_PAYLOAD + 1, 256), seq, MsgType.EVENT])
            count(BAD_LENGTH)
        stream += good
        if damage == "dup":
            stream += good
            count(DUPLICATE)
        expected.append(payload)
    return stream, (expected, injected)


def test_noisy_streams_decode_every_event_once_and_count_every_injury():
    rng = random.Random(2024)
    for _ in range(100):
        stream, (expected, injected) = noisy_stream(rng, 40)
        codec, out = decode(stream, [rng.randrange(1, 64) for _ in range(len(stream))])
        out += codec.expire()                   # the line goes quiet after the stream
        assert [f.payload for f in frames(out)][1:] == expected
        assert dict(codec.counts) == injected
        assert sum(codec.counts.values()) == len(rejected(out))


def test_random_bytes_never_raise():
    rng = random.Random(7)
    codec = Codec()
    for _ in range(300):
        chunk = bytes(rng.choice([SOF, rng.randrange(256)]) for _ in range(rng.randrange(1, 300)))
        out = codec.feed(chunk)
        assert all(isinstance(i, (Frame, Rejected)) for i in out)
    codec.expire()
    assert codec.pending == 0
    assert codec.feed(hello() + event(1))[-1].seq == 1


# -- strict JSON (docs/protocols.md section 2, v2) -------------------------------------

def _event_frame(body):
    inner = bytes((len(body), 1, MsgType.EVENT)) + body
    return bytes((SOF,)) + inner + crc16_ccitt_false(inner).to_bytes(2, "big")


@pytest.mark.parametrize("body", [
    b'{"kind":"card_count","count":NaN}',
    b'{"kind":"card_count","count":Infinity}',
    b'{"kind":"card_count","count":-Infinity}',
    b'{"kind":"card_count","count":1e999}',
    b'{"kind":"card_count","count":9007199254740992}',          # 2^53
    b'{"kind":"card_count","count":' + b"9" * 120 + b"}",
    b'{"kind":"fault","reason":"\\ud800"}',                     # a lone surrogate, escaped
    b'{"kind":"fault","reason":"\\udc00x"}',
    b'{"kind":"fault","reason":"\xed\xa0\x80"}',                 # a surrogate, UTF-8 encoded
    b'{"kind":"fault","kind":"jam"}',                           # a key twice
    b'{"kind":"x","a":[[[[1]]]]}',                              # nesting 5
    b'{"kind":"Card"}', b'{"kind":""}', b'{"kind":7}', b'{"kind":"a b"}',
    b'{"kind":"x"} {}', b'[{"kind":"x"}]', b'{"kind":"x",}',
])
def test_a_payload_that_is_not_strict_json_is_bad_payload(body):
    codec = Codec()
    codec.feed(hello())
    items = codec.feed(_event_frame(body))
    assert [getattr(i, "reason", "frame") for i in items] == [BAD_PAYLOAD]


@pytest.mark.parametrize("body", [
    b'{"kind":"x","a":[[[1]]]}',                                # nesting 4
    b'{"kind":"fault","reason":"\\ud83d\\ude00"}',              # a surrogate pair: one char
    b'{"kind":"card_count","count":9007199254740991}',          # 2^53 - 1
    b'{ "kind" : "x" , "v" : -1.5e3 }',
])
def test_strict_json_still_takes_what_rfc_8259_allows(body):
    codec = Codec()
    codec.feed(hello())
    assert [type(i).__name__ for i in codec.feed(_event_frame(body))] == ["Frame"]


def test_the_encoder_refuses_what_the_decoder_would_reject():
    for payload in ({"kind": "x", "v": float("nan")}, {"kind": "x", "v": "\ud800"},
                    {"kind": "x", "v": 2 ** 60}, {"kind": "Bad"}):
        with pytest.raises(FrameError):
            enc(MsgType.EVENT, 1, payload)


def _tricky_payloads(rng, n):
    """Payloads of every shape the encoder's quick check (_strict_as_sent) answers or
    leaves to the parse: keys not strings (two that encode alike), integers about
    +-MAX_INT, bools, floats, None, tuples, nesting 1 to 6, strings with '~' and
    surrogate pairs."""
    leaves = [0, 1, -1, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, -(2 ** 53), 10 ** 17, True,
              False, None, 1.5, -0.0, 1e300, "", "a~b", "\U0001f600", "x" * 20]
    keys = ["k", "1", 1, True, "true", None, "null", 2.5, "2.5"]

    def value(depth):
        roll = rng.random()
        if depth < 6 and roll < 0.25:
            return {rng.choice(keys): value(depth + 1) for _ in range(rng.randrange(3))}
        if depth < 6 and roll < 0.4:
            return (list if rng.random() < 0.5 else tuple)(
                value(depth + 1) for _ in range(rng.randrange(3)))
        return rng.choice(leaves)
    for _ in range(n):
        payload = {"kind": "x"}
        for _ in range(rng.randrange(4)):
            payload[rng.choice(keys)] = value(2)
        yield payload


def test_the_encoders_quick_check_never_passes_what_the_decoder_rejects():
    """Codec.body checks a payload by walking it, and parses the bytes (strict_json, what
    the far end's decoder runs) only when the walk is unsure: the walk must never pass a
    payload the parse refuses, and the frames must be the ones the parse-checked encoder
    made (byte for byte, found by the decoder)."""
    from drivers.codec import _strict_as_sent, encode_payload, strict_json
    rng = random.Random(33)
    quick = parsed = refused = 0
    for payload in _tricky_payloads(rng, 3000):
        try:
            body = encode_payload(payload)
        except (TypeError, ValueError):
            continue
        verdict = strict_json(body) is not None
        if _strict_as_sent(payload, 1):
            quick += 1
            assert verdict, payload
        else:
            parsed += 1
        try:
            raw = enc(MsgType.EVENT, 1, payload)
        except FrameError:
            refused += 1
            assert not verdict or len(body) > MAX_PAYLOAD, payload
            continue
        assert verdict, payload
        codec = Codec()
        codec.feed(hello())
        got = codec.feed(raw)
        assert [type(i).__name__ for i in got] == ["Frame"] and got[0].raw == raw
    assert quick > 500 and parsed > 100 and refused > 50     # every branch was taken


def test_an_ack_or_heartbeat_frame_is_the_same_bytes_from_the_frame_cache():
    for msg_type in (MsgType.ACK, MsgType.HEARTBEAT):
        for seq in (0, 1, 254, 255) if msg_type is MsgType.ACK else (0,):
            inner = bytes((0, seq, msg_type))
            want = bytes((SOF,)) + inner + crc16_ccitt_false(inner).to_bytes(2, "big")
            assert enc(msg_type, seq) == want
            assert enc(msg_type, seq) == want           # the cached one
