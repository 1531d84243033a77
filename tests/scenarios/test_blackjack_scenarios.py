"""Blackjack scenario files (tests/scenarios/blackjack/NAME.json with NAME.expect.json): each is
played through `controller.lab.scenario.play` and must give exactly the expected output, worked out
by hand from the default paytables (or the file's own configuration), or be refused naming the
problem and the section; some go through `tablectl play` in a subprocess, as a lab runs them."""
import os

import pytest

from controller.lab import scenario
from tests.scenarios import harness
from controller.rules import blackjack_side_payouts as P
from controller.rules import settle

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GAME = "blackjack"
FOLDER = harness.folder(GAME)
# Played by the command line too: a split with a double, a dealer Blackjack, a shared jackpot,
# House Money on the Blackjack Wager, a double shoe, and every refusal (exit 2, one line).
VIA_CLI = ("split-and-double-after-split", "dealer-blackjack-ends-the-round",
           "hit-and-run-jackpot-shared-equally", "house-money-added-then-doubled",
           "double-shoe-determinant-segregated")
# The sections the files must cover between them (633a.7 as the firmware enforces it; (a), (b)
# and (t) are the dealer's hands and the players' and are not seen by the controller; (c), (e)
# and (s) are in tests/games/test_blackjack.py).
SECTIONS = (
    "633a.7(d)(1)", "633a.7(d)(2)", "633a.7(f)", "633a.7(f)(1)", "633a.7(g)", "633a.7(g)(1)",
    "633a.7(g)(1)(i)", "633a.7(g)(1)(ii)", "633a.7(g)(2)", "633a.7(g)(3)(i)", "633a.7(g)(3)(ii)",
    "633a.7(g)(4)", "633a.7(g)(5)", "633a.7(g)(6)", "633a.7(g)(6)(i)", "633a.7(g)(6)(ii)",
    "633a.7(g)(7)", "633a.7(g)(8)", "633a.7(g)(9)", "633a.7(g)(10)", "633a.7(g)(10)(i)(A)",
    "633a.7(g)(10)(i)(B)", "633a.7(g)(10)(ii)", "633a.7(g)(10)(ii)(A)", "633a.7(g)(10)(ii)(B)",
    "633a.7(g)(10)(ii)(C)", "633a.7(h)", "633a.7(i)(1)(i)", "633a.7(i)(1)(ii)(A)",
    "633a.7(i)(1)(ii)(B)", "633a.7(i)(2)", "633a.7(j)", "633a.7(k)(1)", "633a.7(k)(2)",
    "633a.7(l)", "633a.7(m)", "633a.7(n)", "633a.7(o)(1)(i)", "633a.7(o)(1)(ii)(B)",
    "633a.7(o)(1)(ii)(C)", "633a.7(o)(2)(i)", "633a.7(o)(2)(ii)(B)", "633a.7(o)(2)(ii)(C)",
    "633a.7(o)(3)(i)(A)", "633a.7(o)(3)(i)(B)", "633a.7(o)(3)(i)(C)", "633a.7(o)(3)(i)(D)",
    "633a.7(o)(3)(ii)(B)", "633a.7(o)(3)(ii)(C)", "633a.7(p)(1)", "633a.7(p)(2)",
    "633a.7(p)(3)", "633a.7(q)", "633a.7(r)(1)", "633a.7(r)(2)")


_load = harness.load


def _expectations():
    return harness.expectations(GAME)


test_every_scenario_has_its_expectation, test_scenario, test_scenario_through_tablectl_play = \
    harness.standard_tests(GAME, 80, VIA_CLI)


def test_the_files_cover_every_enforced_section():
    covered = {e["section"] for e in _expectations().values()}
    assert sorted(set(SECTIONS) - covered) == []


def _paid(wager):
    """{net // amount} of every winning `wager` across the files that use the default
    paytables, from the expected outputs alone."""
    seen = set()
    for name, expect in _expectations().items():
        out = expect.get("output")
        doc = _load(os.path.join(FOLDER, name + ".json"))
        if not out or doc.get("config", {}).get("options", {}).get("side_paytables"):
            continue
        for seat, res in out["seats"].items():
            r = res["wagers"].get(wager)
            if r and r["result"] == settle.WIN:
                seen.add((r["net"], doc["seats"][seat][wager]))
    return seen


@pytest.mark.reg("633a.7(g)")
def test_the_files_pay_the_optional_wagers_at_their_default_odds():
    """The files' payouts agree with the shipped defaults (633a.13, configuration) row by row."""
    for wager in ("in_between", "three_card_poker", "kings_bounty", "lucky_ladies"):
        table = P.default_paytable(wager)
        odds = {p.num for _, p in table.rows}
        for net, amount in _paid(wager):
            assert net % amount == 0 and net // amount in odds, (wager, net, amount)


@pytest.mark.reg("633a.7(i)(1)(i)")
def test_the_default_blackjack_pays_3_to_2():
    out = scenario.play(_load(os.path.join(FOLDER, "blackjack-paid-at-once-against-2-to-9.json")))
    assert out["seats"]["1"]["wagers"]["blackjack"] == {"result": "win", "net": 1500}


@pytest.mark.reg("633a.7(c)")
def test_the_runner_burns_a_new_shoes_first_card_but_not_at_a_double_shoe():
    """633a.7(c) burns the first card of each batch; (d)'s double shoe burns none. The burn
    is the first card the listing leaves out, so all 312 cards listed leave none for it."""
    runner = scenario.Runner({"game": GAME, "seats": {}})
    every = list(runner.cards) + [runner.burn]
    assert runner.burn == "2s" and len(every) == 312
    doc = {"game": GAME, "cards": every, "seats": {"1": {"blackjack": 1000}},
           "actions": [{"seat": 1, "action": "stand"}]}
    with pytest.raises(scenario.ScenarioError, match=r"burn card .*633a\.7\(c\)"):
        scenario.play(doc)
    double = scenario.Runner(dict(doc, config={"options": {"double_shoe": True}}))
    assert double.burn is None and len(double.cards) == 312 * 2
