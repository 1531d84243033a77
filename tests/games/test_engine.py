"""The common lifecycle every game machine shares (engine.py), on a one-card toy game."""
import json
import subprocess
import sys

import pytest

from controller import config as configuration
from controller.errors import ConfigError
from controller.games import ALL_GAMES
from controller.games.engine import IllegalEvent, mermaid
from controller.games.events import Event
from tests.games.toy import Toy
from tests import builders


def table():
    return builders.table(Toy, {"table_min": 500, "table_max": 5000})


def play_to_cards(t):
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 1000}))
    t.handle(Event("no_more_bets"))


def test_round_through_the_lifecycle():
    t = table()
    assert t.state == "closed"
    play_to_cards(t)
    assert t.state == "dealing"
    t.handle(Event("card", {"card": "5s"}))
    t.handle(Event("card", {"card": "9h"}))
    assert t.state == "settled"
    assert t.model.results == {"1": {"bet": ["win", 1000]}}
    # the next round starts with the next wager
    t.handle(Event("wager", {"seat": 2, "wager": "bet", "amount": 500}))
    assert t.state == "wagers_open" and t.model.round_no == 2 and t.model.results == {}


def test_no_back_door_transitions():
    t = table()
    assert not hasattr(t.model, "to_settled")
    with pytest.raises(IllegalEvent, match="closed"):
        t.handle(Event("no_more_bets"))


def test_wagers_refused_outside_limits_and_when_closed():
    t = table()
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    with pytest.raises(IllegalEvent, match="table limits 500..5000"):
        t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 400}))
    with pytest.raises(IllegalEvent, match="seat"):
        t.handle(Event("wager", {"seat": 7, "wager": "bet", "amount": 500}))
    with pytest.raises(IllegalEvent, match="cents"):
        t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 5.5}))
    t.handle(Event("wager", {"seat": 1, "wager": "side", "amount": 100}))
    with pytest.raises(IllegalEvent, match="bet"):
        t.handle(Event("no_more_bets"))
    t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 500}))
    t.handle(Event("no_more_bets"))
    with pytest.raises(IllegalEvent, match="not open"):
        t.handle(Event("wager", {"seat": 2, "wager": "bet", "amount": 500}))


def test_lock_out_holds_until_an_authorized_clear_with_a_passing_self_test():
    t = table()
    play_to_cards(t)
    t.handle(Event("fault", {"device": "card_reader", "reason": "no answer",
                             "section": "581.13(i)"}))
    assert t.state == "locked_out"
    t.handle(Event("fault", {"device": "shoe", "reason": "again"}))      # idempotent
    assert t.model.lockout["device"] == "card_reader"
    with pytest.raises(IllegalEvent, match="not open|not allowed|locked_out|no card"):
        t.handle(Event("card", {"card": "5s"}))
    with pytest.raises(IllegalEvent, match="floorperson"):
        t.handle(Event("clear", {"role": "dealer", "selftest": True}))
    with pytest.raises(IllegalEvent, match="self-test"):
        t.handle(Event("clear", {"role": "floorperson", "selftest": False}))
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    assert t.state == "dealing"


def test_void_returns_every_wager():
    t = table()
    play_to_cards(t)
    t.model.void_round("test")
    assert t.state == "voided"
    assert t.model.results == {"1": {"bet": ["returned", 0]}} and t.model.status == "void"


def test_deck_removed_until_a_new_deck_is_opened():
    t = table()
    play_to_cards(t)
    t.model.remove_the_deck("stub count wrong")
    assert t.state == "deck_removed"
    with pytest.raises(IllegalEvent):
        t.handle(Event("shuffle"))
    t.handle(Event("new_deck"))
    assert t.state == "opened"


def test_snapshot_restores_exactly_in_a_fresh_process(tmp_path):
    t = table()
    play_to_cards(t)
    t.handle(Event("card", {"card": "5s"}))
    snap = json.dumps(t.snapshot())
    code = (
        "import json,sys\n"
        "from controller.games.engine import GameMachine\n"
        "from controller.games.events import Event\n"
        "from tests.games.toy import Toy\n"
        "t = GameMachine.restore(Toy, json.loads(sys.stdin.read()))\n"
        "t.handle(Event('card', {'card': '9h'}))\n"
        "print(json.dumps([t.state, t.model.results]))\n")
    p = subprocess.run([sys.executable, "-c", code], input=snap, capture_output=True, text=True,
                       check=True)
    assert json.loads(p.stdout) == ["settled", {"1": {"bet": ["win", 1000]}}]


def test_config_is_strict_and_names_the_key():
    with pytest.raises(ConfigError, match="'colour'"):
        configuration.validate({"colour": "red"}, Toy)
    with pytest.raises(ConfigError, match="table_min 600 is above table_max 500"):
        configuration.validate({"table_min": 600, "table_max": 500}, Toy)
    with pytest.raises(ConfigError, match="options.flavour"):
        configuration.validate({"options": {"flavour": "sweet"}}, Toy)
    with pytest.raises(ConfigError, match="options.spice"):
        configuration.validate({"options": {"spice": 1}}, Toy)
    with pytest.raises(ConfigError, match="offered.bet"):
        configuration.validate({"offered": {"bet": True}}, Toy)
    with pytest.raises(ConfigError, match="limits.side"):
        configuration.validate({"limits": {"side": [500, 100]}}, Toy)
    with pytest.raises(ConfigError, match="table_max must be a whole number"):
        configuration.validate({"table_max": "lots"}, Toy)


def test_machine_is_drawn_from_its_definition():
    text = mermaid(Toy)
    assert "stateDiagram" in text and "locked_out" in text and "no_more_bets" not in text
    assert "close_wagers" in text


def test_no_more_bets_with_a_reshuffle_due_returns_the_wagers_instead_of_dealing():
    t = table()
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 1000}))
    t.model.reshuffle_due = "the shuffler jammed (583.13(d))"     # as a fault would leave it
    t.handle(Event("no_more_bets"))
    assert t.state == "voided"
    assert t.model.results == {"1": {"bet": ["returned", 0]}}
    assert "reshuffled before they are dealt" in t.model.void_reason
    t.handle(Event("shuffle"))
    assert t.model.reshuffle_due is None


@pytest.mark.parametrize("game", [g for g in ALL_GAMES if g != "props-and-hops"])
def test_a_shake_of_the_dice_shaker_is_no_shuffle_of_a_card_game(game):
    t = builders.table(game)
    t.handle(Event("open_table", {"decks": getattr(t.model, "DECKS", 1)}))
    with pytest.raises(IllegalEvent, match="a shake of the dice shaker does not shuffle"):
        t.handle(Event("shuffle", {"shake": True}, "dealer_panel"))
    assert t.state == "opened"               # the cards still wait for their shuffle
    t.handle(Event("shuffle"))
    assert t.state == "shuffled"
