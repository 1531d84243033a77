"""Double Attack Blackjack scenario files (tests/scenarios/double-attack-blackjack/NAME.json with
NAME.expect.json): each is played through `controller.lab.scenario.play` and must give exactly the
expected output, or be refused naming the problem and the section; some go through
`tablectl play` in a subprocess, as a lab runs them."""
import os

import pytest

from controller.lab import scenario
from tests.scenarios import harness

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GAME = "double-attack-blackjack"
FOLDER = harness.folder(GAME)
# Played by the command line too: the format's own example, splits, a dealer Blackjack,
# and every refusal (exit 2, one line on stderr).
VIA_CLI = ("format-example", "resplit-to-four-hands", "dealer-blackjack-ends-the-round")
# The sections the files must cover between them (581.6-581.13 as the firmware enforces them).
SECTIONS = (
    "581.3(a)", "581.6(d)", "581.6(e)", "581.6(f)", "581.7(e)", "581.7(f)", "581.7(g)",
    "581.7(h)", "581.7(h)(1)", "581.7(h)(2)", "581.7(i)", "581.7(j)(1)", "581.7(j)(2)",
    "581.7(k)", "581.7(m)(1)", "581.7(m)(2)(i)", "581.7(m)(2)(ii)", "581.7(n)",
    "581.7(o)(1)(i)(A)", "581.7(o)(1)(i)(B)", "581.7(o)(1)(i)(C)", "581.7(o)(1)(ii)(A)",
    "581.7(o)(1)(ii)(B)", "581.7(o)(1)(ii)(C)", "581.7(o)(1)(iii)", "581.7(o)(2)",
    "581.8(a)", "581.8(b)", "581.8(c)", "581.8(d)", "581.9(a)", "581.9(b)(1)",
    "581.9(b)(2)(ii)", "581.9(c)", "581.9(d)", "581.10(a)", "581.11(a)", "581.11(b)",
    "581.11(c)", "581.11(e)", "581.12(a)", "581.12(b)", "581.12(c)")
# 581.13(e) (too few cards left to finish the round) is not a scenario's: the listed cards are
# the top of a whole 384-card batch (../shared/scenario-format.md), so a scenario's round never
# runs the shoe out; tests/games/test_double_attack.py plays it through the irregularity event.


_load = harness.load


def _expectations():
    return harness.expectations(GAME)


test_every_scenario_has_its_expectation, test_scenario, test_scenario_through_tablectl_play = \
    harness.standard_tests(GAME, 50, VIA_CLI)


def test_the_files_cover_every_enforced_section():
    covered = {e["section"] for e in _expectations().values()}
    assert sorted(set(SECTIONS) - covered) == []


@pytest.mark.reg("581.7(e)")
def test_the_formats_example_prints_exactly_its_output():
    """scenario-format.md's example, its output as printed there."""
    expected = {"game": "double-attack-blackjack", "status": "settled",
                "seats": {"1": {"net": 2000,
                                "wagers": {"bet": {"result": "win", "net": 1000},
                                           "double_attack": {"result": "win", "net": 1000}}}},
                "dealer": {"cards": ["6h", "Kc", "7s"]}}
    out = scenario.play(_load(os.path.join(FOLDER, "format-example.json")))
    assert out == expected
    assert list(out) == list(expected) and list(out["seats"]["1"]["wagers"]) == [
        "bet", "double_attack"]


@pytest.mark.reg("581.12(c)")
def test_every_bust_it_row_pays_in_some_scenario():
    """Between them the files pay every row of the 581.12(c) paytable, each at its odds."""
    from controller.rules import paytables as pt
    table = pt.get("double-attack-blackjack", "bust_it")
    paid = set()
    for name, expect in _expectations().items():
        out = expect.get("output")
        if not out:
            continue
        doc = _load(os.path.join(FOLDER, name + ".json"))
        for seat, res in out["seats"].items():
            r = res["wagers"].get("bust_it")
            if r and r["result"] == "win":
                paid.add(r["net"] // doc["seats"][seat]["bust_it"])
    assert paid == {pay.num for _, pay in table.rows}


def test_a_deck_key_of_the_wrong_shape_is_refused_in_one_line():
    doc = {"game": GAME, "cards": ["6h"], "deck": {"lost": ["As"]}, "seats": {"1": {"bet": 100}}}
    with pytest.raises(scenario.ScenarioError, match=r"deck must be \{\"missing\""):
        scenario.play(doc)
    doc["deck"] = {"missing": ["Ts"]}
    with pytest.raises(scenario.ScenarioError, match="deck.missing: Ts is not a card of this"):
        scenario.play(doc)


@pytest.mark.reg("581.3(a)")
def test_a_card_listed_more_often_than_the_batch_holds_needs_deck_extra():
    nine = ["9s"] * 9
    doc = {"game": GAME, "cards": ["6h"] + nine, "seats": {"1": {"bet": 100}},
           "actions": [{"seat": 1, "action": "stand"}]}
    with pytest.raises(scenario.ScenarioError, match=r"one 9s too many.*581.3\(a\)"):
        scenario.play(doc)
    doc["deck"] = {"extra": ["9s"]}
    out = scenario.play(doc)
    assert out["dealer"]["cards"][:2] == ["6h", "9s"]


def _whole_batch_but(game, leave_out):
    """Every card of the game's batch in the deck's order, less the codes in `leave_out`."""
    runner = scenario.Runner({"game": game, "seats": {}})
    batch = list(runner.cards) + [runner.burn]
    for code in leave_out:
        batch.remove(code)
    return batch


@pytest.mark.reg("581.7(c)")
def test_the_runner_burns_the_new_batchs_first_card_as_the_table_does():
    """A listing of all 384 cards leaves none for the burn card, which the format does not
    list: refused naming 581.7(c). With one card left out, that card is the one burned: the
    shuffle reports it, the table discards it and counts it against the batch."""
    every = _whole_batch_but(GAME, [])
    assert len(every) == 384
    doc = {"game": GAME, "cards": every, "seats": {"1": {"bet": 100}},
           "actions": [{"seat": 1, "action": "stand"}]}
    with pytest.raises(scenario.ScenarioError, match=r"no card .* burn card .*581\.7\(c\)"):
        scenario.play(doc)
    doc["cards"] = ["6h", "Kc"] + _whole_batch_but(GAME, ["6h", "Kc", "Ad"])
    runner = scenario.Runner(doc)
    out = runner.run()
    assert runner.burn == "Ad"
    assert out["status"] == "settled"
    assert runner.model.shoe_seen["Ad"] == 1            # the one Ad: burned, never dealt
    assert sum(runner.model.shoe_seen.values()) == 1 + runner.next_card
