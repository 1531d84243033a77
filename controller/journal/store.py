"""The journal file: SQLite in WAL mode with synchronous=FULL, one transaction per append.

Schema (format 1):
    journal(seq, ts_ns, source, entry, kind, round_no, data, prev_hash, hash)
        seq        1, 2, 3 ... without gaps; the chain's order
        entry      'genesis' | 'snapshot' | 'event' (an input, written before it is applied)
                   | 'record' (what the controller decided or observed)
        data       canonical JSON text; hash = chain.row_hash(prev_hash, row)
    meters(name, value)   the regulation meters, written beside the journal
    meta(key, value)      head_seq/head_hash (the last row, in the same transaction as it),
                          meters_seq (the row the meters were computed after), format

A commit returns only once it is on the disk (synchronous=FULL), so what the controller
applies after `append` returns survives a power cut.
"""

import json
import os
import sqlite3
import threading

from controller.errors import JournalError
from controller.journal.chain import GENESIS_HASH, canonical, row_hash, verify

FORMAT = "1"
SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY,
    ts_ns INTEGER NOT NULL,
    source TEXT NOT NULL,
    entry TEXT NOT NULL,
    kind TEXT NOT NULL,
    round_no INTEGER NOT NULL,
    data TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
COLUMNS = ("seq", "ts_ns", "source", "entry", "kind", "round_no", "data", "prev_hash", "hash")


def jsonable(obj):
    """Data as JSON keeps it: tuples as lists, sets sorted, anything else by its text."""
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    if isinstance(obj, float):
        return obj if obj == obj and obj not in (float("inf"), float("-inf")) else repr(obj)
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted((jsonable(v) for v in obj), key=repr)
    if hasattr(obj, "to_json"):
        return jsonable(obj.to_json())
    return str(obj)


class Store:
    """One journal file. `Store(path)` opens an existing one; `Store.create(path)` a new one."""

    def __init__(self, path, _create=False):
        self.path = path
        # the controller loop and the console both append: one writer at a time keeps the
        # chain's last seq and hash consistent with the rows committed
        self._write = threading.Lock()
        if not _create and not os.path.exists(path):
            raise JournalError("journal %s: no such file" % path)
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            self.db.execute("PRAGMA synchronous=FULL")
            if not _create:
                # a file the power cut before its format was written is still a new journal
                tables = {r[0] for r in self.db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'")}
                _create = not tables or ("meta" in tables and self.meta("format") is None
                                         and "journal" in tables and self.db.execute(
                                             "SELECT COUNT(*) FROM journal").fetchone()[0] == 0)
            if _create:
                self.db.executescript(SCHEMA)
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (FORMAT,))
            fmt = self.meta("format")
        except sqlite3.DatabaseError as e:
            raise JournalError("journal %s: not a journal (%s)" % (path, e))
        if fmt != FORMAT:
            raise JournalError("journal %s: format %r, this version reads %r" % (path, fmt, FORMAT))
        if mode.lower() != "wal":
            raise JournalError("journal %s: WAL mode not available (%s)" % (path, mode))
        last = self.db.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1") \
            .fetchone()
        self.last_seq, self.last_hash = last if last else (0, GENESIS_HASH)

    @classmethod
    def create(cls, path):
        if os.path.exists(path) and os.path.getsize(path) > 0:
            raise JournalError("journal %s: already exists" % path)
        return cls(path, _create=True)

    def close(self):
        self.db.close()

    # ---- writing ---------------------------------------------------------------------

    def append(self, entries, meters=None):
        """Rows [(ts_ns, source, entry, kind, round_no, data)] and optionally the meters,
        in one transaction; returns the seq of the last row."""
        with self._write:
            return self._append(entries, meters)

    def _append(self, entries, meters):
        seq, prev = self.last_seq, self.last_hash
        rows = []
        for ts_ns, source, entry, kind, round_no, data in entries:
            seq += 1
            row = {"seq": seq, "ts_ns": int(ts_ns), "source": str(source), "entry": entry,
                   "kind": kind, "round_no": int(round_no or 0),
                   "data": canonical(jsonable(data)).decode("utf-8"), "prev_hash": prev}
            row["hash"] = prev = row_hash(prev, row)
            rows.append(row)
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany("INSERT INTO journal VALUES (%s)" % ",".join("?" * len(COLUMNS)),
                           [tuple(r[c] for c in COLUMNS) for r in rows])
            if rows:
                db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                               [("head_seq", str(seq)), ("head_hash", prev)])
            if meters is not None:
                db.execute("DELETE FROM meters")
                db.executemany("INSERT INTO meters VALUES (?, ?)", sorted(meters.items()))
                db.execute("INSERT OR REPLACE INTO meta VALUES ('meters_seq', ?)", (str(seq),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self.last_seq, self.last_hash = seq, prev
        return seq

    # ---- reading ---------------------------------------------------------------------

    def meta(self, key):
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def head(self):
        seq = self.meta("head_seq")
        return (None if seq is None else int(seq)), self.meta("head_hash")

    def meters(self):
        return dict(self.db.execute("SELECT name, value FROM meters"))

    def meters_seq(self):
        seq = self.meta("meters_seq")
        return None if seq is None else int(seq)

    def rows(self, start=1, stop=None):
        """Rows as dicts in seq order, `data` as stored text (see `load`)."""
        sql = "SELECT %s FROM journal WHERE seq >= ?" % ", ".join(COLUMNS)
        args = [start]
        if stop is not None:
            sql += " AND seq < ?"
            args.append(stop)
        for values in self.db.execute(sql + " ORDER BY seq", args):
            yield dict(zip(COLUMNS, values))

    def latest_ts(self):
        """The latest stamp of any row (rows are not in stamp order), or None."""
        return self.db.execute("SELECT MAX(ts_ns) FROM journal").fetchone()[0]

    def last_record(self, kind):
        """The data of the last record of `kind`, parsed; None if there is none or it is
        not JSON (a damaged row: the chain check reports it)."""
        row = self.db.execute("SELECT data FROM journal WHERE entry = 'record' AND kind = ? "
                              "ORDER BY seq DESC LIMIT 1", (kind,)).fetchone()
        try:
            return None if row is None else json.loads(row[0])
        except ValueError:
            return None

    def verify(self):
        """The first chain.Break, or None."""
        return verify(self.rows(), self.head())


def load(row):
    """The row with its data parsed."""
    out = dict(row)
    out["data"] = json.loads(row["data"])
    return out
