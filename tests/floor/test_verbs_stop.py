"""Every long-running verb stops on SIGHUP (its terminal closed) and SIGTERM as on Ctrl-C
(issue 34): its own clean stop, exit 0, no error printed. `tablectl floor` and `floor link
run` against a real nats-server; `sim` with a journal; `top` on it; `run` on the simulated
devices of tests/test_run.py."""

import signal
import subprocess
import sys

import pytest

from tests.floor.conftest import ROOT, tablectl, wait_for
from tests.test_run import env_with, run_and_stop, sim_table, write_config  # noqa: F401


def started(proc, prefix, stream="stdout", timeout=60):
    """The first line of `proc`'s stream that starts with `prefix` (the verb is up)."""
    lines = []

    def line():
        text = getattr(proc, stream).readline()
        lines.append(text)
        return text if text.startswith(prefix) or not text else None
    got = wait_for(line, timeout=timeout, step=0, what=prefix)
    assert got, "".join(lines)
    return got


def stop_with(proc, sig):
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out, err


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_the_floor_service_and_the_link_controller_stop_on_sighup_and_sigterm(floor, sig):
    pw = floor.floor_password_file()
    defined = subprocess.run([sys.executable, "-m", "controller.cli", "floor", "link", "define",
                              "L1", "--game", "raise-it-up-stud", "--wager", "progressive",
                              "--tables", "T1", "--reset", "100000", "--rate", "0.14",
                              "--nats", floor.url, "--password-file", pw], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert defined.returncode == 0, defined.stderr
    service = tablectl("floor", "--nats", floor.url, "--password-file", pw, "--http",
                       "127.0.0.1:0")
    link = tablectl("floor", "link", "run", "L1", "--nats", floor.url, "--password-file", pw,
                    "--table-keys", floor.table_keys_file())      # issue 31: the tables' keys
    try:
        started(service, "floor page: ")
        started(link, "link L1: controller starting")
        for proc in (link, service):
            code, out, err = stop_with(proc, sig)
            assert code == 0 and "Traceback" not in err and "rror" not in err, err
    finally:                # a failure above leaves no process behind (seen: orphans at PID 1)
        for proc in (link, service):
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_sim_and_top_stop_on_sighup_and_sigterm_with_their_summary(tmp_path, sig):
    journal = str(tmp_path / "t.journal")
    sim = tablectl("sim", "--game", "flop-poker", "--rounds", "100000", "--seed", "1",
                   "--pause", "0.05", "--journal", journal, "--json")
    top = None
    try:
        started(sim, "console: ", stream="stderr")
        top = tablectl("top", "--journal", journal, "--interval", "0.2")
        started(top, "")                            # its first screen
        code, out, err = stop_with(top, sig)
        assert code == 0 and err == "", err
        code, out, err = stop_with(sim, sig)
        assert code == 0 and "Traceback" not in err, err
        assert '"stopped_by": "interrupt"' in out   # its own stop: the summary is printed
    finally:                # a failure above leaves no process behind
        for proc in (top, sim):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.communicate()


def test_run_stops_on_sighup(tmp_path, sim_table):   # noqa: F811 - the fixture
    config = write_config(tmp_path / "table.toml", devices=sim_table.config())
    env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
    code, err, _, _ = run_and_stop(tmp_path, config, tmp_path / "journal.db", env,
                                   sig=signal.SIGHUP)
    assert code == 0 and "stopped" in err and "failed" not in err, err
