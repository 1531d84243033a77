"""The link's protocol object, without threads, ports or a real clock (docs/protocols.md v2).

Each test feeds bytes and integers of time and reads back what the protocol would have
written and reported: the decisions of issue 18, one by one.
"""
import pytest

from drivers.codec import (BAD_CRC, BAD_PAYLOAD, JUNK, OUT_OF_SEQUENCE, TRUNCATED,
                           WRONG_DIRECTION, Codec, Frame, MsgType)
from drivers.errors import HandshakeTimeout, IdentityMismatch
from drivers.link_protocol import (HANDSHAKE, SILENT, Deliver, Fault, LinkProtocol, Reject,
                                   Write)

MS = 1_000_000
CONTROLLER = {"device": "controller", "id": "table-7"}
SHOE_HELLO = {"proto": 2, "protocol": "tablectl-serial", "role": "device",
              "device": "dealing_shoe", "id": "DS-1", "boot": 4242}


class Peer:
    """The far end, as frames: what it sends, and a decoder of what the link wrote."""

    def __init__(self):
        self.codec = Codec(sequenced=False)

    def frame(self, msg_type, seq=0, payload=None):
        return self.codec.encode(msg_type, seq, payload)

    def heard(self, actions):
        raw = b"".join(a.raw for a in actions if type(a) is Write)
        return [f for f in self.codec.feed(raw) if isinstance(f, Frame)]


def kinds(actions, cls):
    return [a for a in actions if type(a) is cls]


@pytest.fixture
def ends():
    link = LinkProtocol(CONTROLLER, expect={"device": "dealing_shoe"}, boot_id=1, now=0)
    return link, Peer()


def connect(link, peer, now=0):
    out = link.begin_handshake(now)
    assert [f.type for f in peer.heard(out)] == [MsgType.HELLO]
    out = link.receive(peer.frame(MsgType.ACK, 0) + peer.frame(MsgType.HELLO, 0, SHOE_HELLO), now)
    assert link.connected and [(f.type, f.seq) for f in peer.heard(out)] == [(MsgType.ACK, 0)]


def test_the_shoe_is_dealing_shoe_in_the_hello_and_the_old_name_is_refused(ends):
    link, peer = ends
    link.begin_handshake(0)
    out = link.receive(peer.frame(MsgType.HELLO, 0, dict(SHOE_HELLO, device="shoe")), 0)
    assert not peer.heard(out) and not link.connected            # refused: no ACK
    assert isinstance(link.handshake_error, IdentityMismatch)
    assert "expected dealing_shoe" in str(link.handshake_error)


def test_a_refused_hello_is_not_acknowledged_and_nothing_after_it_is_delivered(ends):
    """Issue 18.3: data a refused device sends is never acknowledged, not even as a
    duplicate of itself, so the device never believes it was delivered."""
    link, peer = ends
    link.begin_handshake(0)
    link.receive(peer.frame(MsgType.ACK, 0), 0)
    out = link.receive(peer.frame(MsgType.HELLO, 0, dict(SHOE_HELLO, device="shuffler")), 0)
    assert kinds(out, Fault)[0].kind == HANDSHAKE and not peer.heard(out)
    card = peer.frame(MsgType.EVENT, 1, {"kind": "card", "card": "As"})
    for _ in range(3):                                           # sent, then retransmitted
        out = link.receive(card, 0)
        assert not peer.heard(out) and not kinds(out, Deliver)
        assert [r.reason for r in kinds(out, Reject)] == [OUT_OF_SEQUENCE]


def test_the_right_devices_hello_after_a_wrong_one_connects_without_a_restart(ends):
    link, peer = ends
    link.begin_handshake(0)
    link.receive(peer.frame(MsgType.ACK, 0), 0)
    link.receive(peer.frame(MsgType.HELLO, 0, dict(SHOE_HELLO, device="shuffler")), 0)
    assert not link.connected and link.handshake_error is not None
    out = link.receive(peer.frame(MsgType.HELLO, 0, SHOE_HELLO), 5 * MS)
    assert [(f.type, f.seq) for f in peer.heard(out)] == [(MsgType.ACK, 0)]
    assert link.connected and link.handshake_error is None
    out = link.receive(peer.frame(MsgType.EVENT, 1, {"kind": "card", "card": "As"}), 6 * MS)
    assert [d.message.payload["card"] for d in kinds(out, Deliver)] == ["As"]


def test_a_wrong_device_first_then_the_right_one_gets_our_hello_again():
    """A controller whose HELLO an impostor acknowledged sends its own again to the real
    device once the impostor's HELLO was refused and the real one passes."""
    link = LinkProtocol(CONTROLLER, expect={"device": "dealing_shoe"}, boot_id=1, now=0)
    peer = Peer()
    link.begin_handshake(0)
    link.receive(peer.frame(MsgType.HELLO, 0, dict(SHOE_HELLO, device="shuffler")), 0)
    for t in (50, 150, 350, 750, 1550):
        link.poll(t * MS)                                        # nobody acknowledges ours
    assert isinstance(link.handshake_error, HandshakeTimeout)
    out = link.receive(peer.frame(MsgType.HELLO, 0, SHOE_HELLO), 1600 * MS)
    assert [f.type for f in peer.heard(out)] == [MsgType.ACK, MsgType.HELLO]
    link.receive(peer.frame(MsgType.ACK, 0), 1601 * MS)
    assert link.connected


def test_every_hello_resets_the_inbound_sequence_whatever_its_boot(ends):
    """Issue 18.2: a same-boot HELLO (the device's new session after no_ack) is accepted,
    acknowledged, raises no restart, and the data after it counts from 1 again."""
    link, peer = ends
    connect(link, peer)
    for seq in (1, 2, 3):
        link.receive(peer.frame(MsgType.EVENT, seq, {"kind": "card", "card": "As"}), 0)
    out = link.receive(peer.frame(MsgType.HELLO, 0, SHOE_HELLO), 0)
    assert [(f.type, f.seq) for f in peer.heard(out)] == [(MsgType.ACK, 0)]
    assert not kinds(out, Fault)
    out = link.receive(peer.frame(MsgType.EVENT, 1, {"kind": "empty"}), 0)
    assert [d.message.seq for d in kinds(out, Deliver)] == [1]


def test_a_retransmitted_hello_whose_ack_was_lost_changes_nothing_but_the_ack(ends):
    link, peer = ends
    connect(link, peer)
    out = link.receive(peer.frame(MsgType.HELLO, 0, SHOE_HELLO), 0)   # same bytes again
    assert [(f.type, f.seq) for f in peer.heard(out)] == [(MsgType.ACK, 0)]
    out = link.receive(peer.frame(MsgType.EVENT, 1, {"kind": "empty"}), 0)
    assert len(kinds(out, Deliver)) == 1


def _frame(seq, type_byte, body=b""):
    from drivers.codec import crc16_ccitt_false
    inner = bytes((len(body), seq, type_byte)) + body
    return b"\x7e" + inner + crc16_ccitt_false(inner).to_bytes(2, "big")


@pytest.mark.parametrize("raw,reason", [
    (_frame(5, 0x03), OUT_OF_SEQUENCE),                          # HEARTBEAT with SEQ 5
    (_frame(3, 0x01, b'{"boot":1,"device":"dealing_shoe","id":"x","proto":2}'),
     OUT_OF_SEQUENCE),                                           # HELLO with SEQ 3
    (_frame(1, 0x11, b'{"cmd":"selftest"}'), WRONG_DIRECTION),   # a COMMAND to the controller
    (_frame(1, 0x02, b'{"x":1}'), BAD_PAYLOAD),                  # an ACK with a payload
])
def test_frames_no_table_covered_are_rejected_and_not_acknowledged(ends, raw, reason):
    """Issue 18.5."""
    link, peer = ends
    connect(link, peer)
    out = link.receive(raw, 0)
    assert [r.reason for r in kinds(out, Reject)] == [reason]
    assert not peer.heard(out) and not kinds(out, Deliver)


def test_an_event_sent_to_a_device_is_wrong_direction():
    device = LinkProtocol({"device": "shuffler", "id": "SH-1"}, role="device", now=0)
    out = device.receive(_frame(1, 0x10, b'{"kind":"card"}'), 0)
    assert [r.reason for r in kinds(out, Reject)] == [WRONG_DIRECTION]


def test_rejected_frames_are_no_sign_of_life(ends):
    """Issue 18.6: the watchdog counts valid frames only; a peer whose heartbeats all fail
    their CRC is declared silent (intended, docs/protocols.md section 6)."""
    link, peer = ends
    link.babble_limit = 10 ** 6                                  # watch the watchdog alone
    connect(link, peer)
    bad = bytearray(peer.frame(MsgType.HEARTBEAT, 0))
    bad[-1] ^= 0xFF
    faults = []
    for t in range(100, 2600, 100):
        faults += kinds(link.receive(bytes(bad), t * MS) + link.poll(t * MS + 1), Fault)
    assert [f.kind for f in faults] == [SILENT]


def test_junk_with_no_start_byte_after_it_is_reported_after_the_frame_gap(ends):
    """Issue 18.7."""
    link, peer = ends
    connect(link, peer)
    assert not kinds(link.receive(b"noise", 10 * MS), Reject)
    assert not kinds(link.poll(109 * MS), Reject)
    assert [(r.reason, r.raw) for r in kinds(link.poll(110 * MS), Reject)] == [(JUNK, b"noise")]


def test_an_inner_frame_running_past_the_outer_one_makes_it_truncated():
    """Issue 18.7: an outer frame that fails its CRC is truncated if an intact frame starts
    inside it, even when the inner frame ends past the outer frame's end."""
    codec = Codec(sequenced=False)
    inner = codec.encode(MsgType.EVENT, 1, {"kind": "card", "card": "As"})   # 33 bytes
    outer_head = bytes((0x7E, 10, 1, 0x10)) + b"abc"         # says 10 + 6 bytes, has 7
    items = codec.feed(outer_head + inner)
    assert [getattr(i, "reason", "frame") for i in items] == [TRUNCATED, "frame"]
    assert items[0].raw == outer_head
    lone = bytes((0x7E, 2, 1, 0x10)) + b"{}" + b"\x00\x00"   # no frame inside: bad_crc
    assert [i.reason for i in Codec(sequenced=False).feed(lone + b"\x7e")] == [BAD_CRC]


def test_after_giving_up_on_hello_it_tries_again_and_connects_when_the_device_appears():
    """Issue 18.8: HELLO gives up at 1550 ms, then again every hello_retry_ms."""
    link = LinkProtocol(CONTROLLER, boot_id=1, now=0)
    peer = Peer()
    sent = peer.heard(link.begin_handshake(0))
    faults = []
    for t in range(0, 6000, 10):
        out = link.poll(t * MS)
        sent += peer.heard(out)
        faults += kinds(out, Fault)
    assert [f.kind for f in faults] == [HANDSHAKE]               # latched: reported once
    assert "trying again every 2000 ms" in faults[0].reason
    assert len(sent) == 10 and link.stats["hello_retries"] == 1  # 5 at 0, 5 from 3550 ms
    out = link.receive(peer.frame(MsgType.HELLO, 0, SHOE_HELLO), 6000 * MS)  # it appears
    assert [f.type for f in peer.heard(out)] == [MsgType.ACK, MsgType.HELLO]  # answered now
    link.receive(peer.frame(MsgType.ACK, 0), 6001 * MS)
    assert link.connected and link.handshake_error is None


def test_silence_starts_a_new_session_and_a_returning_device_connects_again(ends):
    link, peer = ends
    connect(link, peer)
    out = []
    for t in range(100, 2200, 100):
        out += link.poll(t * MS)
    assert [f.kind for f in kinds(out, Fault)] == [SILENT]
    assert not link.connected and MsgType.HELLO in [f.type for f in peer.heard(out)]
    link.receive(peer.frame(MsgType.ACK, 0), 2200 * MS)          # the device is back
    assert link.connected
    link.send({"cmd": "selftest"})
    out = link.poll(2201 * MS)
    assert [(f.type, f.seq) for f in peer.heard(out)] == [(MsgType.COMMAND, 1)]


def test_discard_queued_drops_what_was_not_sent(ends):
    link, peer = ends
    link.send({"cmd": "display", "text": "a"})
    link.send({"cmd": "display", "text": "b"})
    assert link.discard_queued() == 2 and link.idle


def test_junk_runs_count_towards_babbling(ends):
    """Issue 18.7: nine junk runs (each ended by a stray start byte) within a second."""
    link, peer = ends
    connect(link, peer)
    out = []
    for t in range(9):
        out += link.receive(b"noise\x7e\x00", t * MS) + link.poll(t * MS)
    assert [r.reason for r in kinds(out, Reject)].count(JUNK) >= 9
    assert [f.kind for f in kinds(out, Fault)] == ["babbling"]


def test_a_refused_hello_from_a_connected_peer_ends_the_session(ends):
    """Every HELLO is checked, whatever its boot: one naming another protocol version from
    a connected peer leaves the link unconnected until a HELLO passes."""
    link, peer = ends
    connect(link, peer)
    out = link.receive(peer.frame(MsgType.HELLO, 0, dict(SHOE_HELLO, proto=3)), 0)
    assert not link.connected and not peer.heard(out)
    assert "v3" in kinds(out, Fault)[0].reason
    out = link.receive(peer.frame(MsgType.HELLO, 0, SHOE_HELLO), 0)
    assert link.connected


# -- when the protocol next has work (the transport sleeps until then) -----------------

def _script(link, peer):
    """Inputs at ms: a handshake, traffic, junk, a command nobody acknowledges, silence."""
    ack = lambda seq: (lambda: link.receive(peer.frame(MsgType.ACK, seq), now[0]))  # noqa: E731
    now = [0]
    steps = {
        0: lambda: link.begin_handshake(now[0]),
        3: lambda: link.receive(peer.frame(MsgType.ACK, 0)
                                + peer.frame(MsgType.HELLO, 0, SHOE_HELLO), now[0]),
        40: lambda: link.send({"cmd": "shuffle"}),
        45: ack(1),
        700: lambda: link.receive(peer.frame(MsgType.EVENT, 1, {"kind": "card", "card": "As"})
                                  [:5], now[0]),                     # half a frame: the gap
        300: lambda: link.send({"cmd": "status"}),                   # never acknowledged
        1301: lambda: link.receive(b"noise", now[0]),
    }
    return now, steps


def _polled_every_ms(link, now, steps, until_ms):
    """Poll every ms to `until_ms`, the script's inputs first; assert no poll before
    next_due() has work. (polls at or past next_due, polls of those with work)."""
    woken = fired = 0
    for t in range(0, until_ms):
        now[0] = t * MS
        if t in steps:
            steps[t]()
        due = link.next_due()
        out = link.poll(now[0])
        if due is None or now[0] < due:
            assert out == [], "work at %d ms before next_due %s: %r" % (t, due, out)
        else:
            woken += 1
            fired += bool(out)
    return woken, fired


def test_poll_has_no_work_before_next_due_and_its_timers_fire_at_it(ends):
    """A transport that polls only at next_due() (and on input) misses nothing that a poll
    every millisecond does: over a script with the protocol's timers (retransmits, the
    frame gap, heartbeats, no_ack, the HELLO's give-up and retry), no poll before
    next_due() has work, and the polls at it do."""
    link, peer = ends
    now, steps = _script(link, peer)
    woken, fired = _polled_every_ms(link, now, steps, 6000)
    assert {"no_ack", HANDSHAKE} <= set(link.faults)
    assert link.stats["retransmits"] >= 8 and link.stats["hello_retries"] >= 1
    assert link.stats["heartbeats_sent"] >= 1
    # the transport's wake-ups: about one per timer, not one per millisecond
    assert fired >= 10 and woken <= 3 * fired + 10, (woken, fired)


def test_the_watchdog_is_due_just_past_its_timeout(ends):
    link, peer = ends
    now = [0]
    steps = {0: lambda: connect(link, peer)}
    woken, fired = _polled_every_ms(link, now, steps, 2500)
    assert set(link.faults) == {SILENT} and fired >= 4      # four heartbeats, then silent


def test_a_connected_idle_link_is_next_due_at_its_heartbeat(ends):
    link, peer = ends
    connect(link, peer, now=7 * MS)
    assert link.next_due() == 7 * MS + link.heartbeat_interval_ns
    link.send({"cmd": "selftest"})
    assert link.next_due() == 0                        # queued: now
    link.poll(8 * MS)
    assert link.next_due() == 8 * MS + link.ack_timeout_ns      # its retransmit
    assert LinkProtocol(CONTROLLER, now=0).next_due() is None   # no handshake: only input
