"""Poker room tables (637a) event by event: at least two players, the deal and betting by
pokerkit, burns kept apart and counted, the deck counted every 5 rounds and removed on a wrong
count, the pot award in the order of 637a(e)(6), and a hand restored in a fresh process."""
import json
import os
import subprocess
import sys

import pytest

from controller import config as configuration
from controller.errors import ConfigError
from controller.games import model_class
from controller.games.engine import IllegalEvent
from controller.games.events import Event
from controller.games.poker_room import PokerRoom
from controller.games.poker_pot_award import house_take
from tests.builders import table_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Seats 1, 2, 3; button 3: seat 1 small blind 100, seat 2 big blind 200, seat 3 first to act.
HOLE = ["As", "Kd", "2c", "Ah", "Kh", "7d"]
BOARD = ["3s", "Ac", "Kc", "9h", "4s", "2d", "5s", "Qd"]       # burn, flop, burn, turn, burn, river


table = table_of(PokerRoom, "options")


def opened(**options):
    t = table(**options)
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    return t


def start(t, stacks=None, **nmb):
    for seat, amount in (stacks or {1: 10000, 2: 10000, 3: 10000}).items():
        t.handle(Event("wager", {"seat": seat, "wager": "stack", "amount": amount}))
    t.handle(Event("no_more_bets", nmb))


def cards(t, codes):
    for c in codes:
        t.handle(Event("card", {"card": c}))


def act(t, seat, action, amount=None):
    data = {"seat": seat, "action": action}
    if amount is not None:
        data["amount"] = amount
    t.handle(Event("decision", data))


def count_losers(t, counts=None):
    p = t.model.pending
    t.handle(Event("irregularity", {"kind": "losing_hands_count",
                                    "counts": counts or p["expected"]}))


def fold_round(t):
    """A hand folded to the big blind: seat 2 wins the blinds, no flop (button at seat 3)."""
    start(t, button=3)
    cards(t, HOLE)
    act(t, 3, "fold")
    act(t, 1, "fold")
    count_losers(t)


def showdown_hand(t):
    """Seat 1's aces beat seat 2's kings; seat 3 folds preflop (the scenario
    holdem-showdown-aces-beat-kings, event by event)."""
    start(t)
    cards(t, HOLE)
    act(t, 3, "call")
    act(t, 1, "raise", 600)
    act(t, 2, "call")
    act(t, 3, "fold")
    cards(t, BOARD[:4])
    act(t, 1, "bet", 1000)
    act(t, 2, "call")
    cards(t, BOARD[4:6])
    act(t, 1, "check")
    act(t, 2, "check")
    cards(t, BOARD[6:])
    act(t, 1, "check")
    act(t, 2, "check")


def test_registered_under_its_name():
    assert model_class("poker") is PokerRoom


def test_shipped_table_configuration_equals_the_defaults():
    path = os.path.join(ROOT, "deploy", "tables", "poker.toml")
    assert configuration.load(path, lambda g: PokerRoom) == configuration.validate({}, PokerRoom)


# ---- players, stacks, blinds (637a(b), (c)) -------------------------------------------------

@pytest.mark.reg("637a(b)")
def test_one_player_is_refused():
    t = opened()
    t.handle(Event("wager", {"seat": 4, "wager": "stack", "amount": 5000}))
    with pytest.raises(IllegalEvent, match=r"no less than two players; 1 seated.*637a\(b\)"):
        t.handle(Event("no_more_bets"))


@pytest.mark.reg("637a(c)")
def test_blinds_are_posted_before_any_card_and_bets_go_in_the_betting_rounds():
    t = opened()
    with pytest.raises(IllegalEvent, match=r"'bet'.*declares its 'stack'.*637a\(c\)"):
        t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 500}))
    start(t)
    assert t.model.record[-1][0] == "hand"
    assert t.model.record[-1][1]["posted"] == {"1": 100, "2": 200}
    assert t.model.pending == {"need": "card", "for": "seat 1"}
    with pytest.raises(IllegalEvent, match=r"hand is being played.*637a\(c\)"):
        t.handle(Event("wager", {"seat": 4, "wager": "stack", "amount": 5000}))
    with pytest.raises(IllegalEvent, match="no player is asked to act"):
        act(t, 3, "call")


@pytest.mark.reg("637a(c)")
def test_antes_come_from_every_player():
    t = opened(ante=100)
    start(t)
    assert t.model.record[-1][1]["posted"] == {"1": 200, "2": 300, "3": 100}


@pytest.mark.reg("637a(e)(2)")
def test_a_player_acts_only_when_the_dealer_asks():
    t = opened()
    start(t)
    cards(t, HOLE)
    assert t.model.pending == {"need": "decision", "seat": "3", "to_call": 200,
                               "allowed": ["fold", "call", "raise"], "min": 400, "max": 10000}
    with pytest.raises(IllegalEvent, match=r"seat 1 acts \(call\) out of turn.*637a\(e\)\(2\)"):
        act(t, 1, "call")


@pytest.mark.reg("637a(c)")
def test_a_raise_below_the_minimum_is_refused_and_the_hand_goes_on():
    t = opened()
    start(t)
    cards(t, HOLE)
    with pytest.raises(IllegalEvent, match=r"seat 3 raise 300: .*400.*637a\(c\)"):
        act(t, 3, "raise", 300)
    act(t, 3, "raise", 400)
    assert t.model.pending["seat"] == "1"


@pytest.mark.reg("637a(c)")
def test_the_button_moves_clockwise_to_the_next_player():
    t = opened()
    fold_round(t)
    assert t.model.button == "3"
    t.handle(Event("shuffle"))
    start(t)
    assert t.model.button == "1"
    assert t.model.setup["players"] == ["2", "3", "1"]


# ---- burn cards (637a(e)(3)) ----------------------------------------------------------------

@pytest.mark.reg("637a(e)(3)")
def test_burn_cards_are_kept_apart_from_the_discards_and_counted():
    t = opened()
    showdown_hand(t)
    count_losers(t)
    m = t.model
    assert m.burns == ["3s", "4s", "5s"]
    assert m.discards == ["2c", "7d", "Kd", "Kh"]      # seat 3's fold, then seat 2's loser
    assert not set(m.burns) & set(m.discards)
    assert ["burns_counted", {"count": 3, "discards": 4, "section": "637a(e)(3)"}] in m.record


@pytest.mark.reg("637a(e)(4)")
def test_a_card_is_dealt_twice_only_from_a_deck_said_to_hold_it_twice():
    """The 52-card deck holds each card once; a stacked deck that holds one more (a
    scenario's deck.extra, ../shared/scenario-format.md) may deal it twice, and only it."""
    from controller.errors import InvalidCard
    t = table()
    t.handle(Event("open_table"))
    with pytest.raises(InvalidCard, match="a second As; the 52-card deck holds each card once"):
        t.handle(Event("shuffle", {"stack": ["As", "Kd", "As"]}))
    t.handle(Event("shuffle", {"stack": ["As", "Kd", "As"], "deck": {"extra": ["As"]}}))
    start(t, button=3)
    cards(t, ["As", "Kd", "2c", "As"])
    with pytest.raises(InvalidCard, match="a second Kd"):
        t.handle(Event("card", {"card": "Kd"}))
    with pytest.raises(InvalidCard, match="a second As"):
        t.handle(Event("card", {"card": "As"}))        # the deck holds two, both are out
    assert t.model.hands["1"] == ["As", "As"]


def test_the_rest_of_a_scenarios_deck_is_the_52_cards_after_the_listed_ones():
    from controller.lab import scenario
    r = scenario.Runner({"game": "poker", "seats": {"1": {"stack": 1000}, "2": {"stack": 1000}},
                         "cards": ["Ah", "2s"], "deck": {"missing": ["3c"]}})
    assert r.cards[:4] == ["Ah", "2s", "2h", "2d"]
    assert len(r.cards) == 51 and "3c" not in r.cards and len(set(r.cards)) == 51


# ---- the deck count (637a(e)(4), (5)) -------------------------------------------------------

@pytest.mark.reg("637a(e)(4)(i)")
def test_the_deck_is_counted_at_least_once_every_five_rounds():
    t = opened()
    for _ in range(5):
        fold_round(t)
        t.handle(Event("shuffle"))
    with pytest.raises(IllegalEvent, match=r"not been counted in 5 rounds.*637a\(e\)\(4\)\(i\)"):
        t.handle(Event("wager", {"seat": 1, "wager": "stack", "amount": 5000}))
    t.handle(Event("irregularity", {"kind": "deck_count", "count": 52}))
    fold_round(t)
    assert t.model.deck_rounds == 1


@pytest.mark.reg("637a(e)(4)(i)")
def test_the_stub_may_be_counted_in_holdem_and_restarts_the_clock():
    t = opened(deck_count_every=1)
    start(t)
    cards(t, HOLE)
    t.handle(Event("irregularity", {"kind": "stub_count", "stub": 46}))   # 46 + 6 dealt
    act(t, 3, "fold")
    act(t, 1, "fold")
    count_losers(t)
    assert t.model.deck_rounds == 0
    t.handle(Event("shuffle"))
    fold_round(t)                 # the next hand may start; after it a count is due
    t.handle(Event("shuffle"))
    with pytest.raises(IllegalEvent, match=r"637a\(e\)\(4\)\(i\)"):
        start(t)


@pytest.mark.reg("637a(e)(4)(i)")
def test_stud_counts_the_entire_deck_not_the_stub():
    t = opened(variant="seven_card_stud", betting="limit")
    start(t)
    with pytest.raises(IllegalEvent, match=r"Hold'em and Omaha only.*637a\(e\)\(4\)\(i\)"):
        t.handle(Event("irregularity", {"kind": "stub_count", "stub": 52}))


@pytest.mark.reg("637a(e)(5)")
def test_a_wrong_deck_count_removes_the_deck_until_a_new_one():
    t = opened()
    fold_round(t)
    t.handle(Event("irregularity", {"kind": "deck_count", "count": 51}))
    assert t.state == "deck_removed"
    with pytest.raises(IllegalEvent, match=r"new deck.*51 cards.*637a\(e\)\(5\)"):
        t.handle(Event("wager", {"seat": 1, "wager": "stack", "amount": 5000}))
    t.handle(Event("new_deck"))
    t.handle(Event("shuffle"))
    fold_round(t)
    assert t.model.status == "settled"


@pytest.mark.reg("637a(e)(5)")
def test_a_wrong_stub_count_voids_the_hand_and_removes_the_deck():
    t = opened()
    start(t)
    cards(t, HOLE)
    t.handle(Event("irregularity", {"kind": "stub_count", "stub": 45}))
    assert t.state == "deck_removed"
    assert t.model.status == "void"
    assert t.model.results == {s: {"stack": ["returned", 0]} for s in ("1", "2", "3")}


@pytest.mark.reg("637a(e)(4)(ii)")
def test_a_counting_shufflers_count():
    t = table(shuffler="counting")
    t.handle(Event("open_table"))
    t.handle(Event("shuffle", {"count": 52}))
    fold_round(t)
    t.handle(Event("shuffle", {"count": 52}))
    assert t.model.deck_rounds == 0
    fold_round(t)
    t.handle(Event("shuffle", {"count": 51}))
    assert t.state == "deck_removed"
    manual = table()
    manual.handle(Event("open_table"))
    with pytest.raises(IllegalEvent, match=r"counting shuffler.*637a\(e\)\(4\)\(ii\)"):
        manual.handle(Event("shuffle", {"count": 52}))


# ---- the pot award (637a(d), (e)(6)) ----------------------------------------------------------

@pytest.mark.reg("637a(e)(6)")
def test_the_pot_award_follows_the_order_of_637a_e_6():
    """Three-way all-in: losing hands collected and counted, the side pot, the rake, the
    jackpot drop, then the main pot pushed."""
    t = opened(jackpot_drop=100, jackpot_minimum_pot=2000)
    start(t, {1: 1000, 2: 3000, 3: 6000})
    cards(t, ["As", "Kd", "Qs", "Ah", "Kh", "Qh"])
    act(t, 3, "raise", 6000)
    act(t, 1, "call")
    act(t, 2, "call")
    cards(t, ["3s", "2c", "7c", "9h", "4s", "2d", "5s", "Jd"])
    assert t.state == "pot_award"
    assert t.model.pending == {"need": "losing_hands_count", "expected": {"3": 2},
                               "section": "637a(e)(6)(i)"}
    count_losers(t)
    steps = [what for what, _ in t.model.record]
    order = ["losing_hands_collected", "losing_hands_counted", "side_pot_awarded",
             "rake_collected", "jackpot_drop_collected", "pot_pushed", "winning_hand_collected"]
    assert [s for s in steps if s in order] == order
    assert t.model.results == {"1": {"bets": ["lose", -1000], "main_pot": ["win", 2400]},
                               "2": {"bets": ["lose", -3000], "side_pot_1": ["win", 4000]},
                               "3": {"bets": ["lose", -3000]}}


@pytest.mark.reg("637a(e)(6)(i)")
def test_a_losing_hand_short_of_cards_removes_the_deck_after_the_award():
    t = opened()
    showdown_hand(t)
    count_losers(t, {"2": 2, "3": 1})
    assert t.model.results["1"] == {"bets": ["lose", -1600], "main_pot": ["win", 3100]}
    assert t.state == "deck_removed"
    assert "seat 3 1 of 2" in t.model.deck_reason


@pytest.mark.reg("637a(d)")
def test_the_last_player_takes_the_pot_without_a_showdown():
    t = opened()
    fold_round(t)
    assert t.model.results == {"1": {"bets": ["lose", -100]},
                               "2": {"bets": ["push", 0], "main_pot": ["win", 100]},
                               "3": {"bets": ["push", 0]}}
    assert t.model.showdown == {}


@pytest.mark.reg("637a(e)(6)(iii)")
def test_the_house_take_is_configuration():
    o = dict(PokerRoom.DEFAULTS["options"], jackpot_drop=100, jackpot_minimum_pot=2000)
    assert house_take(o, 3400, 3400, 4) == (300, 100)        # 10% of 3400 in whole $1 chips
    assert house_take(o, 9000, 3000, 4) == (500, 100)        # the cap
    assert house_take(o, 1900, 1900, 4) == (100, 0)          # below the jackpot's minimum pot
    assert house_take(o, 3400, 3400, 1) == (0, 0)            # no flop, no drop
    assert house_take(dict(o, rake_minimum_pot=5000), 3400, 3400, 4) == (0, 100)
    assert house_take(dict(o, rake_cap=10000), 9000, 600, 4) == (600, 0)   # at most the main pot


def test_stakes_that_do_not_fit_are_refused():
    with pytest.raises(ConfigError, match="small_blind = 50 is not whole chips"):
        PokerRoom(configuration.validate({"options": {"small_blind": 50}}, PokerRoom))
    with pytest.raises(ConfigError, match="bring-in"):
        PokerRoom(configuration.validate({"options": {"variant": "seven_card_stud",
                                                      "bring_in": 200}}, PokerRoom))
    with pytest.raises(ConfigError, match=r"deck_count_every.*637a\(e\)\(4\)\(i\)"):
        configuration.validate({"options": {"deck_count_every": 6}}, PokerRoom)


# ---- faults and restore ---------------------------------------------------------------------

def test_a_device_fault_locks_the_table_mid_hand_and_a_clear_resumes_it():
    t = opened()
    start(t)
    cards(t, HOLE[:2])
    t.handle(Event("fault", {"device": "shuffler", "reason": "jam"}))
    with pytest.raises(IllegalEvent, match="locked out"):
        cards(t, HOLE[2:3])
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    cards(t, HOLE[2:])
    assert t.model.pending["seat"] == "3"


def test_a_snapshot_mid_hand_finishes_the_same_in_a_fresh_process():
    t = opened()
    start(t)
    cards(t, HOLE)
    act(t, 3, "call")
    act(t, 1, "raise", 600)
    snap = json.dumps(t.snapshot())
    rest = [["decision", {"seat": 2, "action": "call"}],
            ["decision", {"seat": 3, "action": "fold"}]]
    rest += [["card", {"card": c}] for c in BOARD[:4]]
    rest += [["decision", {"seat": 1, "action": "bet", "amount": 1000}],
             ["decision", {"seat": 2, "action": "call"}]]
    rest += [["card", {"card": c}] for c in BOARD[4:6]]
    rest += [["decision", {"seat": 1, "action": "check"}],
             ["decision", {"seat": 2, "action": "check"}]]
    rest += [["card", {"card": c}] for c in BOARD[6:]]
    rest += [["decision", {"seat": 1, "action": "check"}],
             ["decision", {"seat": 2, "action": "check"}]]
    rest += [["irregularity", {"kind": "losing_hands_count", "counts": {"2": 2, "3": 2}}]]
    code = ("import json, sys\n"
            "from controller.games.engine import GameMachine\n"
            "from controller.games.events import Event\n"
            "from controller.games.poker_room import PokerRoom\n"
            "doc = json.loads(sys.stdin.read())\n"
            "t = GameMachine.restore(PokerRoom, doc['snap'])\n"
            "for kind, data in doc['rest']:\n"
            "    t.handle(Event(kind, data))\n"
            "print(json.dumps([t.state, t.model.results, t.model.rake, t.model.pots]))\n")
    doc = json.dumps({"snap": json.loads(snap), "rest": rest})
    p = subprocess.run([sys.executable, "-c", code], input=doc,
                       capture_output=True, text=True, check=True, cwd=ROOT)
    for kind, data in rest:
        t.handle(Event(kind, data))
    expected = {"1": {"bets": ["lose", -1600], "main_pot": ["win", 3100]},
                "2": {"bets": ["lose", -1600]}, "3": {"bets": ["lose", -200]}}
    assert t.model.results == expected
    assert json.loads(p.stdout) == ["settled", expected, 300,
                                    [{"pot": "main_pot", "amount": 3400, "to": {"1": 3100}}]]
