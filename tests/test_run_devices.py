"""`tablectl run` with devices that go silent, are missing, or are misconfigured.

Every serial device kind, under the real Runner on simulated devices over ptys: the line
goes silent, the table locks out, the line heals, the driver handshakes again, the
self-test passes, a floorperson clears, and play goes on. A missing adapter starts the
controller and its console with the device absent, and the device connects when the
adapter appears. A bad URL or an unknown device key is one line and exit 2 before the
journal is touched. (docs/protocols.md sections 5, 6 and 9; docs/devices.md.)
"""
import io
import os
import signal
import time

import pytest

from controller.clearing import service_for
from controller.games.engine import LOCKED_OUT
from controller.run import Runner, load_config
from hal_sim.devices import TABLE_DEVICES, SimHardware
from tests.test_run import _rows_of, env_with, read_until, tablectl, write_config

# Short link timings keep the test quick; the rules are the same at any timing.
FAST = {"heartbeat_timeout_ms": 700, "hello_retry_ms": 300, "reopen_ms": 200}
KINDS = [("card_reader", "blackjack"), ("shuffler", "blackjack"), ("shoe", "blackjack"),
         ("dice_reader", "blackjack"), ("dealer_panel", "blackjack"),
         ("meter_display", "six-card-fortune-pai-gow")]


def until(condition, timeout=20.0, what="condition"):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "no %s within %.0f s" % (what, timeout)
        time.sleep(0.01)


def runner_for(tmp_path, monkeypatch, game, devices):
    monkeypatch.setenv("TABLECTL_PINS", str(tmp_path / "pins.json"))
    config = write_config(tmp_path / "table.toml", game=game, devices=devices,
                          controller_extra='hal = "sim"')
    cfg, section, backend = load_config(str(config), environ={})
    return Runner(cfg, section, backend, str(tmp_path / "journal.db"), environ={},
                  err=io.StringIO())


def fast(config):
    return {name: dict(entry, **FAST) if "url" in entry else entry
            for name, entry in config.items()}


@pytest.mark.parametrize("name,game", KINDS)
def test_silence_heals_for_every_device_kind_under_run(tmp_path, monkeypatch, name, game):
    devices = TABLE_DEVICES + (("meter_display",) if name == "meter_display" else ())
    table = SimHardware(devices).start()
    runner = runner_for(tmp_path, monkeypatch, game, fast(table.config()))
    try:
        runner.start()
        driver, sim = runner.drivers[name], table.serial[name]
        until(lambda: all(d.connected for n, d in runner.drivers.items() if n in devices),
              what="every driver connected")
        model = runner.ctl.model
        before = model.state
        sim.inject("silence")
        until(lambda: model.state == LOCKED_OUT, what="the lock-out")
        assert model.lockout["device"] == driver.device and "silent" in model.lockout["reason"]
        assert not driver.selftest()                     # not connected: fails at once
        sim.inject("none")                               # the line heals
        until(lambda: driver.connected, what="the new handshake")
        table.serial["dealer_panel"].key("approval", role="floor", badge="F1")
        until(lambda: model.state != LOCKED_OUT, what="the clear")
        assert model.state == before
        assert driver.last_selftest["ok"] is True          # cleared after its self-test
        table.serial["dealer_panel"].key("count", what="decks",
                                         count=getattr(model, "DECKS", 1))
        until(lambda: model.state != before, what="play going on")   # the table opens
    finally:
        runner.close()
        table.stop()


def test_a_missing_adapter_starts_the_table_and_connects_when_it_appears(tmp_path,
                                                                         monkeypatch):
    table = SimHardware().start()
    later = str(tmp_path / "ttyShoe")                    # no such port yet
    devices = fast(table.config())
    devices["shoe"]["url"] = later
    runner = runner_for(tmp_path, monkeypatch, "blackjack", devices)
    try:
        assert runner.start()                            # no "start failed"
        assert runner.console_path and runner.loop_alive
        shoe, model = runner.drivers["shoe"], runner.ctl.model
        until(lambda: model.state == LOCKED_OUT, what="the lock-out")
        assert model.lockout["device"] == "dealing_shoe" and "port" in model.lockout["reason"]
        assert shoe.status()["state"] == "absent" and shoe.link.absent
        table.serial["dealer_panel"].key("approval", role="floor", badge="F1")
        time.sleep(0.3)
        assert model.state == LOCKED_OUT                 # its self-test cannot pass yet
        os.symlink(table.serial["shoe"].path, later)     # the adapter is plugged in
        until(lambda: shoe.connected, what="the shoe's handshake")
        # the first clear answered (an approval pressed before is "a clear is already
        # running", as the panel says: tests/games/test_double_attack_shuffler.py saw it)
        until(lambda: service_for(runner.ctl).busy is None, what="the first clear's answer")
        table.serial["dealer_panel"].key("approval", role="floor", badge="F1")
        until(lambda: model.state != LOCKED_OUT, what="the clear")
        shoe_sim = table.serial["shoe"]
        shoe_sim.deal("As")                              # the shoe's events arrive
        until(lambda: shoe.counters["events_in"] >= 1, what="a card from the shoe")
    finally:
        runner.close()
        table.stop()


def test_run_with_an_absent_device_serves_its_console_and_stops_cleanly(tmp_path):
    table = SimHardware().start()
    try:
        devices = table.config()
        devices["dice_reader"]["url"] = str(tmp_path / "ttyNone")
        config = write_config(tmp_path / "table.toml", devices=devices)
        env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
        proc = tablectl("run", "--config", str(config), "--journal",
                        str(tmp_path / "j.db"), env=env)
        try:
            line, seen = read_until(proc, "tablectl run: running")
            assert any(s.startswith("console: /dev/") for s in seen), seen
            until(lambda: any(r["data"].get("reason") == "port"
                              for r in _rows_of(tmp_path / "j.db", "fault")),
                  what="the port fault journaled")
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert proc.returncode == 0, "".join(seen) + err
    finally:
        table.stop()


@pytest.mark.parametrize("entry,named", [
    ({"url": "nope://somewhere"}, "unknown scheme 'nope'"),
    ({"url": "ttyUSB0"}, "a port is an absolute path"),
    ({"url": "/dev/ttyUSB0", "baud": 9600}, "baud: unknown key"),
])
def test_a_bad_url_or_device_key_is_one_line_and_exit_2_before_the_journal(tmp_path, entry,
                                                                           named):
    config = write_config(tmp_path / "table.toml", devices={"shoe": entry})
    journal = tmp_path / "j.db"
    proc = tablectl("run", "--config", str(config), "--journal", str(journal),
                    env=env_with(TABLECTL_HAL="sim"))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and "shoe" in lines[0], err
    assert "Traceback" not in err and not journal.exists()
