"""What every game's scenario library test does: pair each NAME.json with NAME.expect.json,
play it through `controller.lab.scenario.play` (and some through `tablectl play` in a
subprocess, which is what a lab runs), and mark each with the section it checks.

NAME.expect.json is {"section": ..., "output": {...}} for a round played to its end, or
{"section": ..., "exit": 2, "stderr_contains": "..."} for a scenario that must be refused.
"""
import glob
import json
import os
import subprocess
import sys

import pytest

from controller.lab import scenario
from controller.errors import TablectlError

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def folder(game):
    return os.path.join(HERE, game)


def load(path):
    with open(path) as f:
        return json.load(f)


def expectations(game):
    out = {}
    for path in sorted(glob.glob(os.path.join(folder(game), "*.expect.json"))):
        out[os.path.basename(path)[:-len(".expect.json")]] = load(path)
    return out


def cases(game, via_cli=None):
    """pytest params (name, expect), each marked with its section; with `via_cli`, only the
    refusals and the names listed."""
    out = []
    for name, expect in expectations(game).items():
        if via_cli is not None and not (name in via_cli or "exit" in expect):
            continue
        out.append(pytest.param(name, expect, id=name, marks=pytest.mark.reg(expect["section"])))
    return out


def check_paired(game, minimum):
    plain = {os.path.basename(p)[:-5] for p in glob.glob(os.path.join(folder(game), "*.json"))
             if not p.endswith(".expect.json")}
    assert plain == set(expectations(game)), "scenario files without expectations or back"
    assert len(plain) >= minimum


def check_scenario(game, name, expect):
    doc = load(os.path.join(folder(game), name + ".json"))
    if "exit" in expect:
        assert expect["exit"] == 2
        with pytest.raises(TablectlError) as e:
            scenario.play(doc)
        assert expect["stderr_contains"] in str(e.value)
    else:
        assert scenario.play(doc) == expect["output"]


def check_cli(game, name, expect):
    p = subprocess.run([sys.executable, "-m", "controller.cli", "play",
                        os.path.join(folder(game), name + ".json")], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    if "exit" in expect:
        assert p.returncode == expect["exit"], p.stdout + p.stderr
        assert p.stdout == ""
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and expect["stderr_contains"] in lines[0], p.stderr
    else:
        assert p.returncode == 0, p.stderr
        assert p.stderr == ""
        assert json.loads(p.stdout) == expect["output"]


def standard_tests(game, minimum, via_cli):
    """The three tests every game's library has, for its module to bind:

        test_every_scenario_has_its_expectation, test_scenario, \\
            test_scenario_through_tablectl_play = harness.standard_tests(GAME, 30, VIA_CLI)
    """
    def test_every_scenario_has_its_expectation():
        check_paired(game, minimum)

    @pytest.mark.parametrize("name, expect", cases(game))
    def test_scenario(name, expect):
        check_scenario(game, name, expect)

    @pytest.mark.parametrize("name, expect", cases(game, via_cli))
    def test_scenario_through_tablectl_play(name, expect):
        check_cli(game, name, expect)

    return test_every_scenario_has_its_expectation, test_scenario, \
        test_scenario_through_tablectl_play
