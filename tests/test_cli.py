"""`tablectl par` from the command line, as a gaming lab would run it."""
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args):
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_par_json_of_one_game():
    p = run("par", "raise-it-up-stud", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["game"] == "raise-it-up-stud"
    pp = [w for w in doc["wagers"] if w["wager"] == "pair_plus" and w["paytable"] == "A"][0]
    assert pp["house_edge"] == 0.0231674 and pp["combinations"] == 22100
    assert pp["outcomes"][0] == {"hand": "straight_flush", "count": 48, "pays": "40 to 1"}


def test_par_all_covers_every_game():
    p = run("par", "--all", "--json")
    assert p.returncode == 0, p.stderr
    games = [g["game"] for g in json.loads(p.stdout)["games"]]
    assert games == ["double-attack-blackjack", "blackjack", "flop-poker", "props-and-hops",
                     "raise-it-up-stud", "six-card-fortune-pai-gow", "poker"]


def test_par_text_is_readable():
    p = run("par", "flop-poker")
    assert p.returncode == 0
    assert "three_card_bonus" in p.stdout and "5.3756%" in p.stdout
    assert "strategy-dependent" in p.stdout


def test_unknown_game_exits_2_naming_it():
    p = run("par", "baccarat")
    assert p.returncode == 2
    assert "baccarat" in p.stderr and "flop-poker" in p.stderr


def test_console_script_is_installed():
    exe = shutil.which("tablectl")
    assert exe, "the tablectl console script is not installed (pip install -e .)"
    p = subprocess.run([exe, "par", "props-and-hops", "--json"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr


def test_output_cut_short_by_its_reader_is_no_traceback():
    """`tablectl par --all | head -1`: the pipe closes early; tablectl exits quietly."""
    r = subprocess.run("%s -m controller.cli par --all | head -1" % sys.executable, shell=True,
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.stdout.count("\n") == 1
    assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr
