"""Blackjack (633a.7) event by event, from the hole card on: the dealer's hand (l)-(n), the
progressives (o), settlement and its record (p)-(s); the configuration; and a round restored from
a snapshot in a fresh process. The deal, the optional wagers of (g), the reader and the decisions
are in test_blackjack.py, whose helpers these tests share."""
import json
import os

import pytest

from controller import config as configuration
from controller.errors import ConfigError
from controller.games.blackjack.model import Blackjack
from controller.games.engine import IllegalEvent, GameMachine, mermaid
from controller.games.events import Event
from controller.lab.scenario import play
from tests.games.fresh_process import finish_elsewhere, runner_after
from tests.games.test_blackjack import (ROOT, SCENARIOS, act, cards, index, record, results,
                                        start, table)


# ---- 633a.7(l)-(n): the dealer ---------------------------------------------------------------

@pytest.mark.reg("633a.7(l)")
def test_the_hole_card_turns_up_after_every_decision_and_before_the_dealers_draws():
    t = table()
    start(t, {"1": {"blackjack": 1000}})
    cards(t, "Ts", "5h", "9d", "Tc")
    assert t.model.dealer == ["5h", "Tc"] and "hole_card" not in [w for w, _ in t.model.record]
    act(t, 1, "stand")
    assert t.state == "dealer" and t.model.pending == {"need": "card", "for": "the dealer's draw"}
    cards(t, "2s")
    assert index(t, "stand") < index(t, "hole_card") < index(t, "card", to="dealer", card="2s")


@pytest.mark.reg("633a.7(n)")
def test_the_dealer_does_not_draw_when_his_total_cannot_change_anything():
    t = table()
    start(t, {"1": {"blackjack": 1000}, "2": {"blackjack": 1000}})
    cards(t, "Ts", "As", "6h", "5d", "Kd", "Tc")
    act(t, 1, "hit")
    cards(t, "9s")                                     # seat 1 busts; seat 2 has Blackjack
    assert t.state == "settled" and t.model.dealer == ["6h", "Tc"]
    assert record(t, "dealer_stands") == [("dealer_stands", {"total": 16,
                                                              "section": "633a.7(n)"})]
    assert results(t) == {"1": {"blackjack": ("lose", -1000)}, "2": {"blackjack": ("win", 1500)}}


# ---- 633a.7(o)-(s): settlement ---------------------------------------------------------------

@pytest.mark.reg("633a.7(o)")
def test_the_progressives_settle_from_the_dealers_right_before_the_blackjack_wagers():
    t = table()
    start(t, {"2": {"blackjack": 1000, "hit_and_run_progressive": 100},
              "5": {"blackjack": 1000, "bad_beat_progressive": 100}})
    cards(t, "Ts", "Ks", "6h", "9d", "Qd", "5c")
    act(t, 2, "stand")
    act(t, 5, "stand")
    cards(t, "Th")
    order = [(d["seat"], d["wager"]) for _, d in record(t, "optional_wager",
                                                          "progressive_payout")]
    assert order == [("5", "bad_beat_progressive"), ("2", "hit_and_run_progressive")]
    assert index(t, "progressive_payout") < index(t, "collect")


@pytest.mark.reg("633a.7(o)(2)(ii)(C)")
def test_a_full_meter_is_not_paid_from_the_table_inventory_and_the_meter_resets():
    t = table(meters={"hit_and_run_progressive": {"meter": 250000, "reset": 100000,
                                                  "rate": 0.1}})
    start(t, {"1": {"blackjack": 1000, "hit_and_run_progressive": 500}})
    cards(t, "Ts", "2h", "9s", "2c")
    act(t, 1, "stand")
    cards(t, "2d", "2s", "2h", "2c", "2d", "3s")
    assert t.state == "settled"
    assert results(t)["1"]["hit_and_run_progressive"] == ("win", 250050 - 500)
    assert t.model.jackpots == [{"seat": "1", "wager": "hit_and_run_progressive",
                                 "hand": "eight_or_more_cards", "paid": 250050,
                                 "floorperson": True, "paid_from": "not_table_inventory"}]
    assert t.model.meters["hit_and_run_progressive"]["value"] == 100000


def test_meters_carry_their_fraction_of_a_cent_from_round_to_round():
    t = table()
    start(t, {"1": {"blackjack": 1000, "straight_jack_progressive": 105}})
    cards(t, "9s", "9h", "5d", "8c")
    act(t, 1, "stand")
    meter = t.model.meters["straight_jack_progressive"]
    assert (meter["value"], meter["carry"]) == (100010, 5)
    start(t, {"1": {"blackjack": 1000, "straight_jack_progressive": 105}}, open_=False)
    assert (meter["value"], meter["carry"]) == (100021, 0)


@pytest.mark.reg("633a.7(r)(1)")
def test_collect_every_losing_wager_then_pay_the_winners():
    t = table()
    start(t, {"1": {"blackjack": 1000}, "2": {"blackjack": 1000}, "3": {"blackjack": 1000}})
    cards(t, "Ts", "5s", "9c", "9h", "9d", "6c", "Tc", "8c")
    for seat in (1, 2, 3):
        act(t, seat, "stand")
    assert [(w, d["seat"]) for w, d in record(t, "collect", "pay", "return")] == [
        ("collect", "2"), ("pay", "3"), ("pay", "1")]


@pytest.mark.reg("633a.7(r)(2)")
def test_pay_and_collect_seat_by_seat_from_the_dealers_right():
    t = table(settlement_procedure="right_to_left")
    start(t, {"1": {"blackjack": 1000}, "2": {"blackjack": 1000}, "3": {"blackjack": 1000}})
    cards(t, "Ts", "5s", "9c", "9h", "9d", "6c", "Tc", "8c")
    for seat in (1, 2, 3):
        act(t, seat, "stand")
    assert [(w, d["seat"]) for w, d in record(t, "collect", "pay", "return")] == [
        ("pay", "3"), ("collect", "2"), ("pay", "1")]


@pytest.mark.reg("633a.7(s)")
def test_the_record_reconstructs_every_hand():
    t = table()
    start(t, {"1": {"blackjack": 1000}, "2": {"blackjack": 1000}})
    cards(t, "8s", "5d", "6h", "8c", "6d", "9c")
    act(t, 1, "split")
    cards(t, "2h")
    act(t, 1, "stand")
    cards(t, "3h")
    act(t, 1, "stand")
    act(t, 2, "hit")
    cards(t, "4s")
    act(t, 2, "stand")
    cards(t, "Kd")
    rebuilt = {}
    for what, d in t.model.record:
        if what == "card":
            rebuilt.setdefault(d["to"], []).append(d["card"])
    assert rebuilt["dealer"] == t.model.dealer == ["6h", "9c", "Kd"]
    assert rebuilt["1"] == ["8s", "8c"] and rebuilt["1#1"] == ["2h"] and rebuilt["1#2"] == ["3h"]
    assert rebuilt["2"] + rebuilt["2#1"] == t.model.hands["2"][0]["cards"] == ["5d", "6d", "4s"]


# ---- wagers and configuration ----------------------------------------------------------------

@pytest.mark.reg("633a.7(g)")
def test_an_optional_wager_the_table_does_not_offer_is_refused():
    t = table({"offered": {"three_card_poker": False}})
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    with pytest.raises(IllegalEvent, match=r"does not offer the three_card_poker wager "
                                           r"\(633a.7\(g\)\(8\)"):
        t.handle(Event("wager", {"seat": 1, "wager": "three_card_poker", "amount": 100}))
    with pytest.raises(IllegalEvent, match=r"Blackjack Switch table \(633a.7\(g\)\(7\)\)"):
        t.handle(Event("wager", {"seat": 1, "wager": "super_match", "amount": 100}))


def test_wagers_stay_as_placed_once_betting_closes():
    t = table()
    start(t, {"1": {"blackjack": 1000}})
    with pytest.raises(IllegalEvent, match="wagers are not open"):
        t.handle(Event("wager", {"seat": 1, "wager": "lucky_ladies", "amount": 100}))


@pytest.mark.parametrize("options, message", [
    ({"blackjack_pays": "3:2"}, r"633a.13\(a\)"),
    ({"blackjack_payment": "later"}, r"633a.7\(i\)\(1\)\(ii\)\(A\), \(B\)"),
    ({"settlement_procedure": "any"}, r"633a.7\(r\)\(1\), \(2\)"),
    ({"determinant_side": "left"}, r"633a.7\(d\)\(1\)"),
    ({"split_hands": 5}, "hands after splitting"),
    ({"house_money_added_pct": 0}, r"633a.7\(g\)\(10\)\(ii\)\(A\)"),
    ({"side_paytables": {"lucky_ladies": {"any_20": "4 to one"}}}, "not a payout"),
    ({"side_paytables": {"lucky_ladies": {"royal_match": "4 to 1"}}}, "not a hand of this wager"),
    ({"side_paytables": {"super_match": {"pair": "1 to 1"}}}, "Blackjack Switch"),
    ({"meters": {"house_money": {"meter": 1, "reset": 1, "rate": 0.1}}}, "no progressive meter"),
    ({"meters": {"bad_beat_progressive": {"meter": 50000}}}, "below its reset amount"),
    ({"meters": {"bad_beat_progressive": {"rate": 1.5}}}, "fraction between 0 and 1"),
])
def test_the_configuration_is_checked_strictly(options, message):
    with pytest.raises(ConfigError, match=message):
        configuration.validate({"options": options}, Blackjack)


def test_a_configured_paytable_replaces_the_default():
    t = table(side_paytables={"bet_the_set_21": {"suited_pair": "30 to 1", "pair": "6 to 1"}})
    start(t, {"1": {"blackjack": 1000, "bet_the_set_21": 100}})
    cards(t, "8s", "9h", "8d", "7c")
    assert results(t) == {"1": {"bet_the_set_21": ("win", 600)}}


def test_the_deployed_template_is_the_default_configuration():
    path = os.path.join(ROOT, "deploy", "tables", "blackjack.toml")
    assert configuration.load(path, lambda g: Blackjack) == \
        configuration.validate({}, Blackjack)


# ---- persistence and the machine ---------------------------------------------------------------

@pytest.mark.parametrize("name, answers, state", [
    ("house-money-added-then-doubled", 4, "side_wagers"),
    ("lucky-ladies-queens-of-hearts-after-the-peek", 4, "peek"),
    ("split-and-double-after-split", 8, "decisions"),
    ("blackjack-left-on-the-table", 8, "decisions"),
    ("hit-and-run-jackpot-shared-equally", 10, "dealer"),
    ("double-shoe-determinant-segregated", 3, "dealing"),
])
def test_a_round_snapshotted_mid_way_finishes_the_same_in_a_fresh_process(name, answers, state):
    with open(os.path.join(SCENARIOS, name + ".json")) as f:
        doc = json.load(f)
    expected = play(doc)
    r = runner_after(doc, answers)
    assert r.model.state == state
    assert finish_elsewhere(r) == expected


def test_the_model_is_json_native_mid_round():
    t = table()
    start(t, {"1": {"blackjack": 1000, "house_money": 500, "hit_and_run_progressive": 100},
              "2": {"blackjack": 500, "lucky_ladies": 100}})
    cards(t, "8s", "Qh", "6h", "8c", "Qh", "9c")
    snap = t.snapshot()
    assert snap["state"] == "side_wagers_waits_offer" and t.model.pending["offer"] == \
        "house_money_to_blackjack"
    assert json.loads(json.dumps(snap)) == snap
    again = GameMachine.restore(Blackjack, json.loads(json.dumps(snap)))
    assert again.state == t.state and again.model.pending == t.model.pending
    assert again.model.to_json() == t.model.to_json()


def test_every_trigger_reaches_the_machine():
    """A model method named like a trigger would silently hide it (transitions skips it)."""
    shadowed = [tr["trigger"] for tr in Blackjack.transitions()
                if hasattr(Blackjack, tr["trigger"])]
    assert shadowed == []


def test_the_machine_is_drawn_from_its_definition():
    text = mermaid(Blackjack)
    for state in Blackjack.ROUND_STATES:
        assert state in text
