"""Raise It Up Stud Poker scenario files (tests/scenarios/raise-it-up-stud/NAME.json with
NAME.expect.json): each is played through `controller.scenario.play` and must give exactly
the expected output, worked by hand from the 669a.12 paytables, or be refused naming the
problem; a few go through `tablectl play` in a subprocess, which is what a lab runs."""
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
FOLDER = os.path.join(HERE, "raise-it-up-stud")
# Played by the command line as well: a few refusals, a meter hit and an automated shoe.
VIA_CLI = ("folded-player-keeps-the-envy-bonus-spades-take-the-meter",
           "automated-shoe-deals-stacks-of-three", "invalid-play-four-times-the-ante",
           "invalid-blind-not-equal-to-the-ante", "invalid-same-card-twice",
           "invalid-rate-of-progression-below-14-percent")


def _load(path):
    with open(path) as f:
        return json.load(f)


def _cases(cli=False):
    out = []
    for exp_path in sorted(glob.glob(os.path.join(FOLDER, "*.expect.json"))):
        name = os.path.basename(exp_path)[:-len(".expect.json")]
        if cli and name not in VIA_CLI:
            continue
        expect = _load(exp_path)
        out.append(pytest.param(name, expect, id=name,
                                marks=pytest.mark.reg(expect["section"])))
    return out


def test_every_scenario_has_its_expectation():
    plain = {os.path.basename(p)[:-5] for p in glob.glob(os.path.join(FOLDER, "*.json"))
             if not p.endswith(".expect.json")}
    expected = {os.path.basename(p)[:-12] for p in glob.glob(os.path.join(FOLDER, "*.expect.json"))}
    assert plain == expected and len(plain) >= 30
    assert set(VIA_CLI) <= plain


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


@pytest.mark.reg("669a.7(d)")
def test_every_wager_wins_and_loses_in_some_scenario():
    """The files together make each wager of 669a.7(d) win and lose at least once, the Blind
    also push, and pay an Envy Bonus: no paytable goes untried."""
    seen = {}
    for exp_path in glob.glob(os.path.join(FOLDER, "*.expect.json")):
        out = _load(exp_path).get("output")
        if not out:
            continue
        for seat in out["seats"].values():
            for wager, r in seat["wagers"].items():
                seen.setdefault(wager, set()).add(r["result"])
    assert seen == {"ante": {"win", "lose"}, "blind": {"win", "lose", "push"},
                    "play": {"win", "lose"}, "pair_plus": {"win", "lose"},
                    "progressive": {"win", "lose"}, "six_card_bonus": {"win", "lose"},
                    "envy": {"win"}}
