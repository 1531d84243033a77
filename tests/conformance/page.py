"""tablectl-serial v2 as a vendor would write it from docs/protocols.md alone.

Nothing of the project is imported here: the CRC is the page's C reference done bit by
bit, the framing and the JSON rules are the page's sections 2 and 3, the sequencing,
acknowledgements, retransmission, heartbeat and handshake are sections 4 to 7. The
conformance tests run this end against the project's controller drivers (as a device) and
against the project's simulated devices (as a controller), over real ptys.

A PagePeer runs on its own thread over a file descriptor. It keeps a log of every frame it
read and wrote, with the monotonic time, so tests can check timing and rules after the
fact, and it has switches a test turns to break a rule on purpose (not acknowledging, not
sending heartbeats, answering nothing).
"""
import json
import os
import select
import threading
import time
from collections import deque

SOF = 0x7E
HELLO, ACK, HEARTBEAT, EVENT, COMMAND = 0x01, 0x02, 0x03, 0x10, 0x11
T_ACK = 0.050            # section 5: T
RETRIES = 4
HEARTBEAT_S = 0.5        # section 6
MAX_PAYLOAD = 200


def crc16(data):
    """Section 2's C reference, line for line."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def payload_bytes(payload):
    """Compact, keys sorted, UTF-8, `~` written as \\u007e (section 2)."""
    if not payload:
        return b""
    text = json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return text.replace("~", "\\u007e").encode("utf-8")


def frame(type_, seq, payload=None, body=None):
    body = payload_bytes(payload) if body is None else body
    inner = bytes((len(body), seq, type_)) + body
    return bytes((SOF,)) + inner + crc16(inner).to_bytes(2, "big")


class Decoder:
    """Section 8's scan, simplified to what an end needs: frames with a good CRC; every
    byte it cannot use is dropped one start byte at a time."""

    def __init__(self):
        self.buf = bytearray()

    def feed(self, data):
        self.buf += data
        out = []
        while True:
            start = self.buf.find(SOF)
            if start < 0:
                self.buf.clear()
                return out
            del self.buf[:start]
            if len(self.buf) < 4:
                return out
            length = self.buf[1]
            if length > MAX_PAYLOAD:
                del self.buf[:1]
                continue
            total = 4 + length + 2
            if len(self.buf) < total:
                return out
            raw = bytes(self.buf[:total])
            if crc16(raw[1:-2]) != int.from_bytes(raw[-2:], "big"):
                del self.buf[:1]
                continue
            del self.buf[:total]
            out.append(raw)


class Heard:
    """One frame in the log: direction ('in'/'out'), time, seq, type, payload (or None)."""

    def __init__(self, direction, at, raw):
        self.direction, self.at, self.raw = direction, at, raw
        self.seq, self.type = raw[2], raw[3]
        body = raw[4:-2]
        try:
            self.payload = json.loads(body) if body else {}
        except ValueError:
            self.payload = None

    def __repr__(self):
        return "<%s %.3f seq %d type %#x %r>" % (self.direction, self.at, self.seq, self.type,
                                                 self.payload)


class PagePeer:
    """One end of the protocol, written from the page. `role` 'device' or 'controller'."""

    def __init__(self, fd, role, device, ident, boot=4242, initiate=True):
        self.fd, self.role = fd, role
        self.hello = {"proto": 2, "protocol": "tablectl-serial", "role": role,
                      "device": device, "id": ident, "boot": boot}
        self.data_type = EVENT if role == "device" else COMMAND
        self.peer_data_type = COMMAND if role == "device" else EVENT
        self.initiate = initiate
        self.log = []
        self.received = deque()       # data payloads delivered, in order
        self.peer_hello = None
        # switches a test turns
        self.ack_data = True          # acknowledge the peer's data frames
        self.ack_hello = True         # acknowledge the peer's HELLO
        self.heartbeats = True
        self.mute = False             # write nothing at all
        self.on_data = None           # called with each delivered payload (to answer it)
        # state
        self.expected = self.last = None
        self.out_seq = 0
        self.inflight = None          # [raw, sends, due, kind]
        self.queue = deque()
        self.hello_acked = False
        self.sent_hello = False
        self.gave_up = []             # payloads given up on (no ACK after 5 sends)
        self._decoder = Decoder()
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._last_sent = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True, name="page-peer")

    # -- use ---------------------------------------------------------------------------

    def start(self):
        if self.initiate:
            with self._lock:
                self._send_hello()
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        self._thread.join(5)

    @property
    def connected(self):
        return self.hello_acked and self.peer_hello is not None

    def send(self, payload):
        with self._lock:
            self.queue.append(payload)

    def write_raw(self, raw):
        with self._lock:
            self._write(raw)

    def restart(self, boot):
        """A new power-up: new boot, no sessions."""
        with self._lock:
            self.hello["boot"] = boot
            self.expected = self.last = None
            self.peer_hello = None
            self.queue.clear()
            self._send_hello()

    def frames(self, direction, type_=None):
        with self._lock:
            return [h for h in self.log if h.direction == direction and
                    (type_ is None or h.type == type_)]

    def wait(self, condition, timeout=30.0):
        end = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > end:
                raise AssertionError("page peer: condition not reached; log tail %r"
                                     % self.log[-8:])
            time.sleep(0.005)

    # -- the rules ---------------------------------------------------------------------

    def _write(self, raw):
        if self.mute:
            return
        os.write(self.fd, raw)
        self._last_sent = time.monotonic()
        self.log.append(Heard("out", self._last_sent, raw))

    def _send_hello(self):
        self.out_seq = 0
        self.hello_acked = False
        self.sent_hello = True
        raw = frame(HELLO, 0, self.hello)
        self.inflight = [raw, 1, time.monotonic() + T_ACK, "hello"]
        self._write(raw)

    def _on_frame(self, raw):
        h = Heard("in", time.monotonic(), raw)
        self.log.append(h)
        if h.type == ACK:
            if self.inflight is not None and h.seq == self.inflight[0][2]:
                if self.inflight[3] == "hello":
                    self.hello_acked = True
                self.inflight = None
            return
        if h.type == HEARTBEAT:
            return
        if h.type == HELLO:
            hello = h.payload or {}
            if hello.get("proto") != 2 or hello.get("role") == self.role:
                return                                    # refused: no ACK (section 7)
            if not self.ack_hello:
                return
            self._write(frame(ACK, 0))
            self.expected, self.last = 1, 0
            known, self.peer_hello = self.peer_hello, hello
            restarted = known is not None and known.get("boot") != hello.get("boot")
            in_flight = self.inflight is not None and self.inflight[3] == "hello"
            if restarted or (not self.hello_acked and not in_flight):
                self._send_hello()
            return
        if h.type != self.peer_data_type:
            return
        if self.expected is not None and h.seq == self.expected:
            if self.ack_data:
                self._write(frame(ACK, h.seq))
                self.received.append(h.payload)
                self.last, self.expected = h.seq, h.seq % 255 + 1
                if self.on_data is not None:
                    self.on_data(h.payload)
        elif self.last is not None and h.seq == self.last and h.seq != 0:
            if self.ack_data:
                self._write(frame(ACK, h.seq))             # a duplicate: ACK again only

    def _timers(self):
        now = time.monotonic()
        if self.inflight is not None and now >= self.inflight[2]:
            raw, sends, _, kind = self.inflight
            if sends <= RETRIES:
                self._write(raw)
                self.inflight = [raw, sends + 1, now + T_ACK * (1 << sends), kind]
            else:
                self.inflight = None
                if kind == "data":
                    self.gave_up.append(raw)
                    self._send_hello()
        if self.inflight is None and self.queue and self.connected:
            self.out_seq = self.out_seq % 255 + 1
            raw = frame(self.data_type, self.out_seq, self.queue.popleft())
            self.inflight = [raw, 1, now + T_ACK, "data"]
            self._write(raw)
        if self.heartbeats and self.connected and now - self._last_sent >= HEARTBEAT_S:
            self._write(frame(HEARTBEAT, 0))

    def _run(self):
        while not self._stop.is_set():
            try:
                ready = select.select([self.fd], [], [], 0.002)[0]
            except (OSError, ValueError):
                return
            with self._lock:
                if ready:
                    try:
                        data = os.read(self.fd, 4096)
                    except (BlockingIOError, InterruptedError):
                        data = b""
                    except OSError:
                        return
                    for raw in self._decoder.feed(data):
                        self._on_frame(raw)
                self._timers()
