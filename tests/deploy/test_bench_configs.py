"""deploy/tables/GAME-bench.toml: the shipped configuration with simulated devices, so that
`tablectl run --config deploy/tables/GAME-bench.toml --journal J` runs the real controller,
drivers and console on simulated devices (hal_sim/protocol_sim.py, hal_sim/bench.py)."""
import os
import signal
import subprocess
import sys
import time

import pytest

from controller import config as configuration
from controller.errors import ConfigError
from controller.games import ALL_GAMES, model_class
from controller.run import Runner, load_config
from hal_sim import bench

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("game", ALL_GAMES)
def test_every_table_has_its_bench_configuration_as_generated(game):
    path = bench.path_of(game)
    assert os.path.exists(os.path.join(ROOT, "deploy", "tables", game + ".toml"))
    with open(path) as f:
        assert f.read() == bench.bench_toml(game), "run python3 -m hal_sim.bench"


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_bench_configuration_is_the_shipped_table_with_simulated_devices(game):
    cfg, section, backend = load_config(bench.path_of(game), environ={})
    shipped, _, _ = load_config(os.path.join(ROOT, "deploy", "tables", game + ".toml"),
                                environ={"TABLECTL_HAL": "sim"})
    assert cfg == shipped and backend == "sim"
    serial = [d for d in section["devices"].values() if "url" in d]
    assert serial and all(d["url"].startswith("sim://") for d in serial)


# the serial devices each game's bench has: those the game uses as configured (issue 35)
WANTED = {"blackjack": ("card_reader", "shuffler", "shoe", "dealer_panel", "meter_display"),
          "six-card-fortune-pai-gow": ("shuffler", "dice_reader", "dealer_panel",
                                       "meter_display")}


def test_a_bench_has_only_the_devices_its_game_uses():
    for game in ALL_GAMES:
        serial = {n for n, d in bench.bench_devices(game).items() if "url" in d}
        assert "dealer_panel" in serial
        assert ("dice_reader" in serial) == (game in ("props-and-hops",
                                                      "six-card-fortune-pai-gow")), game
        assert ("card_reader" in serial) == ("blackjack" in game), game
    assert "dice_reader" not in bench.bench_devices("blackjack")


@pytest.mark.parametrize("game", ["blackjack", "six-card-fortune-pai-gow"])
def test_run_on_a_bench_configuration_connects_every_simulated_device(game, tmp_path,
                                                                       monkeypatch):
    monkeypatch.setenv("TABLECTL_PINS", str(tmp_path / "pins.json"))
    cfg, section, backend = load_config(bench.path_of(game), environ={})
    runner = Runner(cfg, section, backend, str(tmp_path / "j.db"), environ={},
                    err=open(os.devnull, "w"))
    try:
        assert runner.start()
        serial = {n: d for n, d in runner.drivers.items() if hasattr(d, "wait_connected")}
        assert set(serial) == set(WANTED[game])
        for name, driver in serial.items():
            assert driver.wait_connected(5.0), name
        assert runner.loop_alive and runner.console_path.startswith("/dev/")
    finally:
        assert runner.close() == []


def test_the_bench_command_of_docs_deploy_runs_and_stops_cleanly(tmp_path):
    env = dict(os.environ, TABLECTL_PINS=str(tmp_path / "pins.json"))
    env.pop("TABLECTL_HAL", None)
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config",
                             bench.path_of("poker"), "--journal", str(tmp_path / "j.db")],
                            cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        end = time.monotonic() + 30
        while time.monotonic() < end:
            line = proc.stderr.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("tablectl run: running"):
                break
        assert lines and lines[-1].startswith("tablectl run: running poker (HAL sim, "), lines
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and "stopped" in err and "Traceback" not in err


def test_a_simulated_device_on_a_real_table_is_refused(tmp_path):
    cls = model_class("poker")
    with pytest.raises(ConfigError, match="needs hal = \"sim\""):
        configuration.validate({"game": "poker", "controller": {
            "hal": "real", "devices": {"shoe": {"url": "sim://shoe"}}}}, cls)
    with pytest.raises(ConfigError, match="no simulated device"):
        configuration.validate({"game": "poker", "controller": {
            "hal": "sim", "devices": {"shoe": {"url": "sim://toaster"}}}}, cls)


@pytest.mark.parametrize("doc", ["docs/deploy.md", "docs/devices.md"])
def test_the_device_settings_the_docs_show_are_valid_toml_configuration(doc):
    import re
    import tomllib
    with open(os.path.join(ROOT, doc)) as f:
        blocks = re.findall(r"```toml\n(.*?)```", f.read(), re.S)
    devices = [b for b in blocks if "[controller" in b]
    assert devices, "%s shows no [controller] settings as TOML" % doc
    for block in devices:
        parsed = tomllib.loads(block)
        section = parsed["controller"]
        section.setdefault("hal", "real")
        configuration.validate({"game": "poker", "controller": section}, model_class("poker"))


def test_the_configuration_knows_the_simulated_devices_without_importing_them():
    from hal_sim.devices import SIMULATORS
    assert sorted(configuration.SIMULATED_DEVICES) == sorted(SIMULATORS)
    with open(configuration.__file__) as f:
        text = f.read()
    assert "import hal_sim" not in text and "from hal_sim" not in text
