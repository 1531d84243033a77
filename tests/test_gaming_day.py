"""The gaming day's start is one key of the table's configuration (issue 32):
[controller] gaming_day_start = "HH:MM", 06:00 when absent, checked strictly; the card
reader's daily inspection (581.2(d)), the console's meters and `tablectl top` all count
gaming days from it."""
import pytest

from controller import config as configuration
from controller.console.commands import Commands
from controller.errors import ConfigError
from controller.games import model_class
from controller.policies.devices import ReaderInspection
from controller.runtime import Runtime
from controller.top import JournalFollower
from controller.units import GAMING_DAY_START, HOUR_NS, day_start_ns
from hal_sim.simulation import SimulatedDevices


def test_the_default_is_six_and_the_getter_is_strict():
    assert GAMING_DAY_START == "06:00" and day_start_ns() == 6 * HOUR_NS
    assert day_start_ns("04:30") == 4 * HOUR_NS + 30 * 60 * 10 ** 9
    for bad in ("6:00", "06:00:00", "24:00", "06:60", "0600", 6, None, "aa:bb"):
        with pytest.raises(ValueError):
            day_start_ns(bad)
    assert configuration.gaming_day_start_ns(None) == 6 * HOUR_NS


@pytest.mark.parametrize("value", ["6am", "25:00", 6])
def test_a_bad_gaming_day_start_is_refused_naming_the_key(value):
    with pytest.raises(ConfigError, match="controller.gaming_day_start"):
        configuration.check_controller({"gaming_day_start": value})


@pytest.mark.reg("581.2(d)")
def test_the_configured_start_reaches_the_reader_the_console_and_top(tmp_path):
    section = configuration.check_controller({"gaming_day_start": "04:30"})
    assert configuration.gaming_day_start_ns(section) == 4 * HOUR_NS + 30 * 60 * 10 ** 9
    game = "double-attack-blackjack"
    cls = model_class(game)
    cfg = configuration.validate({"game": game}, cls)
    rt = Runtime(cfg, SimulatedDevices(game, [], cls(cfg)), journal=str(tmp_path / "j.log"),
                 console=None, loop=False, gaming_day_start=section["gaming_day_start"])
    try:
        rt.start()
        start = day_start_ns("04:30")
        assert rt.ctl.policy(ReaderInspection).day_start_ns == start
        assert "a gaming day begins 04:30 local time" in Commands(rt.ctl, {}).run(
            "dealer", "meters")
    finally:
        rt.close()
    assert JournalFollower(str(tmp_path / "j.log")).read().day_start_ns == start
