"""`tablectl run`, the systemd unit's entry point, in a subprocess against simulated devices.

The simulated devices (hal_sim.devices.SimHardware) serve real ptys in this process; the
configuration points the controller's serial devices at them and TABLECTL_HAL=sim gives it
simulated GPIO. systemd is a datagram socket we bind (tests/deploy/test_watchdog.py).
"""
import json
import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest

from controller import config as configuration
from controller.errors import ConfigError
from controller.games import model_class
from controller.journal.formats import READ_ERRORS, open_journal
from hal_sim.devices import TABLE_DEVICES, SimHardware
from tests.deploy.test_watchdog import FakeSystemd
from tests.journal import tamper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{%s}" % ", ".join("%s = %s" % (json.dumps(str(k)), toml_value(v))
                                  for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "[%s]" % ", ".join(toml_value(v) for v in value)
    raise TypeError(value)


def write_config(path, game="blackjack", devices=None, controller_extra=""):
    lines = ['game = "%s"' % game, "", "[controller]", controller_extra]
    for name, entry in (devices or {}).items():
        lines.append("[controller.devices.%s]" % name)
        lines.extend("%s = %s" % (k, toml_value(v)) for k, v in entry.items())
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def tablectl(*args, env=None):
    return subprocess.Popen([sys.executable, "-m", "controller.cli"] + list(args), cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def read_until(proc, prefix, timeout=120.0):
    """stderr lines until one starts with `prefix`; (that line, every line read).

    Read from the pipe's fd, whole lines, never through the file object's buffer: two lines
    that arrive in one read are both seen here (select on a buffered file would wait for
    more while the second sat in its buffer, and communicate(), which reads the fd, would
    never see it). Every line read is in `seen`, those after the one found too."""
    fd = proc.stderr.fileno()
    seen, found, chunk = [], None, b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            break
        data = os.read(fd, 65536)
        if not data:
            break
        chunk += data
        *lines, chunk = chunk.split(b"\n")
        for raw in lines:
            line = raw.decode(errors="replace") + "\n"
            seen.append(line)
            if found is None and line.startswith(prefix):
                found = line
        if found is not None and not chunk:
            return found, seen
    raise AssertionError("no %r line within %.0f s; stderr: %s" % (prefix, timeout, seen))


def children_of(pid):
    """Processes whose parent is `pid` (Linux /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(entry))
    return out


def journal_of(pid):
    """The --journal argument of process `pid`, if it is a tablectl run."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            argv = f.read().decode(errors="replace").split("\0")
    except OSError:
        return None
    return argv[argv.index("--journal") + 1] if "--journal" in argv[:-1] else None


@pytest.fixture
def sim_table():
    table = SimHardware().start()
    yield table
    table.stop()


@pytest.fixture
def systemd():
    fake = FakeSystemd()
    yield fake
    fake.close()


def env_with(**extra):
    env = dict(os.environ)
    for key in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "TABLECTL_HAL"):
        env.pop(key, None)
    env.update(extra)
    return env


def run_and_stop(tmp_path, config, journal, env, systemd=None, sig=signal.SIGTERM):
    proc = tablectl("run", "--config", str(config), "--journal", str(journal), env=env)
    try:
        line, seen = read_until(proc, "console: ")
        console = line.split(":", 1)[1].strip()
        assert console.startswith("/dev/"), line
        ready = None
        if systemd is not None:
            ready = systemd.recv(timeout=10.0).splitlines()
            assert ready[0] == "READY=1"
        assert proc.poll() is None, "".join(seen)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, "".join(seen) + err, ready, proc.pid


def verify(journal):
    r = subprocess.run([sys.executable, "-m", "controller.cli", "journal", "verify",
                        str(journal)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_run_starts_notifies_ready_and_stops_cleanly_on_sigterm(tmp_path, sim_table, systemd):
    config = write_config(tmp_path / "table.toml", devices=sim_table.config())
    journal = tmp_path / "journal.db"
    env = env_with(TABLECTL_HAL="sim", NOTIFY_SOCKET=systemd.env_value,
                   TABLECTL_PINS=str(tmp_path / "pins.json"))
    code, err, ready, pid = run_and_stop(tmp_path, config, journal, env, systemd)
    assert code == 0, err
    assert "created" in err and "stopped" in err
    assert "failed" not in err, err
    # STOPPING=1 is the last thing systemd hears
    rest = systemd.pending()
    assert rest and rest[-1].splitlines()[0] == "STOPPING=1", rest
    assert "rows" in verify(journal)
    assert not os.path.exists("/proc/%d" % pid)         # exited and reaped
    assert not [p for p in children_of(os.getpid()) if journal_of(p) == str(journal)]

    # a restart resumes from the journal after the boot checks, and stops as cleanly (SIGINT)
    code, err, ready, _ = run_and_stop(tmp_path, config, journal, env, systemd,
                                       sig=signal.SIGINT)
    assert code == 0, err
    assert "the boot checks passed" in err, err
    verify(journal)


def test_run_serves_the_console_on_a_pty_without_notify_socket(tmp_path, sim_table):
    config = write_config(tmp_path / "table.toml", game="poker", devices=sim_table.config())
    env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
    code, err, _, _ = run_and_stop(tmp_path, config, tmp_path / "j.db", env)
    assert code == 0, err
    verify(tmp_path / "j.db")


def test_a_broken_journal_starts_the_table_locked_out_and_says_why(tmp_path, sim_table):
    config = write_config(tmp_path / "table.toml", devices=sim_table.config())
    journal = tmp_path / "journal.db"
    env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
    assert run_and_stop(tmp_path, config, journal, env)[0] == 0
    tamper.edit_meters(journal, lambda m: dict(m, rounds=m["rounds"] + 1))
    code, err, _, _ = run_and_stop(tmp_path, config, journal, env)
    assert code == 0, err
    assert "the boot checks failed; the table is locked out: " in err, err


def test_a_journal_key_in_the_config_keys_the_journal_and_is_checked_first(tmp_path,
                                                                          sim_table):
    key = tmp_path / "journal.key"
    key.write_text("6b3a55e0261b0304143f805a24924d0c1c44524821305f31d9277843b8a10f4e\n")
    key.chmod(0o600)
    config = write_config(tmp_path / "table.toml", devices=sim_table.config(),
                          controller_extra='journal_key = "%s"' % key)
    journal = tmp_path / "journal.db"
    env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
    code, err, _, _ = run_and_stop(tmp_path, config, journal, env)
    assert code == 0, err
    r = subprocess.run([sys.executable, "-m", "controller.cli", "journal", "verify",
                        str(journal), "--key", str(key)], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and "keyed, key id" in r.stdout, r.stdout + r.stderr
    key.chmod(0o644)
    before = journal.read_bytes()
    proc = tablectl("run", "--config", str(config), "--journal", str(journal), env=env)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "journal key %s is accessible by group or others" % key \
        in err, err
    assert journal.read_bytes() == before            # refused before the journal was opened


@pytest.mark.parametrize("body, named", [
    ('[controller]\ncolour = "red"\n', "controller.colour"),
    ('[controller]\nhal = "fake"\n', "controller.hal"),
    ('[controller.console]\nport = "/dev/ttyUSB9"\n', "controller.console.port"),
    ('[controller]\ndevices = {shoe = "/dev/ttyUSB0"}\n', "controller.devices.shoe"),
    ('[controller.devices.shoe]\ntype = "toaster"\n', "controller.devices.shoe"),
    ('[controller.devices.shoe]\nbaud = 9600\n', "controller.devices.shoe.url"),
    ("colour = 1\n", "colour"),
])
def test_a_bad_config_exits_2_naming_the_key(tmp_path, body, named):
    config = tmp_path / "table.toml"
    config.write_text('game = "blackjack"\n' + body)
    journal = tmp_path / "journal.db"
    proc = tablectl("run", "--config", str(config), "--journal", str(journal),
                    env=env_with(TABLECTL_HAL="sim"))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and named in lines[0], err
    assert not journal.exists()          # refused before the journal is opened


def test_no_hal_anywhere_exits_2_naming_both(tmp_path):
    config = write_config(tmp_path / "table.toml")
    proc = tablectl("run", "--config", str(config), "--journal", str(tmp_path / "j.db"),
                    env=env_with())
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "hal" in err and "TABLECTL_HAL" in err and len(err.strip().splitlines()) == 1


def test_the_controller_section_is_validated_and_optional():
    cls = model_class("blackjack")
    assert "controller" not in configuration.validate({}, cls)
    cfg = configuration.validate({"controller": {"hal": "sim", "devices": {
        "shoe": {"url": "/dev/tablectl/dealing_shoe"}}, "console": {"tty": "/dev/ttyS0"}}}, cls)
    assert cfg["controller"] == {"hal": "sim", "devices": {
        "shoe": {"url": "/dev/tablectl/dealing_shoe"}}, "console": {"tty": "/dev/ttyS0"}}
    for bad, named in [({"hal": 1}, "controller.hal"), ({"extra": 1}, "controller.extra"),
                       ({"devices": []}, "controller.devices"),
                       ({"console": {"tty": 5}}, "controller.console.tty"),
                       ({"console": {"baud": 9600}}, "controller.console.baud")]:
        with pytest.raises(ConfigError, match=named.replace(".", r"\.")):
            configuration.validate({"controller": bad}, cls)


def test_run_journals_a_malformed_frame_with_its_device(tmp_path, sim_table):
    """Nothing silent: junk on a device's line is a journal row naming the device and why."""
    config = write_config(tmp_path / "table.toml", devices=sim_table.config())
    journal = tmp_path / "journal.db"
    env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
    proc = tablectl("run", "--config", str(config), "--journal", str(journal), env=env)
    try:
        read_until(proc, "console: ")
        shuffler = sim_table.serial["shuffler"]
        deadline = time.monotonic() + 10
        while not shuffler.link.connected:
            assert time.monotonic() < deadline, "the driver never connected"
            time.sleep(0.01)
        shuffler.inject("junk", 16)
        deadline = time.monotonic() + 10
        while not _rows_of(journal, "frame_rejected"):
            assert time.monotonic() < deadline, "the junk was not journaled"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    (row,) = _rows_of(journal, "frame_rejected")
    assert (row["source"], row["data"]["device"], row["data"]["reason"]) == \
        ("shuffler", "shuffler", "junk")
    assert row["data"]["frame"] == "55" * 16
    verify(journal)


def _rows_of(journal, kind):
    """Rows read beside the running controller (either format: readers never block)."""
    if not journal.exists():
        return []
    try:
        store = open_journal(str(journal), readonly=True)
    except READ_ERRORS:                          # not made whole yet
        return []
    try:
        rows = list(store.select(kinds=(kind,)))
    finally:
        store.close()
    return [{"source": r["source"], "data": json.loads(r["data"])} for r in rows]


def test_the_runner_stamps_frames_and_edges_in_table_time(tmp_path, sim_table, monkeypatch):
    """The drivers and the pin factory take the table clock: a journal whose time line is far
    beyond this machine's monotonic clock (written on another kernel) goes on from there."""
    import io

    from controller.games.engine import GameMachine
    from controller.journal import boot
    from controller.journal.clock import UNKNOWN_NS
    from controller.journal.formats import open_journal
    from controller.policies import default_policies
    from controller.run import Runner, load_config
    from hal_sim.devices import BUTTON_PINS
    far = 10 ** 6 * 3600 * 10 ** 9                  # a million hours: more than any uptime
    monkeypatch.setenv("TABLECTL_PINS", str(tmp_path / "pins.json"))
    config = write_config(tmp_path / "table.toml", devices=sim_table.config(),
                          controller_extra='hal = "sim"')
    cfg, section, backend = load_config(str(config), environ={})
    journal = str(tmp_path / "journal.db")
    cls = model_class(cfg["game"])
    ahead = time.time_ns() + 10 * 3600 * 10 ** 9    # that kernel's wall clock: ours is behind
    boot(journal, GameMachine(cls(cfg)), default_policies(cls.GAME), clock=lambda: far,
         wall=lambda: ahead, boot_id=lambda: "another kernel").close()
    err = io.StringIO()
    runner = Runner(cfg, section, backend, journal, environ={}, err=err)
    try:
        runner.start()
        assert runner.drivers["dealer_panel"].wait_connected(5.0)
        sim_table.serial["dealer_panel"].key("no_more_bets")                # a frame
        runner.factory.pulse(BUTTON_PINS["no_more_bets"], 5_000_000)       # an edge
        end = time.monotonic() + 10
        while runner.ctl.stats["events"] < 2 and time.monotonic() < end:
            time.sleep(0.01)
    finally:
        runner.close()
    store = open_journal(journal)
    try:
        events = [(r["source"], r["ts_ns"]) for r in store.rows() if r["entry"] == "event"]
    finally:
        store.close()
    assert {s for s, _ in events} == {"dealer_panel", "buttons"}, events
    assert all(ts >= far + UNKNOWN_NS for _, ts in events), events
    assert re.search(r"table clock: the wall clock reads 3(5999|6000) s before the journal's "
                     r"latest stamp", err.getvalue()), err.getvalue()


def test_shutdown_leaves_the_meter_display_in_its_safe_state(tmp_path):
    """The one shutdown path makes the outputs safe while their drivers can still reach them:
    the meter display shows LOCKED, not amounts nobody keeps any more."""
    table = SimHardware(TABLE_DEVICES + ("meter_display",)).start()
    try:
        config = write_config(tmp_path / "table.toml", game="six-card-fortune-pai-gow",
                              devices=table.config())
        env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
        display = table.serial["meter_display"]
        code, err, _, _ = run_and_stop(tmp_path, config, tmp_path / "j.db", env)
        assert code == 0, err
        assert display.blanked == "LOCKED", (display.blanked, display.commands[-3:])
    finally:
        table.stop()
