"""The sector log: the journal as an append-only file of 512-byte sectors (issue 16, SD wear).

Why: a commit to SQLite's -wal rewrites the journal's last leaf and meta's head, and the
kernel counts each 4 KiB page it dirties: 15-21x the rows' bytes (docs/performance.md). Here
a commit is its rows, deflated, and the disk is given the sectors it fills and one more.

Layout (SECTOR bytes each; every integer little-endian):
    sector 0        the header, written once: MAGIC, the header's JSON (format,
                    chain, key_id, zdict, and the meta given at creation), a CRC-32
    sectors 1, 2    the two tail slots: the stream's partly filled last sector, with the
                    slot's own sequence number, the count of full sectors, and a CRC-32
    sectors 3...    the log proper: the stream, STREAM bytes a sector, each sector with the
                    CRC-32 of its index and its bytes; written once, when full
The stream is the commits one after another, each a 4-byte length and its deflated body
(zlib with the preset dictionary of log_vocabulary, version in the header). A body is
items, each a tag, a 4-byte length and its bytes: R a row (chain.body_of, the bytes its hash
covers, then the hash's 32 bytes; prev_hash is the row before's), M the meters that changed
(JSON: set, gone, seq), K meta items (JSON), H a keyed journal's head under the key.

A committed sector is never written again: the partial tail goes to the slot that is not the
newest valid one (LMDB's two meta pages), so a torn slot write leaves the other's older tail
whole, and a torn commit is one whose newest slot or newly filled sectors fail their CRC: the
older slot is the journal then, as the commit never returned. The file is zeroed ahead in
SEGMENT steps, so no commit changes its size or its extents: O_DIRECT writes and one
fdatasync per commit (a buffered fallback where O_DIRECT is refused, as on tmpfs). Nothing
is read that no CRC covers, and every length is checked against the stream's end: a
damaged log is JournalDamaged at its opening, naming the sector or commit.

Reading scans the stream once at opening and keeps a small index (each commit's offset and
first seq, the snapshots, the records by kind). The writer keeps that index on the disk as
it runs, PATH.index, appended in sectors of its own (log_index.py), so an opening after a
clean or an unclean stop reads it, checks it against the log, and scans only the commits
after its last record (docs/journal.md, "The sector log"). The sectors' layout, their
structs and CRCs, is log_layout.py.
"""

import bisect
import contextlib
import json
import mmap
import os
import threading
import zlib
from array import array

from controller.errors import JournalDamaged, JournalError
from controller.journal.chain import GENESIS_HASH, canonical
from controller.journal.log_vocabulary import VERSIONS
from controller.journal.log_index import RunningIndex
from controller.journal.log_layout import (  # noqa: F401 - its names are log.X too
    MAGIC, FORMAT, ZDICT_VERSION, SECTOR, STREAM, FIRST, SLOT_HEAD, SLOT_MAGIC, INDEX_MAGIC,
    IX_HEAD, IX_MAGIC, INDEX_EVERY, INDEX_SEGMENT, CRC, LEN, ITEM, SEGMENT, LEVEL, _crc,
    _sector_crc, _slot_bytes, _parse_slot, _header_bytes, _index_header, _items, _row, _zero)
from controller.journal.interface import (KEYED, JournalStore, encode_rows, head_mac,
                                          link_into_place)


class LogStore(RunningIndex, JournalStore):
    """A sector-log journal: the methods of store.Store (which see) on the log's file."""

    def __init__(self, path, _create=False, key=None, readonly=False):
        self.path, self.key, self.lock = path, key, None
        self._write = threading.Lock()
        self.readonly = readonly
        self.fd = None
        try:
            self.fd = os.open(path, os.O_RDONLY if readonly else os.O_RDWR)
        except FileNotFoundError:
            raise JournalError("journal %s: no such file" % path)
        except OSError as e:
            raise JournalError("journal %s: %s" % (path, e.strerror))
        try:
            self._open()
        except BaseException:
            os.close(self.fd)
            raise

    def _open(self):
        raw = os.pread(self.fd, SECTOR, 0)
        if len(raw) < SECTOR or not raw.startswith(MAGIC) or \
                CRC.unpack_from(raw, SECTOR - CRC.size)[0] != _crc(raw[:SECTOR - CRC.size]):
            raise JournalDamaged("journal %s: its header sector fails its CRC (damaged)"
                                 % self.path)
        n = LEN.unpack_from(raw, len(MAGIC))[0]
        start = len(MAGIC) + LEN.size
        if start + n > SECTOR - CRC.size:
            raise JournalDamaged("journal %s: its header's length runs past its sector"
                                 % self.path)
        info = json.loads(raw[start:start + n])
        if info.get("format") != FORMAT:
            raise JournalError("journal %s: format %r, this version reads %r"
                               % (self.path, info.get("format"), FORMAT))
        if info.get("zdict") not in VERSIONS:
            raise JournalError("journal %s: deflate dictionary version %r unknown"
                               % (self.path, info.get("zdict")))
        if info.get("chain") not in (None, KEYED):
            raise JournalError("journal %s: chain %r, this version reads SHA-256 and %s"
                               % (self.path, info.get("chain"), KEYED))
        self._header_crc = CRC.unpack_from(raw, SECTOR - CRC.size)[0]
        self.zdict = VERSIONS[info["zdict"]]
        self._meta = {k: str(v) for k, v in info.items() if k != "zdict"}
        self.key_id = self._meta.get("key_id") if info.get("chain") == KEYED else None
        self._check_key()
        self._zeroed = os.fstat(self.fd).st_size // SECTOR
        # what the scan knows
        self.last_seq, self.last_hash = 0, GENESIS_HASH
        self._offsets, self._firsts = array("q"), array("q")
        self._snap_seq, self._snap_round = array("q"), array("q")
        self._records = {}
        self._latest_ts = None
        self._meters, self._meters_seq, self._mac = {}, None, None
        self._slot_seq, self._full, self._tail, self._end = 0, 0, b"", 0
        self._newest_slot = None
        # the last commit whose rows were read and its last row's hash: the prev_hash of the
        # next commit's first row, which a read from there (the soak's look at the rows since
        # its last, after every card, issue 33) took by inflating that commit again
        self._last_read = (-1, None)
        self._checked = 0                # full sectors whose CRC was checked
        self.zeroed_bytes = 0            # zeros this Store wrote ahead (bench/journal.py)
        self.sync = True                 # False only for a bench's journal built to be read
        self.index_taken = 0             # the stream bytes PATH.index spared the scan
        self._ix_fd = self._ix_direct = None
        self._looked = False
        self._load()
        if not self.readonly:
            self._direct = self._open_direct()
            self._buf = mmap.mmap(-1, 1 << 16)
            self._index_open()

    def _open_direct(self):
        """An O_DIRECT descriptor for writing (the device is given the sectors, no 4 KiB page
        and no page cache), or None where it is refused (tmpfs): buffered then."""
        try:
            return os.open(self.path, os.O_RDWR | getattr(os, "O_DIRECT", 0))
        except OSError:
            return None

    # ---- reading the file ------------------------------------------------------------

    def _slots(self):
        raw = os.pread(self.fd, 2 * SECTOR, SECTOR)
        got = []
        for i in (0, 1):
            s = _parse_slot(raw[i * SECTOR:(i + 1) * SECTOR])
            if s is not None:
                got.append((s[0], i) + s[1:])
        return sorted(got, reverse=True)          # newest first

    def _bad_sector(self, lo, hi):
        """The first sector of the log proper in [lo, hi) whose CRC fails, or None."""
        step = 256
        for a in range(lo, hi, step):
            b = min(hi, a + step)
            raw = os.pread(self.fd, (b - a) * SECTOR, (FIRST + a) * SECTOR)
            for i in range(b - a):
                s = raw[i * SECTOR:(i + 1) * SECTOR]
                if len(s) < SECTOR or CRC.unpack_from(s, STREAM)[0] != \
                        _sector_crc(a + i, s[:STREAM]):
                    return a + i
        return None

    def _load(self):
        """Take what was committed since the last look: the newest slot whose sectors hold,
        then the commits after the last one scanned. True if there were any."""
        slots = self._slots()
        if not slots:
            raise JournalDamaged("journal %s: neither tail slot holds (both fail their CRC)"
                                 % self.path)
        if not self._looked:           # the first look: from the index, if it holds
            self._looked = True
            self._full, self._tail = slots[0][2], slots[0][3]
            self._take_index(self._full * STREAM + len(self._tail))
            self._full, self._tail = 0, b""
        chosen, problem = None, None
        for seq, index, full, tail in slots:
            if seq < self._slot_seq or full < self._full:
                continue                          # older than what was read: never taken
            bad = self._bad_sector(max(self._checked, 0), full) if full > self._checked \
                else None
            if bad is None:
                chosen = (seq, index, full, tail)
                break
            problem = problem or ("sector %d of the log fails its CRC" % (FIRST + bad))
        if chosen is None:
            raise JournalDamaged("journal %s: %s (damaged: no tail slot is consistent with "
                                 "the sectors it names)" % (self.path, problem or
                                                             "its tail slots went back"))
        seq, index, full, tail = chosen
        self._newest_slot = index
        if seq == self._slot_seq:
            return False
        end = full * STREAM + len(tail)
        if end < self._end:
            raise JournalDamaged("journal %s: its tail slot ends the log before what was "
                                 "read (%d < %d bytes)" % (self.path, end, self._end))
        self._checked = full
        self._slot_seq, self._full, self._tail = seq, full, tail
        data = self._stream(self._end, end)
        self._scan(data, self._end)
        self._end = end
        return True

    def _stream(self, lo, hi):
        """The stream's bytes [lo, hi): from the log proper's sectors, and past its full
        ones from the tail slot's copy."""
        if self.fd is None:
            raise JournalError("journal %s is closed" % self.path)
        out = []
        proper = min(hi, self._full * STREAM)
        if lo < proper:
            a, b = lo // STREAM, (proper + STREAM - 1) // STREAM
            raw = os.pread(self.fd, (b - a) * SECTOR, (FIRST + a) * SECTOR)
            parts = []
            for i in range(b - a):                # each sector's bytes only under its CRC
                s = raw[i * SECTOR:(i + 1) * SECTOR]
                if len(s) < SECTOR or CRC.unpack_from(s, STREAM)[0] != \
                        _sector_crc(a + i, s[:STREAM]):
                    raise JournalDamaged("journal %s: sector %d of the log fails its CRC"
                                         % (self.path, FIRST + a + i))
                parts.append(s[:STREAM])
            chunk = b"".join(parts)
            out.append(chunk[lo - a * STREAM:proper - a * STREAM])
        if hi > proper:
            t0 = self._full * STREAM
            out.append(self._tail[max(lo, proper) - t0:hi - t0])
        return b"".join(out)

    def _commits(self, data, base):
        """(offset, body items) of each commit in `data`, the stream from offset `base`."""
        off = 0
        while off < len(data):
            where = "journal %s: the commit at stream byte %d" % (self.path, base + off)
            if off + LEN.size > len(data):
                raise JournalDamaged("%s: its length runs past the log's end" % where)
            n = LEN.unpack_from(data, off)[0]
            if n == 0 or off + LEN.size + n > len(data):
                raise JournalDamaged("%s: its length (%d) runs past the log's end"
                                     % (where, n))
            try:
                d = zlib.decompressobj(-15, zdict=self.zdict)
                payload = d.decompress(data[off + LEN.size:off + LEN.size + n])
                if not d.eof or d.unused_data:
                    raise zlib.error("not one whole deflate stream")
            except zlib.error as e:
                raise JournalDamaged("%s: it does not inflate (%s)" % (where, e))
            yield base + off, _items(payload, where), where
            off += LEN.size + n

    def _scan(self, data, base):
        for off, items, where in self._commits(data, base):
            first = None
            for tag, b in items:
                if tag == b"R":
                    if len(b) < 33:
                        raise JournalDamaged("%s: a row too short for its hash" % where)
                    row = _row(b[:-32], b[-32:], self.last_hash, where)
                    seq = row["seq"]
                    if first is None:
                        first = seq
                    self.last_seq, self.last_hash = seq, row["hash"]
                    if self._latest_ts is None or row["ts_ns"] > self._latest_ts:
                        self._latest_ts = row["ts_ns"]
                    if row["entry"] == "snapshot":
                        self._snap_seq.append(seq)
                        self._snap_round.append(row["round_no"])
                    elif row["entry"] == "record":
                        self._records.setdefault(row["kind"], array("q")).append(seq)
                elif tag == b"M":
                    m = json.loads(b)
                    for k in m.get("gone", ()):
                        self._meters.pop(k, None)
                    self._meters.update(m.get("set", {}))
                    self._meters_seq = m.get("seq")
                elif tag == b"K":
                    self._meta.update(json.loads(b))
                elif tag == b"H":
                    self._mac = b.hex()
                else:
                    raise JournalDamaged("%s: an item of unknown kind %r" % (where, tag))
            if first is not None:
                self._offsets.append(off)
                self._firsts.append(first)

    def refresh(self):
        """Take what another Store committed since: True if anything was."""
        with self._write:
            return self._load()

    # ---- writing ---------------------------------------------------------------------

    @classmethod
    def create(cls, path, key=None, entries=(), meters=None, meta=None):
        """A new log at `path` holding `entries`, made under a temporary name, fsynced and
        linked into place whole; JournalError if `path` exists."""
        from controller.journal.keys import key_id
        if os.path.lexists(path):
            raise JournalError("journal %s: already exists" % path)
        tmp = "%s.new-%d" % (path, os.getpid())
        if os.path.exists(tmp):
            os.unlink(tmp)
        info = {"format": FORMAT, "zdict": ZDICT_VERSION}
        if key is not None:
            info.update(chain=KEYED, key_id=key_id(key))
        info.update({k: v for k, v in (meta or {}).items() if k not in info})
        try:
            fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                os.pwrite(fd, _header_bytes(info), 0)
                _zero(fd, SECTOR, SEGMENT)
                os.pwrite(fd, _slot_bytes(1, 0, b""), SECTOR)       # an empty log
                os.fsync(fd)
            finally:
                os.close(fd)
            store = cls(tmp, key=key)
            try:
                if entries:
                    store.append(list(entries), meters=meters)
            finally:
                store.close()
            link_into_place(tmp, path)
        except OSError as e:
            raise JournalError("journal %s: cannot create it: %s" % (path, e.strerror))
        finally:
            for leftover in (tmp, tmp + ".index"):   # the temporary's own index too
                if os.path.exists(leftover):
                    os.unlink(leftover)
        return cls(path, key=key)

    def close(self):
        if self.fd is not None and not self.readonly:
            self._index_write()                   # a clean stop: the index to the end
        self._index_close()
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if getattr(self, "_direct", None) is not None:
            os.close(self._direct)
            self._direct = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def append(self, entries, meters=None, meters_after=None):
        """As Store.append: rows and the meters in one commit, durable when it returns."""
        self._need_key()
        if self.readonly:
            raise JournalError("journal %s is open read-only" % self.path)
        with self._write:
            seq = self._append(entries, meters, meters_after)
            if self._end - self._ix_end >= INDEX_EVERY:
                self._index_write()
            return seq

    def _put_meta(self, items):
        with self._write:
            self._commit([(b"K", canonical({k: str(v) for k, v in items.items()}))])
            self._meta.update({k: str(v) for k, v in items.items()})

    def _append(self, entries, meters, meters_after=None):
        meters_seq = self.last_seq + (len(entries) if meters_after is None else meters_after)
        bodies = []
        rows, latest = encode_rows(entries, self.last_seq, self.last_hash, self.key,
                                   self._latest_ts, bodies)
        items = [(b"R", body + bytes.fromhex(r[-1])) for body, r in zip(bodies, rows)]
        if meters is not None:
            changed = {k: v for k, v in meters.items() if self._meters.get(k) != v}
            gone = sorted(set(self._meters) - set(meters))
            items.append((b"M", canonical({"set": changed, "gone": gone, "seq": meters_seq})))
        seq, prev = (rows[-1][0], rows[-1][-1]) if rows else (self.last_seq, self.last_hash)
        if rows and self.key is not None:
            items.append((b"H", bytes.fromhex(head_mac(self.key, seq, prev))))
        if not items:
            return seq
        off = self._commit(items)
        if rows:
            self._offsets.append(off)
            self._firsts.append(rows[0][0])
            for r in rows:
                if r[3] == "snapshot":
                    self._snap_seq.append(r[0])
                    self._snap_round.append(r[5])
                elif r[3] == "record":
                    self._records.setdefault(r[4], array("q")).append(r[0])
            self.last_seq, self.last_hash, self._latest_ts = seq, prev, latest
            if self.key is not None:
                self._mac = head_mac(self.key, seq, prev)
        if meters is not None:
            self._meters, self._meters_seq = dict(meters), meters_seq
        return seq

    def _commit(self, items):
        """Write one commit; returns its stream offset once it is on the disk."""
        c = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, self.zdict)
        body = c.compress(b"".join(ITEM.pack(t, len(b)) + b for t, b in items)) + c.flush()
        record = LEN.pack(len(body)) + body
        off = self._end
        stream = self._tail + record
        n_full = len(stream) // STREAM
        sectors = []
        for i in range(n_full):
            chunk = stream[i * STREAM:(i + 1) * STREAM]
            sectors.append(chunk + CRC.pack(_sector_crc(self._full + i, chunk)) +
                           bytes(SECTOR - STREAM - CRC.size))
        tail = stream[n_full * STREAM:]
        full = self._full + n_full
        need = (FIRST + full + 1) * SECTOR
        if need > self._zeroed * SECTOR:
            n = max(SEGMENT, need - self._zeroed * SECTOR)
            _zero(self.fd, self._zeroed * SECTOR, n)
            self.zeroed_bytes += n
            os.fsync(self.fd)                    # the file's new size, once a segment
            self._zeroed = os.fstat(self.fd).st_size // SECTOR
        slot = 1 - self._newest_slot if self._newest_slot is not None else 0
        slot_seq = self._slot_seq + 1
        if sectors:
            self._pwrite(b"".join(sectors), (FIRST + self._full) * SECTOR)
        self._pwrite(_slot_bytes(slot_seq, full, tail), (1 + slot) * SECTOR)
        if self.sync:
            os.fdatasync(self.fd if self._direct is None else self._direct)
        self._slot_seq, self._full, self._tail = slot_seq, full, tail
        self._end, self._checked, self._newest_slot = off + len(record), full, slot
        return off

    def _pwrite_direct(self, fd, data, offset):
        """`data` written at `offset` through the O_DIRECT descriptor `fd`, from the page
        aligned buffer O_DIRECT needs."""
        if len(data) > len(self._buf):
            self._buf.close()
            self._buf = mmap.mmap(-1, (len(data) + 4095) // 4096 * 4096)
        self._buf[:len(data)] = data
        os.pwrite(fd, memoryview(self._buf)[:len(data)], offset)

    def _pwrite(self, data, offset):
        if self._direct is None:
            os.pwrite(self.fd, data, offset)
            return
        try:
            self._pwrite_direct(self._direct, data, offset)
        except OSError:                          # O_DIRECT refused this write: buffered
            os.close(self._direct)
            self._direct = None
            os.pwrite(self.fd, data, offset)

    # ---- the Store's reading methods -------------------------------------------------

    def _commit_items(self, i, ahead=None):
        """The body items of the commit of rows number i in the scan, and where it is
        (`ahead`: a scan's _ReadAhead, which may hold its bytes already)."""
        off = self._offsets[i]
        nxt = self._offsets[i + 1] if i + 1 < len(self._offsets) else self._end
        data = None if ahead is None else ahead.stream(off, nxt)
        for _, items, where in self._commits(self._stream(off, nxt) if data is None else data,
                                             off):
            return items, where           # the first: a commit of meters or meta may follow

    def _commit_rows(self, i, prev=None, ahead=None):
        """The rows of commit i, each with its prev_hash (`prev`: the hash of the row before
        the commit's first, else the last row's of the commit read last if that is the one
        before, else read from the commit before: a committed sector is never written
        again, so the row read last time is the row read now)."""
        if prev is None:
            last = self._last_read
            prev = GENESIS_HASH if i == 0 else last[1] if last[0] == i - 1 else \
                [b for t, b in self._commit_items(i - 1)[0] if t == b"R"][-1][-32:].hex()
        items, where = self._commit_items(i, ahead)
        out = []
        for tag, b in items:
            if tag == b"R":
                row = _row(b[:-32], b[-32:], prev, where)
                prev = row["hash"]
                out.append(row)
        if out:
            self._last_read = (i, prev)
        return out

    def _indexed_rows(self, i, prev=None, ahead=None):
        """_commit_rows(i, prev), the index's first seq of that commit checked."""
        rows = self._commit_rows(i, prev, ahead)
        if rows and rows[0]["seq"] != self._firsts[i]:           # an index that lied
            raise JournalDamaged("journal %s: the commit at stream byte %d begins at row "
                                 "%d, its index says %d (PATH.index disagrees with the "
                                 "log: remove it)" % (self.path, self._offsets[i],
                                                       rows[0]["seq"], self._firsts[i]))
        return rows

    def rows(self, start=1, stop=None):
        """Rows as dicts in seq order, `data` as stored text, from `start` to before `stop`."""
        n = len(self._offsets)
        i = max(0, bisect.bisect_right(self._firsts, start) - 1)
        prev = None
        ahead = _ReadAhead(self, n if stop is None else bisect.bisect_left(self._firsts, stop))
        while i < n:
            rows = self._indexed_rows(i, prev, ahead)
            for row in rows:
                if stop is not None and row["seq"] >= stop:
                    return
                if row["seq"] >= start:
                    yield row
            if rows:
                prev = rows[-1]["hash"]
            i += 1

    def select(self, kinds=None, last=None, after=0):
        """As Store.select (the rows are filtered as they stream: no index of kinds). A tail
        (`last`) is read newest first, as Store.select's DESC LIMIT reads it: commits from
        the end back, a span twice the one before each time, until `last` rows are found.
        The console's `events` after every card of a soak read the whole file each time
        (issue 33: 57 of 166 s of a 300-round soak, growing with the journal)."""
        after = int(after)

        def picked(start, stop=None):
            return [r for r in self.rows(max(start, after + 1), stop)
                    if not kinds or r["kind"] in kinds]
        if kinds and set(kinds) == {"snapshot"}:
            yield from self._indexed(sorted(s for s in set(self._snap_seq) |
                                            set(self._records.get("snapshot", ()))
                                            if s > after), kinds, last)
            return
        if last is None:
            yield from (r for r in self.rows(after + 1) if not kinds or r["kind"] in kinds)
            return
        last = int(last)
        found, hi, span = [], len(self._firsts), 1
        while hi > 0 and len(found) < last:
            lo = max(0, hi - span)
            found[:0] = picked(self._firsts[lo], self._firsts[hi] if hi < len(self._firsts)
                               else None)
            hi, span = lo, span * 2
        yield from (found[-last:] if last > 0 else ())

    def _indexed(self, seqs, kinds, last=None):
        """The rows of `seqs` (the index's) of `kinds`, reading only the commits that hold
        them: the snapshots, one a round, are the console's wager meters at every start
        (console/wager_meters.py), which read every commit of the journal for them (issue
        33: a soak's boot after each power cut). A row of kind "snapshot" is the snapshot
        entry or a record, both indexed; no event has that kind (controller/events.py)."""
        if last is not None:
            seqs = seqs[-int(last):] if int(last) > 0 else []
        wanted, prev, at = set(seqs), None, None
        for i in sorted({max(0, bisect.bisect_right(self._firsts, s) - 1) for s in seqs}):
            rows = self._indexed_rows(i, prev if at == i - 1 else None)
            prev, at = (rows[-1]["hash"], i) if rows else (None, None)
            yield from (r for r in rows if r["seq"] in wanted and r["kind"] in kinds)

    def hash_at(self, seq):
        row = next(self.rows(seq, seq + 1), None) if 1 <= seq <= self.last_seq else None
        return None if row is None else row["hash"]

    def first_record(self, kind):
        seqs = self._records.get(kind)
        return seqs[0] if seqs else None

    def last_record(self, kind, upto=None):
        seqs = self._records.get(kind)
        if not seqs:
            return None
        i = len(seqs) if upto is None else bisect.bisect_right(seqs, upto)
        if i == 0:
            return None
        row = next(self.rows(seqs[i - 1], seqs[i - 1] + 1), None)
        if row is not None and (row["entry"], row["kind"]) != ("record", kind):
            raise JournalDamaged("journal %s: row %d is not the %s record its index names "
                                 "(PATH.index disagrees with the log: remove it)"
                                 % (self.path, row["seq"], kind))
        try:
            return None if row is None else json.loads(row["data"])
        except ValueError:
            return None

    def snapshots(self, below=None, before_round=None, limit=1):
        i = len(self._snap_seq) if below is None else bisect.bisect_left(self._snap_seq, below)
        out = []
        while i > 0 and len(out) < limit:
            i -= 1
            if before_round is None or self._snap_round[i] < before_round:
                out.append(self._snap_seq[i])
        return out

    def meta(self, key):
        if key == "head_seq":
            return str(self.last_seq) if self.last_seq else None
        if key == "head_hash":
            return self.last_hash if self.last_seq else None
        if key == "head_mac":
            return self._mac
        if key == "latest_ts":
            return None if self._latest_ts is None else str(self._latest_ts)
        if key == "meters_seq":
            return None if self._meters_seq is None else str(self._meters_seq)
        return self._meta.get(key)

    def meters(self):
        return dict(self._meters)

    def meters_seq(self):
        return self._meters_seq

    def latest_ts(self):
        return self._latest_ts

    def legacy_acks(self):
        return {}

    @contextlib.contextmanager
    def reading(self):
        """One read: this Store sees the log as of its last look until `refresh`, and no
        append of its own runs meanwhile."""
        with self._write:
            yield self


class _ReadAhead:
    """The stream bytes of the commits one scan (LogStore.rows) reads next, read in one piece
    once it has read one commit: each commit's own read took a read of the sectors it touches
    and their CRCs, the sector it shares with the next read and checked again for the next
    (issue 33: a soak reads its journal from row 1 several times, and a few rows after every
    card). The piece is read as LogStore._stream reads any (every sector under its CRC), up
    to READ_AHEAD bytes and never past the scan's last commit (`upto`: the index of the
    commit after it); a piece that fails a CRC is not kept, and the commits are read one by
    one as before, so a damaged sector is found by the read of its own commit, as it was."""

    READ_AHEAD = 1 << 16
    FIRST = 1 << 12

    def __init__(self, store, upto):
        self.store, self.upto = store, upto
        self.lo = self.hi = None
        self.data = b""
        self.reads = 0
        self.size = self.FIRST
        self.damaged = False              # a piece failed a CRC: one by one from there

    def stream(self, lo, hi):
        """The stream's bytes [lo, hi) from the piece, or None: read them alone."""
        if self.lo is not None and self.lo <= lo and hi <= self.hi:
            return self.data[lo - self.lo:hi - self.lo]
        self.reads += 1
        if self.reads == 1 or self.damaged:   # a scan of one commit reads no more
            return None
        store = self.store
        end = store._offsets[self.upto] if self.upto < len(store._offsets) else store._end
        top = min(max(hi, lo + self.size), end)
        self.size = min(self.size * 4, self.READ_AHEAD)
        if top <= hi:
            return None
        try:
            self.data = store._stream(lo, top)
        except JournalDamaged:                # read one by one from here, as before
            self.lo = self.hi = None
            self.damaged = True
            return None
        self.lo, self.hi = lo, top
        return self.data[:hi - lo]
