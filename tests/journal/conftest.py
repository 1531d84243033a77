"""A journal written by the real simulator, copied for each test that tampers with it; and
the tampering of whoever can write the file."""
import os
import shutil
import sqlite3

import pytest

from controller.journal.chain import GENESIS_HASH, row_hash
from controller.journal.formats import open_journal
from controller.lab.sim import Simulation


def simulate(path, game="raise-it-up-stud", rounds=3, seed=1, faults=(), key=None):
    s = Simulation(game, seed, faults, journal=str(path), key=key)
    try:
        s.run(rounds)
    finally:
        s.close()
    return s


KEY = b"5f4dcc3b5aa765d61d8327deb882cf99"     # the keyed journal's


def _master(tmp_path_factory, name, **kw):
    path = tmp_path_factory.mktemp(name) / "riu.db"
    simulate(path, **kw)
    return path


def _copy(master, tmp_path):
    """The journal and its anchor file (anchor.py), as a table's disk holds them."""
    path = tmp_path / "table.db"
    shutil.copy(master, path)
    if os.path.exists(str(master) + ".anchor"):
        shutil.copy(str(master) + ".anchor", str(path) + ".anchor")
    return path


@pytest.fixture(scope="session")
def journal_master(tmp_path_factory):
    """The simulated journal as an older version wrote it, SQLite (a new journal is a sector
    log: tests/journal/legacy.py makes the older one)."""
    from tests.journal.legacy import new_journals_as_sqlite
    with new_journals_as_sqlite():
        return _master(tmp_path_factory, "journal")


@pytest.fixture
def journal_copy(journal_master, tmp_path):
    return _copy(journal_master, tmp_path)


@pytest.fixture(scope="session")
def log_journal_master(tmp_path_factory):
    """The same simulated journal written as a sector log (journal/log.py)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("TABLECTL_JOURNAL_FORMAT", "log")
    try:
        return _master(tmp_path_factory, "log-journal")
    finally:
        mp.undo()


@pytest.fixture(params=["sqlite", "log"])
def either_copy(request, tmp_path):
    """A copy of the simulated journal in each format: a tamper test said once (tamper.py)
    runs on both."""
    master = request.getfixturevalue("journal_master" if request.param == "sqlite"
                                     else "log_journal_master")
    return _copy(master, tmp_path)


@pytest.fixture(scope="session")
def keyed_master(tmp_path_factory):
    from tests.journal.legacy import new_journals_as_sqlite
    with new_journals_as_sqlite():                  # SQLite, as journal_master
        return _master(tmp_path_factory, "keyed", key=KEY)


@pytest.fixture
def keyed(keyed_master, tmp_path):
    return _copy(keyed_master, tmp_path)


@pytest.fixture(scope="session")
def keyed_log_master(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("TABLECTL_JOURNAL_FORMAT", "log")
    try:
        return _master(tmp_path_factory, "keyed-log", key=KEY)
    finally:
        mp.undo()


@pytest.fixture(params=["sqlite", "log"])
def either_keyed(request, tmp_path):
    """A copy of the keyed journal in each format (tamper.py)."""
    master = request.getfixturevalue("keyed_master" if request.param == "sqlite"
                                     else "keyed_log_master")
    return _copy(master, tmp_path)


def rows_of(path):
    store = open_journal(str(path))            # no key: a keyed journal may still be read
    try:
        return list(store.rows())
    finally:
        store.close()


def rewrite(path, seq, edit, key=None):
    """What whoever can write the file can do: edit row `seq`'s data text, then recompute
    every hash from it on (under `key`, or SHA-256 without it) and the head kept in meta."""
    rows = rows_of(path)
    prev = rows[seq - 2]["hash"] if seq > 1 else GENESIS_HASH
    db = sqlite3.connect(str(path))
    for row in rows[seq - 1:]:
        if row["seq"] == seq:
            row["data"] = edit(row["data"])
        row["prev_hash"] = prev
        row["hash"] = prev = row_hash(prev, row, key)
        db.execute("UPDATE journal SET data = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                   (row["data"], row["prev_hash"], row["hash"], row["seq"]))
    db.execute("UPDATE meta SET value = ? WHERE key = 'head_hash'", (prev,))
    db.commit()
    db.close()
