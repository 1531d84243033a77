"""A spike, not a journal format (issue 16, SD wear): the journal's commits as an append-only
file of 512-byte sectors, to measure what the disk is given per input against SQLite's WAL.

Why: a commit to SQLite's -wal is its frames (a page and 24 bytes each: the journal's last
leaf, meta's head, often a new leaf, its parent and the header page), and a buffered write
is counted by the kernel, and written by it, a 4 KiB page at a time: 4 KiB per fsync is that
path's floor, 11-14x the rows' bytes. Here a commit is only its rows, written with O_DIRECT
so the kernel hands the device the sectors given, no page: the rows of an input and the
derived rows held for it (the same rows, the same hashes, the same order as the SQLite
journal's: store.encode_rows), then a trailer with a CRC-32 over the commit, so a torn tail
is found at a read. The file is preallocated and zeroed once per segment (SEGMENT), so a
write changes no metadata (no size, no extent to convert) and O_DSYNC costs a device flush,
not a file-system journal commit; that zeroing is written to the disk once and is counted
apart (`zeroed`), as its share per round of the segment's fill.

Layouts (`mode`):
    tail   each commit rewrites the last, partial sector and appends after it: the file is
           dense, but a commit rewrites bytes an earlier commit made durable (a torn sector
           write at a power cut could damage a committed row: an SD card does not promise
           sector atomicity)
    pad    each commit begins at a new sector, its last one padded with zeros: no byte is
           ever written twice, and a commit never touches another's sector; the file grows
           by whole sectors
`direct=False` writes the same bytes buffered (pwrite + fdatasync): the 4 KiB page again.

A record is a 4-byte big-endian length, then: `R` + the row's body (chain.body_of, the bytes
its hash covers, which hold seq, stamp, source, entry, kind, round and data) + its hash (32
bytes); `M` + the meters that changed (canonical JSON, with `meters_seq`); `C` + the commit's
CRC-32 (a keyed journal would add the head under the key, 32 bytes). `read` parses a file
back to its rows and stops at the first commit whose CRC does not hold: bench/journal.py
checks that the rows and hashes read back are the SQLite journal's.
"""
import json
import mmap
import os
import struct
import zlib

from controller.journal.chain import canonical
from controller.journal.store import GENESIS_HASH, encode_rows

SECTOR = 512
SEGMENT = 32 * 2 ** 20          # bytes zeroed ahead of the writes, once (the bench's: less)
ZERO_CHUNK = 2 ** 20
LEN = struct.Struct(">I")


class SectorLog:
    """One log file (a spike: no reader's lock, no boot, no segments after the first)."""

    def __init__(self, path, mode="tail", direct=True, key=None, segment=SEGMENT,
                 compress=False, zero=True):
        assert mode in ("tail", "pad")
        self.mode, self.direct, self.key, self.segment = mode, direct, key, segment
        self.compress = compress
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            if zero:
                chunk = bytes(ZERO_CHUNK)
                for off in range(0, segment, ZERO_CHUNK):
                    os.pwrite(fd, chunk, off)
            else:             # allocated, not written: each write converts an extent
                os.posix_fallocate(fd, 0, segment)
            os.fsync(fd)
        finally:
            os.close(fd)
        dfd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
        self.zeroed = segment if zero else 0
        flags = os.O_RDWR | (os.O_DIRECT | os.O_DSYNC if direct else 0)
        try:
            self.fd = os.open(path, flags)
        except OSError as e:
            raise SystemExit("sector log: %s: O_DIRECT refused here (%s): give --sector-log "
                             "a directory on a disk's file system, not tmpfs"
                             % (path, e.strerror))
        self.buf = mmap.mmap(-1, 4 * 2 ** 20)         # page-aligned, as O_DIRECT needs
        self.off = 0                                  # the file offset of `tail`
        self.tail = b""                               # the last sector's bytes (mode tail)
        self.last_seq, self.last_hash, self.latest = 0, GENESIS_HASH, None
        self.meters = {}
        self.written = 0                              # bytes handed to pwrite

    def append(self, entries, meters=None, meters_after=None):
        bodies = []
        rows, self.latest = encode_rows(entries, self.last_seq, self.last_hash, self.key,
                                        self.latest, bodies)
        parts = []
        for row, body in zip(rows, bodies):
            rec = b"R" + body + bytes.fromhex(row[8])
            parts.append(LEN.pack(len(rec)) + rec)
        if rows:
            self.last_seq, self.last_hash = rows[-1][0], rows[-1][8]
        if meters is not None:
            changed = {k: v for k, v in meters.items() if self.meters.get(k) != v}
            gone = sorted(set(self.meters) - set(meters))
            if changed or gone:
                seq = self.last_seq - len(rows) + (len(rows) if meters_after is None
                                                   else meters_after)
                rec = b"M" + canonical({"set": changed, "gone": gone, "meters_seq": seq})
                parts.append(LEN.pack(len(rec)) + rec)
            self.meters = dict(meters)
        body = b"".join(parts)
        if self.compress:                 # the commit's records as one deflate stream
            z = b"Z" + zlib.compress(body, 6)[2:-4]
            body = LEN.pack(len(z)) + z
        rec = b"C" + LEN.pack(zlib.crc32(body))
        data = self.tail + body + LEN.pack(len(rec)) + rec
        n = len(data)
        size = -(-n // SECTOR) * SECTOR
        if self.off + size > self.segment:
            raise OSError("sector log: the segment is full (a spike: one segment)")
        self.buf[:n] = data
        self.buf[n:size] = bytes(size - n)
        os.pwrite(self.fd, memoryview(self.buf)[:size], self.off)
        if not self.direct:
            os.fdatasync(self.fd)
        self.written += size
        if self.mode == "pad":
            self.off += size
        else:
            whole = n // SECTOR * SECTOR
            self.off += whole
            self.tail = data[whole:]
        return rows

    def close(self):
        os.close(self.fd)
        self.buf.close()


def read(path):
    """The rows of a log as (seq, hash hex, body), up to the first commit that does not
    hold (its CRC, or a record cut short); padding (zeros) between commits is skipped."""
    with open(path, "rb") as f:
        data = f.read()
    out, pending, start, off = [], [], 0, 0
    while off + 4 <= len(data):
        (n,) = LEN.unpack_from(data, off)
        if n == 0:                                    # the pad after a commit, or the end
            nxt = -(-(off + 1) // SECTOR) * SECTOR
            if pending or data[off:nxt].strip(b"\0") or nxt >= len(data) or \
                    not any(data[nxt:nxt + 4]):
                break
            off = start = nxt
            continue
        rec = data[off + 4:off + 4 + n]
        if len(rec) < n:
            break
        if rec[:1] == b"C":
            # the trailer's own length is outside its CRC: it must be the trailer's size, or
            # a flipped length would carry the read past the commits after it
            if n != 5 or LEN.unpack(rec[1:5])[0] != zlib.crc32(data[start:off]):
                break
            try:                                      # parsed only once its CRC holds
                rows = [row for r in pending for row in _rows(r)]
            except (zlib.error, ValueError, KeyError):
                break
            out.extend(rows)
            pending, start = [], off + 4 + n
        else:
            pending.append(rec)
        off += 4 + n
    return out


def _rows(rec):
    """The rows of one record: an `R`, or the records a `Z` holds deflated."""
    if rec[:1] == b"R":
        body = rec[1:-32]
        yield json.loads(body)["seq"], rec[-32:].hex(), body
    elif rec[:1] == b"Z":
        inner, pos = zlib.decompress(rec[1:], -15), 0
        while pos + 4 <= len(inner):
            (m,) = LEN.unpack_from(inner, pos)
            yield from _rows(inner[pos + 4:pos + 4 + m])
            pos += 4 + m


# ---- the measurement: the same commits through SQLite and through the log, in one run ----

def device_stat(where):
    """/sys/block/.../stat of the device holding `where`: the path, or None."""
    st = os.stat(where)
    path = "/sys/dev/block/%d:%d/stat" % (os.major(st.st_dev), os.minor(st.st_dev))
    return path if os.path.exists(path) else None


def sectors_written(stat):
    with open(stat) as f:
        return int(f.read().split()[6])


def io_written():
    d = {}
    with open("/proc/self/io") as f:
        for line in f:
            k, v = line.split(":")
            d[k] = int(v)
    return d["write_bytes"] - d.get("cancelled_write_bytes", 0)


def _syncfs(where):
    """Everything of this file system on its device (the file system's journal too)."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(where, os.O_RDONLY)
    try:
        libc.syncfs(fd)
    finally:
        os.close(fd)


def segment_for(groups):
    """A segment that holds these commits in any layout (each commit's rows at most about
    their repr, and a sector of padding): whole MiB, no more zeroed than that."""
    size = sum(len(repr(e)) for entries, _, _ in groups for e in entries)
    need = 2 * size + 2 * SECTOR * len(groups)
    return max(ZERO_CHUNK, -(-need // ZERO_CHUNK) * ZERO_CHUNK)


def one_pass(kind, groups, where, key=None):
    """`groups` [(entries, meters, meters_after)] as one journal's commits, the first at its
    creation (not counted): {cpu_s, write_bytes, device_bytes, zeroed, rows, device}."""
    import time
    from controller.journal.store import Store
    path = os.path.join(where, "%s-%d.journal" % (kind, time.monotonic_ns()))
    stat = device_stat(where)
    _syncfs(where)
    d0 = sectors_written(stat) if stat else None
    (entries, meters, after), rest = groups[0], groups[1:]
    if kind.startswith("sqlite"):
        log = Store.create(path, key=key, entries=entries, meters=meters)
        append = log.append
        if kind == "sqlite-reused":
            # a table's steady state: the -wal written over from its start after a
            # checkpoint, no longer growing (each commit that grows it also changes the
            # file's size, which the file system journals)
            for entries, meters, after in rest:
                append(entries, meters=meters, meters_after=after)
            log.db.execute("PRAGMA wal_checkpoint(RESTART)")
            log._meters = None
    else:
        mode, direct = {"tail": ("tail", True), "pad": ("pad", True),
                        "buffered": ("tail", False), "tail-z": ("tail", True),
                        "pad-z": ("pad", True), "tail-z-fallocate": ("tail", True)}[kind]
        log = SectorLog(path, mode=mode, direct=direct, key=key, compress="-z" in kind,
                        zero=not kind.endswith("fallocate"), segment=segment_for(groups))
        log.append(entries, meters, after)
        append = log.append
    _syncfs(where)
    d1 = sectors_written(stat) if stat else None
    w0, cpu = io_written(), 0.0
    try:
        for entries, meters, after in rest:
            t0 = time.thread_time()
            append(entries, meters=meters, meters_after=after)
            cpu += time.thread_time() - t0
        w1 = io_written()
        _syncfs(where)
        d2 = sectors_written(stat) if stat else None
    finally:
        log.close()
    out = {"kind": kind, "cpu_s": cpu, "write_bytes": w1 - w0,
           "device_bytes": None if stat is None else 512 * (d2 - d1),
           "created_device_bytes": None if stat is None else 512 * (d1 - d0),
           "device": stat}
    if kind == "sqlite-reused":
        out["rows"] = None
    elif kind == "sqlite":
        store = Store(path)
        try:
            out["rows"], first = [], len(groups[0][0])
            out["payload"] = 0
            for r in store.rows():
                out["rows"].append((r["seq"], r["hash"]))
                if r["seq"] > first:          # the bytes of the rows (bench/journal.py's)
                    out["payload"] += sum(len(str(r[c]).encode("utf-8")) for c in r)
        finally:
            store.close()
        out["file_bytes"] = os.path.getsize(path)
    else:
        out["rows"] = [(seq, digest) for seq, digest, _ in read(path)]
        out["filled"] = log.off + len(log.tail)      # what the segment's zeroing was for
        out["zeroed"] = log.zeroed
        if not log.zeroed:
            out["filled"] = 0                 # nothing zeroed: no share of it to add
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)
    return out


def cpu_interleaved(groups, where, kinds=("tail-z", "tail"), repeat=3):
    """The journal's CPU per commit (thread_time of `append`: encoding, hashing, framing,
    the write and its sync's kernel time) of SQLite in its steady state (the -wal written
    over after a checkpoint) and of each log `kinds`, the same commits alternated one by
    one, so the machine's load falls on all alike; the best of `repeat`. {kind: cpu_s}."""
    import time
    from controller.journal.store import Store
    best = {}
    for _ in range(repeat):
        stores, paths = {}, []
        (entries, meters, after), rest = groups[0], groups[1:]
        path = os.path.join(where, "cpu-sqlite-%d.journal" % time.monotonic_ns())
        paths.append(path)
        stores["sqlite"] = Store.create(path, entries=entries, meters=meters)
        for e, m, a in rest:                         # the -wal at its size, then reused
            stores["sqlite"].append(e, meters=m, meters_after=a)
        stores["sqlite"].db.execute("PRAGMA wal_checkpoint(RESTART)")
        stores["sqlite"]._meters = None
        for kind in kinds:
            path = os.path.join(where, "cpu-%s-%d.journal" % (kind, time.monotonic_ns()))
            paths.append(path)
            stores[kind] = SectorLog(path, mode="pad" if kind.startswith("pad") else "tail",
                                     compress="-z" in kind, segment=segment_for(groups))
            stores[kind].append(entries, meters, after)
        cpu = dict.fromkeys(stores, 0.0)
        try:
            for e, m, a in rest:
                for kind, store in stores.items():
                    t0 = time.thread_time()
                    store.append(e, meters=m, meters_after=a)
                    cpu[kind] += time.thread_time() - t0
        finally:
            for store in stores.values():
                store.close()
            for path in paths:
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(path + suffix):
                        os.unlink(path + suffix)
        for kind, c in cpu.items():
            best[kind] = min(best.get(kind, c), c)
    return best


def compare(groups, where, kinds=("sqlite", "sqlite-reused", "tail", "pad", "buffered",
                                  "tail-z", "pad-z", "tail-z-fallocate")):
    """Every kind's pass over the same commits; each log's rows and hashes checked against
    SQLite's (the same rows, the same chain); then the CPU, interleaved (cpu_interleaved)."""
    out = {k: one_pass(k, groups, where) for k in kinds}
    out["cpu"] = cpu_interleaved(groups, where)
    want = out["sqlite"]["rows"]
    for k in kinds:
        rows = out[k].pop("rows")
        out[k]["same_rows"] = None if rows is None else rows == want
    out["payload"] = out["sqlite"]["payload"]
    return out


NAMES = {"tail": "tail sector rewritten, O_DIRECT|O_DSYNC",
         "pad": "each commit from a new sector, O_DIRECT|O_DSYNC",
         "buffered": "tail sector rewritten, pwrite + fdatasync",
         "tail-z": "tail, each commit deflated",
         "pad-z": "pad, each commit deflated",
         "tail-z-fallocate": "tail, deflated, in fallocate'd (unwritten) extents, not zeroed"}


def report(log, inputs, rounds):
    """The lines bench/journal.py prints for one game's `compare`."""
    payload, sq = log["payload"], log["sqlite"]
    x = (lambda b: "n/a" if b is None else "%.2fx" % (b / max(1, payload)))
    lines = ["     sqlite (the same commits again, in this run): %s payload (device %s), "
             "%.0f us/input" % (x(sq["write_bytes"]), x(sq["device_bytes"]),
                                1e6 * sq["cpu_s"] / max(1, inputs))]
    ru = log.get("sqlite-reused")
    if ru:
        lines.append("     sqlite, the -wal written over after a checkpoint (not growing): %s "
                     "payload (device %s), %.0f us/input"
                     % (x(ru["write_bytes"]), x(ru["device_bytes"]),
                        1e6 * ru["cpu_s"] / max(1, inputs)))
    for k in ("tail", "pad", "buffered", "tail-z", "pad-z", "tail-z-fallocate"):
        m = log.get(k)
        if m is None:
            continue
        zero = m["filled"]                 # its share of the segment's zeroing, written once
        lines.append(
            "     sector log (%s): %s payload, %.0f us/input (write_bytes; device %s; with "
            "the zeroing of what it filled %s; SQLite %s, %.0f us/input); rows and hashes "
            "as SQLite's: %s" % (NAMES[k], x(m["write_bytes"]), 1e6 * m["cpu_s"] / max(1, inputs),
                                 x(m["device_bytes"]),
                                 x(None if m["device_bytes"] is None else m["device_bytes"] + zero),
                                 x(sq["write_bytes"]), 1e6 * sq["cpu_s"] / max(1, inputs),
                                 m["same_rows"]))
    lines.append("     (device: %s, %.0f B payload/round over %d rounds)"
                 % (sq["device"], payload / max(1, rounds), rounds))
    cpu = log.get("cpu")
    if cpu:
        us = {k: 1e6 * v / max(1, inputs) for k, v in cpu.items()}
        best = log["tail-z"]
        lines.append("sector log: %.2fx payload, %.0f us/input (tail sector rewritten, each "
                     "commit deflated, O_DIRECT|O_DSYNC, the device's count with the zeroing "
                     "of what it filled; SQLite in this run %s payload on the device with its "
                     "-wal reused, %.0f us/input; the same commits alternated, best of 3; "
                     "undeflated %.0f us/input)"
                     % ((best["device_bytes"] + best["filled"]) / max(1, payload)
                        if best["device_bytes"] is not None else float("nan"),
                        us["tail-z"], x(ru["device_bytes"]) if ru else "n/a", us["sqlite"],
                        us.get("tail", float("nan"))))
    return lines
