"""verify and show stream the journal: the same answers as the whole-file check they replace,
no history kept, and `show --round N` replayed from the last snapshot before round N."""
import json

import pytest

from controller.errors import JournalError
from controller.games import model_class
from controller.journal import chain
from controller.journal.cli import show_round, verify_path
from controller.journal.live import check
from controller.journal.replay import Replay
from controller.journal.show import reconstruct
from controller.journal.formats import open_journal
from controller.journal.store import load
from controller.policies.no_more_bets import PRESS_LOG, NoMoreBets
from tests.journal import tamper

GAME = "raise-it-up-stud"


def whole_file(path):
    """The check as it was before it streamed: every row in a list, the chain verified over
    the list, and a replay from the genesis over the rows before the first break."""
    store = open_journal(str(path))
    try:
        raw = list(store.rows())
        brk = chain.verify(raw, store.head())
        good = [load(r) for r in raw if brk is None or r["seq"] < brk.seq]
        replay = Replay(good[0]["data"], model_class(GAME), good[1])
        replay.run(good[2:], meters_seq=store.meters_seq() if brk is None else None,
                   stored_meters=store.meters())
        return replay, brk or replay.problem, [load(r) for r in raw]
    finally:
        store.close()


def _wager(path):
    return next(r["seq"] for r in whole_file(path)[2] if r["kind"] == "wager" and r["seq"] > 20)


def _snapshot(path):
    return [r["seq"] for r in whole_file(path)[2] if r["entry"] == "snapshot"][2]


def _one_more_round(text):
    data = json.loads(text)
    data["counters"]["rounds"] += 1
    return chain.canonical(data).decode()


def _edit_row(seq_of, edit):
    def tamper_(p):
        seq = seq_of(p)

        def fn(rows):
            rows[seq - 1]["data"] = edit(rows[seq - 1]["data"])
            return rows
        tamper.edit_rows(p, fn)
    return tamper_


def _meter(p):
    def fn(meters):
        meters["progressive.progressive.value"] += 100
        return meters
    tamper.edit_meters(p, fn)


# each said once on the rows, the meters and the head, made in the file's own format
TAMPERS = {
    "untouched": lambda p: None,
    "an edited wager": _edit_row(_wager, lambda t: t.replace("500", "5000")),
    "a deleted row": lambda p: tamper.edit_rows(p, lambda rows: [r for r in rows
                                                                 if r["seq"] != 40]),
    "a cut tail": lambda p: tamper.edit_rows(p, lambda rows: [r for r in rows
                                                              if r["seq"] <= 80]),
    "an edited meter": _meter,
    "a row outside the chain": lambda p: tamper.set_head(p, 70),
    # the chain recomputed after the edit: only the replay can tell
    "a rehashed wager": lambda p: tamper.rewrite(p, _wager(p), lambda t: t.replace("500",
                                                                                   "5000")),
    "a rehashed snapshot": lambda p: tamper.rewrite(p, _snapshot(p), _one_more_round),
}


@pytest.mark.parametrize("tamper_", sorted(TAMPERS))
def test_streaming_verify_answers_as_the_whole_file_check(either_copy, tamper_):
    """On SQLite and on the log: the log keeps no head apart from its rows, so there "a row
    outside the chain" is not a tamper it can be given (skipped), and "a cut tail" is a
    shorter chain: the meters after it find it (and the anchor, at boot)."""
    if TAMPERS[tamper_](either_copy) is None and tamper_ == "a row outside the chain":
        pytest.skip("the sector log stores no head apart from its rows")
    _, expected, _ = whole_file(either_copy)
    ok, message, replay = verify_path(str(either_copy))
    assert ok == (expected is None)
    if tamper_ == "untouched":
        assert ok, message
    else:
        assert not ok and message.endswith("first bad row %d: %s"
                                           % (expected.seq, expected.reason)), message


def test_verify_keeps_no_history_of_the_rounds_it_replays(journal_copy):
    ok, _, replay = verify_path(str(journal_copy))
    assert ok and replay.counters["rounds"] == 3 and replay.last_round == 3
    assert replay.rounds == {}
    assert replay.ctl.refusals == [] and len(replay.ctl.lockouts) <= 1
    nmb = replay.ctl.policy(NoMoreBets)                 # one press a round: the last kept
    assert len(nmb.press_log) == 3 and nmb.press_log.maxlen == PRESS_LOG


@pytest.mark.reg("581.7(q)")
def test_show_replays_a_round_from_the_last_snapshot_before_it(journal_copy):
    full, _, rows = whole_file(journal_copy)
    snaps = [(r["seq"], r["round_no"]) for r in rows if r["entry"] == "snapshot"]
    for n in (1, 2, 3):
        assert show_round(str(journal_copy), n) == reconstruct(rows, full, n)
        store = open_journal(str(journal_copy))
        try:
            replay, problem = check(store, model_class(GAME), round_no=n)
        finally:
            store.close()
        assert problem is None and list(replay.rounds) == [n]
        assert replay.start_seq == max(seq for seq, r in snaps if r < n)
        assert replay.last_step[0]["seq"] == full.rounds[n]["last"]   # not a step further


def test_show_of_a_round_the_journal_does_not_hold_names_the_last(journal_copy):
    with pytest.raises(JournalError, match=r"has no round 7 \(rounds 1\.\.3\)"):
        show_round(str(journal_copy), 7)
