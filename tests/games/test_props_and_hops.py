"""Props & Hops (ch. 585) on the game engine, event by event: the procedure of 585.3, the
wagers of 585.2 and the payouts of 585.4, with the shooter kept from round to round."""
import json
import os
import subprocess
import sys

import pytest

from controller import config as configuration
from controller.errors import ConfigError, RulesError
from controller.games import model_class
from controller.games.engine import ROUND_OVER, IllegalEvent
from controller.games.events import Event
from controller.games.props_and_hops import PropsAndHops
from controller.rules import dice
from tests.builders import table_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOUR = 3600 * 10 ** 9


table = table_of(PropsAndHops)


def opened(**cfg):
    t = table(**cfg)
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))          # the dealer shakes the covered shaker (585.3(d))
    return t


def wager(t, seat, name, amount, ts_ns=0):
    t.handle(Event("wager", {"seat": seat, "wager": name, "amount": amount}, ts_ns=ts_ns))


def play(t, wagers, roll, seated=None):
    """One round: the dealer's shake after the round before, if there was one (585.3(i)),
    {seat: {wager: cents}}, "no more bets", the roll; returns the shooter."""
    if t.model.state in ROUND_OVER:
        t.handle(Event("shuffle", {"shake": True}))
    for seat, placed in wagers.items():
        for name, amount in placed.items():
            wager(t, seat, name, amount)
    t.handle(Event("no_more_bets", {} if seated is None else {"seated": seated}))
    shooter = t.model.pending["shooter"]
    t.handle(Event("dice", roll if isinstance(roll, dict) else {"dice": roll}))
    return shooter


# ---- opening the table ------------------------------------------------------------------

def test_registered_under_its_name():
    assert model_class("props-and-hops") is PropsAndHops


@pytest.mark.reg("585.3(d)", "585.3(i)")
def test_the_next_rounds_wagers_wait_for_the_shake_after_a_round():
    t = opened()
    play(t, {1: {"field": 500}}, [2, 2])
    assert t.model.status == "settled"
    with pytest.raises(IllegalEvent, match=r"after each round.*shakes the shaker.*\(d\), \(i\)"):
        wager(t, 1, "field", 500)
    assert t.model.round_no == 1 and t.model.status == "settled"     # nothing changed
    t.handle(Event("shuffle", {"shake": True}))
    wager(t, 1, "field", 500)
    assert t.model.round_no == 2


@pytest.mark.reg("585.3(d)")
def test_wagers_wait_for_the_dealer_to_shake_the_covered_shaker():
    t = table()
    t.handle(Event("open_table"))        # the floorperson places the dice in the shaker
    with pytest.raises(IllegalEvent, match=r"shakes the covered shaker before play.*585.3\(d\)"):
        wager(t, 1, "field", 500)
    t.handle(Event("shuffle"))
    wager(t, 1, "field", 500)
    assert t.state == "wagers_open"


@pytest.mark.reg("585.3(a)")
def test_a_stacked_shoe_is_refused_the_game_has_no_cards():
    t = table()
    t.handle(Event("open_table"))
    with pytest.raises(IllegalEvent, match=r"two dice, not cards \(585.3\(a\)\)"):
        t.handle(Event("shuffle", {"stack": ["As"]}))


# ---- wagers (585.2) ---------------------------------------------------------------------

@pytest.mark.reg("585.2(a)")
def test_wagers_refused_after_no_more_bets():
    t = opened()
    wager(t, 1, "field", 500)
    t.handle(Event("no_more_bets"))
    with pytest.raises(IllegalEvent, match=r"no more bets.*585.2\(a\)"):
        wager(t, 2, "any_seven", 500)
    with pytest.raises(IllegalEvent, match=r"585.2\(a\)"):
        wager(t, 1, "field", 0)              # nor withdrawn
    assert t.model.wagers == {"1": {"field": 500}}


@pytest.mark.reg("585.2")
def test_each_wager_is_bounded_by_the_table_limits():
    t = opened(table_min=500, table_max=10000)
    for name in dice.WAGERS:
        with pytest.raises(IllegalEvent, match="outside the table limits 500..10000"):
            wager(t, 1, name, 10001)
        with pytest.raises(IllegalEvent, match="outside the table limits 500..10000"):
            wager(t, 1, name, 499)
        wager(t, 1, name, 10000)             # each wager alone, not their sum
    assert t.model.wagers["1"] == {name: 10000 for name in dice.WAGERS}


@pytest.mark.reg("585.2")
def test_only_the_wagers_of_585_2():
    t = opened()
    with pytest.raises(IllegalEvent, match=r"'hard_four' is not a Props & Hops wager \(585.2\)"):
        wager(t, 1, "hard_four", 500)
    with pytest.raises(ConfigError, match="limits.field"):
        configuration.validate({"limits": {"field": [100, 200]}}, PropsAndHops)


@pytest.mark.reg("585.1(a)")
def test_six_betting_positions():
    t = opened()
    with pytest.raises(IllegalEvent, match="seats are 1..6"):
        wager(t, 7, "field", 500)


# ---- payouts (585.2, 585.4) -------------------------------------------------------------

@pytest.mark.reg("585.4")
@pytest.mark.parametrize("roll, expected", [
    ([1, 1], {"two_hardway": ["win", 30000], "four_hardway": ["lose", -1000],
              "field": ["win", 2000], "any_craps": ["win", 7000], "any_seven": ["lose", -1000],
              "any_doubles": ["win", 4000], "one_two": ["lose", -1000]}),
    ([6, 6], {"twelve_hardway": ["win", 30000], "field": ["win", 2000],
              "any_craps": ["win", 7000], "any_doubles": ["win", 4000]}),
    ([4, 4], {"eight_hardway": ["win", 30000], "two_six": ["lose", -1000],
              "three_five": ["lose", -1000], "field": ["lose", -1000],
              "any_doubles": ["win", 4000]}),
    ([2, 1], {"one_two": ["win", 15000], "field": ["win", 1000], "any_craps": ["win", 7000]}),
    ([5, 4], {"four_five": ["win", 15000], "three_six": ["lose", -1000],
              "field": ["win", 1000]}),
    ([6, 1], {"one_six": ["win", 15000], "two_five": ["lose", -1000],
              "any_seven": ["win", 4000], "field": ["lose", -1000],
              "any_doubles": ["lose", -1000]}),
    ([2, 2], {"four_hardway": ["win", 30000], "one_three": ["lose", -1000],
              "field": ["win", 1000]}),
    ([6, 5], {"five_six": ["win", 15000], "field": ["win", 1000], "any_craps": ["lose", -1000]}),
])
def test_payout_odds(roll, expected):
    t = opened()
    play(t, {1: {w: 1000 for w in expected}}, roll)
    assert t.state == "settled" and t.model.status == "settled"
    assert t.model.results == {"1": expected}


@pytest.mark.reg("585.4")
def test_fractions_of_a_cent_never_arise_and_odd_amounts_pay_exactly():
    t = opened()
    play(t, {2: {"field": 333, "ten_hardway": 101}, 5: {"four_six": 777}}, [5, 5])
    assert t.model.results == {"2": {"field": ["win", 333], "ten_hardway": ["win", 3030]},
                               "5": {"four_six": ["lose", -777]}}


@pytest.mark.reg("585.3(h)")
def test_losing_wagers_are_collected_before_winners_are_paid():
    t = opened()
    play(t, {1: {"any_seven": 500, "field": 200}, 2: {"one_six": 100, "any_craps": 300}},
         [1, 6])
    steps = [(what, d["seat"], d["wager"], d["amount"]) for what, d in t.model.record
             if what in ("collect", "pay")]
    assert steps == [("collect", "1", "field", 200), ("collect", "2", "any_craps", 300),
                     ("pay", "1", "any_seven", 2000), ("pay", "2", "one_six", 1500)]


# ---- no roll (585.3(f), (g)) ------------------------------------------------------------

@pytest.mark.reg("585.3(f)")
def test_a_die_out_of_the_shaker_is_no_roll_and_every_wager_is_returned():
    t = opened()
    play(t, {1: {"field": 500}, 4: {"any_seven": 1000, "six_hardway": 100}},
         {"no_roll": "die_out"})
    assert t.state == "voided" and t.model.status == "void"
    assert t.model.results == {"1": {"field": ["returned", 0]},
                               "4": {"any_seven": ["returned", 0], "six_hardway": ["returned", 0]}}
    assert "585.3(f)" in t.model.void_reason


@pytest.mark.reg("585.3(g)")
@pytest.mark.parametrize("why", ["die_on_die", "not_flat"])
def test_dice_stacked_or_not_flat_is_no_roll_and_every_wager_is_returned(why):
    t = opened()
    play(t, {3: {"any_craps": 700}}, {"no_roll": why})
    assert t.model.results == {"3": {"any_craps": ["returned", 0]}}
    assert t.model.status == "void" and "585.3(g)" in t.model.void_reason


@pytest.mark.reg("585.3(g)")
def test_a_roll_is_two_dice_of_one_to_six():
    t = opened()
    wager(t, 1, "field", 500)
    t.handle(Event("no_more_bets"))
    for bad in ([7, 1], [0, 3], [1], [1, 2, 3], [True, 2], "11"):
        with pytest.raises(RulesError, match=r"585.3\(a\)"):
            t.handle(Event("dice", {"dice": bad}))
    with pytest.raises(IllegalEvent, match="one of die_out"):
        t.handle(Event("dice", {"no_roll": "wobbly"}))
    with pytest.raises(IllegalEvent, match="not both"):
        t.handle(Event("dice", {"dice": [1, 2], "no_roll": "not_flat"}))
    assert t.state == "rolling"              # nothing above moved the round on
    t.handle(Event("dice", {"dice": [1, 2]}))
    with pytest.raises(IllegalEvent, match="no roll is due"):
        t.handle(Event("dice", {"dice": [1, 2]}))


@pytest.mark.reg("585.3(e)")
def test_lid_removed_by_the_shooter_is_shaken_again_and_the_round_goes_on():
    t = opened()
    wager(t, 1, "field", 500)
    t.handle(Event("no_more_bets"))
    t.handle(Event("irregularity", {"kind": "lid_removed"}))
    assert t.state == "rolling" and t.model.pending == {"need": "dice", "shooter": "1"}
    t.handle(Event("dice", {"dice": [6, 6]}))
    assert t.model.results == {"1": {"field": ["win", 1000]}}


# ---- the shooter (585.3(e), (j)) --------------------------------------------------------

@pytest.mark.reg("585.3(e)")
def test_first_shooter_is_the_player_farthest_to_the_dealers_left():
    t = opened()
    assert play(t, {5: {"field": 500}, 3: {"field": 500}, 6: {"field": 500}}, [2, 2]) == "3"


@pytest.mark.reg("585.3(j)")
def test_the_shaker_stays_until_a_seven_then_passes_to_the_left_across_rounds():
    t = opened()
    seats = {1: {"field": 500}, 3: {"any_seven": 500}, 5: {"one_six": 100}}
    shooters = []
    for roll in ([2, 2], [5, 5], {"no_roll": "not_flat"}, [3, 4],   # seat 1 until its 7
                 [1, 1], [6, 1],                                   # seat 3 until its 7
                 [2, 5],                                           # seat 5 throws a 7 at once
                 [3, 3]):                                          # round to seat 1 again
        shooters.append(play(t, seats, roll))
    assert shooters == ["1", "1", "1", "1", "3", "3", "5", "1"]
    assert t.model.round_no == 8
    # the round after the 7 still settles normally
    assert t.model.results["1"] == {"field": ["lose", -500]}


@pytest.mark.reg("585.3(j)")
def test_a_no_roll_is_not_a_seven():
    t = opened()
    assert play(t, {2: {"any_seven": 500}, 4: {"field": 500}}, {"no_roll": "die_out"}) == "2"
    assert play(t, {2: {"any_seven": 500}, 4: {"field": 500}}, [1, 2]) == "2"


@pytest.mark.reg("585.3(j)")
def test_a_shooter_who_leaves_passes_the_shaker_to_the_left():
    t = opened()
    assert play(t, {2: {"field": 500}, 4: {"field": 500}}, [2, 2]) == "2"
    assert play(t, {4: {"field": 500}, 6: {"field": 500}}, [2, 2]) == "4"
    # seated without a wager this round, the shooter keeps the shaker (585.2(c))
    assert play(t, {6: {"field": 500}}, [2, 2], seated=[4, 6]) == "4"
    # after a 7 with seat 6 not wagering but seated, the shaker goes to seat 6
    play(t, {4: {"field": 500}}, [4, 3], seated=[4, 6])
    assert play(t, {4: {"field": 500}}, [4, 3], seated=[6, 4]) == "6"
    # wrapping from seat 6 to the lowest seat
    assert play(t, {1: {"field": 500}, 4: {"field": 500}}, [1, 1]) == "1"


@pytest.mark.reg("585.3(e)")
def test_no_more_bets_with_nothing_on_the_layout_is_refused():
    t = opened()
    wager(t, 1, "field", 500)
    wager(t, 1, "field", 0)                  # withdrawn before "no more bets"
    with pytest.raises(IllegalEvent, match="no wager on the layout"):
        t.handle(Event("no_more_bets"))


# ---- dice on the table (585.3(b)(1)) ----------------------------------------------------

@pytest.mark.reg("585.3(b)(1)")
def test_dice_on_the_table_more_than_24_hours_are_removed_before_another_round():
    t = table()
    t.handle(Event("open_table", ts_ns=1000))
    t.handle(Event("shuffle", ts_ns=1000 + HOUR))
    wager(t, 1, "field", 500, ts_ns=1000 + 23 * HOUR)
    t.handle(Event("no_more_bets", ts_ns=1000 + 24 * HOUR))        # exactly 24 hours: allowed
    t.handle(Event("dice", {"dice": [3, 3]}, ts_ns=1000 + 25 * HOUR))   # a rolling round ends
    assert t.model.results == {"1": {"field": ["lose", -500]}}
    with pytest.raises(IllegalEvent, match=r"more than 24 hours.*585.3\(b\)\(1\)"):
        wager(t, 1, "field", 500, ts_ns=1000 + 25 * HOUR)
    assert t.state == "deck_removed"
    t.handle(Event("new_deck", ts_ns=1000 + 26 * HOUR))             # new dice in the shaker
    t.handle(Event("shuffle", ts_ns=1000 + 26 * HOUR))
    wager(t, 1, "field", 500, ts_ns=1000 + 49 * HOUR)
    assert t.state == "wagers_open"


@pytest.mark.reg("585.3(b)(1)")
def test_wagers_on_the_layout_when_the_dice_expire_are_returned():
    t = opened(options={"dice_max_hours": 8})
    wager(t, 2, "any_seven", 500, ts_ns=7 * HOUR)
    with pytest.raises(IllegalEvent, match="more than 8 hours"):
        t.handle(Event("no_more_bets", ts_ns=8 * HOUR + 1))
    assert t.state == "deck_removed" and t.model.status == "void"
    assert t.model.results == {"2": {"any_seven": ["returned", 0]}}


@pytest.mark.reg("585.3(b)(1)")
def test_the_dice_hours_option_cannot_exceed_24():
    with pytest.raises(ConfigError, match=r"options.dice_max_hours = 25.*585.3\(b\)\(1\)"):
        configuration.validate({"options": {"dice_max_hours": 25}}, PropsAndHops)
    with pytest.raises(ConfigError, match="options.dice_max_hours must be int"):
        configuration.validate({"options": {"dice_max_hours": "24"}}, PropsAndHops)


# ---- persistence and configuration ------------------------------------------------------

@pytest.mark.reg("585.3(j)")
def test_snapshot_mid_round_restores_in_a_fresh_process_with_the_same_settlement():
    t = opened()
    play(t, {1: {"field": 500}, 3: {"any_seven": 500}}, [3, 4])         # seat 1 throws a 7
    t.handle(Event("shuffle", {"shake": True}))                          # 585.3(i)
    for seat, name, amount in ((1, "field", 500), (3, "three_four", 200),
                               (3, "any_seven", 300), (6, "twelve_hardway", 100)):
        wager(t, seat, name, amount)
    t.handle(Event("no_more_bets"))
    snap = json.dumps(t.snapshot())
    assert json.loads(snap) == t.snapshot()                  # JSON-native: nothing lost
    code = (
        "import json, sys\n"
        "from controller.games.engine import GameMachine\n"
        "from controller.games.events import Event\n"
        "from controller.games.props_and_hops import PropsAndHops\n"
        "t = GameMachine.restore(PropsAndHops, json.loads(sys.stdin.read()))\n"
        "out = [t.state, t.model.pending]\n"
        "t.handle(Event('dice', {'dice': [4, 3]}))\n"
        "out += [t.state, t.model.results]\n"
        "t.handle(Event('shuffle', {'shake': True}))\n"
        "t.handle(Event('wager', {'seat': 6, 'wager': 'field', 'amount': 100}))\n"
        "t.handle(Event('no_more_bets'))\n"
        "print(json.dumps(out + [t.model.pending]))\n")
    p = subprocess.run([sys.executable, "-c", code], input=snap, capture_output=True,
                       text=True, check=True, cwd=ROOT)
    t.handle(Event("dice", {"dice": [4, 3]}))
    expected = {"1": {"field": ["lose", -500]},
                "3": {"three_four": ["win", 3000], "any_seven": ["win", 1200]},
                "6": {"twelve_hardway": ["lose", -100]}}
    assert t.model.results == expected
    # the same settlement there, and seat 3's 7 passes the shaker on to seat 6
    assert json.loads(p.stdout) == ["rolling", {"need": "dice", "shooter": "3"},
                                    "settled", expected, {"need": "dice", "shooter": "6"}]


def test_shipped_table_configuration_equals_the_defaults():
    path = os.path.join(ROOT, "deploy", "tables", "props-and-hops.toml")
    assert configuration.load(path, lambda g: PropsAndHops) == \
        configuration.validate({}, PropsAndHops)
