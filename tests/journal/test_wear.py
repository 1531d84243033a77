"""What an input's commit writes to the disk (issue 16, SD wear), read from the -wal itself.

A commit is its WAL frames, one page and a 24-byte header each, and the kernel counts every
4 KiB page of the -wal a commit dirties again: each frame more than the journal's last leaf
and meta's page (the head) is wear. These tests read the frames each commit wrote and name
their pages by b-tree (SQLite's dbstat), so a schema or writer change that adds a page to
every commit (the meters rewritten unchanged, the head in several statements' pages, an
index) fails here rather than in the wear bench's figures.
"""
import os
import shutil
import sqlite3
import struct

import pytest

from controller.journal.formats import format_of

from controller.journal import store as S
from controller.journal.live import INPUT_RECORDS
from controller.journal.store import Store
from controller.lab.sim import Simulation

FRAME_HEADER, WAL_HEADER = 24, 32


def commits(path):
    """[[page numbers of each commit's frames], ...] from PATH-wal."""
    with open(path + "-wal", "rb") as f:
        wal = f.read()
    size = struct.unpack(">I", wal[8:12])[0] + FRAME_HEADER
    out, cur, off = [], [], WAL_HEADER
    while off + size <= len(wal):
        pgno, commit = struct.unpack(">II", wal[off:off + 8])
        cur.append(pgno)
        if commit:
            out.append(cur)
            cur = []
        off += size
    return out


def owners(db):
    try:
        return {p: name for name, p in db.execute("SELECT name, pageno FROM dbstat")}
    except sqlite3.OperationalError:
        pytest.skip("this SQLite has no dbstat")


def fresh_store(tmp_path):
    store = Store.create(str(tmp_path / "j.db"), entries=[
        (1, "controller", "genesis", "genesis", 0, {"format": 1})],
        meters={"rounds": 0, "voids": 0})
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.db.execute("PRAGMA wal_autocheckpoint=0")     # every commit stays in the -wal
    return store


def test_a_new_journal_has_small_pages_and_checkpoints_seldom(tmp_path):
    store = fresh_store(tmp_path)
    try:
        assert store.db.execute("PRAGMA page_size").fetchone()[0] == S.PAGE_SIZE == 512
        other = Store(store.path)
        try:                 # every writer's connection, not only the creator's
            assert other.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == \
                S.WAL_AUTOCHECKPOINT
            assert other.db.execute("PRAGMA journal_size_limit").fetchone()[0] == \
                S.JOURNAL_SIZE_LIMIT
        finally:
            other.close()
    finally:
        store.close()


def test_an_input_commits_the_journal_leaf_and_the_head_and_nothing_unchanged(tmp_path):
    store = fresh_store(tmp_path)
    try:
        data = {"seat": "3", "wager": "main", "amount": 2500}
        for i in range(40):                       # inputs, the meters unchanged
            store.append([(10 + i, "sensor", "event", "wager", 1, data)],
                         meters={"rounds": 0, "voids": 0})
        store.append([(99, "controller", "record", "tick", 1, {})],
                     meters={"rounds": 1, "voids": 0})        # a round ended: one meter
        found = commits(store.path)
        names = owners(store.db)
    finally:
        store.close()
    assert len(found) == 41                      # one commit per append
    named = [["header" if p == 1 else names.get(p, "?") for p in c] for c in found]
    for pages in named[:-1]:
        assert "meters" not in pages, pages       # in place, and only what changed
        assert pages.count("meta") == 1 and "journal" in pages, pages
        assert set(pages) <= {"journal", "meta", "header"}, pages
    # most inputs fit the last leaf: two frames, the leaf and the head
    assert sum(len(p) == 2 for p in named[:-1]) >= len(named) // 3, named
    assert named[-1].count("meters") == 1, named[-1]


def test_a_journal_of_the_previous_version_keeps_its_pages(tmp_path):
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                       "main-08d13d7-raise-it-up-stud.db")
    path = str(tmp_path / "old.db")
    shutil.copy(src, path)
    store = Store(path)
    try:
        size = store.db.execute("PRAGMA page_size").fetchone()[0]
        seq = store.append([(store.latest_ts() + 1, "controller", "record", "note", 0, {})])
        assert store.verify() is None and seq == store.last_seq
        assert store.db.execute("PRAGMA page_size").fetchone()[0] == size != S.PAGE_SIZE
    finally:
        store.close()


# rows a commit is made for (committed before they are applied): the events, the input
# records (live.INPUT_RECORDS), the console's commands and the controller's own steps
STEPS = ("tick", "clock", "resume_void", "integrity_lock")


def is_input(row):
    kind = row[3]
    return row[2] == "event" or kind in INPUT_RECORDS or kind in STEPS or \
        kind.startswith("console")


@pytest.mark.parametrize("fmt", ["sqlite", "log"])
def test_a_table_playing_commits_once_per_input_and_its_anchor_once_per_round(tmp_path, fmt,
                                                                              monkeypatch):
    """Props & Hops, the game with the fewest inputs a round (12), so each fsync that is no
    input's weighs most (issue 16: <= 1.1 per input): every commit is an input's, the
    round's derived rows (its snapshot, the meters) ride with the next round's first input,
    and the anchor's fdatasync is the one other sync, once a round. On either format; on
    the sector log also what each commit gives the disk: whole sectors, a sector of the log
    proper written once, and one tail slot a commit."""
    path = tmp_path / "j.db"
    if fmt == "sqlite":                      # an older version's journal, resumed as SQLite
        from tests.journal.legacy import sqlite_journal
        sqlite_journal(path, "props-and-hops")
    s = Simulation("props-and-hops", 1, journal=str(path))
    assert format_of(str(path)) == fmt
    writes = []
    try:
        store, commits, anchors = s.ctl.store, [], []
        append = store._append
        if fmt == "log":
            pwrite = store._pwrite
            store._pwrite = lambda data, offset: (writes.append((offset, len(data))),
                                                  pwrite(data, offset))[1]

        def counted(entries, meters, meters_after=None):
            commits.append(list(entries))
            return append(entries, meters, meters_after)
        store._append = counted
        for w in s.ctl.journal.witnesses:
            write = w.write
            w.write = (lambda a, write=write: (anchors.append(a["seq"]), write(a))[1])
        rounds = 4
        assert s.run(rounds) == rounds and not s.stuck
    finally:
        s.close()
    *playing, last = commits                 # the run's end commits what it left held
    assert all(sum(map(is_input, rows)) == 1 for rows in playing), \
        [[r[3] for r in rows] for rows in playing if sum(map(is_input, rows)) != 1]
    snapshots = [rows for rows in playing if any(r[2] == "snapshot" for r in rows)]
    assert len(snapshots) == rounds - 1 and all(is_input(rows[-1]) for rows in snapshots), \
        [[r[3] for r in rows] for rows in snapshots]
    assert [r[2] for r in last] == ["snapshot"]
    # the close writes the anchor once more (a clean stop), after the last round's end
    assert rounds <= len(anchors) <= rounds + 1
    assert (len(playing) + rounds) / len(playing) <= 1.1    # the fsyncs per input
    if fmt == "log":
        from controller.journal import log as L
        assert all(o % L.SECTOR == 0 and n % L.SECTOR == 0 for o, n in writes), writes
        slots = [o for o, n in writes if o < L.FIRST * L.SECTOR]
        assert set(slots) <= {L.SECTOR, 2 * L.SECTOR} and len(slots) == len(commits)
        proper = [o // L.SECTOR + i for o, n in writes if o >= L.FIRST * L.SECTOR
                  for i in range(n // L.SECTOR)]
        assert proper and len(proper) == len(set(proper))     # no sector written twice
