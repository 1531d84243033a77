"""Flop Poker scenario files (tests/scenarios/flop-poker/NAME.json with NAME.expect.json): each
is played through `controller.lab.scenario.play` and must give exactly the expected output, worked
out by hand from the 583.12 paytables, or be refused naming the problem; a few go through
`tablectl play` in a subprocess, which is what a lab runs."""
import glob
import os

import pytest

from tests.scenarios import harness

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GAME = "flop-poker"
FOLDER = harness.folder(GAME)
# Played by the command line as well: every refusal and a few settled rounds.
VIA_CLI = ("six-players", "automated-shoe-deals-stacks-and-burns-no-card",
           "identical-hands-split-the-pot")


_load = harness.load


test_every_scenario_has_its_expectation, test_scenario, test_scenario_through_tablectl_play = \
    harness.standard_tests(GAME, 30, VIA_CLI)


def _ratios(wager, stake):
    """Net over the stake of every winning `wager` in the settled files, and whether one lost."""
    ratios, lost = set(), False
    for exp_path in glob.glob(os.path.join(FOLDER, "*.expect.json")):
        out = _load(exp_path).get("output")
        if not out:
            continue
        doc = _load(exp_path[:-len(".expect.json")] + ".json")
        for seat, s in out["seats"].items():
            r = s["wagers"].get(wager)
            if r and r["result"] == "win":
                ratios.add(r["net"] // doc["seats"][seat][stake])
            lost = lost or bool(r and r["result"] == "lose")
    return ratios, lost


@pytest.mark.reg("583.12(c)")
def test_every_three_card_bonus_payout_is_in_some_scenario():
    """Royal 100, straight flush 50, trips 25, straight 6, flush 3 and pair 1 to 1, and a loss."""
    assert _ratios("three_card_bonus", "three_card_bonus") == ({100, 50, 25, 6, 3, 1}, True)


@pytest.mark.reg("583.12(b)")
def test_every_flop_wager_payout_is_in_some_scenario():
    """1,000, 500, 100, 30, 20, 10, 4, 2 and 1 to 1, and a loss (the Flop Wager is the Ante's)."""
    assert _ratios("flop", "ante") == ({1000, 500, 100, 30, 20, 10, 4, 2, 1}, True)
