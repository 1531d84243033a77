"""The simulated devices themselves: real ptys, the codec on the wire, faults, a clean stop."""
import os
import threading

import pytest
import serial

from drivers.codec import BAD_CRC, Codec
from drivers.link import Link
from hal_sim.devices import SimHardware
from hal_sim.devices.card_reader import is_blackjack
from hal_sim.devices.dealing_shoe import SimDealingShoe
from hal_sim.devices.pty_port import PtyPort
from tests.drivers.devices.support import START_NS, Clock, open_fds, wait_for


def test_the_pty_slave_is_a_real_tty_the_driver_opens_by_path():
    port = PtyPort()
    try:
        assert os.path.exists(port.path) and os.isatty(port.master)
        slave = serial.serial_for_url(port.path, timeout=0)
        port.write(b"\x7e\x00\x00\x03\xfc\xff")
        assert wait_for(lambda: slave.in_waiting == 6)
        assert slave.read(6) == b"\x7e\x00\x00\x03\xfc\xff"
        slave.write(b"ok")
        assert wait_for(lambda: port.in_waiting == 2) and port.read(2) == b"ok"
        slave.close()
    finally:
        port.close()


def _controller(sim, got=None):
    link = Link.open(sim.path, {"device": "controller", "id": "t"}, clock=Clock(START_NS),
                     on_message=(got if got is not None else []).append)
    link.connect(timeout_ms=1000)
    link.start(0.001)
    return link


def test_the_device_speaks_the_codec_and_records_commands():
    with SimDealingShoe() as sim:
        got = []
        link = _controller(sim, got)
        try:
            assert link.peer["device"] == "dealing_shoe" and link.peer["role"] == "device"
            link.send({"cmd": "selftest"})
            assert wait_for(lambda: got)
            assert got[0].payload == {"kind": "selftest", "ok": True, "detail": "all good"}
            assert sim.commands == [{"cmd": "selftest"}]
        finally:
            link.close()


def test_bad_crc_and_split_reach_the_wire_as_injected():
    with SimDealingShoe() as sim:
        link = _controller(sim)
        try:
            sim.inject("bad_crc", 1)
            sim.inject("split", 1)
            sim.deal("As")
            assert wait_for(lambda: sim.link.idle)
            frames = Codec(sequenced=False).feed(bytes(sim.port.written))
            reasons = [getattr(f, "reason", None) for f in frames]
            assert BAD_CRC in reasons            # the first transmission, corrupted
            assert any(getattr(f, "payload", {}).get("card") == "As" for f in frames)
            sim.inject("none")
            assert not (sim.port.bad_crc or sim.port.split_ns or sim.port.silent)
        finally:
            link.close()


def test_an_unknown_fault_is_refused():
    with SimDealingShoe() as sim:
        with pytest.raises(ValueError, match="line fault"):
            sim.inject("gremlins")


def test_blackjack_rule_of_the_reader():
    assert is_blackjack("As", "Kd") and is_blackjack("Th", "Ac")
    assert not is_blackjack("As", "9d") and not is_blackjack("Ks", "Qd")


def test_a_table_starts_every_device_and_stops_without_leftovers():
    fds, threads = len(open_fds()), threading.active_count()
    table = SimHardware().start()
    paths = table.paths
    assert set(paths) == {"card_reader", "shuffler", "shoe", "dice_reader", "dealer_panel"}
    assert all(os.path.exists(p) for p in paths.values())
    assert threading.active_count() == threads + 5
    config = table.config()
    assert config["shoe"] == {"url": paths["shoe"]} and "progressive_system" in config
    table.stop()
    assert threading.active_count() == threads
    assert len(open_fds()) == fds
    assert table.factory.closed
