"""The whole table on virtual time (hal_sim/virtual.py) and `tablectl soak` (issue 33).

These run the real runtime, controller, policies, game machines, drivers, link protocol
objects and journal against the simulated devices on in-memory lines, stepped by one
scheduler: no threads, no ptys, no sleeps, so they take CPU time only and a seed replays
exactly. Each check of the soak is shown to fire on a bug planted for the test (monkeypatch),
so none of them is a check that cannot fail.
"""

import json
import os

import pytest

from controller import cli
from controller.games import ALL_GAMES
from controller.lab.soak import soak_game
from controller.lab.soak_checks import Checks
from hal_sim.virtual import VirtualTable


def _table(game, tmp_path, faults=(), seed=1):
    checks = Checks(game, seed)
    table = VirtualTable(game, seed, str(tmp_path / "j.journal"), faults, on_boot=checks.attach)
    table.boot()
    return table, checks


@pytest.fixture
def shm_dir():
    """A directory in memory (the soak's own default): on a disk the journal's O_DIRECT
    writes and the power cut's buffered restores of the same sectors were seen once to
    differ between two runs of one seed (the page cache's, not the table's)."""
    import shutil
    import tempfile
    path = tempfile.mkdtemp(prefix="tablectl-test-",
                            dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _journal_bytes(tmp_path, name, game, seed):
    directory = os.path.join(str(tmp_path), name)
    os.mkdir(directory)
    summary = soak_game(game, 20, seed, faults=1.0, power_cuts=0.3, directory=directory)
    with open(os.path.join(directory, "%s.journal" % game), "rb") as f:
        return f.read(), summary


def test_the_same_seed_writes_a_byte_identical_journal(shm_dir):
    """Faults, power cuts, clock steps and all: the same seed, the same bytes; another seed,
    other bytes (so the comparison can fail)."""
    a, sa = _journal_bytes(shm_dir, "a", "six-card-fortune-pai-gow", 9)
    b, sb = _journal_bytes(shm_dir, "b", "six-card-fortune-pai-gow", 9)
    c, _ = _journal_bytes(shm_dir, "c", "six-card-fortune-pai-gow", 10)
    assert sa["power_cuts"] >= 1 and sum(sa["faults"].values()) >= 3
    assert sa["faults"].get("shoe:replaced")        # a new unit's boot id is journaled
    assert a == b
    assert a != c
    assert sa["violations"] == sb["violations"] == []


def test_the_same_seed_writes_the_same_journal_whatever_the_process_id(shm_dir, monkeypatch):
    """The journal's lock file holds the process id (journal/lock.py), written at every boot
    and never synced: a power cut's draws for it took the id's length, and so the journal's
    own fate at the cut depended on how many digits the process id had (seen in issue 33:
    the same seed's soak gave other rounds once the machine's process ids wrapped). Each
    file's fate is its own now."""
    from controller.journal import lock
    got = []
    for name, pid in (("a", 7), ("b", 31337)):
        monkeypatch.setattr(lock.os, "getpid", lambda: pid)
        directory = os.path.join(shm_dir, name)
        os.mkdir(directory)
        summary = soak_game("raise-it-up-stud", 20, 1, faults=1.0, power_cuts=0.5,
                            directory=directory)
        with open(os.path.join(directory, "raise-it-up-stud.journal"), "rb") as f:
            got.append((f.read(), summary["power_cuts"]))
    assert got[0][1] >= 2 and got[0][0] == got[1][0]


@pytest.mark.parametrize("game", ALL_GAMES)
def test_soak_every_game_with_faults_and_power_cuts(game):
    """The soak CI runs on every push, sized to seconds: every invariant after every step."""
    s = soak_game(game, 10, 33, faults=1.0, power_cuts=0.3)
    assert s["violations"] == []
    # (a hole-card game's outputs are not looked at before the hole card: nothing to find)
    assert s["rounds"] == 10 and s["steps"] > 50 and s["invariants_checked"] > s["steps"] // 2
    assert s["virtual_hours"] > 0


def test_no_thread_runs_and_time_is_virtual(tmp_path, monkeypatch):
    """A round's dealer's pace passes in virtual time: the virtual clock moves by the dealer's
    pace while nothing sleeps (time.sleep refused for the whole run, no wall-clock figure
    asserted: speed is bench/virtual_table.py's), and no thread is started (the drivers'
    links and the devices' are serviced)."""
    import threading
    import time

    from hal_sim.virtual import DEALER_PACE_S

    def no_sleep(seconds):
        raise AssertionError("a virtual table slept %r s of real time" % seconds)
    before = threading.active_count()
    table, checks = _table("double-attack-blackjack", tmp_path)
    monkeypatch.setattr(time, "sleep", no_sleep)
    try:
        for _ in range(3):
            table.play_round()
        assert threading.active_count() == before
    finally:
        monkeypatch.undo()
        table.close()
    assert table.universe.t / 1e9 >= 3 * DEALER_PACE_S       # the dealer's pace, virtual
    assert checks.violations == []


@pytest.mark.reg("581.6")
def test_the_soak_finds_a_wager_accepted_after_no_more_bets(tmp_path, monkeypatch):
    """A planted bug: the policy and the machine let a wager in after the close."""
    from controller.games.engine import GameModel
    from controller.policies.no_more_bets import NoMoreBets

    def slips_in(self, event):
        placed = self.wagers.setdefault(str(event.get("seat")), {})
        placed[event.get("wager")] = event.get("amount")
    monkeypatch.setattr(NoMoreBets, "_wager", lambda self, ctl, event: None)
    original = GameModel.on_wager
    monkeypatch.setattr(GameModel, "on_wager", lambda self, event: slips_in(self, event)
                        if self.state in self.ROUND_STATES else original(self, event))
    table, checks = _table("double-attack-blackjack", tmp_path,
                           [("progressive", "past_post", 1.0)])
    try:
        table.play_round()
    finally:
        table.close()
    found = [v for v in checks.violations if v["invariant"] == "past_post"]
    assert found and "after \"no more bets\"" in found[0]["detail"]
    assert found[0]["replay"] == "1:%d" % found[0]["step"]


@pytest.mark.reg("581.13(h)(1)")
def test_the_soak_finds_the_hole_card_on_the_console(tmp_path, monkeypatch):
    """A planted bug: the console's status names the hole card with the up card."""
    from controller.games.blackjack.family import BlackjackFamily
    original = BlackjackFamily.ask_reader

    def leaks(self, reading):
        original(self, reading)
        self.pending = dict(self.pending, **{"for": "the dealer's %s %s" % tuple(self.dealer)})
    monkeypatch.setattr(BlackjackFamily, "ask_reader", leaks)
    table, checks = _table("blackjack", tmp_path, seed=1)
    try:
        for _ in range(3):
            table.play_round()
    finally:
        table.close()
    found = [v for v in checks.violations if v["invariant"] == "secret"]
    assert found and "console" in found[0]["detail"]


@pytest.mark.reg("581.13(h)(1)")
@pytest.mark.parametrize("every", [1, 10 ** 6])
def test_the_soak_finds_a_card_in_the_consoles_events(tmp_path, monkeypatch, every):
    """A planted bug: the console's `events` line of a card shows the card. Found at the
    look after its row is journaled, whether the `events` command itself runs at that look
    (every=1) or never (the line of every row read once: the command opened the journal
    file at every look, issue 33)."""
    from controller.console.journal_screen import JournalScreen
    from controller.lab import soak_checks
    original = JournalScreen._line

    def leaks(self, entry):
        card = entry.data.get("card") if isinstance(entry.data, dict) else None
        return original(self, entry) + ("" if card is None else " (it is %s)" % card)
    monkeypatch.setattr(JournalScreen, "_line", leaks)
    monkeypatch.setattr(soak_checks, "EVENTS_EVERY", every)
    table, checks = _table("flop-poker", tmp_path, seed=1)
    try:
        table.play_round()
    finally:
        table.close()
    found = [v for v in checks.violations if v["invariant"] == "secret"]
    assert found and found[0]["detail"].startswith("console events shows ")
    assert all("console events" in v["detail"] for v in found)


def test_the_soak_finds_a_settlement_doubled_after_a_power_cut(monkeypatch):
    """A planted bug: a boot after a cut counts the round the replay ended once more."""
    from controller.journal import live
    original = live._resume

    def doubles(*args, **kwargs):
        ctl = original(*args, **kwargs)
        if ctl.model.status is not None:
            ctl.journal.counters["rounds"] += 1        # the durable part the loop holds
            ctl.journal.flush([ctl.journal.snapshot_row()])
        return ctl
    monkeypatch.setattr(live, "_resume", doubles)
    s = soak_game("raise-it-up-stud", 12, 1, power_cuts=0.6, first=True)
    assert s["power_cuts"] >= 1
    assert s["violations"] and s["violations"][0]["invariant"] == "ledger"
    assert s["stopped_at"]["step"] == s["violations"][0]["step"]


def _rounds_of(journal, game, seed, rounds):
    """Play `rounds` more rounds on `journal` (a new one, or one a table left), and stop."""
    table = VirtualTable(game, seed, journal)
    table.boot()
    try:
        for _ in range(rounds):
            table.play_round()
    finally:
        table.close()


def test_the_ledger_reads_the_rows_after_its_last_scan_and_all_if_they_changed(
        shm_dir, monkeypatch):
    """After a cut the ledger's journal scan reads only the rows past its last scan (reading
    all of them at every cut made a soak quadratic, issue 33), and reads the whole again when
    the row it stopped at is not the one it read (the journal rewritten behind it): either
    way what it finds is what a scan of the whole file finds."""
    import shutil

    from controller.journal import store as store_module
    game = "props-and-hops"
    path, other = os.path.join(shm_dir, "t.journal"), os.path.join(shm_dir, "o.journal")
    _rounds_of(path, game, 1, 3)
    _rounds_of(other, game, 2, 6)
    checks = Checks(game, 1)
    first = checks.journal_rounds(path)
    assert len(first) >= 3 and first == Checks(game, 1).journal_rounds(path)
    loads = []
    load = store_module.load
    monkeypatch.setattr(store_module, "load", lambda row: loads.append(row["seq"]) or load(row))
    scanned = checks.scanned[0]
    _rounds_of(path, game, 1, 2)                       # the table goes on: rows appended
    more = checks.journal_rounds(path)
    assert loads and min(loads) > scanned              # the new rows only
    whole = Checks(game, 1).journal_rounds(path)
    assert more == whole and len(whole) > len(first)
    shutil.copy(other, path)                           # rewritten behind the last scan
    del loads[:]
    again = checks.journal_rounds(path)
    assert min(loads) == 2                             # from its first snapshot again
    fresh = Checks(game, 1)
    assert again == fresh.journal_rounds(path) != whole and checks.counted == fresh.counted


@pytest.mark.reg("581.13(i)")
def test_the_soak_finds_a_lockout_cleared_without_its_selftest(tmp_path, monkeypatch):
    """A planted bug: the clear service's self-test fails (the device is still jammed) and
    the machine clears the lock-out all the same."""
    from controller import clearing
    from controller.games import engine
    monkeypatch.setattr(clearing.ClearService, "_check", lambda self, rule, ticket: (False, []))
    original = engine.GameModel.on_clear
    monkeypatch.setattr(engine.GameModel, "on_clear", lambda self, event: original(
        self, type(event)(event.kind, dict(event.data, selftest=True), event.source,
                          event.ts_ns)))
    table, checks = _table("flop-poker", tmp_path, [("shoe", "jam", 1.0)])
    try:
        table.play_round()
    finally:
        table.close()
    found = [v for v in checks.violations if v["invariant"] == "clear"]
    assert found and "self-test False" in found[0]["detail"]


def test_soak_json_summary_and_replay(capsys):
    code = cli.main(["soak", "--game", "props-and-hops", "--rounds", "3", "--seed", "4",
                     "--faults", "1", "--power-cuts", "0.5", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in ("rounds", "virtual_hours", "faults", "power_cuts", "invariants_checked",
                "violations"):
        assert key in summary
    steps = summary["games"][0]["steps"]
    code = cli.main(["soak", "--game", "props-and-hops", "--rounds", "3", "--seed", "4",
                     "--faults", "1", "--power-cuts", "0.5", "--replay", "4:%d" % (steps // 2)])
    out = capsys.readouterr().out
    assert code == 0 and "stopped at step %d" % (steps // 2) in out


def test_a_stuck_soak_counts_the_rounds_and_faults_of_its_last_boot(monkeypatch):
    """A liveness violation ends the soak in the middle of a boot: its summary still counts
    that boot's rounds and faults (blackjack seed 11's said 12 rounds completed where the
    replay stopped at the same step said 14)."""
    from hal_sim.autoplay import Autoplay, Stuck
    played = Autoplay.play_round

    def stuck_at_the_fourth(self):
        if self.stats["rounds_completed"] + self.stats["rounds_void"] == 3:
            raise Stuck("planted: the table does not get ready")
        return played(self)
    monkeypatch.setattr(Autoplay, "play_round", stuck_at_the_fourth)
    s = soak_game("poker", 6, 1)
    assert [v["invariant"] for v in s["violations"]] == ["liveness"]
    assert s["rounds_completed"] + s["rounds_void"] == 3


@pytest.mark.parametrize("argv, says", [
    (["--game", "chess", "--rounds", "3"], "game 'chess'"),
    (["--game", "poker", "--rounds", "3", "--replay", "x"], "--replay 'x': SEED:STEP"),
    (["--game", "poker", "--rounds", "3", "--power-cuts", "2"], "--power-cuts 2.0"),
    (["--game", "poker", "--rounds", "3", "--faults", "x"], "'x' is not a number"),
    (["--game", "poker", "--rounds", "0"], "rounds"),
])
def test_soak_bad_input_is_one_line(argv, says, capsys):
    try:
        code = cli.main(["soak"] + argv)
    except SystemExit as e:             # argparse's own usage errors
        code = e.code
    err = capsys.readouterr().err
    assert code == 2
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_all_games_side_by_side_give_what_each_gives_alone(shm_dir, capsys):
    """`--game all` soaks the games in processes of their own, two at once: each game's
    summary and journal are the ones the games give one after another in this process (so
    the speed of a lab's run costs nothing of its replay)."""
    got = {}
    for jobs in ("1", "2"):
        directory = os.path.join(shm_dir, jobs)
        os.mkdir(directory)
        code = cli.main(["soak", "--game", "all", "--rounds", "2", "--seed", "3", "--faults",
                         "2", "--power-cuts", "0.5", "--json", "--jobs", jobs,
                         "--journal-dir", directory])
        summary = json.loads(capsys.readouterr().out)
        assert code == 0 and summary["jobs"] == int(jobs)
        journals = {}
        for game in ALL_GAMES:
            with open(os.path.join(directory, "%s.journal" % game), "rb") as f:
                journals[game] = f.read()
        for s in [summary] + summary["games"]:
            s.pop("cpu_s"), s.pop("wall_s", None), s.pop("jobs", None)
        got[jobs] = summary, journals
    assert [s["game"] for s in got["2"][0]["games"]] == list(ALL_GAMES)
    assert sum(s["power_cuts"] for s in got["1"][0]["games"]) >= 2
    assert got["1"] == got["2"]
