"""`tablectl par` spreads its sums over worker processes (controller/lab/par/spread.py): the same
integers whichever process computes them, no worker left behind, one line for a bad --jobs."""
import json
import multiprocessing
import os
import subprocess
import sys

import pytest

from controller.lab.par import blackjack_bad_beat as bad_beat
from controller.lab.par import blackjack_strategy as s
from controller.lab.par import spread

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RULES = s.blackjack_rules()
CHART, _ = s.solve(RULES)
SHOE = [0, 2, 4, 2, 1, 0, 1, 1, 3, 1, 5]     # small: split 2s, 3s, 8s; the dealer reaches 21


def run(*args):
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def _workers():
    return [p for p in multiprocessing.active_children() if p.is_alive()]


@pytest.mark.reg("633a.7(o)(1)(i)")
def test_bad_beat_spread_over_two_workers_equals_the_serial_sum(monkeypatch):
    monkeypatch.setattr(bad_beat, "_CACHE", {})
    serial = bad_beat.probabilities(RULES, CHART, SHOE, any_twenty=True)
    monkeypatch.setattr(bad_beat, "_CACHE", {})
    seen = []
    real_map = spread.map

    def watched(fn, items):
        seen.append(spread._POOL is not None)
        return real_map(fn, items)
    monkeypatch.setattr(spread, "map", watched)
    with spread.pool(2) as workers:
        assert workers is not None
        spread_out = bad_beat.probabilities(RULES, CHART, SHOE, any_twenty=True)
    assert seen == [True]                     # the parts went to the pool
    assert spread_out == serial
    assert not _workers()


def test_a_worker_opens_no_pool_and_jobs_1_forks_nothing():
    with spread.pool(1) as workers:
        assert workers is None and spread._POOL is None
    with spread.pool(2):
        inside = spread.submit(_pool_in_worker).get()
    assert inside is False
    assert not _workers()


def _pool_in_worker():
    return spread._POOL is not None


def test_an_error_in_the_pool_ends_its_workers():
    with pytest.raises(ZeroDivisionError):
        with spread.pool(2):
            spread.map(_divide, [1, 0, 2])
    assert not _workers() and spread._POOL is None


def _divide(x):
    return 1 // x


def test_par_jobs_gives_the_same_sheets_and_refuses_a_bad_count():
    one = run("par", "flop-poker", "--json", "--jobs", "1")
    two = run("par", "flop-poker", "--json", "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    docs = [json.loads(p.stdout) for p in (one, two)]
    for doc in docs:
        doc["report"].pop("date")               # when each ran: the one field that differs
    assert docs[0] == docs[1]
    bad = run("par", "flop-poker", "--jobs", "0")
    assert bad.returncode == 2 and "--jobs" in bad.stderr and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.reg("633a.7(o)(1)(i)")
def test_the_cached_figure_without_twenty_is_the_one_with_it_less_its_row(monkeypatch):
    monkeypatch.setattr(bad_beat, "_CACHE", {})
    fresh = bad_beat.probabilities(RULES, CHART, SHOE, any_twenty=False)
    monkeypatch.setattr(bad_beat, "_CACHE", {})
    with_twenty = bad_beat.probabilities(RULES, CHART, SHOE, any_twenty=True)
    assert ("twenty",) in with_twenty
    assert bad_beat.probabilities(RULES, CHART, SHOE, any_twenty=False) == fresh
    assert ("twenty",) not in fresh and sum(fresh.values()) == 1
