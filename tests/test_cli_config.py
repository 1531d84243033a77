"""`tablectl config check FILE`, bare `tablectl floor`, and the keys an unknown-key error
offers (issue 35)."""
import subprocess
import sys

from controller import cli
from hal_sim import bench
from tests.test_run import ROOT


def tablectl(*args):
    return subprocess.run([sys.executable, "-m", "controller.cli"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin"})


def test_config_check_says_what_a_valid_file_configures(capsys):
    assert cli.main(["config", "check", bench.path_of("blackjack")]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "valid: blackjack, GPIO backend sim" in out
    assert "shoe" in out and "dice_reader" not in out          # the devices it uses


def test_config_check_names_what_is_wrong_in_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "table.toml"
    bad.write_text('game = "blackjack"\n[controller]\nhal = "sim"\n'
                   '[controller.devices.shoe]\nurl = "/dev/tablectl/shoe"\nbaud = 9600\n')
    assert cli.main(["config", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "controller.devices.shoe.baud: unknown key" in err
    # only what a person may set: no callbacks of the code's (on_tick, on_due)
    assert "baudrate" in err and "on_tick" not in err and "on_due" not in err
    assert not (tmp_path / "j.log").exists()


def test_config_check_of_a_real_table_needs_no_gpio_library_here(tmp_path, capsys):
    real = tmp_path / "table.toml"
    real.write_text('game = "flop-poker"\n[controller]\nhal = "real"\n'
                    '[controller.console]\ntty = "/dev/tablectl/console"\n')
    assert cli.main(["config", "check", str(real)]) == 0
    assert "GPIO backend real" in capsys.readouterr().out


def test_bare_config_and_bare_floor_list_their_verbs():
    r = tablectl("config")
    assert r.returncode == 0 and "check" in r.stdout and not r.stderr
    r = tablectl("floor")
    assert r.returncode == 0, r.stderr
    for verb in ("anchor", "demo", "link", "meters", "reconcile"):
        assert verb in r.stdout
    r = tablectl("floor", "--http", "127.0.0.1:1")                  # not bare: the service
    assert r.returncode == 2 and "--nats URL is required" in r.stderr


def test_config_check_of_a_template_without_hal_says_the_unit_chooses(capsys, monkeypatch):
    """The shipped template names no backend: the unit's TABLECTL_HAL=real does, so a
    technician's shell (without it) is not told the file is wrong."""
    import os
    monkeypatch.delenv("TABLECTL_HAL", raising=False)
    path = os.path.join(ROOT, "deploy", "tables", "blackjack.toml")
    assert cli.main(["config", "check", path]) == 0
    assert "GPIO backend from $TABLECTL_HAL at run" in capsys.readouterr().out
