"""The journal file: SQLite in WAL mode with synchronous=FULL, one transaction per input.

Schema (format 1):
    journal(seq, ts_ns, source, entry, kind, round_no, data, prev_hash, hash)
        seq        1, 2, 3 ... without gaps; the chain's order
        entry      'genesis' | 'snapshot' | 'event' (an input, written before it is applied)
                   | 'record' (what the controller decided or observed)
        data       canonical JSON text; hash = chain.row_hash(prev_hash, row, key)
    meters(name, value)   the regulation meters, written beside the journal, updated in place
    meta(key, value)      head_seq/head_hash (the last row, in the same transaction as it) and,
                          on a keyed journal, head_mac (the head under the key: a cut tail
                          with an edited head is caught); latest_ts (the latest stamp, so a
                          boot reads it instead of scanning); meters_seq (the row the meters
                          were computed after); format; for a keyed journal chain =
                          'hmac-sha256' and key_id (keys.py), written with the format, before
                          any row

A journal file comes into being whole: `Store.create` builds it under a temporary name with
its first rows, fsyncs it and links it into place (never over an existing file), so a file
at the journal's path always has its genesis, and one without (zero bytes, no tables, no
rows) is damage, never a new journal (JournalDamaged). `tablectl journal init` is the one
other way: an empty journal marked `initialized`, whose first boot writes the genesis.

A commit returns only once it is on the disk (synchronous=FULL), so what the controller
applies after `append` returns survives a power cut. New journals use 512-byte pages and
WITHOUT ROWID meta and meters tables: a commit writes the journal's last leaf and one meta
page, which is what an SD card wears by (PAGE_SIZE below). Reading streams: `rows` fetches
in batches of ROWS_PER_FETCH from one cursor, so verifying or replaying a journal of months
holds a batch in memory, not the journal.
"""

import contextlib
import json
import os
import sqlite3
import threading

from controller.errors import JournalDamaged, JournalError
from controller.journal.chain import GENESIS_HASH
from controller.journal.keys import key_id
# the format-neutral parts both stores share, kept importable from here (store.X) as before
from controller.journal.interface import (KEYED, JournalStore, encode_rows,  # noqa: F401
                                          fsync_dir, head_mac, jsonable, link_into_place)

FORMAT = "1"
# What an fsync'd commit writes is its WAL frames, a page and 24 bytes each, and the kernel
# counts each 4 KiB page of the -wal it dirties again: a commit that fits one 4 KiB page is
# the floor. A typical input's commit is two pages (the journal's last leaf and meta's),
# four when the row starts a new leaf (the parent and the header's page count too), so
# 512-byte pages make it 1,072 or 2,144 bytes where 1 KiB pages made 2,096 or 4,192
# (docs/journal.md, "What a commit writes"; bench/journal.py prints it per game).
PAGE_SIZE = 512
# A checkpoint copies every page the -wal holds into the file and fsyncs both; the pages
# rewritten by each commit (meta, the header, the last leaf and its parents) are copied
# once per checkpoint however often they changed, so fewer checkpoints write less: about
# 4 MiB of -wal (some 80 rounds of blackjack) between two. The limit gives the disk back after
# a long reader (the idle verification of a long journal) held a checkpoint off.
WAL_AUTOCHECKPOINT = 8000                # pages
JOURNAL_SIZE_LIMIT = 8 * 2 ** 20         # bytes of -wal kept after a checkpoint
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
CREATE TABLE IF NOT EXISTS meters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)
    WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
"""
COLUMNS = ("seq", "ts_ns", "source", "entry", "kind", "round_no", "data", "prev_hash", "hash")
ROWS_PER_FETCH = 500
UPSERT = "INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
UPSERT_METER = ("INSERT INTO meters VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET "
                "value = excluded.value")
INSERT_ROW = "INSERT INTO journal VALUES (%s)" % ", ".join("?" * len(COLUMNS))
_UPSERT_META = {}


def upsert_meta(n):
    """The statement that writes `n` meta items, (key, value) flattened, in one execution
    (a commit's head, latest_ts, meters_seq): prepared once per n by sqlite3's cache."""
    sql = _UPSERT_META.get(n)
    if sql is None:
        sql = _UPSERT_META[n] = ("INSERT INTO meta VALUES %s ON CONFLICT(key) DO UPDATE SET "
                                 "value = excluded.value" % ", ".join(["(?, ?)"] * n))
    return sql


class Store(JournalStore):
    """One journal file. `Store(path)` opens an existing one; `Store.create(path)` a new one.

    `key` (bytes) is a keyed journal's key, or makes a new journal keyed. A key that is not
    the journal's, or one given for an unkeyed journal, is refused at once; a keyed journal
    opened without its key may be read (`head`, `meta`) but not verified nor written.
    """

    def __init__(self, path, _create=False, key=None, readonly=False):
        self.path = path
        self.key = key
        self.lock = None                 # the JournalLock a writer holds (lock.py)
        # the controller loop and the console both append: one writer at a time keeps the
        # chain's last seq and hash consistent with the rows committed
        self._write = threading.Lock()
        if not _create:
            try:
                size = os.path.getsize(path)
            except FileNotFoundError:
                raise JournalError("journal %s: no such file" % path)
            except OSError as e:
                raise JournalError("journal %s: %s" % (path, e.strerror))
            if size == 0:
                raise JournalDamaged("journal %s is empty (0 bytes): emptied or truncated; a "
                                     "journal file is never adopted as new" % path)
        try:
            if readonly:                 # a reader beside the controller (WAL: never blocks it)
                self.db = sqlite3.connect("file:%s?mode=ro" % path, uri=True, timeout=10,
                                          isolation_level=None, check_same_thread=False)
            else:
                self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            if _create:
                self.db.execute("PRAGMA page_size=%d" % PAGE_SIZE)
            mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA wal_autocheckpoint=%d" % WAL_AUTOCHECKPOINT)
            self.db.execute("PRAGMA journal_size_limit=%d" % JOURNAL_SIZE_LIMIT)
            if _create:
                self.db.executescript(SCHEMA)
                self._set_chain(FORMAT)
            else:
                tables = {r[0] for r in self.db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'")}
                if not {"journal", "meta", "meters"} <= tables:
                    self._refuse("journal %s has no journal tables (%s): not a journal, or "
                                 "one emptied" % (path, ", ".join(sorted(tables)) or "none"),
                                 JournalDamaged)
            fmt = self.meta("format")
            chain = self.meta("chain")
        except sqlite3.DatabaseError as e:
            self._refuse("journal %s: not a journal (%s)" % (path, e), JournalDamaged)
        if fmt != FORMAT:
            self._refuse("journal %s: format %r, this version reads %r" % (path, fmt, FORMAT),
                         JournalDamaged if fmt is None else JournalError)
        if mode.lower() != "wal":
            self._refuse("journal %s: WAL mode not available (%s)" % (path, mode))
        if chain not in (None, KEYED):
            self._refuse("journal %s: chain %r, this version reads SHA-256 and %s"
                         % (path, chain, KEYED))
        self.key_id = self.meta("key_id") if chain == KEYED else None
        self._check_key()
        try:
            last = self.db.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1") \
                .fetchone()
        except sqlite3.DatabaseError as e:
            self._refuse("journal %s cannot be read: %s" % (path, e))
        self.last_seq, self.last_hash = last if last else (0, GENESIS_HASH)
        self._meters = None              # the meters as last written (None: not read yet)
        self._latest_ts = None

    def _refuse(self, message, cls=JournalError):
        if getattr(self, "db", None) is not None:
            self.db.close()
        raise cls(message)

    @classmethod
    def create(cls, path, key=None, entries=(), meters=None, meta=None):
        """A new journal at `path` holding `entries` (its genesis), built under a temporary
        name and linked into place whole; JournalError if `path` exists."""
        if os.path.lexists(path):
            raise JournalError("journal %s: already exists" % path)
        tmp = "%s.new-%d" % (path, os.getpid())
        for leftover in (tmp, tmp + "-wal", tmp + "-shm"):
            if os.path.exists(leftover):
                os.unlink(leftover)
        try:
            store = cls(tmp, _create=True, key=key)
            try:
                if meta:
                    store._put_meta(meta)
                if entries:
                    store.append(list(entries), meters=meters)
                store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                store.close()
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            link_into_place(tmp, path)
        except OSError as e:
            raise JournalError("journal %s: cannot create it: %s" % (path, e.strerror))
        finally:
            for leftover in (tmp, tmp + "-wal", tmp + "-shm"):
                if os.path.exists(leftover):
                    os.unlink(leftover)
        return cls(path, key=key)

    def _put_meta(self, items):
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany(UPSERT, sorted(items.items()))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _set_chain(self, fmt):
        """The format and the chain's kind (keyed or not) in one transaction: a journal is
        never half keyed."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(UPSERT, ("format", fmt))
            if self.key is None:
                db.execute("DELETE FROM meta WHERE key IN ('chain', 'key_id')")
            else:
                db.executemany(UPSERT, [("chain", KEYED), ("key_id", key_id(self.key))])
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def close(self):
        self.db.close()
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    # ---- writing ---------------------------------------------------------------------

    def append(self, entries, meters=None, meters_after=None):
        """Rows [(ts_ns, source, entry, kind, round_no, data)] and optionally the meters,
        in one transaction; returns the seq of the last row. `meters_after` (k): the meters
        are those after the first k rows (the rest, an input, is not applied yet); default
        all of them."""
        self._need_key()
        with self._write:
            return self._append(entries, meters, meters_after)

    def _append(self, entries, meters, meters_after=None):
        meters_seq = self.last_seq + (len(entries) if meters_after is None else meters_after)
        key = self.key
        rows, latest = encode_rows(entries, self.last_seq, self.last_hash, key,
                                   self._latest())
        seq, prev = (rows[-1][0], rows[-1][-1]) if rows else (self.last_seq, self.last_hash)
        changed = gone = None
        if meters is not None:
            old = self.meters() if self._meters is None else self._meters
            changed = [(k, v) for k, v in sorted(meters.items()) if old.get(k) != v]
            gone = sorted(set(old) - set(meters))
        items = []
        if rows:
            items += ["head_seq", str(seq), "head_hash", prev, "latest_ts", str(latest)]
            if key is not None:
                items += ["head_mac", head_mac(key, seq, prev)]
        if meters is not None:
            items += ["meters_seq", str(meters_seq)]
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            if len(rows) == 1:
                db.execute(INSERT_ROW, rows[0])
            elif rows:
                db.executemany(INSERT_ROW, rows)
            if changed:
                db.executemany(UPSERT_METER, changed)            # in place, only what changed
            if gone:
                db.executemany("DELETE FROM meters WHERE name = ?", [(k,) for k in gone])
            if items:
                db.execute(upsert_meta(len(items) // 2), items)   # one statement, one page
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            self._meters = None
            raise
        self.last_seq, self.last_hash = seq, prev
        self._latest_ts = latest
        if meters is not None:
            self._meters = dict(meters)
        return seq

    def _latest(self):
        if self._latest_ts is None and self.last_seq:
            self._latest_ts = self.latest_ts()
        return self._latest_ts

    # ---- reading ---------------------------------------------------------------------

    def hash_at(self, seq):
        """The stored hash of row `seq`, or None when there is no such row."""
        row = self.db.execute("SELECT hash FROM journal WHERE seq = ?", (seq,)).fetchone()
        return None if row is None else row[0]

    def first_record(self, kind):
        """The seq of the first record of `kind`, or None."""
        row = self.db.execute("SELECT seq FROM journal WHERE entry = 'record' AND kind = ? "
                              "ORDER BY seq LIMIT 1", (kind,)).fetchone()
        return None if row is None else row[0]

    def refresh(self):
        """What was committed since (by another Store on the file): True if anything was.
        A reader polls it (SQLite's data_version: one cheap pragma, every poll)."""
        v = self.db.execute("PRAGMA data_version").fetchone()[0]
        was, self._version = getattr(self, "_version", None), v
        if v == was:
            return False
        last = self.db.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1") \
            .fetchone()
        self.last_seq, self.last_hash = last if last else (0, GENESIS_HASH)
        return True

    def legacy_acks(self):
        """The floor uplink's acknowledgements as an older version kept them, in this file's
        own `floor_uplink` table ({} when there is none; now in a file of their own)."""
        try:
            return dict(self.db.execute("SELECT key, value FROM floor_uplink"))
        except sqlite3.OperationalError:
            return {}

    def meta(self, key):
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def meters(self):
        return dict(self.db.execute("SELECT name, value FROM meters"))

    def meters_seq(self):
        seq = self.meta("meters_seq")
        return None if seq is None else int(seq)

    def rows(self, start=1, stop=None):
        """Rows as dicts in seq order, `data` as stored text (see `load`), from `start` to
        before `stop`; fetched a batch at a time."""
        sql = "SELECT %s FROM journal WHERE seq >= ?" % ", ".join(COLUMNS)
        args = [start]
        if stop is not None:
            sql += " AND seq < ?"
            args.append(stop)
        cursor = self.db.execute(sql + " ORDER BY seq", args)
        try:
            yield from batched(cursor)
        finally:
            try:
                cursor.close()
            except sqlite3.ProgrammingError:
                pass                    # the Store was closed first: nothing left to release

    def select(self, kinds=None, last=None, after=0):
        """Rows as dicts in seq order: only `kinds` if given, only the last `last` if given
        (the console's listing: a tail read newest first, never the whole journal), only
        those after row `after`."""
        where, args = " WHERE seq > ?", [int(after)]
        if kinds:
            where += " AND kind IN (%s)" % ", ".join("?" * len(kinds))
            args += list(kinds)
        sql = "SELECT %s FROM journal%s ORDER BY seq" % (", ".join(COLUMNS), where)
        if last is not None:
            sql = "SELECT * FROM (%s DESC LIMIT ?) ORDER BY seq" % sql
            args.append(int(last))
        yield from batched(self.db.execute(sql, args))

    def latest_ts(self):
        """The latest stamp of any row (rows are not in stamp order), or None: from meta when
        it is the head's (one row read), else by a scan (a journal of an older version)."""
        if self.last_seq == 0:
            return None
        latest = self.meta("latest_ts")
        if latest is not None and self.meta("head_seq") == str(self.last_seq):
            return int(latest)
        return self.db.execute("SELECT MAX(ts_ns) FROM journal").fetchone()[0]

    def last_record(self, kind, upto=None):
        """The data of the last record of `kind` (at or before row `upto`, if given), parsed;
        None if there is none or it is not JSON (a damaged row: the chain check reports it)."""
        sql, args = "SELECT data FROM journal WHERE entry = 'record' AND kind = ?", [kind]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        row = self.db.execute(sql + " ORDER BY seq DESC LIMIT 1", args).fetchone()
        try:
            return None if row is None else json.loads(row[0])
        except ValueError:
            return None

    def snapshots(self, below=None, before_round=None, limit=1):
        """Seqs of the last `limit` snapshot rows before row `below`, of a round number
        below `before_round`; newest first."""
        sql, args = "SELECT seq FROM journal WHERE entry = 'snapshot'", []
        if below is not None:
            sql += " AND seq < ?"
            args.append(below)
        if before_round is not None:
            sql += " AND round_no < ?"
            args.append(before_round)
        return [r[0] for r in self.db.execute(sql + " ORDER BY seq DESC LIMIT ?",
                                              args + [limit])]

    @contextlib.contextmanager
    def reading(self):
        """One read transaction: what is read inside is the journal as it was at the first
        read, whatever a table appending to the same file does meanwhile."""
        with self._write:
            self.db.execute("BEGIN")
            try:
                yield self
            finally:
                self.db.execute("COMMIT")



def batched(cursor):
    """A cursor's rows (COLUMNS) as dicts, fetched ROWS_PER_FETCH at a time."""
    while True:
        batch = cursor.fetchmany(ROWS_PER_FETCH)
        if not batch:
            return
        for values in batch:
            yield dict(zip(COLUMNS, values))


def load(row):
    """The row with its data parsed."""
    out = dict(row)
    out["data"] = json.loads(row["data"])
    return out
