"""`tablectl run` with `link` in `[controller.floor]`: the link client is one more part of the
runner (its loop on its own thread), the link's meter journaled as the table's input once
the link is up, and a clean stop."""

import json

import pytest

from controller.errors import ConfigError
from controller.floor.config import check_floor
from tests.floor.conftest import ensure, journal_rows, wait_for
from tests.floor.test_link_table import fake, link_floor  # noqa: F401 - fixtures
from tests.test_run import env_with, read_until, sim_table, tablectl, write_config  # noqa: F401


@pytest.mark.reg("669a.2(c)")
def test_run_puts_the_tables_progressive_on_its_link(link_floor, fake, tmp_path,  # noqa: F811
                                                     sim_table):  # noqa: F811
    ensure(link_floor.url)
    extra = "floor = {url = %s, table_id = \"T2\", password_file = %s, link = \"L1\"}" % (
        json.dumps(link_floor.url), json.dumps(link_floor.password_file("T2")))
    config = write_config(tmp_path / "table.toml", game="raise-it-up-stud",
                          devices=sim_table.config(), controller_extra=extra)
    journal = tmp_path / "journal.db"
    env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
    proc = tablectl("run", "--config", str(config), "--journal", str(journal), env=env)
    try:
        read_until(proc, "tablectl run: running")

        def states():
            return [json.loads(r["data"]) for r in journal_rows(journal)
                    if r["kind"] == "link_state"]
        wait_for(lambda: any(s.get("up") for s in states()), what="the link up, journaled")
        up = next(s for s in states() if s.get("up"))
        assert up["link"] == "L1" and up["value"] == fake.value
        proc.terminate()
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "failed" not in err, err


@pytest.mark.parametrize("link", ["L 1", "", 7])
def test_the_link_is_a_link_id(link):
    with pytest.raises(ConfigError, match="controller.floor.link"):
        check_floor({"url": "nats://127.0.0.1:4222", "table_id": "T1", "password_file": "p",
                     "link": link})


def test_a_game_without_a_progressive_wager_is_not_linked(tmp_path):
    from controller.floor.link_client import ProgressiveLink
    from controller.runtime import Runtime
    from tests.controller.test_runtime import runtime
    rt, _ = runtime(tmp_path)
    assert isinstance(rt, Runtime)
    rt.register_part(ProgressiveLink(rt, "T1", "L1", "nats://127.0.0.1:1", "pw"))
    try:
        with pytest.raises(ConfigError, match="no Progressive Payout Wager to link"):
            rt.start()
    finally:
        rt.close()
