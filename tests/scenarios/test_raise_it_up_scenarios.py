"""Raise It Up Stud Poker scenario files (tests/scenarios/raise-it-up-stud/NAME.json with
NAME.expect.json): each is played through `controller.lab.scenario.play` and must give exactly
the expected output, worked by hand from the 669a.12 paytables, or be refused naming the
problem; a few go through `tablectl play` in a subprocess, which is what a lab runs."""
import glob
import os

import pytest

from tests.scenarios import harness

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GAME = "raise-it-up-stud"
FOLDER = harness.folder(GAME)
# Played by the command line as well: a few refusals, a meter hit and an automated shoe.
VIA_CLI = ("folded-player-keeps-the-envy-bonus-spades-take-the-meter",
           "automated-shoe-deals-stacks-of-three", "invalid-play-four-times-the-ante",
           "invalid-blind-not-equal-to-the-ante", "invalid-same-card-twice",
           "invalid-rate-of-progression-below-14-percent")


_load = harness.load


test_every_scenario_has_its_expectation, test_scenario, test_scenario_through_tablectl_play = \
    harness.standard_tests(GAME, 30, VIA_CLI)


@pytest.mark.reg("669a.7(d)")
def test_every_wager_wins_and_loses_in_some_scenario():
    """The files together make each wager of 669a.7(d) win and lose at least once, the Blind
    also push, and pay an Envy Bonus: no paytable goes untried."""
    seen = {}
    for exp_path in glob.glob(os.path.join(FOLDER, "*.expect.json")):
        out = _load(exp_path).get("output")
        if not out or out["status"] == "void":        # a void round returns every wager
            continue
        for seat in out["seats"].values():
            for wager, r in seat["wagers"].items():
                seen.setdefault(wager, set()).add(r["result"])
    assert seen == {"ante": {"win", "lose"}, "blind": {"win", "lose", "push"},
                    "play": {"win", "lose"}, "pair_plus": {"win", "lose"},
                    "progressive": {"win", "lose"}, "six_card_bonus": {"win", "lose"},
                    "envy": {"win"}}
