"""Six-Card Fortune Pai Gow Poker (ch. 670a) fed Event by Event: the wagers, "no more bets",
the random number generator's source, the order of the deal and of the players, settlement with
the meter across rounds, and a round restored from a snapshot in a fresh process. The
irregularities are in test_six_card_fortune_irregularities.py."""
import json
import os
import subprocess
import sys

import pytest

from controller import config as configuration
from controller.errors import ConfigError, InvalidCard, RulesError
from controller.games import model_class
from controller.games.six_card_fortune import model as scf
from controller.games.declarations import six_card_fortune as declared
from controller.games.engine import IllegalEvent
from controller.games.events import Event
from controller.games.six_card_fortune.model import SixCardFortune
from tests.games.six_card_fortune_table import ACE_HIGH, DECK, KINGS, ROOT, act, deal, \
    dealer_sets, opened, place, play, wager
from tests import builders


def test_registered_under_its_name():
    assert model_class("six-card-fortune-pai-gow") is SixCardFortune


def test_every_trigger_reaches_the_machine():
    """A model method named like a trigger would silently hide it (transitions skips it)."""
    assert [tr["trigger"] for tr in SixCardFortune.transitions()
            if hasattr(SixCardFortune, tr["trigger"])] == []


# ---- wagers (670a.7) ------------------------------------------------------------------------

@pytest.mark.reg("670a.7(d)")
def test_a_seat_plays_only_with_a_six_card_fortune_wager():
    t = opened()
    wager(t, 2, "fortune_bonus", 500)
    with pytest.raises(IllegalEvent, match=r"seat 2 has fortune_bonus but no six_card_fortune "
                                           r"Wager.*670a.7\(d\), \(e\)"):
        t.handle(Event("no_more_bets"))
    wager(t, 2, "six_card_fortune", 1000)
    t.handle(Event("no_more_bets"))
    assert t.state == "dealing"


@pytest.mark.parametrize("name, section", [
    pytest.param(name, section, marks=pytest.mark.reg(section), id=name)
    for name, section in (("fortune_bonus", "670a.7(e)(2)"), ("insurance", "670a.7(e)(3)"),
                          ("progressive", "670a.7(e)(4)"))])
def test_optional_wagers_only_where_the_rules_submission_offers_them(name, section):
    t = opened(offered={name: False})
    with pytest.raises(IllegalEvent, match=r"does not offer that wager \(%s\)"
                       % section.replace("(", r"\(").replace(")", r"\)")):
        wager(t, 1, name, 500)


@pytest.mark.reg("670a.7(c)")
def test_no_wager_made_increased_or_withdrawn_after_no_more_bets():
    t = opened()
    place(t, {1: {"six_card_fortune": 1000, "fortune_bonus": 500}})
    t.handle(Event("no_more_bets"))
    for name, amount in (("fortune_bonus", 1000), ("fortune_bonus", 0), ("insurance", 100),
                         ("six_card_fortune", 2000)):
        with pytest.raises(IllegalEvent, match=r"after \"no more bets\" \(670a.7\(c\)\)"):
            wager(t, 1, name, amount)
    assert t.model.wagers == {"1": {"six_card_fortune": 1000, "fortune_bonus": 500}}


@pytest.mark.reg("670a.8(b)(2)")
def test_the_progressive_system_is_locked_out_at_no_more_bets():
    t = opened()
    place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    with pytest.raises(IllegalEvent, match=r"progressive table game system is locked out.*"
                                           r"670a.2\(c\)\(2\), 670a.8\(b\)"):
        wager(t, 1, "progressive", 100)


@pytest.mark.reg("670a.7(c)")
def test_the_double_down_is_not_a_wager_placed_before_the_deal():
    t = opened()
    with pytest.raises(IllegalEvent, match=r"offered after the players examine their cards.*"
                                           r"670a.7\(c\), 670a.11\(c\)"):
        wager(t, 1, "double_down", 1000)


@pytest.mark.reg("670a.7(d)")
def test_table_limits_bound_the_main_wager_and_config_limits_the_side_wagers():
    t = opened(table_min=500, table_max=5000, limits={"insurance": [100, 2500]})
    with pytest.raises(IllegalEvent, match="outside the table limits 500..5000"):
        wager(t, 1, "six_card_fortune", 400)
    with pytest.raises(IllegalEvent, match="outside limits.insurance 100..2500"):
        wager(t, 1, "insurance", 2600)
    wager(t, 1, "six_card_fortune", 5000)
    wager(t, 1, "insurance", 2500)
    wager(t, 1, "fortune_bonus", 10000)      # no limit set for it: the table's own business


# ---- "no more bets": lammers, lock-out, meter (670a.8(b)) --------------------------------------

@pytest.mark.reg("670a.8(b)(1)")
def test_envy_lammers_go_next_to_qualifying_wagers_of_five_dollars_or_more():
    t = opened()
    place(t, {1: {"six_card_fortune": 1000, "fortune_bonus": 500, "progressive": 100},
              2: {"six_card_fortune": 1000, "fortune_bonus": 499, "progressive": 2500},
              3: {"six_card_fortune": 1000, "insurance": 5000}})
    t.handle(Event("no_more_bets"))
    assert t.model.lammers == {"1": ["fortune_bonus"], "2": ["progressive"]}


@pytest.mark.reg("670a.8(b)(2)")
def test_meter_contributions_at_no_more_bets_with_the_fraction_carried():
    t = opened(progressive={"meter": 600000, "rate": 0.15})
    place(t, {1: {"six_card_fortune": 1000, "progressive": 100},
              4: {"six_card_fortune": 1000, "progressive": 500}})
    wager(t, 6, "six_card_fortune", 1000)
    wager(t, 6, "progressive", 100)
    wager(t, 6, "progressive", 0)             # withdrawn before "no more bets": no contribution
    assert t.model.meter["value"] == 600000
    t.handle(Event("no_more_bets"))
    # 15 cents + 75 cents; nothing lost to rounding
    assert t.model.meter["value"] == 600090 and t.model.meter["carry"] == 0
    assert t.model.meter["wagers"] == 2


@pytest.mark.reg("670a.8(b)(2)")
def test_progressive_chips_must_match_what_the_system_accepted():
    t = opened()
    place(t, {1: {"six_card_fortune": 1000, "progressive": 100},
              3: {"six_card_fortune": 1000, "progressive": 100}})
    with pytest.raises(IllegalEvent, match=r"accepted .* at seats 1 but chips are at seats "
                                           r"1, 3.*670a.8\(b\)\(2\)"):
        t.handle(Event("no_more_bets", {"progressive_accepted": [1]}))
    assert t.state == "wagers_open" and t.model.meter["value"] == 500000
    t.handle(Event("no_more_bets", {"progressive_accepted": [3, 1]}))
    assert t.model.meter["value"] == 500040


# ---- the starting position and the deal (670a.5(i), 670a.8(d)-(g)) ---------------------------

@pytest.mark.reg("670a.5(i)(2)")
@pytest.mark.parametrize("number, first", [(1, "dealer"), (2, "seat 6"), (3, "seat 5"),
                                           (7, "seat 1")])
def test_random_number_generator_counts_from_the_dealer_counterclockwise(number, first):
    t = opened(rng=lambda: number)
    place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    assert t.model.start == {"method": "rng", "count": number,
                             "position": first.replace("seat ", "")}
    assert t.model.pending == {"need": "card", "for": first}


@pytest.mark.reg("670a.5(i)(2)")
def test_without_an_injected_source_the_number_comes_from_secrets(monkeypatch):
    drawn = []
    monkeypatch.setattr(declared.secrets, "randbelow", lambda n: drawn.append(n) or 2)
    t = builders.table(SixCardFortune)
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    assert drawn == [7] and t.model.start["count"] == 3
    assert "random" not in vars(scf) and "random" not in vars(declared)
    assert SixCardFortune.DECLARES.secure_rng is scf.secrets_rng is declared.secrets_rng


@pytest.mark.reg("670a.5(i)(2)")
def test_a_random_number_outside_one_to_seven_does_not_start_the_round():
    t = opened(rng=lambda: 8)
    place(t, {1: {"six_card_fortune": 1000}})
    with pytest.raises(IllegalEvent, match=r"generator failed.*outside 1..7 \(670a.5\(i\)\(2\)\)"):
        t.handle(Event("no_more_bets"))
    assert t.state == "wagers_open" and t.model.meter["value"] == 500000
    t.model.use_rng(lambda: 2)
    t.handle(Event("no_more_bets"))
    assert t.model.pending == {"need": "card", "for": "seat 6"}


@pytest.mark.reg("670a.5(i)(2)")
def test_the_random_number_generator_selects_one_to_seven():
    assert {scf.secrets_rng() for _ in range(2000)} == set(range(1, 8))


@pytest.mark.reg("670a.8(d)")
def test_one_card_at_a_time_clockwise_to_all_seven_positions_regardless_of_wagers():
    t = opened(rng=lambda: 3)                # seat 5 first
    place(t, {2: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    order = []
    for code in DECK[:42]:
        order.append(t.model.pending["for"])
        t.handle(Event("card", {"card": code}))
    ring = ["seat 5", "seat 6", "dealer", "seat 1", "seat 2", "seat 3", "seat 4"]
    assert order == ring * 6
    assert {p: len(h) for p, h in t.model.hands.items()} == {p: 6 for p in t.model.hands}
    assert t.model.hands["5"] == [DECK[i] for i in range(0, 42, 7)]


@pytest.mark.reg("670a.10(c)")
def test_an_automated_shoe_delivers_stacks_of_six_clockwise():
    t = opened(rng=lambda: 1, options={"dealing": "automated_shoe"})
    place(t, {2: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    order = []
    for code in DECK[:42]:
        order.append(t.model.pending["for"])
        t.handle(Event("card", {"card": code}))
    expected = []
    for p in ("dealer", "seat 1", "seat 2", "seat 3", "seat 4", "seat 5", "seat 6"):
        expected += [p] * 6
    assert order == expected and t.model.hands["dealer"] == DECK[:6]


@pytest.mark.reg("670a.5(i)(1)")
def test_three_dice_total_counted_from_the_dealer():
    t = opened(options={"start_method": "dice"})
    place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    assert t.model.pending["need"] == "dice"
    with pytest.raises(IllegalEvent, match="no card is due"):
        t.handle(Event("card", {"card": "As"}))
    t.handle(Event("dice", {"dice": [1, 2, 3]}))      # 6: dealer, 6, 5, 4, 3, 2
    assert t.model.start == {"method": "dice", "count": 6, "position": "2", "dice": [1, 2, 3]}
    assert t.model.pending == {"need": "card", "for": "seat 2"}


@pytest.mark.reg("670a.5(i)(1)")
def test_dice_are_three_dice_of_one_to_six():
    t = opened(options={"start_method": "dice"})
    place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    for bad in ([1, 2], [1, 2, 7], [0, 3, 3]):
        with pytest.raises(RulesError, match=r"670a.5\(i\)\(1\)"):
            t.handle(Event("dice", {"dice": bad}))
    assert t.state == "starting_position"


@pytest.mark.parametrize("why, section", [
    pytest.param("not_flat", "670a.13(a)", marks=pytest.mark.reg("670a.13(a)")),
    pytest.param("die_out", "670a.13(b)", marks=pytest.mark.reg("670a.13(b)"))])
def test_no_roll_and_the_dice_are_shaken_again(why, section):
    t = opened(options={"start_method": "dice"})
    place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    t.handle(Event("dice", {"no_roll": why}))
    assert t.state == "starting_position" and t.model.pending["need"] == "dice"
    assert t.model.record[-1][1]["section"] == section
    t.handle(Event("dice", {"dice": [6, 6, 6]}))       # 18: (18 - 1) % 7 = 3 -> seat 4
    assert t.model.pending == {"need": "card", "for": "seat 4"} and t.model.no_rolls == 1


@pytest.mark.reg("670a.3(a)")
def test_one_deck_a_card_cannot_come_out_twice():
    t = opened()
    place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    t.handle(Event("card", {"card": "JK"}))
    with pytest.raises(InvalidCard, match=r"JK has already left this deck.*670a.3\(a\)"):
        t.handle(Event("card", {"card": "JK"}))
    with pytest.raises(InvalidCard, match="not a card"):
        t.handle(Event("card", {"card": "1s"}))


@pytest.mark.reg("670a.8(g)")
def test_stacks_without_a_wager_are_collected_and_never_asked():
    t = opened()
    place(t, {2: {"six_card_fortune": 1000}, 5: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    deal(t, {})
    collected = [d["position"] for what, d in t.model.record if what == "stack_collected"]
    assert collected == ["1", "3", "4", "6"]
    assert t.model.queue == [["5", "double_down"], ["5", "set"], ["2", "double_down"],
                             ["2", "set"]]


# ---- the players (670a.11(a)-(c), (e)) -------------------------------------------------------

@pytest.mark.reg("670a.11(c)")
def test_double_down_is_offered_before_the_seat_sets_and_equals_the_wager():
    t = opened()
    place(t, {1: {"six_card_fortune": 1000}, 4: {"six_card_fortune": 700}})
    t.handle(Event("no_more_bets"))
    deal(t, {})
    assert t.model.pending == {"need": "offer", "seat": "4", "offer": "double_down"}
    with pytest.raises(IllegalEvent, match=r"double_down 1000 is not equal to the Six-Card "
                                           r"Fortune Pai Gow Poker Wager 700 \(670a.7\(e\)\(1\)"):
        act(t, "4", "double_down", amount=1000)
    with pytest.raises(IllegalEvent, match=r"double_down or decline, not 'set' \(670a.11\(c\)\)"):
        act(t, "4", "set", low=t.model.hands["4"][0])
    act(t, "4", "double_down", amount=700)
    assert t.model.pending == {"need": "decision", "seat": "4", "allowed": ["set"]}
    act(t, "4", "set", low=t.model.hands["4"][0])
    act(t, "1", "decline", offer="double_down")
    with pytest.raises(IllegalEvent, match=r"offer came before it sets its hands \(670a.11\(c\)\)"):
        act(t, "1", "double_down", amount=1000)
    assert t.model.wagers["4"]["double_down"] == 700 and "double_down" not in t.model.wagers["1"]


@pytest.mark.reg("670a.7(e)(1)")
def test_no_double_down_offer_where_the_table_does_not_offer_it():
    t = opened(offered={"double_down": False})
    place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    deal(t, {})
    assert t.model.pending == {"need": "decision", "seat": "1", "allowed": ["set"]}
    with pytest.raises(IllegalEvent, match=r"does not offer the Double Down Wager "
                                           r"\(670a.7\(e\)\(1\)\)"):
        act(t, "1", "double_down", amount=1000)


@pytest.mark.reg("670a.11(e)")
def test_seats_are_asked_from_the_dealers_right():
    t = opened()
    place(t, {2: {"six_card_fortune": 1000}, 5: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    deal(t, {})
    with pytest.raises(IllegalEvent, match=r"the procedure asks seat 5"):
        act(t, "2", "decline", offer="double_down")


@pytest.mark.reg("670a.11(b)")
def test_a_setting_uses_the_seats_own_cards():
    t = opened()
    place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    deal(t, {1: ["As", "Ad", "Kc", "Qs", "9h", "3d"], "dealer": KINGS})
    act(t, "1", "decline", offer="double_down")
    with pytest.raises(IllegalEvent, match=r"set low Kh: seat 1 was dealt As Ad Kc Qs 9h 3d"):
        act(t, "1", "set", low="Kh")
    with pytest.raises(IllegalEvent, match=r"set high .* is not the five cards"):
        act(t, "1", "set", low="Kc", high=["As", "Ad", "Qs", "9h", "2d"])
    act(t, "1", "set", low="Kc", high=["As", "Ad", "Qs", "9h", "3d"])
    assert t.model.state == "dealer_setting"


# ---- settlement (670a.11(f)-(h), 670a.12) -----------------------------------------------------

@pytest.mark.reg("670a.11(f)(3)")
def test_both_hands_higher_win_one_to_one_with_the_double_down():
    t = opened()
    res = play(t, {1: {"six_card_fortune": 1000}},
               {1: ["As", "Ad", "Kc", "Qs", "9h", "3d"], "dealer": KINGS}, {"1": "Kc"},
               double_down=("1",))
    # A A Q 9 3 over K K 5 4 2, K over 7; the dealer's kings qualify the Double Down
    assert res == {"1": {"six_card_fortune": ["win", 1000], "double_down": ["win", 1000]}}
    assert t.model.dealer_setting == {"high": ["Kh", "Kd", "5s", "4h", "2c"], "low": "7c"}


@pytest.mark.reg("670a.11(g)(2)")
def test_double_down_returned_when_the_dealer_has_less_than_a_pair_of_eights():
    t = opened()
    res = play(t, {1: {"six_card_fortune": 1000}},
               {1: ["As", "Ad", "Kc", "Qs", "9h", "3d"], "dealer": ACE_HIGH}, {"1": "Kc"},
               double_down=("1",))
    assert res == {"1": {"six_card_fortune": ["win", 1000], "double_down": ["returned", 0]}}


@pytest.mark.reg("670a.11(f)(1)(v)")
def test_a_foul_loses_and_takes_the_double_down_with_it():
    t = opened()
    # the low ace over a high hand of K Q 9 3 with no pair: a foul
    res = play(t, {1: {"six_card_fortune": 1000}},
               {1: ["As", "Ad", "Kc", "Qs", "9h", "3d"], "dealer": KINGS}, {"1": "As"},
               double_down=("1",))
    assert t.model.settings["1"]["foul"] is False       # A K Q 9 3 over A: a valid setting
    t = opened()
    res = play(t, {1: {"six_card_fortune": 1000}},
               {1: ["As", "Jd", "Kc", "Qs", "9h", "3d"], "dealer": KINGS}, {"1": "As"},
               double_down=("1",))
    assert t.model.settings["1"]["foul"] is True
    assert res == {"1": {"six_card_fortune": ["lose", -1000], "double_down": ["lose", -1000]}}


@pytest.mark.reg("670a.11(h)(1)(ii)")
def test_envy_bonuses_for_every_other_players_hand_never_ones_own():
    t = opened()
    res = play(t, {6: {"six_card_fortune": 1000, "fortune_bonus": 500, "progressive": 500},
                   3: {"six_card_fortune": 1000, "fortune_bonus": 500},
                   1: {"six_card_fortune": 1000, "fortune_bonus": 100}},
               {6: ["Qs", "Qh", "Qd", "5c", "5d", "2s"],          # full house
                3: ["9s", "9h", "9d", "9c", "4d", "3s"],          # four nines
                1: ["As", "Ad", "Kc", "Qc", "8h", "3d"],          # a pair
                "dealer": KINGS}, {"6": "2s", "3": "4d", "1": "Kc"})
    assert res == {
        # full house 15 to 1; Progressive 15 for 1; Envy: $75 for seat 3's four of a kind
        # (Fortune Bonus) and $25 for it again (Progressive); nothing for its own full house
        "6": {"six_card_fortune": ["push", 0], "fortune_bonus": ["win", 7500],
              "progressive": ["win", 7000], "envy": ["win", 10000]},
        # four of a kind 50 to 1; Envy $25 for seat 6's full house; no Progressive lammer
        "3": {"six_card_fortune": ["push", 0], "fortune_bonus": ["win", 25000],
              "envy": ["win", 2500]},
        # a $1 Fortune Bonus is no Qualifying Wager: no lammer, no Envy Bonus
        "1": {"six_card_fortune": ["win", 1000], "fortune_bonus": ["lose", -100]}}


@pytest.mark.reg("670a.11(h)(1)(i)(C)")
def test_a_qualifying_hand_without_an_optional_wager_still_earns_others_envy():
    t = opened()
    res = play(t, {5: {"six_card_fortune": 1000},
                   2: {"six_card_fortune": 1000, "fortune_bonus": 500}},
               {5: ["Js", "Jh", "Jd", "Jc", "4d", "3s"], 2: ["As", "Ad", "Kc", "Qc", "9h", "3d"],
                "dealer": ["Ks", "Kd", "Ts", "Tc", "8h", "6c"]},
               {"5": "4d", "2": "Kc"})
    # dealer K K T T 8 6: two pair; the house way keeps them and plays the 8 low
    assert t.model.dealer_setting["low"] == "8h"
    assert res["2"]["envy"] == ["win", 7500] and "envy" not in res["5"]
    assert res["2"]["fortune_bonus"] == ["lose", -500]


@pytest.mark.reg("670a.12(d)(3)")
def test_two_meter_shares_paid_in_turn_from_the_dealers_right():
    t = opened(progressive={"meter": 1000000})
    res = play(t, {3: {"six_card_fortune": 1000, "progressive": 500},
                   6: {"six_card_fortune": 1000, "progressive": 500}},
               {6: ["As", "Ks", "Qs", "Js", "Ts", "2d"], 3: ["JK", "Kh", "Qh", "Jh", "Th", "3c"],
                "dealer": ["Kd", "Kc", "7c", "5s", "4h", "2c"]}, {"6": "2d", "3": "3c"})
    # 1,000,000 + 2 x 100 contributed; seat 6 takes 10% = 100,020, seat 3 10% of the 900,180 left
    assert res["6"]["progressive"] == ["win", 99520]
    assert res["3"]["progressive"] == ["win", 89518]
    assert res["6"]["envy"] == ["win", 25000] and res["3"]["envy"] == ["win", 25000]
    assert t.model.meter["value"] == 810162
    assert t.model.meter_paid == {"6": 100020, "3": 90018}
    paid = [d for what, d in t.model.record if what == "progressive_meter_payout"]
    assert [d["table_inventory"] for d in paid] == [False, False]


@pytest.mark.reg("670a.12(d)(1)")
def test_five_aces_take_the_whole_meter_and_it_resets_for_the_next_round():
    t = opened(progressive={"meter": 600000})
    res = play(t, {4: {"six_card_fortune": 1000, "progressive": 100}},
               {4: ["As", "Ah", "Ad", "Ac", "JK", "2s"], "dealer": KINGS}, {"4": "2s"})
    assert res["4"]["progressive"] == ["win", 599920]
    assert t.model.meter["value"] == 500000 and t.model.meter["hits"] == 1
    t.handle(Event("shuffle"))
    place(t, {4: {"six_card_fortune": 1000, "progressive": 100}})
    t.handle(Event("no_more_bets"))
    assert t.model.meter["value"] == 500020


@pytest.mark.reg("670a.12(c)")
def test_insurance_pays_on_king_high_or_less():
    t = opened()
    res = play(t, {2: {"six_card_fortune": 1000, "insurance": 300},
                   4: {"six_card_fortune": 1000, "insurance": 300}},
               {2: ["Qs", "Jh", "9d", "7d", "4s", "3h"],            # queen-high: 4 to 1
                4: ["8s", "7h", "5d", "4c", "3s", "2h"],            # eight-high: 100 to 1
                "dealer": KINGS}, {"2": "3h", "4": "7h"})
    assert res["2"]["insurance"] == ["win", 1200] and res["4"]["insurance"] == ["win", 30000]
    # Q J 9 7 4 / 3 against K K 5 4 2 / 7: both hands lower
    assert res["2"]["six_card_fortune"] == ["lose", -1000]


# ---- the dealer (670a.11(d), 670a.13(i)) --------------------------------------------------------

@pytest.mark.reg("670a.13(i)")
def test_a_dealer_set_wrongly_is_reset_by_the_house_way_and_the_round_completes():
    t = opened()
    place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    deal(t, {1: ["Qs", "Qc", "As", "9h", "6d", "3s"], "dealer": KINGS})
    act(t, "1", "decline", offer="double_down")
    act(t, "1", "set", low="As")
    assert t.model.pending == {"need": "dealer_setting",
                               "house_way": {"high": ["Kh", "Kd", "5s", "4h", "2c"], "low": "7c"}}
    act(t, "dealer", "set", low="Kh")      # the dealer breaks his pair to play a king low
    assert [d for what, d in t.model.record if what == "dealer_set_wrongly"] == \
        [{"low": "Kh", "reset_low": "7c", "section": "670a.13(i)"}]
    # Q Q 9 6 3 loses to K K 5 4 2 and the ace beats the 7: a push, not the win that the
    # broken pair (K 7 5 4 2 / K) would give
    assert t.model.results == {"1": {"six_card_fortune": ["push", 0]}}
    assert t.state == "settled"


@pytest.mark.reg("670a.11(d)")
def test_the_dealer_sets_only_after_every_player():
    t = opened()
    place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    deal(t, {"dealer": KINGS})
    with pytest.raises(IllegalEvent, match=r"after every player has set \(670a.11\(d\)\)"):
        act(t, "dealer", "set", low="7c")


# ---- configuration and persistence ---------------------------------------------------------------

@pytest.mark.reg("670a.5(i)")
def test_the_options_are_checked():
    with pytest.raises(ConfigError, match="options.start_method = 'coin'"):
        configuration.validate({"options": {"start_method": "coin"}}, SixCardFortune)
    with pytest.raises(ConfigError, match="options.dealing = 'drone'"):
        configuration.validate({"options": {"dealing": "drone"}}, SixCardFortune)
    with pytest.raises(ConfigError, match=r"progressive.reset 400000 is below.*670a.12\(d\)\(2\)"):
        configuration.validate({"progressive": {"reset": 400000, "meter": 400000}},
                               SixCardFortune)


def test_shipped_table_configuration_equals_the_defaults():
    path = os.path.join(ROOT, "deploy", "tables", "six-card-fortune-pai-gow.toml")
    assert configuration.load(path, lambda g: SixCardFortune) == \
        configuration.validate({}, SixCardFortune)


RESUME = """
import json, sys
from controller.games.engine import GameMachine
from controller.games.events import Event
from controller.games.six_card_fortune.model import SixCardFortune
t = GameMachine.restore(SixCardFortune, json.loads(sys.stdin.read()))
out = [t.state, t.model.pending]
t.handle(Event("decision", {"seat": "3", "action": "set", "low": "4d"}))
t.handle(Event("decision", {"seat": "1", "action": "double_down", "amount": 1000}))
t.handle(Event("decision", {"seat": "1", "action": "set", "low": "Kc"}))
t.handle(Event("decision", {"seat": "dealer", "action": "set",
                            "low": t.model.pending["house_way"]["low"]}))
print(json.dumps(out + [t.state, t.model.results, t.model.meter["value"]]))
"""


@pytest.mark.reg("670a.11(h)(3)(ii)")
def test_snapshot_mid_round_restores_in_a_fresh_process_with_the_same_settlement():
    t = opened(rng=lambda: 4)                        # seat 4 first
    place(t, {6: {"six_card_fortune": 1000, "fortune_bonus": 500, "progressive": 500},
              3: {"six_card_fortune": 1000, "progressive": 500},
              1: {"six_card_fortune": 1000, "insurance": 200}})
    t.handle(Event("no_more_bets"))
    deal(t, {6: ["Qs", "Qh", "Qd", "5c", "5d", "2s"], 3: ["9s", "9h", "9d", "9c", "4d", "3s"],
             1: ["As", "Ad", "Kc", "Qc", "8h", "3d"], "dealer": KINGS})
    act(t, "6", "decline", offer="double_down")
    act(t, "6", "set", low="2s")
    act(t, "3", "decline", offer="double_down")
    snap = json.dumps(t.snapshot())
    assert json.loads(snap) == t.snapshot()
    p = subprocess.run([sys.executable, "-c", RESUME], input=snap, capture_output=True,
                       text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    act(t, "3", "set", low="4d")
    act(t, "1", "double_down", amount=1000)
    act(t, "1", "set", low="Kc")
    dealer_sets(t)
    expected = {
        # full house: 15 to 1 and 15 for 1; Progressive Envy $25 for seat 3's four nines
        # and $75 Fortune Bonus Envy for seat 3's four nines (670a.11(h)(1)(i)(C): seat 3 placed
        # no Fortune Bonus but holds the hand)
        "6": {"six_card_fortune": ["push", 0], "fortune_bonus": ["win", 7500],
              "progressive": ["win", 7000], "envy": ["win", 10000]},
        # four of a kind 150 for 1; no Envy for its own hand, and seat 6's full house is not
        # an Envy Bonus Qualifying Hand for the Progressive
        "3": {"six_card_fortune": ["push", 0], "progressive": ["win", 74500]},
        # A A Q 9 3 / K over K K 5 4 2 / 7; a pair of aces is better than king-high
        "1": {"six_card_fortune": ["win", 1000], "double_down": ["win", 1000],
              "insurance": ["lose", -200]}}
    assert t.model.results == expected
    # 500,000 + 2 x 100 contributed; fixed payouts leave the meter alone
    assert json.loads(p.stdout) == ["players", {"need": "decision", "seat": "3",
                                                "allowed": ["set"]},
                                    "settled", expected, 500200]
