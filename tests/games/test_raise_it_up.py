"""Raise It Up Stud Poker (ch. 669a) fed Event by Event: the wagers of 669a.7, the deal of
669a.8-669a.10, the streets and settlement of 669a.11-669a.12, the progressive lock-out, and a
round restored in a fresh process (the deck, stub count, irregularities and devices are in
test_raise_it_up_deck.py). Expected nets are worked by hand from the printed paytables, in
cents."""
import json
import os
import subprocess
import sys

import pytest

from controller import config as configuration
from controller.errors import ConfigError, RulesError
from controller.games import model_class
from controller.games.engine import IllegalEvent
from controller.games.events import Event
from controller.games.scenario_answers import answers_for
from controller.games.single_deck.raise_it_up import RaiseItUpStud as RIU
from tests.builders import table_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOUR = 3600 * 10 ** 9
A500 = {"ante": 500, "blind": 500}


table = table_of(RIU)


def opened(**cfg):
    t = table(**cfg)
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    return t


def wagers(t, seats):
    for seat, placed in seats.items():
        for name, amount in placed.items():
            t.handle(Event("wager", {"seat": seat, "wager": name, "amount": amount}))


def shoe(hands, community):
    """The shoe from the top for 669a.8(d): one card at a time to each seat from seat 1,
    three times, then the three community cards."""
    seats = sorted(hands)
    return [hands[s][i] for i in range(3) for s in seats] + list(community)


def act(t, seat, action, amount=None):
    data = {"seat": seat, "action": action}
    if amount is not None:
        data["amount"] = amount
    t.handle(Event("decision", data))


def irregular(t, kind, **data):
    t.handle(Event("irregularity", dict(data, kind=kind)))


def drive(t, cards=(), actions=()):
    """Answer the round's pending needs from `cards` and `actions` [(seat, action, amount?)];
    stops when both run out or the round waits for something else."""
    cards, actions = list(cards), list(actions)
    while t.model.pending is not None and t.state not in ("settled", "voided"):
        need = t.model.pending["need"]
        if need == "card" and cards:
            t.handle(Event("card", {"card": cards.pop(0)}))
        elif need == "stack" and cards:
            t.handle(Event("card", {"cards": [cards.pop(0) for _ in range(3)]}))
        elif need == "decision" and actions:
            seat, *rest = actions.pop(0)
            assert str(seat) == t.model.pending["seat"], (seat, t.model.pending)
            act(t, seat, *rest)
        else:
            break
    assert not cards and not actions, (cards, actions, t.model.pending)


def results(t):
    return {s: {w: tuple(r) for w, r in res.items()} for s, res in t.model.results.items()}


def test_registered_under_its_name():
    assert model_class("raise-it-up-stud") is RIU


# ---- wagers (669a.7) ---------------------------------------------------------------------

@pytest.mark.reg("669a.7(d)(1)")
def test_ante_and_an_equal_blind_are_required_to_play():
    t = opened()
    wagers(t, {1: {"ante": 500, "pair_plus": 100}})
    with pytest.raises(IllegalEvent, match=r"seat 1 has no Blind Wager.*669a.7\(d\)\(1\)"):
        t.handle(Event("no_more_bets"))
    wagers(t, {1: {"blind": 1000}})
    with pytest.raises(IllegalEvent, match=r"Blind Wager 1000 must equal the Ante Wager 500 "
                                           r"\(669a.7\(d\)\(1\)\)"):
        t.handle(Event("no_more_bets"))
    wagers(t, {1: {"blind": 500}, 2: {"pair_plus": 100, "progressive": 100}})
    with pytest.raises(IllegalEvent, match=r"seat 2 has no Ante Wager"):
        t.handle(Event("no_more_bets"))
    wagers(t, {2: {"pair_plus": 0, "progressive": 0}})
    t.handle(Event("no_more_bets"))
    assert t.state == "dealing" and t.model.seats == ["1"]


@pytest.mark.reg("669a.7(d)(1)")
def test_the_table_limits_bound_ante_and_blind_side_wagers_their_own():
    t = opened(table_min=500, table_max=5000, limits={"pair_plus": [100, 2500]})
    with pytest.raises(IllegalEvent, match="ante 400 at seat 1 is outside the table limits"):
        wagers(t, {1: {"ante": 400}})
    with pytest.raises(IllegalEvent, match="blind 5100 at seat 1 is outside the table limits"):
        wagers(t, {1: {"blind": 5100}})
    with pytest.raises(IllegalEvent, match="pair_plus 2600 at seat 1 is outside limits.pair_plus"):
        wagers(t, {1: {"pair_plus": 2600}})
    wagers(t, {1: {"ante": 5000, "blind": 5000, "pair_plus": 100, "six_card_bonus": 100000}})
    with pytest.raises(ConfigError, match="limits.ante: this wager is bounded by table_min"):
        configuration.validate({"limits": {"ante": [100, 200]}}, RIU)


@pytest.mark.reg("669a.7(c)")
def test_no_wager_made_increased_or_withdrawn_after_no_more_bets():
    t = opened()
    wagers(t, {1: A500})
    t.handle(Event("no_more_bets"))
    for seat, name, amount in ((1, "pair_plus", 100), (1, "ante", 1000), (1, "ante", 0),
                               (2, "ante", 500)):
        with pytest.raises(IllegalEvent, match=r"no more bets.*669a.7\(c\)"):
            wagers(t, {seat: {name: amount}})
    assert t.model.wagers == {"1": A500}


@pytest.mark.reg("669a.7(d)(4)")
def test_progressive_wager_only_where_offered():
    t = opened(offered={"progressive": False})
    with pytest.raises(IllegalEvent, match=r"Progressive Payout Wager is not offered.*"
                                           r"669a.7\(d\)\(4\)"):
        wagers(t, {1: {"progressive": 100}})
    assert t.model.meter is None and "meter" not in answers_for(t.model).summary()


@pytest.mark.reg("669a.7(d)(5)")
def test_six_card_bonus_only_where_offered():
    t = opened(offered={"six_card_bonus": False})
    with pytest.raises(IllegalEvent, match=r"Six Card Bonus Wager is not offered.*"
                                           r"669a.7\(d\)\(5\)"):
        wagers(t, {1: {"six_card_bonus": 100}})


@pytest.mark.reg("669a.7(e)")
def test_one_player_position_per_player():
    t = opened()
    t.handle(Event("wager", {"seat": 2, "wager": "ante", "amount": 500, "player": "p7"}))
    with pytest.raises(IllegalEvent, match=r"player p7 already wagers at seat 2.*669a.7\(e\)"):
        t.handle(Event("wager", {"seat": 3, "wager": "ante", "amount": 500, "player": "p7"}))
    t.handle(Event("wager", {"seat": 2, "wager": "blind", "amount": 500, "player": "p7"}))
    t.handle(Event("wager", {"seat": 3, "wager": "ante", "amount": 500, "player": "p8"}))


@pytest.mark.reg("669a.2(a)")
def test_six_betting_positions():
    t = opened()
    with pytest.raises(IllegalEvent, match="seats are 1..6"):
        wagers(t, {7: A500})


# ---- the deal (669a.8(d), 669a.10(b)) ---------------------------------------------------

@pytest.mark.reg("669a.8(d)")
def test_one_card_at_a_time_from_seat_1_then_three_community_cards():
    t = opened()
    wagers(t, {4: A500, 1: A500})
    t.handle(Event("no_more_bets"))
    asked = []
    for code in ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc"]:
        asked.append(t.model.pending["for"])
        t.handle(Event("card", {"card": code}))
    assert asked == ["seat 1, card 1", "seat 4, card 1", "seat 1, card 2", "seat 4, card 2",
                     "seat 1, card 3", "seat 4, card 3", "community card 1",
                     "community card 2", "community card 3"]
    assert t.model.hands == {"1": ["2c", "4c", "6c"], "4": ["3c", "5c", "7c"]}
    assert t.model.community == ["8c", "9c", "Tc"] and t.model.revealed == 0
    assert t.state == "before_4th_street"
    with pytest.raises(IllegalEvent, match=r"no card is due while before_4th_street"):
        t.handle(Event("card", {"card": "Jc"}))


@pytest.mark.reg("669a.8(d)")
def test_a_manual_shoe_deals_no_stacks():
    t = opened()
    wagers(t, {1: A500})
    t.handle(Event("no_more_bets"))
    with pytest.raises(IllegalEvent, match=r"one at a time.*669a.8\(d\)"):
        t.handle(Event("card", {"cards": ["2c", "3c", "4c"]}))


@pytest.mark.reg("669a.10(b)")
def test_an_automated_shoe_deals_stacks_of_three_seat_1_first_then_the_community():
    t = opened(options={"dealing": "automated_shoe"})
    wagers(t, {5: A500, 2: A500})
    t.handle(Event("no_more_bets"))
    assert t.model.pending == {"need": "stack", "for": "seat 2"}
    with pytest.raises(IllegalEvent, match=r"stacks of three.*669a.10\(b\)"):
        t.handle(Event("card", {"card": "2c"}))
    t.handle(Event("card", {"cards": ["2c", "3c", "4c"]}))
    assert t.model.pending == {"need": "stack", "for": "seat 5"}
    t.handle(Event("card", {"cards": ["5c", "6c", "7c"]}))
    assert t.model.pending == {"need": "stack", "for": "the community cards"}
    t.handle(Event("card", {"cards": ["8c", "9c", "Tc"]}))
    assert t.model.hands == {"2": ["2c", "3c", "4c"], "5": ["5c", "6c", "7c"]}
    assert t.model.community == ["8c", "9c", "Tc"] and t.state == "before_4th_street"


@pytest.mark.reg("669a.3(a)")
def test_one_52_card_deck_no_card_twice_no_joker():
    t = opened()
    wagers(t, {1: A500})
    t.handle(Event("no_more_bets"))
    t.handle(Event("card", {"card": "As"}))
    with pytest.raises(IllegalEvent, match=r"a second As.*669a.3\(a\)"):
        t.handle(Event("card", {"card": "as"}))
    for bad in ("JK", "1s", None):
        with pytest.raises(IllegalEvent, match=r"not a card of the 52-card deck"):
            t.handle(Event("card", {"card": bad}))
    t2 = table()
    t2.handle(Event("open_table"))
    with pytest.raises(IllegalEvent, match=r"card 3 \('Kd'\): a second Kd"):
        t2.handle(Event("shuffle", {"stack": ["Kd", "2c", "Kd"]}))


# ---- the streets (669a.11(b)-(h)) --------------------------------------------------------

HANDS = {"1": ["9c", "6d", "2s"], "2": ["Tc", "3d", "Qs"], "3": ["8d", "4c", "Ac"],
         "4": ["7s", "6h", "5c"]}
COMMUNITY = ["Ts", "8h", "4h"]


def dealt(t, seats=None, hands=HANDS, community=COMMUNITY):
    wagers(t, seats or {s: A500 for s in hands})
    t.handle(Event("no_more_bets"))
    drive(t, shoe(hands, community))


@pytest.mark.reg("669a.11(b)")
def test_before_4th_street_check_or_play_one_to_three_times_the_ante_from_seat_1():
    t = opened()
    dealt(t)
    assert t.model.pending == {"need": "decision", "seat": "1", "allowed": ["play", "check"],
                               "amounts": [500, 1000, 1500]}
    with pytest.raises(IllegalEvent, match=r"seat 2 acts, but the procedure asks seat 1"):
        act(t, 2, "check")
    with pytest.raises(RulesError, match=r"2000 is not 1 or 2 or 3 times the Ante 500 "
                                         r"\(669a.11\(b\)\)"):
        act(t, 1, "play", 2000)
    with pytest.raises(RulesError, match=r"669a.11\(b\)"):
        act(t, 1, "play", 750)
    with pytest.raises(IllegalEvent, match=r"fold is not allowed before 4th Street.*"
                                           r"669a.11\(b\)"):
        act(t, 1, "fold")
    act(t, 1, "play", 1500)
    assert t.model.pending["seat"] == "2" and t.model.wagers["1"]["play"] == 1500


@pytest.mark.reg("669a.11(d)")
def test_before_5th_street_check_or_play_one_or_two_times_the_ante():
    t = opened()
    dealt(t)
    drive(t, actions=[(1, "check"), (2, "check"), (3, "check"), (4, "check")])
    assert t.state == "before_5th_street" and t.model.revealed == 1
    assert t.model.pending["amounts"] == [500, 1000]
    with pytest.raises(RulesError, match=r"1500 is not 1 or 2 times the Ante 500 "
                                         r"\(669a.11\(d\)\)"):
        act(t, 1, "play", 1500)
    act(t, 1, "play", 1000)
    assert t.model.wagers["1"]["play"] == 1000


@pytest.mark.reg("669a.11(f)")
def test_before_6th_street_play_once_the_ante_or_fold_no_check():
    t = opened()
    dealt(t)
    drive(t, actions=[(s, "check") for s in (1, 2, 3, 4)] * 2)
    assert t.state == "before_6th_street" and t.model.revealed == 2
    assert t.model.pending == {"need": "decision", "seat": "1", "allowed": ["play", "fold"],
                               "amounts": [500]}
    with pytest.raises(IllegalEvent, match=r"check is not allowed before 6th Street.*"
                                           r"669a.11\(f\)"):
        act(t, 1, "check")
    with pytest.raises(RulesError, match=r"1000 is not 1 times the Ante 500 \(669a.11\(f\)\)"):
        act(t, 1, "play", 1000)


@pytest.mark.reg("669a.11(b)")
def test_a_seat_that_made_its_play_wager_is_not_asked_again():
    t = opened()
    dealt(t)
    asked = []
    moves = {("1", 0): ("play", 500), ("2", 0): ("check",), ("3", 0): ("play", 1000),
             ("4", 0): ("check",), ("2", 1): ("play", 1000), ("4", 1): ("check",),
             ("4", 2): ("fold",)}
    while t.state in ("before_4th_street", "before_5th_street", "before_6th_street"):
        seat = t.model.pending["seat"]
        asked.append((seat, t.model.revealed))
        act(t, seat, *moves[(seat, t.model.revealed)])
    assert asked == [("1", 0), ("2", 0), ("3", 0), ("4", 0), ("2", 1), ("4", 1), ("4", 2)]
    assert t.state == "settled"


@pytest.mark.reg("669a.11(c)", "669a.11(e)", "669a.11(h)")
def test_community_cards_revealed_in_order_once_every_seat_has_decided():
    t = opened()
    dealt(t)
    steps = []
    for seat, action, amount in [(1, "check", None), (2, "play", 1500), (3, "check", None),
                                 (4, "check", None), (1, "check", None), (3, "play", 1000),
                                 (4, "check", None), (1, "play", 500), (4, "play", 500)]:
        steps.append(t.model.revealed)
        act(t, seat, action, amount)
    assert steps == [0, 0, 0, 0, 1, 1, 1, 2, 2]
    reveals = [(d["street"], d["card"]) for what, d in t.model.record if what == "reveal"]
    assert reveals == [("4th Street", "Ts"), ("5th Street", "8h"), ("6th Street", "4h")]


# ---- settlement (669a.11(i), 669a.12) ------------------------------------------------------

@pytest.mark.reg("669a.11(i)(2)(i)", "669a.11(i)(2)(ii)", "669a.12(b)", "669a.12(c)",
                 "669a.12(d)")
def test_ante_play_and_blind_on_the_best_five_of_six():
    t = opened()
    dealt(t)
    drive(t, actions=[(1, "check"), (2, "play", 1500), (3, "check"), (4, "check"),
                      (1, "check"), (3, "play", 1000), (4, "check"),
                      (1, "play", 500), (4, "play", 500)])
    assert t.state == "settled" and t.model.status == "settled"
    assert results(t) == {
        # 9c 6d 2s + Ts 8h 4h: no pair of 10s, every wager collected (669a.11(i)(2)(i))
        "1": {"ante": ("lose", -500), "play": ("lose", -500), "blind": ("lose", -500)},
        # pair of tens: Ante 1 to 1, Play 1 to 1, Blind pushes
        "2": {"ante": ("win", 500), "play": ("win", 1500), "blind": ("push", 0)},
        # two pair: Play 3 to 2 on 1000, Blind pushes
        "3": {"ante": ("win", 500), "play": ("win", 1500), "blind": ("push", 0)},
        # 4-5-6-7-8 straight: Play 4 to 1, Blind 2 to 1
        "4": {"ante": ("win", 500), "play": ("win", 2000), "blind": ("win", 1000)}}


@pytest.mark.reg("669a.11(i)")
def test_settlement_from_the_dealers_right_counterclockwise():
    t = opened()
    dealt(t)
    drive(t, actions=[(s, "play", 500) for s in (1, 2, 3, 4)])
    order = [d["seat"] for what, d in t.model.record if what == "settled_seat"]
    assert order == ["4", "3", "2", "1"]


@pytest.mark.reg("669a.11(i)(1)", "669a.12(a)")
@pytest.mark.parametrize("letter, hand, result", [
    ("A", ["As", "Ks", "Qs"], ("win", 4000)),      # straight flush 40 to 1 (no royal)
    ("B", ["7c", "7d", "7h"], ("win", 2500)),      # three of a kind 25 to 1 on B
    ("A", ["7c", "7d", "7h"], ("win", 3000)),
    ("C", ["4h", "5d", "6c"], ("win", 500)),       # straight 5 to 1 on C
    ("D", ["2h", "9h", "Kh"], ("win", 300)),       # flush 3 to 1 on D
    ("A", ["5h", "5d", "Kc"], ("win", 100)),       # pair 1 to 1
    ("A", ["Kh", "9d", "3c"], ("lose", -100)),
])
def test_pair_plus_on_the_players_three_cards(letter, hand, result):
    t = opened(paytables={"pair_plus": letter})
    dealt(t, {1: dict(A500, pair_plus=100)}, {"1": hand}, ["2c", "8s", "Jd"])
    drive(t, actions=[(1, "play", 500)])
    assert tuple(t.model.results["1"]["pair_plus"]) == result


@pytest.mark.reg("669a.11(i)(3)(ii)", "669a.12(f)")
@pytest.mark.parametrize("letter, hand, community, result", [
    ("A", ["9c", "9d", "9h"], ["9s", "2d", "5c"], ("win", 5000)),     # four of a kind 50 to 1
    ("C", ["9c", "9d", "9h"], ["9s", "2d", "5c"], ("win", 10000)),    # 100 to 1 on C
    ("D", ["7c", "7d", "2h"], ["7h", "Ks", "4d"], ("win", 700)),      # trips 7 to 1 on D
    ("C", ["7c", "7d", "2h"], ["7h", "Ks", "4d"], ("win", 800)),      # 8 to 1 on C
    ("A", ["Ah", "Kh", "Qh"], ["Jh", "Th", "2c"], ("win", 100000)),   # royal 1,000 to 1
    ("B", ["2h", "9h", "Kh"], ["3h", "5h", "Ac"], ("win", 1500)),     # flush 15 to 1 on B
    ("A", ["7c", "7d", "2h"], ["2s", "Ks", "4d"], ("lose", -100)),    # two pair loses
])
def test_six_card_bonus_on_the_players_three_and_the_community(letter, hand, community, result):
    t = opened(paytables={"six_card_bonus": letter})
    dealt(t, {1: dict(A500, six_card_bonus=100)}, {"1": hand}, community)
    drive(t, actions=[(1, "play", 500)])
    assert tuple(t.model.results["1"]["six_card_bonus"]) == result


@pytest.mark.reg("669a.11(i)(3)(i)(D)", "669a.12(e)(1)")
@pytest.mark.parametrize("hand, result", [
    (["Ah", "Kh", "Qh"], ("win", 49900)),      # A-K-Q of hearts 500 for 1
    (["3h", "4h", "5h"], ("win", 6900)),       # straight flush 70 for 1
    (["8c", "8d", "8s"], ("win", 5900)),       # three of a kind 60 for 1
    (["9c", "Td", "Jh"], ("win", 500)),        # straight 6 for 1
    (["Ah", "2d", "3c"], ("win", 500)),        # A-2-3 is a three-card straight
    (["2h", "9h", "Kh"], ("lose", -100)),      # a flush is below a straight
    (["5h", "5d", "Kc"], ("lose", -100)),
])
def test_progressive_fixed_payouts_are_for_1(hand, result):
    t = opened()
    dealt(t, {1: dict(A500, progressive=100)}, {"1": hand}, ["2c", "6s", "Jd"])
    drive(t, actions=[(1, "play", 500)])
    assert tuple(t.model.results["1"]["progressive"]) == result
    assert t.model.meter["value"] == 100014 and t.model.jackpots == []


@pytest.mark.reg("669a.12(e)(4)", "669a.11(i)(3)(i)(D)")
def test_ace_king_queen_of_spades_takes_the_meter_with_this_rounds_contributions():
    t = opened(progressive={"meter": 250000})
    dealt(t, {1: dict(A500, progressive=100), 2: dict(A500, progressive=500)},
          {"1": ["2c", "7d", "9h"], "2": ["As", "Ks", "Qs"]}, ["3d", "5h", "Jc"])
    # 250000 + 14% of 100 + 14% of 500, at "no more bets"
    assert t.model.meter["value"] == 250084
    drive(t, actions=[(1, "play", 500), (2, "play", 500)])
    assert tuple(t.model.results["2"]["progressive"]) == ("win", 250084 - 500)
    assert t.model.meter["value"] == 100000 and t.model.meter["hits"] == 1
    assert t.model.jackpots == [{"seat": "2", "hand": "ace_king_queen_of_spades",
                                 "amount": 250084, "table_inventory": False}]
    assert answers_for(t.model).summary()["meter"] == 100000


@pytest.mark.reg("669a.12(e)(3)")
def test_meter_rate_and_reset_minimums():
    with pytest.raises(ConfigError, match=r"rate 0.1 is below 14%.*669a.12\(e\)\(3\)"):
        configuration.validate({"progressive": {"rate": 0.1}}, RIU)
    with pytest.raises(ConfigError, match=r"reset 99999 is below the minimum.*669a.12\(e\)\(3\)"):
        configuration.validate({"progressive": {"reset": 99999, "meter": 99999}}, RIU)


@pytest.mark.reg("669a.12(e)(3)")
def test_contributions_carry_the_fraction_of_a_cent():
    t = opened()
    wagers(t, {1: dict(A500, progressive=101), 2: dict(A500, progressive=101),
               3: dict(A500, progressive=101)})
    t.handle(Event("no_more_bets"))
    # 3 x 14.14 cents = 42.42: 42 on the meter, 0.42 carried (in 1/50ths of a cent: 14% = 7/50)
    assert t.model.meter["value"] == 100042
    assert t.model.meter["rate"] == [7, 50] and t.model.meter["carry"] == 21


@pytest.mark.reg("669a.11(i)(3)(i)(E)", "669a.12(e)(5)")
def test_envy_bonuses_for_every_other_players_ace_king_queen_suited():
    t = opened()
    seats = {1: dict(A500, progressive=500), 2: dict(A500, progressive=100), 3: A500,
             4: dict(A500, progressive=100)}
    hands = {"1": ["As", "Ks", "Qs"], "2": ["Ah", "Kh", "Qh"], "3": ["3c", "4d", "8h"],
             "4": ["7c", "7d", "Jh"]}
    dealt(t, seats, hands, ["2c", "5d", "9s"])
    drive(t, actions=[(1, "play", 500), (2, "play", 500), (3, "play", 500), (4, "check"),
                      (4, "check"), (4, "fold")])
    r = results(t)
    # seat 1: the meter (100000 + 70 + 14 + 14) less its $5, and $125 for seat 2's hearts
    assert r["1"]["progressive"] == ("win", 100098 - 500) and r["1"]["envy"] == ("win", 12500)
    # seat 2: 500 for 1 on $1, and $100 for seat 1's spades; nothing for its own hand
    assert r["2"]["progressive"] == ("win", 49900) and r["2"]["envy"] == ("win", 10000)
    # seat 3 made no Progressive Payout Wager: no Envy Bonus
    assert "envy" not in r["3"]
    # seat 4 folded: no progressive payout (669a.11(g)) but both Envy Bonuses, $100 + $25
    assert r["4"]["progressive"] == ("lose", -100) and r["4"]["envy"] == ("win", 12500)
    assert r["4"]["ante"] == ("lose", -500) and r["4"]["blind"] == ("lose", -500)
    assert t.model.meter["value"] == 100000


@pytest.mark.reg("669a.11(f)", "669a.11(g)")
def test_a_fold_collects_ante_and_blind_at_once_and_keeps_the_hand_for_side_wagers():
    t = opened()
    seats = {1: dict(A500, pair_plus=100, progressive=100, six_card_bonus=100)}
    # 7-8-9 would pay the Pair Plus 6 to 1 and the Progressive 6 for 1; with 7h 7s 2c it is
    # three sevens, a Six Card Bonus of 5 to 1
    dealt(t, seats, {"1": ["7c", "8d", "9h"]}, ["7h", "7s", "2c"])
    drive(t, actions=[(1, "check"), (1, "check"), (1, "fold")])
    assert results(t) == {"1": {
        "ante": ("lose", -500), "blind": ("lose", -500),
        "pair_plus": ("lose", -100),              # goes with the folded hand (a reading)
        "progressive": ("lose", -100),            # forfeited without a Play Wager (g)
        "six_card_bonus": ("win", 500)}}
    folded = [what for what, _ in t.model.record if what in ("fold", "reveal")]
    assert folded == ["reveal", "reveal", "fold", "reveal"]


@pytest.mark.reg("669a.11(f)")
def test_collected_before_6th_street_is_revealed():
    t = opened()
    dealt(t, {1: A500, 2: A500}, {"1": ["2c", "3d", "9h"], "2": ["Kc", "Kd", "4h"]},
          ["5s", "Th", "Js"])
    drive(t, actions=[(1, "check"), (2, "check"), (1, "check"), (2, "check"), (1, "fold")])
    assert t.state == "before_6th_street"
    assert results(t) == {"1": {"ante": ("lose", -500), "blind": ("lose", -500)}}


@pytest.mark.reg("669a.11(f)", "669a.11(g)", "669a.12(e)(5)")
def test_a_folded_hand_left_on_the_table_for_its_side_wager_still_earns_envy_bonuses():
    """669a.11(f) leaves a folded hand with a Progressive Payout or Six Card Bonus Wager on the
    table until "any Envy Bonus is settled"; (g) takes only its player's Progressive Payout:
    the folded A-K-Q suited still pays the other players their Envy Bonus ($25 on $1)."""
    for side in ("progressive", "six_card_bonus"):
        t = opened()
        dealt(t, {1: dict(A500, **{side: 100}), 2: dict(A500, progressive=100)},
              {"1": ["Ad", "Kd", "Qd"], "2": ["2c", "7h", "9s"]}, ["3s", "5h", "Jc"])
        drive(t, actions=[(1, "check"), (2, "play", 500), (1, "check"), (1, "fold")])
        assert tuple(t.model.results["2"]["envy"]) == ("win", 2500), side
        assert "envy" not in t.model.results["1"]                  # never for his own hand
        if side == "progressive":
            assert tuple(t.model.results["1"]["progressive"]) == ("lose", -100)


@pytest.mark.reg("669a.11(f)")
def test_a_folded_hand_without_a_side_wager_is_discarded_and_earns_no_one_an_envy_bonus():
    t = opened()
    dealt(t, {1: A500, 2: dict(A500, progressive=100)},
          {"1": ["Ad", "Kd", "Qd"], "2": ["2c", "7h", "9s"]}, ["3s", "5h", "Jc"])
    drive(t, actions=[(1, "check"), (2, "play", 500), (1, "check"), (1, "fold")])
    assert "envy" not in t.model.results["2"]


# ---- "no more bets" and the progressive lock-out (669a.8(b)) --------------------------------

@pytest.mark.reg("669a.8(b)")
def test_progressive_chips_that_do_not_match_the_system_hold_the_round():
    t = opened()
    wagers(t, {1: dict(A500, progressive=100), 3: dict(A500, progressive=100)})
    t.handle(Event("no_more_bets", {"progressive_chips": 3}))
    assert t.state == "locked_out"
    assert t.model.lockout["section"] == "669a.8(b)"
    assert "3 progressive chips counted but the system accepted 2" in t.model.lockout["reason"]
    with pytest.raises(IllegalEvent, match="locked out"):
        t.handle(Event("card", {"card": "2c"}))
    with pytest.raises(IllegalEvent, match="floorperson or above"):
        t.handle(Event("clear", {"role": "dealer", "selftest": True}))
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    assert t.state == "dealing" and t.model.pending["for"] == "seat 1, card 1"
    assert t.model.meter["value"] == 100028


@pytest.mark.reg("669a.10(a)(2)")
def test_matching_chips_deal_on_and_the_section_follows_the_dealing_method():
    t = opened(options={"dealing": "automated_shoe"})
    wagers(t, {2: dict(A500, progressive=100)})
    t.handle(Event("no_more_bets", {"progressive_chips": 1}))
    assert t.state == "dealing"
    t2 = opened(options={"dealing": "automated_shoe"})
    wagers(t2, {2: dict(A500, progressive=100)})
    t2.handle(Event("no_more_bets", {"progressive_chips": 0}))
    assert t2.model.lockout["section"] == "669a.10(a)(2)"


# ---- persistence and configuration -----------------------------------------------------------

@pytest.mark.reg("669a.12(e)(4)")
def test_snapshot_mid_round_restores_in_a_fresh_process_with_the_same_settlement():
    t = opened(progressive={"meter": 300000})
    seats = {1: dict(A500, progressive=100, six_card_bonus=100),
             2: dict(A500, pair_plus=200, progressive=100),
             5: dict(A500, progressive=500)}
    hands = {"1": ["Jc", "Jd", "3h"], "2": ["As", "Ks", "Qs"], "5": ["Ah", "Kh", "Qh"]}
    dealt(t, seats, hands, ["Jh", "3s", "Kc"])
    drive(t, actions=[(1, "check"), (2, "play", 1500), (5, "check"), (1, "play", 1000)])
    assert t.state == "before_5th_street" and t.model.pending["seat"] == "5"
    snap = json.dumps(t.snapshot())
    assert json.loads(snap) == t.snapshot()                  # JSON-native: nothing lost
    code = (
        "import json, sys\n"
        "from controller.games.engine import GameMachine\n"
        "from controller.games.events import Event\n"
        "from controller.games.scenario_answers import answers_for\n"
        "from controller.games.single_deck.raise_it_up import RaiseItUpStud\n"
        "t = GameMachine.restore(RaiseItUpStud, json.loads(sys.stdin.read()))\n"
        "out = [t.state, t.model.pending]\n"
        "t.handle(Event('decision', {'seat': 5, 'action': 'check'}))\n"
        "t.handle(Event('decision', {'seat': 5, 'action': 'fold'}))\n"
        "print(json.dumps(out + [t.state, t.model.results, answers_for(t.model).summary()]))\n")
    p = subprocess.run([sys.executable, "-c", code], input=snap, capture_output=True,
                       text=True, check=True, cwd=ROOT)
    act(t, 5, "check")
    act(t, 5, "fold")
    expected = {
        # five: folded; its $5 Progressive forfeited, Envy $500 for seat 2's spades
        "5": {"ante": ["lose", -500], "blind": ["lose", -500], "progressive": ["lose", -500],
              "envy": ["win", 50000]},
        # two: A-K-Q of spades is a Pair Plus straight flush, 40 to 1; with Jh 3s Kc a pair
        # of kings: Play 1 to 1, Blind pushes; the meter 300000 + 14 + 14 + 70 less its $1;
        # $25 Envy for seat 5's hearts, folded but left on the table by its Progressive
        # Payout Wager (669a.11(f))
        "2": {"pair_plus": ["win", 8000], "ante": ["win", 500], "play": ["win", 1500],
              "blind": ["push", 0], "progressive": ["win", 300098 - 100],
              "envy": ["win", 2500]},
        # one: Jc Jd 3h + Jh 3s Kc is a full house: Play 6 to 1, Blind 4 to 1, Six Card
        # Bonus 25 to 1; $100 Envy for seat 2's spades and $25 for seat 5's folded hearts
        "1": {"ante": ["win", 500], "play": ["win", 6000], "blind": ["win", 2000],
              "progressive": ["lose", -100], "envy": ["win", 12500],
              "six_card_bonus": ["win", 2500]}}
    assert t.model.results == expected
    assert json.loads(p.stdout) == [
        "before_5th_street", {"need": "decision", "seat": "5", "allowed": ["play", "check"],
                              "amounts": [500, 1000]},
        "settled", expected,
        {"community": ["Jh", "3s", "Kc"], "meter": 100000,
         "jackpots": [{"seat": "2", "hand": "ace_king_queen_of_spades", "amount": 300098,
                       "table_inventory": False}]}]


def test_shipped_table_configuration_equals_the_defaults():
    path = os.path.join(ROOT, "deploy", "tables", "raise-it-up-stud.toml")
    assert configuration.load(path, lambda g: RIU) == configuration.validate({}, RIU)
