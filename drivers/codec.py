"""The project's documented serial codec (tablectl-serial v2), see docs/protocols.md.

Vendor protocols are not public, so every serial driver has a codec and this
is the one the project documents and the simulator speaks. Framing follows the
spirit of Klipper's: a length, a sequence number and a CRC per frame, a
decoder that resynchronises on its own. Frame (all integers big-endian):

    0x7E | LEN | SEQ | TYPE | PAYLOAD (LEN bytes) | CRC16 (2 bytes)

The CRC is CRC-16/CCITT-FALSE over LEN..PAYLOAD. The payload is a UTF-8 JSON
object with '~' escaped, so 0x7E never occurs inside it. The decoder takes
bytes in any chunking and never raises: it returns the frames it accepts and
a Rejected record (counted by reason) for everything it throws away.

"Valid JSON" is strict here (docs/protocols.md section 2): a payload that Python's
json module would take but another end might read differently -- NaN, Infinity,
1e999, a lone surrogate, a duplicate key, an integer beyond 2^53, deep nesting --
is `bad_payload`, so nothing a device sends can reach a driver as a value that
raises later (an OverflowError in int(), a UnicodeEncodeError in the journal).
"""

import binascii
import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from enum import IntEnum

from drivers.errors import FrameError

PROTOCOL_NAME = "tablectl-serial"
PROTOCOL_VERSION = 2      # docs/protocols.md section 13 says what each version changed

SOF = 0x7E
HEADER_LEN = 4           # SOF, LEN, SEQ, TYPE
CRC_LEN = 2
MAX_PAYLOAD = 200        # bounds how long a false start byte can stall the decoder
MAX_FRAME = HEADER_LEN + MAX_PAYLOAD + CRC_LEN
HELLO_SEQ = 0            # seq 0 belongs to HELLO; data frames count 1..255, 1..
MAX_DEPTH = 4            # nesting of arrays/objects, the payload object itself being 1
MAX_INT = 2 ** 53 - 1    # integers every JSON reader holds exactly (RFC 8259 section 6)
NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,31}\Z")   # what `kind` and `cmd` look like


class MsgType(IntEnum):
    HELLO = 0x01       # handshake; sequenced (always seq 0), acked
    ACK = 0x02         # SEQ = the sequence number acknowledged; no payload
    HEARTBEAT = 0x03   # liveness; SEQ 0; no payload; not acked
    EVENT = 0x10       # device -> controller: {"kind": ...}; sequenced, acked
    COMMAND = 0x11     # controller -> device: {"cmd": ...}; sequenced, acked


SEQUENCED = frozenset({MsgType.HELLO, MsgType.EVENT, MsgType.COMMAND})
# The key a payload of each type must carry (None: payload must be empty).
REQUIRED_KEY = {MsgType.HELLO: "proto", MsgType.EVENT: "kind", MsgType.COMMAND: "cmd",
                MsgType.ACK: None, MsgType.HEARTBEAT: None}

# Why a decoder threw bytes away; every one is counted.
JUNK = "junk"                        # bytes outside any frame (one per run)
BAD_LENGTH = "bad_length"            # LEN above MAX_PAYLOAD
BAD_CRC = "bad_crc"                  # CRC does not match
TRUNCATED = "truncated"              # a frame cut short by the next frame, or by silence
UNKNOWN_TYPE = "unknown_type"        # good CRC, TYPE not in MsgType
BAD_PAYLOAD = "bad_payload"          # good CRC, payload not the JSON object the type needs
DUPLICATE = "duplicate"              # the sequence number just accepted, again
OUT_OF_SEQUENCE = "out_of_sequence"  # any other unexpected sequence number
WRONG_DIRECTION = "wrong_direction"  # an EVENT sent to a device, a COMMAND to the controller
REASONS = (JUNK, BAD_LENGTH, BAD_CRC, TRUNCATED, UNKNOWN_TYPE, BAD_PAYLOAD, WRONG_DIRECTION,
           DUPLICATE, OUT_OF_SEQUENCE)


def crc16_ccitt_false(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor.

    binascii.crc_hqx is exactly this polynomial and bit order, in C; the tests
    check it against a bitwise reference and the catalogue check value 0x29B1.
    """
    return binascii.crc_hqx(data, crc)


def next_seq(seq):
    """The data sequence number after `seq`: 1..255 then 1 again (0 is HELLO's)."""
    return seq % 255 + 1


class _NotStrict(ValueError):
    """A payload json.loads would take but the protocol does not."""


def _no_constant(name):
    raise _NotStrict("%s is not JSON" % name)


def _finite(text):
    value = float(text)
    if not math.isfinite(value):
        raise _NotStrict("number %s out of range" % text)
    return value


def _bounded_int(text):
    if len(text) > 17:                    # cheaper than int() on 4,000 digits
        raise _NotStrict("integer %s out of range" % text[:20])
    value = int(text)
    if abs(value) > MAX_INT:
        raise _NotStrict("integer %s out of range" % text)
    return value


def _no_duplicates(pairs):
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _NotStrict("duplicate key")
    return obj


# a surrogate code point in a decoded string is a lone one (a JSON pair decodes to one
# character): searched in C, not a generator over the characters (every string of every frame)
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _check_value(value, depth):
    """Bounded nesting, and no string (key or value) holding a lone surrogate."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise _NotStrict("lone surrogate")
    elif isinstance(value, (dict, list)):
        if depth > MAX_DEPTH:
            raise _NotStrict("nested deeper than %d" % MAX_DEPTH)
        items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
        for key, item in items:
            if key is not None:
                _check_value(key, depth)
            _check_value(item, depth + 1)


def strict_json(body):
    """The JSON object in `body` (bytes), or None unless it is strict UTF-8 JSON: no NaN or
    Infinity, every number finite, integers within +-(2^53 - 1), no lone surrogates, no
    duplicate keys, nesting at most MAX_DEPTH. Never raises."""
    try:
        value = json.loads(body.decode("utf-8"), parse_constant=_no_constant,
                           parse_float=_finite, parse_int=_bounded_int,
                           object_pairs_hook=_no_duplicates)
        if not isinstance(value, dict):
            return None
        _check_value(value, 1)
    except (UnicodeDecodeError, ValueError, RecursionError, TypeError):
        return None
    return value


def payload_problem(msg_type, payload):
    """Why `payload` (a dict) cannot be the payload of `msg_type`, or None."""
    key = REQUIRED_KEY[msg_type]
    if key is None:
        return "%s carries no payload" % msg_type.name if payload else None
    if key not in payload:
        return "%s payload needs %r" % (msg_type.name, key)
    value = payload[key]
    if key == "proto":
        if type(value) is not int or not 1 <= value <= 255:
            return "proto must be an integer 1..255"
    elif not isinstance(value, str) or not NAME_RE.match(value):
        return "%s must be a name of lowercase letters, digits and _ (1..32)" % key
    return None


def encode_payload(payload):
    """Compact, key-sorted UTF-8 JSON with '~' escaped; an empty dict is no bytes."""
    if not payload:
        return b""
    text = json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=False,
                      allow_nan=False)
    return text.replace("~", "\\u007e").encode("utf-8")


def _frame(msg_type, seq, body):
    frame = bytes((len(body), seq, msg_type)) + body
    return bytes((SOF,)) + frame + crc16_ccitt_false(frame).to_bytes(2, "big")


_EMPTY_FRAMES = {}      # (type, seq) -> the frame of an ACK or a heartbeat: 2 x 256 at most


def _strict_as_sent(value, depth):
    """True when `value`, encoded by encode_payload (which already refused NaN, Infinity
    and lone surrogates), is certainly what strict_json accepts: string keys (so no two
    can encode alike), integers within +-MAX_INT, nesting at most MAX_DEPTH, plain JSON
    types. False when unsure: the caller then parses the bytes (strict_json), the
    reference this is tested against (tests/drivers: the encoder's check)."""
    t = type(value)
    if t is str or t is bool or t is float or value is None:
        return True
    if t is int:
        return -MAX_INT <= value <= MAX_INT
    if t is dict:
        if depth > MAX_DEPTH:
            return False
        for key, item in value.items():
            if type(key) is not str or not _strict_as_sent(item, depth + 1):
                return False
        return True
    if t is list or t is tuple:
        if depth > MAX_DEPTH:
            return False
        for item in value:
            if not _strict_as_sent(item, depth + 1):
                return False
        return True
    return False


@dataclass(frozen=True)
class Frame:
    """A frame the decoder accepted."""
    seq: int
    type: MsgType
    payload: dict
    raw: bytes = field(repr=False)


@dataclass(frozen=True)
class Rejected:
    """Bytes the decoder threw away, and why. seq/type are set when the frame was intact."""
    reason: str
    raw: bytes
    seq: int = None
    type: int = None


class Codec:
    """Encoder and incremental decoder of tablectl-serial frames for one link end.

    The decoder keeps the inbound sequence state: a HELLO (seq 0) starts a
    session, after which each sequenced frame must carry the next number.
    `sequenced=False` skips that check, for a protocol analyser on the line.
    `receives` (EVENT for the controller, COMMAND for a device) rejects the
    other data type as `wrong_direction`; None takes both.
    """

    name = PROTOCOL_NAME
    version = PROTOCOL_VERSION

    def __init__(self, sequenced=True, receives=None):
        self.sequenced = sequenced
        self.receives = None if receives is None else MsgType(receives)  # the data type it takes
        self.counts = Counter()      # rejected frames by reason
        self.accepted = 0
        self._buf = bytearray()
        self._pos = 0                # stream offset of _buf[0]
        self._quiet_end = 0          # bytes before this offset were already reported
        self._suspect = None         # (offset, raw, reason) of a frame not yet judged
        self._junk = bytearray()     # junk run not yet reported
        self._expected = None        # next inbound seq; None until a HELLO arrives
        self._last = None            # last accepted inbound seq

    # -- encoding ------------------------------------------------------------

    def encode(self, msg_type, seq, payload=None):
        """One frame as bytes; raises FrameError for what the format cannot carry."""
        msg_type = self.frame_type(msg_type, seq)
        return self.frame(msg_type, seq, self.body(msg_type, payload))

    @staticmethod
    def frame_type(msg_type, seq):
        """`msg_type` as a MsgType, if a frame of it may carry `seq`; FrameError if not."""
        try:
            msg_type = MsgType(msg_type)
        except ValueError:
            raise FrameError("unknown message type %r" % (msg_type,)) from None
        if not 0 <= seq <= 255:
            raise FrameError("sequence number %r outside 0..255" % (seq,))
        if msg_type is MsgType.HELLO and seq != HELLO_SEQ:
            raise FrameError("HELLO must carry seq 0, not %d" % seq)
        if msg_type in (MsgType.EVENT, MsgType.COMMAND) and seq == HELLO_SEQ:
            raise FrameError("seq 0 is reserved for HELLO")
        return msg_type

    @staticmethod
    def body(msg_type, payload):
        """The payload bytes of a `msg_type` frame (a MsgType); FrameError for a payload
        the type or the format cannot carry. LinkProtocol.send keeps them for the frame it
        sends later (frame()), so a message is encoded and checked once."""
        payload = dict(payload or {})
        problem = payload_problem(msg_type, payload)
        if problem:
            raise FrameError("%s: %r" % (problem, payload))
        try:
            body = encode_payload(payload)
        except (TypeError, ValueError) as exc:      # a set, a NaN, a lone surrogate ...
            raise FrameError("payload %r is not strict JSON: %s" % (payload, exc)) from None
        # what the decoder at the other end accepts: the walk answers for the payloads
        # sent every round, the parse for the rest (a key not a string, deep nesting)
        if body and not _strict_as_sent(payload, 1) and strict_json(body) is None:
            raise FrameError("payload %r is not strict JSON (docs/protocols.md section 2)"
                             % (payload,))
        if len(body) > MAX_PAYLOAD:
            raise FrameError("payload of %d bytes exceeds %d: %r"
                             % (len(body), MAX_PAYLOAD, payload))
        return body

    @staticmethod
    def frame(msg_type, seq, body):
        """The frame of a checked `msg_type` (frame_type), `seq` and `body` (body())."""
        if not body:
            raw = _EMPTY_FRAMES.get((msg_type, seq))
            if raw is None:
                raw = _EMPTY_FRAMES[msg_type, seq] = _frame(msg_type, seq, body)
            return raw
        return _frame(msg_type, seq, body)

    # -- decoding ------------------------------------------------------------
    #
    # Positions are absolute stream offsets. Bytes below _quiet_end were
    # already reported inside a rejected frame and are never reported again.
    # A frame failing its CRC is held as the suspect until the scan passes its
    # end: if an intact frame starts inside it, it was TRUNCATED by that
    # frame, otherwise it is BAD_CRC. Every decision waits for the bytes that
    # decide it, so any chunking of a stream gives the same result; a false
    # start byte holds the decoder back for at most MAX_FRAME bytes, or until
    # expire() (the link calls it when the line goes quiet mid-frame).

    @property
    def pending(self):
        """Bytes held back: the rest of a frame awaited, or a junk run not yet reported
        (reported when a start byte follows, at 206 bytes, or by expire())."""
        return len(self._buf) + len(self._junk)

    @property
    def idle(self):
        """Nothing held back: no bytes of a frame awaited, no junk run, no suspect frame."""
        return not self._buf and not self._junk and self._suspect is None

    def fed_intact(self, frames, length):
        """The decoder as `frames` intact frames of `length` bytes, each one fed alone on
        an idle decoder and accepted without a sequence check (heartbeats), leave it:
        counted, and the stream offset past them. LinkProtocol.advance_idle uses it for
        the heartbeats of an idle line; feed() is the reference it is tested against."""
        if self._buf or self._junk or self._suspect is not None:       # not idle
            raise ValueError("the decoder holds bytes: frames fed now would not be alone")
        self.accepted += frames
        self._pos += frames * length
        self._quiet_end = self._pos

    def reset(self):
        """Forget buffered bytes and the inbound session (counts are kept)."""
        self._buf.clear()
        self._junk.clear()
        self._suspect = None
        self._quiet_end = self._pos
        self._expected = self._last = None

    def forget_session(self):
        """No inbound session (a refused HELLO started none): data is out of sequence."""
        self._expected = self._last = None

    def feed(self, data):
        """Decode `data`; returns Frame and Rejected items in stream order. Never raises."""
        self._buf += data
        out = []
        while self._step(out):
            pass
        return out

    def expire(self):
        """The line went quiet: give up waiting for the frame at the head of the buffer.

        The stalled frame is rejected as TRUNCATED (it may be a false start
        whose length runs past what was sent); the bytes after its start byte
        are scanned again, so intact frames behind it are still delivered.
        """
        out = []
        while self._buf:
            pos, fresh = self._pos, self._pos >= self._quiet_end
            if fresh:
                self._suspect = (pos, bytes(self._buf), TRUNCATED)
            self._quiet_end = max(self._quiet_end, pos + len(self._buf))
            self._drop(1, out)
            while self._step(out):
                pass
        self._flush_suspect(out, force=True)
        if self._junk:
            self._reject(out, JUNK, bytes(self._junk))
            self._junk.clear()
        return out

    def _step(self, out):
        buf = self._buf
        start = buf.find(SOF)
        if start < 0:
            self._drop(len(buf), out)
            return False
        if start:
            self._drop(start, out)
        if self._junk:
            self._reject(out, JUNK, bytes(self._junk))
            self._junk.clear()
        if len(buf) < HEADER_LEN:
            return False
        pos, fresh = self._pos, self._pos >= self._quiet_end
        length = buf[1]
        if length > MAX_PAYLOAD:
            if fresh:
                self._reject(out, BAD_LENGTH, bytes(buf[:HEADER_LEN]))
            self._quiet_end = max(self._quiet_end, pos + HEADER_LEN)
            self._drop(1, out)
            return True
        total = HEADER_LEN + length + CRC_LEN
        if len(buf) < total:
            return False
        raw = bytes(buf[:total])
        if crc16_ccitt_false(raw[1:-CRC_LEN]) != int.from_bytes(raw[-CRC_LEN:], "big"):
            if fresh:
                self._suspect = (pos, raw, BAD_CRC)
            self._quiet_end = max(self._quiet_end, pos + total)
            self._drop(1, out)
            return True
        if self._suspect is not None:            # this frame cut the suspect short
            start, bad, _ = self._suspect
            self._suspect = None
            self._reject(out, TRUNCATED, bad[:pos - start])
        del buf[:total]
        self._pos = self._quiet_end = pos + total
        self._accept(raw, out)
        return True

    def _drop(self, n, out):
        """Discard n leading bytes; those not already reported join the junk run."""
        fresh_from = max(0, self._quiet_end - self._pos)
        if fresh_from < n:
            self._junk += self._buf[fresh_from:n]
        del self._buf[:n]
        self._pos += n
        self._flush_suspect(out)
        while len(self._junk) >= MAX_FRAME:      # a line of pure noise is still counted
            self._reject(out, JUNK, bytes(self._junk[:MAX_FRAME]))
            del self._junk[:MAX_FRAME]

    def _flush_suspect(self, out, force=False):
        if self._suspect is not None:
            start, bad, reason = self._suspect
            if force or self._pos >= start + len(bad):
                self._suspect = None
                self._reject(out, reason, bad)

    def _reject(self, out, reason, raw, seq=None, msg_type=None):
        self.counts[reason] += 1
        out.append(Rejected(reason, raw, seq, msg_type))

    def _accept(self, raw, out):
        seq, type_byte = raw[2], raw[3]
        try:
            msg_type = MsgType(type_byte)
        except ValueError:
            self._reject(out, UNKNOWN_TYPE, raw, seq, type_byte)
            return
        payload = self._payload(raw[HEADER_LEN:-CRC_LEN], msg_type)
        if payload is None:
            self._reject(out, BAD_PAYLOAD, raw, seq, msg_type)
            return
        if self.receives is not None and msg_type in (MsgType.EVENT, MsgType.COMMAND) \
                and msg_type is not self.receives:
            self._reject(out, WRONG_DIRECTION, raw, seq, msg_type)
            return
        if self.sequenced and msg_type is MsgType.HEARTBEAT and seq != HELLO_SEQ:
            self._reject(out, OUT_OF_SEQUENCE, raw, seq, msg_type)
            return
        if self.sequenced and msg_type in SEQUENCED:
            reason = self._sequence(msg_type, seq)
            if reason:
                self._reject(out, reason, raw, seq, msg_type)
                return
        self.accepted += 1
        out.append(Frame(seq, msg_type, payload, raw))

    @staticmethod
    def _payload(body, msg_type):
        key = REQUIRED_KEY[msg_type]
        if not body:
            return {} if key is None else None
        if key is None:
            return None
        payload = strict_json(body)
        if payload is None or payload_problem(msg_type, payload):
            return None
        return payload

    def _sequence(self, msg_type, seq):
        """None if `seq` is acceptable now (and advance), else the rejection reason."""
        if msg_type is MsgType.HELLO:
            if seq != HELLO_SEQ:
                return OUT_OF_SEQUENCE
            self._last, self._expected = HELLO_SEQ, next_seq(HELLO_SEQ)
            return None
        if seq == self._expected:
            self._last, self._expected = seq, next_seq(seq)
            return None
        if seq == self._last and seq != HELLO_SEQ:
            return DUPLICATE
        return OUT_OF_SEQUENCE
