"""The anchor: the journal's head written down outside the database, so a rollback shows.

A power cut followed by a deleted or truncated `-wal` puts the SQLite file back to an older,
self-consistent state: rows, head and meters all older together, and the chain holds. So does
a tail cut off with the head and meters in `meta` edited to match. What no edit of the file
can reach is a copy of the head kept elsewhere: `PATH.anchor`, one JSON line

    {"seq": N, "hash": H, "key_id": K or null, "mac": M or null, "format": 1}

written with the head (at the end of each round, at each boot and at a clean stop, see
live.py) into one of two slots of a file made once (FileWitness: a torn write leaves the
other slot's, one anchor older; O_DIRECT, one sector a round). Its seq only grows (`write`
refuses to go back). On a keyed journal `mac` is HMAC-SHA256 under the journal key over
seq, hash and key id: nobody without the key writes a lower one that boot believes. At boot (`check`) the journal must hold row N with hash H, and
its keyed-ness must be the anchor's (a keyed journal rewritten unkeyed is refused).

The anchor is also the journal's last verified point: rows up to it were written by this
controller or checked at a boot, so a boot verifies only the rows after it (plus the round or
two it replays); `tablectl journal verify` checks the whole chain, from the genesis.

A witness is anything holding a copy of the anchor: the file here, and later the floor link's
copy (`Witness` is the hook: `read()` -> dict or None, `write(anchor)`). `check` compares the
journal against every witness given.
"""

import hashlib
import hmac
import json
import mmap
import os
import zlib

from controller.errors import JournalError

FORMAT = 1


def anchor_path(path):
    return str(path) + ".anchor"


def mac(key, seq, digest, kid):
    body = ("tablectl journal anchor\0%d\0%s\0%s" % (seq, digest, kid or "")).encode("ascii")
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def make(seq, digest, key=None, kid=None):
    return {"format": FORMAT, "seq": int(seq), "hash": digest, "key_id": kid,
            "mac": None if key is None else mac(key, seq, digest, kid)}


class Witness:
    """A copy of the anchor somewhere: the interface the floor link's copy will implement."""

    name = "witness"

    def read(self):
        raise NotImplementedError

    def write(self, anchor):
        raise NotImplementedError


SLOT = 512                # two slots; a write is one slot, one sector
FILE_SIZE = 4096          # the file: a whole file-system block, the slots and zeros


class FileWitness(Witness):
    """`PATH.anchor` beside the journal (see the module docstring).

    The file has two 512-byte slots, each one JSON line and a CRC-32 of it. A write goes to
    the slot not holding the newest anchor, then fdatasync: one sync per anchor, and a write
    the power cuts short damages only the slot being written, so the file always holds the
    newest complete anchor or the one before it (the same promise as a temporary file renamed
    over it, at one fsync instead of two; the file and its directory entry are created once,
    that way: temporary file, fsync, rename, fsync of the directory).

    Why O_DIRECT into a file of FILE_SIZE bytes (issue 16, SD wear): a slot written through
    the page cache costs the device its whole 4 KiB page and the file system's journal more,
    4.1 KiB an anchor on a scratch ext4 (docs/performance.md, "log2"); written with O_DIRECT
    it is the slot's one sector, provided the write is an overwrite of blocks already
    allocated inside the file's size: the 1 KiB file of before (a block partly past the end
    of the file) still cost 2 KiB more an anchor, a file of a whole block 0.5 KiB. So the
    file is made (or, if older and shorter, extended once, fsynced) to FILE_SIZE, and no
    anchor write changes its size or its extents. Where O_DIRECT is refused (tmpfs, a
    device whose sectors are larger than a slot) the slot is written buffered, as before."""

    def __init__(self, journal_path):
        self.path = anchor_path(journal_path)
        self.name = "anchor file %s" % self.path
        self.fd = None
        self.direct = None        # the O_DIRECT descriptor, when the file system takes it
        self._buf = None          # its page-aligned buffer
        self.slot = None          # the slot the newest anchor is in

    def _slots(self, data):
        out = []
        for i in (0, 1):
            chunk = data[i * SLOT:(i + 1) * SLOT].split(b"\n")
            if len(chunk) < 2 or not chunk[0]:
                continue
            try:
                a = json.loads(chunk[0].decode("ascii"))
                if int(chunk[1][:8], 16) != zlib.crc32(chunk[0]):
                    continue
            except (ValueError, UnicodeDecodeError):
                continue
            if isinstance(a, dict) and type(a.get("seq")) is int and a["seq"] >= 0 and \
                    isinstance(a.get("hash"), str):
                out.append((a["seq"], i, a))
        return out

    def read(self):
        """The newest anchor, None when there is no file; JournalError when it is not one."""
        try:
            with open(self.path, "rb") as f:
                data = f.read(4 * SLOT)
        except FileNotFoundError:
            return None
        except OSError as e:
            raise JournalError("%s: %s" % (self.name, e.strerror))
        slots = self._slots(data)
        if not slots:
            try:                              # one JSON line, as a development build wrote
                a = json.loads(data.rstrip(b"\0").decode("ascii"))
                if isinstance(a, dict) and type(a.get("seq")) is int and \
                        isinstance(a.get("hash"), str):
                    slots = [(a["seq"], 1, a)]
            except (ValueError, UnicodeDecodeError):
                pass
        if not slots:
            raise JournalError("%s is damaged (no slot holds an anchor)" % self.name)
        seq, self.slot, a = max(slots, key=lambda t: t[0])
        return a

    def _line(self, anchor):
        line = json.dumps(anchor, sort_keys=True).encode("ascii")
        body = line + b"\n" + b"%08x\n" % zlib.crc32(line)
        if len(body) > SLOT:
            raise JournalError("%s: an anchor of %d bytes" % (self.name, len(body)))
        return body.ljust(SLOT, b"\0")

    def write(self, anchor):
        if self.fd is None:
            if not os.path.exists(self.path):
                self._create(anchor)
                return
            self.read()
            self._open()
        slot = 0 if self.slot == 1 else 1
        self._pwrite(self._line(anchor), slot * SLOT)
        os.fdatasync(self.fd if self.direct is None else self.direct)
        self.slot = slot

    def _open(self):
        """The descriptors for writing; a shorter file of an older version is extended to
        FILE_SIZE first (zeros after its slots, fsynced: its one change of size)."""
        self.fd = os.open(self.path, os.O_RDWR)
        size = os.fstat(self.fd).st_size
        if size < FILE_SIZE:
            os.pwrite(self.fd, bytes(FILE_SIZE - max(size, 2 * SLOT)), max(size, 2 * SLOT))
            os.fsync(self.fd)
        try:
            self.direct = os.open(self.path, os.O_RDWR | getattr(os, "O_DIRECT", 0))
        except OSError:
            self.direct = None
        if self.direct is not None:
            self._buf = mmap.mmap(-1, mmap.PAGESIZE)

    def _pwrite(self, data, offset):
        if self.direct is not None:
            self._buf[:len(data)] = data
            try:
                os.pwrite(self.direct, memoryview(self._buf)[:len(data)], offset)
                return
            except OSError:                       # O_DIRECT refused this write: buffered
                os.close(self.direct)
                self.direct = None
        os.pwrite(self.fd, data, offset)

    def _create(self, anchor):
        directory = os.path.dirname(os.path.abspath(self.path))
        tmp = "%s.tmp-%d" % (self.path, os.getpid())
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, self._line(anchor) + bytes(FILE_SIZE - SLOT))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
        self.slot = 0
        self._open()

    def close(self):
        for name in ("fd", "direct"):
            fd = getattr(self, name)
            if fd is not None:
                os.close(fd)
                setattr(self, name, None)
        if self._buf is not None:
            self._buf.close()
            self._buf = None


def check(store, anchor, name, key=None):
    """The problem (text) with the journal in `store` against one witness's `anchor`, or None.
    `store.last_seq` is the last row the file holds."""
    kid = store.key_id
    if anchor.get("key_id") and not kid:
        return ("%s was written for a keyed journal (key id %s) but the journal is unkeyed: "
                "it was rewritten" % (name, anchor["key_id"]))
    if kid and anchor.get("key_id") not in (None, kid):
        return "%s names key id %s, the journal key id %s" % (name, anchor["key_id"], kid)
    if kid and key is not None:
        if anchor.get("mac") is None and anchor.get("key_id") is None and anchor["seq"] > 0:
            return "%s of a keyed journal is not authenticated (no key id, no mac)" % name
        if anchor.get("key_id") is not None and not hmac.compare_digest(
                str(anchor.get("mac")), mac(key, anchor["seq"], anchor["hash"], kid)):
            return "%s is not authenticated by the journal key (edited)" % name
    seq = anchor["seq"]
    if seq == 0:
        return None
    if store.last_seq < seq:
        return ("the journal ends at row %d but %s names row %d: rolled back (the -wal "
                "deleted or truncated after a power cut, the tail cut, or an older copy put "
                "back)" % (store.last_seq, name, seq))
    stored = store.hash_at(seq)
    if stored is None:
        return "row %d, named by %s, is missing" % (seq, name)
    if stored != anchor["hash"]:
        return ("row %d's hash is not the one in %s (%s...): the journal was rewritten up to "
                "it" % (seq, name, anchor["hash"][:16]))
    return None
