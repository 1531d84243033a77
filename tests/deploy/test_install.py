"""deploy/install.sh: its dry run prints every action and writes nothing; --root installs files
idempotently (with a stand-in python3, so no network and no system change)."""
import hashlib
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from controller.run import load_config

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / "deploy" / "install.sh"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
PI4 = "Raspberry Pi 4 Model B Rev 1.4"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def install(*args, env=None, cwd=None):
    full = {k: v for k, v in os.environ.items() if k != "TABLECTL_PI_MODEL"}
    full.update(env or {})
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env=full, cwd=cwd, timeout=120)


def snapshot(*roots):
    """Every path under the roots with its type, mode, times and content hash."""
    out = {}
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            for name in dirnames + filenames + [""]:
                p = os.path.join(dirpath, name)
                st = os.lstat(p)
                digest = None
                if os.path.isfile(p) and not os.path.islink(p):
                    digest = hashlib.sha256(pathlib.Path(p).read_bytes()).hexdigest()
                out[p] = (st.st_mode, st.st_size, st.st_mtime_ns, digest)
    return out


def fake_pi(tmp_path, model):
    """A --root folder whose /proc/device-tree/model is the model, NUL-terminated as on a Pi."""
    root = tmp_path / "root"
    (root / "proc" / "device-tree").mkdir(parents=True)
    (root / "proc" / "device-tree" / "model").write_bytes(model.encode() + b"\0")
    return root


@pytest.mark.parametrize("model,package", [(PI5, "rpi-lgpio"), (PI4, "RPi.GPIO")])
def test_dry_run_prints_every_action(model, package):
    r = install("--dry-run", "--game", "blackjack", "--model", model)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "GPIO package: %s" % package in out
    pip_gpio = [line for line in out.splitlines() if "pip" in line and " install " in line
                and line.endswith(" " + package)]
    assert len(pip_gpio) == 1, out
    assert "python3 -m venv /opt/tablectl/venv" in out
    assert "--no-deps --force-reinstall %s" % REPO in out        # tablectl without RPi.GPIO
    # the firmware alone (setup.py's switch): no floor server, lab tools or simulator on a Pi
    tablectl = [line for line in out.splitlines() if line.endswith(" install --no-deps "
                                                                   "--force-reinstall %s" % REPO)]
    assert len(tablectl) == 1 and tablectl[0].startswith(
        "[dry-run] env TABLECTL_WINGS=firmware /opt/tablectl/venv/bin/python -m pip"), out
    assert "aiohttp" not in out and "numpy" not in out      # the wings' needs stay off a table
    assert "RPi.GPIO>" not in out
    assert "usermod --append --groups dialout\\,gpio tablectl" in out
    assert "useradd --system" in out or "user tablectl exists" in out
    assert "%s/deploy/tablectl.service /etc/systemd/system/tablectl.service" % REPO in out
    assert "%s/deploy/99-tablectl.rules /etc/udev/rules.d/99-tablectl.rules" % REPO in out
    assert "deploy/tables/blackjack.toml /etc/tablectl/table.toml" in out
    assert "systemctl enable tablectl.service" in out
    assert "-o tablectl -g tablectl /var/lib/tablectl" in out
    assert "[dry-run] new_journal_key /etc/tablectl/journal.key" in out
    assert "[dry-run] chown tablectl:tablectl /etc/tablectl/journal.key" in out
    # the manifest, the completion and the man page; a PIN asked for each required role
    assert "[dry-run] /opt/tablectl/venv/bin/python -m controller.cli manifest" in out
    assert "deploy/tablectl.bash-completion /usr/share/bash-completion/completions/tablectl" \
        in out
    assert "deploy/tablectl.1 /usr/local/share/man/man1/tablectl.1" in out
    for role in ("technician", "administrator"):
        assert ("[dry-run] /opt/tablectl/venv/bin/tablectl passwd %s --file "
                "/etc/tablectl/console-pins.json" % role) in out
    actions = [line for line in out.splitlines() if line.startswith(("+", "[skipped"))]
    assert actions == []                                # nothing done, only "[dry-run]"
    assert out.rstrip().endswith("dry run: nothing was changed")


@pytest.mark.parametrize("model,package", [
    (PI5, "rpi-lgpio"),
    ("Raspberry Pi 500 Rev 1.0", "rpi-lgpio"),
    ("Raspberry Pi Compute Module 5 Rev 1.0", "rpi-lgpio"),
    (PI4, "RPi.GPIO"),
    ("Raspberry Pi 400 Rev 1.0", "RPi.GPIO"),
    ("Raspberry Pi Compute Module 4 Rev 1.0", "RPi.GPIO"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "RPi.GPIO"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "RPi.GPIO"),
    ("Raspberry Pi Model B Rev 2", "RPi.GPIO"),
])
def test_gpio_package_by_model_from_the_environment(model, package):
    r = install("--dry-run", "--game", "poker", env={"TABLECTL_PI_MODEL": model})
    assert r.returncode == 0, r.stderr
    assert "GPIO package: %s\n" % package in r.stdout


def test_model_read_from_the_device_tree_under_root(tmp_path):
    root = fake_pi(tmp_path, PI5)
    r = install("--dry-run", "--root", str(root), "--game", "poker")
    assert r.returncode == 0, r.stderr
    assert "board: %s -> GPIO package: rpi-lgpio" % PI5 in r.stdout
    assert "[dry-run] python3 -m venv %s/opt/tablectl/venv" % root in r.stdout


def test_dry_run_writes_nothing(tmp_path):
    root = fake_pi(tmp_path, PI4)
    (root / "etc" / "tablectl").mkdir(parents=True)
    work = tmp_path / "cwd"
    work.mkdir()
    before = snapshot(tmp_path, REPO / "deploy")
    for args in (["--root", str(root), "--game", "flop-poker"],
                 ["--game", "flop-poker", "--model", PI5]):
        r = install("--dry-run", *args, cwd=work, env={"HOME": str(work), "TMPDIR": str(work)})
        assert r.returncode == 0, r.stderr
    assert snapshot(tmp_path, REPO / "deploy") == before


def test_refusals_name_the_way_out():
    r = install("--dry-run", "--game", "roulette", "--model", PI4)
    assert r.returncode == 2 and "blackjack" in r.stderr and "props-and-hops" in r.stderr
    r = install("--dry-run", "--game", "../../etc/passwd", "--model", PI4)
    assert r.returncode == 2 and "not a game name" in r.stderr
    r = install("--dry-run", "--game", "poker", "--model", "Generic x86 PC")
    assert r.returncode == 2 and "not a Raspberry Pi" in r.stderr
    r = install("--dry-run", "--model", PI4)
    assert r.returncode == 2 and "--game" in r.stderr
    r = install("--dry-run", "--bogus")
    assert r.returncode == 2 and "unknown argument" in r.stderr
    r = install("--help")
    assert r.returncode == 0 and "--dry-run" in r.stdout


FAKE_PYTHON3 = """#!/bin/sh
# python3 -m venv DIR: a venv whose python logs its arguments (pip) instead of installing.
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    mkdir -p "$3/bin"
    printf '#!/bin/sh\\necho "$*" >> "%s"\\ncase "$*" in *" show "*) exit 1;; esac\\n' \\
        "$PIP_LOG" > "$3/bin/python"
    chmod +x "$3/bin/python"
    exit 0
fi
exec "$REAL_PYTHON3" "$@"
"""


def pins_for(root, *roles):
    """A PIN file under `root` with a PIN for each role (a cheap scrypt: a test)."""
    from controller.console.auth import PinStore
    store = PinStore(str(root / "etc" / "tablectl" / "console-pins.json"), n=2 ** 4)
    for role in roles:
        store.set(role, "2468")


def stand_in_python(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").write_text(FAKE_PYTHON3)
    (bin_dir / "python3").chmod(0o755)
    log = tmp_path / "pip.log"
    return log, {"PATH": "%s:%s" % (bin_dir, os.environ["PATH"]), "PIP_LOG": str(log),
                 "REAL_PYTHON3": shutil.which("python3")}


def test_install_refuses_to_finish_without_the_role_pins(tmp_path):
    root = fake_pi(tmp_path, PI4)
    _, env = stand_in_python(tmp_path)
    r = install("--root", str(root), "--game", "poker", env=env)    # no terminal: no prompt
    assert r.returncode == 2
    assert "no console PIN for: technician administrator" in r.stderr
    assert "systemctl enable" not in r.stdout                # the service is not enabled
    assert (root / "etc/tablectl/table.toml").exists()       # what was done stays done
    pins_for(root, "technician")
    r = install("--root", str(root), env=env)
    assert r.returncode == 2 and "no console PIN for: administrator;" in r.stderr
    pins_for(root, "administrator")
    r = install("--root", str(root), env=env)
    assert r.returncode == 0, r.stderr
    assert "console PINs set for: technician administrator" in r.stdout
    assert oct((root / "etc/tablectl/console-pins.json").stat().st_mode & 0o777) == "0o640"


def test_root_install_places_the_manifest_completion_and_man_page(tmp_path):
    root = fake_pi(tmp_path, PI4)
    log, env = stand_in_python(tmp_path)
    pins_for(root, "technician", "administrator")
    r = install("--root", str(root), "--game", "poker", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "-m controller.cli manifest" in log.read_text()     # the venv's own tablectl
    assert (root / "usr/share/bash-completion/completions/tablectl").read_bytes() == \
        (REPO / "deploy/tablectl.bash-completion").read_bytes()
    assert (root / "usr/local/share/man/man1/tablectl.1").read_bytes() == \
        (REPO / "deploy/tablectl.1").read_bytes()


def test_a_bench_configuration_is_not_a_table_to_install():
    r = install("--dry-run", "--game", "poker-bench", "--model", PI4)
    assert r.returncode == 2 and "bench configuration" in r.stderr
    r = install("--dry-run", "--game", "roulette", "--model", PI4)
    assert "-bench" not in r.stderr


def test_root_install_is_idempotent_and_keeps_the_sites_files(tmp_path):
    root = fake_pi(tmp_path, PI5)
    pins_for(root, "technician", "administrator")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").write_text(FAKE_PYTHON3)
    (bin_dir / "python3").chmod(0o755)
    log = tmp_path / "pip.log"
    env = {"PATH": "%s:%s" % (bin_dir, os.environ["PATH"]), "PIP_LOG": str(log),
           "REAL_PYTHON3": shutil.which("python3")}

    r = install("--root", str(root), "--game", "props-and-hops", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    unit = root / "etc/systemd/system/tablectl.service"
    rules = root / "etc/udev/rules.d/99-tablectl.rules"
    config = root / "etc/tablectl/table.toml"
    assert unit.read_bytes() == (REPO / "deploy/tablectl.service").read_bytes()
    assert rules.read_bytes() == (REPO / "deploy/99-tablectl.rules").read_bytes()
    template = (REPO / "deploy/tables/props-and-hops.toml").read_text()
    assert config.read_text().startswith(template)
    # a new table's journal is keyed from its first start: the configuration names the key
    assert config.read_text()[len(template):].endswith(
        '[controller]\n# the key install.sh made: every journal row an HMAC under it '
        '(docs/journal.md)\njournal_key = "/etc/tablectl/journal.key"\n')
    cfg, section, _ = load_config(str(config), {"TABLECTL_HAL": "sim"})
    assert section["journal_key"] == "/etc/tablectl/journal.key"
    assert (root / "var/lib/tablectl").is_dir() and (root / "opt/tablectl/venv/bin/python").exists()
    assert oct(config.stat().st_mode & 0o777) == "0o640"
    key = root / "etc/tablectl/journal.key"
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    assert re.fullmatch(r"[0-9a-f]{64}", key.read_text())     # 32 random bytes, in hex
    assert "[skipped: --root] chown tablectl:tablectl %s" % key in r.stdout
    for skipped in ("useradd", "usermod", "systemctl enable", "udevadm trigger"):
        assert "[skipped: --root] " + skipped in r.stdout
    pip = log.read_text().splitlines()
    assert any(line.endswith("install rpi-lgpio") for line in pip)
    assert not any("RPi.GPIO" in line and "install" in line for line in pip)

    # The site edits its configuration and rules; a re-run (an upgrade) keeps both.
    config.write_text(config.read_text() + "\n# edited on site\n")
    rules.write_text(rules.read_text().replace("VVVV", "0403", 1))
    edited = snapshot(root / "etc/tablectl", root / "etc/udev")     # the key too
    r = install("--root", str(root), env=env)                # no --game: the config exists
    assert r.returncode == 0, r.stdout + r.stderr
    assert "virtual environment exists" in r.stdout
    assert "kept %s" % config in r.stdout and "kept %s" % rules in r.stdout
    assert "kept %s" % key in r.stdout                  # a new key would orphan the journal
    assert "python3 -m venv" not in r.stdout
    assert snapshot(root / "etc/tablectl", root / "etc/udev") == edited
    assert unit.read_bytes() == (REPO / "deploy/tablectl.service").read_bytes()
