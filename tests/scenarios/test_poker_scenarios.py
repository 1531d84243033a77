"""Poker room scenario files (tests/scenarios/poker/NAME.json with NAME.expect.json): each hand
is played through `controller.lab.scenario.play` and must give exactly the expected output, worked
out by hand (blinds, bets, side pots, rake and odd chips), or be refused naming the problem; a
few go through `tablectl play` in a subprocess, which is what a lab runs."""
import glob
import os

import pytest

from tests.scenarios import harness

GAME = "poker"
FOLDER = harness.folder(GAME)
# Played by the command line as well: every refusal and a few settled hands (the deck that
# holds a card twice among them: pokerkit's advice against dealing it must not reach stderr).
VIA_CLI = ("three-way-all-in-side-pot-to-the-middle-stack",
           "omaha-hi-lo-split-odd-chip-to-the-high-hand", "seven-card-stud-bring-in-and-a-wheel",
           "a-card-stacked-twice-when-the-deck-holds-it-twice")

# The same three tests as every other game's library (one scenario format for every game).
test_every_scenario_has_its_expectation, test_scenario, test_scenario_through_tablectl_play = \
    harness.standard_tests(GAME, 15, VIA_CLI)


@pytest.mark.reg("637a(e)(6)")
def test_every_settled_hand_balances_to_the_house_take():
    """Non-banking: what the players win and lose together is minus the rake and the drop,
    and each pot's shares plus the take from the main pot are the pot."""
    for path in glob.glob(os.path.join(FOLDER, "*.expect.json")):
        out = harness.load(path).get("output")
        if not out:
            continue
        take = out["rake"] + out["jackpot_drop"]
        assert sum(s["net"] for s in out["seats"].values()) == -take, path
        for i, pot in enumerate(out["pots"]):
            assert sum(pot["to"].values()) + (take if i == 0 else 0) == pot["amount"], path
