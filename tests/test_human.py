"""What people read (issue 15): dollars, the casino's local time, the gaming day as a date,
repeated lines counted, progress only on a terminal; and where each reaches a person."""
import datetime
import io
import json
import os
import re
import subprocess
import sys

import pytest

from controller import cli
from controller.human import (Progress, WallClock, collapsed, dollars, gaming_day, hand_note,
                              parse_when, rounds_range, wall_iso)
from controller.lab.sim import _print_summary

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NS = 10 ** 9


def test_dollars():
    assert dollars(1250) == "$12.50" and dollars(5) == "$0.05" and dollars(0) == "$0.00"
    assert dollars(-500) == "-$5.00" and dollars(500, sign=True) == "+$5.00"
    assert dollars(123456789) == "$1,234,567.89"
    assert dollars(None) == "None" and dollars(True) == "True"      # not money: left alone


def test_local_times_are_iso_8601_with_their_offset():
    wall = int(datetime.datetime(2026, 12, 1, 15, 4, 5, tzinfo=datetime.timezone.utc)
               .timestamp()) * NS
    assert wall_iso(wall, -5 * 3600) == "2026-12-01T10:04:05-05:00"
    assert wall_iso(wall, 0) == "2026-12-01T15:04:05+00:00"
    clock = WallClock()
    assert clock.iso(7 * NS) == "table time 7.000 s"           # no clock record: table time
    clock.add({"wall_ns": wall, "table_ns": 100 * NS, "utc_offset_s": -5 * 3600})
    assert clock.iso(160 * NS) == "2026-12-01T10:05:05-05:00"  # a minute of table time later
    assert parse_when("2026-12-01T10:05:05-05:00") == wall + 60 * NS
    with pytest.raises(ValueError, match="is not a time"):
        parse_when("yesterday")


def test_the_gaming_day_is_a_date():
    assert gaming_day(20788) == "2026-12-01"
    assert gaming_day(0) == "1970-01-01"


def test_repeated_lines_are_counted_and_split_hands_explained_once():
    assert collapsed(["a", "b", "a", "a"]) == ["a  (x3)", "b"]
    assert hand_note(["blackjack", "double_down"]) is None
    note = hand_note(["blackjack", "blackjack#2", "blackjack#3"])
    assert note.startswith("blackjack#2, blackjack#3: WAGER#N is the wager on the seat's Nth")
    assert rounds_range(1, 0) == "no rounds" and rounds_range(1, 1) == "round 1"
    assert rounds_range(1, 12) == "rounds 1..12"


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_is_a_line_rewritten_on_a_terminal_and_milestones_in_a_log():
    now = [0.0]
    tty = Tty()
    p = Progress(tty, interval_s=0.1, clock=lambda: now[0])
    p.update("round 1/3")
    p.update("round 2/3")                          # too soon: not drawn
    now[0] = 1.0
    p.update("round 3")
    p.done()
    assert tty.getvalue() == "\rround 1/3\rround 3  \n"
    log = io.StringIO()
    p = Progress(log)
    p.update("round 1/3")
    p.milestone("done: 3 rounds")
    p.done()
    assert log.getvalue() == "done: 3 rounds\n"


# ---- where people read them --------------------------------------------------------------

SUMMARY = {"game": "blackjack", "seed": 3, "rounds_completed": 4, "rounds_void": 1,
           "elapsed_s": 0.5,
           "lockouts": [{"reason": "device dealing_shoe: jam", "section": "633a.2", "cleared":
                         True}] * 2 + [{"reason": None, "section": None, "cleared": False}],
           "wagers_after_no_more_bets": {"attempted": 0, "recognized": 0},
           "stub_counts": {"performed": 0, "mismatches": 0}, "decks_removed": 0,
           "frames_rejected": {}, "faults_injected": {},
           "return_to_player": {"blackjack": {"wagered": 4000, "net": -1250, "rtp": 0.6875},
                                "blackjack#2": {"wagered": 1000, "net": 1000, "rtp": 2.0}}}


def test_the_sim_summary_has_dollars_counts_and_no_python_values():
    out = io.StringIO()
    _print_summary(SUMMARY, out)
    text = out.getvalue()
    assert "  device dealing_shoe: jam [633a.2]  (x2)\n" in text
    assert "  no reason given  NOT CLEARED\n" in text
    assert "frames rejected: none\n" in text and "faults injected: none\n" in text
    assert re.search(r"blackjack +wagered +\$40\.00 +net +-\$12\.50 +RTP 68\.75%", text)
    assert text.count("WAGER#N is the wager") == 1
    for raw in ("None", "{}", "[]", "True", "False"):
        assert raw not in text, raw
    empty = dict(SUMMARY, rounds_completed=0, rounds_void=0, lockouts=[], return_to_player={})
    out = io.StringIO()
    _print_summary(empty, out)
    assert "blackjack, seed 3: no rounds in 0.50 s\n" in out.getvalue()
    assert "lock-outs: none\n" in out.getvalue()


def test_sim_into_a_log_writes_milestone_lines_not_carriage_returns():
    p = subprocess.run([sys.executable, "-m", "controller.cli", "sim", "--game", "poker",
                        "--rounds", "10"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300, env=dict(os.environ, TABLECTL_PINS="/nonexistent/p.json"))
    assert p.returncode == 0, p.stderr
    assert "\r" not in p.stderr and "\r" not in p.stdout
    rounds = [line for line in p.stderr.splitlines() if line.startswith("tablectl sim: round")]
    assert [r.split()[3] for r in rounds] == ["%d/10" % n for n in range(1, 11)]


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    from controller.lab.sim import Simulation
    path = tmp_path_factory.mktemp("human") / "table.db"
    s = Simulation("blackjack", 2, journal=str(path))
    try:
        s.run(3)
    finally:
        s.close()
    return path


def test_journal_show_gives_each_row_its_local_time_and_dollars(journal, capsys):
    assert cli.main(["journal", "show", str(journal), "--round", "2"]) == 0
    text = capsys.readouterr().out
    iso = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"
    assert re.search(r"\n  from %s to %s\n" % (iso, iso), text)
    rows = text.split("journal rows:\n", 1)[1].splitlines()
    assert rows and all(re.match(r" +\d+  %s  " % iso, r) for r in rows), rows[:3]
    assert re.search(r"seat 1: blackjack \$\d+\.\d\d", text)
    assert "None" not in text and "True" not in text
    # the JSON stays as it was: cents and table time
    assert cli.main(["journal", "show", str(journal), "--round", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert all(isinstance(r["ts_ns"], int) for r in doc["rows"])
    assert all(isinstance(a, int) for w in doc["wagers"].values() for a in w.values())


def test_journal_show_selects_rows_by_time(journal, capsys):
    assert cli.main(["journal", "show", str(journal), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    clock = next(r["data"] for r in rows if r["kind"] == "clock")
    wall = WallClock()
    wall.add(clock)
    middle = rows[len(rows) // 2]
    at = wall.wall_ns(middle["ts_ns"]) // 1000 * 1000          # to the microsecond
    since = datetime.datetime.fromtimestamp(at / NS, datetime.timezone.utc).isoformat(
        timespec="microseconds")
    assert cli.main(["journal", "show", str(journal), "--since", since, "--json"]) == 0
    after = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    cut = parse_when(since)
    assert after and all(wall.wall_ns(r["ts_ns"]) >= cut for r in after)
    assert len(after) < len(rows)
    assert cli.main(["journal", "show", str(journal), "--until", "2000-01-01T00:00"]) == 0
    assert capsys.readouterr().out == "no rows in that time\n"
    assert cli.main(["journal", "show", str(journal), "--since", "2030-01-01",
                     "--until", "2020-01-01"]) == 2
    assert "--since is after --until" in capsys.readouterr().err


def test_no_round_reads_no_rounds(tmp_path, capsys):
    from controller.lab.sim import Simulation
    path = tmp_path / "empty.db"
    s = Simulation("poker", 1, journal=str(path))
    s.close()
    assert cli.main(["journal", "show", str(path), "--round", "1"]) == 1
    assert "has no round 1 (no rounds)" in capsys.readouterr().err
