"""The console's `inject` and `repair` of a GPIO device on an all-simulated table
(hal_sim/practice.py): each reaches the device's own wire, found by its registration
(controller/device_registry.py), so a GPIO kind's faults live in its simulator."""
import time

import pytest

from drivers.devices import build_devices
from hal_sim.devices import SimHardware
from hal_sim.practice import Practice


@pytest.fixture
def bench():
    hw = SimHardware(devices=())
    drivers = build_devices(hw.config(), hw.factory)
    sent = []
    for driver in drivers.values():
        driver.start(sent.append)
    try:
        yield Practice(None, drivers), hw, sent
    finally:
        for driver in drivers.values():
            driver.stop()
        hw.stop()


def test_a_gpio_fault_is_injected_and_repaired_by_its_own_wire(bench):
    practice, hw, sent = bench
    assert practice.kinds("progressive_system") == ("bounce", "past_post")
    assert practice.kinds("buttons") == ()
    assert practice.inject("progressive_system", "past_post") == \
        "a chip placed on seat 6's sensor now"
    assert [(e.source, e.data.get("seat")) for e in sent] == [("progressive_system", 6)]
    sensor = hw.progressive.sensors[1]
    assert practice.inject("progressive_system", "bounce") == \
        "the sensor of seat 1 now chatters 3 times at each change"
    at = time.monotonic_ns() + 10 ** 9              # the edges at the test's own instants
    hw.progressive.place_wager(1, at)
    assert hw.factory.dropped(sensor) > 0                 # the chatter the debounce drops
    before = hw.factory.dropped(sensor)
    assert practice.repair("progressive_system") == \
        "progressive_system repaired: its sensors no longer chatter"
    hw.progressive.clear(1, at + 10 ** 9)
    assert hw.factory.dropped(sensor) == before
    assert practice.repair("buttons") == "buttons has nothing to repair"
    with pytest.raises(ValueError):
        practice.inject("buttons", "bounce")
