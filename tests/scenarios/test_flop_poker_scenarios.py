"""Flop Poker scenario files (tests/scenarios/flop-poker/NAME.json with NAME.expect.json): each
is played through `controller.scenario.play` and must give exactly the expected output, worked
out by hand from the 583.12 paytables, or be refused naming the problem; a few go through
`tablectl play` in a subprocess, which is what a lab runs."""
import glob
import json
import os
import subprocess
import sys

import pytest

from controller import scenario
from controller.errors import TablectlError

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FOLDER = os.path.join(HERE, "flop-poker")
# Played by the command line as well: every refusal and a few settled rounds.
VIA_CLI = ("six-players", "automated-shoe-deals-stacks-and-burns-no-card",
           "identical-hands-split-the-pot")


def _load(path):
    with open(path) as f:
        return json.load(f)


def _cases(cli=False):
    out = []
    for exp_path in sorted(glob.glob(os.path.join(FOLDER, "*.expect.json"))):
        name = os.path.basename(exp_path)[:-len(".expect.json")]
        expect = _load(exp_path)
        if cli and not (name in VIA_CLI or "exit" in expect):
            continue
        out.append(pytest.param(name, expect, id=name,
                                marks=pytest.mark.reg(expect["section"])))
    return out


def test_every_scenario_has_its_expectation():
    plain = {os.path.basename(p)[:-5] for p in glob.glob(os.path.join(FOLDER, "*.json"))
             if not p.endswith(".expect.json")}
    expected = {os.path.basename(p)[:-12] for p in glob.glob(os.path.join(FOLDER, "*.expect.json"))}
    assert plain == expected and len(plain) >= 30


@pytest.mark.parametrize("name, expect", _cases())
def test_scenario(name, expect):
    doc = _load(os.path.join(FOLDER, name + ".json"))
    if "exit" in expect:
        assert expect["exit"] == 2
        with pytest.raises(TablectlError) as e:
            scenario.play(doc)
        assert expect["stderr_contains"] in str(e.value)
    else:
        assert scenario.play(doc) == expect["output"]


@pytest.mark.parametrize("name, expect", _cases(cli=True))
def test_scenario_through_tablectl_play(name, expect):
    p = subprocess.run([sys.executable, "-m", "controller.cli", "play",
                        os.path.join(FOLDER, name + ".json")], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    if "exit" in expect:
        assert p.returncode == expect["exit"], p.stdout + p.stderr
        assert p.stdout == ""
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and expect["stderr_contains"] in lines[0], p.stderr
    else:
        assert p.returncode == 0, p.stderr
        assert p.stderr == ""
        assert json.loads(p.stdout) == expect["output"]


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
