"""Six-Card Fortune's Progressive Payout Wager on a linked meter (docs/linked-progressives.md):
accepted on the link's acknowledgement, a meter share sent as a hit and paid on its award."""

import pytest

from controller.errors import RulesError
from controller.games.events import Event
from controller.games.six_card_fortune.model import SixCardFortune
from tests import builders
from tests.games.six_card_fortune_table import deal, players


def linked(value=1000000):
    t = builders.table(SixCardFortune, link="L2", rng=lambda: 7)
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    t.handle(Event("link_state", {"link": "L2", "up": True, "value": value}))
    return t


def sensed(t, seat, amount):
    t.handle(Event("wager", {"seat": seat, "wager": "progressive", "amount": amount},
                   "progressive_system"))


def ack(t, seat, amount, seq):
    t.handle(Event("link_contribution", {"link": "L2", "id": "T9:%d:%s" % (t.model.round_no,
                                                                          seat),
                                         "seq": seq, "seat": str(seat), "wager": amount}))


@pytest.mark.reg("670a.2(c)(1)", "670a.7(e)(4)", "670a.12(d)(3)")
def test_a_linked_meter_share_waits_for_the_links_award():
    t = linked()
    for s in (3, 6):
        t.handle(Event("wager", {"seat": s, "wager": "six_card_fortune", "amount": 1000}))
        sensed(t, s, 500)
    assert all("progressive" not in t.model.wagers[s] for s in ("3", "6"))
    ack(t, 6, 500, 4)
    ack(t, 3, 500, 5)
    t.handle(Event("no_more_bets", {"progressive_accepted": [3, 6]}))
    assert t.model.meter["value"] == 1000000         # the link's value, not computed here
    deal(t, {6: ["As", "Ks", "Qs", "Js", "Ts", "2d"], 3: ["JK", "Kh", "Qh", "Jh", "Th", "3c"],
             "dealer": ["Kd", "Kc", "7c", "5s", "4h", "2c"]})
    players(t, {"6": "2d", "3": "3c"})
    t.handle(Event("decision", {"seat": "dealer", "action": "set",
                                "low": t.model.pending["house_way"]["low"]}))
    res = t.model.results
    assert t.state == "settled"
    assert res["6"]["progressive"] == ["pending", -500]
    assert res["3"]["progressive"] == ["pending", -500]
    hits = t.model.meter["link"]["hits"]
    assert hits["1:6"]["share"] == [1, 10] and hits["1:6"]["hand"][0] == "As"
    assert hits["1:6"]["n"] < hits["1:3"]["n"]        # sent in settlement order: 6 first
    # the link's order decides: seat 6 first takes 10% of the meter, seat 3 10% of the rest
    for seat, amount, seq in (("6", 100020, 8), ("3", 90018, 9)):
        t.handle(Event("link_award", {"link": "L2", "id": "T9:1:%s" % seat, "seq": seq,
                                      "seat": seat, "amount": amount}))
    assert res["6"]["progressive"] == ["win", 99520]
    assert res["3"]["progressive"] == ["win", 89518]
    assert t.model.meter["paid"] == 190038 and t.model.meter["hits"] == 2


@pytest.mark.reg("670a.2(c)", "605a.7")
def test_link_down_refuses_the_wager_and_a_void_withdraws():
    t = linked()
    t.handle(Event("wager", {"seat": 1, "wager": "six_card_fortune", "amount": 1000}))
    sensed(t, 1, 100)
    ack(t, 1, 100, 3)
    t.handle(Event("link_state", {"link": "L2", "up": False}))
    t.handle(Event("wager", {"seat": 2, "wager": "six_card_fortune", "amount": 1000}))
    with pytest.raises(RulesError, match="link L2 is down"):
        sensed(t, 2, 100)
    t.model.void_round("test: the round is void")
    assert t.model.meter["link"]["withdraw"] == {"1:1": {"round": 1, "seat": "1",
                                                         "wager": 100}}
