"""A journal cannot be swapped, emptied, rolled back or shared (issue 11), and a boot that
verifies from its anchor still catches tampering before and after it (issue 16)."""
import os
import shutil
import signal
import subprocess
import sys

import pytest

from controller import cli
from controller.errors import JournalError, JournalInUse
from controller.games.engine import LOCKED_OUT
from controller.journal import boot
from controller.journal.anchor import FileWitness, anchor_path
from controller.journal.formats import format_of
from controller.journal.store import Store
from tests.journal import tamper
from tests.journal.conftest import KEY, rewrite, rows_of, simulate
from tests.journal.test_boot import fresh

GAME = "raise-it-up-stud"


def boot_riu(path, **kw):
    table, policies = fresh(GAME)
    return boot(str(path), table, policies, **kw)


def locked_reason(path, **kw):
    """Boot, return (state, lock-out reason, boot report), close."""
    ctl = boot_riu(path, **kw)
    try:
        return ctl.model.state, (ctl.model.lockout or {}).get("reason") or "", \
            dict(ctl.boot_report)
    finally:
        ctl.close()


def side_journals(path):
    d = os.path.dirname(str(path))
    return sorted(f for f in os.listdir(d) if ".refused-" in f and f.endswith(".db"))


# ---- never adopted as new ------------------------------------------------------------------

def test_a_zero_byte_journal_boots_locked_out_and_is_kept_as_found(journal_copy):
    open(journal_copy, "wb").close()
    state, reason, report = locked_reason(journal_copy)
    assert state == LOCKED_OUT and not report["created"]
    assert "is empty (0 bytes)" in reason and "never adopted as new" in reason
    assert os.path.getsize(journal_copy) == 0               # the evidence, untouched
    assert len(side_journals(journal_copy)) == 1            # this boot's rows went beside it
    # and every later boot says so again: the file is not adopted the second time either
    state, reason, _ = locked_reason(journal_copy)
    assert state == LOCKED_OUT and "is empty (0 bytes)" in reason


def test_a_rowless_journal_boots_locked_out_naming_its_head(either_copy):
    """Either format (tamper.py): the log keeps no head apart from its rows, so there it is
    a journal with no rows, emptied (never adopted as new)."""
    journal_copy = either_copy
    head = rows_of(journal_copy)[-1]["seq"]
    tamper.edit_rows(journal_copy, lambda rows: [])
    state, reason, _ = locked_reason(journal_copy)
    assert state == LOCKED_OUT
    if format_of(str(journal_copy)) == "log":
        assert "has no rows: emptied" in reason, reason
    else:
        assert "has no rows, but its head names row %d: emptied" % head in reason
    assert rows_of(journal_copy) == []                       # not begun again in place


def test_a_journal_whose_head_does_not_match_its_rows_boots_locked_out(either_copy):
    """Either format (tamper.py): on the log, with no head apart from its rows, the anchor."""
    journal_copy = either_copy
    last = rows_of(journal_copy)[-1]["seq"]
    tamper.edit_rows(journal_copy, lambda rows: [r for r in rows if r["seq"] <= last - 4])
    state, reason, _ = locked_reason(journal_copy)
    assert state == LOCKED_OUT and "ends at row %d" % (last - 4) in reason, reason


def test_a_file_that_is_not_a_journal_boots_locked_out(journal_copy):
    with open(journal_copy, "wb") as f:
        f.write(b"not a database at all" * 100)
    state, reason, _ = locked_reason(journal_copy)
    assert state == LOCKED_OUT and "not a journal" in reason


def test_no_file_but_an_anchor_naming_rows_is_a_moved_journal_not_a_new_one(journal_copy):
    os.unlink(journal_copy)
    state, reason, _ = locked_reason(journal_copy)
    assert state == LOCKED_OUT and "there is no journal file, but" in reason
    assert not os.path.exists(journal_copy)


def test_journal_init_makes_the_one_new_journal_and_refuses_an_existing_file(
        journal_copy, tmp_path, capsys):
    assert cli.main(["journal", "init", str(journal_copy)]) == 2
    assert "already exists" in capsys.readouterr().err
    path = tmp_path / "new.db"
    assert cli.main(["journal", "init", str(path)]) == 0
    assert "initialized" in capsys.readouterr().out
    ctl = boot_riu(path)
    try:
        assert ctl.boot_report["created"] and ctl.model.state != LOCKED_OUT
        assert [r["kind"] for r in ctl.store.rows()] == ["genesis", "snapshot", "clock"]
    finally:
        ctl.close()
    assert cli.main(["journal", "verify", str(path)]) == 0


def test_a_new_journal_is_created_whole_where_no_file_was(tmp_path):
    path = tmp_path / "t.db"
    ctl = boot_riu(path)
    try:
        assert ctl.boot_report["created"] and ctl.store.last_seq == 3
    finally:
        ctl.close()
    assert not [f for f in os.listdir(tmp_path) if ".new-" in f]      # no temporary left
    anchor = FileWitness(str(path)).read()
    assert anchor["seq"] == rows_of(path)[-1]["seq"]


# ---- rollbacks -----------------------------------------------------------------------------

def test_an_older_copy_put_back_is_caught_at_boot_by_the_anchor_file(journal_copy, tmp_path):
    older = tmp_path / "older.db"
    shutil.copy(journal_copy, older)
    simulate(journal_copy, GAME, rounds=1, seed=2)           # the table plays on
    shutil.copy(older, journal_copy)                          # the database rolled back
    state, reason, _ = locked_reason(journal_copy)
    assert state == LOCKED_OUT and "rolled back" in reason, reason


def test_a_keyed_journal_with_its_tail_cut_and_head_edited_is_caught(either_keyed):
    """Either format (tamper.py): the head's mac, as stored, is the longer chain's."""
    keyed = either_keyed
    rows = rows_of(keyed)
    keep = rows[-6]
    tamper.edit_rows(keyed, lambda rows: [r for r in rows if r["seq"] <= keep["seq"]])
    if format_of(str(keyed)) != "log":                        # the log's head is its rows
        tamper.sql(keyed, ("UPDATE meta SET value = ? WHERE key = 'head_seq'",
                            (str(keep["seq"]),)),
                    ("UPDATE meta SET value = ? WHERE key = 'head_hash'", (keep["hash"],)))
    os.unlink(anchor_path(keyed))                             # the anchor file too
    state, reason, _ = locked_reason(keyed, key=KEY)
    assert state == LOCKED_OUT and "not authenticated by the key" in reason, reason


def test_an_anchor_file_edited_back_is_refused_on_a_keyed_journal(keyed, tmp_path):
    a = FileWitness(str(keyed)).read()
    a["seq"] = 5
    a["hash"] = rows_of(keyed)[4]["hash"]
    os.unlink(anchor_path(keyed))                     # a well-formed file, but not the key's
    w = FileWitness(str(keyed))
    w.write(a)
    w.close()
    state, reason, _ = locked_reason(keyed, key=KEY)
    assert state == LOCKED_OUT and "not authenticated by the journal key" in reason


def test_a_deleted_anchor_file_is_caught(journal_copy):
    os.unlink(anchor_path(journal_copy))
    state, reason, _ = locked_reason(journal_copy)
    assert state == LOCKED_OUT and "is missing" in reason


def test_a_keyed_journal_rewritten_unkeyed_is_refused_when_a_key_is_configured(
        either_keyed):
    """Either format (tamper.strip_key: the log's header written anew without its key)."""
    keyed = either_keyed
    tamper.strip_key(keyed)                                   # SHA-256 from row 1
    with pytest.raises(JournalError, match="is not keyed, but a key was given"):
        boot_riu(keyed, key=KEY)
    state, reason, _ = locked_reason(keyed)                    # no key: its anchor says keyed
    assert state == LOCKED_OUT and "written for a keyed journal" in reason


def _play_and_die(path, rounds):
    """A child process that plays on an SQLite journal of an older version (a new journal
    is a sector log: tests/journal/legacy.py) and is killed with its rows still in the -wal."""
    from tests.journal.legacy import sqlite_journal
    sqlite_journal(path, GAME, seed=3)
    code = ("import os, signal, sys; from tests.journal.conftest import simulate\n"
            "from controller.lab.sim import Simulation\n"
            "s = Simulation(%r, 3, (), journal=%r); s.run(%d)\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n" % (GAME, str(path), rounds))
    # SQLite's -wal, whatever new journals are made as (the log's torn writes and power
    # cuts: tests/journal/test_log.py, test_power_loss.py)
    r = subprocess.run([sys.executable, "-c", code], cwd=os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))), capture_output=True, timeout=120)
    assert r.returncode == -signal.SIGKILL, r.stderr[-2000:]


@pytest.mark.parametrize("damage", ["deleted", "truncated", "flipped"])
def test_a_damaged_wal_after_a_kill_is_caught_or_loses_nothing(tmp_path, damage):
    path = tmp_path / "t.db"
    _play_and_die(path, 3)
    wal = str(path) + "-wal"
    assert os.path.getsize(wal) > 0
    settled_before = _settled(path)                 # what the table had when it died
    if damage == "deleted":
        os.unlink(wal)
    elif damage == "truncated":
        with open(wal, "r+b") as f:
            f.truncate(os.path.getsize(wal) // 2)
    else:
        with open(wal, "r+b") as f:
            f.seek(os.path.getsize(wal) // 2)
            b = f.read(1)
            f.seek(-1, 1)
            f.write(bytes([b[0] ^ 0xFF]))
    state, reason, _ = locked_reason(path)
    if state == LOCKED_OUT:
        assert "rolled back" in reason or "row" in reason, reason
    else:                                           # not caught: then nothing was lost
        assert _settled(path) == settled_before


def _settled(path):
    """The settled rounds in the journal at `path`, read from a copy (closing the last
    connection to the file itself would checkpoint its -wal)."""
    scratch = str(path) + ".scratch"
    os.makedirs(scratch, exist_ok=True)
    for suffix in ("", "-wal"):
        if os.path.exists(str(path) + suffix):
            shutil.copy(str(path) + suffix, os.path.join(scratch, "j.db" + suffix))
    store = Store(os.path.join(scratch, "j.db"))
    try:
        return store.meters().get("rounds")
    finally:
        store.close()
        shutil.rmtree(scratch)


# ---- one controller per journal ------------------------------------------------------------

def test_a_second_controller_on_a_journal_in_use_is_refused_naming_the_pid(journal_copy,
                                                                           capsys):
    ctl = boot_riu(journal_copy)
    try:
        with pytest.raises(JournalInUse, match=r"in use by process %d" % os.getpid()):
            boot_riu(journal_copy)
        rc = cli.main(["sim", "--game", GAME, "--rounds", "1", "--journal", str(journal_copy)])
        err = capsys.readouterr().err
        assert rc == 2 and str(journal_copy) in err and str(os.getpid()) in err, err
        assert len(err.strip().splitlines()) == 1
    finally:
        ctl.close()
    boot_riu(journal_copy).close()                   # released at close: the next one boots


def test_the_lock_is_another_process_s_and_dies_with_it(journal_copy, capsys):
    code = ("import sys, time; from tests.journal.test_integrity import boot_riu\n"
            "ctl = boot_riu(%r); print('held', flush=True); time.sleep(60)\n"
            % str(journal_copy))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    child = subprocess.Popen([sys.executable, "-c", code], cwd=root, stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout.readline().strip() == "held"
        rc = cli.main(["sim", "--game", GAME, "--rounds", "1", "--journal", str(journal_copy)])
        err = capsys.readouterr().err
        assert rc == 2 and "in use by process %d" % child.pid in err, err
    finally:
        child.kill()
        child.wait()
    boot_riu(journal_copy).close()                   # a killed holder leaves no stale lock


# ---- boot from the anchor: tampering before and after it -----------------------------------

def test_tampering_before_the_anchor_is_caught_by_verify_and_the_idle_check(either_copy,
                                                                           capsys):
    """Either format (tests/journal/tamper.py)."""
    journal_copy = either_copy
    tamper.edit_rows(journal_copy, lambda rows: [r for r in rows if r["seq"] != 20])
    ctl = boot_riu(journal_copy)
    try:
        assert ctl.model.state != LOCKED_OUT                   # the fast boot skipped it...
        assert ctl.boot_report["verified_from"] > 20
        brk = ctl.journal.verify_older_rows(pause_s=0)                # ...the idle check does not
        assert brk is not None and brk.seq == 20
        ctl.tick()
        assert ctl.model.state == LOCKED_OUT
        assert "row 20: missing" in ctl.model.lockout["reason"]
    finally:
        ctl.close()
    assert cli.main(["journal", "verify", str(journal_copy)]) == 1
    assert "first bad row 20" in capsys.readouterr().out


def test_tampering_after_the_anchor_is_caught_at_boot(either_copy, tmp_path):
    """Either format (tests/journal/tamper.py)."""
    journal_copy = either_copy
    older_anchor = open(anchor_path(journal_copy), "rb").read()
    simulate(journal_copy, GAME, rounds=1, seed=2)
    with open(anchor_path(journal_copy), "wb") as f:     # the anchor as it was a round ago
        f.write(older_anchor)
    after = FileWitness(str(journal_copy)).read()["seq"] + 3

    def edit(rows):
        rows[after - 1]["data"] += " "
        return rows
    tamper.edit_rows(journal_copy, edit)
    state, reason, _ = locked_reason(journal_copy)
    assert state == LOCKED_OUT and "row %d" % after in reason, reason


def test_an_anchor_write_cut_short_leaves_the_one_before(tmp_path):
    """The anchor file's two slots: a torn write of the newer loses only that one."""
    path = str(tmp_path / "j.db")
    w = FileWitness(path)
    w.write({"format": 1, "seq": 5, "hash": "a" * 64, "key_id": None, "mac": None})
    w.write({"format": 1, "seq": 9, "hash": "b" * 64, "key_id": None, "mac": None})
    w.close()
    assert FileWitness(path).read()["seq"] == 9
    with open(anchor_path(path), "r+b") as f:          # the power cut mid-write of slot 1
        f.seek(512 + 20)
        f.write(b"\0" * 30)
    assert FileWitness(path).read()["seq"] == 5
    w = FileWitness(path)                              # and the next write goes over it
    w.read()
    w.write({"format": 1, "seq": 12, "hash": "c" * 64, "key_id": None, "mac": None})
    w.close()
    assert FileWitness(path).read()["seq"] == 12



def _direct_taken(where):
    try:
        os.close(os.open(str(where), os.O_RDONLY | getattr(os, "O_DIRECT", 0)))
        return True
    except OSError:
        return False


def test_the_anchor_file_is_one_block_rewritten_in_place_a_slot_at_a_time(tmp_path):
    """Issue 16 (SD wear): a round's anchor is one sector given to the device, so the file is
    a whole block made once, each write an O_DIRECT overwrite of one slot in it: its size
    and its inode never change, and the slot not written is left as it was."""
    from controller.journal.anchor import FILE_SIZE, SLOT
    path = str(tmp_path / "j.db")
    w = FileWitness(path)
    w.write({"format": 1, "seq": 5, "hash": "a" * 64, "key_id": None, "mac": None})
    st = os.stat(anchor_path(path))
    assert st.st_size == FILE_SIZE
    w.write({"format": 1, "seq": 9, "hash": "b" * 64, "key_id": None, "mac": None})
    before = open(anchor_path(path), "rb").read()
    w.write({"format": 1, "seq": 12, "hash": "c" * 64, "key_id": None, "mac": None})
    after = open(anchor_path(path), "rb").read()
    if _direct_taken(anchor_path(path)):
        assert w.direct is not None                 # the slot went to the device itself
    w.close()
    again = os.stat(anchor_path(path))
    assert (again.st_size, again.st_ino) == (FILE_SIZE, st.st_ino)
    assert after[SLOT:] == before[SLOT:] and after[:SLOT] != before[:SLOT]
    assert FileWitness(path).read()["seq"] == 12


def test_an_older_shorter_anchor_file_is_read_then_extended_to_a_block_once(tmp_path):
    """An anchor file of an older version (two slots, 1 KiB) keeps its anchor, and its first
    write makes it the whole block the O_DIRECT writes need."""
    from controller.journal.anchor import FILE_SIZE, SLOT
    path = str(tmp_path / "j.db")
    w = FileWitness(path)
    old = {"format": 1, "seq": 7, "hash": "d" * 64, "key_id": None, "mac": None}
    with open(anchor_path(path), "wb") as f:          # as the version before wrote it
        f.write(w._line(old) + bytes(SLOT))
    assert FileWitness(path).read() == old
    w.read()
    w.write({"format": 1, "seq": 8, "hash": "e" * 64, "key_id": None, "mac": None})
    w.close()
    assert os.path.getsize(anchor_path(path)) == FILE_SIZE
    assert FileWitness(path).read()["seq"] == 8
    assert FileWitness(path)._slots(open(anchor_path(path), "rb").read())[0][2] == old


def test_the_clear_s_journal_check_fails_on_a_refused_journal_and_a_rollback(journal_copy,
                                                                            tmp_path):
    """A journal lock-out is cleared only once the journal verifies as `journal verify` does:
    the side journal of a refused boot verifies, the refused one is still as found; a
    rolled-back journal's chain holds, its anchor does not."""
    from controller.clearing import default_journal_check
    older = tmp_path / "older.db"
    shutil.copy(journal_copy, older)
    simulate(journal_copy, GAME, rounds=1, seed=2)
    shutil.copy(older, journal_copy)                          # rolled back
    ctl = boot_riu(journal_copy)
    try:
        ok, text = default_journal_check(ctl)
        assert not ok and "rolled back" in text, text
    finally:
        ctl.close()
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    ctl = boot_riu(empty)
    try:
        ok, text = default_journal_check(ctl)
        assert not ok and "refused the journal %s" % empty in text, text
    finally:
        ctl.close()
