"""The simulated GPIO backend: edges driven with their timestamps, debounce exactly as
configured (drops counted), outputs and their history, injected sensor bounce."""
import pytest

from drivers.hal import HalError
from hal_sim.gpio import SimFactory

MS = 1_000_000


@pytest.fixture
def sim():
    f = SimFactory(clock=iter(range(10 * MS, 10**12, MS)).__next__)
    yield f
    f.close()


def watch(sim, bcm=17, **kw):
    seen = []
    sim.input(bcm, callback=seen.append, **kw)
    return seen


def test_an_edge_reaches_the_callback_with_its_timestamp(sim):
    seen = watch(sim, pull="up", edge="falling")
    assert sim.drive(17, False, at_ns=5_000_123) == 1
    assert seen == [5_000_123]


def test_pulls_set_the_idle_level(sim):
    assert sim.input(17, pull="up").value is True
    assert sim.input(18, pull="down").value is False
    assert sim.input(19).value is False          # floating reads low in the simulation


def test_only_the_detected_edges_call_back(sim):
    falling = watch(sim, 17, pull="up", edge="falling")
    rising = watch(sim, 18, pull="up", edge="rising")
    both = watch(sim, 19, pull="up", edge="both")
    for bcm in (17, 18, 19):
        sim.drive(bcm, False, at_ns=1 * MS)
        sim.drive(bcm, True, at_ns=2 * MS)
    assert falling == [1 * MS] and rising == [2 * MS] and both == [1 * MS, 2 * MS]


def test_no_level_change_is_no_edge(sim):
    seen = watch(sim, pull="up", edge="both")
    assert sim.drive(17, True, at_ns=1 * MS) == 0
    assert seen == [] and sim.dropped(17) == 0


def test_an_input_without_an_edge_just_changes_level(sim):
    pin = sim.input(17, pull="down")
    assert sim.drive(17, True, at_ns=1 * MS) == 0
    assert pin.value is True and sim.level(17) is True


def test_debounce_drops_and_counts_edges_within_the_bounce_time(sim):
    seen = watch(sim, pull="up", edge="both", debounce_ms=10)
    sim.drive(17, False, at_ns=100 * MS)
    sim.drive(17, True, at_ns=100 * MS + 1)
    sim.drive(17, False, at_ns=109 * MS + 999_999)
    assert seen == [100 * MS] and sim.dropped(17) == 2
    sim.drive(17, True, at_ns=110 * MS)          # exactly the bounce time: accepted
    assert seen == [100 * MS, 110 * MS] and sim.dropped(17) == 2
    assert sim.level(17) is True                  # dropped edges still moved the line


def test_debounce_counts_from_the_last_accepted_edge_not_the_last_seen(sim):
    seen = watch(sim, pull="up", edge="both", debounce_ms=10)
    sim.drive(17, False, at_ns=0)
    sim.drive(17, True, at_ns=8 * MS)             # dropped
    sim.drive(17, False, at_ns=16 * MS)           # 16 ms after the accepted one
    assert seen == [0, 16 * MS] and sim.dropped(17) == 1


def test_only_detected_edges_are_debounced(sim):
    seen = watch(sim, pull="up", edge="falling", debounce_ms=10)
    sim.drive(17, False, at_ns=0)
    sim.drive(17, True, at_ns=1 * MS)             # a rising edge is not detected at all
    sim.drive(17, False, at_ns=2 * MS)            # dropped
    sim.drive(17, True, at_ns=3 * MS)
    sim.drive(17, False, at_ns=12 * MS)
    assert seen == [0, 12 * MS] and sim.dropped(17) == 1


def test_without_debounce_every_edge_is_delivered(sim):
    seen = watch(sim, pull="up", edge="both")
    for i in range(6):
        sim.drive(17, i % 2 == 1, at_ns=i)
    assert seen == list(range(6)) and sim.dropped(17) == 0


def test_edges_default_to_the_clock_and_time_runs_forward(sim):
    seen = watch(sim, pull="up", edge="both")
    sim.drive(17, False)
    assert seen == [10 * MS]
    with pytest.raises(HalError, match="before the last one"):
        sim.drive(17, True, at_ns=10 * MS - 1)
    sim.drive(17, True, at_ns=10 * MS)            # the same instant is allowed


def test_pulse(sim):
    seen = watch(sim, pull="up", edge="both")
    assert sim.pulse(17, 50 * MS, at_ns=1 * MS) == 2
    assert seen == [1 * MS, 51 * MS] and sim.level(17) is True


def test_injected_bounce_is_dropped_by_the_debounce(sim):
    seen = watch(sim, pull="up", edge="falling", debounce_ms=20)
    sim.inject_bounce(17, 3, interval_ns=1 * MS)
    assert sim.drive(17, False, at_ns=100 * MS) == 1
    assert seen == [100 * MS] and sim.dropped(17) == 3 and sim.level(17) is False
    # A bouncing release chatters through falling edges too: the first is past the
    # bounce time of the press and is delivered, as it would be on the hardware.
    assert sim.drive(17, True, at_ns=200 * MS) == 1
    assert seen == [100 * MS, 201 * MS] and sim.dropped(17) == 5 and sim.level(17) is True


def test_injected_bounce_on_both_edges(sim):
    seen = watch(sim, pull="up", edge="both", debounce_ms=20)
    sim.inject_bounce(17, 2, interval_ns=1 * MS)
    sim.drive(17, False, at_ns=100 * MS)
    assert seen == [100 * MS] and sim.dropped(17) == 4


def test_injected_bounce_reaches_a_driver_without_debounce(sim):
    seen = watch(sim, pull="up", edge="falling")
    sim.inject_bounce(17, 2, interval_ns=300_000)
    assert sim.drive(17, False, at_ns=0) == 3
    assert seen == [0, 600_000, 1_200_000]


def test_bounce_injection_stops_on_command(sim):
    seen = watch(sim, pull="up", edge="both")
    sim.inject_bounce(17, 3)
    sim.inject_bounce(17, 0)
    assert sim.drive(17, False, at_ns=0) == 1 and seen == [0]
    with pytest.raises(HalError, match="bounce"):
        sim.inject_bounce(17, -1)


def test_outputs_are_readable_with_their_history(sim):
    out = sim.output(22, safe=False, name="dealer_light")
    out.on()
    out.off()
    out.to_safe()
    assert sim.level(22) is False
    assert sim.history(22) == [(10 * MS, False), (11 * MS, True), (12 * MS, False),
                               (13 * MS, False)]
    sim.history(22).clear()                       # a copy
    assert len(sim.history(22)) == 4


def test_the_wire_side_checks_what_it_is_given(sim):
    sim.input(17)
    sim.output(22, safe=False)
    with pytest.raises(HalError, match="GPIO5 is not claimed"):
        sim.drive(5, True)
    with pytest.raises(HalError, match="GPIO22 is an OutputPin"):
        sim.drive(22, True)
    with pytest.raises(HalError, match="GPIO17 is an InputPin"):
        sim.history(17)


def test_a_broken_output_raises_a_hal_error_until_repaired(sim):
    out = sim.output(22, safe=False, name="bell")
    sim.fail_writes(22, OSError("open circuit"))
    with pytest.raises(HalError, match="GPIO22 'bell': write failed: open circuit"):
        out.on()
    assert out.value is False
    sim.fail_writes(22, None)
    out.on()
    assert sim.level(22) is True


def test_no_callbacks_after_close(sim):
    seen = watch(sim, pull="up", edge="both")
    sim.close()
    assert sim.drive(17, False, at_ns=0) == 0
    assert seen == [] and sim.level(17) is False
