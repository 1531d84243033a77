"""The twin procedures, each through its own path: Flop Poker and Raise It Up Stud dealt from a
manual shoe, from the hand or from an automated dealing shoe (583.8-583.10, 669a.8-669a.10).

The texts repeat each step once per procedure (the stub count is 583.8(e), 583.9(e) and
583.10(d)); the code shares the mechanism, so every test here runs once per procedure and
names that procedure's own subsection, and checks the section the journal records is that
procedure's too: a table dealing by hand that cited the manual shoe's rule would be caught.
"""
import pytest

from controller.games.engine import IllegalEvent
from controller.games.events import Event
from tests.games import test_flop_poker as flop
from tests.games import test_raise_it_up as riu

PROCEDURES = ("manual_shoe", "hand", "automated_shoe")


def options(dealing, **more):
    opts = {"dealing": dealing}
    if dealing == "hand":
        opts["shuffler"] = "automated"      # 583.9(a)(1), 669a.9(a)(1)
    opts.update(more)
    return opts


def by_procedure(sections, *also):
    """One param per procedure, marked with that procedure's section (and any shared ones)."""
    return [pytest.param(dealing, section, id=dealing,
                         marks=pytest.mark.reg(section, *also))
            for dealing, section in zip(PROCEDURES, sections)]


def sections_noted(t):
    return [(what, d.get("section")) for what, d in t.model.record]


# ---- Flop Poker (583.8, 583.9, 583.10) -------------------------------------------------------

FLOP_SEAT = {1: {"ante": 500, "pot": 100}}
# one card at a time: seat 1's three cards; after the decisions the burn and the flop
FLOP_CARDS = ["2c", "7h", "4s", "5h", "9d", "Jd", "Kd"]
# automated shoe: seat 1's stack, then the community stack (no burn, 583.11(c))
FLOP_STACKS = ["2c", "7h", "4s", "9d", "Jd", "Kd"]


def flop_round(dealing, actions=((1, "flop"),), **more):
    t = flop.opened(options=options(dealing, **more))
    cards = FLOP_STACKS if dealing == "automated_shoe" else FLOP_CARDS
    flop.place(t, FLOP_SEAT)
    t.handle(Event("no_more_bets"))
    asked = flop.run(t, cards, list(actions))
    return t, asked


@pytest.mark.parametrize("dealing,section", by_procedure(("583.8(b)", "583.9(b)", "583.10(a)")))
def test_flop_no_more_bets_before_the_first_card_and_the_pots_to_the_centre(dealing, section):
    t = flop.opened(options=options(dealing))
    flop.place(t, FLOP_SEAT)
    t.handle(Event("no_more_bets"))
    pots = {"manual_shoe": "583.8(b)", "hand": "583.9(b)", "automated_shoe": "583.10(a)(2)"}
    assert ("pot_to_centre", pots[dealing]) in sections_noted(t)
    with pytest.raises(IllegalEvent, match=r"no more bets. was called"):
        flop.wager(t, 2, "ante", 500)


@pytest.mark.parametrize("dealing,section", by_procedure(("583.8(d)", "583.9(d)", "583.10(c)")))
def test_flop_community_cards_come_after_the_players_cards(dealing, section):
    t, asked = flop_round(dealing)
    if dealing == "automated_shoe":
        # the community stack lies under the cover card while the players decide
        assert asked == ["seat 1"] * 3 + ["community"] * 3
    else:
        assert asked == ["seat 1"] * 3 + ["burn"] + ["community"] * 3
    assert t.state == "settled"


@pytest.mark.parametrize("dealing,section", by_procedure(("583.8(f)", "583.9(f)", "583.10(e)")))
def test_flop_a_right_stub_count_discards_the_stub_and_the_round_goes_on(dealing, section):
    t, _ = flop_round(dealing, stub_count_every=1)
    assert t.state == "stub_count"
    out = 6 if dealing == "automated_shoe" else 7
    t.handle(Event("irregularity", {"kind": "stub_count", "stub": 52 - out}))
    assert ("stub_discarded", section) in sections_noted(t)
    flop.run(t, [], [(1, "flop")])
    assert t.state == "settled"


@pytest.mark.parametrize("dealing,section", by_procedure(("583.8(g)", "583.9(g)", "583.10(f)")))
def test_flop_a_wrong_stub_count_voids_the_round(dealing, section):
    t, _ = flop_round(dealing, stub_count_every=1)
    with pytest.raises(IllegalEvent, match=r"misdealt.*%s" % section.replace("(", r"\(")
                       .replace(")", r"\)")):
        t.handle(Event("irregularity", {"kind": "stub_count", "count": 51}))
    t.handle(Event("irregularity", {"kind": "stub_count", "count": 51, "misdealt": True}))
    assert t.state == "voided" and section in t.model.void_reason
    assert all(r == ["returned", 0] for r in t.model.results["1"].values())
    t, _ = flop_round(dealing, stub_count_every=1)
    t.handle(Event("irregularity", {"kind": "stub_count", "count": 51, "misdealt": False}))
    assert t.state == "deck_removed" and section in t.model.deck_reason


@pytest.mark.parametrize("dealing", [pytest.param(d, id=d, marks=pytest.mark.reg("583.11(a)"))
                                     for d in PROCEDURES])
def test_flop_the_round_completes_the_same_way_whichever_procedure_dealt_it(dealing):
    # the same cards to the same places: 2c 7h 4s with 9d Jd Kd is king high, below jacks
    t, _ = flop_round(dealing)
    assert t.model.results == {"1": {"ante": ["lose", -500], "flop": ["lose", -500],
                                     "pot": ["push", 0]}}


# ---- Raise It Up Stud (669a.8, 669a.9, 669a.10) ----------------------------------------------

RIU_HAND = {"1": ["2c", "3d", "9h"]}
RIU_COMMUNITY = ["5s", "Th", "Js"]


def riu_dealt(dealing, **more):
    t = riu.opened(options=options(dealing, **more))
    riu.wagers(t, {1: riu.A500})
    t.handle(Event("no_more_bets"))
    asked = []
    cards = riu.shoe(RIU_HAND, RIU_COMMUNITY)
    while t.model.pending and t.model.pending["need"] in ("card", "stack"):
        asked.append(t.model.pending["for"])
        if t.model.pending["need"] == "stack":
            t.handle(Event("card", {"cards": [cards.pop(0) for _ in range(3)]}))
        else:
            t.handle(Event("card", {"card": cards.pop(0)}))
    return t, asked


@pytest.mark.parametrize("dealing,section", by_procedure(("669a.8(d)", "669a.9(b)", "669a.10(b)")))
def test_riu_the_deal_of_each_procedure(dealing, section):
    t, asked = riu_dealt(dealing)
    if dealing == "automated_shoe":
        assert asked[0] == "seat 1" and len(asked) == 2      # seat 1's stack, the community's
    else:
        assert asked == ["seat 1, card 1", "seat 1, card 2", "seat 1, card 3",
                         "community card 1", "community card 2", "community card 3"]
    t = riu.opened(options=options(dealing))
    riu.wagers(t, {1: riu.A500})
    escaped = section.replace("(", r"\(").replace(")", r"\)")
    with pytest.raises(IllegalEvent, match=escaped):
        t.handle(Event("card", {"card": "2c"}))         # before "no more bets"


@pytest.mark.parametrize("dealing,section", by_procedure(("669a.8(e)", "669a.9(c)", "669a.10(c)")))
def test_riu_the_stub_goes_to_the_discard_rack_unless_a_count_is_due(dealing, section):
    t, _ = riu_dealt(dealing)           # round 1 of 5: no count due
    assert t.model.pending["need"] == "decision" and not t.model.stub_counted
    with pytest.raises(IllegalEvent, match="stub is counted once the community cards are dealt"):
        riu.irregular(t, "stub_count", count=52)


@pytest.mark.parametrize("dealing,section", by_procedure(("669a.8(f)", "669a.9(d)", "669a.10(d)")))
def test_riu_the_stub_count_is_due_unless_the_shuffler_counts(dealing, section):
    t, _ = riu_dealt(dealing, stub_count_every=1)
    assert t.model.pending == {"need": "stub_count", "section": section}
    shuffler = "counting"
    t, _ = riu_dealt(dealing, stub_count_every=1, shuffler=shuffler)
    assert t.model.pending["need"] == "decision"


@pytest.mark.parametrize("dealing,section", by_procedure(("669a.8(g)", "669a.9(e)", "669a.10(e)")))
def test_riu_a_right_stub_count_discards_the_stub(dealing, section):
    t, _ = riu_dealt(dealing, stub_count_every=1)
    riu.irregular(t, "stub_count", stub=46)
    assert ("stub_discarded", section) in sections_noted(t)
    assert t.model.pending["need"] == "decision"


@pytest.mark.parametrize("dealing,section", by_procedure(("669a.8(h)", "669a.9(f)", "669a.10(f)")))
def test_riu_a_wrong_stub_count_voids_the_round(dealing, section):
    t, _ = riu_dealt(dealing, stub_count_every=1)
    riu.irregular(t, "stub_count", stub=45, misdealt=True)
    assert t.state == "voided" and section in t.model.void_reason
    t, _ = riu_dealt(dealing, stub_count_every=1)
    riu.irregular(t, "stub_count", count=53, misdealt=False)
    assert t.state == "deck_removed" and section in t.model.deck_reason


# ---- Six-Card Fortune Pai Gow (670a.8, 670a.9, 670a.10) --------------------------------------

from controller.errors import ConfigError                           # noqa: E402
from tests.games import six_card_fortune_table as scf                 # noqa: E402


def scf_dealt(dealing, seats=None, rng=lambda: 1):
    t = scf.opened(rng=rng, options=options(dealing))
    scf.place(t, seats or {2: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    order = []
    for code in scf.DECK[:42]:
        order.append(t.model.pending["for"])
        t.handle(Event("card", {"card": code}))
    return t, order


@pytest.mark.reg("670a.9(a)")
def test_scf_dealing_from_the_hand_needs_an_automated_shuffler():
    with pytest.raises(ConfigError, match=r"options.dealing = 'hand' needs an automated card "
                                          r"shuffling device \(670a.9\(a\)\(1\)\)"):
        scf.table(options={"dealing": "hand", "shuffler": "manual"})
    assert scf.table(options=options("hand")).model.option("dealing") == "hand"


@pytest.mark.parametrize("dealing,section",
                         by_procedure(("670a.8(b)", "670a.9(a)", "670a.10(a)")))
def test_scf_no_more_bets_names_the_procedure(dealing, section):
    t = scf.opened(options=options(dealing))
    scf.place(t, {2: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    nmb = {"manual_shoe": "670a.8(b)", "hand": "670a.9(a)(3)", "automated_shoe": "670a.10(a)(2)"}
    assert ("progressive_lockout", nmb[dealing] + "(2)") in sections_noted(t)
    with pytest.raises(IllegalEvent):
        scf.wager(t, 3, "six_card_fortune", 1000)


@pytest.mark.parametrize("dealing,section",
                         by_procedure(("670a.8(c)", "670a.9(b)", "670a.10(b)"), "670a.5(i)"))
def test_scf_the_starting_position_by_the_random_number_generator(dealing, section):
    t, order = scf_dealt(dealing, rng=lambda: 3)         # 3: counted from the dealer, seat 5
    starts = [d for what, d in t.model.record if what == "starting_position"]
    assert starts and starts[0]["method"] == "rng" and starts[0]["position"] == "5"
    assert order[0] == "seat 5"


@pytest.mark.parametrize("dealing,section",
                         by_procedure(("670a.8(d)", "670a.9(c)", "670a.10(c)")))
def test_scf_the_deal_of_each_procedure(dealing, section):
    t, order = scf_dealt(dealing)
    ring = ["dealer", "seat 1", "seat 2", "seat 3", "seat 4", "seat 5", "seat 6"]
    if dealing == "automated_shoe":
        assert order == [p for p in ring for _ in range(6)]      # stacks of six
    else:
        assert order == ring * 6                                 # one card at a time


@pytest.mark.parametrize("dealing,section",
                         by_procedure(("670a.8(e)", "670a.9(d)", "670a.10(d)")))
def test_scf_eleven_cards_left_and_the_round_goes_on(dealing, section):
    t, _ = scf_dealt(dealing)
    assert ("stub", section) in sections_noted(t)
    stub = [d for what, d in t.model.record if what == "stub"][0]
    assert stub["count"] == 11 and t.state == "players"
    scf.irregular(t, "stub_count", count=11)
    assert ("stub_counted", section) in sections_noted(t) and t.state == "players"


@pytest.mark.parametrize("dealing,section",
                         by_procedure(("670a.8(f)", "670a.9(e)", "670a.10(e)")))
def test_scf_a_wrong_number_left_voids_the_round(dealing, section):
    t, _ = scf_dealt(dealing)
    scf.irregular(t, "stub_count", count=12, misdealt=True)
    assert t.model.status == "void" and section in t.model.void_reason
    t.handle(Event("shuffle"))                                   # misdealt: the deck stays
    t, _ = scf_dealt(dealing)
    scf.irregular(t, "stub_count", count=10, misdealt=False)
    assert t.model.status == "void" and section in t.model.void_reason
    with pytest.raises(IllegalEvent, match="a new deck is needed"):
        t.handle(Event("shuffle"))


@pytest.mark.parametrize("dealing,section",
                         by_procedure(("670a.8(g)", "670a.9(f)", "670a.10(f)")))
def test_scf_stacks_without_a_wager_are_collected(dealing, section):
    t, _ = scf_dealt(dealing, seats={2: {"six_card_fortune": 1000},
                                     5: {"six_card_fortune": 1000}})
    collected = [(d["position"], d["section"]) for what, d in t.model.record
                 if what == "stack_collected"]
    assert collected == [(p, section) for p in ("1", "3", "4", "6")]


@pytest.mark.parametrize("dealing", [pytest.param(d, id=d, marks=pytest.mark.reg("670a.11(a)"))
                                     for d in PROCEDURES])
def test_scf_the_round_completes_the_same_way_whichever_procedure_dealt_it(dealing):
    t = scf.opened(options=options(dealing))
    results = scf.play(t, {3: {"six_card_fortune": 1000}},
                       {3: ["As", "Ad", "Kc", "Qs", "9h", "3d"], "dealer": scf.KINGS},
                       {"3": "Kc"})
    assert results == {"3": {"six_card_fortune": ["win", 1000]}}


@pytest.mark.reg("670a.4(b)")
def test_scf_one_joker_only_a_second_is_refused():
    t = scf.opened(options=options("manual_shoe"))
    scf.place(t, {2: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    t.handle(Event("card", {"card": "JK"}))
    with pytest.raises(scf_invalid_card(), match="JK has already left this deck"):
        t.handle(Event("card", {"card": "JK"}))


def scf_invalid_card():
    from controller.errors import InvalidCard
    return InvalidCard


# ---- the betting positions: no more than six (581.2(a), 670a.2(a)) ---------------------------

@pytest.mark.reg("581.2(a)", "670a.2(a)")
@pytest.mark.parametrize("game", ["double-attack-blackjack", "six-card-fortune-pai-gow"])
def test_a_seventh_betting_position_is_refused(game):
    from tests import builders
    t = builders.table(game)
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    first = t.model.REQUIRED_WAGERS[0]
    with pytest.raises(IllegalEvent, match=r"seat 7 does not exist: seats are 1..6"):
        t.handle(Event("wager", {"seat": 7, "wager": first, "amount": 1000}))
    t.handle(Event("wager", {"seat": 6, "wager": first, "amount": 1000}))


# ---- a device out of order is covered first (670a.13(n)) -------------------------------------

@pytest.mark.reg("670a.13(n)")
def test_scf_a_broken_shoe_is_covered_before_the_cards_are_dealt_another_way():
    t = scf.opened(options={"dealing": "automated_shoe", "shuffler": "automated"})
    t.handle(Event("fault", {"device": "dealing_shoe", "reason": "jam"}))
    assert t.state == "locked_out"
    with pytest.raises(IllegalEvent, match=r"covered or signed out of order.*670a.13\(n\)"):
        scf.irregular(t, "device_out_of_order", device="dealing_shoe")
    scf.irregular(t, "device_out_of_order", device="dealing_shoe", covered=True)
    assert t.model.lockout["covered"] is True
    assert t.model.option("dealing") == "manual_shoe"
    t.handle(Event("clear", {"role": "floorperson", "selftest": False}))   # covered: no test
    t.handle(Event("shuffle", {"by": "shuffler"}))
    order = []
    scf.place(t, {2: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    for code in scf.DECK[:7]:
        order.append(t.model.pending["for"])
        t.handle(Event("card", {"card": code}))
    assert len(set(order)) == 7                 # one card at a time, not stacks of six


@pytest.mark.reg("670a.13(n)")
def test_scf_no_shuffle_by_hand_until_the_automated_shuffler_is_covered():
    t = scf.opened(options={"dealing": "hand", "shuffler": "automated"})
    with pytest.raises(IllegalEvent, match=r"no shuffle by hand while the automated shuffler "
                                           r"is in use.*670a.13\(n\)"):
        t.handle(Event("shuffle", {"by": "hand"}))
    scf.irregular(t, "device_out_of_order", device="shuffler", covered=True)
    # dealing from the hand needs the shuffler (670a.9(a)(1)): a manual shoe from now on
    assert t.model.option("shuffler") == "manual" and t.model.option("dealing") == "manual_shoe"
    with pytest.raises(IllegalEvent, match=r"covered as out of order until the table is closed"):
        t.handle(Event("shuffle", {"by": "shuffler"}))
    t.handle(Event("shuffle", {"by": "hand"}))
    assert t.state == "shuffled"
    with pytest.raises(IllegalEvent, match=r"has no automated shuffler in use"):
        scf.irregular(t, "device_out_of_order", device="shuffler", covered=True)
