"""Six-Card Fortune irregularities (670a.13), a stub of the wrong size (670a.8(e), (f)),
device faults and the reshuffle after every round, fed Event by Event: what a scenario file
cannot say."""
import pytest

from controller.errors import InvalidCard
from controller.games.engine import IllegalEvent
from controller.games.events import Event
from tests.games.six_card_fortune_table import DECK, KINGS, act, deal, dealer_sets, \
    irregular, opened, place, play, table, wager

# ---- the stub (670a.8(e), (f)) ----------------------------------------------------------------

@pytest.mark.reg("670a.8(f)")
def test_a_short_deck_voids_the_round_and_leaves_the_table():
    t = table()
    t.handle(Event("open_table"))
    t.handle(Event("shuffle", {"count": 52}))            # the shuffler counted 52 cards
    place(t, {3: {"six_card_fortune": 1000, "progressive": 100}})
    t.handle(Event("no_more_bets"))
    deal(t, {})
    assert t.state == "voided" and t.model.status == "void"
    assert t.model.results == {"3": {"six_card_fortune": ["returned", 0],
                                     "progressive": ["returned", 0]}}
    assert "10 cards remained" in t.model.void_reason and "670a.8(f)" in t.model.void_reason
    with pytest.raises(IllegalEvent, match=r"a new deck is needed"):
        t.handle(Event("shuffle"))
    with pytest.raises(IllegalEvent, match=r"new deck.*670a.8\(f\)"):
        wager(t, 3, "six_card_fortune", 1000)
    t.handle(Event("new_deck"))
    assert t.state == "opened"
    assert [w for w, _ in t.model.record[-2:]] == ["deck_removed", "open_table"]
    t.handle(Event("shuffle"))
    play(t, {3: {"six_card_fortune": 1000}}, {3: ["As", "Ad", "Kc", "Qs", "9h", "3d"],
                                              "dealer": KINGS}, {"3": "Kc"})
    assert t.model.results == {"3": {"six_card_fortune": ["win", 1000]}}


@pytest.mark.reg("670a.9(e)")
def test_stub_counted_wrong_after_a_misdeal_voids_but_keeps_the_deck():
    t = opened(options={"dealing": "hand", "shuffler": "automated"})
    place(t, {3: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    deal(t, {})
    irregular(t, "stub_count", count=12, misdealt=True)
    assert t.model.status == "void" and "670a.9(e)" in t.model.void_reason
    t.handle(Event("shuffle"))                             # the same deck, reshuffled
    wager(t, 3, "six_card_fortune", 1000)


@pytest.mark.reg("670a.8(e)")
def test_a_stub_of_eleven_goes_on():
    t = opened()
    place(t, {3: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    deal(t, {})
    irregular(t, "stub_count", count=11)
    assert t.state == "players" and t.model.pending["seat"] == "3"


# ---- irregularities (670a.13) --------------------------------------------------------------------

def _mid_deal(cfg=None, cards=10, seats=None):
    t = opened(**(cfg or {}))
    place(t, seats or {1: {"six_card_fortune": 1000, "fortune_bonus": 500},
                       4: {"six_card_fortune": 2000}})
    t.handle(Event("no_more_bets"))
    for code in DECK[:cards]:
        t.handle(Event("card", {"card": code}))
    return t


def _all_returned(t):
    return {s: {w: ["returned", 0] for w in placed} for s, placed in t.model.wagers.items()}


@pytest.mark.reg("670a.13(c)")
def test_first_card_to_the_wrong_position_voids_the_round():
    t = _mid_deal()
    irregular(t, "wrong_starting_position")
    assert t.state == "voided" and t.model.results == _all_returned(t)
    assert "670a.13(c)" in t.model.void_reason
    with pytest.raises(IllegalEvent, match=r"reshuffled.*670a.5\(a\)"):
        wager(t, 1, "six_card_fortune", 1000)
    t.handle(Event("shuffle"))
    wager(t, 1, "six_card_fortune", 1000)


@pytest.mark.reg("670a.13(d)")
def test_a_player_dealt_an_exposed_card_may_void_the_hand():
    t = _mid_deal()
    irregular(t, "player_card_exposed", seat=4, card=DECK[3])
    irregular(t, "player_card_exposed", seat=6)           # no wager there: nothing to decide
    deal(t, {})
    assert t.model.pending == {"need": "decision", "seat": "4",
                               "allowed": ["play_hand", "void_hand"]}
    with pytest.raises(IllegalEvent, match=r"play_hand or void_hand.*670a.13\(d\)"):
        act(t, "4", "set", low=t.model.hands["4"][0])
    act(t, "4", "void_hand")
    assert t.model.results == {"4": {"six_card_fortune": ["returned", 0]}}
    assert t.model.pending == {"need": "offer", "seat": "1", "offer": "double_down"}
    act(t, "1", "decline", offer="double_down")
    act(t, "1", "set", low=t.model.hands["1"][0])
    dealer_sets(t)
    assert set(t.model.results) == {"1", "4"} and t.state == "settled"
    assert t.model.results["4"] == {"six_card_fortune": ["returned", 0]}


@pytest.mark.reg("670a.13(d)")
def test_the_player_may_play_out_the_hand_with_the_exposed_card():
    t = _mid_deal(seats={2: {"six_card_fortune": 1000}})
    irregular(t, "player_card_exposed", seat=2)
    deal(t, {})
    act(t, "2", "play_hand")
    assert t.model.pending == {"need": "offer", "seat": "2", "offer": "double_down"}


@pytest.mark.reg("670a.13(d)")
def test_every_hand_voided_voids_the_round():
    t = _mid_deal(seats={2: {"six_card_fortune": 1000, "insurance": 100}})
    irregular(t, "player_card_exposed", seat=2)
    deal(t, {})
    act(t, "2", "void_hand")
    assert t.state == "voided" and t.model.results == {
        "2": {"six_card_fortune": ["returned", 0], "insurance": ["returned", 0]}}


@pytest.mark.reg("670a.13(j)")
def test_any_card_exposed_from_an_automated_shoe_voids_the_round():
    t = _mid_deal({"options": {"dealing": "automated_shoe"}})
    irregular(t, "player_card_exposed", seat=1)
    assert t.state == "voided" and "670a.13(j)" in t.model.void_reason


@pytest.mark.reg("670a.13(e)")
def test_a_dealer_card_exposed_voids_the_round():
    t = _mid_deal(cards=42)
    irregular(t, "dealer_card_exposed")
    assert t.state == "voided" and t.model.results == _all_returned(t)
    assert "670a.13(e)" in t.model.void_reason


@pytest.mark.reg("670a.13(f)")
def test_a_card_face_up_in_the_deck_is_not_used_and_a_second_voids():
    t = _mid_deal(cards=3)
    before = t.model.pending
    irregular(t, "card_face_up", card="As")
    assert t.model.pending == before and t.model.discards == ["As"]
    with pytest.raises(InvalidCard, match="As has already left this deck"):
        t.handle(Event("card", {"card": "As"}))
    deal(t, {})
    assert t.state == "players"           # 53 - 42 dealt - 1 discarded = 10 left, and it counts
    t = _mid_deal(cards=3)
    irregular(t, "card_face_up", card="As")
    irregular(t, "card_face_up", card="Ks")
    assert t.state == "voided" and "670a.13(f)" in t.model.void_reason


@pytest.mark.reg("670a.13(g)")
def test_a_card_drawn_in_error_unexposed_is_the_next_card():
    t = _mid_deal(cards=3)
    before = t.model.pending
    irregular(t, "card_drawn_in_error")
    assert t.model.pending == before and t.state == "dealing"


@pytest.mark.reg("670a.13(h)", "670a.13(k)")
@pytest.mark.parametrize("position", ["dealer", 4])
def test_an_incorrect_number_of_cards_voids_the_round(position):
    t = _mid_deal(cards=42)
    irregular(t, "wrong_number_of_cards", position=position)
    assert t.state == "voided" and t.model.results == _all_returned(t)
    assert "670a.13(h)" in t.model.void_reason


@pytest.mark.reg("670a.13(m)")
def test_an_automated_shoe_jam_voids_the_round():
    t = _mid_deal()
    with pytest.raises(IllegalEvent, match=r"not an automated dealing shoe \(670a.13\(m\)\)"):
        irregular(t, "shoe_jam")
    t = _mid_deal({"options": {"dealing": "automated_shoe"}})
    irregular(t, "shoe_jam")
    assert t.state == "voided" and "670a.13(m)" in t.model.void_reason


@pytest.mark.reg("670a.13(m)")
def test_a_dealing_shoe_fault_voids_the_round_and_locks_the_table():
    t = _mid_deal({"options": {"dealing": "automated_shoe"}})
    t.handle(Event("fault", {"device": "dealing_shoe", "reason": "jam"}))
    assert t.state == "locked_out" and t.model.status == "void"
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    assert t.state == "voided"


@pytest.mark.reg("670a.13(l)")
def test_a_shuffler_jam_means_the_cards_are_shuffled_again():
    t = opened()
    irregular(t, "shuffler_jam")
    with pytest.raises(IllegalEvent, match=r"reshuffled.*670a.13\(l\)"):
        wager(t, 1, "six_card_fortune", 1000)
    t.handle(Event("shuffle"))
    wager(t, 1, "six_card_fortune", 1000)
    with pytest.raises(IllegalEvent, match=r"not possible while wagers_open"):
        irregular(t, "shuffler_jam")


def test_unknown_irregularities_are_named():
    t = _mid_deal()
    with pytest.raises(IllegalEvent, match="has no irregularity 'spilled_drink'"):
        irregular(t, "spilled_drink")


def test_a_locked_table_takes_no_cards_until_cleared():
    t = _mid_deal()
    t.handle(Event("fault", {"device": "progressive_system", "reason": "no heartbeat"}))
    with pytest.raises(IllegalEvent, match="locked out"):
        t.handle(Event("card", {"card": "Qh"}))
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    t.handle(Event("card", {"card": "Qh"}))
    assert t.model.dealt() == 11


@pytest.mark.reg("670a.5(a)")
def test_every_round_is_dealt_from_a_freshly_shuffled_deck():
    t = opened()
    play(t, {1: {"six_card_fortune": 1000}}, {1: ["As", "Ad", "Kc", "Qs", "9h", "3d"],
                                              "dealer": KINGS}, {"1": "Kc"})
    with pytest.raises(IllegalEvent, match=r"shuffled after each round \(670a.5\(a\)\)"):
        wager(t, 1, "six_card_fortune", 1000)
    t.handle(Event("shuffle"))
    wager(t, 1, "six_card_fortune", 1000)
    assert t.model.round_no == 2 and t.model.hands["1"] == []
