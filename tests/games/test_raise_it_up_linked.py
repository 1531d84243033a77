"""Raise It Up's Progressive Payout Wager on a linked meter (docs/linked-progressives.md): the
game side, event by event, without a link: the link's acknowledgements, meter and awards are
the input events its client submits (controller/wire/link_client.py)."""

import pytest

from controller.errors import RulesError
from controller.games.events import Event
from controller.games.single_deck.raise_it_up import RaiseItUpStud as RIU
from controller.table import TableController
from tests import builders
from tests.games.test_raise_it_up import A500, drive, shoe


def linked_table(value=250000):
    t = builders.table(RIU, link="L1")
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    t.handle(Event("link_state", {"link": "L1", "up": True, "value": value, "applied_seq": 3}))
    return t


def ack(t, seat, wager=100, seq=10, rnd=None):
    rnd = t.model.round_no if rnd is None else rnd
    t.handle(Event("link_contribution", {"link": "L1", "id": "T1:%d:%s" % (rnd, seat),
                                         "seq": seq, "seat": str(seat), "wager": wager}))


def sensed(t, seat, amount=100):
    t.handle(Event("wager", {"seat": seat, "wager": "progressive", "amount": amount},
                   "progressive_system"))


def base(t, seats):
    for s in seats:
        for w, a in A500.items():
            t.handle(Event("wager", {"seat": s, "wager": w, "amount": a}))


@pytest.mark.reg("669a.2(c)(1)", "669a.7(d)(4)")
def test_a_progressive_wager_is_accepted_only_with_the_links_acknowledgement():
    t = linked_table()
    base(t, [1, 2])
    sensed(t, 1)
    sensed(t, 2)
    m = t.model
    assert "progressive" not in m.wagers["1"]           # asked, not accepted: light off
    assert sorted(m.meter["link"]["asked"]) == ["1:1", "1:2"]
    ack(t, 1)
    assert m.wagers["1"]["progressive"] == 100 and "progressive" not in m.wagers["2"]
    # the lock-out: seat 2's wager was never acknowledged: not accepted, withdrawn
    t.handle(Event("no_more_bets"))
    assert m.seats == ["1", "2"] and "progressive" not in m.wagers["2"]
    assert sorted(m.meter["link"]["withdraw"]) == ["1:2"]
    # its acknowledgement arriving late accepts nothing; the withdrawal stays owed
    ack(t, 2, seq=11)
    assert "progressive" not in m.wagers["2"] and "1:2" in m.meter["link"]["withdraw"]
    t.handle(Event("link_withdraw", {"link": "L1", "id": "T1:1:2", "seq": 12, "seat": "2",
                                     "wager": 100}))
    assert m.meter["link"]["withdraw"] == {}


@pytest.mark.reg("669a.2(c)", "605a.7")
def test_no_progressive_wager_while_the_link_is_down_base_play_goes_on():
    t = linked_table()
    t.handle(Event("link_state", {"link": "L1", "up": False}))
    base(t, [1])
    with pytest.raises(RulesError, match="link L1 is down"):
        sensed(t, 1)
    assert t.model.wagers["1"] == A500                  # the base wagers stand
    t.handle(Event("link_state", {"link": "L1", "up": True, "value": 260000}))
    sensed(t, 1)
    assert "1:1" in t.model.meter["link"]["asked"] and t.model.meter["value"] == 260000


@pytest.mark.reg("669a.12(e)(4)", "669a.11(i)(3)(i)(C)", "669a.11(i)(3)(i)(D)")
def test_a_hit_waits_for_the_links_award_and_is_paid_once():
    t = linked_table(250000)
    base(t, [1, 2])
    for s in (1, 2):
        sensed(t, s, 500 if s == 2 else 100)
        ack(t, s, 500 if s == 2 else 100, seq=10 + s)
    t.handle(Event("no_more_bets"))
    drive(t, shoe({"1": ["2c", "7d", "9h"], "2": ["As", "Ks", "Qs"]}, ["3d", "5h", "Jc"]))
    drive(t, actions=[(1, "play", 500), (2, "play", 500)])
    m = t.model
    assert t.state == "settled"
    assert tuple(m.results["2"]["progressive"]) == ("pending", -500)
    assert m.jackpots == [{"seat": "2", "hand": "ace_king_queen_of_spades", "amount": None,
                           "table_inventory": False}]
    assert list(m.meter["link"]["hits"]) == ["1:2"]
    assert m.meter["link"]["hits"]["1:2"]["hand"] == ["As", "Ks", "Qs"]
    award = {"link": "L1", "id": "T1:1:2", "seq": 14, "seat": "2", "amount": 250084}
    t.handle(Event("link_award", award))
    assert tuple(m.results["2"]["progressive"]) == ("win", 250084 - 500)
    assert m.jackpots[0]["amount"] == 250084
    assert m.meter["hits"] == 1 and m.meter["paid"] == 250084 and m.meter["link"]["hits"] == {}
    t.handle(Event("link_award", award))                # the same award again: paid once
    assert m.meter["hits"] == 1 and m.meter["paid"] == 250084
    assert [r[0] for r in m.record].count("link_award_paid") == 1


@pytest.mark.reg("669a.13(d)")
def test_a_void_round_withdraws_its_contributions():
    t = linked_table()
    base(t, [1])
    sensed(t, 1)
    ack(t, 1)
    t.handle(Event("no_more_bets"))
    t.handle(Event("irregularity", {"kind": "community_card_exposed"}))
    assert t.state == "voided"
    assert t.model.meter["link"]["withdraw"] == {"1:1": {"round": 1, "seat": "1", "wager": 100}}


@pytest.mark.reg("669a.7(c)")
def test_a_wager_taken_off_before_the_lock_out_is_withdrawn():
    t = linked_table()
    base(t, [1])
    sensed(t, 1)
    ack(t, 1)
    sensed(t, 1, 0)
    assert "progressive" not in t.model.wagers["1"]
    assert list(t.model.meter["link"]["withdraw"]) == ["1:1"]
    with pytest.raises(RulesError, match="withdrawn this round"):
        sensed(t, 1)


@pytest.mark.reg("669a.2(c)(1)", "605a.7")
def test_the_acceptance_light_the_lock_out_and_the_display_follow_the_link():
    """The outputs derived from the state: the light only once acknowledged; link down:
    sensors locked out, lights off, LINK DOWN on the display."""
    shown = []

    class Out:
        seats = {"1": None}
        meters = object()

        def show(self, lockout, tower, jackpot, lit, meters=None):
            shown.append((lockout, lit, meters))

        def safe_all(self):
            return []
    ctl = TableController(builders.table(RIU, link="L1"), outputs=Out())
    for kind, data in (("open_table", {}), ("shuffle", {}),
                       ("link_state", {"link": "L1", "up": True, "value": 250000})):
        ctl.process(ctl.event(kind, data))
    for w, a in A500.items():
        ctl.process(ctl.event("wager", {"seat": 1, "wager": w, "amount": a}))
    ctl.process(ctl.event("wager", {"seat": 1, "wager": "progressive", "amount": 100},
                          "progressive_system"))
    assert shown[-1][:2] == (False, frozenset())       # asked: the light stays off
    ctl.process(ctl.event("link_contribution", {"link": "L1", "id": "T1:1:1", "seq": 5,
                                                "seat": "1", "wager": 100}, "link"))
    assert shown[-1] == (False, frozenset({"1"}), {"progressive": 250000})
    ctl.process(ctl.event("link_meter", {"link": "L1", "value": 250014}, "link"))
    assert shown[-1][2] == {"progressive": 250014}
    ctl.process(ctl.event("link_state", {"link": "L1", "up": False}, "link"))
    assert shown[-1] == (True, frozenset(), "LINK DOWN")
