"""`tablectl play` on files that are not valid scenarios: exit 2, one line naming the problem."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def play(path):
    return subprocess.run([sys.executable, "-m", "controller.cli", "play", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def write(tmp_path, doc, raw=None):
    p = tmp_path / "s.json"
    p.write_text(raw if raw is not None else json.dumps(doc))
    return p


def check_refused(p, *words):
    assert p.returncode == 2, p.stdout + p.stderr
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    for w in words:
        assert w in lines[0], lines[0]


def test_missing_file(tmp_path):
    check_refused(play(tmp_path / "nope.json"), "cannot read scenario")


def test_not_json(tmp_path):
    check_refused(play(write(tmp_path, None, raw="{not json")), "not valid JSON")


def test_unknown_top_level_key(tmp_path):
    doc = {"game": "double-attack-blackjack", "cards": [], "seats": {}, "shoe": []}
    check_refused(play(write(tmp_path, doc)), "unknown scenario key 'shoe'")


def test_unknown_game(tmp_path):
    doc = {"game": "baccarat", "cards": [], "seats": {}}
    check_refused(play(write(tmp_path, doc)), "baccarat")


def test_bad_config_key_is_named(tmp_path):
    doc = {"game": "double-attack-blackjack", "config": {"table_minimum": 500},
           "cards": [], "seats": {}}
    check_refused(play(write(tmp_path, doc)), "table_minimum")


def test_limits_that_contradict_each_other(tmp_path):
    doc = {"game": "double-attack-blackjack", "config": {"table_min": 5000, "table_max": 500},
           "cards": [], "seats": {}}
    check_refused(play(write(tmp_path, doc)), "table_min 5000 is above table_max 500")
