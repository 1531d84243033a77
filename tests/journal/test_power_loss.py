"""Power loss end to end: a real `tablectl sim --journal` process SIGKILLed at random points
of rounds, 30 times, restarting each time; see power_loss.py for what is checked after every
kill and at the end. The counts asserted (kills at lock-outs, in rounds) come from kills
placed by step, not by time, so they hold on a loaded machine.

One game (issue 33): what a power cut does to the journal is tested for every game on virtual
time (tests/journal/test_power_cut_virtual.py: the disk's unsynced writes lost and the last
torn, which a SIGKILL, leaving the page cache, never shows); this keeps the real process, its
threads and its kill once. The seven games here took 123 s."""
import sys
import time

import pytest

from tests.journal.power_loss import Series, report

KILLS_PER_GAME = 30                  # x 7 games = 210 kills
SEED = 7
SELF_KILL_LIMIT_S = 300.0            # a run that kills itself: a failure only past this


@pytest.mark.parametrize("game", ["double-attack-blackjack"])
def test_sigkill_at_random_points_and_restart(game, tmp_path):
    start = time.monotonic()
    series = Series(game, tmp_path / "journal.db", SEED, tmp_path / "stderr.log")
    for i in range(KILLS_PER_GAME):
        # every fifth run kills itself at a lock-out, every fifth in a round, counted in
        # steps and waited for however loaded the machine is (issue 11: a 1 s deadline for
        # the lock-out missed under load); the rest at a random moment
        if i % 5 == 0 and game != "props-and-hops":      # (no quick lock-out fault there)
            series.run(SELF_KILL_LIMIT_S, at_lockout=True)
        elif i % 5 == 1:
            series.run(SELF_KILL_LIMIT_S, mid_round=series.rng.randint(1, 12))
        else:                          # two in three after the boot, one from the start
            series.run(series.rng.uniform(0.05, 0.6), after_boot=i % 5 != 2)
        series.after_kill()
    totals = series.finish()
    sys.stderr.write(report(game, series, totals, time.monotonic() - start) + "\n")
    assert series.stats["kills"] == KILLS_PER_GAME
    # the kills did land in rounds (the void-at-resume path) and resumes were compared
    assert series.stats["mid_round"] >= 3 and totals["voided_at_resume"] >= 3
    assert series.stats["resumes_checked"] >= KILLS_PER_GAME // 2
    if game != "props-and-hops":                   # (no quick lock-out fault there)
        assert series.stats["locked_out"] >= 3      # and at lock-outs in force
