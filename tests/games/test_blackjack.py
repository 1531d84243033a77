"""Blackjack (633a.7) fed Event by Event, up to the hole card: what a scenario file cannot say
(the order things happen in, as the round's record shows it; the shoe's irregularities; a card
reader that answers wrong; device faults). From the hole card on, the configuration and the
snapshots: test_blackjack_settlement.py, which shares the helpers here."""
import os

import pytest

from controller.errors import InvalidCard
from controller.games import model_class
from controller.games.blackjack.model import Blackjack
from controller.games.engine import IllegalEvent
from controller.games.events import Event
from tests.games.events import act, cards, wagers
from tests.builders import table_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIOS = os.path.join(ROOT, "tests", "scenarios", "blackjack")


table = table_of(Blackjack, "options")


def start(t, seats, open_=True):
    if open_:
        t.handle(Event("open_table"))
        t.handle(Event("shuffle"))
    wagers(t, seats)
    t.handle(Event("no_more_bets"))


def decline_all(t):
    while t.model.pending and t.model.pending["need"] == "offer":
        act(t, t.model.pending["seat"], "decline")


def reader(t, blackjack):
    t.handle(Event("reader", {"blackjack": blackjack}))


def results(t):
    return {s: {w: tuple(r) for w, r in res.items()} for s, res in t.model.results.items()}


def record(t, *whats):
    return [(w, d) for w, d in t.model.record if not whats or w in whats]


def index(t, what, **match):
    for i, (w, d) in enumerate(t.model.record):
        if w == what and all(d.get(k) == v for k, v in match.items()):
            return i
    raise AssertionError("no %s %r in the record" % (what, match))


def test_registered_under_its_name():
    assert model_class("blackjack") is Blackjack


# ---- 633a.7(c)-(f): the shoe and the deal -------------------------------------------------

@pytest.mark.reg("633a.7(f)")
def test_each_box_from_the_left_the_up_card_each_box_again_then_the_hole_card():
    t = table()
    start(t, {"4": {"blackjack": 1000}, "1": {"blackjack": 1000}})
    asked = []
    for c in ("9s", "8d", "6h", "7c", "5h", "Kc"):
        asked.append(t.model.pending["for"])
        cards(t, c)
    assert asked == ["seat 1's first card", "seat 4's first card", "the dealer's up card",
                     "seat 1's second card", "seat 4's second card", "the dealer's hole card"]
    assert t.model.hands["1"][0]["cards"] == ["9s", "7c"]
    assert t.model.hands["4"][0]["cards"] == ["8d", "5h"] and t.model.dealer == ["6h", "Kc"]


@pytest.mark.reg("633a.7(f)(1)")
def test_a_box_without_a_blackjack_wager_is_dealt_nothing():
    t = table()
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    wagers(t, {"1": {"blackjack": 1000}, "2": {"lucky_ladies": 500}})
    with pytest.raises(IllegalEvent, match=r"seat 2 has no Blackjack Wager.*633a.7\(f\)\(1\)"):
        t.handle(Event("no_more_bets"))
    t.handle(Event("wager", {"seat": 2, "wager": "lucky_ladies", "amount": 0}))
    t.handle(Event("no_more_bets"))
    assert t.model.seats() == ["1"]


@pytest.mark.reg("633a.7(d)(1)")
def test_the_determinant_card_of_the_other_sides_suits_is_segregated():
    """The shoe reports the side the determinant card came from; its suit picks the side the
    round is dealt from."""
    t = table(double_shoe=True)
    start(t, {"1": {"blackjack": 1000}, "2": {"blackjack": 1000}})
    assert t.model.pending == {"need": "card", "for": "the determinant card"}
    with pytest.raises(IllegalEvent, match=r"633a.7\(d\)\(1\)"):
        t.handle(Event("card", {"card": "9h", "side": "left"}))
    t.handle(Event("card", {"card": "9h", "side": "spades_clubs"}))
    assert t.model.determinant == {"card": "9h", "drawn_from": "spades_clubs",
                                   "deals_from": "hearts_diamonds", "first_card": False}
    assert t.model.pending["for"] == "seat 1's first card"
    with pytest.raises(IllegalEvent, match=r"determinant card only \(633a.7\(d\)\(1\)\)"):
        t.handle(Event("card", {"card": "Ts", "side": "hearts_diamonds"}))
    cards(t, "Ts")
    assert t.model.hands["1"][0]["cards"] == ["Ts"]
    assert ["segregated", {"card": "9h", "side": "spades_clubs",
                           "section": "633a.7(d)(2)"}] in t.model.record


@pytest.mark.reg("633a.7(d)(2)")
def test_a_determinant_card_of_its_own_side_is_the_first_players_first_card():
    t = table(double_shoe=True)
    start(t, {"2": {"blackjack": 1000}, "5": {"blackjack": 1000}})
    t.handle(Event("card", {"card": "Qc", "side": "spades_clubs"}))
    assert t.model.hands["2"][0]["cards"] == ["Qc"]
    assert t.model.pending["for"] == "seat 5's first card"
    assert t.model.shoe_side == "spades_clubs"


@pytest.mark.reg("633a.7(c)")
def test_a_new_dealer_burns_one_card_before_dealing_and_it_counts_against_the_batch():
    t = table(decks=1)
    t.handle(Event("open_table"))
    t.handle(Event("shuffle", {"burn": "Kd"}))
    t.handle(Event("irregularity", {"kind": "new_dealer", "card": "As"}))
    assert record(t, "discard") == [("discard", {"card": "Kd", "section": "633a.7(c)"}),
                                    ("discard", {"card": "As", "section": "633a.7(c)"})]
    start(t, {"1": {"blackjack": 1000}}, open_=False)
    with pytest.raises(InvalidCard, match="one As too many"):
        cards(t, "As")
    with pytest.raises(InvalidCard, match="one Kd too many"):
        cards(t, "Kd")
    with pytest.raises(IllegalEvent, match=r"before dealing any cards.*633a.7\(c\)"):
        t.handle(Event("irregularity", {"kind": "new_dealer", "card": "2s"}))


def test_one_copy_too_many_names_the_configured_decks():
    """The batch is options.decks (two batches with a double shoe), not the family's 8."""
    t = table(decks=2)
    start(t, {"1": {"blackjack": 1000}})
    with pytest.raises(InvalidCard, match=r"one As too many: a batch of 2 decks holds 2 "
                                          r"\(633a.3 as configured: options.decks\)"):
        cards(t, "As", "As", "As")
    t = table(decks=1, double_shoe=True)
    start(t, {"1": {"blackjack": 1000}})
    with pytest.raises(InvalidCard, match="one As too many: a double shoe's two batches "
                                          "of 1 decks hold 2"):
        cards(t, "As", "As", "As")


@pytest.mark.reg("633a.7(d)")
def test_a_double_shoe_burns_no_card():
    t = table(double_shoe=True)
    t.handle(Event("open_table"))
    with pytest.raises(IllegalEvent, match=r"633a.7\(d\) applies in lieu of 633a.7\(c\)"):
        t.handle(Event("shuffle", {"burn": "Kd"}))
    t.handle(Event("shuffle"))
    with pytest.raises(IllegalEvent, match=r"633a.7\(d\) applies in lieu of 633a.7\(c\)"):
        t.handle(Event("irregularity", {"kind": "new_dealer", "card": "As"}))


@pytest.mark.reg("633a.7(e)(1)")
def test_the_cover_card_the_round_is_completed_then_the_cards_are_reshuffled():
    t = table()
    start(t, {"1": {"blackjack": 1000}})
    cards(t, "9s", "6h")
    t.handle(Event("irregularity", {"kind": "cover_card"}))
    cards(t, "8d", "Kc")
    act(t, 1, "stand")
    cards(t, "7s")
    assert results(t) == {"1": {"blackjack": ("win", 1000)}}
    with pytest.raises(IllegalEvent, match=r"reshuffled.*633a.7\(e\)\(1\), \(3\)"):
        t.handle(Event("wager", {"seat": 1, "wager": "blackjack", "amount": 1000}))
    t.handle(Event("shuffle"))
    t.handle(Event("wager", {"seat": 1, "wager": "blackjack", "amount": 1000}))
    assert t.state == "wagers_open" and t.model.round_no == 2


@pytest.mark.reg("633a.7(e)(2)")
def test_with_a_double_shoe_the_cover_card_reshuffles_its_own_side():
    t = table(double_shoe=True)
    start(t, {"1": {"blackjack": 1000}})
    t.handle(Event("card", {"card": "5c", "side": "spades_clubs"}))
    t.handle(Event("irregularity", {"kind": "cover_card"}))
    assert "spades_clubs side" in t.model.reshuffle_due
    assert "633a.7(e)(2), (3)" in t.model.reshuffle_due


# ---- 633a.7(g): optional wagers after the second cards -----------------------------------

@pytest.mark.reg("633a.7(g)")
def test_optional_wagers_settle_before_insurance_and_the_card_reader():
    t = table()
    start(t, {"1": {"blackjack": 1000, "lucky_ladies": 100, "match_the_dealer": 100}})
    cards(t, "Ks", "Ah", "Qd", "9c")
    assert t.state == "insurance" and t.model.pending["offer"] == "insurance"
    assert results(t) == {"1": {"lucky_ladies": ("win", 400),
                                "match_the_dealer": ("lose", -100)}}


@pytest.mark.reg("633a.7(g)")
def test_optional_wagers_settle_from_the_dealers_right():
    t = table()
    seats = {s: {"blackjack": 500, "bet_the_set_21": 100} for s in ("1", "3", "6")}
    start(t, seats)
    cards(t, "8s", "9s", "Ts", "6h", "8d", "9d", "Td", "7c")
    order = [d["seat"] for _, d in record(t, "optional_wager")]
    assert order == ["6", "3", "1"]


@pytest.mark.reg("633a.7(g)(1)")
def test_two_queens_of_hearts_wait_for_the_reader_after_every_other_twenty_point_bonus():
    t = table()
    start(t, {"1": {"blackjack": 1000, "lucky_ladies": 100},
              "2": {"blackjack": 1000, "lucky_ladies": 100}})
    cards(t, "Qh", "Ks", "Ts", "Qh", "Qd", "8c")
    assert results(t) == {"2": {"lucky_ladies": ("win", 400)}}
    assert t.model.pending == {"need": "reader", "for": "the dealer's Ts up"}
    reader(t, False)
    assert results(t)["1"] == {"lucky_ladies": ("win", 12500)}
    assert t.model.pending["need"] == "decision"
    assert index(t, "optional_wager", seat="2") < index(t, "reader") < \
        index(t, "optional_wager", seat="1")


@pytest.mark.reg("633a.7(g)(4)")
def test_a_royal_match_against_a_king_settles_after_the_hole_card_before_the_blackjack_wager():
    t = table()
    start(t, {"1": {"blackjack": 1000, "royal_match_21": 100}})
    cards(t, "Qd", "Kh", "Kd", "7s")
    reader(t, False)
    assert results(t) == {}
    act(t, 1, "stand")
    assert results(t) == {"1": {"blackjack": ("win", 1000), "royal_match_21": ("win", 2500)}}
    assert index(t, "hole_card") < index(t, "optional_wager", wager="royal_match_21") < \
        index(t, "pay", wager="blackjack")


@pytest.mark.reg("633a.7(g)(10)(ii)")
def test_the_house_money_offer_names_what_the_dealer_would_place():
    t = table()
    start(t, {"1": {"blackjack": 1000, "house_money": 500}, "2": {"blackjack": 1000}})
    cards(t, "8s", "9s", "6h", "8d", "9d", "Tc")
    assert t.model.pending == {"need": "offer", "seat": "1", "offer": "house_money_to_blackjack",
                               "amount": 1500}
    with pytest.raises(IllegalEvent, match=r"the dealer places 1500.*633a.7\(g\)\(10\)\(ii\)"):
        act(t, 1, "house_money_to_blackjack", 1000)
    act(t, 1, "decline")
    assert t.model.wagers["1"]["blackjack"] == 1000
    assert t.model.pending["need"] == "decision"


@pytest.mark.reg("633a.7(g)(10)(ii)(C)")
def test_a_split_matches_the_blackjack_wager_with_the_house_money_on_it():
    t = table()
    start(t, {"1": {"blackjack": 1000, "house_money": 500}})
    cards(t, "8s", "6h", "8d", "Tc")
    act(t, 1, "house_money_to_blackjack")
    act(t, 1, "split")
    assert t.model.wagers["1"]["blackjack"] == t.model.wagers["1"]["blackjack#2"] == 2500


# ---- 633a.7(h): Insurance, even money, the card reader ------------------------------------

@pytest.mark.reg("633a.7(h)")
@pytest.mark.parametrize("up, peek", [("As", True), ("Ks", True), ("Qs", True), ("Js", True),
                                      ("Ts", True), ("9s", False), ("2s", False)])
def test_the_reader_looks_under_an_ace_king_queen_jack_or_ten_only(up, peek):
    t = table()
    start(t, {"1": {"blackjack": 1000}})
    cards(t, "9h", up, "8h", "7c")
    decline_all(t)
    if peek:
        assert t.state == "peek" and t.model.pending["need"] == "reader"
        reader(t, False)
    else:
        with pytest.raises(IllegalEvent, match=r"633a.7\(h\)"):
            reader(t, False)
    assert t.state == "decisions" and t.model.pending["need"] == "decision"


@pytest.mark.reg("633a.7(h)")
def test_insurance_and_even_money_are_offered_before_the_reader_then_no_more():
    t = table()
    start(t, {"1": {"blackjack": 1000}, "2": {"blackjack": 1000}})
    cards(t, "9s", "As", "Ah", "8d", "Kd", "7c")
    assert t.model.pending == {"need": "offer", "seat": "1", "offer": "insurance"}
    act(t, 1, "decline")
    assert t.model.pending == {"need": "offer", "seat": "2", "offer": "even_money"}
    act(t, 2, "decline")
    reader(t, False)
    with pytest.raises(IllegalEvent, match=r"before the hole card goes into the card reader"):
        act(t, 1, "insurance", 500)
    act(t, 1, "stand")
    assert results(t) == {"1": {"blackjack": ("lose", -1000)}, "2": {"blackjack": ("win", 1500)}}


@pytest.mark.reg("633a.7(h)")
def test_without_insurance_or_even_money_in_the_rules_the_ace_goes_straight_to_the_reader():
    t = table(insurance=False, even_money=False)
    start(t, {"1": {"blackjack": 1000}})
    cards(t, "9s", "Ah", "8d", "7c")
    assert t.state == "peek"


@pytest.mark.reg("633a.7(h)")
def test_a_reader_blackjack_the_hole_card_does_not_bear_out_locks_before_settling():
    t = table()
    start(t, {"1": {"blackjack": 1000}})
    cards(t, "9s", "Kh", "8d", "9c")
    reader(t, True)
    assert t.state == "locked_out" and t.model.results == {}
    assert t.model.lockout["section"] == "633a.7(h)"
    t.handle(Event("clear", {"role": "technician", "selftest": True}))
    assert t.state == "peek"
    reader(t, False)
    act(t, 1, "stand")
    assert results(t) == {"1": {"blackjack": ("lose", -1000)}}


@pytest.mark.reg("633a.7(q)")
def test_a_blackjack_the_reader_missed_takes_only_the_original_wagers_and_locks_the_table():
    """A 21 in three cards loses to the dealer's Blackjack (q); a Double Down and a split hand
    made on the reader's word are returned (module readings)."""
    t = table()
    start(t, {"1": {"blackjack": 1000}, "2": {"blackjack": 1000}})
    cards(t, "5s", "8s", "Qh", "6d", "8d", "Ac")
    reader(t, False)
    act(t, 1, "hit")
    cards(t, "Ts")
    act(t, 2, "split")
    cards(t, "3c")
    act(t, 2, "double", 1000)
    cards(t, "9c")
    cards(t, "Kc")
    act(t, 2, "stand")
    assert results(t) == {"1": {"blackjack": ("lose", -1000)},
                          "2": {"blackjack": ("lose", -1000), "double_down": ("returned", 0),
                                "blackjack#2": ("returned", 0)}}
    assert t.model.status == "settled" and t.state == "locked_out"
    assert t.model.lockout["device"] == "card_reader"


@pytest.mark.reg("633a.7(h)")
def test_a_card_reader_fault_stops_the_round_until_cleared():
    t = table()
    start(t, {"1": {"blackjack": 1000}})
    cards(t, "9s", "Th", "8d", "7c")
    t.handle(Event("fault", {"device": "card_reader", "reason": "no answer"}))
    with pytest.raises(IllegalEvent, match=r"locked out.*633a.7\(h\)"):
        reader(t, False)
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    assert t.state == "peek"


# ---- 633a.7(i)-(k): Blackjacks and decisions ----------------------------------------------

def _blackjack_and_a_hand(**options):
    t = table(**options)
    start(t, {"1": {"blackjack": 1000}, "2": {"blackjack": 1000}})
    cards(t, "As", "9s", "Kh", "Qd", "8d", "7c")
    reader(t, False)
    act(t, 2, "stand")
    return t


@pytest.mark.reg("633a.7(i)(1)(ii)(A)")
def test_a_blackjack_against_a_ten_up_is_paid_before_the_next_player_decides():
    t = _blackjack_and_a_hand()
    assert index(t, "blackjack_paid", seat="1") < index(t, "stand", seat="2")


@pytest.mark.reg("633a.7(i)(1)(ii)(B)")
def test_a_blackjack_left_on_the_table_is_paid_once_the_hole_card_is_up():
    t = _blackjack_and_a_hand(blackjack_payment="after_hole_card")
    assert index(t, "blackjack_announced", seat="1") < index(t, "stand", seat="2") < \
        index(t, "hole_card") < index(t, "blackjack_paid", seat="1")
    assert results(t) == {"1": {"blackjack": ("win", 1500)}, "2": {"blackjack": ("push", 0)}}


@pytest.mark.reg("633a.7(i)(2)")
def test_the_decisions_a_hand_is_offered_follow_the_tables_rules():
    t = table()
    start(t, {"1": {"blackjack": 1000}})
    cards(t, "8s", "9h", "8d", "7c")
    assert t.model.pending["allowed"] == ["hit", "stand", "double", "split", "surrender"]
    t = table(late_surrender=False, double_on="ten_eleven")
    start(t, {"1": {"blackjack": 1000}})
    cards(t, "8s", "9h", "8d", "7c")
    assert t.model.pending["allowed"] == ["hit", "stand", "split"]
    with pytest.raises(IllegalEvent, match=r"doubles on 10 or 11 only, not 16"):
        act(t, 1, "double", 1000)
    with pytest.raises(IllegalEvent, match=r"offers no surrender \(633a.9 as configured\)"):
        act(t, 1, "surrender")


@pytest.mark.reg("633a.7(i)(2)")
def test_double_after_split_and_double_for_less_are_the_tables_choice():
    t = table(double_after_split=False, double_for_less=True)
    start(t, {"1": {"blackjack": 1000}})
    cards(t, "5s", "9h", "5d", "7c")
    act(t, 1, "double", 400)
    assert t.model.wagers["1"]["double_down"] == 400
    t = table(double_after_split=False)
    start(t, {"1": {"blackjack": 1000}})
    cards(t, "8s", "9h", "8d", "7c")
    act(t, 1, "split")
    cards(t, "3c")
    assert t.model.pending["allowed"] == ["hit", "stand"]


@pytest.mark.reg("633a.7(j)")
def test_each_decision_is_carried_out_with_cards_face_up_to_that_hand():
    t = table()
    start(t, {"1": {"blackjack": 1000}})
    cards(t, "8s", "6h", "8d", "Tc")
    act(t, 1, "split")
    assert t.model.pending == {"need": "card", "for": "seat 1 hand 1 (split)"}
    cards(t, "2c")
    act(t, 1, "hit")
    assert t.model.pending == {"need": "card", "for": "seat 1 hand 1 (hit)"}


@pytest.mark.reg("633a.7(k)(1)")
def test_a_hand_of_21_is_not_asked_to_draw():
    t = table()
    start(t, {"1": {"blackjack": 1000}, "2": {"blackjack": 1000}})
    cards(t, "7s", "9s", "9h", "4d", "8d", "8c")
    act(t, 1, "hit")
    cards(t, "Ts")
    assert t.model.pending["seat"] == "2"
    assert t.model.decisions.refusal("hit", "1", 0) == "a hand of 21 may not draw (633a.7(k)(1))"
    with pytest.raises(IllegalEvent, match="procedure asks seat 2"):
        act(t, 1, "hit")


@pytest.mark.reg("633a.7(k)(2)")
def test_a_doubled_hand_takes_one_card():
    t = table()
    start(t, {"1": {"blackjack": 1000}, "2": {"blackjack": 1000}})
    cards(t, "3s", "9s", "9h", "2d", "8d", "8c")
    act(t, 1, "double", 1000)
    cards(t, "4c")
    assert t.model.hands["1"][0]["stood"] and t.model.pending["seat"] == "2"
    assert t.model.decisions.refusal("hit", "1", 0) == "a doubled hand takes one card only (633a.7(k)(2))"
