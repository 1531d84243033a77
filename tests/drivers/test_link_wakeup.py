"""The link thread sleeps in select(): a frame on the port or a send() wakes it at once.

With a tick of an hour these links could only work if the wake-ups do; close() too must wake
the thread rather than wait for its tick.
"""

import contextlib
import os
import threading

import serial

from drivers.link import Link
from hal_sim.devices.pty_port import PtyPort
from tests.drivers.test_link import CONTROLLER, SHUFFLER, pump_until

HOUR_S = 3600.0


def test_frames_and_sends_wake_the_threads_long_before_their_tick():
    device_port = PtyPort()
    port = serial.serial_for_url(device_port.path, baudrate=115200, timeout=0)
    got = []
    controller = Link(port, CONTROLLER, on_message=got.append)
    device = Link(device_port, SHUFFLER, role="device", on_message=got.append)
    try:
        device.start(HOUR_S)
        controller.start(HOUR_S)
        controller.begin_handshake()
        pump_until(lambda: controller.connected and device.connected)
        for n in range(20):                      # each one a full round trip with its ACK
            device.send({"kind": "card", "n": n})
            controller.send({"cmd": "status", "n": n})
        pump_until(lambda: len(got) == 40 and controller.idle and device.idle)
        assert sorted(m.payload["n"] for m in got if m.payload.get("kind") == "card") == \
            list(range(20))
        assert controller.stats["retransmits"] == device.stats["retransmits"] == 0
    finally:
        closer = threading.Thread(target=lambda: (controller.close(), device.close()))
        closer.start()
        closer.join(5.0)
        assert not closer.is_alive(), "close() waited for the hour-long tick"
        port.close()
        device_port.close()


def test_a_hung_up_pty_does_not_spin_the_thread():
    master, slave = os.openpty()
    port = serial.serial_for_url(os.ttyname(slave), baudrate=115200, timeout=0)
    link = Link(port, CONTROLLER, heartbeat_timeout_ms=10 ** 6)
    calls = []
    service = link.service
    link.service = lambda: (calls.append(1), service())[1]
    try:
        os.close(master)                         # select() now says "readable" for ever
        link.start(0.05)
        done = threading.Event()
        done.wait(0.5)
        # at a 50 ms tick about ten; a thread spinning on the hang-up would make thousands
        assert len(calls) < 60, "%d service calls in 0.5 s" % len(calls)
    finally:
        link.close()
        port.close()
        os.close(slave)


@contextlib.contextmanager
def connected_pair(tick_s, max_sleep_s, controller_kw=None, device_kw=None, line_due=False):
    """A controller Link and a device Link over a real pty, both threads started with
    (tick_s, max_sleep_s) and the handshake done; (controller, device, the device's
    PtyPort). `line_due`: the device's thread also wakes for the line's delayed bytes, as
    the simulator's do. Everything closed after."""
    device_port = PtyPort()
    port = serial.serial_for_url(device_port.path, baudrate=115200, timeout=0)
    controller = Link(port, CONTROLLER, **(controller_kw or {}))
    device = Link(device_port, SHUFFLER, role="device", **(device_kw or {}),
                  **({"on_due": device_port.next_due} if line_due else {}))
    try:
        device.start(tick_s, max_sleep_s)
        controller.start(tick_s, max_sleep_s)
        controller.begin_handshake()
        pump_until(lambda: controller.connected and device.connected)
        yield controller, device, device_port
    finally:
        controller.close()
        device.close()
        port.close()
        device_port.close()


def test_an_idle_line_wakes_for_its_heartbeats_not_every_tick():
    """On the real clock the threads sleep until the protocol's next timer: an idle
    connected pair still beats on time (every 100 ms here) but is not serviced every 2 ms
    tick, which cost six lines' threads ~500 wake-ups a second each, on the loop's GIL."""
    beat = {"heartbeat_interval_ms": 100}
    with connected_pair(0.002, 1.0, beat, beat) as (controller, device, _):
        calls = []
        service = controller.service
        controller.service = lambda: (calls.append(1), service())[1]
        beats = controller.stats["heartbeats_sent"]
        # ten beats, however long a loaded machine takes to give them (they come every
        # 100 ms when it is idle: not asserted here, a test asserts no wall-clock deadline)
        pump_until(lambda: controller.stats["heartbeats_sent"] - beats >= 10)
        beats, n = controller.stats["heartbeats_sent"] - beats, len(calls)
        # a wake-up per beat each way and its ACK-free frames: a few a beat, not the 2 ms
        # tick's fifty
        assert n < 10 * beats, "%d service rounds for %d heartbeats" % (n, beats)
        assert not controller.faults and not device.faults


def test_delayed_and_split_bytes_leave_when_due_without_a_tick():
    """The simulated line's delayed bytes wake the device's thread when due (PtyPort's
    next_due), so a 30 ms delay and a split frame arrive before the ACK timeout: no
    retransmission, no duplicate. (The device's ACK timeout is a generous second here, so a
    loaded machine's late wake-up is not a retransmission; a thread woken only by its tick
    would hold the bytes an hour.)"""
    got = []
    with connected_pair(HOUR_S, HOUR_S, {"on_message": got.append},
                        {"ack_timeout_ms": 1000}, line_due=True) as (controller, device, pty):
        pty.delay_ns, pty.split_ns = 30 * 10 ** 6, 5 * 10 ** 6
        for n in range(5):
            device.send({"kind": "card", "n": n})
        pump_until(lambda: len(got) == 5 and device.idle)
        assert [m.payload["n"] for m in got] == list(range(5))
        assert device.stats["retransmits"] == 0 and not controller.stats["rejected"]
