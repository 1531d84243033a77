"""A device written from docs/protocols.md (tests/conformance/page.py) against the real
controller drivers over a pty, for every device kind.

The controller side is the project's: drivers.devices.build_devices on the pty's path, its
Link thread on the real clock, events to a sink as `tablectl run` gives them. The device
side imports nothing of the project. Timing assertions are bounds that hold on a loaded
machine (a retransmission is never early; lateness is allowed).
"""
import threading
import time

import pytest

from drivers.devices import build_devices
from tests.conformance.page import (ACK, COMMAND, EVENT, HEARTBEAT, HELLO, PagePeer, crc16,
                                    frame)

# driver name -> (HELLO device, an EVENT of its catalogue, the controller Event it becomes)
KINDS = {
    "card_reader": ("card_reader", {"kind": "reader", "blackjack": True}, "reader"),
    "shuffler": ("shuffler", {"kind": "shuffle_completed", "cards": 52}, "shuffle"),
    "shoe": ("dealing_shoe", {"kind": "card", "card": "As"}, "card"),
    "dice_reader": ("dice_reader", {"kind": "dice", "dice": [3, 5]}, "dice"),
    "dealer_panel": ("dealer_panel", {"kind": "no_more_bets"}, "no_more_bets"),
    "meter_display": ("meter_display", {"kind": "fault", "reason": "segment"}, "fault"),
}


class Sink(list):
    def __call__(self, event):
        self.append(event)

    def kinds(self):
        return [e.kind for e in list(self)]


def until(condition, timeout=30.0, what="condition"):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "no %s within %.0f s" % (what, timeout)
        time.sleep(0.005)


@pytest.fixture
def table(pty_pair):
    """make(name, initiate=False, device=None) -> (driver, page device, sink); all stopped."""
    master, path = pty_pair
    made = []

    def make(name, initiate=False, device=None, **options):
        driver = build_devices({name: dict({"url": path, "reject_interval_ms": 0},
                                           **options)})[name]
        sink = Sink()
        peer = PagePeer(master, "device", device or KINDS[name][0], "PAGE-1",
                        initiate=initiate)
        peer.on_data = lambda p: answer(peer, p)
        if initiate:                         # a device powered up before the controller
            driver.start(sink)
            peer.start()
        else:
            peer.start()
            driver.start(sink)
        made.append((driver, peer))
        return driver, peer, sink
    yield make
    for driver, peer in made:
        driver.stop()
        peer.stop()


def answer(peer, payload):
    """The page's common commands (section 10)."""
    if payload.get("cmd") == "selftest":
        peer.queue.append({"kind": "selftest", "ok": True, "detail": "page"})
    elif payload.get("cmd") == "status":
        peer.queue.append({"kind": "status", "state": "ready"})


@pytest.mark.parametrize("name", sorted(KINDS))
@pytest.mark.parametrize("initiate", [False, True], ids=["controller-first", "device-first"])
def test_handshake_both_ways_and_an_event_and_a_selftest(table, name, initiate):
    driver, peer, sink = table(name, initiate=initiate)
    until(lambda: driver.connected and peer.connected, what="the handshake")
    ours = peer.frames("in", HELLO)[0].payload
    assert (ours["proto"], ours["protocol"], ours["role"]) == (2, "tablectl-serial",
                                                               "controller")
    assert isinstance(ours["boot"], int) and ours["device"] == "controller"
    _, event, kind = KINDS[name]
    peer.send(event)
    until(lambda: kind in sink.kinds(), what="the %s event" % kind)
    sent = peer.frames("out", EVENT)[0]
    assert sent.seq == 1
    until(lambda: any(f.seq == 1 and f.at >= sent.at for f in peer.frames("in", ACK)),
          what="the ACK of EVENT seq 1")
    assert driver.selftest(timeout_s=5.0)
    commands = [f for f in peer.frames("in", COMMAND)]
    assert commands[0].seq == 1 and commands[0].payload == {"cmd": "selftest"}
    assert commands[0].raw[4:-2] == b'{"cmd":"selftest"}'             # compact, sorted


def test_sequence_and_ack_rules(table):
    driver, peer, sink = table("shoe")
    until(lambda: driver.connected and peer.connected)
    peer.send({"kind": "card", "card": "As"})
    until(lambda: len(sink) == 1)
    first = peer.frames("out", EVENT)[0].raw
    until(lambda: peer.frames("in", ACK)[-1].seq == 1)
    mark = time.monotonic()
    peer.write_raw(first)                                  # a duplicate: ACKed, not delivered
    until(lambda: any(f.seq == 1 and f.at > mark for f in peer.frames("in", ACK)))
    assert len(sink) == 1 and driver.rejected.get("duplicate", 0) >= 1
    mark = time.monotonic()
    peer.write_raw(frame(EVENT, 7, {"kind": "card", "card": "Kd"}))   # out of sequence
    until(lambda: driver.rejected.get("out_of_sequence") == 1)
    time.sleep(0.1)
    assert not [f for f in peer.frames("in", ACK) if f.at > mark and f.seq == 7]
    assert len(sink) == 1
    peer.send({"kind": "card", "card": "Qh"})              # seq 2: the session goes on
    until(lambda: len(sink) == 2)
    assert sink[1].data == {"card": "Qh"} and peer.frames("out", EVENT)[-1].seq == 2
    for n in range(3, 258):                                # past 255 the SEQ is 1 again, not 0
        peer.write_raw(frame(EVENT, (n - 1) % 255 + 1, {"kind": "empty"}))
        until(lambda: peer.frames("in", ACK)[-1].seq == (n - 1) % 255 + 1, timeout=30)
    assert driver.rejected.get("out_of_sequence") == 1


def test_retransmit_timing_of_the_controller(table):
    """Section 5: sent at 0, T, 3T, 7T, 15T, then a new session (HELLO) at 31T."""
    driver, peer, sink = table("shuffler")
    until(lambda: driver.connected and peer.connected)
    peer.ack_data = False
    driver.command("status")
    until(lambda: len(peer.frames("in", HELLO)) >= 2, timeout=30, what="the new session")
    sent = [f for f in peer.frames("in", COMMAND)]
    assert len(sent) == 5 and len({f.raw for f in sent}) == 1
    # read times carry the machine's jitter (a late read of the first frame makes the rest
    # look early): the offsets from the first are checked within 100 ms, in order
    at = [f.at - sent[0].at for f in sent] + [peer.frames("in", HELLO)[-1].at - sent[0].at]
    assert at == sorted(at), at
    for offset, nominal in zip(at, (0, 0.05, 0.15, 0.35, 0.75, 1.55)):
        assert offset >= nominal - 0.1, at                 # never early
    until(lambda: any(e.kind == "fault" and e.data["reason"] == "no_ack" for e in sink))


def test_heartbeats_both_ways_and_silence(table):
    driver, peer, sink = table("dice_reader")
    until(lambda: driver.connected and peer.connected)
    start = time.monotonic()
    time.sleep(2.6)                                        # longer than the 2 s watchdog
    beats = [f for f in peer.frames("in", HEARTBEAT) if f.at > start]
    assert len(beats) >= 2 and all(f.seq == 0 and f.raw[1] == 0 for f in beats)
    assert len(beats) <= 2.6 / 0.5 + 2              # only to fill silences (reads jitter)
    assert not sink                                        # our heartbeats kept it alive
    peer.heartbeats = False                                # now the page end is silent
    until(lambda: any(e.kind == "fault" and e.data["reason"] == "silent" for e in sink),
          timeout=10, what="the silent fault")
    peer.heartbeats = True                                 # back: the controller's new HELLO
    until(lambda: driver.connected, timeout=30, what="the reconnection")


def test_each_rejection_reason_is_counted_and_only_what_was_delivered_is_acked(table):
    driver, peer, sink = table("shoe")
    until(lambda: driver.connected and peer.connected)
    peer.send({"kind": "card", "card": "As"})
    until(lambda: len(sink) == 1 and peer.frames("in", ACK)[-1].seq == 1)
    good = peer.frames("out", EVENT)[0].raw

    def nan_frame():
        body = b'{"card":"As","kind":"card","n":NaN}'
        return frame(EVENT, 2, body=body)

    bad_crc = bytearray(frame(EVENT, 2, {"kind": "card", "card": "Kd"}))
    bad_crc[-1] ^= 0xFF
    inner = frame(EVENT, 9, {"kind": "empty"})
    crafted = [
        ("junk", b"\x01\x02\x03junk"),
        ("bad_length", bytes((0x7E, 250, 2, EVENT))),
        ("bad_crc", bytes(bad_crc)),
        ("truncated", frame(EVENT, 2, {"kind": "card", "card": "Th"})[:12] + inner),
        ("unknown_type", frame(0x42, 2, {"kind": "x"})),
        ("bad_payload", nan_frame()),
        ("wrong_direction", frame(COMMAND, 2, {"cmd": "selftest"})),
        ("duplicate", good),
        ("bad_event", None),
    ]
    for reason, raw in crafted:
        acks = len(peer.frames("in", ACK))
        if raw is None:
            peer.send({"kind": "teleport"})                # well-formed, not in the catalogue
        else:
            peer.write_raw(raw)
        until(lambda: driver.rejected.get(reason, 0) >= 1, what=reason)
        time.sleep(0.15)
        new = peer.frames("in", ACK)[acks:]
        if reason in ("duplicate", "bad_event"):
            assert new, reason                             # acknowledged (again)
        elif reason != "truncated":                        # (its inner frame is out of seq)
            assert not new, (reason, new)
    assert [e.kind for e in sink if e.kind != "fault"] == ["card"]   # none applied
    assert {e.data["reason"] for e in sink if e.kind == "fault"} <= {"babbling"}   # 9 in 1 s


def test_a_restarted_device_is_a_fault_and_a_new_session(table):
    driver, peer, sink = table("card_reader")
    until(lambda: driver.connected and peer.connected)
    hellos = len(peer.frames("in", HELLO))
    peer.restart(boot=99)
    until(lambda: any(e.kind == "fault" and e.data["reason"] == "restarted" for e in sink))
    until(lambda: len(peer.frames("in", HELLO)) > hellos and peer.connected)
    peer.send({"kind": "reader", "blackjack": False})
    until(lambda: "reader" in sink.kinds())
    assert peer.frames("out", EVENT)[-1].seq == 1


def test_identity_refusal_and_recovery(table):
    """Section 7: a HELLO naming another device is not acknowledged, nothing after it is,
    and the right HELLO later connects without restarting the controller."""
    driver, peer, sink = table("shoe", device="shuffler", initiate=True)
    until(lambda: any(e.kind == "fault" and e.data["reason"] == "handshake" for e in sink))
    assert not driver.connected and not peer.hello_acked
    assert "expected dealing_shoe" in driver.link.handshake_error.args[0]
    peer.write_raw(frame(EVENT, 1, {"kind": "card", "card": "As"}))
    time.sleep(0.2)
    assert not [f for f in peer.frames("in", ACK) if f.seq == 1] and "card" not in sink.kinds()
    with peer._lock:
        peer.hello["device"] = "dealing_shoe"              # the right device on the line
        peer._send_hello()
    until(lambda: driver.connected and peer.connected, what="the recovery")
    peer.send({"kind": "card", "card": "As"})

    def delivered():
        if peer.gave_up and not peer.queue and peer.inflight is None:   # a starved machine:
            peer.gave_up.clear()                                        # the page's own rule
            peer.send({"kind": "card", "card": "As"})                   # dropped it; again
        return "card" in sink.kinds()
    until(delivered, timeout=30, what="the card after the recovery")


def test_the_page_crc_and_examples_agree_byte_for_byte():
    """Section 11's worked examples, read from the page, checked with the page's CRC."""
    import re
    from pathlib import Path
    text = (Path(__file__).parents[2] / "docs" / "protocols.md").read_text()
    section = text[text.index("## 11. Worked example"):text.index("## 12.")]
    blocks = re.findall(r"```\n((?:[0-9a-f]{2} )+[0-9a-f]{2})", section)
    assert len(blocks) >= 5, blocks
    for block in blocks:
        raw = bytes.fromhex(block)
        assert raw[0] == 0x7E and len(raw) == 6 + raw[1], block
        assert crc16(raw[1:-2]) == int.from_bytes(raw[-2:], "big"), block
    assert crc16(b"123456789") == 0x29B1
    card = bytes.fromhex(blocks[0])
    assert card == frame(EVENT, 1, {"card": "As", "kind": "card"})
    assert bytes.fromhex("7e 00 01 02 df ef") == frame(ACK, 1)
    assert bytes.fromhex("7e 00 00 03 fc ff") == frame(HEARTBEAT, 0)
    hello = [bytes.fromhex(b) for b in blocks if bytes.fromhex(b)[3] == HELLO]
    assert hello and hello[0] == frame(HELLO, 0, {"proto": 2, "protocol": "tablectl-serial",
                                                  "role": "device", "device": "dealing_shoe",
                                                  "id": "DS-1", "boot": 4242})
    assert '{"kind":"note","text":"a\\u007eb"}' in section
    assert threading.active_count() >= 1
