"""The sector log's running index, PATH.index (log.py): the scan's result kept while the
log is written, so an opening after any stop scans only what came after its last record.
A mixin of LogStore, which holds the scan (offsets, firsts, snapshots, records) it saves
and restores; see the comment at the top of RunningIndex for the format and its checks."""

import itertools
import json
import operator
import os
import struct
import zlib
from array import array

from controller.errors import JournalDamaged
from controller.journal.chain import canonical
from controller.journal.log_layout import (INDEX_SEGMENT, IX_HEAD, IX_MAGIC, SECTOR, STREAM,
                                           _crc, _index_header, _zero)


def _increasing(a):
    """Each item below the next: compared in C (map, operator.lt), not a generator of pairs,
    which was most of an opening of a year's journal (1.3 of 1.45 s for 6.5 M commits)."""
    return all(map(operator.lt, a, itertools.islice(a, 1, None)))


class RunningIndex:
    """LogStore's PATH.index: written by the writer (`_index_open`, `_index_write` every
    INDEX_EVERY stream bytes and at a clean stop), taken at an opening (`_take_index`)."""

    # The running index: the scan's result, so an opening scans only what came after.
    #
    # PATH.index is the log's own way again: a header sector, then records appended in
    # whole sectors of their own, O_DIRECT into a file zeroed ahead, so keeping it costs no
    # metadata. A record is taken every INDEX_EVERY stream bytes and at a clean stop: what
    # the scan found since the record before (each commit's offset and first seq, the
    # snapshots, the records by kind) and the state as of its end (the head, the meters,
    # the meta). Not fsynced: it is derived, a record lost costs the scan of what it
    # covered, no row. So after an unclean stop (kill -9, a power cut) a boot reads the index
    # and scans at most INDEX_EVERY bytes and the last commits, not the whole log.
    #
    # It is never trusted blindly: each record's CRC, its number, its end inside the log and
    # past the record before, its offsets and seqs in order and inside its span, and the
    # last commit it names read from the log itself, that commit's last row's seq and hash
    # the record's. A record that fails its CRC ends the index there (a torn write: the
    # records before it stand); one that disagrees with the log discards the whole index
    # (another log's, or edited), and the log is scanned, and the index written again.

    def _index_arrays(self):
        kinds = sorted(self._records)
        return kinds, [self._offsets, self._firsts, self._snap_seq, self._snap_round] + \
            [self._records[k] for k in kinds]

    def _index_record(self):
        """The bytes of the next record: what was found since the last one, padded to whole
        sectors."""
        kinds, arrays = self._index_arrays()
        base = self._ix_base
        starts = [base.get("commits", 0)] * 2 + [base.get("snapshots", 0)] * 2 + \
            [base.get("kinds", {}).get(k, 0) for k in kinds]
        head = {"end": self._end, "last_seq": self.last_seq, "last_hash": self.last_hash,
                "latest_ts": self._latest_ts, "meters": self._meters,
                "meters_seq": self._meters_seq, "mac": self._mac, "meta": self._meta,
                "kinds": [[k, len(a) - n] for k, a, n in zip(kinds, arrays[4:], starts[4:])],
                "commits": len(self._offsets) - starts[0],
                "snapshots": len(self._snap_seq) - starts[2]}
        body = zlib.compress(canonical(head) + b"\n" + b"".join(
            a[n:].tobytes() for a, n in zip(arrays, starts)))
        rec = IX_HEAD.pack(IX_MAGIC, self._ix_no, self._end, len(body), _crc(body)) + body
        return rec + bytes(-len(rec) % SECTOR)

    def _index_mark(self):
        """What the records written so far hold (the next record starts after it)."""
        self._ix_end = self._end
        self._ix_base = {"commits": len(self._offsets), "snapshots": len(self._snap_seq),
                         "kinds": {k: len(a) for k, a in self._records.items()}}

    def _index_open(self):
        """The writer's index: PATH.index as read at the opening if it held, else a new one
        (header, a zeroed segment) put in place of whatever was there; then a record of what
        the opening scanned past it. None on any OSError: no index, the next opening scans."""
        self._ix_fd = self._ix_direct = None
        path = self.path + ".index"
        try:
            if self._ix_no == 0:                  # none, or not taken: a new one, whole
                tmp = "%s.index.new-%d" % (self.path, os.getpid())
                fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
                try:
                    os.pwrite(fd, _index_header(self._header_crc), 0)
                    _zero(fd, SECTOR, INDEX_SEGMENT - SECTOR)
                    os.fsync(fd)
                finally:
                    os.close(fd)
                os.replace(tmp, path)
                self._ix_no, self._ix_pos = 1, 1
                self._ix_base, self._ix_end = {}, 0
            self._ix_fd = os.open(path, os.O_RDWR)
            try:
                self._ix_direct = os.open(path, os.O_RDWR | getattr(os, "O_DIRECT", 0))
            except OSError:
                self._ix_direct = None
            self._ix_zeroed = os.fstat(self._ix_fd).st_size // SECTOR
            if self._end > self._ix_end:
                self._index_write()
        except OSError:
            self._index_close()

    def _index_write(self):
        """Append the next record (no fsync: see above); on an OSError the index stops."""
        if self._ix_fd is None or self._end <= self._ix_end:
            return
        try:
            rec = self._index_record()
            need = self._ix_pos + len(rec) // SECTOR
            if need > self._ix_zeroed:
                n = max(INDEX_SEGMENT, (need - self._ix_zeroed) * SECTOR)
                _zero(self._ix_fd, self._ix_zeroed * SECTOR, n)
                os.fsync(self._ix_fd)                # its new size, once a segment
                self._ix_zeroed = os.fstat(self._ix_fd).st_size // SECTOR
            if self._ix_direct is not None:
                try:
                    self._pwrite_direct(self._ix_direct, rec, self._ix_pos * SECTOR)
                except OSError:
                    os.close(self._ix_direct)
                    self._ix_direct = None
            if self._ix_direct is None:
                os.pwrite(self._ix_fd, rec, self._ix_pos * SECTOR)
        except OSError:
            self._index_close()
            return
        self._ix_pos += len(rec) // SECTOR
        self._ix_no += 1
        self._index_mark()

    def _index_close(self):
        for name in ("_ix_fd", "_ix_direct"):
            fd = getattr(self, name, None)
            if fd is not None:
                os.close(fd)
            setattr(self, name, None)

    def _take_index(self, end):
        """The scan as PATH.index holds it, as far as it holds and agrees with the log (see
        above); sets where the next record goes. Else nothing: the log is scanned."""
        self._ix_no, self._ix_pos, self._ix_base, self._ix_end = 0, 1, {}, 0
        try:
            with open(self.path + ".index", "rb") as f:
                data = f.read()
        except OSError:
            return
        if _index_header(self._header_crc) != data[:SECTOR]:
            return                                # none, another log's or another version's
        arrays, head, pos, no, prev_end, checks = None, None, 1, 1, 0, []
        while (pos + 1) * SECTOR <= len(data):
            try:
                magic, n_rec, rec_end, n, crc = IX_HEAD.unpack_from(data, pos * SECTOR)
            except struct.error:
                break
            body = data[pos * SECTOR + IX_HEAD.size:pos * SECTOR + IX_HEAD.size + n]
            if magic != IX_MAGIC or n_rec != no or len(body) != n or _crc(body) != crc:
                break                             # the end, or a torn record: the index ends
            try:
                text, _, rest = zlib.decompress(body).partition(b"\n")
                h = json.loads(text)
                kinds = [k for k, _ in h["kinds"]]
                sizes = [h["commits"]] * 2 + [h["snapshots"]] * 2 + [c for _, c in h["kinds"]]
                if h["end"] != rec_end or not prev_end < rec_end <= end or \
                        sum(sizes) * 8 != len(rest) or min(sizes) < 0:
                    return
                part, off = [], 0
                for c in sizes:
                    a = array("q")
                    a.frombytes(rest[off:off + 8 * c])
                    part.append(a)
                    off += 8 * c
            except (ValueError, KeyError, TypeError, zlib.error):
                return
            offs, firsts = part[0], part[1]
            if any(not prev_end <= o < rec_end for o in offs[:1] + offs[-1:]) or \
                    not _increasing(offs) or not _increasing(firsts):
                return
            if arrays is None:
                arrays = [array("q") for _ in range(4)]
                recs = {}
            for a, b in zip(arrays, part[:4]):
                a.extend(b)
            for k, b in zip(kinds, part[4:]):
                recs.setdefault(k, array("q")).extend(b)
            if h["commits"]:
                checks.append((len(arrays[0]) - 1, h["last_seq"], h["last_hash"]))
            elif h["last_seq"] != (head or {}).get("last_seq", 0):
                return                            # rows, but no commit named for them
            head, prev_end = h, rec_end
            pos += 1 + (IX_HEAD.size + n - 1) // SECTOR
            no += 1
        if head is None or not arrays[0]:
            return
        saved = (self._offsets, self._firsts, self._end)
        self._offsets, self._firsts, self._end = arrays[0], arrays[1], head["end"]
        for i, seq, digest in checks:             # each record's last commit, from the log
            try:
                items, where = self._commit_items(i)
                last = [b for t, b in items if t == b"R"][-1]
                ok = json.loads(last[:-32])["seq"] == seq and last[-32:].hex() == digest and \
                    self._firsts[i] == json.loads(
                        [b for t, b in items if t == b"R"][0][:-32])["seq"]
            except (JournalDamaged, IndexError, ValueError, KeyError, TypeError):
                ok = False
            if not ok:
                self._offsets, self._firsts, self._end = saved
                return
        self._snap_seq, self._snap_round = arrays[2], arrays[3]
        self._records = recs
        self.last_seq, self.last_hash = head["last_seq"], head["last_hash"]
        self._latest_ts, self._meters = head["latest_ts"], dict(head["meters"])
        self._meters_seq, self._mac = head["meters_seq"], head["mac"]
        self._meta.update(head["meta"])
        self._checked = head["end"] // STREAM     # those sectors' CRCs: checked as read
        self._ix_no, self._ix_pos = no, pos
        self._index_mark()
        self.index_taken = head["end"]
