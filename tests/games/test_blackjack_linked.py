"""Blackjack's three progressives (633a.7(o)(1)-(3)) on links (docs/linked-progressives.md):
the game side, event by event, without a link: the link's acknowledgements, meters and
awards are the input events its client submits (controller/wire/link_client.py). The same
against a real nats-server and the links' real controllers: tests/floor/test_link_blackjack.py."""

import pytest

from controller.errors import ConfigError, RulesError
from controller.games.blackjack.model import Blackjack
from controller.games.events import Event
from controller.progressive import late_awards
from tests import builders
from tests.games.events import act, cards, wagers

LINKS = {"bad_beat_progressive": "BB", "hit_and_run_progressive": "HR",
         "straight_jack_progressive": "SJ"}
JACKPOT = {"side_paytables": {"bad_beat_progressive": {"twenty_vs_blackjack": "50 for 1",
                                                       "twenty_vs_21": "100% of meter"}}}


def linked_table(links=LINKS, options=JACKPOT, value=250000):
    t = builders.table(Blackjack, options=options, links=links)
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    for link in links.values():
        t.handle(Event("link_state", {"link": link, "up": True, "value": value,
                                      "applied_seq": 1}))
    return t


def ack(t, link, seat, wager, seq):
    t.handle(Event("link_contribution", {"link": link, "id": "T1:%d:%s" % (t.model.round_no,
                                                                           seat),
                                         "seq": seq, "seat": str(seat), "wager": wager}))


def meter(t, wager):
    return t.model.meters[wager]


@pytest.mark.reg("633a.7(o)", "633a.7(o)(1)", "633a.7(o)(2)", "633a.7(o)(3)")
def test_each_progressive_is_accepted_on_its_own_links_acknowledgement():
    t = linked_table()
    wagers(t, {"1": {"blackjack": 1000, "bad_beat_progressive": 100,
                     "hit_and_run_progressive": 200, "straight_jack_progressive": 300}})
    placed = t.model.wagers["1"]
    assert placed == {"blackjack": 1000}                 # asked of three links, none accepted
    for w, link in LINKS.items():
        assert list(meter(t, w)["link"]["asked"]) == ["1:1"]
    ack(t, "HR", 1, 200, 7)
    assert placed == {"blackjack": 1000, "hit_and_run_progressive": 200}
    ack(t, "BB", 1, 100, 8)
    # "no more bets": Straight Jack's link never answered: not accepted, withdrawn from SJ
    t.handle(Event("no_more_bets"))
    assert "straight_jack_progressive" not in placed
    assert list(meter(t, "straight_jack_progressive")["link"]["withdraw"]) == ["1:1"]
    # the linked meters are the links': the table adds nothing to them
    assert all(meter(t, w)["value"] == 250000 for w in LINKS)
    assert meter(t, "bad_beat_progressive")["contributed"] == 10      # its own count: 10%


@pytest.mark.reg("633a.7(o)(1)(ii)(C)")
def test_a_bad_beat_jackpot_won_at_two_seats_is_one_hit_shared_in_proportion_to_the_wagers():
    t = linked_table(links={"bad_beat_progressive": "BB"})
    wagers(t, {"1": {"blackjack": 1000, "bad_beat_progressive": 100},
               "2": {"blackjack": 1000, "bad_beat_progressive": 300}})
    ack(t, "BB", 1, 100, 2)
    ack(t, "BB", 2, 300, 3)
    t.handle(Event("no_more_bets"))
    cards(t, "Ts", "Kd", "6h", "Qs", "Jh", "5c")
    act(t, 1, "stand")
    act(t, 2, "stand")
    cards(t, "Th")                                      # the dealer's 21 against two 20s
    m = t.model
    assert m.state == "settled"
    lk = meter(t, "bad_beat_progressive")["link"]
    # one hit for the jackpot, at the first winner from the dealer's right, both seats in it
    assert list(lk["hits"]) == ["1:2"]
    hit = lk["hits"]["1:2"]
    assert hit["share"] == [1, 1] and hit["seats"] == {"1": 100, "2": 300}
    assert hit["hand"] == ["Kd", "Jh"]                  # seat 2's 20
    assert m.results["1"]["bad_beat_progressive"] == ["pending", -100]
    assert m.results["2"]["bad_beat_progressive"] == ["pending", -300]
    # the link's award: 250,001 cents shared 1 : 3 (the cent left to the dealer's right)
    t.handle(Event("link_award", {"link": "BB", "id": "T1:1:2", "seq": 4, "seat": "2",
                                  "amount": 250001}))
    assert m.results["1"]["bad_beat_progressive"] == ["win", 62500 - 100]
    assert m.results["2"]["bad_beat_progressive"] == ["win", 187501 - 300]
    assert lk["hits"] == {}
    assert {j["seat"]: j["paid"] for j in m.jackpots} == {"1": 62500, "2": 187501}
    # paid after the round was counted: kept for the money meters, once per seat
    assert sorted((e["seat"], e["net"], e["paid"]) for _, e in late_awards(m)) == \
        [("1", 62500, 62400), ("2", 187501, 187201)]
    # a second copy pays nothing
    t.handle(Event("link_award", {"link": "BB", "id": "T1:1:2", "seq": 4, "seat": "2",
                                  "amount": 250001}))
    assert len(late_awards(m)) == 2


@pytest.mark.reg("633a.7(o)(2)(ii)(C)")
def test_a_hit_and_run_hit_carries_the_dealers_hand_and_waits_for_the_award():
    t = linked_table(links={"hit_and_run_progressive": "HR"},
                     options={"side_paytables": {"hit_and_run_progressive": {
                         "eight_or_more_cards": "100% of meter"}}})
    wagers(t, {"1": {"blackjack": 1000, "hit_and_run_progressive": 500}})
    ack(t, "HR", 1, 500, 2)
    t.handle(Event("no_more_bets"))
    cards(t, "Ts", "2h", "9s", "2c")
    act(t, 1, "stand")
    cards(t, "2d", "2s", "2h", "2c", "2d", "3s")
    lk = meter(t, "hit_and_run_progressive")["link"]
    assert lk["hits"]["1:1"]["hand"] == list(t.model.dealer)
    assert t.model.results["1"]["hit_and_run_progressive"] == ["pending", -500]
    assert t.model.jackpots[0]["paid_from"] == "not_table_inventory"


@pytest.mark.reg("605a.7", "633a.7(o)")
def test_a_progressive_is_refused_while_its_link_is_down_the_others_play_on():
    t = linked_table()
    t.handle(Event("link_state", {"link": "BB", "up": False}))
    wagers(t, {"1": {"blackjack": 1000}})
    with pytest.raises(RulesError, match="link BB is down"):
        t.handle(Event("wager", {"seat": 1, "wager": "bad_beat_progressive", "amount": 100}))
    t.handle(Event("wager", {"seat": 1, "wager": "hit_and_run_progressive", "amount": 100}))
    assert "1:1" in meter(t, "hit_and_run_progressive")["link"]["asked"]


def test_links_name_offered_progressives_once_each():
    with pytest.raises(ConfigError, match="links.lucky_ladies"):
        linked_table(links={"lucky_ladies": "L1"})
    with pytest.raises(ConfigError, match="link L1 is named for more than one"):
        linked_table(links={"bad_beat_progressive": "L1", "hit_and_run_progressive": "L1"})
