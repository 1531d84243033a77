"""The link layer over real ports: a pty pair and pyserial's loop:// and spy:// URLs.

Time is a Clock the tests advance, so retransmits, heartbeats and the
watchdog happen exactly when the test says; the only real waiting is for the
kernel to move bytes across the pty (a millisecond at a time, bounded).
"""
import fcntl
import os
import struct
import termios
import threading
import time
from collections import deque

import pytest
import serial

from controller.errors import TablectlError
from drivers.codec import BAD_CRC, DUPLICATE, JUNK, TRUNCATED, Codec, Frame, MsgType, next_seq
from drivers.errors import (FrameError, HandshakeTimeout, IdentityMismatch, LinkClosed,
                            ProtocolError, VersionMismatch)
from drivers.link import Link
from tests.drivers.devices.support import MS, START_NS, Clock

CONTROLLER = {"device": "controller", "id": "table-7"}
SHUFFLER = {"device": "shuffler", "id": "SH-1"}
DEVICE_HELLO = dict(SHUFFLER, proto=2, protocol="tablectl-serial", role="device", boot=4242)


class Recorder:
    """The callbacks of a link, kept for the test to read."""

    def __init__(self):
        self.faults, self.rejected, self.messages = [], [], []

    def kwargs(self):
        return {"on_fault": self.faults.append, "on_message": self.messages.append,
                "on_rejected": lambda reason, raw_hex: self.rejected.append((reason, raw_hex))}


class FdPort:
    """The pty master as the little of a pyserial port a Link needs."""

    def __init__(self, fd):
        self.fd = fd
        os.set_blocking(fd, False)

    @property
    def in_waiting(self):
        return struct.unpack("I", fcntl.ioctl(self.fd, termios.FIONREAD, b"\0" * 4))[0]

    def read(self, n):
        try:
            return os.read(self.fd, n)
        except BlockingIOError:
            return b""

    def write(self, data):
        return os.write(self.fd, data)


class ScriptedPeer:
    """A device played by the test over the pty master, frame by frame."""

    def __init__(self, fd):
        self.port = FdPort(fd)
        self.codec = Codec(sequenced=False)      # sees every frame, as a line analyser would
        self.items = deque()
        self.seq = 0

    def _pump(self):
        data = self.port.read(65536)
        if data:
            self.items.extend(self.codec.feed(data))

    def next(self, msg_type, timeout=1.0):
        """The next frame the link sent, heartbeats skipped."""
        deadline = time.monotonic() + timeout
        while True:
            self._pump()
            while self.items:
                item = self.items.popleft()
                if isinstance(item, Frame) and item.type is MsgType.HEARTBEAT:
                    continue
                assert isinstance(item, Frame) and item.type is msg_type, item
                return item
            assert time.monotonic() < deadline, "link sent no %s" % msg_type.name
            time.sleep(0.001)

    def frames(self, wait=0.01):
        """Everything the link sent within `wait` seconds, heartbeats included."""
        time.sleep(wait)
        self._pump()
        got, self.items = list(self.items), deque()
        return got

    def send(self, msg_type, seq=0, payload=None):
        self.write(self.codec.encode(msg_type, seq, payload))

    def event(self, **payload):
        self.seq = next_seq(self.seq)
        self.send(MsgType.EVENT, self.seq, payload)
        return self.seq

    def write(self, raw):
        self.port.write(raw)


def pump_until(condition, *links, timeout=30.0):
    """Service the links until condition() holds; time stands still on their clocks."""
    deadline = time.monotonic() + timeout
    while not condition():
        for link in links:
            link.service()
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.001)


@pytest.fixture
def pty():
    master, slave = os.openpty()
    port = serial.serial_for_url(os.ttyname(slave), baudrate=115200, timeout=0)
    yield port, master
    port.close()
    os.close(slave)
    os.close(master)


@pytest.fixture
def scripted(pty):
    """A controller Link on the pty slave, a ScriptedPeer on the master, a frozen clock."""
    port, master = pty
    clock, rec = Clock(START_NS), Recorder()
    link = Link(port, CONTROLLER, clock=clock, boot_id=1, **rec.kwargs())
    yield link, ScriptedPeer(master), clock, rec
    link.close()


def handshake(link, peer, hello=DEVICE_HELLO):
    link.begin_handshake()
    ours = peer.next(MsgType.HELLO)
    peer.send(MsgType.ACK, 0)
    peer.send(MsgType.HELLO, 0, hello)
    pump_until(lambda: link.connected, link)
    assert peer.next(MsgType.ACK).seq == 0
    return ours.payload


# -- handshake ---------------------------------------------------------------

def test_handshake_over_a_pty_with_a_device_link_on_its_thread(pty):
    port, master = pty
    got = []
    controller = Link(port, CONTROLLER, on_message=got.append)
    device = Link(FdPort(master), SHUFFLER, role="device", on_message=got.append)
    device.start()
    try:
        peer = controller.connect(timeout_ms=1000)
        assert (peer["device"], peer["id"], peer["proto"], peer["role"]) == (
            "shuffler", "SH-1", 2, "device")
        pump_until(lambda: device.connected)
        assert device.peer["device"] == "controller"
        device.send({"kind": "card", "card": "As"})
        controller.send({"cmd": "selftest"})
        pump_until(lambda: len(got) == 2 and controller.idle and device.idle, controller)
        assert sorted((m.type.name, m.seq) for m in got) == [("COMMAND", 1), ("EVENT", 1)]
        assert {"kind": "card", "card": "As"} in [m.payload for m in got]
    finally:
        device.close()
        controller.close()


def test_a_passive_device_answers_the_controllers_hello(pty):
    port, master = pty
    clock = Clock(START_NS)
    controller = Link(port, CONTROLLER, clock=clock)
    device = Link(FdPort(master), SHUFFLER, role="device", clock=clock)
    controller.begin_handshake()
    pump_until(lambda: controller.connected and device.connected, controller, device)
    assert controller.peer["id"] == "SH-1" and device.peer["id"] == "table-7"
    assert controller.stats["retransmits"] == device.stats["retransmits"] == 0


def test_handshake_states_version_and_identity(scripted):
    link, peer, clock, rec = scripted
    ours = handshake(link, peer)
    assert ours == dict(CONTROLLER, proto=2, protocol="tablectl-serial", role="controller", boot=1)
    assert link.peer == DEVICE_HELLO and link.connected and not rec.faults


def test_version_mismatch_is_an_error_naming_both_versions(scripted):
    link, peer, clock, rec = scripted
    peer.send(MsgType.ACK, 0)                    # the device's whole answer, already on the line
    peer.send(MsgType.HELLO, 0, dict(DEVICE_HELLO, proto=3))
    with pytest.raises(VersionMismatch) as err:
        link.connect(timeout_ms=1000)
    text = str(err.value)
    assert "v2" in text and "v3" in text and "SH-1" in text and "table-7" in text
    assert isinstance(err.value, ProtocolError) and isinstance(err.value, TablectlError)
    assert rec.faults == [text] and not link.connected


def test_identity_mismatch_names_what_was_expected(pty):
    port, master = pty
    link = Link(port, CONTROLLER, clock=Clock(START_NS), expect={"device": "shuffler"})
    peer = ScriptedPeer(master)
    peer.send(MsgType.ACK, 0)
    peer.send(MsgType.HELLO, 0, dict(DEVICE_HELLO, device="shoe"))
    with pytest.raises(IdentityMismatch, match="shoe.*expected shuffler"):
        link.connect(timeout_ms=1000)


def test_handshake_gives_up_after_bounded_hello_retransmits(scripted):
    link, peer, clock, rec = scripted
    link.begin_handshake()
    for wait in (50, 100, 200, 400, 800):
        assert link.handshake_error is None
        clock.advance(wait)
        link.service()
    assert isinstance(link.handshake_error, HandshakeTimeout)
    hellos = [f for f in peer.frames() if f.type is MsgType.HELLO]
    assert len(hellos) == 5 and len({f.raw for f in hellos}) == 1


def test_connect_cannot_hang_on_a_frozen_clock(scripted):
    """The link clock never moves: connect's timeout ends on real time too. Waited for with
    a generous bound (no wall-clock deadline asserted, issue 33): a connect that only read
    the frozen clock would never return."""
    link, peer, clock, rec = scripted
    raised = []

    def connect():
        try:
            link.connect(timeout_ms=20)
        except HandshakeTimeout as e:
            raised.append(e)
    t = threading.Thread(target=connect, daemon=True)
    t.start()
    t.join(timeout=60)
    assert not t.is_alive(), "connect hangs on a frozen clock"
    assert len(raised) == 1 and "no handshake with the peer" in str(raised[0])


# -- loop:// and spy:// ----------------------------------------------------------

def test_loop_url_link_refuses_its_own_hello():
    """v2 checks the HELLO's role: an end that hears its own HELLO (loop://, a cable looped
    back) is refused, naming the role, and never acknowledges it or delivers what follows."""
    rec = Recorder()
    with Link.open("loop://", CONTROLLER, clock=Clock(START_NS), **rec.kwargs()) as link:
        with pytest.raises(IdentityMismatch, match="role controller.*differs in role"):
            link.connect(timeout_ms=1000)
        assert not link.connected and link.stats["acks_sent"] == 0
        assert rec.faults and not rec.messages


def test_spy_url_on_a_pty_needs_no_code_change(tmp_path):
    master, slave = os.openpty()
    log = tmp_path / "spy.txt"
    url = "spy://%s?file=%s" % (os.ttyname(slave), log)
    try:
        with Link.open(url, CONTROLLER, clock=Clock(START_NS)) as link:
            handshake(link, ScriptedPeer(master))
    finally:
        os.close(slave)
        os.close(master)
    assert "7E 00 00 02" in log.read_text().upper()       # the device's ACK of our HELLO, spied


class DroppingPort:
    """A real port that loses the first frame of a given type on the way out."""

    def __init__(self, port, msg_type):
        self.port, self.msg_type, self.dropped = port, msg_type, []

    def __getattr__(self, name):
        return getattr(self.port, name)

    def write(self, data):
        if not self.dropped and data[3] == self.msg_type:
            self.dropped.append(data)
            return len(data)
        return self.port.write(data)


def test_a_link_retransmits_a_frame_the_line_lost(pty):
    port, master = pty
    clock, rec = Clock(START_NS), Recorder()
    dropping = DroppingPort(port, MsgType.COMMAND)
    link = Link(dropping, CONTROLLER, clock=clock)
    device = Link(FdPort(master), SHUFFLER, role="device", clock=clock, **rec.kwargs())
    link.begin_handshake()
    pump_until(lambda: link.connected and device.connected, link, device)
    link.send({"cmd": "selftest"})
    link.service()
    assert dropping.dropped and not link.idle
    clock.advance(50)
    pump_until(lambda: link.idle, link, device)
    assert link.stats["retransmits"] == 1
    assert [m.payload for m in rec.messages] == [{"cmd": "selftest"}]


# -- acknowledgement, retransmit, duplicates ---------------------------------------

def test_ack_and_retransmit_when_the_peer_drops_a_frame(scripted):
    link, peer, clock, rec = scripted
    handshake(link, peer)
    link.send({"cmd": "selftest"})
    link.service()
    first = peer.next(MsgType.COMMAND)           # the peer drops it: no ACK
    assert first.seq == 1 and first.payload == {"cmd": "selftest"}
    clock.advance(49)
    link.service()
    assert peer.frames() == []
    clock.advance(1)
    link.service()
    again = peer.next(MsgType.COMMAND)
    assert again.raw == first.raw
    peer.send(MsgType.ACK, 1)
    pump_until(lambda: link.idle, link)
    assert link.stats["retransmits"] == 1 and not rec.faults
    link.send({"cmd": "shuffle"})
    link.service()
    assert peer.next(MsgType.COMMAND).seq == 2


def test_unacknowledged_send_gives_up_after_bounded_retries(scripted):
    link, peer, clock, rec = scripted
    handshake(link, peer)
    link.heartbeat_timeout_ns = 10_000 * MS
    link.send({"cmd": "selftest"})
    link.service()
    for wait in (50, 100, 200, 400):             # backoff doubles
        clock.advance(wait)
        link.service()
    assert not rec.faults
    clock.advance(800)
    link.service()
    assert len(rec.faults) == 1 and "no ACK for seq 1" in rec.faults[0]
    assert "5 transmissions" in rec.faults[0]
    sent = [f for f in peer.frames() if f.type is not MsgType.HEARTBEAT]
    assert [f.type for f in sent] == [MsgType.COMMAND] * 5 + [MsgType.HELLO]
    assert not link.connected                    # a new session starts with that HELLO


def test_duplicate_is_suppressed_and_acknowledged_again(scripted):
    link, peer, clock, rec = scripted
    handshake(link, peer)
    peer.event(kind="card", card="As")
    pump_until(lambda: rec.messages, link)
    peer.send(MsgType.EVENT, 1, {"kind": "card", "card": "As"})   # our ACK was lost
    pump_until(lambda: rec.rejected, link)
    assert [m.payload for m in rec.messages] == [{"kind": "card", "card": "As"}]
    assert [r[0] for r in rec.rejected] == [DUPLICATE]
    assert bytes.fromhex(rec.rejected[0][1]) == Codec().encode(
        MsgType.EVENT, 1, {"kind": "card", "card": "As"})
    assert [peer.next(MsgType.ACK).seq for _ in range(2)] == [1, 1]
    assert not rec.faults


def test_messages_are_delivered_in_order_with_the_read_time(scripted):
    link, peer, clock, rec = scripted
    handshake(link, peer)
    for card in ("As", "Kd", "Th"):
        peer.event(kind="card", card=card)
    pump_until(lambda: len(rec.messages) == 3, link)
    assert [m.payload["card"] for m in rec.messages] == ["As", "Kd", "Th"]
    assert [m.seq for m in rec.messages] == [1, 2, 3]
    assert {m.ts_ns for m in rec.messages} == {clock.now}


# -- heartbeat and watchdog ----------------------------------------------------

def test_heartbeats_both_ways_keep_the_link_alive(scripted):
    link, peer, clock, rec = scripted
    handshake(link, peer)
    for _ in range(10):                          # 5 s, far past the 2 s timeout
        clock.advance(500)
        heard = link.codec.accepted
        peer.send(MsgType.HEARTBEAT)
        pump_until(lambda: link.codec.accepted > heard, link)
    beats = [f for f in peer.frames() if f.type is MsgType.HEARTBEAT]
    assert len(beats) == 10 and not rec.faults


def test_silent_peer_is_declared_malfunctioning_once(scripted):
    link, peer, clock, rec = scripted
    handshake(link, peer)
    clock.advance(2000)
    link.service()
    assert not rec.faults
    clock.advance(1)
    link.service()
    clock.advance(1000)
    link.service()
    assert len(rec.faults) == 1 and rec.faults[0].startswith("silent")
    assert "SH-1" in rec.faults[0] and "2001 ms" in rec.faults[0]
    assert link.fault == rec.faults[0]
    hellos = [f for f in peer.frames() if f.type is MsgType.HELLO]
    assert hellos and len({f.raw for f in hellos}) == 1   # the session may be gone: a new one
    link.clear_fault()
    for _ in range(40):                          # nobody answers its five transmissions
        clock.advance(50)
        link.service()
    assert len(rec.faults) == 2 and "no ACK to HELLO" in rec.faults[1]   # reported again
    clock.advance(2000)                          # it tries again later ...
    link.service()
    assert peer.next(MsgType.HELLO).seq == 0
    peer.send(MsgType.ACK, 0)                    # ... and the peer is back
    pump_until(lambda: link.connected, link)
    assert len(rec.faults) == 2


def bad_crc_frame(n):
    raw = bytearray(Codec().encode(MsgType.EVENT, 1, {"kind": "card", "n": n}))
    raw[-1] ^= 0x01
    assert 0x7E not in raw[1:]
    return bytes(raw)


def test_babbling_peer_is_declared_malfunctioning(scripted):
    link, peer, clock, rec = scripted
    handshake(link, peer)
    peer.write(b"".join(bad_crc_frame(n) for n in range(8)))
    pump_until(lambda: len(rec.rejected) == 8, link)
    assert not rec.faults                        # 8 in the window is the limit, not over it
    clock.advance(1001)
    peer.write(b"".join(bad_crc_frame(n) for n in range(8)))
    pump_until(lambda: len(rec.rejected) == 16, link)
    assert not rec.faults                        # the first 8 left the window
    peer.write(b"noise")
    peer.write(bad_crc_frame(99))
    pump_until(lambda: len(rec.rejected) == 18, link)
    assert {r for r, _ in rec.rejected} == {BAD_CRC, JUNK}
    assert ("junk", b"noise".hex()) in rec.rejected
    assert len(rec.faults) == 1 and rec.faults[0].startswith("babbling")
    assert link.codec.counts == {BAD_CRC: 17, JUNK: 1}


def test_a_frame_cut_off_by_silence_is_reported_after_the_gap(scripted):
    link, peer, clock, rec = scripted
    handshake(link, peer)
    half = Codec().encode(MsgType.EVENT, 1, {"kind": "card", "card": "As"})[:10]
    peer.write(half)
    pump_until(lambda: link.codec.pending == 10, link)
    clock.advance(99)
    link.service()
    assert not rec.rejected
    clock.advance(1)
    link.service()
    assert rec.rejected == [(TRUNCATED, half.hex())] and link.codec.pending == 0


def test_a_restarted_peer_is_a_fault_and_a_new_session(scripted):
    link, peer, clock, rec = scripted
    handshake(link, peer)
    peer.event(kind="card", card="As")
    pump_until(lambda: rec.messages, link)
    peer.send(MsgType.HELLO, 0, dict(DEVICE_HELLO, boot=99))
    pump_until(lambda: rec.faults, link)
    assert "restarted" in rec.faults[0] and "4242 -> 99" in rec.faults[0]
    assert peer.next(MsgType.ACK).seq == 1
    assert peer.next(MsgType.ACK).seq == 0
    assert peer.next(MsgType.HELLO).payload["boot"] == 1    # our side starts over too
    peer.send(MsgType.ACK, 0)
    pump_until(lambda: link.connected, link)
    peer.seq = 0
    peer.event(kind="shuffle_started")
    pump_until(lambda: len(rec.messages) == 2, link)
    assert rec.messages[1].seq == 1


# -- threads and closing -----------------------------------------------------------

def test_close_stops_and_joins_the_reader_thread():
    link = Link.open("loop://", CONTROLLER)
    link.start()
    names = [t.name for t in threading.enumerate()]
    assert "tablectl-link-table-7" in names
    link.begin_handshake()
    port = link.port
    link.close()
    assert "tablectl-link-table-7" not in [t.name for t in threading.enumerate()]
    assert not port.is_open
    with pytest.raises(LinkClosed):
        link.send({"cmd": "selftest"})


def test_send_refuses_what_the_codec_cannot_carry():
    with Link.open("loop://", CONTROLLER) as link:
        with pytest.raises(FrameError):
            link.send({"cmd": "x" * 300})
        with pytest.raises(FrameError):
            link.send({"card": "As"})
