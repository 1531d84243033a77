"""Six-Card Fortune Pai Gow Poker scenario files (tests/scenarios/six-card-fortune-pai-gow/NAME.json
with NAME.expect.json): each stacked 53-card deck is played through `controller.lab.scenario.play` and
must give exactly the expected output (worked out by hand from 670a.11 and the 670a.12 paytables),
or be refused naming the problem and the section; some go through `tablectl play` in a subprocess,
as a lab runs them."""
import os

import pytest

from tests.scenarios import harness

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GAME = "six-card-fortune-pai-gow"
FOLDER = harness.folder(GAME)
# Played by the command line too: a settled round with every optional wager's kind, a meter
# payout, a void round, the dice, and every refusal (exit 2, one line on stderr).
VIA_CLI = ("fortune-bonus-envy-for-every-other-players-hand",
           "progressive-five-aces-takes-the-meter-and-envy",
           "a-deck-one-card-short-voids-and-leaves-the-table",
           "dice-total-nine-deals-seat-6-first")
# The sections the files must cover between them.
SECTIONS = (
    "670a.1", "670a.3(a)", "670a.5(i)", "670a.5(i)(1)", "670a.5(i)(2)", "670a.6(c)",
    "670a.7(c)", "670a.7(d)", "670a.7(e)(1)", "670a.7(e)(3)", "670a.8(d)", "670a.8(f)",
    "670a.10(c)", "670a.11(b)", "670a.11(c)", "670a.11(d)(1)(i)", "670a.11(d)(1)(ii)",
    "670a.11(d)(2)", "670a.11(d)(3)", "670a.11(d)(4)", "670a.11(d)(6)", "670a.11(e)",
    "670a.11(f)(1)(i)", "670a.11(f)(1)(ii)", "670a.11(f)(1)(iii)", "670a.11(f)(1)(iv)",
    "670a.11(f)(1)(v)", "670a.11(f)(2)(i)", "670a.11(f)(2)(ii)", "670a.11(f)(3)",
    "670a.11(g)(1)", "670a.11(g)(2)", "670a.11(h)(1)(i)(A)", "670a.11(h)(1)(ii)",
    "670a.11(h)(2)(i)", "670a.11(h)(3)(i)(B)", "670a.11(h)(3)(ii)", "670a.12(b)(1)",
    "670a.12(b)(2)", "670a.12(c)", "670a.12(d)(1)", "670a.12(d)(3)", "670a.12(d)(4)")


_load = harness.load


def _expectations():
    return harness.expectations(GAME)


test_every_scenario_has_its_expectation, test_scenario, test_scenario_through_tablectl_play = \
    harness.standard_tests(GAME, 50, VIA_CLI)


def test_the_files_cover_every_section_listed():
    covered = {e["section"] for e in _expectations().values()}
    assert sorted(set(SECTIONS) - covered) == []


def test_a_settled_round_is_dealt_from_a_whole_deck():
    """A round played to its end deals from all 53 cards (670a.3(a)): its list is the top of
    the deck, each card once, and it says no card is missing or extra; a deck that is not
    whole (`deck`) is found short or long at the stub count (670a.8(e)) and voids the round."""
    for name, expect in _expectations().items():
        doc = _load(os.path.join(FOLDER, name + ".json"))
        status = expect.get("output", {}).get("status")
        if status == "settled":
            assert len(doc["cards"]) == len(set(doc["cards"])) <= 53, name
            assert not doc.get("deck"), name
        if doc.get("deck"):
            assert status == "void", name


@pytest.mark.reg("670a.12")
def test_every_paying_row_of_670a_12_is_reached_by_some_file():
    """Between them the files pay every Fortune Bonus, Insurance and Progressive row once."""
    from controller.rules import paytables as pt
    nets = {}
    for expect in _expectations().values():
        for seat in expect.get("output", {}).get("seats", {}).values():
            for wager, r in seat["wagers"].items():
                nets.setdefault(wager, set()).add(r["net"])
    # at $1 each row pays a distinct net: N to 1 is 100 N, N for 1 is 100 (N - 1)
    fb = {100 * p.num for _, p in pt.get(pt.SCF, "fortune_bonus").rows}
    ins = {100 * p.num for _, p in pt.get(pt.SCF, "insurance").rows}
    fixed = {100 * (p.num - 1) for _, p in pt.get(pt.SCF, "progressive").rows if p.kind == pt.FOR}
    assert fb <= nets["fortune_bonus"] and ins <= nets["insurance"]
    assert fixed <= nets["progressive"]
