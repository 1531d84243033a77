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

from controller.journal import store as S
from controller.journal.store import Store

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
