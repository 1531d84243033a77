"""`tablectl sim`: every game autoplayed through the real drivers on simulated devices."""
import contextlib
import io
import json
import os
import subprocess
import sys

import pytest

from controller import cli
from controller.games import ALL_GAMES
from controller.games.events import Event
from controller.journal.formats import open_journal
from hal_sim.simulation import Simulation


def _fds():
    return set(os.listdir("/proc/self/fd"))


def seeded(summary):
    """The summary less what the line's timing decides: a retransmission whose copy the
    driver rejects as a duplicate (a loaded machine's slow ACK), counted among the events."""
    out = dict(summary, controller={k: v for k, v in summary["controller"].items()
                                    if k != "events"})
    frames = {}
    for device, reasons in summary["frames_rejected"].items():
        kept = {r: n for r, n in reasons.items() if r != "duplicate"}
        if kept:
            frames[device] = kept
    out["frames_rejected"] = frames
    return out


def played(game, rounds=5, seed=1, faults=(), journal=None):
    """The simulation after its rounds, closed (its journal and counters stay readable)."""
    s = Simulation(game, seed, faults, journal=journal)
    try:
        s.run(rounds)
    finally:
        s.close()
    return s


def run(game, rounds=5, seed=1, faults=()):
    return played(game, rounds, seed, faults).summary(timings=False)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_every_game_plays_five_rounds_deterministically_and_leaves_nothing(game):
    fds = _fds()
    s = played(game)
    first = s.summary(timings=False)
    assert first["rounds_completed"] + first["rounds_void"] == 5
    assert first["controller"]["errors"] == 0
    assert all(r["wagered"] > 0 for r in first["return_to_player"].values())
    # nothing goes around the devices: every dealer-panel event came over the panel's line
    # (a frame the driver rejected -- a retransmission's duplicate on a loaded machine -- is
    # journaled under the panel's name too, and is no input)
    keyed = sum(1 for e in s.ctl.journal if isinstance(e, Event) and e.source == "dealer_panel"
                and e.kind != "frame_rejected")
    assert keyed and keyed == s.drivers["dealer_panel"].counters["events_out"]
    assert seeded(run(game)) == seeded(first)    # same seed, same rounds
    assert _fds() == fds                         # every pty fd closed


@pytest.mark.parametrize("game, kind, entry", [
    pytest.param("props-and-hops", "shuffle", lambda data: data == {"shake": True},
                 marks=pytest.mark.reg("585.3(d)", "585.3(i)")),
    pytest.param("six-card-fortune-pai-gow", "decision",
                 lambda data: data["seat"] == "dealer" and data["action"] == "set"
                 and set(data) == {"seat", "action", "low"},
                 marks=pytest.mark.reg("670a.11(d)"))])
def test_tablectl_sim_keys_the_shake_and_the_dealers_setting_on_the_panel(
        tmp_path, capsys, game, kind, entry):
    path = tmp_path / "journal.db"
    assert cli.main(["sim", "--game", game, "--rounds", "3", "--seed", "1", "--json",
                     "--journal", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rounds_completed"] == 3 and doc["controller"]["errors"] == 0
    store = open_journal(str(path))
    try:
        rows = [r for r in store.rows() if r["kind"] == kind and r["entry"] == "event"]
    finally:
        store.close()
    ours = [r for r in rows if entry(json.loads(r["data"]))]
    # a shake before play and after each round but the last (585.3(d)); a setting a round
    assert len(ours) == 3 and all(r["source"] == "dealer_panel" for r in ours)


def test_the_cli_prints_the_console_line_and_one_json_summary(capsys):
    rc = cli.main(["sim", "--game", "blackjack", "--rounds", "5", "--seed", "1", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0
    console = [line for line in err.splitlines() if line.startswith("console: ")]
    assert console and console[0].split(": ", 1)[1].startswith("/dev/pts/")
    doc = json.loads(out)
    for key in ("rounds_completed", "rounds_void", "lockouts", "wagers_after_no_more_bets",
                "stub_counts", "decks_removed", "frames_rejected", "return_to_player"):
        assert key in doc
    assert doc["rounds_completed"] + doc["rounds_void"] == 5


def test_a_bad_fault_or_game_exits_2(capsys):
    assert cli.main(["sim", "--game", "blackjack", "--fault", "shoe:gremlins"]) == 2
    assert cli.main(["sim", "--game", "baccarat"]) == 2
    assert "cannot be simulated" in capsys.readouterr().err


@pytest.mark.reg("670a.12(d)(3)", "605a.7")
def test_a_stuck_meter_display_locks_out_each_round_it_does_not_show_the_contributions():
    s = run("six-card-fortune-pai-gow", faults=[("meter_display", "stuck", 1.0)])
    assert s["rounds_completed"] + s["rounds_void"] == 5
    assert [(lo["reason"], lo["section"], lo["cleared"]) for lo in s["lockouts"]] == \
        [("device meter_display: mismatch", "605a.7", True)] * 5


@pytest.mark.reg("670a.2(c)", "605a.7")
def test_a_dead_segment_on_the_meter_display_locks_out_and_play_goes_on():
    s = run("raise-it-up-stud", faults=[("meter_display", "segment", 1.0)])
    assert s["rounds_completed"] + s["rounds_void"] == 5
    assert len(s["lockouts"]) == 5 and all(lo["cleared"] for lo in s["lockouts"])


def test_a_meter_display_fault_where_the_game_has_no_progressive_exits_2(capsys):
    assert cli.main(["sim", "--game", "flop-poker", "--fault", "meter_display:stuck"]) == 2
    assert "flop-poker has no progressive meter display" in capsys.readouterr().err


@pytest.mark.reg("583.13(e)")
def test_a_shoe_jam_every_round_locks_out_and_the_floorperson_clears_it():
    s = run("flop-poker", faults=[("shoe", "jam", 1.0)])
    assert s["rounds_completed"] + s["rounds_void"] == 5
    assert len(s["lockouts"]) == 5 and all(lo["cleared"] for lo in s["lockouts"])
    assert all("jam" in lo["reason"] for lo in s["lockouts"])


@pytest.mark.reg("581.13(i)")
def test_a_card_reader_failure_locks_double_attack_until_repaired_and_cleared():
    s = run("double-attack-blackjack", rounds=8, faults=[("card_reader", "fail", 1.0)])
    fired = s["faults_injected"].get("card_reader:fail", 0)
    assert len(s["lockouts"]) == fired and all(lo["cleared"] for lo in s["lockouts"])
    assert all(lo["section"] == "581.13(i)" for lo in s["lockouts"])


@pytest.mark.reg("583.5(b)")
def test_a_shuffler_miscount_removes_the_deck():
    s = run("flop-poker", faults=[("shuffler", "miscount", 1.0)], rounds=3)
    assert s["decks_removed"] == 3 and s["rounds_completed"] + s["rounds_void"] == 3


def test_a_shuffler_jam_locks_out_and_play_goes_on():
    s = run("raise-it-up-stud", faults=[("shuffler", "jam", 1.0)])
    assert len(s["lockouts"]) == 5 and all(lo["cleared"] for lo in s["lockouts"])


@pytest.mark.reg("583.7(c)", "669a.7(c)")
@pytest.mark.parametrize("game", ["flop-poker", "raise-it-up-stud"])
def test_a_wager_after_no_more_bets_is_attempted_not_recognized(game):
    s = run(game, faults=[("progressive", "past_post", 1.0)])
    w = s["wagers_after_no_more_bets"]
    assert w["attempted"] == 5 and w["recognized"] == 0 and w["journaled_attempts"] == 5


def test_junk_on_the_shoe_line_is_counted_journaled_and_play_goes_on(tmp_path):
    path = tmp_path / "journal.db"
    s = Simulation("blackjack", 1, [("shoe", "junk", 1.0)], journal=str(path))
    try:
        s.run(5)
    finally:
        s.close()
    summary = s.summary(timings=False)
    assert summary["frames_rejected"]["shoe"]["junk"] == 5 and not summary["lockouts"]
    assert summary["rounds_completed"] == 5
    # nothing silent: every piece of junk is counted in a journal row naming the device and
    # the reason (the driver batches a burst: the first at once, the rest with their count)
    store = open_journal(str(path))
    try:
        rows = [dict(r, data=json.loads(r["data"])) for r in store.rows()
                if r["kind"] == "frame_rejected"]
        rows = [r for r in rows if r["data"]["reason"] == "junk"]
        assert store.verify() is None
    finally:
        store.close()
    # counted in rows per device+reason per interval (issue 11), every frame in a count; a
    # loaded machine may also cost a retransmission rejected as a duplicate (journaled too)
    rows = [r for r in rows if r["data"]["reason"] != "duplicate"]
    assert sum(r["data"]["count"] for r in rows) == 5 and 1 <= len(rows) <= 5
    assert {(r["source"], r["data"]["device"], r["data"]["reason"]) for r in rows} == \
        {("shoe", "shoe", "junk")}
    assert all(r["data"]["frame"] for r in rows)


def test_a_bouncing_sensor_places_one_wager():
    s = run("raise-it-up-stud", faults=[("progressive", "bounce", 1.0)])
    assert s["return_to_player"]["progressive"]["wagered"] == 5 * 2 * 100


@pytest.mark.reg("583.8(e)")
def test_stub_counts_every_five_rounds_where_the_shuffler_does_not_count():
    s = run("flop-poker", rounds=10)
    assert s["stub_counts"] == {"performed": 2, "mismatches": 0}


# ---- faults end in the summary, whatever the timing (issue 11) ---------------------------

@contextlib.contextmanager
def cpu_load(processes=2):
    """Processes burning CPU for the duration: the machine is slow, as a loaded Pi is."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
               for _ in range(processes)]
    try:
        yield
    finally:
        for p in burners:
            p.kill()
        for p in burners:
            p.wait()


def _what_was_played(summary):
    """What a seed decides: rounds, lock-outs, returns, faults (not the retransmissions a
    slow line costs, which the link counts as duplicates)."""
    return {k: summary[k] for k in ("rounds_completed", "rounds_void", "lockouts",
                                    "return_to_player", "faults_injected", "stub_counts",
                                    "wagers_after_no_more_bets")}


@pytest.mark.parametrize("game, fault", [
    ("blackjack", "shoe:bad_crc"), ("double-attack-blackjack", "card_reader:bad_crc"),
    ("blackjack", "shoe:babble"), ("blackjack", "dealer_panel:junk")])
def test_line_faults_never_stick_the_autoplay_and_replay_the_same_under_load(game, fault):
    from hal_sim.simulation import parse_fault
    faults = [parse_fault(fault)]
    quiet = run(game, rounds=8, seed=1, faults=faults)
    with cpu_load():
        loaded = run(game, rounds=8, seed=1, faults=faults)
    for summary in (quiet, loaded):
        assert summary["controller"]["errors"] == 0
    if any("silent" in lo["reason"] for s in (quiet, loaded) for lo in s["lockouts"]):
        # the link's own real-time rule (a device unheard for 2 s is silent) fired because this
        # machine stalled for seconds: that lock-out is timing by definition, and a silent
        # device does not always recover yet (issue 11, the link's). What the autoplay owes
        # then is a summary naming it, which reaching here (no traceback) shows.
        pytest.skip("the machine stalled past the link's 2 s silence rule: %r"
                    % [s.get("stuck") or s["lockouts"] for s in (quiet, loaded)])
    for summary in (quiet, loaded):
        assert "stuck" not in summary, summary["stuck"]
        assert summary["rounds_completed"] + summary["rounds_void"] == 8
    device = fault.split(":")[0]
    assert quiet["faults_injected"] == {fault: 8}
    injected = [{r: n for r, n in s["frames_rejected"][device].items() if r != "duplicate"}
                for s in (quiet, loaded)]
    assert injected[0] == injected[1] and sum(injected[0].values()) >= 1, injected
    assert _what_was_played(quiet) == _what_was_played(loaded)
    if fault.endswith("babble"):                     # the driver's babble rule: a lock-out
        assert len(quiet["lockouts"]) == 8 and all(lo["cleared"] for lo in quiet["lockouts"])
    else:                                            # a retransmission: nothing to clear
        assert quiet["lockouts"] == []


def test_a_device_that_never_answers_ends_the_run_in_the_summary_not_a_traceback(capsys):
    s = Simulation("blackjack", 1)
    try:
        s.autoplay.wait_s = 0.5
        s.sim.serial["shoe"].deal = lambda card: None        # the shoe takes no card out
        assert s.run(3) == 0
    finally:
        s.close()
    summary = s.summary(timings=False)
    assert summary["stopped_by"] == "stuck"
    stuck = summary["stuck"]
    assert stuck["round"] == 1 and stuck["state"] == "dealing"
    assert stuck["why"].startswith("shoe did not answer within 0 s") or \
        stuck["why"].startswith("shoe did not answer"), stuck
    out = io.StringIO()
    from controller.lab.sim import _print_summary
    _print_summary(dict(summary, elapsed_s=0.0), out)
    assert "stuck at round 1 (table dealing): shoe did not answer" in out.getvalue()


def test_a_part_given_to_the_simulation_starts_with_the_table_and_stops_on_its_shutdown():
    calls = []

    class Uplink:
        name = "floor link"

        def start(self):
            calls.append("start")

        def stop(self):
            calls.append("stop")
            raise ConnectionError("floor system unreachable")
    s = Simulation("props-and-hops", 1, parts=[Uplink()])
    try:
        assert calls == ["start"]
        s.run(1)
    finally:
        failures = s.close()
    assert calls == ["start", "stop"]
    assert [(what, str(e)) for what, e in failures] == [("part floor link",
                                                         "floor system unreachable")]
    assert s.sim is None                    # the later steps ran: the devices are stopped


@pytest.mark.reg("585.3(f)")
def test_the_summary_counts_no_voided_round_in_the_handle_as_the_journals_meters(tmp_path):
    """A "no roll" returns every wager (585.3(f), (g)): a voided round is no handle. The
    summary's return to player must agree with the table's own money meters read back from
    the journal (those `tablectl top` and the console show), not count returned wagers."""
    from tests.floor.test_pit import own_money
    journal = str(tmp_path / "t.log")
    summary = played("props-and-hops", 6, 1, [("dice_reader", "no_roll", 0.5)],
                     journal).summary(timings=False)
    assert summary["rounds_void"] > 0 and summary["rounds_completed"] > 0
    returns = summary["return_to_player"].values()
    handle, hold = own_money(journal)
    assert (sum(r["wagered"] for r in returns), -sum(r["net"] for r in returns)) == \
        (handle, hold)


@pytest.mark.reg("637a(e)(6)")
def test_the_poker_rooms_summary_is_its_pots_and_rake_not_stacks_returned_to_players(tmp_path):
    """The players play each other (the declaration's `house_take`): the summary counts the
    hands' pots and the house's take as the round records say them, as the console and the
    floor do, and no "return to player" of stacks against the house."""
    from tests.floor.conftest import journal_rows
    from tests.floor.test_pit import own_room
    journal = str(tmp_path / "p.log")
    summary = played("poker", 3, 1, journal=journal).summary(timings=False)
    room = own_room(journal_rows(journal))
    assert room["hands"] == 3 and room["pots"] > 0
    assert {k: summary["poker_room"][k] for k in room} == room
    assert summary["return_to_player"] == {}
    out = io.StringIO()
    from controller.lab.sim import _print_summary
    _print_summary(summary, out)
    assert "poker room: 3 hands, pots $" in out.getvalue()
    assert "no wagers against the house" in out.getvalue()
