"""`tablectl run` with `[controller.floor]`: the uplink is one more part of the runner,
started after the loop and stopped (drained) before the console and the journal."""

import pytest

from controller.errors import ConfigError
from controller.wire.config import check_floor
from tests.floor.conftest import (RunningTable, assert_exactly_once, journal_rows, stream_rows,
                                  wait_for)
from tests.test_run import sim_table  # noqa: F401 - the fixture


def test_run_forwards_its_journal_to_the_floor(floor, tmp_path, sim_table):  # noqa: F811
    with RunningTable(tmp_path, floor, "T3", sim_table) as t:
        wait_for(lambda: len(stream_rows(floor.url, "T3")) == len(journal_rows(t.journal)) > 3,
                 what="the boot's rows on the floor")
    rows = assert_exactly_once(floor.url, "T3", str(t.journal))
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
