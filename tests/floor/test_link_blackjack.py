"""Blackjack's three progressives (633a.7(o)(1)-(3)) each on a link of its own, against a
real nats-server and the links' real controllers (controller/floor/linkctl.py, on threads of
this process): one Blackjack table controller with three real link clients. Its wagers are
accepted on each link's acknowledgement, a Bad Beat jackpot won at two seats is one hit
whose award is shared in proportion to the wagers, and a hit made while its link is down
stays pending and is paid when the link returns: at the table, and in the floor's fold of the
table's journal (controller/floor/fold.py), where that late award is shared by the game's
own rule (its declaration's `jackpot_shares`) and counted once."""

import asyncio
import time

import pytest

from controller.events import Event
from controller.floor.fold import TableView
from controller.wire.link_client import LinkClient
from controller.games.blackjack.model import Blackjack
from controller.journal import boot
from controller.policies import default_policies
from controller.progressive import link_up, linked_meters
from controller.table import TableController
from tests import builders
from tests.floor.conftest import journal_rows, wait_for
from tests.floor.test_link_controller import controller, define, meter

LINKS = {"bad_beat_progressive": "BB", "hit_and_run_progressive": "HR",
         "straight_jack_progressive": "SJ"}
OPTIONS = {"side_paytables": {"bad_beat_progressive": {"twenty_vs_blackjack": "50 for 1",
                                                       "twenty_vs_21": "100% of meter"}}}


class BlackjackTable:
    """Table T1: a Blackjack TableController on its loop thread, a link client per link;
    with `journal` (a path), the journaled controller a real table runs, booted from it."""

    def __init__(self, floor, links=LINKS, journal=None):
        self.floor, self.links, self.journal = floor, dict(links), journal
        table = builders.table(Blackjack, options=OPTIONS, links=links)
        self.ctl = boot(journal, table, default_policies("blackjack")) if journal else \
            TableController(table)
        self.ctl.start()
        self.clients = [LinkClient(self.ctl, "T1", link, floor.url,
                                   password=floor.passwords["T1"],
                                   signing_key=floor.signing_key("T1")).start()
                        for link in links.values()]
        self.n = 0

    @property
    def model(self):
        return self.ctl.model

    def send(self, kind, data=None, source="dealer_panel"):
        self.n += 1
        self.ctl.submit(Event(kind, data, source, time.monotonic_ns()))

    def idle(self, pred, timeout=60, what="the table"):
        try:
            return wait_for(lambda: self.ctl.queue.empty() and pred(), timeout=timeout,
                            what=what)
        except AssertionError as e:
            raise AssertionError("%s (state %s, refused %r)" % (
                e, self.model.state, list(self.ctl.refusals)[-3:]))

    def up(self, *links):
        meters = {m["link"]["id"]: m for m in linked_meters(self.model).values()}
        return all(link_up(meters[link]) for link in links or meters)

    def cards(self, *codes):
        for c in codes:
            n = len(self.model.dealer) + sum(len(h["cards"]) for hs in self.model.hands.values()
                                             for h in hs)
            self.send("card", {"card": c})
            self.idle(lambda: len(self.model.dealer) + sum(
                len(h["cards"]) for hs in self.model.hands.values() for h in hs) == n + 1,
                what="card %s" % c)

    def close(self):
        for c in self.clients:
            c.stop()
        self.ctl.stop()
        if self.journal:
            self.ctl.close()


def setup_links(floor):
    for wager, link in LINKS.items():
        rc, out, err = define(floor, link=link, game="blackjack", wager=wager, tables="T1,T2",
                              reset="100000", rate="1/10",
                              paytable=OPTIONS["side_paytables"].get(wager))
        assert rc == 0, out + err
    return {link: controller(floor, link) for link in LINKS.values()}


def stop_all(ctls):
    for c in ctls.values():
        c.stop()


def deal_the_bad_beat(t):
    """Seats 1 and 2 both stand on 20; the dealer makes 21 (Th on 6h 5c)."""
    t.send("no_more_bets")
    t.idle(lambda: t.model.state == "dealing", what="the deal")
    t.cards("Ts", "Kd", "6h", "Qs", "Jh", "5c")
    t.idle(lambda: t.model.pending and t.model.pending.get("need") == "decision",
           what="the decisions")
    for seat in (1, 2):
        t.idle(lambda: t.model.pending and t.model.pending.get("seat") == str(seat),
               what="seat %d's turn" % seat)
        t.send("decision", {"seat": seat, "action": "stand"})
    t.cards("Th")


@pytest.mark.reg("633a.7(o)", "633a.7(o)(1)(ii)(C)", "669a.2(c)", "605a.7")
def test_three_links_at_once_and_a_bad_beat_jackpot_shared_in_proportion(floor):
    ctls = setup_links(floor)
    t = None
    try:
        t = BlackjackTable(floor)
        t.idle(t.up, what="the three links up")
        t.send("open_table")
        t.send("shuffle")
        for seat, bb in (("1", 100), ("2", 300)):
            t.send("wager", {"seat": seat, "wager": "blackjack", "amount": 1000})
            t.send("wager", {"seat": seat, "wager": "bad_beat_progressive", "amount": bb})
            t.send("wager", {"seat": seat, "wager": "hit_and_run_progressive", "amount": 200})
            t.send("wager", {"seat": seat, "wager": "straight_jack_progressive", "amount": 500})
        # each progressive accepted only once its own link acknowledged it
        t.idle(lambda: all(len(p) == 4 for p in t.model.wagers.values()) and
               len(t.model.wagers) == 2, what="the acknowledgements")
        for link, n in (("BB", 2), ("HR", 2), ("SJ", 2)):
            wait_for(lambda: (meter(floor.url, link) or {}).get("contributions") == n,
                     what="link %s's contributions" % link)
        assert meter(floor.url, "HR")["value"] == 100000 + 2 * 20
        assert meter(floor.url, "SJ")["value"] == 100000 + 2 * 50
        before = meter(floor.url, "BB")["value"]
        assert before == 100000 + 10 + 30
        t.idle(lambda: t.model.meters["bad_beat_progressive"]["value"] == before,
               what="the table to show BB's meter")
        deal_the_bad_beat(t)
        t.idle(lambda: t.model.state == "settled", what="the round settled")
        # one hit on BB for both seats; paid when its award came, shared 1 : 3
        t.idle(lambda: t.model.results["1"]["bad_beat_progressive"][0] == "win",
               what="the award")
        res = t.model.results
        assert res["1"]["bad_beat_progressive"] == ["win", before * 100 // 400 - 100]
        assert res["2"]["bad_beat_progressive"] == ["win", before - before * 100 // 400 - 300]
        m = meter(floor.url, "BB")
        assert m["hits"] == 1 and m["awarded"] == before and m["value"] == 100000
        assert [h["seat"] for h in m["last_hits"]] == ["2"]
        # the other two links' meters untouched by it
        assert meter(floor.url, "HR")["hits"] == meter(floor.url, "SJ")["hits"] == 0
    finally:
        if t is not None:
            t.close()
        stop_all(ctls)


def fold(journal):
    """The floor's view of table T1 folded from its journal, row by row."""
    view = TableView("T1")
    for row in journal_rows(journal):
        view.apply(row)
    return view


@pytest.mark.reg("633a.7(o)(1)(ii)(C)", "605a.7")
def test_a_hit_while_its_link_is_down_stays_pending_and_is_paid_when_it_returns(floor,
                                                                               tmp_path):
    ctls = setup_links(floor)
    journal = str(tmp_path / "t1.db")
    t = None
    try:
        t = BlackjackTable(floor, links={"bad_beat_progressive": "BB"}, journal=journal)
        t.idle(t.up, what="the link up")
        t.send("open_table")
        t.send("shuffle")
        for seat, bb in (("1", 100), ("2", 300)):
            t.send("wager", {"seat": seat, "wager": "blackjack", "amount": 1000})
            t.send("wager", {"seat": seat, "wager": "bad_beat_progressive", "amount": bb})
        t.idle(lambda: all("bad_beat_progressive" in p for p in t.model.wagers.values()),
               what="the acknowledgements")
        wait_for(lambda: (meter(floor.url, "BB") or {}).get("contributions") == 2,
                 what="the contributions")
        before = meter(floor.url, "BB")["value"]
        assert before == 100000 + 40
        ctls["BB"].stop()                           # the link's controller goes away
        t.idle(lambda: not t.up("BB"), what="the link down")
        deal_the_bad_beat(t)                        # base play goes on
        t.idle(lambda: t.model.state == "settled", what="the round settled")
        lk = t.model.meters["bad_beat_progressive"]["link"]
        assert list(lk["hits"]) == ["1:2"]
        assert t.model.results["1"]["bad_beat_progressive"] == ["pending", -100]
        time.sleep(0.5)
        assert list(lk["hits"]) == ["1:2"]          # still pending while down
        ctls["BB"] = controller(floor, "BB")        # back
        t.idle(lambda: not lk["hits"], what="the award on the link's return")
        res = t.model.results
        one, two = before * 100 // 400, before - before * 100 // 400
        assert res["1"]["bad_beat_progressive"] == ["win", one - 100]
        assert res["2"]["bad_beat_progressive"] == ["win", two - 300]
        assert meter(floor.url, "BB")["awarded"] == before
        # a second round with no progressive wager: its snapshot lists the late award too
        t.send("wager", {"seat": "1", "wager": "blackjack", "amount": 1000})
        t.idle(lambda: t.model.wagers.get("1"), what="round 2's wager")
        t.send("no_more_bets")
        t.idle(lambda: t.model.state == "dealing", what="round 2's deal")
        t.cards("Ts", "6h", "Qs", "5c")
        t.idle(lambda: t.model.pending and t.model.pending.get("seat") == "1",
               what="round 2's decision")
        t.send("decision", {"seat": 1, "action": "stand"})
        t.cards("7d")
        t.idle(lambda: t.model.state == "settled" and t.model.round_no == 2,
               what="round 2 settled")
        t.close()
        t = None
        # The floor folds the journal: round 1 as it was counted (both Bad Beat wagers lost,
        # the hit pending), then the award's row after it, shared 1 : 3 by Blackjack's own
        # rule (its declaration's jackpot_shares), the two shares paid above their wagers;
        # round 2's snapshot lists the same late award, which is not counted again.
        want = {"handle": 400, "net": -400 + one + two, "paid": (one - 100) + (two - 300)}
        view = fold(journal)
        assert view.s["wagers"]["bad_beat_progressive"] == want
        assert view.s["wagers"]["blackjack"]["handle"] == 3000
        assert view.s["last_round_counted"] == 2
        rows = journal_rows(journal)
        award_seq = max(r["seq"] for r in rows if r["kind"] == "link_award")
        late = TableView("T1")      # a fold that starts after the award's row: from round 2's
        for row in rows:            # snapshot's list of late awards, once
            if row["entry"] == "genesis" or row["seq"] > award_seq:
                late.apply(row)
        assert late.s["wagers"]["bad_beat_progressive"]["net"] == one + two
        assert late.s["wagers"]["bad_beat_progressive"]["paid"] == (one - 100) + (two - 300)
    finally:
        if t is not None:
            t.close()
        stop_all(ctls)


def test_a_tables_floor_section_names_a_link_per_progressive():
    from controller.errors import ConfigError
    from controller.wire.config import check_floor
    base = {"url": "nats://127.0.0.1:4222", "table_id": "T1", "password_file": "/x",
            "signing_key_file": "/k"}
    assert check_floor(dict(base, links=dict(LINKS)))["links"] == LINKS
    unsigned = dict(base, links=dict(LINKS))
    del unsigned["signing_key_file"]
    with pytest.raises(ConfigError, match="signing_key_file is required on a link"):
        check_floor(unsigned)           # issue 31: the link pays nothing unsigned
    for bad, why in (({"links": ["BB"]}, "is a table"),
                     ({"links": {"bad_beat_progressive": "B B"}}, "links.bad_beat_progressive"),
                     ({"links": dict(LINKS), "link": "L1"}, "not beside link")):
        with pytest.raises(ConfigError, match=why):
            check_floor(dict(base, **bad))
