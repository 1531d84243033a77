"""The GPIO devices against the simulated pin factory: edges become Events stamped at the edge."""
import json

import pytest

from drivers.devices import Buttons, ProgressiveSystem, TowerLight
from drivers.devices.progressive_system import LOCKED, UNLOCKED
from hal_sim.devices import BUTTON_PINS, PROGRESSIVE_PINS, TOWER_PINS
from hal_sim.devices.gpio_side import SimButtonsWire, SimProgressiveWire
from hal_sim.gpio import SimFactory
from tests.drivers.devices.support import START_NS, Clock, Sink

MS = 1_000_000


@pytest.fixture
def table():
    clock = Clock(START_NS)
    factory = SimFactory(clock=clock)
    sink = Sink()
    system = ProgressiveSystem(None, factory, **PROGRESSIVE_PINS).start(sink)
    wire = SimProgressiveWire(factory, **PROGRESSIVE_PINS)
    yield clock, factory, sink, system, wire
    system.stop()
    factory.close()


def test_outputs_start_safe_with_the_lockout_locked(table):
    clock, factory, sink, system, wire = table
    assert wire.locked() == LOCKED and system.locked
    assert not any(wire.light(seat) for seat in range(1, 7))


def test_a_wager_edge_becomes_a_wager_event_stamped_at_the_edge(table):
    clock, factory, sink, system, wire = table
    system.unlock()
    edge = clock.now + 7 * MS
    wire.place_wager(3, at_ns=edge)
    [event] = sink.of("wager")
    assert event.data == {"seat": 3, "wager": "progressive", "amount": 100}
    assert event.ts_ns == edge and event.source == "progressive_system"


def test_a_bouncing_sensor_is_one_wager(table):
    clock, factory, sink, system, wire = table
    wire.bounce(2, 3)                       # 7 transitions within 1.2 ms
    wire.place_wager(2, at_ns=clock.now)
    assert len(sink.of("wager")) == 1
    assert factory.dropped(PROGRESSIVE_PINS["sensors"][2]) == 3
    wire.bounce(2, 0)                       # (a chattering release would read as a new chip)
    wire.clear(2, at_ns=clock.now + 30 * MS)
    wire.place_wager(2, at_ns=clock.now + 60 * MS)   # a new chip after the debounce window
    assert len(sink.of("wager")) == 2


def test_the_lockout_button_locks_in_its_own_edge_and_stamps_no_more_bets(table):
    clock, factory, sink, system, wire = table
    system.unlock()
    assert wire.locked() == UNLOCKED
    wire.place_wager(1, at_ns=clock.now + 1 * MS)
    press = clock.now + 2 * MS
    wire.press_lockout(at_ns=press)
    assert wire.locked() == LOCKED and system.status()["locked_at_ns"] == press
    [nmb] = sink.of("no_more_bets")
    assert nmb.ts_ns == press and nmb.data == {"button": "lockout"}
    wire.place_wager(5, at_ns=press + 1 * MS)       # after the press: the controller's to judge
    before, after = sink.of("wager")
    assert before.ts_ns < press < after.ts_ns


def test_lights_jackpot_and_to_safe(table):
    clock, factory, sink, system, wire = table
    system.unlock()
    system.accept(4)
    system.jackpot(True)
    assert wire.light(4) and factory.level(PROGRESSIVE_PINS["jackpot_light"])
    system.to_safe()
    assert wire.locked() == LOCKED and not wire.light(4)
    assert not factory.level(PROGRESSIVE_PINS["jackpot_light"])
    system.accept(1)
    system.lights_off()
    assert not wire.light(1)


def test_selftest_status_and_stop(table):
    clock, factory, sink, system, wire = table
    assert system.selftest() is True
    status = json.loads(json.dumps(system.status()))
    assert status["state"] == "ready" and status["locked"] is True
    system.unlock()
    system.stop()
    assert wire.locked() == LOCKED
    wire.place_wager(6, at_ns=clock.now)
    assert not sink.of("wager") and system.status()["state"] == "stopped"


def test_a_failed_lockout_line_fails_the_selftest(table):
    clock, factory, sink, system, wire = table
    factory.fail_writes(PROGRESSIVE_PINS["lockout"], OSError("line stuck"))
    assert system.selftest() is False
    assert system.status()["state"] == "fault"
    factory.fail_writes(PROGRESSIVE_PINS["lockout"], None)


def test_buttons_no_more_bets_at_the_edge_and_the_signals():
    clock, sink, signals = Clock(START_NS), Sink(), []
    with SimFactory(clock=clock) as factory:
        buttons = Buttons(None, factory, on_signal=lambda *s: signals.append(s),
                          **BUTTON_PINS).start(sink)
        wire = SimButtonsWire(factory, **BUTTON_PINS)
        wire.press("no_more_bets", at_ns=clock.now + 3 * MS)
        [event] = sink.of("no_more_bets")
        assert event.ts_ns == clock.now + 3 * MS and event.source == "buttons"
        wire.press("round_complete", at_ns=clock.now + 100 * MS)
        wire.press("floor_call", at_ns=clock.now + 200 * MS)
        assert signals == [("round_complete", clock.now + 100 * MS),
                           ("floor_call", clock.now + 200 * MS)]
        factory.inject_bounce(BUTTON_PINS["no_more_bets"], 2)
        # a tap shorter than the debounce: the release's chatter falls inside the window
        wire.press("no_more_bets", at_ns=clock.now + 300 * MS, width_ns=5 * MS)
        assert len(sink.of("no_more_bets")) == 2
        assert buttons.status()["counters"] == {"no_more_bets": 2, "round_complete": 1,
                                                "floor_call": 1}
        buttons.stop()


def test_tower_light_shows_and_falls_back_to_red():
    with SimFactory(clock=Clock(START_NS)) as factory:
        light = TowerLight(None, factory, **TOWER_PINS).start(Sink())
        levels = lambda: {c: factory.level(b) for c, b in TOWER_PINS.items()}  # noqa: E731
        assert levels() == {"red": True, "amber": False, "green": False, "buzzer": False}
        light.show("open")
        assert levels() == {"red": False, "amber": False, "green": True, "buzzer": False}
        light.to_safe()
        assert levels()["red"] and not levels()["green"]
        with pytest.raises(Exception, match="not one of"):
            light.show("disco")
        light.stop()
