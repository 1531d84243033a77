"""The real backend against a stand-in RPi.GPIO module (pytest-mock): the calls it makes
for BCM numbering, pulls, edge detection with debounce, writes, and the safe path."""
import sys
import time

import pytest

from drivers.hal import HalError, SafeStateError
from drivers.gpio_real import RealFactory


@pytest.fixture
def GPIO(mocker):
    gpio = mocker.MagicMock(name="RPi.GPIO")
    rpi = mocker.MagicMock(name="RPi", GPIO=gpio)
    mocker.patch.dict(sys.modules, {"RPi": rpi, "RPi.GPIO": gpio})
    return gpio


@pytest.fixture
def real(GPIO):
    f = RealFactory()
    yield f
    f.close()


def test_bcm_numbering(GPIO, real):
    GPIO.setmode.assert_called_once_with(GPIO.BCM)


@pytest.mark.parametrize("pull, pud", [("up", "PUD_UP"), ("down", "PUD_DOWN"),
                                       ("none", "PUD_OFF")])
def test_inputs_with_their_pull(GPIO, real, pull, pud):
    real.input(17, pull=pull)
    GPIO.setup.assert_called_once_with(17, GPIO.IN, pull_up_down=getattr(GPIO, pud))
    GPIO.add_event_detect.assert_not_called()


@pytest.mark.parametrize("edge, name", [("falling", "FALLING"), ("rising", "RISING"),
                                        ("both", "BOTH")])
def test_edge_detection_with_its_bouncetime(GPIO, real, edge, name):
    real.input(17, pull="up", edge=edge, debounce_ms=25, callback=lambda ts: None)
    GPIO.setup.assert_called_once_with(17, GPIO.IN, pull_up_down=GPIO.PUD_UP)
    GPIO.add_event_detect.assert_called_once()
    args, kwargs = GPIO.add_event_detect.call_args
    assert args == (17, getattr(GPIO, name))
    assert kwargs["bouncetime"] == 25 and callable(kwargs["callback"])


def test_no_debounce_leaves_bouncetime_out(GPIO, real):
    # RPi.GPIO raises ValueError for bouncetime=0.
    real.input(17, edge="both")
    assert "bouncetime" not in GPIO.add_event_detect.call_args.kwargs


def test_the_callback_gets_the_time_stamped_at_the_edge(GPIO, mocker):
    # the factory's clock: monotonic ns unless the controller gives it its table clock
    default = RealFactory()
    default.close()
    assert default.clock is time.monotonic_ns
    clock = mocker.Mock(side_effect=[111, 222])
    real = RealFactory(clock=clock)
    try:
        seen = []
        real.input(17, edge="falling", callback=seen.append)
        on_edge = GPIO.add_event_detect.call_args.kwargs["callback"]
        on_edge(17)
        on_edge(17)
        assert seen == [111, 222] and clock.call_count == 2
    finally:
        real.close()


def test_a_callback_set_later_is_used(GPIO, real):
    pin = real.input(17, edge="rising")
    on_edge = GPIO.add_event_detect.call_args.kwargs["callback"]
    on_edge(17)                       # no callback yet: nothing happens
    seen = []
    pin.callback = seen.append
    on_edge(17)
    assert len(seen) == 1 and isinstance(seen[0], int)


def test_a_failing_callback_is_logged_not_raised_into_the_gpio_thread(GPIO, real, caplog):
    def boom(ts):
        raise ValueError("driver bug")

    real.input(17, edge="rising", callback=boom, name="shoe_sensor")
    GPIO.add_event_detect.call_args.kwargs["callback"](17)
    assert "GPIO17 'shoe_sensor': edge callback failed" in caplog.text


def test_inputs_read_the_line(GPIO, real):
    pin = real.input(17)
    GPIO.input.return_value = 1
    assert pin.value is True
    GPIO.input.return_value = 0
    assert pin.value is False
    GPIO.input.assert_called_with(17)


def test_outputs_are_set_up_at_their_safe_level_and_written(GPIO, real):
    out = real.output(22, safe=True)
    GPIO.setup.assert_called_once_with(22, GPIO.OUT, initial=GPIO.HIGH)
    out.off()
    GPIO.output.assert_called_once_with(22, GPIO.LOW)
    out.on()
    GPIO.output.assert_called_with(22, GPIO.HIGH)
    real.output(23, safe=True, initial=False)
    GPIO.setup.assert_called_with(23, GPIO.OUT, initial=GPIO.LOW)


def test_close_writes_every_safe_value_then_cleans_up_once(GPIO, mocker):
    f = RealFactory()
    f.output(22, safe=False).on()
    f.output(23, safe=True).off()
    GPIO.reset_mock()
    f.close()
    f.close()
    assert GPIO.mock_calls == [mocker.call.output(22, GPIO.LOW),
                               mocker.call.output(23, GPIO.HIGH),
                               mocker.call.cleanup()]


def test_a_failing_output_still_lets_the_others_go_safe_and_cleans_up(GPIO, mocker):
    f = RealFactory()
    for bcm in (22, 23, 24):
        f.output(bcm, safe=False).on()

    def output(bcm, level):
        if bcm == 23:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")

    GPIO.output.side_effect = output
    GPIO.reset_mock()
    with pytest.raises(SafeStateError, match="GPIO23"):
        f.close()
    assert GPIO.output.call_args_list == [mocker.call(b, GPIO.LOW) for b in (22, 23, 24)]
    GPIO.cleanup.assert_called_once_with()


def test_a_refused_edge_detection_is_a_hal_error_and_frees_the_pin(GPIO, real):
    GPIO.add_event_detect.side_effect = RuntimeError("Failed to add edge detection")
    with pytest.raises(HalError, match="GPIO17 'button': setup as input failed: Failed to add"):
        real.input(17, edge="both", name="button")
    GPIO.add_event_detect.side_effect = None
    real.input(17, edge="both")


def test_without_rpi_gpio_the_backend_refuses_to_start(mocker):
    mocker.patch.dict(sys.modules, {"RPi": None, "RPi.GPIO": None})
    with pytest.raises(HalError, match="rpi-lgpio on a Pi 5"):
        RealFactory()
