"""`tablectl run` with `link` in `[controller.floor]`: the link client is one more part of the
runner (its loop on its own thread), the link's meter journaled as the table's input once
the link is up, and a clean stop."""

import json

import pytest

from controller.errors import ConfigError
from controller.wire.config import check_floor
from controller.games.blackjack.model import Blackjack
from controller.journal.live import check
from controller.journal.formats import open_journal
from tests.floor.conftest import RunningTable, ensure, wait_for
from tests.floor.link_harness import FakeLink
from tests.floor.test_link_table import fake, link_floor  # noqa: F401 - fixtures
from tests.test_run import sim_table  # noqa: F401 - the fixture


@pytest.mark.reg("669a.2(c)")
def test_run_puts_the_tables_progressive_on_its_link(link_floor, fake, tmp_path,  # noqa: F811
                                                     sim_table):  # noqa: F811
    ensure(link_floor.url)
    with RunningTable(tmp_path, link_floor, "T2", sim_table, game="raise-it-up-stud",
                      floor_extra='link = "L1"') as t:
        wait_for(lambda: any(s.get("up") for s in t.kinds("link_state")),
                 what="the link up, journaled")
        up = next(s for s in t.kinds("link_state") if s.get("up"))
        assert up["link"] == "L1" and up["value"] == fake.value


@pytest.mark.reg("633a.7(o)", "669a.2(c)")
def test_run_puts_each_blackjack_progressive_on_its_own_link(link_floor, tmp_path,  # noqa: F811
                                                             sim_table):  # noqa: F811
    """`links = {wager = "LINK"}`: one link client per link, each a part of the runner, each
    link's meter journaled as the table's input on its own wager's meter once it is up, and
    a clean stop of both."""
    ensure(link_floor.url)
    one = FakeLink(link_floor.url, link="L1", reset=150000)     # neither the table's own
    other = FakeLink(link_floor.url, link="L2", reset=250000)   # meter (100000) nor equal
    try:
        with RunningTable(tmp_path, link_floor, "T2", sim_table, game="blackjack",
                          floor_extra='links = {bad_beat_progressive = "L1", '
                                      'hit_and_run_progressive = "L2"}') as t:
            def up():
                return {s["link"]: s for s in t.kinds("link_state") if s.get("up")}
            wait_for(lambda: set(up()) == {"L1", "L2"}, what="both links up, journaled")
            assert up()["L1"]["value"] == one.value == 150000
            assert up()["L2"]["value"] == other.value == 250000
    finally:
        one.stop()
        other.stop()
    # the journal, replayed: each link's meter on its own wager, the third wager's own
    store = open_journal(str(t.journal))
    try:
        replay, problem = check(store, Blackjack, full=True)
    finally:
        store.close()
    assert problem is None
    meters = replay.ctl.model.meters
    assert meters["bad_beat_progressive"]["value"] == 150000
    assert meters["bad_beat_progressive"]["link"]["id"] == "L1"
    assert meters["hit_and_run_progressive"]["value"] == 250000
    assert meters["hit_and_run_progressive"]["link"]["id"] == "L2"
    assert "link" not in meters["straight_jack_progressive"]


def test_run_refuses_a_link_for_a_wager_with_no_meter(link_floor, tmp_path,  # noqa: F811
                                                      sim_table):  # noqa: F811
    t = RunningTable(tmp_path, link_floor, "T2", sim_table, game="blackjack",
                     floor_extra='links = {blackjack = "L1"}')
    _, err = t.proc.communicate(timeout=30)
    t._kill()
    assert t.proc.returncode == 2, err
    assert err.strip().splitlines()[-1].startswith("tablectl run: links.blackjack: "), err
    assert "Traceback" not in err
    assert not t.journal.exists()          # refused before the journal was touched


@pytest.mark.parametrize("link", ["L 1", "", 7])
def test_the_link_is_a_link_id(link):
    with pytest.raises(ConfigError, match="controller.floor.link"):
        check_floor({"url": "nats://127.0.0.1:4222", "table_id": "T1", "password_file": "p",
                     "link": link})


def test_a_game_without_a_progressive_wager_is_not_linked(tmp_path):
    from controller.wire.link_client import ProgressiveLink
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
