"""Raise It Up Stud Poker's deck and devices, event by event: the shuffle after every round,
the counting shuffler, the cut, two decks and the deck's hours (669a.3, 669a.5), the stub count
(669a.8(f)-(h) and its twins), the irregularities of 669a.13 and 669a.11(a)(3), and device
faults and lock-outs."""
import pytest

from controller import config as configuration
from controller.errors import ConfigError
from controller.games.engine import IllegalEvent
from controller.games.events import Event
from controller.games.scenario_answers import answers_for
from controller.games.single_deck.raise_it_up import RaiseItUpStud as RIU
from tests.games.test_raise_it_up import A500, HOUR, act, dealt, drive, irregular, opened, \
    results, table, wagers


# ---- the shuffle and the deck (669a.3(c), 669a.5) --------------------------------------------

@pytest.mark.reg("669a.5(a)")
def test_the_cards_are_shuffled_after_every_round():
    t = opened()
    dealt(t, {1: A500}, {"1": ["2c", "3d", "9h"]}, ["5s", "Th", "Js"])
    drive(t, actions=[(1, "play", 500)])
    with pytest.raises(IllegalEvent, match=r"reshuffled.*669a.5\(a\)"):
        wagers(t, {1: A500})
    t.handle(Event("shuffle"))
    wagers(t, {1: A500})
    assert t.state == "wagers_open" and t.model.round_no == 2
    with pytest.raises(IllegalEvent, match=r"not while wagers_open \(669a.5\(a\)\)"):
        t.handle(Event("shuffle"))


@pytest.mark.reg("669a.5(b)")
def test_a_counting_shuffler_that_finds_other_than_52_cards_removes_the_deck():
    t = table(options={"shuffler": "counting"})
    t.handle(Event("open_table"))
    t.handle(Event("shuffle", {"count": 52}))
    assert t.state == "shuffled"
    dealt(t, {1: A500}, {"1": ["2c", "3d", "9h"]}, ["5s", "Th", "Js"])
    drive(t, actions=[(1, "play", 500)])
    t.handle(Event("shuffle", {"count": 51}))
    assert t.state == "deck_removed" and "669a.5(b)" in t.model.deck_reason
    t.handle(Event("new_deck"))
    t.handle(Event("shuffle", {"count": 52}))
    assert t.state == "shuffled"


@pytest.mark.reg("669a.5(d)")
def test_the_cover_card_goes_at_least_ten_cards_in():
    t = table()
    t.handle(Event("open_table"))
    with pytest.raises(IllegalEvent, match=r"at least ten cards in from the top, not 9 "
                                           r"\(669a.5\(d\)\)"):
        t.handle(Event("shuffle", {"cut": 9}))
    t.handle(Event("shuffle", {"cut": 10}))
    assert t.state == "shuffled"


@pytest.mark.reg("669a.3(b)")
def test_two_decks_only_with_an_automated_shuffler():
    t = table()
    with pytest.raises(IllegalEvent, match=r"2 decks.*669a.3\(a\), \(b\)"):
        t.handle(Event("open_table", {"decks": 2}))
    t = table(options={"shuffler": "automated"})
    t.handle(Event("open_table", {"decks": 2}))
    assert t.model.decks == 2


@pytest.mark.reg("669a.9(a)(1)")
def test_dealing_by_hand_needs_an_automated_shuffler():
    with pytest.raises(ConfigError, match=r"options.dealing = 'hand' needs an automated card "
                                          r"shuffling device \(669a.9\(a\)\(1\)\)"):
        table(options={"dealing": "hand"})
    assert table(options={"dealing": "hand", "shuffler": "automated"}).model.dealing == "hand"


@pytest.mark.reg("669a.3(c)(2)")
def test_a_deck_dealt_from_a_shoe_is_changed_after_8_hours():
    t = table()
    t.handle(Event("open_table", ts_ns=0))
    t.handle(Event("shuffle", ts_ns=HOUR))
    t.handle(Event("wager", {"seat": 1, "wager": "ante", "amount": 500}, ts_ns=8 * HOUR))
    with pytest.raises(IllegalEvent, match=r"more than 8 hours.*669a.3\(c\)\(2\)"):
        t.handle(Event("wager", {"seat": 1, "wager": "blind", "amount": 500},
                       ts_ns=8 * HOUR + 1))
    assert t.state == "deck_removed" and t.model.results == {"1": {"ante": ["returned", 0]}}


@pytest.mark.reg("669a.3(c)(1)")
def test_a_deck_dealt_by_hand_is_changed_after_4_hours():
    t = table(options={"dealing": "hand", "shuffler": "automated"})
    t.handle(Event("open_table", ts_ns=0))
    with pytest.raises(IllegalEvent, match=r"more than 4 hours.*669a.3\(c\)\(1\)"):
        t.handle(Event("shuffle", ts_ns=4 * HOUR + 1))
    assert t.state == "deck_removed"
    t.handle(Event("new_deck", ts_ns=5 * HOUR))
    t.handle(Event("shuffle", ts_ns=5 * HOUR))
    assert t.state == "shuffled"


@pytest.mark.reg("669a.8(f)")
def test_table_options_are_checked():
    with pytest.raises(ConfigError, match=r"options.dealing = 'pitch'.*669a.8-669a.10"):
        configuration.validate({"options": {"dealing": "pitch"}}, RIU)
    with pytest.raises(ConfigError, match=r"options.stub_count_every = 6.*once every 5 rounds"):
        configuration.validate({"options": {"stub_count_every": 6}}, RIU)
    with pytest.raises(ConfigError, match=r"options.shuffler = 'robot'"):
        configuration.validate({"options": {"shuffler": "robot"}}, RIU)


# ---- the stub count (669a.8(f)-(h), 669a.10(d)-(f)) -------------------------------------------

def rounds(t, n):
    for _ in range(n):
        dealt(t, {1: A500}, {"1": ["2c", "3d", "9h"]}, ["5s", "Th", "Js"])
        assert t.model.pending["need"] == "decision"
        drive(t, actions=[(1, "play", 500)])
        t.handle(Event("shuffle"))


@pytest.mark.reg("669a.8(f)", "669a.8(g)")
def test_the_stub_is_counted_at_least_once_every_5_rounds():
    t = opened()
    rounds(t, 4)
    dealt(t, {1: A500}, {"1": ["2c", "3d", "9h"]}, ["5s", "Th", "Js"])
    assert t.state == "counting_stub"
    assert t.model.pending == {"need": "stub_count", "section": "669a.8(f)"}
    with pytest.raises(IllegalEvent, match="no player decision is asked while counting_stub"):
        act(t, 1, "play", 500)
    with pytest.raises(IllegalEvent, match="give 'count' .* or 'stub'"):
        irregular(t, "stub_count", count=52, stub=46)
    irregular(t, "stub_count", stub=46)          # 46 in the stub + 3 to the seat + 3 community
    assert t.state == "before_4th_street"
    assert [w for w, _ in t.model.record if w.startswith("stub")] == ["stub_count",
                                                                     "stub_discarded"]
    drive(t, actions=[(1, "play", 500)])
    assert t.state == "settled" and t.model.stub_rounds == 0


@pytest.mark.reg("669a.8(f)")
def test_the_house_may_count_more_often_never_with_a_counting_shuffler():
    t = opened(options={"stub_count_every": 2})
    rounds(t, 1)
    wagers(t, {1: A500})
    t.handle(Event("no_more_bets"))
    with pytest.raises(IllegalEvent, match=r"counted after the deal.*not while dealing "
                                           r"\(669a.8\(f\)\)"):
        irregular(t, "stub_count", count=52)
    drive(t, ["2c", "3d", "9h", "5s", "Th", "Js"])
    irregular(t, "stub_count", count=52)
    drive(t, actions=[(1, "play", 500)])
    assert t.model.stub_rounds == 0
    c = opened(options={"shuffler": "counting"})
    rounds(c, 5)
    assert c.model.stub_rounds == 5
    dealt(c, {1: A500}, {"1": ["2c", "3d", "9h"]}, ["5s", "Th", "Js"])
    assert c.state == "before_4th_street"


@pytest.mark.reg("669a.8(h)")
def test_a_wrong_stub_count_with_a_misdeal_voids_the_round():
    t = opened()
    rounds(t, 4)
    dealt(t, {1: dict(A500, progressive=100)}, {"1": ["2c", "3d", "9h"]}, ["5s", "Th", "Js"])
    with pytest.raises(IllegalEvent, match=r"shows 51 cards, not 52: the dealer determines "
                                           r"whether the cards were misdealt.*669a.8\(h\)"):
        irregular(t, "stub_count", stub=45)
    irregular(t, "stub_count", stub=45, misdealt=True)
    assert t.state == "voided" and t.model.status == "void"
    assert t.model.results == {"1": {"ante": ["returned", 0], "blind": ["returned", 0],
                                     "progressive": ["returned", 0]}}
    assert "669a.8(h)" in t.model.void_reason
    assert t.model.meter["value"] == 100000      # the returned wager's 14 cents taken back
    t.handle(Event("shuffle"))
    assert t.state == "shuffled"


@pytest.mark.reg("669a.10(f)")
def test_a_wrong_stub_count_without_a_misdeal_voids_and_removes_the_deck():
    t = opened(options={"dealing": "automated_shoe"})
    rounds(t, 4)
    dealt(t, {1: A500}, {"1": ["2c", "3d", "9h"]}, ["5s", "Th", "Js"])
    assert t.model.pending["section"] == "669a.10(d)"
    irregular(t, "stub_count", count=53, misdealt=False)
    assert t.state == "deck_removed" and t.model.status == "void"
    assert "669a.10(f)" in t.model.deck_reason
    assert t.model.results == {"1": {"ante": ["returned", 0], "blind": ["returned", 0]}}
    t.handle(Event("new_deck"))
    assert t.model.stub_rounds == 0


# ---- irregularities (669a.11(a)(3), 669a.13) -------------------------------------------------

@pytest.mark.reg("669a.13(a)")
def test_one_card_found_face_up_is_discarded_a_second_voids_the_round():
    t = opened()
    wagers(t, {1: A500, 2: A500})
    t.handle(Event("no_more_bets"))
    t.handle(Event("card", {"card": "2c"}))
    irregular(t, "card_face_up", card="Ah")
    assert t.model.pending["for"] == "seat 2, card 1"     # not used: the next card goes there
    t.handle(Event("card", {"card": "3c"}))
    assert t.model.hands == {"1": ["2c"], "2": ["3c"]} and t.model.shoe_out == ["2c", "Ah", "3c"]
    with pytest.raises(IllegalEvent, match="a second Ah"):
        t.handle(Event("card", {"card": "Ah"}))
    irregular(t, "card_face_up", card="Kh")
    assert t.state == "voided" and "669a.13(a)" in t.model.void_reason
    assert t.model.results == {s: {"ante": ["returned", 0], "blind": ["returned", 0]}
                               for s in ("1", "2")}


@pytest.mark.reg("669a.13(a)", "669a.8(f)")
def test_a_card_discarded_face_up_is_out_of_the_stub():
    t = opened(options={"stub_count_every": 1})
    wagers(t, {1: A500})
    t.handle(Event("no_more_bets"))
    irregular(t, "card_face_up", card="Ah")
    drive(t, ["2c", "3d", "9h", "5s", "Th", "Js"])
    irregular(t, "stub_count", stub=45)          # 45 + 6 dealt + 1 discarded = 52
    assert t.state == "before_4th_street"


@pytest.mark.reg("669a.13(b)")
def test_a_card_drawn_in_error_unexposed_is_used_as_the_next_card():
    t = opened()
    wagers(t, {1: A500})
    t.handle(Event("no_more_bets"))
    irregular(t, "card_drawn_in_error")
    t.handle(Event("card", {"card": "9d"}))
    assert t.model.hands == {"1": ["9d"]} and t.state == "dealing"
    drive(t, ["9s", "Tc", "2h", "5d", "7c"])
    with pytest.raises(IllegalEvent, match=r"no card is being dealt.*669a.13\(b\)"):
        irregular(t, "card_drawn_in_error")
    drive(t, actions=[(1, "check"), (1, "check"), (1, "fold")])
    assert t.model.status == "settled"


@pytest.mark.reg("669a.13(c)")
def test_an_incorrect_number_of_cards_voids_the_round():
    for where in (2, "community"):
        t = opened()
        dealt(t, {1: A500, 2: dict(A500, pair_plus=100)},
              {"1": ["2c", "3d", "9h"], "2": ["Kc", "Kd", "4h"]}, ["5s", "Th", "Js"])
        act(t, 1, "play", 1500)
        irregular(t, "wrong_number_of_cards", to=where)
        assert t.state == "voided" and "669a.13(c)" in t.model.void_reason
        assert t.model.results["1"] == {"ante": ["returned", 0], "blind": ["returned", 0],
                                        "play": ["returned", 0]}
        assert t.model.results["2"]["pair_plus"] == ["returned", 0]
    t = opened()
    dealt(t, {1: A500}, {"1": ["2c", "3d", "9h"]}, ["5s", "Th", "Js"])
    with pytest.raises(IllegalEvent, match=r"'to' is a seat in this round \(1\) or "
                                           r"'community', not 3"):
        irregular(t, "wrong_number_of_cards", to=3)


@pytest.mark.reg("669a.13(d)")
def test_a_community_card_exposed_before_its_reveal_voids_the_round():
    t = opened()
    dealt(t, {1: dict(A500, progressive=100), 2: dict(A500, progressive=500), 3: A500},
          {"1": ["2c", "3d", "9h"], "2": ["Kc", "Kd", "4h"], "3": ["6c", "6d", "7h"]},
          ["5s", "Th", "Js"])
    assert t.model.meter["value"] == 100084
    drive(t, actions=[(1, "check"), (2, "check"), (3, "check"),
                      (1, "check"), (2, "play", 1000), (3, "check"), (1, "fold")])
    assert t.model.results["1"]["ante"] == ["lose", -500] and t.model.pending["seat"] == "3"
    irregular(t, "community_card_exposed")
    assert t.state == "voided" and "669a.13(d)" in t.model.void_reason
    # every wager back, the folded Ante and Blind and the Play Wager included
    assert t.model.results == {
        "1": {"ante": ["returned", 0], "blind": ["returned", 0], "progressive": ["returned", 0]},
        "2": {"ante": ["returned", 0], "blind": ["returned", 0], "progressive": ["returned", 0],
              "play": ["returned", 0]},
        "3": {"ante": ["returned", 0], "blind": ["returned", 0]}}
    assert t.model.meter["value"] == 100000 and t.model.meter["wagers"] == 0
    assert answers_for(t.model).summary() == {"community": ["5s", "Th", "Js"], "meter": 100000}
    with pytest.raises(IllegalEvent, match=r"no round is being played while voided"):
        irregular(t, "community_card_exposed")


@pytest.mark.reg("669a.11(a)(3)")
def test_a_player_who_shares_his_hand_forfeits_every_wager_and_is_asked_nothing_more():
    t = opened()
    dealt(t, {1: dict(A500, pair_plus=100), 2: A500},
          {"1": ["Tc", "Td", "9h"], "2": ["Kc", "Kd", "4h"]}, ["5s", "Th", "Js"])
    act(t, 1, "play", 1000)
    irregular(t, "information_exchanged", seat=1)
    assert t.model.pending["seat"] == "2"
    drive(t, actions=[(2, "check"), (2, "check"), (2, "play", 500)])
    assert results(t) == {
        "1": {"ante": ("lose", -500), "blind": ("lose", -500), "pair_plus": ("lose", -100),
              "play": ("lose", -1000)},
        # pair of kings: Ante 1 to 1, Play 1 to 1, Blind pushes
        "2": {"ante": ("win", 500), "play": ("win", 500), "blind": ("push", 0)}}
    with pytest.raises(IllegalEvent, match="no round is being played"):
        irregular(t, "information_exchanged", seat=2)


def test_unknown_irregularity_is_named():
    t = opened()
    wagers(t, {1: A500})
    t.handle(Event("no_more_bets"))
    with pytest.raises(IllegalEvent, match="unknown irregularity 'spilled_drink'"):
        irregular(t, "spilled_drink")


# ---- device faults (669a.13(e)-(g)) ----------------------------------------------------------

@pytest.mark.reg("669a.13(e)")
def test_a_shuffler_that_jams_locks_the_table_and_the_cards_are_reshuffled():
    t = opened(options={"shuffler": "automated"})
    t.handle(Event("fault", {"device": "shuffler", "reason": "jam"}))
    assert t.state == "locked_out" and t.model.lockout["section"] == "669a.13(e)"
    t.handle(Event("clear", {"role": "technician", "selftest": True}))
    with pytest.raises(IllegalEvent, match=r"reshuffled.*669a.13\(e\)"):
        wagers(t, {1: A500})
    t.handle(Event("shuffle"))
    wagers(t, {1: A500})
    assert t.state == "wagers_open"
    with pytest.raises(IllegalEvent, match=r"fault of the dealing shoe: this table has none"):
        t.handle(Event("fault", {"device": "dealing_shoe", "reason": "jam"}))


@pytest.mark.reg("669a.13(f)")
def test_an_automated_shoe_that_fails_mid_round_voids_it():
    t = opened(options={"dealing": "automated_shoe"})
    wagers(t, {1: A500, 2: A500})
    t.handle(Event("no_more_bets"))
    t.handle(Event("card", {"cards": ["2c", "3c", "4c"]}))
    t.handle(Event("fault", {"device": "dealing_shoe", "reason": "stopped dealing"}))
    assert t.state == "locked_out" and t.model.status == "void"
    assert "669a.13(f)" in t.model.void_reason and t.model.lockout["section"] == "669a.13(f)"
    with pytest.raises(IllegalEvent, match="self-test"):
        t.handle(Event("clear", {"role": "floorperson", "selftest": False}))
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    assert t.state == "voided"
    with pytest.raises(IllegalEvent, match=r"reshuffled.*669a.13\(f\)"):
        wagers(t, {1: A500})
    t.handle(Event("shuffle"))
    assert t.state == "shuffled"


@pytest.mark.reg("669a.13(g)")
def test_a_device_out_of_order_is_covered_before_another_method_is_used():
    t = opened(options={"dealing": "automated_shoe"})
    with pytest.raises(IllegalEvent, match=r"covered or signed out of order.*669a.13\(g\)"):
        irregular(t, "device_out_of_order", device="dealing_shoe")
    with pytest.raises(IllegalEvent, match=r"no automated shuffler in use \(669a.13\(g\)\)"):
        irregular(t, "device_out_of_order", device="shuffler", covered=True)
    irregular(t, "device_out_of_order", device="dealing_shoe", covered=True)
    wagers(t, {1: A500})
    t.handle(Event("no_more_bets"))
    assert t.model.pending == {"need": "card", "for": "seat 1, card 1"}   # from a manual shoe
    with pytest.raises(IllegalEvent, match=r"between rounds, not while dealing"):
        irregular(t, "device_out_of_order", device="dealing_shoe", covered=True)


@pytest.mark.reg("669a.13(g)")
def test_the_cards_are_shuffled_by_hand_only_once_the_shuffler_is_covered():
    t = table(options={"shuffler": "automated"})
    t.handle(Event("open_table", {"decks": 2}))
    with pytest.raises(IllegalEvent, match=r"no shuffle by hand.*\(669a.13\(g\)\)"):
        t.handle(Event("shuffle", {"by": "hand"}))
    irregular(t, "device_out_of_order", device="shuffler", covered=True)
    assert (t.model.shuffler, t.model.decks) == ("manual", 1)
    t.handle(Event("shuffle", {"by": "hand"}))
    assert t.state == "shuffled"
    t.handle(Event("close_table"))
    t.handle(Event("open_table"))                  # reopened: the shuffler is back in service
    with pytest.raises(IllegalEvent, match=r"669a.13\(g\)"):
        t.handle(Event("shuffle", {"by": "hand"}))
    t.handle(Event("shuffle", {"by": "shuffler"}))
    assert t.state == "shuffled"


@pytest.mark.reg("669a.2(c)(2)")
def test_a_fault_of_the_progressive_system_locks_the_table():
    t = opened()
    wagers(t, {1: dict(A500, progressive=100)})
    t.handle(Event("fault", {"device": "progressive", "reason": "lock-out button"}))
    assert t.state == "locked_out"
    with pytest.raises(IllegalEvent, match="wagers are not open"):
        wagers(t, {2: A500})
    t.handle(Event("clear", {"role": "floorperson", "selftest": True}))
    assert t.state == "wagers_open"
