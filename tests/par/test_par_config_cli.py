"""`tablectl par --config TABLE.toml` prices a table as it is configured (issue 15)."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLES = os.path.join(ROOT, "deploy", "tables")


def run(*args):
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.reg("581.9(b)")
def test_a_double_attack_table_with_the_literal_reading_prices_negative(tmp_path):
    with open(os.path.join(TABLES, "double-attack-blackjack.toml")) as f:
        text = f.read().replace('surrender_double_down = "half"',
                                'surrender_double_down = "returned"')
    p = run("par", "--config", _write(tmp_path, "dab.toml", text), "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["game"] == "double-attack-blackjack"
    base = doc["wagers"][0]
    assert base["wager"] == "base_game" and base["strategy"] == "basic"
    assert base["house_edge"] == pytest.approx(-0.023352, abs=1e-6)   # docs/interpretations.md


@pytest.mark.reg("633a.7(g)(5)")
def test_a_blackjack_table_prices_its_configured_paytable_and_decks(tmp_path):
    text = ('game = "blackjack"\n[offered]\nbet_the_set_21 = true\n'
            '[options]\ndecks = 2\n[options.side_paytables.bet_the_set_21]\n'
            'suited_pair = "25 to 1"\npair = "8 to 1"\n')
    p = run("par", "blackjack", "--config", _write(tmp_path, "bj.toml", text), "--json")
    assert p.returncode == 0, p.stderr
    wagers = {w["wager"]: w for w in json.loads(p.stdout)["wagers"]}
    assert {"base_game", "bet_the_set_21"} <= set(wagers)
    # two decks: 1 suited pair and 6 pairs among the 103 cards left: 1 - (26 + 54) / 103
    assert wagers["bet_the_set_21"]["house_edge_exact"] == "23/103"
    assert wagers["base_game"]["house_edge"] < 0.0034       # fewer decks, a lower edge


def test_a_bad_configuration_exits_2_naming_the_key(tmp_path):
    path = _write(tmp_path, "bad.toml", 'game = "blackjack"\n[options]\ndecks = 9\n')
    p = run("par", "--config", path)
    assert p.returncode == 2 and "decks" in p.stderr and "Traceback" not in p.stderr
    path = _write(tmp_path, "dab.toml", 'game = "double-attack-blackjack"\n')
    p = run("par", "blackjack", "--config", path)
    assert p.returncode == 2 and "configures a double-attack-blackjack table" in p.stderr


def test_the_text_sheet_gives_each_wagers_method_and_precision_as_its_json_does():
    """A lab reading `tablectl par GAME` sees how each figure was reached: one line each for
    the method and, where the JSON states one, the precision, under every priced wager."""
    text = run("par", "blackjack").stdout
    sheets = json.loads(run("par", "blackjack", "--json").stdout)["wagers"]
    blocks = text.split("\n\n")[1:]
    for j in sheets:
        (block,) = [b for b in blocks if b.startswith(j["wager"] + " ") or
                    b.startswith(j["wager"] + "  ")]
        lines = block.splitlines()
        if "method" in j:
            assert "  method: %s" % j["method"] in lines
        if "precision" in j:
            assert "  precision: %s" % j["precision"] in lines
        assert sum(line.startswith("  method: ") for line in lines) == 1
    counted = run("par", "flop-poker").stdout.split("\n\nthree_card_bonus")[1]
    assert "  method: exact count of the " in counted.split("\n\n")[0]
