"""Double Attack Blackjack (ch. 581) fed Event by Event: what a scenario file cannot say
(irregularities, device faults, a card reader that answers wrong, players' boxes), the order of
the procedure, and a round restored from a snapshot in a fresh process."""
import json
import os

import pytest

from controller import config as configuration
from controller.errors import ConfigError, InvalidCard
from controller.games import model_class
from controller.games.blackjack.double_attack import DoubleAttackBlackjack as DAB
from controller.games.engine import IllegalEvent, GameMachine, mermaid
from controller.games.events import Event
from controller.lab.scenario import play
from tests.games.fresh_process import finish_elsewhere, runner_after
from tests.games.events import act, cards, wagers
from tests.builders import table_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIOS = os.path.join(ROOT, "tests", "scenarios", "double-attack-blackjack")


table = table_of(DAB, "options")


def start(t, seats):
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    wagers(t, seats)
    t.handle(Event("no_more_bets"))


def decline_all(t, offer):
    while t.model.pending and t.model.pending.get("offer") == offer:
        act(t, t.model.pending["seat"], "decline")


def irregular(t, kind, **data):
    t.handle(Event("irregularity", dict(data, kind=kind)))


def reader(t, blackjack):
    t.handle(Event("reader", {"blackjack": blackjack}))


def dealt(t, up, *rest, double_attack=None):
    """The up card, the Double Attack offers (declined unless given per seat), the deal."""
    cards(t, up)
    for seat, amount in (double_attack or {}).items():
        while t.model.pending["seat"] != seat:
            act(t, t.model.pending["seat"], "decline")
        act(t, seat, "double_attack", amount)
    decline_all(t, "double_attack")
    cards(t, *rest)


def results(t):
    return {s: {w: tuple(r) for w, r in res.items()} for s, res in t.model.results.items()}


# ---- 581.6 wagers ------------------------------------------------------------------------------

@pytest.mark.reg("581.6(c)")
def test_wagers_stay_as_placed_once_betting_closes():
    t = table()
    start(t, {"1": {"bet": 1000}})
    for amount in (2000, 0):
        with pytest.raises(IllegalEvent, match="wagers are not open"):
            t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": amount}))
    assert t.model.wagers == {"1": {"bet": 1000}}


@pytest.mark.reg("581.6(f)")
def test_bust_it_stays_within_a_bet_lowered_after_it():
    t = table()
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 1000}))
    t.handle(Event("wager", {"seat": 1, "wager": "bust_it", "amount": 1000}))
    t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 500}))
    with pytest.raises(IllegalEvent,
                       match=r"bust_it 1000 exceeds the Bet Wager 500 \(581.6\(f\)\)"):
        t.handle(Event("no_more_bets"))


@pytest.mark.reg("581.6(g)")
def test_a_player_bets_on_as_many_adjacent_boxes_as_the_rules_submission_says():
    def bet(t, seat, player):
        t.handle(Event("wager", {"seat": seat, "wager": "bet", "amount": 500, "player": player}))
    t = table()
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    bet(t, 2, "ann")
    bet(t, 3, "ann")
    with pytest.raises(IllegalEvent,
                       match=r"3 boxes; the Rules Submission allows 2 \(581.6\(g\)\)"):
        bet(t, 4, "ann")
    bet(t, 6, "bob")
    with pytest.raises(IllegalEvent, match=r"player bob's boxes 4, 6 are not adjacent"):
        bet(t, 4, "bob")
    bet(t, 5, "bob")
    t = table(boxes_per_player=3)
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    bet(t, 1, "ann")
    with pytest.raises(IllegalEvent, match=r"boxes 1, 3 are not adjacent \(581.6\(g\)\)"):
        bet(t, 3, "ann")
    bet(t, 2, "ann")
    bet(t, 3, "ann")
    assert t.model.box_players == {"1": "ann", "2": "ann", "3": "ann"}


@pytest.mark.reg("581.6(g)")
def test_boxes_per_player_is_checked_in_the_configuration():
    with pytest.raises(ConfigError, match=r"581.6\(g\)"):
        configuration.validate({"options": {"boxes_per_player": 7}}, DAB)
    with pytest.raises(ConfigError, match=r"581.8\(b\)"):
        configuration.validate({"options": {"insurance_chip_unit": 0}}, DAB)


# ---- 581.7 the round ----------------------------------------------------------------------------

@pytest.mark.reg("581.7(e)")
def test_up_card_first_then_the_double_attack_offer_seat_by_seat():
    t = table()
    start(t, {"3": {"bet": 1000}, "1": {"bet": 1000}})
    assert t.state == "up_card" and t.model.pending == {"need": "card",
                                                        "for": "the dealer's up card"}
    cards(t, "Kh")
    assert t.model.pending == {"need": "offer", "seat": "1", "offer": "double_attack"}
    with pytest.raises(IllegalEvent, match="no card is due"):
        cards(t, "9s")
    act(t, "1", "decline")
    assert t.model.pending == {"need": "offer", "seat": "3", "offer": "double_attack"}
    with pytest.raises(IllegalEvent, match="procedure asks seat 3"):
        act(t, "1", "double_attack", 500)
    act(t, "3", "double_attack", 1000)
    assert t.state == "dealing" and t.model.wagers["3"]["double_attack"] == 1000
    assert "double_attack" not in t.model.wagers["1"]


@pytest.mark.reg("581.7(f)")
def test_one_card_to_each_box_from_the_left_a_second_to_each_then_the_hole_card():
    t = table()
    start(t, {"1": {"bet": 1000}, "4": {"bet": 1000}})
    cards(t, "6h")
    decline_all(t, "double_attack")
    asked = []
    for c in ("9s", "8d", "7c", "5h", "Kc"):
        asked.append(t.model.pending["for"])
        cards(t, c)
    assert asked == ["seat 1's first card", "seat 4's first card", "seat 1's second card",
                     "seat 4's second card", "the dealer's hole card"]
    assert t.model.hands["1"][0]["cards"] == ["9s", "7c"]
    assert t.model.hands["4"][0]["cards"] == ["8d", "5h"] and t.model.dealer == ["6h", "Kc"]


@pytest.mark.reg("581.7(g)")
@pytest.mark.parametrize("up, peek", [("As", True), ("Ks", True), ("Qs", True), ("Js", True),
                                      ("2s", False), ("5s", False), ("9s", False)])
def test_the_reader_looks_under_an_ace_king_queen_or_jack_only(up, peek):
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, up, "9h", "8h", "7c")
    decline_all(t, "insurance")
    if peek:
        assert t.state == "peek" and t.model.pending["need"] == "reader"
        reader(t, False)
    assert t.state == "decisions" and t.model.pending["need"] == "decision"


@pytest.mark.reg("581.7(g)")
def test_a_reader_blackjack_the_hole_card_does_not_bear_out_settles_nothing():
    """The hole card, turned up to settle, is no Blackjack: the reader malfunctioned
    (581.13(i)); the table locks and the reading is asked again after the repair."""
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "Kh", "9s", "8d", "9c")
    reader(t, True)
    assert t.state == "locked_out" and t.model.results == {}
    assert t.model.lockout["section"] == "581.13(i)"
    t.handle(Event("clear", {"role": "technician", "selftest": True}))
    assert t.state == "peek" and t.model.pending["need"] == "reader"
    reader(t, False)
    act(t, "1", "stand")
    assert results(t) == {"1": {"bet": ("lose", -1000)}}


@pytest.mark.reg("581.7(h)(1)")
def test_a_blackjack_is_paid_before_the_next_player_decides():
    t = table()
    start(t, {"1": {"bet": 1000, "bust_it": 300}, "2": {"bet": 500}})
    dealt(t, "6h", "As", "9d", "Kc", "7d", "9c", double_attack={"1": 600})
    assert t.model.pending["seat"] == "2"
    assert results(t) == {"1": {"bet": ("win", 1000), "double_attack": ("win", 600)}}
    act(t, "2", "stand")
    cards(t, "7s")       # 6h 9c + 7s = 22: the third card is a 7, 10 to 1
    assert results(t)["1"]["bust_it"] == ("win", 3000)


@pytest.mark.reg("581.7(l)")
def test_a_blackjack_the_reader_missed_shows_when_the_hole_card_is_turned_up():
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "Qh", "9s", "8d", "Ac", double_attack={"1": 500})
    reader(t, False)
    act(t, "1", "stand")
    assert results(t) == {"1": {"bet": ("lose", -1000), "double_attack": ("returned", 0)}}
    assert t.model.status == "settled" and t.state == "locked_out"
    assert t.model.lockout["device"] == "card_reader"
    assert t.model.lockout["section"] == "581.13(i)"


@pytest.mark.reg("581.7(p)")
def test_wagers_are_settled_from_the_dealers_right():
    t = table()
    start(t, {"1": {"bet": 500}, "3": {"bet": 500}, "6": {"bet": 500}})
    dealt(t, "9h", "9s", "8s", "7s", "9d", "8d", "7d", "Kc")
    for seat in ("1", "3", "6"):
        act(t, seat, "stand")
    order = [d["seat"] for what, d in t.model.record if what == "settled"]
    assert order == ["6", "3", "1"]


@pytest.mark.reg("581.7(q)")
def test_the_record_reconstructs_every_hand():
    t = table()
    start(t, {"1": {"bet": 1000}, "2": {"bet": 1000}})
    dealt(t, "6h", "8s", "5d", "8c", "6d", "9c")
    act(t, "1", "split")
    cards(t, "2h")
    act(t, "1", "stand")
    cards(t, "3h")
    act(t, "1", "stand")
    act(t, "2", "hit")
    cards(t, "4s")
    act(t, "2", "stand")
    cards(t, "Kd")
    rebuilt = {}
    for what, d in t.model.record:
        if what == "card":
            rebuilt.setdefault(d["to"], []).append(d["card"])
    assert rebuilt["dealer"] == t.model.dealer == ["6h", "9c", "Kd"]
    assert rebuilt["1"] == ["8s", "8c"] and rebuilt["1#1"] == ["2h"] and rebuilt["1#2"] == ["3h"]
    assert t.model.hands["1"][0]["cards"] == ["8s", "2h"]
    assert t.model.hands["1"][1]["cards"] == ["8c", "3h"]
    assert rebuilt["2"] + rebuilt["2#1"] == t.model.hands["2"][0]["cards"] == ["5d", "6d", "4s"]
    assert [w for w, _ in t.model.record].count("split") == 1


@pytest.mark.reg("581.7(d)", "581.5(f)")
def test_the_cover_card_finishes_the_round_then_the_cards_are_reshuffled():
    t = table()
    start(t, {"1": {"bet": 1000}})
    cards(t, "6h")
    irregular(t, "cover_card")
    decline_all(t, "double_attack")
    cards(t, "9s", "8d", "Kc")
    act(t, "1", "stand")
    cards(t, "Ks")
    assert t.model.status == "settled" and results(t) == {"1": {"bet": ("win", 1000)}}
    with pytest.raises(IllegalEvent, match=r"reshuffled.*581.7\(d\)"):
        t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 1000}))
    t.handle(Event("shuffle"))
    t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 1000}))
    assert t.state == "wagers_open" and t.model.round_no == 2


# ---- 581.8 Insurance -----------------------------------------------------------------------------

@pytest.mark.reg("581.8(a)")
def test_insurance_is_offered_on_an_ace_only():
    t = table()
    start(t, {"1": {"bet": 1000}, "2": {"bet": 1000}})
    dealt(t, "Ah", "9s", "8s", "7s", "9d", "8d")
    assert t.state == "insurance"
    assert t.model.pending == {"need": "offer", "seat": "1", "offer": "insurance"}
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "Kh", "9s", "8s", "7c")
    assert t.state == "peek"


@pytest.mark.reg("581.8(b)")
def test_insurance_is_placed_before_the_hole_card_goes_into_the_reader():
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "Ah", "9s", "8s", "7c")
    act(t, "1", "decline")
    reader(t, False)
    with pytest.raises(IllegalEvent, match=r"before the hole card goes into the card reader "
                                           r"\(581.8\(b\)\)"):
        act(t, "1", "insurance", 500)


@pytest.mark.reg("581.8(d)")
def test_losing_insurance_is_collected_at_the_reader_before_any_card_is_drawn():
    t = table()
    start(t, {"1": {"bet": 1000}, "2": {"bet": 600}})
    dealt(t, "Ah", "9s", "8s", "7s", "9d", "8d")
    act(t, "1", "insurance", 500)
    act(t, "2", "insurance", 300)
    reader(t, False)
    assert t.model.pending["need"] == "decision"
    assert results(t) == {"1": {"insurance": ("lose", -500)}, "2": {"insurance": ("lose", -300)}}


# ---- 581.9-581.11 after a Blackjack the reader missed ----------------------------------------

def _missed_blackjack():
    """Q up, an ace in the hole the reader did not see."""
    t = table()
    start(t, {"1": {"bet": 1000, "bust_it": 100}, "2": {"bet": 1000}})
    dealt(t, "Qh", "8s", "5d", "8d", "6d", "Ac", double_attack={"1": 500, "2": 1000})
    reader(t, False)
    return t


@pytest.mark.reg("581.9(b)(2)(i)")
def test_surrender_against_a_blackjack_loses_the_bet_and_returns_the_double_attack():
    t = _missed_blackjack()
    act(t, "1", "stand")
    act(t, "2", "surrender")
    assert t.model.pending == {"need": "reader", "for": "surrender of seat 2"}
    reader(t, True)
    assert results(t) == {
        "1": {"bet": ("lose", -1000), "double_attack": ("returned", 0), "bust_it": ("lose", -100)},
        "2": {"bet": ("lose", -1000), "double_attack": ("returned", 0)}}
    assert t.model.status == "settled" and t.state == "locked_out"


@pytest.mark.reg("581.10(b)")
def test_a_dealer_blackjack_after_a_double_takes_only_the_original_bet():
    t = _missed_blackjack()
    act(t, "1", "stand")
    act(t, "2", "double", 2000)
    cards(t, "9h")
    act(t, "2", "stand")
    assert results(t)["2"] == {"bet": ("lose", -1000), "double_attack": ("returned", 0),
                               "double_down": ("returned", 0)}


@pytest.mark.reg("581.10(c)")
def test_a_doubled_hand_takes_exactly_one_more_card():
    t = _missed_blackjack()
    act(t, "1", "stand")
    act(t, "2", "double", 2000)
    cards(t, "2h")                      # 5 6 2: a hard 13 that would hit, but it is doubled
    assert t.model.hands["2"][0]["cards"] == ["5d", "6d", "2h"]
    with pytest.raises(IllegalEvent):
        act(t, "2", "hit")
    assert len(t.model.hands["2"][0]["cards"]) == 3


@pytest.mark.reg("581.11(d)")
def test_a_dealer_blackjack_after_a_split_takes_only_the_original_bet():
    t = _missed_blackjack()
    act(t, "1", "split")
    cards(t, "3c")
    act(t, "1", "double", 1500)
    cards(t, "9c")
    act(t, "1", "stand")
    cards(t, "9s")
    act(t, "1", "stand")
    act(t, "2", "stand")
    assert results(t)["1"] == {
        "bet": ("lose", -1000), "double_attack": ("returned", 0), "double_down": ("returned", 0),
        "bet#2": ("returned", 0), "double_attack#2": ("returned", 0), "bust_it": ("lose", -100)}


@pytest.mark.reg("581.9(a)")
def test_no_surrender_once_the_hand_stands():
    t = table()
    start(t, {"1": {"bet": 1000}, "2": {"bet": 1000}})
    dealt(t, "6h", "9s", "9d", "7s", "7d", "9c")
    act(t, "1", "stand")
    with pytest.raises(IllegalEvent, match="procedure asks seat 2"):
        act(t, "1", "surrender")


@pytest.mark.reg("581.11(e)")
def test_split_aces_are_not_asked_to_stand_only_offered_surrender():
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "6h", "As", "Ad", "9c")
    act(t, "1", "split")
    cards(t, "5h")
    assert t.model.pending == {"need": "offer", "seat": "1", "hand": 1, "offer": "surrender"}
    with pytest.raises(IllegalEvent, match=r"may not hit: hand 1 can take no more cards: a "
                                           r"split ace takes one card only \(581.11\(e\)\)"):
        act(t, "1", "hit")
    act(t, "1", "decline")
    assert t.model.hands["1"][0]["stood"]
    assert t.model.pending["need"] == "card"


# ---- 581.13 irregularities -----------------------------------------------------------------------

@pytest.mark.reg("581.13(a)")
def test_a_card_found_face_up_in_the_shoe_is_not_used_but_counts():
    t = table()
    start(t, {"1": {"bet": 1000}})
    cards(t, "6h")
    decline_all(t, "double_attack")
    for _ in range(8):
        irregular(t, "card_face_up_in_shoe", card="5s")
    assert t.model.pending["for"] == "seat 1's first card"
    with pytest.raises(InvalidCard, match=r"one 5s too many.*581.3\(a\)"):
        cards(t, "5s")
    cards(t, "9s")
    assert t.model.hands["1"][0]["cards"] == ["9s"]
    assert ["discard", {"card": "5s", "section": "581.13(a)"}] in t.model.record


@pytest.mark.reg("581.13(b)")
def test_a_card_drawn_in_error_unseen_is_the_next_card():
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "6h", "9s")
    irregular(t, "card_drawn_in_error")
    assert t.model.pending["for"] == "seat 1's second card"
    cards(t, "8d")
    assert t.model.hands["1"][0]["cards"] == ["9s", "8d"]


@pytest.mark.reg("581.13(c)")
def test_an_exposed_card_goes_to_the_next_player_who_takes_a_card():
    t = table()
    start(t, {"1": {"bet": 1000}, "2": {"bet": 1000}})
    dealt(t, "6h", "9s", "5d", "7c", "4s", "9c")
    irregular(t, "card_exposed_in_error", card="Kd")
    assert "refuse" in t.model.pending["allowed"]
    act(t, "1", "refuse")
    # no more cards for seat 1: offered the surrender only; the dealer's "stand" declines it
    assert t.model.pending == {"need": "offer", "seat": "1", "hand": 1, "offer": "surrender"}
    act(t, "1", "stand")
    act(t, "2", "hit")
    assert t.model.hands["2"][0]["cards"] == ["5d", "4s", "Kd"]
    act(t, "2", "stand")
    cards(t, "2s")
    assert results(t) == {"1": {"bet": ("lose", -1000)}, "2": {"bet": ("win", 1000)}}


@pytest.mark.reg("581.13(c)")
def test_an_exposed_card_fills_a_card_already_asked_for_or_goes_to_the_dealer():
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "6h", "5s", "5d", "9c")
    act(t, "1", "hit")
    irregular(t, "card_exposed_in_error", card="9d")
    assert t.model.hands["1"][0]["cards"] == ["5s", "5d", "9d"]
    irregular(t, "card_exposed_in_error", card="3h")
    act(t, "1", "stand")
    assert t.model.dealer == ["6h", "9c", "3h"] and t.state == "settled"      # 18 stands
    assert results(t) == {"1": {"bet": ("win", 1000)}}
    with pytest.raises(IllegalEvent, match="once every player and the dealer have two cards"):
        t2 = table()
        start(t2, {"1": {"bet": 1000}})
        dealt(t2, "6h", "9s")
        irregular(t2, "card_exposed_in_error", card="3h")


@pytest.mark.reg("581.13(c)")
def test_an_exposed_card_the_dealer_cannot_use_is_discarded():
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "9h", "9s", "7c", "8d")
    irregular(t, "card_exposed_in_error", card="Kd")
    act(t, "1", "stand")
    assert t.model.dealer == ["9h", "8d"] and results(t) == {"1": {"bet": ("lose", -1000)}}
    assert t.model.record[-1] == ["discard", {"card": "Kd", "section": "581.13(c)"}]


@pytest.mark.reg("581.13(d)")
def test_a_card_the_dealer_draws_on_17_is_discarded():
    t = table()
    start(t, {"1": {"bet": 1000, "bust_it": 200}})
    dealt(t, "9h", "9s", "9c", "8d")
    act(t, "1", "stand")
    before = results(t)
    irregular(t, "dealer_drew_at_17", card="2c")
    assert results(t) == before == {"1": {"bet": ("win", 1000), "bust_it": ("lose", -200)}}
    assert t.model.dealer == ["9h", "8d"]
    assert t.model.record[-1] == ["discard", {"card": "2c", "section": "581.13(d)"}]


@pytest.mark.reg("581.13(e)")
def test_short_of_cards_the_discards_are_reshuffled_and_the_round_completed():
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "6h", "9s", "7d", "9c")
    irregular(t, "insufficient_cards", stack=["Kd", "2s"])
    assert t.model.shoe_seen == {"6h": 1, "9s": 1, "7d": 1, "9c": 1}
    act(t, "1", "stand")
    cards(t, "Kd")
    assert results(t) == {"1": {"bet": ("win", 1000)}}
    assert ["reshuffled_discards", {"burned": 1, "section": "581.13(e)"}] in t.model.record


@pytest.mark.reg("581.13(f)")
def test_a_box_dealt_no_card_is_dead_and_its_wagers_returned():
    t = table()
    start(t, {"1": {"bet": 1000}, "2": {"bet": 1000, "bust_it": 100}, "3": {"bet": 500}})
    dealt(t, "6h", "9s", double_attack={"2": 500})
    irregular(t, "hand_not_dealt", seat=2)
    assert t.model.pending["for"] == "seat 3's first card"
    cards(t, "9d", "8c", "8h", "9c")
    act(t, "1", "stand")
    act(t, "3", "stand")
    cards(t, "Kd")
    assert results(t) == {"1": {"bet": ("win", 1000)},
                          "2": {"bet": ("returned", 0), "double_attack": ("returned", 0),
                                "bust_it": ("returned", 0)},
                          "3": {"bet": ("win", 500)}}


@pytest.mark.reg("581.13(f)")
def test_one_card_dealt_the_second_comes_after_everyone_elses_at_the_players_option():
    t = table()
    start(t, {"1": {"bet": 1000}, "2": {"bet": 1000}})
    dealt(t, "6h", "9s", "8s")
    irregular(t, "one_card_dealt", seat=1, accept=True)
    assert t.model.pending["for"] == "seat 2's second card"
    cards(t, "9d", "7c", "9c")
    assert t.model.hands["1"][0]["cards"] == ["9s", "7c"] and t.model.dealer == ["6h", "9c"]


@pytest.mark.reg("581.13(f)")
def test_one_card_dealt_and_declined_returns_bet_and_double_attack_not_bust_it():
    t = table()
    start(t, {"1": {"bet": 1000, "bust_it": 100}, "2": {"bet": 1000}})
    dealt(t, "6h", "9s", "8s", double_attack={"1": 400})
    irregular(t, "one_card_dealt", seat=1, accept=False)
    cards(t, "9d", "9c")
    act(t, "2", "stand")
    cards(t, "Jd")                 # 6h 9c + Jd = 25: Bust It 3 to 1
    assert results(t)["1"] == {"bet": ("returned", 0), "double_attack": ("returned", 0),
                               "bust_it": ("win", 300)}


@pytest.mark.reg("581.13(g)")
def test_a_missed_card_comes_after_every_other_players_at_the_players_option():
    t = table()
    start(t, {"1": {"bet": 1000}, "2": {"bet": 1000}})
    dealt(t, "6h", "5s", "5d", "4c", "4s", "9c")
    act(t, "1", "hit")
    irregular(t, "card_not_dealt", seat=1, option="deal_later")
    assert t.model.pending["seat"] == "2"
    act(t, "2", "hit")
    cards(t, "Qh")
    act(t, "2", "stand")
    assert t.model.pending == {"need": "card", "for": "seat 1 hand 1 (hit)"}
    cards(t, "Kh")
    act(t, "1", "stand")
    assert t.state == "dealer"
    cards(t, "8s")
    assert results(t) == {"1": {"bet": ("win", 1000)}, "2": {"bet": ("win", 1000)}}


@pytest.mark.reg("581.13(g)")
def test_a_missed_card_or_the_hand_dead_with_bet_and_double_attack_returned():
    t = table()
    start(t, {"1": {"bet": 1000, "bust_it": 100}})
    dealt(t, "6h", "5s", "4c", "9c", double_attack={"1": 500})
    act(t, "1", "double", 1500)
    irregular(t, "card_not_dealt", seat=1, option="dead")
    cards(t, "Kd")
    assert results(t) == {"1": {"bet": ("returned", 0), "double_attack": ("returned", 0),
                                "double_down": ("returned", 0), "bust_it": ("win", 300)}}


@pytest.mark.reg("581.13(h)(1)")
def test_reader_used_with_a_low_card_up_voids_the_round_if_players_could_see():
    t = table(reader_shows_hole_card=True)
    start(t, {"1": {"bet": 1000, "bust_it": 100}})
    dealt(t, "6h", "Ks", "9d", "8c", double_attack={"1": 1000})
    reader(t, False)                    # the reader answers: the hole card went into it
    assert t.state == "voided" and t.model.status == "void"
    assert results(t) == {"1": {"bet": ("returned", 0), "bust_it": ("returned", 0),
                                "double_attack": ("returned", 0)}}
    assert ["floorperson_notified", {"reason": "hole card read with 6h up",
                                     "section": "581.13(h)"}] in t.model.record


@pytest.mark.reg("581.13(h)(2)")
def test_reader_used_with_a_low_card_up_play_continues_if_players_could_not_see():
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "6h", "Ks", "9d", "8c")
    irregular(t, "reader_not_allowed")
    assert t.state == "decisions" and t.model.pending["seat"] == "1"
    assert [w for w, _ in t.model.record][-2:] == ["floorperson_notified", "play_continues"]
    act(t, "1", "stand")
    cards(t, "4d")
    assert results(t) == {"1": {"bet": ("win", 1000)}}


@pytest.mark.reg("581.13(i)")
def test_a_card_reader_fault_stops_the_game_until_repaired_and_cleared():
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "Ah", "9s", "8s", "7c")
    act(t, "1", "decline")
    t.handle(Event("fault", {"device": "card_reader", "reason": "no answer"}))
    assert t.state == "locked_out" and t.model.lockout["section"] == "581.13(i)"
    for event in (Event("reader", {"blackjack": False}), Event("card", {"card": "2s"}),
                  Event("decision", {"seat": 1, "action": "stand"})):
        with pytest.raises(IllegalEvent, match=r"locked out.*581.13\(i\)"):
            t.handle(event)
    with pytest.raises(IllegalEvent, match="floorperson"):
        t.handle(Event("clear", {"role": "dealer", "selftest": True}))
    with pytest.raises(IllegalEvent, match="self-test"):
        t.handle(Event("clear", {"role": "floorperson", "selftest": False}))
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    assert t.state == "peek" and t.model.pending["need"] == "reader"


@pytest.mark.reg("581.13(i)")
def test_no_new_round_while_the_reader_is_out_of_order():
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "9h", "Ks", "9d", "8c")
    act(t, "1", "stand")
    t.handle(Event("fault", {"device": "card_reader", "reason": "jammed"}))
    with pytest.raises(IllegalEvent, match="wagers are not open"):
        t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 1000}))
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 1000}))
    assert t.state == "wagers_open"


@pytest.mark.reg("581.13(j)")
def test_a_shuffler_that_fails_a_shuffle_makes_a_reshuffle_due_and_locks_the_table():
    t = table()
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    t.handle(Event("fault", {"device": "shuffler", "reason": "jammed mid-shuffle"}))
    assert t.state == "locked_out" and t.model.lockout["section"] == "581.13(j)"
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    with pytest.raises(IllegalEvent, match=r"581.13\(j\)"):
        t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 1000}))
    t.handle(Event("shuffle"))
    t.handle(Event("wager", {"seat": 1, "wager": "bet", "amount": 1000}))


@pytest.mark.reg("581.3(a)", "581.4(b)")
def test_a_ten_from_the_shoe_is_refused():
    t = table()
    start(t, {"1": {"bet": 1000}})
    with pytest.raises(InvalidCard, match=r"tens removed \(581.3\(a\)\)"):
        cards(t, "Td")
    assert t.model.dealer == []


# ---- persistence, configuration, the machine ------------------------------------------------

@pytest.mark.parametrize("name, answers", [("resplit-to-four-hands", 9),
                                           ("surrender-after-a-split", 8),
                                           ("dealer-blackjack-ends-the-round", 6)])
def test_a_round_snapshotted_mid_way_finishes_the_same_in_a_fresh_process(name, answers):
    with open(os.path.join(SCENARIOS, name + ".json")) as f:
        doc = json.load(f)
    expected = play(doc)
    r = runner_after(doc, answers)
    assert r.model.state not in ("settled", "voided") and r.next_action >= 1
    assert finish_elsewhere(r) == expected


def test_the_model_is_json_native_mid_round():
    t = table()
    start(t, {"1": {"bet": 1000, "bust_it": 100}, "2": {"bet": 500}})
    dealt(t, "6h", "8s", "5d", "8c", "6d", "9c", double_attack={"1": 500})
    act(t, "1", "split")
    snap = t.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    again = GameMachine.restore(DAB, json.loads(json.dumps(snap)))
    assert again.state == t.state and again.model.pending == t.model.pending
    assert again.model.to_json() == t.model.to_json()


def test_the_deployed_template_is_the_default_configuration():
    path = os.path.join(ROOT, "deploy", "tables", "double-attack-blackjack.toml")
    assert configuration.load(path, model_class) == configuration.validate({}, DAB)


def test_every_trigger_reaches_the_machine():
    """A model method named like a trigger would silently hide it (transitions skips it)."""
    shadowed = [tr["trigger"] for tr in DAB.transitions() if hasattr(DAB, tr["trigger"])]
    assert shadowed == []


def test_the_machine_is_drawn_from_its_definition():
    text = mermaid(DAB)
    for state in DAB.ROUND_STATES:
        assert state in text


# ---- 581.9(b): the Double Down Wager on a surrender after doubling (issue 19) ----------------

def _double_then_surrender(t, up, hole, player=("5s", "4d"), drawn="2c", attack=500, double=1500):
    start(t, {"1": {"bet": 1000}})
    dealt(t, up, *player, hole, double_attack={"1": attack})
    act(t, "1", "double", double)
    cards(t, drawn)
    assert t.model.pending == {"need": "offer", "seat": "1", "hand": 1, "offer": "surrender"}
    act(t, "1", "surrender")


@pytest.mark.reg("581.9(b)")
@pytest.mark.reg("581.9(b)(1)")
def test_a_doubled_hand_surrendered_against_a_non_peek_card_loses_half_the_double_down():
    t = table()
    _double_then_surrender(t, "6h", "9c")
    cards(t, "Kd")          # the dealer's 25: the surrender stands whatever he makes
    assert results(t) == {"1": {"bet": ("surrender", -500), "double_attack": ("surrender", -250),
                                "double_down": ("surrender", -750)}}


@pytest.mark.reg("581.9(b)")
@pytest.mark.reg("581.9(b)(2)(ii)")
def test_a_doubled_hand_surrendered_against_a_peeked_ace_without_blackjack_loses_half():
    t = table()
    start(t, {"1": {"bet": 1000}})
    dealt(t, "Ah", "5s", "4d", "7c", double_attack={"1": 1000})
    act(t, "1", "decline")
    t.handle(Event("reader", {"blackjack": False}))         # the peek of 581.7(g)
    act(t, "1", "double", 2000)
    cards(t, "3c")
    act(t, "1", "surrender")
    assert t.model.pending == {"need": "reader", "for": "surrender of seat 1"}
    t.handle(Event("reader", {"blackjack": False}))         # asked again, 581.9(b)(2)
    assert t.model.dealer == ["Ah", "7c"]       # his soft 18 stands, nothing more to draw
    assert results(t) == {"1": {"bet": ("surrender", -500), "double_attack": ("surrender", -500),
                                "double_down": ("surrender", -1000)}}


@pytest.mark.reg("581.9(b)")
def test_the_literal_reading_returns_the_double_down_when_configured():
    t = table(surrender_double_down="returned")
    _double_then_surrender(t, "6h", "9c")
    cards(t, "Kd")
    assert results(t) == {"1": {"bet": ("surrender", -500), "double_attack": ("surrender", -250),
                                "double_down": ("returned", 0)}}


@pytest.mark.reg("581.9(b)")
def test_the_double_down_treatment_is_a_checked_option():
    with pytest.raises(ConfigError, match=r"surrender_double_down.*half, returned.*581.9\(b\)"):
        configuration.validate({"options": {"surrender_double_down": "kept"}}, DAB)
    assert DAB.DEFAULTS["options"]["surrender_double_down"] == "half"


# ---- the burn card (581.7(c)) ------------------------------------------------------------

@pytest.mark.reg("581.7(c)")
def test_the_first_card_of_each_batch_and_a_new_dealers_card_are_burned_and_counted():
    t = table()
    t.handle(Event("open_table"))
    t.handle(Event("shuffle", {"burn": "9s"}))
    irregular(t, "new_dealer", card="9s")
    assert [d for what, d in t.model.record if what == "discard"] == [
        {"card": "9s", "section": "581.7(c)"}, {"card": "9s", "section": "581.7(c)"}]
    assert t.model.shoe_seen["9s"] == 2          # counted against the eight-deck batch
    with pytest.raises(InvalidCard, match=r"tens removed \(581.3\(a\)\)"):
        t.handle(Event("shuffle", {"burn": "Th"}))
    assert t.model.shoe_seen["9s"] == 2          # the refused shuffle changed nothing
    wagers(t, {"1": {"bet": 1000}})
    t.handle(Event("no_more_bets"))
    with pytest.raises(IllegalEvent, match=r"before dealing any cards.*581.7\(c\)"):
        irregular(t, "new_dealer", card="2s")
