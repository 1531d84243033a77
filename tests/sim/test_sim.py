"""`tablectl sim`: every game autoplayed through the real drivers on simulated devices."""
import json
import os

import pytest

from controller import cli
from controller.games import ALL_GAMES
from controller.games.events import Event
from controller.journal.store import Store
from controller.sim import Simulation


def _fds():
    return set(os.listdir("/proc/self/fd"))


def played(game, rounds=5, seed=1, faults=()):
    """The simulation after its rounds, closed (its journal and counters stay readable)."""
    s = Simulation(game, seed, faults)
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
    keyed = sum(1 for e in s.ctl.journal if isinstance(e, Event) and e.source == "dealer_panel")
    assert keyed and keyed == s.drivers["dealer_panel"].counters["events_out"]
    assert run(game) == first                    # same seed, same rounds
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
    store = Store(str(path))
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
    # nothing silent: each piece of junk is a journal row naming the device and the reason
    store = Store(str(path))
    try:
        rows = [dict(r, data=json.loads(r["data"])) for r in store.rows()
                if r["kind"] == "frame_rejected"]
        assert store.verify() is None
    finally:
        store.close()
    # counted in rows per device+reason per interval (issue 11), every frame in a count
    rows = [r for r in rows if r["data"]["reason"] == "junk"]
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
