"""Props & Hops scenario files (tests/scenarios/props-and-hops/NAME.json with NAME.expect.json):
each is played through `controller.lab.scenario.play` and must give exactly the expected output
or be refused naming the problem; a few go through `tablectl play` in a subprocess, which is
what a lab runs."""
import glob
import os

import pytest

from tests.scenarios import harness

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GAME = "props-and-hops"
FOLDER = harness.folder(GAME)
# Played by the command line as well: every refusal, one settled round and one no roll.
VIA_CLI = ("every-wager-on-two-the-hardway", "no-roll-die-out-of-the-shaker")


_load = harness.load


test_every_scenario_has_its_expectation, test_scenario, test_scenario_through_tablectl_play = \
    harness.standard_tests(GAME, 30, VIA_CLI)


@pytest.mark.reg("585.2")
def test_every_wager_of_585_2_wins_in_some_scenario():
    """The files together make each 585.2 wager win at least once and lose at least once."""
    from controller.rules import dice
    seen = {}
    for exp_path in glob.glob(os.path.join(FOLDER, "*.expect.json")):
        out = _load(exp_path).get("output")
        if not out or out["status"] != "settled":
            continue
        for seat in out["seats"].values():
            for wager, r in seat["wagers"].items():
                seen.setdefault(wager, set()).add(r["result"])
    assert sorted(seen) == sorted(dice.WAGERS)
    assert all(results == {"win", "lose"} for results in seen.values()), seen
