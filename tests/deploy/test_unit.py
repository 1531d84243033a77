"""deploy/tablectl.service: systemd accepts it, and it keeps the promises docs/deploy.md makes."""
import pathlib
import shutil
import subprocess

import pytest

UNIT = pathlib.Path(__file__).resolve().parents[2] / "deploy" / "tablectl.service"
EXEC = "/opt/tablectl/venv/bin/tablectl"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed "
                                   "(apt-get install systemd); the unit cannot be verified here")


def directives(text):
    """[(section, key, value)] in order; systemd units repeat keys, so not a dict."""
    out, section = [], None
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, sep, value = line.partition("=")
        assert sep, "not KEY=VALUE: %r" % line
        out.append((section, key.strip(), value.strip()))
    return out


def values(key, section="Service"):
    return [v for s, k, v in directives(UNIT.read_text()) if s == section and k == key]


def verifiable_copy(tmp_path):
    """The unit with ExecStart pointing at an executable that exists here (verify checks it)."""
    exe = tmp_path / "tablectl"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    text = UNIT.read_text()
    assert EXEC in text
    unit = tmp_path / "tablectl.service"
    unit.write_text(text.replace(EXEC, str(exe)))
    return unit


@needs_analyze
def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    unit = verifiable_copy(tmp_path)
    r = subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True,
                       timeout=60)
    # verify exits 0 even for unknown keys and unparsable values: its messages about our
    # unit are failures too (lines about other units on this machine are not ours).
    ours = [line for line in (r.stdout + r.stderr).splitlines() if "tablectl" in line]
    assert r.returncode == 0 and not ours, r.stdout + r.stderr


@needs_analyze
def test_systemd_analyze_verify_catches_a_broken_unit(tmp_path):
    """The check above is not vacuous: a typo is reported."""
    unit = verifiable_copy(tmp_path)
    unit.write_text(unit.read_text().replace("Type=notify", "Type=notifyy"))
    r = subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True,
                       timeout=60)
    assert "notifyy" in r.stdout + r.stderr


@needs_analyze
def test_exposure_stays_low(tmp_path):
    """systemd's own hardening score (0 best, 10 worst); 2.5 leaves room, 'OK' band."""
    unit = verifiable_copy(tmp_path)
    r = subprocess.run([ANALYZE, "security", "--offline=yes", "--threshold=25", str(unit)],
                       capture_output=True, text=True, timeout=60)
    if "--offline" in r.stderr and "unrecognized" in r.stderr:
        pytest.skip("this systemd-analyze has no --offline (systemd < 250)")
    assert r.returncode == 0, r.stdout[-600:] + r.stderr


def test_notify_watchdog_and_restart():
    assert values("Type") == ["notify"]
    assert values("NotifyAccess") == ["main"]
    assert values("Restart") == ["on-failure"]
    (watchdog,) = values("WatchdogSec")
    assert watchdog.endswith("s") and 2 <= int(watchdog[:-1]) <= 60


def test_the_controller_starts_after_the_wall_clock_is_synchronized():
    """The table clock reads the wall clock at boot for the time the power was off."""
    assert "time-sync.target" in values("Wants", "Unit")
    assert "time-sync.target" in " ".join(values("After", "Unit")).split()


def test_hardening_options():
    for key, want in [("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"),
                      ("ProtectHome", "yes"), ("PrivateTmp", "yes"), ("DevicePolicy", "closed"),
                      ("User", "tablectl"), ("CapabilityBoundingSet", ""), ("LimitCORE", "0")]:
        assert values(key) == [want], key
    assert set(" ".join(values("SupplementaryGroups")).split()) == {"dialout", "gpio"}
    allowed = " ".join(values("DeviceAllow"))
    for dev in ("/dev/gpiomem", "char-ttyUSB", "char-ttyACM", "char-gpiochip"):
        assert dev in allowed


def test_the_journal_is_the_writable_path_and_execstart_is_absolute():
    (execstart,) = values("ExecStart")
    argv = execstart.split()
    assert argv[0] == EXEC
    journal = argv[argv.index("--journal") + 1]
    writable = " ".join(values("ReadWritePaths")).split()
    assert str(pathlib.PurePath(journal).parent) in writable
    assert "/var/lib/tablectl" in writable
    config = argv[argv.index("--config") + 1]
    assert config.startswith("/etc/tablectl/")               # read-only under ProtectSystem
