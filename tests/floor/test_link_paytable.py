"""One paytable on a linked progressive (issue 31, h31's report): a Blackjack link declares the
rows its wager pays (633a.13's Rules Submission); a table whose own configuration sets other
rows must not play that wager on the link, and the link's controller must not pay a hit
announced under other rows. Against a real nats-server, the links' real controllers and a
real Blackjack table controller with its real link clients."""

import asyncio

import pytest

from tests.floor.conftest import wait_for
from tests.floor.linkpub import LinkTable
from tests.floor.test_link_blackjack import LINKS, OPTIONS, BlackjackTable, stop_all
from tests.floor.test_link_controller import controller, define, meter

ROWS = OPTIONS["side_paytables"]["bad_beat_progressive"]
OTHER = dict(ROWS, twenty_vs_21="50% of meter")       # half the meter, not all of it


def links(floor, bad_beat_rows):
    for wager, link in LINKS.items():
        rows = bad_beat_rows if wager == "bad_beat_progressive" else None
        rc, out, err = define(floor, link=link, game="blackjack", wager=wager,
                              tables="T1,T2", reset="100000", rate="1/10", paytable=rows)
        assert rc == 0, out + err
    return {link: controller(floor, link) for link in LINKS.values()}


@pytest.mark.reg("633a.7(o)(1)(i)", "633a.13")
def test_a_table_configured_with_other_rows_does_not_play_the_links_wager(floor):
    """The Bad Beat link declares OTHER; table T1's configuration sets ROWS: BB is never up
    for it (its client says why) and a Bad Beat wager is refused, while the table's other two
    links, which declare the texts' own paytable as it does, take their wagers."""
    ctls = links(floor, OTHER)
    t = None
    try:
        t = BlackjackTable(floor)
        t.idle(lambda: t.up("HR", "SJ"), what="HR and SJ up")
        bb = [c for c in t.clients if c.link_id == "BB"][0]
        wait_for(lambda: bb.mismatch, what="BB's paytable found different")
        assert not t.up("BB") and bb.status()["state"] == "down"
        assert "twenty_vs_21: 50% of meter" in bb.status()["error"]
        assert "twenty_vs_21: 100% of meter" in bb.status()["error"]
        t.send("open_table")
        t.send("shuffle")
        t.send("wager", {"seat": "1", "wager": "blackjack", "amount": 1000})
        t.send("wager", {"seat": "1", "wager": "bad_beat_progressive", "amount": 100})
        t.send("wager", {"seat": "1", "wager": "hit_and_run_progressive", "amount": 200})
        t.idle(lambda: "hit_and_run_progressive" in t.model.wagers.get("1", {}),
               what="HR's wager acknowledged")
        assert "bad_beat_progressive" not in t.model.wagers["1"]
        assert any(e.data.get("wager") == "bad_beat_progressive" for e, _ in
                   list(t.ctl.refusals)), list(t.ctl.refusals)
        wait_for(lambda: meter(floor.url, "HR")["contributions"] == 1)
        assert meter(floor.url, "BB")["contributions"] == 0
    finally:
        if t is not None:
            t.close()
        stop_all(ctls)


@pytest.mark.reg("633a.7(o)(1)(i)", "633a.13")
def test_the_link_refuses_a_hit_announced_under_other_rows(floor):
    """A hit signed by the table, its wager contributed, 20 against the dealer's 21, which
    wins the whole meter under the link's rows: announced under other rows it is refused and
    alarmed, the meter untouched; announced under the link's own it is paid."""
    ctls = links(floor, ROWS)
    try:
        async def play():
            t1 = await LinkTable(floor.url, "BB", "T1", floor.passwords["T1"]).start()
            try:
                await t1.contribute(1, 1, 1000)
                await t1.hit(1, 1, hand=["Kd", "Jh"], dealer=["6h", "5c", "Th"],
                             paytable=OTHER)
                await t1.contribute(2, 1, 1000)
                await t1.hit(2, 1, hand=["Kd", "Jh"], dealer=["6h", "5c", "Th"],
                             paytable=ROWS)
                return await t1.award(2, 1)
            finally:
                await t1.close()
        award = asyncio.run(play())
        m = meter(floor.url, "BB")
        assert m["hits"] == 1 and award["amount"] == 100000 + 200
        assert m["alarm_count"] == 1 and m["alarms"][0]["id"] == "T1:1:1"
        assert "plays another paytable" in m["alarms"][0]["why"]
    finally:
        stop_all(ctls)
