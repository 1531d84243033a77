"""A babbling device: rejected frames are journaled in bounded batches, a row per device and
reason per interval with the count, never one fsync'd row per frame (issue 11)."""
import json

from controller.journal import boot
from controller.table import REJECT_INTERVAL_NS
from tests.builders import Clock
from tests.journal.test_boot import fresh


def rejected_rows(ctl):
    return [json.loads(r["data"]) for r in ctl.store.rows() if r["kind"] == "frame_rejected"]


def test_a_babbling_device_makes_a_row_per_reason_per_interval_with_the_count(tmp_path):
    clock = Clock(10 ** 12)
    table, policies = fresh("flop-poker")
    ctl = boot(str(tmp_path / "j.db"), table, policies, clock=clock)
    try:
        start = ctl.store.last_seq
        # 3 seconds of a device babbling at ~2,900 frames/s, two reasons, and a quiet one
        for i in range(3 * 2900):
            clock.now += REJECT_INTERVAL_NS // 2900
            ctl.frame_rejected("shoe", "bad_crc" if i % 3 else "junk", "ff%04x" % i)
            if i % 50 == 0:
                ctl.run_once()
        ctl.frame_rejected("card_reader", "junk", "00")
        clock.now += REJECT_INTERVAL_NS
        ctl.run_once()
        ctl.run_once()
        rows = rejected_rows(ctl)
        assert sum(r["count"] for r in rows) == 3 * 2900 + 1         # every frame counted
        by = {}
        for r in rows:
            by.setdefault((r["device"], r["reason"]), []).append(r)
        # about a row at the start of each interval and one with its count at its end
        assert all(len(v) <= 2 * 4 for v in by.values()), {k: len(v) for k, v in by.items()}
        assert len(by[("card_reader", "junk")]) == 1                # a lone one: at once
        assert by[("card_reader", "junk")][0]["count"] == 1
        assert ctl.store.last_seq - start < 40                        # not 8,700 rows
    finally:
        ctl.close()


def test_a_single_rejection_is_journaled_at_once_and_the_rest_at_close(tmp_path):
    clock = Clock(10 ** 12)
    table, policies = fresh("flop-poker")
    path = tmp_path / "j.db"
    ctl = boot(str(path), table, policies, clock=clock)
    ctl.frame_rejected("shoe", "junk", "aa")
    ctl.run_once()
    assert [r["count"] for r in rejected_rows(ctl)] == [1]            # nothing waits
    for _ in range(7):
        ctl.frame_rejected("shoe", "junk", "bb")
    ctl.run_once()
    assert [r["count"] for r in rejected_rows(ctl)] == [1]            # counted, not rows
    ctl.close()                                                       # the count survives
    table, policies = fresh("flop-poker")
    again = boot(str(path), table, policies, clock=clock)
    try:
        assert [r["count"] for r in rejected_rows(again)] == [1, 7]
    finally:
        again.close()
