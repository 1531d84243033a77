"""What whoever can write the journal's file can do to it, in either format (issue 16).

The tamper tests were written against SQLite (sqlite3 on the file); the sector log has no
tables to edit, so a tamper here is said once, on the rows, the meters and the head, and
made in the file's own format: SQLite's tables edited in place, or the log written again
whole (its header sector kept, the rows with the hashes as stored, the meters and the meta
after them, a keyed journal's head mac as stored) with every CRC made to hold, as someone
who knows the format would. So the same tamper is checked on both formats: what catches it
is the chain, the head, the replay and the anchor, never a CRC.

    edit_rows(path, fn)      fn(rows) -> rows: dicts with their stored prev_hash and hash
    edit_meters(path, fn)    fn(meters) -> meters
    rewrite(path, seq, edit, key=None)   row seq's data edited, every hash from it on (and
                                         the head) recomputed, under `key` if given
    strip_key(path)          a keyed journal made unkeyed, every row rehashed SHA-256
    drop_meta(path, *keys)   meta items taken out (the log's header written anew)
    set_head(path, seq)      SQLite's head in meta set to `seq` (the log keeps no head apart
                             from its rows: None there, the caller skips)
"""
import os
import sqlite3

from controller.journal import log as L
from controller.journal.chain import GENESIS_HASH, canonical, row_body, row_hash
from controller.journal.formats import format_of, open_journal
from controller.journal.store import COLUMNS, head_mac


def _read(path):
    store = open_journal(str(path), readonly=True)
    try:
        return (list(store.rows()), store.meters(), store.meters_seq(), dict(store._meta)
                if format_of(str(path)) == "log" else None, store.meta("head_mac"))
    finally:
        store.close()


def _write_log(path, rows, meters, meters_seq, meta, mac, header=None):
    """The log at `path` written again whole with these rows, hashes as given (its header
    sector kept, or `header`, the header's fields, written anew)."""
    path = str(path)
    if header is not None:
        header = L._header_bytes(header)
    else:
        with open(path, "rb") as f:
            header = f.read(L.SECTOR)
    tmp = path + ".tamper"
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.pwrite(fd, header, 0)
        L._zero(fd, L.SECTOR, L.SEGMENT)
        os.pwrite(fd, L._slot_bytes(1, 0, b""), L.SECTOR)
    finally:
        os.close(fd)
    store = L.LogStore(tmp)                         # no key needed: _commit checks none
    store.sync = False
    store._index_close()                            # no index: the next opening scans
    try:
        for i in range(0, len(rows), 50):
            store._commit([(b"R", row_body(r) + bytes.fromhex(r["hash"]))
                           for r in rows[i:i + 50]])
        store._commit([(b"M", canonical({"set": meters, "gone": [], "seq": meters_seq}))])
        store._commit([(b"K", canonical(meta))])
        if mac:
            store._commit([(b"H", bytes.fromhex(mac))])
        os.fsync(store.fd)
    finally:
        store.close()
    os.replace(tmp, path)
    for leftover in (path + ".index", tmp + ".index"):
        if os.path.exists(leftover):
            os.unlink(leftover)


def sql(path, *statements):
    """Each (statement, args) on the SQLite file at `path`, committed once."""
    db = sqlite3.connect(str(path))
    for statement, args in statements:
        db.execute(statement, args)
    db.commit()
    db.close()


def edit_rows(path, fn):
    rows, meters, meters_seq, meta, mac = _read(path)
    new = fn([dict(r) for r in rows])
    if format_of(str(path)) == "log":
        _write_log(path, new, meters, meters_seq, meta, mac)
        return
    sql(path, ("DELETE FROM journal", ()),
         *[("INSERT INTO journal VALUES (%s)" % ", ".join("?" * len(COLUMNS)),
            tuple(r[c] for c in COLUMNS)) for r in new])


def edit_meters(path, fn):
    rows, meters, meters_seq, meta, mac = _read(path)
    new = fn(dict(meters))
    if format_of(str(path)) == "log":
        _write_log(path, rows, new, meters_seq, meta, mac)
        return
    sql(path, ("DELETE FROM meters", ()),
         *[("INSERT INTO meters VALUES (?, ?)", (k, v)) for k, v in new.items()])


def rewrite(path, seq, edit, key=None):
    """Row `seq`'s data text edited, then every hash from it on recomputed (under `key`, or
    SHA-256 without it), and the head with it (a keyed head's mac too, under `key`)."""
    def fn(rows):
        prev = rows[seq - 2]["hash"] if seq > 1 else GENESIS_HASH
        for row in rows[seq - 1:]:
            if row["seq"] == seq:
                row["data"] = edit(row["data"])
            row["prev_hash"] = prev
            row["hash"] = prev = row_hash(prev, row, key)
        return rows
    if format_of(str(path)) == "log":
        rows, meters, meters_seq, meta, mac = _read(path)
        rows = fn([dict(r) for r in rows])
        if key is not None and mac:
            mac = head_mac(key, rows[-1]["seq"], rows[-1]["hash"])
        _write_log(path, rows, meters, meters_seq, meta, mac)
        return
    from tests.journal.conftest import rewrite as sqlite_rewrite
    sqlite_rewrite(path, seq, edit, key)


def strip_key(path):
    """A keyed journal made an unkeyed one, as whoever lacks the key would: its chain and
    key id taken out, its head mac gone, every row rehashed with SHA-256 from row 1."""
    if format_of(str(path)) != "log":
        sql(path, ("DELETE FROM meta WHERE key IN ('chain', 'key_id', 'head_mac')", ()))
        rewrite(path, 1, lambda data: data)
        return
    rows, meters, meters_seq, meta, _ = _read(path)
    info = _header_info(path)
    for k in ("chain", "key_id"):
        info.pop(k, None)
        meta.pop(k, None)
    prev = GENESIS_HASH
    for row in rows:
        row["prev_hash"] = prev
        row["hash"] = prev = row_hash(prev, row)
    _write_log(path, rows, meters, meters_seq, meta, None, header=info)


def _header_info(path):
    import json
    with open(str(path), "rb") as f:
        raw = f.read(L.SECTOR)
    n = L.LEN.unpack_from(raw, len(L.MAGIC))[0]
    return json.loads(raw[len(L.MAGIC) + L.LEN.size:len(L.MAGIC) + L.LEN.size + n])


def drop_meta(path, *keys):
    """Meta items taken out (`anchored`: the journal no longer says an anchor was written):
    from SQLite's meta table, or from the log's header and meta, the log written again."""
    if format_of(str(path)) != "log":
        sql(path, *[("DELETE FROM meta WHERE key = ?", (k,)) for k in keys])
        return
    rows, meters, meters_seq, meta, mac = _read(path)
    info = _header_info(path)
    for k in keys:
        info.pop(k, None)
        meta.pop(k, None)
    _write_log(path, rows, meters, meters_seq, meta, mac, header=info)


def set_head(path, seq):
    if format_of(str(path)) == "log":
        return None
    sql(path, ("UPDATE meta SET value = ? WHERE key = 'head_seq'", (str(seq),)))
    return True
