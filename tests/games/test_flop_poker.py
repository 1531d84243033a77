"""Flop Poker (ch. 583) on the game engine, event by event: the wagers of 583.7, the deal of
583.8-583.10, the round of 583.11 and its payouts (583.12). The deck, the stub counts, the
devices and the irregularities of 583.13 are in test_flop_poker_deck.py.

Expected nets are worked out by hand from the 583.12 paytables in each test's comments."""
import json
import os
import subprocess
import sys

import pytest

from controller import config as configuration
from controller.errors import ConfigError, InvalidCard
from controller.games import model_class
from controller.games.engine import IllegalEvent
from controller.games.events import Event
from controller.games.single_deck.flop_poker import FlopPoker
from tests.builders import table_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


table = table_of(FlopPoker)


def opened(**cfg):
    t = table(**cfg)
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    return t


def wager(t, seat, name, amount, **extra):
    t.handle(Event("wager", dict({"seat": seat, "wager": name, "amount": amount}, **extra)))


def place(t, wagers):
    for seat, placed in wagers.items():
        for name, amount in placed.items():
            wager(t, seat, name, amount)


def run(t, cards, actions):
    """Answer what the round asks, as a dealer would: cards in order, decisions in order.
    Returns the `for` of every card asked, in order."""
    cards, actions, asked = list(cards), list(actions), []
    while t.state not in ("settled", "voided") and t.model.pending:
        p = t.model.pending
        if p["need"] == "card" and cards:
            asked.append(p["for"])
            t.handle(Event("card", {"card": cards.pop(0)}))
        elif p["need"] == "decision" and actions:
            seat, action = actions.pop(0)
            data = {"seat": seat, "action": action}
            if action == "flop":
                data["amount"] = t.model.wagers[str(seat)]["ante"]
            t.handle(Event("decision", data))
        else:
            break
    return asked


def play(t, wagers, cards, actions):
    place(t, wagers)
    t.handle(Event("no_more_bets"))
    return run(t, cards, actions)


# ---- the table and its configuration ------------------------------------------------------

def test_registered_under_its_name():
    assert model_class("flop-poker") is FlopPoker


def test_shipped_table_configuration_equals_the_defaults():
    path = os.path.join(ROOT, "deploy", "tables", "flop-poker.toml")
    assert configuration.load(path, lambda g: FlopPoker) == \
        configuration.validate({}, FlopPoker)


@pytest.mark.reg("583.9(a)(1)")
def test_dealing_by_hand_needs_an_automated_shuffler():
    with pytest.raises(ConfigError, match=r"583.9\(a\)\(1\)"):
        table(options={"dealing": "hand"})
    assert table(options={"dealing": "hand", "shuffler": "automated"}).model.dealing == "hand"
    with pytest.raises(ConfigError, match="options.dealing = 'shoe'"):
        configuration.validate({"options": {"dealing": "shoe"}}, FlopPoker)


@pytest.mark.reg("583.8(e)")
def test_the_stub_count_interval_is_at_most_five_rounds():
    with pytest.raises(ConfigError, match=r"options.stub_count_every = 6.*583.8\(e\)"):
        configuration.validate({"options": {"stub_count_every": 6}}, FlopPoker)
    with pytest.raises(ConfigError, match="options.stub_count_every = 0"):
        configuration.validate({"options": {"stub_count_every": 0}}, FlopPoker)


# ---- wagers (583.7) -----------------------------------------------------------------------

@pytest.mark.reg("583.7(d)(1)", "583.2(b)(6)(ii)")
def test_the_pot_wager_equals_the_table_minimum():
    t = opened(table_min=500, table_max=10000)
    for amount in (400, 1000):
        with pytest.raises(IllegalEvent, match=r"pot %d at seat 1 is not the table minimum 500 "
                                               r"\(583.7\(d\)\(1\)\)" % amount):
            wager(t, 1, "pot", amount)
    wager(t, 1, "pot", 500)
    assert t.model.wagers == {"1": {"pot": 500}}


@pytest.mark.reg("583.7(d)(1)")
def test_ante_and_pot_are_both_required_to_play():
    t = opened()
    wager(t, 1, "ante", 500)
    wager(t, 1, "pot", 100)
    wager(t, 2, "ante", 500)
    wager(t, 2, "three_card_bonus", 500)
    with pytest.raises(IllegalEvent, match=r"seat 2 has no Pot Wager.*583.7\(d\)\(1\)"):
        t.handle(Event("no_more_bets"))
    wager(t, 3, "pot", 100)
    wager(t, 2, "pot", 100)
    with pytest.raises(IllegalEvent, match=r"seat 3 has no Ante Wager.*583.7\(d\)\(1\)"):
        t.handle(Event("no_more_bets"))
    wager(t, 3, "ante", 100)
    t.handle(Event("no_more_bets"))
    assert t.state == "dealing" and t.model.players == ["1", "2", "3"]


@pytest.mark.reg("583.7(d)(1)")
def test_the_ante_is_bounded_by_the_table_limits():
    t = opened(table_min=500, table_max=10000)
    with pytest.raises(IllegalEvent, match="ante 499 at seat 1 is outside the table limits"):
        wager(t, 1, "ante", 499)
    with pytest.raises(IllegalEvent, match="ante 10001 at seat 1 is outside the table limits"):
        wager(t, 1, "ante", 10001)
    wager(t, 1, "ante", 10000)


@pytest.mark.reg("583.7(d)(3)")
def test_three_card_bonus_only_where_offered_and_within_its_limits():
    t = opened(offered={"three_card_bonus": False})
    with pytest.raises(IllegalEvent, match=r"Bonus Wager is not offered.*583.7\(d\)\(3\)"):
        wager(t, 1, "three_card_bonus", 100)
    t = opened(limits={"three_card_bonus": [100, 2500]})
    with pytest.raises(IllegalEvent, match="three_card_bonus 2600 at seat 1 is outside "
                                           "limits.three_card_bonus 100..2500"):
        wager(t, 1, "three_card_bonus", 2600)
    wager(t, 1, "three_card_bonus", 2500)


@pytest.mark.reg("583.7(c)")
def test_no_wager_made_increased_or_withdrawn_after_no_more_bets():
    t = opened()
    place(t, {1: {"ante": 500, "pot": 100}})
    t.handle(Event("no_more_bets"))
    for name, amount in (("ante", 1000), ("ante", 0), ("three_card_bonus", 100)):
        with pytest.raises(IllegalEvent, match=r"no more bets.*583.7\(c\)"):
            wager(t, 1, name, amount)
    with pytest.raises(IllegalEvent, match=r"Flop Wager is made when the dealer asks.*583.11\(b\)"):
        wager(t, 1, "flop", 500)
    assert t.model.wagers == {"1": {"ante": 500, "pot": 100}}


@pytest.mark.reg("583.7(e)")
def test_a_player_wagers_on_one_position_only():
    t = opened()
    wager(t, 2, "ante", 500, player="p7")
    wager(t, 2, "pot", 100, player="p7")
    with pytest.raises(IllegalEvent, match=r"player p7 already wagers at seat 2.*583.7\(e\)"):
        wager(t, 3, "ante", 500, player="p7")
    wager(t, 3, "ante", 500, player="p8")
    # the player leaves seat 2 before "no more bets": seat 4 is then the one position
    wager(t, 2, "ante", 0, player="p7")
    wager(t, 2, "pot", 0, player="p7")
    wager(t, 4, "ante", 500, player="p7")
    assert t.model.seat_players == {"3": "p8", "4": "p7"}


@pytest.mark.reg("583.2(a)")
def test_six_betting_positions():
    t = opened()
    with pytest.raises(IllegalEvent, match="seats are 1..6"):
        wager(t, 7, "ante", 500)


# ---- the deal (583.8(b), (c); 583.9(c); 583.10(b)) -----------------------------------------

@pytest.mark.reg("583.8(b)")
def test_the_pot_wagers_go_to_the_centre_at_no_more_bets():
    t = opened(table_min=500)
    place(t, {2: {"ante": 500, "pot": 500}, 5: {"ante": 1000, "pot": 500}})
    t.handle(Event("no_more_bets"))
    assert t.model.pot == 1000
    assert ["pot_to_centre", {"amount": 1000, "section": "583.8(b)"}] in t.model.record


@pytest.mark.reg("583.8(c)")
def test_one_card_at_a_time_from_the_dealers_left_until_each_player_has_three():
    t = opened()
    asked = play(t, {5: {"ante": 500, "pot": 100}, 2: {"ante": 500, "pot": 100},
                     3: {"ante": 100, "pot": 100}},
                 ["2c", "3c", "4c", "2d", "3d", "4d", "2h", "3h", "4h"], [])
    assert asked == ["seat 2", "seat 3", "seat 5"] * 3
    assert t.model.hands == {"2": ["2c", "2d", "2h"], "3": ["3c", "3d", "3h"],
                             "5": ["4c", "4d", "4h"]}
    assert t.state == "decisions"
    assert t.model.pending == {"need": "decision", "seat": "2", "allowed": ["flop", "fold"]}


@pytest.mark.reg("583.9(c)")
def test_dealt_from_the_hand_in_the_same_order_with_its_own_sections():
    t = opened(options={"dealing": "hand", "shuffler": "automated"})
    asked = play(t, {1: {"ante": 500, "pot": 100}, 4: {"ante": 500, "pot": 100}},
                 ["2c", "3c", "2d", "3d", "2h", "3h"], [])
    assert asked == ["seat 1", "seat 4"] * 3
    assert ["pot_to_centre", {"amount": 200, "section": "583.9(b)"}] in t.model.record
    assert ["deal", {"seat": "4", "card": "3h", "section": "583.9(c)"}] in t.model.record


@pytest.mark.reg("583.10(b)")
def test_automated_shoe_stacks_of_three_then_the_community_stack_before_decisions():
    # seat 1: Jh Js 4c, seat 2: 9d Td 2s, community 3h Qc 8h, no burn (583.11(c)).
    # Seat 1 pairs jacks: Ante and Flop 1 to 1; seat 2's Q T 9 8 2 loses both.
    t = opened(options={"dealing": "automated_shoe"})
    place(t, {1: {"ante": 500, "pot": 100}, 2: {"ante": 300, "pot": 100}})
    t.handle(Event("no_more_bets"))
    asked = run(t, ["Jh", "Js", "4c", "9d", "Td", "2s", "3h", "Qc", "8h"], [])
    assert asked == ["seat 1"] * 3 + ["seat 2"] * 3 + ["community"] * 3
    assert t.state == "decisions" and t.model.community == ["3h", "Qc", "8h"]
    run(t, [], [(1, "flop"), (2, "flop")])
    assert t.state == "settled" and t.model.burn is None
    assert t.model.results == {
        "1": {"ante": ["win", 500], "flop": ["win", 500], "pot": ["win", 100]},
        "2": {"ante": ["lose", -300], "flop": ["lose", -300], "pot": ["lose", -100]}}


# ---- fold or flop (583.11(b)) -------------------------------------------------------------

def _to_decisions(t, wagers, cards):
    place(t, wagers)
    t.handle(Event("no_more_bets"))
    run(t, cards, [])
    assert t.state == "decisions"


@pytest.mark.reg("583.11(b)")
def test_each_player_in_turn_from_the_dealers_left():
    t = opened()
    _to_decisions(t, {1: {"ante": 500, "pot": 100}, 4: {"ante": 500, "pot": 100}},
                  ["2c", "3c", "4c", "2d", "3d", "4d"])
    with pytest.raises(IllegalEvent, match=r"seat 4 acts \(fold\), but the dealer asks seat 1 "
                                           r"first.*583.11\(b\)"):
        t.handle(Event("decision", {"seat": 4, "action": "fold"}))
    with pytest.raises(IllegalEvent, match=r"'raise' is not a Flop Poker decision.*583.11\(b\)"):
        t.handle(Event("decision", {"seat": 1, "action": "raise", "amount": 500}))
    t.handle(Event("decision", {"seat": 1, "action": "fold"}))
    assert t.model.pending["seat"] == "4"


@pytest.mark.reg("583.7(d)(2)")
def test_the_flop_wager_equals_the_ante():
    t = opened()
    _to_decisions(t, {1: {"ante": 500, "pot": 100}}, ["2c", "3c", "4c"])
    for amount in (1000, 250, "500", True):
        with pytest.raises(IllegalEvent, match=r"flop .* is not equal to the Ante 500.*"
                                               r"583.7\(d\)\(2\)"):
            t.handle(Event("decision", {"seat": 1, "action": "flop", "amount": amount}))
    with pytest.raises(IllegalEvent, match=r"flop needs its amount.*Ante 500"):
        t.handle(Event("decision", {"seat": 1, "action": "flop"}))
    t.handle(Event("decision", {"seat": 1, "action": "flop", "amount": 500}))
    assert t.model.wagers["1"] == {"ante": 500, "pot": 100, "flop": 500}
    assert t.state == "flop" and t.model.pending == {"need": "card", "for": "burn"}


@pytest.mark.reg("583.11(b)")
def test_a_fold_collects_the_ante_and_the_folded_hand_still_takes_the_pot():
    # seat 1: 2c 7d 9h flops; seat 2: Ks Kd 4c folds. Burn 3h, flop Kh 4s Jd.
    # Seat 2's Ks Kd Kh 4c 4s is a full house: it takes the Pot (2 x 100) although it folded,
    # and loses its Ante. Seat 1's K J 9 7 2 is below jacks: Ante and Flop lose.
    t = opened()
    play(t, {1: {"ante": 500, "pot": 100}, 2: {"ante": 500, "pot": 100}},
         ["2c", "Ks", "7d", "Kd", "9h", "4c", "3h", "Kh", "4s", "Jd"], [(1, "flop"), (2, "fold")])
    assert t.model.results == {
        "1": {"ante": ["lose", -500], "flop": ["lose", -500], "pot": ["lose", -100]},
        "2": {"ante": ["lose", -500], "pot": ["win", 100]}}
    assert ["collect", {"seat": "2", "wager": "ante", "amount": 500, "section": "583.11(b)"}] \
        in t.model.record
    assert t.model.hands["2"] == ["Ks", "Kd", "4c"]          # the cards stay on the layout


@pytest.mark.reg("583.1")
def test_a_fold_makes_no_flop_wager():
    t = opened()
    _to_decisions(t, {1: {"ante": 500, "pot": 100}}, ["2c", "3c", "4c"])
    with pytest.raises(IllegalEvent, match=r"a fold makes no Flop Wager \(583.1\)"):
        t.handle(Event("decision", {"seat": 1, "action": "fold", "amount": 500}))


# ---- burn, flop and settlement (583.11(c)-(e), 583.12) -------------------------------------

@pytest.mark.reg("583.11(c)")
def test_one_card_burned_then_the_flop_face_up():
    t = opened()
    _to_decisions(t, {1: {"ante": 500, "pot": 100}}, ["2c", "3c", "4c"])
    asked = run(t, ["Ah", "Kd", "7s", "9c"], [(1, "fold")])
    assert asked == ["burn", "community", "community", "community"]
    assert t.model.burn == "Ah" and t.model.community == ["Kd", "7s", "9c"]


@pytest.mark.reg("583.11(d)", "583.11(f)")
def test_settled_one_player_at_a_time_from_the_dealers_right():
    # seat 1: Qh Qd 5c, flops 1000; seat 3: 8s 8c 4d, folds; seat 6: Ah Kh 3s, flops 500.
    # Burn 2c; flop Qs 8d 7h.
    # seat 1: Bonus pair 1 to 1 = 200; Qh Qd Qs 5c 8d three of a kind: Ante 1000, Flop 4 to 1.
    # seat 3: Ante collected at the fold; 8s 8c 8d Qs 4d trips eights, below the queens.
    # seat 6: A K 3 no pair: Bonus, Ante, Flop lose. Pot 3 x 500 to seat 1.
    t = opened(table_min=500)
    play(t, {1: {"ante": 1000, "pot": 500, "three_card_bonus": 200},
             3: {"ante": 500, "pot": 500}, 6: {"ante": 500, "pot": 500, "three_card_bonus": 100}},
         ["Qh", "8s", "Ah", "Qd", "8c", "Kh", "5c", "4d", "3s", "2c", "Qs", "8d", "7h"],
         [(1, "flop"), (3, "fold"), (6, "flop")])
    assert t.model.results == {
        "1": {"three_card_bonus": ["win", 200], "ante": ["win", 1000], "flop": ["win", 4000],
              "pot": ["win", 1000]},
        "3": {"ante": ["lose", -500], "pot": ["lose", -500]},
        "6": {"three_card_bonus": ["lose", -100], "ante": ["lose", -500],
              "flop": ["lose", -500], "pot": ["lose", -500]}}
    turned = [(d["seat"], d["cards"], d["hand"]) for what, d in t.model.record
              if what == "turned_up"]
    # every hand is kept in the record to reconstruct the round (583.11(f))
    assert turned == [("6", ["Ah", "Kh", "3s"], None),
                      ("3", ["8s", "8c", "4d"], "three_of_a_kind"),
                      ("1", ["Qh", "Qd", "5c"], "three_of_a_kind")]
    # each player's wagers are resolved before the next player's; the Pot after all of them
    steps = [(what, d.get("seat"), d.get("wager")) for what, d in t.model.record
             if what in ("turned_up", "pay", "collect", "pot")]
    assert steps == [("collect", "3", "ante"),                  # at the fold (583.11(b))
                     ("turned_up", "6", None), ("collect", "6", "three_card_bonus"),
                     ("collect", "6", "ante"), ("collect", "6", "flop"),
                     ("turned_up", "3", None),
                     ("turned_up", "1", None), ("pay", "1", "three_card_bonus"),
                     ("pay", "1", "ante"), ("pay", "1", "flop"), ("pot", None, None)]


@pytest.mark.reg("583.11(d)(1)")
def test_three_card_bonus_is_settled_for_a_folded_player_too():
    # seat 1 folds 7c 7d 7h: three of a kind 25 to 1 on 400 = 10000; the Ante is lost.
    # The flop 2s 5d 9c: seat 1 holds 7c 7d 7h 9c 5d, the only hand: it takes its own Pot back.
    t = opened()
    play(t, {1: {"ante": 500, "pot": 100, "three_card_bonus": 400}},
         ["7c", "7d", "7h", "Ks", "2s", "5d", "9c"], [(1, "fold")])
    assert t.model.results == {"1": {"three_card_bonus": ["win", 10000],
                                     "ante": ["lose", -500], "pot": ["push", 0]}}


@pytest.mark.reg("583.11(d)(2)")
def test_ante_and_flop_need_jacks_or_better_from_three_cards_and_two_community_cards():
    # seat 2: Ah 2c 7d with a flop of Kh Qh Jh: the four hearts make no flush, and the best
    # hand is A K Q 7 2: both lose. seat 4: Tc Td 3s: a pair of tens, below jacks: both lose.
    # seat 5: Jc 9s 4d pairs the Jh: Ante and Flop 1 to 1, and its jacks take the Pot (3 x 100).
    t = opened()
    play(t, {2: {"ante": 500, "pot": 100}, 4: {"ante": 500, "pot": 100},
             5: {"ante": 500, "pot": 100}},
         ["Ah", "Tc", "Jc", "2c", "Td", "9s", "7d", "3s", "4d", "5c", "Kh", "Qh", "Jh"],
         [(2, "flop"), (4, "flop"), (5, "flop")])
    assert t.model.results == {
        "2": {"ante": ["lose", -500], "flop": ["lose", -500], "pot": ["lose", -100]},
        "4": {"ante": ["lose", -500], "flop": ["lose", -500], "pot": ["lose", -100]},
        "5": {"ante": ["win", 500], "flop": ["win", 500], "pot": ["win", 200]}}


@pytest.mark.reg("583.11(e)")
def test_identical_hands_split_the_pot_the_odd_cent_from_the_dealers_right():
    # Flop Ks 7h 2d. seat 2 Ac Ad 9c and seat 4 Ah As 9h both hold A A K 9 7: identical; seat
    # 5's Qc Qd 5s is lower. Pot 3 x 101 = 303 split two ways: 151 each, the odd cent to seat 4
    # (settled first, from the dealer's right). Ante/Flop: pairs of aces and queens 1 to 1.
    t = opened(table_min=101)
    play(t, {2: {"ante": 500, "pot": 101}, 4: {"ante": 500, "pot": 101},
             5: {"ante": 500, "pot": 101}},
         ["Ac", "Ah", "Qc", "Ad", "As", "Qd", "9c", "9h", "5s", "Tc", "Ks", "7h", "2d"],
         [(2, "flop"), (4, "fold"), (5, "flop")])
    assert t.model.results == {
        "2": {"ante": ["win", 500], "flop": ["win", 500], "pot": ["win", 50]},
        "4": {"ante": ["lose", -500], "pot": ["win", 51]},
        "5": {"ante": ["win", 500], "flop": ["win", 500], "pot": ["lose", -101]}}


@pytest.mark.reg("583.11(e)", "583.6(c)")
def test_a_tie_goes_to_the_next_highest_card():
    # Flop Kd 7s 2h: seat 1 Ac Ad 9c (A A K 9 7) beats seat 2 Ah As 8c (A A K 8 7).
    t = opened()
    play(t, {1: {"ante": 100, "pot": 100}, 2: {"ante": 100, "pot": 100}},
         ["Ac", "Ah", "Ad", "As", "9c", "8c", "3d", "Kd", "7s", "2h"],
         [(1, "flop"), (2, "flop")])
    assert t.model.results["1"]["pot"] == ["win", 100]
    assert t.model.results["2"]["pot"] == ["lose", -100]


@pytest.mark.reg("583.12(b)", "583.12(a)")
@pytest.mark.parametrize("player, flop, hand, flop_net", [
    ("Ah Kh Qh", "Jh Th 2c", "royal flush", 1000 * 200),
    ("9s 8s 7s", "6s 5s Kd", "straight flush", 500 * 200),
    ("4c 4d 4h", "4s 9d 2c", "four of a kind", 100 * 200),
    ("Jc Jd 5h", "Js 5s 2c", "full house", 30 * 200),
    ("Ad 9d 3d", "7d 2d Kc", "flush", 20 * 200),
    ("8c 9d Th", "Js Qs 2c", "straight", 10 * 200),
    ("5c 5d 9h", "5s Kd 2c", "three of a kind", 4 * 200),
    ("3c 3d 9h", "9s Kd 2c", "two pair", 2 * 200),
    ("Qc 8d 3h", "Qs 5d 2c", "pair of queens", 200),
])
def test_flop_wager_payout_odds(player, flop, hand, flop_net):
    cards = player.split() + ["Tc" if "Tc" not in player + flop else "Ts"] + flop.split()
    t = opened()
    play(t, {1: {"ante": 200, "pot": 100}}, cards, [(1, "flop")])
    assert t.model.results["1"]["flop"] == ["win", flop_net], hand
    assert t.model.results["1"]["ante"] == ["win", 200]          # 583.12(a): 1 to 1


# ---- a round taken up again in a fresh process ----------------------------------------------

@pytest.mark.reg("583.11(e)")
def test_snapshot_mid_round_restores_in_a_fresh_process_with_the_same_settlement():
    # seat 1: Jh Js 9c flops, seat 3: 6d 6h Ac (Bonus 300) is still to decide.
    t = opened()
    place(t, {1: {"ante": 500, "pot": 100}, 3: {"ante": 700, "pot": 100,
                                                "three_card_bonus": 300}})
    t.handle(Event("no_more_bets"))
    run(t, ["Jh", "6d", "Js", "6h", "9c", "Ac"], [(1, "flop")])
    assert t.model.pending == {"need": "decision", "seat": "3", "allowed": ["flop", "fold"]}
    snap = json.dumps(t.snapshot())
    assert json.loads(snap) == t.snapshot()                  # JSON-native: nothing lost
    rest = [Event("decision", {"seat": 3, "action": "flop", "amount": 700}),
            Event("card", {"card": "2s"}), Event("card", {"card": "Jd"}),
            Event("card", {"card": "6c"}), Event("card", {"card": "Kh"})]
    code = (
        "import json, sys\n"
        "from controller.games.engine import GameMachine\n"
        "from controller.games.events import Event\n"
        "from controller.games.single_deck.flop_poker import FlopPoker\n"
        "doc = json.loads(sys.stdin.read())\n"
        "t = GameMachine.restore(FlopPoker, doc['snap'])\n"
        "for e in doc['rest']:\n"
        "    t.handle(Event.from_json(e))\n"
        "print(json.dumps([t.state, t.model.results, t.model.community]))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       cwd=ROOT, input=json.dumps({"snap": json.loads(snap),
                                                   "rest": [e.to_json() for e in rest]}))
    for e in rest:
        t.handle(e)
    # Flop Jd 6c Kh (burn 2s). seat 1: Jh Js Jd Kh 9c trips jacks, Ante 500, Flop 4 to 1.
    # seat 3: 6d 6h 6c Ac Kh trips sixes, Ante 700, Flop 4 to 1, Bonus pair 1 to 1 = 300;
    # the Pot (200) to seat 1's jacks.
    expected = {"1": {"ante": ["win", 500], "flop": ["win", 2000], "pot": ["win", 100]},
                "3": {"three_card_bonus": ["win", 300], "ante": ["win", 700],
                      "flop": ["win", 2800], "pot": ["lose", -100]}}
    assert t.model.results == expected
    assert json.loads(p.stdout) == ["settled", expected, ["Jd", "6c", "Kh"]]


@pytest.mark.reg("583.3(a)")
def test_a_card_twice_in_one_round_or_a_joker_is_refused():
    t = opened()
    _to_decisions(t, {1: {"ante": 500, "pot": 100}}, ["2c", "3c", "4c"])
    t.handle(Event("decision", {"seat": 1, "action": "fold"}))
    with pytest.raises(InvalidCard, match=r"3c is already out of the deck.*583.3\(a\)"):
        t.handle(Event("card", {"card": "3c"}))
    with pytest.raises(InvalidCard, match=r"no joker \(583.3\(a\)\)"):
        t.handle(Event("card", {"card": "JK"}))
    with pytest.raises(InvalidCard, match="not a card"):
        t.handle(Event("card", {"card": "1x"}))
    assert t.model.pending == {"need": "card", "for": "burn"}
