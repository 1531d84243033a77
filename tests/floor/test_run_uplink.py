"""`tablectl run` with `[controller.floor]`: the uplink is one more part of the runner,
started after the loop and stopped (drained) before the console and the journal."""

import json

import pytest

from controller.errors import ConfigError
from controller.floor.config import check_floor
from tests.floor.conftest import assert_exactly_once, journal_rows, stream_rows, wait_for
from tests.test_run import env_with, read_until, sim_table, tablectl, write_config  # noqa: F401


def test_run_forwards_its_journal_to_the_floor(floor, tmp_path, sim_table):  # noqa: F811
    extra = "floor = {url = %s, table_id = \"T3\", password_file = %s}" % (
        json.dumps(floor.url), json.dumps(floor.password_file("T3")))
    config = write_config(tmp_path / "table.toml", devices=sim_table.config(),
                          controller_extra=extra)
    journal = tmp_path / "journal.db"
    env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
    proc = tablectl("run", "--config", str(config), "--journal", str(journal), env=env)
    try:
        read_until(proc, "tablectl run: running")
        wait_for(lambda: len(stream_rows(floor.url, "T3")) == len(journal_rows(journal)) > 3,
                 what="the boot's rows on the floor")
        proc.terminate()
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "failed" not in err, err
    rows = assert_exactly_once(floor.url, "T3", str(journal))
    assert rows[0]["entry"] == "genesis"


@pytest.mark.parametrize("section, named", [
    ({"url": "nats://127.0.0.1:4222", "table_id": "T1"}, "password_file"),
    ({"url": "http://x", "table_id": "T1", "password_file": "p"}, "url"),
    ({"url": "nats://x:1", "table_id": "T 1", "password_file": "p"}, "table_id"),
    ({"url": "nats://x:1", "table_id": "T1", "password_file": "p", "tls": 1}, "tls"),
])
def test_the_floor_section_is_checked(section, named):
    with pytest.raises(ConfigError) as e:
        check_floor(section)
    assert named in str(e.value)
    assert journal_rows
