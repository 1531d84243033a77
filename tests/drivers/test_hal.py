"""The HAL: which backend a controller gets, the pin rules every backend shares, and the
one safe path that puts every output at its declared safe value."""
import logging
import subprocess
import sys

import pytest

from controller.errors import TablectlError
from drivers import hal
from drivers.hal import Edge, HalError, PinFactory, Pull, SafeStateError
from hal_sim.gpio import SimFactory


# -- choosing a backend ---------------------------------------------------------------

def test_the_configured_backend_wins_over_the_environment(caplog):
    with caplog.at_level(logging.WARNING, logger="drivers.hal"):
        assert hal.choose_backend("sim", {"TABLECTL_HAL": "real"}) == "sim"
    assert "TABLECTL_HAL=real ignored" in caplog.text


def test_the_environment_chooses_when_the_configuration_does_not():
    assert hal.choose_backend(None, {"TABLECTL_HAL": "real"}) == "real"
    assert hal.choose_backend(None, {"TABLECTL_HAL": "sim"}) == "sim"


def test_os_environ_is_read_by_default(monkeypatch):
    monkeypatch.setenv("TABLECTL_HAL", "sim")
    assert hal.choose_backend() == "sim"
    assert isinstance(hal.open_factory(), SimFactory)


@pytest.mark.parametrize("environ", [{}, {"TABLECTL_HAL": ""}])
def test_no_choice_at_all_is_refused_naming_both_places(environ):
    with pytest.raises(HalError) as e:
        hal.choose_backend(None, environ)
    assert "TABLECTL_HAL" in str(e.value) and "hal =" in str(e.value)


def test_an_unknown_environment_value_names_the_variable():
    with pytest.raises(HalError) as e:
        hal.choose_backend(None, {"TABLECTL_HAL": "mock"})
    msg = str(e.value)
    assert "TABLECTL_HAL" in msg and "'mock'" in msg and "sim or real" in msg


def test_an_unknown_configured_value_names_the_configuration_key():
    with pytest.raises(HalError) as e:
        hal.choose_backend("SIM", {"TABLECTL_HAL": "sim"})
    assert "configuration hal = 'SIM'" in str(e.value)


def test_hal_errors_are_tablectl_errors():
    assert issubclass(HalError, TablectlError) and issubclass(SafeStateError, HalError)


def test_open_factory_builds_the_chosen_backend_with_its_options():
    f = hal.open_factory("sim", {}, clock=lambda: 7)
    assert isinstance(f, SimFactory) and isinstance(f, PinFactory)
    f.output(5, safe=False)
    assert f.history(5) == [(7, False)]


def test_the_real_backend_off_a_pi_is_a_hal_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "RPi", None)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", None)
    with pytest.raises(HalError, match="RPi.GPIO"):
        hal.open_factory("real", {})


def test_importing_the_hal_loads_no_backend_and_no_rpi_gpio():
    code = ("import sys, drivers.hal, drivers.gpio_real; "
            "print(sorted(m for m in ('hal_sim.gpio', 'RPi', 'RPi.GPIO') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


# -- pins -------------------------------------------------------------------------------

@pytest.fixture
def sim():
    f = SimFactory(clock=iter(range(1000, 10**9, 1000)).__next__)
    yield f
    f.close()


def test_outputs_start_at_their_safe_value_unless_told_otherwise(sim):
    a = sim.output(5, safe=False, name="dealer_light")
    b = sim.output(6, safe=True, initial=False, name="shoe_lock")
    assert (a.value, a.is_safe, sim.level(5)) == (False, True, False)
    assert (b.value, b.is_safe, sim.level(6)) == (False, False, False)


def test_output_writes_and_to_safe(sim):
    out = sim.output(5, safe=False)
    out.on()
    assert out.value and sim.level(5) and not out.is_safe
    out.to_safe()
    out.to_safe()
    assert not sim.level(5) and [v for _, v in sim.history(5)] == [False, True, False, False]
    out.write(1)
    assert sim.level(5) is True


@pytest.mark.parametrize("bad", [2, "high", None, 0.0])
def test_levels_are_booleans(sim, bad):
    out = sim.output(5, safe=False)
    with pytest.raises(HalError, match="level"):
        out.write(bad)
    with pytest.raises(HalError, match="safe"):
        sim.output(6, safe=bad)


def test_a_pin_is_claimed_once(sim):
    sim.input(17, name="lockout_button")
    with pytest.raises(HalError, match="GPIO17 is already claimed as GPIO17 'lockout_button'"):
        sim.output(17, safe=False)


@pytest.mark.parametrize("bcm", [-1, 28, "17", True, 4.0])
def test_pins_are_bcm_numbers(sim, bcm):
    with pytest.raises(HalError, match="BCM GPIO number"):
        sim.input(bcm)


def test_pull_and_edge_accept_their_names_and_refuse_others(sim):
    p = sim.input(17, pull="up", edge="falling", debounce_ms=5, callback=print)
    assert (p.pull, p.edge, p.debounce_ms) == (Pull.UP, Edge.FALLING, 5)
    with pytest.raises(HalError, match="Pull"):
        sim.input(18, pull="pullup")
    with pytest.raises(HalError, match="Edge"):
        sim.input(18, edge="high")
    with pytest.raises(HalError, match="debounce_ms"):
        sim.input(18, edge="both", debounce_ms=1.5)
    with pytest.raises(HalError, match="needs an edge"):
        sim.input(18, debounce_ms=10)
    with pytest.raises(HalError, match="needs an edge"):
        sim.input(18, callback=print)
    sim.input(18)   # the refusals claimed nothing


def test_a_failed_setup_releases_the_claim_and_names_the_pin():
    class Broken(SimFactory):
        def _setup_output(self, bcm, level):
            raise OSError("line busy")

    f = Broken()
    with pytest.raises(HalError, match="GPIO5 'bell': setup as output failed: line busy"):
        f.output(5, safe=False, name="bell")
    assert f.outputs() == ()
    f.close()


# -- the safe path ------------------------------------------------------------------------

def _three_outputs(f):
    return [f.output(5, safe=False, name="a"), f.output(6, safe=True, name="b"),
            f.output(13, safe=False, name="c")]


def test_close_puts_every_output_at_its_safe_value_then_releases(sim):
    outs = _three_outputs(sim)
    for o in outs:
        o.write(not o.safe)
    sim.close()
    assert [sim.level(b) for b in (5, 6, 13)] == [False, True, False]
    assert sim.released and sim.closed


def test_one_failing_output_does_not_keep_the_others_live(sim, caplog):
    outs = _three_outputs(sim)
    for o in outs:
        o.write(not o.safe)
    sim.fail_writes(6, OSError("driver chip gone"))
    with pytest.raises(SafeStateError) as e:
        sim.close()
    assert [w for w, _ in e.value.failures] == ["GPIO6 'b'"]
    assert "driver chip gone" in str(e.value)
    assert isinstance(e.value, TablectlError)
    assert sim.level(5) is False and sim.level(13) is False and sim.released
    assert "GPIO6 'b': could not apply safe value" in caplog.text


def test_an_interrupt_in_the_safe_path_waits_until_every_output_was_tried(sim):
    _three_outputs(sim)[2].on()
    sim.fail_writes(5, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        sim.close()
    assert sim.level(13) is False and sim.released and sim.closed


def test_a_failed_release_is_reported_after_the_outputs_are_safe():
    class NoRelease(SimFactory):
        def _release(self):
            raise RuntimeError("cleanup failed")

    f = NoRelease()
    f.output(5, safe=False).on()
    with pytest.raises(SafeStateError, match="release: RuntimeError"):
        f.close()
    assert f.level(5) is False


def test_close_is_idempotent(sim):
    out = _three_outputs(sim)[0]
    out.on()
    sim.fail_writes(6, OSError("x"))
    with pytest.raises(SafeStateError):
        sim.close()
    history = sim.history(5)
    sim.close()
    sim.close()
    assert sim.history(5) == history
    out.to_safe()                     # a no-op on a released line, never an error
    assert sim.history(5) == history
    assert sim.safe_all() == []


def test_safe_all_reports_without_raising_and_can_run_again(sim):
    outs = _three_outputs(sim)
    for o in outs:
        o.write(not o.safe)
    sim.fail_writes(13, OSError("x"))
    assert [w for w, _ in sim.safe_all()] == ["GPIO13 'c'"]
    assert sim.level(5) is False and sim.level(6) is True and not sim.closed
    sim.fail_writes(13, None)
    assert sim.safe_all() == [] and sim.level(13) is False
    outs[0].on()                      # the table may run again after a safe_all
    assert sim.level(5) is True


def test_a_closed_factory_refuses_new_pins_and_writes(sim):
    out = sim.output(5, safe=False)
    sim.close()
    with pytest.raises(HalError, match="closed"):
        out.on()
    with pytest.raises(HalError, match="closed"):
        sim.input(17)


def test_the_factory_is_a_context_manager():
    with SimFactory() as f:
        f.output(5, safe=True, initial=False)
    assert f.closed and f.level(5) is True
