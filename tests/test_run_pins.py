"""`tablectl run`'s PINs and what it checks before the journal (issue 35): `--pins FILE`, a
warning at start when no log-in can succeed, one default PIN file for run, sim and passwd,
and the GPIO library looked for before the journal is created."""
import os
import subprocess
import sys

import pytest

from controller.console import auth
from hal_sim import bench
from tests.console.support import FAST, PINS
from tests.console.test_end_to_end import Terminal, socat  # noqa: F401 - fixture
from tests.test_run import env_with, read_until, tablectl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start(tmp_path, *extra, env=None):
    proc = tablectl("run", "--config", bench.path_of("flop-poker"), "--journal",
                    str(tmp_path / "j.log"), *extra, env=env)
    line, seen = read_until(proc, "console: ")
    return proc, line.split(":", 1)[1].strip(), seen


def stop(proc):
    proc.terminate()
    try:
        return proc.communicate(timeout=30)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_run_warns_at_start_when_no_pin_file_exists(tmp_path):
    env = env_with(TABLECTL_PINS=str(tmp_path / "none.json"))
    proc, _, seen = start(tmp_path, env=env)
    err = "".join(seen) + stop(proc)
    warning = [ln for ln in err.splitlines() if "warning" in ln]
    assert len(warning) == 1, err
    assert "no console PINs are set in %s" % (tmp_path / "none.json") in warning[0]
    assert "tablectl passwd technician --file" in warning[0] and "--pins FILE" in warning[0]


def test_run_pins_file_is_the_consoles_and_a_log_in_with_it_succeeds(tmp_path, socat):
    pins = auth.PinStore(str(tmp_path / "bench-pins.json"), **FAST)
    pins.set("technician", PINS["technician"])
    # $TABLECTL_PINS names another file: --pins wins, so no warning and the PIN works
    env = env_with(TABLECTL_PINS=str(tmp_path / "other.json"))
    proc, path, seen = start(tmp_path, "--pins", pins.path, env=env)
    try:
        assert not [ln for ln in seen if "warning" in ln], seen
        term = Terminal(path)
        try:
            assert "logged in as technician" in term.login("technician", PINS["technician"],
                                                           timeout=20)
        finally:
            term.close()
    finally:
        err = stop(proc)
    assert "warning" not in err, err


def test_one_default_pin_file_for_every_verb_said_in_each_help(tmp_path):
    assert auth.default_pin_store({"TABLECTL_PINS": "/x/p.json"}) == "/x/p.json"
    assert auth.default_pin_store({}, etc=str(tmp_path)) == str(tmp_path / "console-pins.json")
    assert auth.default_pin_store({}, etc=str(tmp_path / "absent")) == \
        os.path.expanduser("~/.tablectl/console-pins.json")
    for verb in ("run", "sim", "passwd"):
        r = subprocess.run([sys.executable, "-m", "controller.cli", verb, "--help"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, COLUMNS="400"))
        assert " ".join(auth.PIN_DEFAULT_TEXT.split()) in " ".join(r.stdout.split()), verb
    with open(os.path.join(ROOT, "docs", "deploy.md")) as f:
        assert " ".join(auth.PIN_DEFAULT_TEXT.split()) in " ".join(f.read().split())


def test_run_without_the_gpio_library_exits_2_before_creating_the_journal(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text('game = "blackjack"\n[controller]\nhal = "real"\n')
    journal = tmp_path / "j.log"
    proc = tablectl("run", "--config", str(config), "--journal", str(journal),
                    env=env_with())
    out, err = proc.communicate(timeout=60)
    try:
        import RPi.GPIO  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("this machine has RPi.GPIO")
    assert proc.returncode == 2, err
    assert len(err.strip().splitlines()) == 1 and "RPi.GPIO" in err, err
    assert sorted(os.listdir(tmp_path)) == ["table.toml"]
