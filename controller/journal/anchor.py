"""The anchor: the journal's head written down outside the database, so a rollback shows.

A power cut followed by a deleted or truncated `-wal` puts the SQLite file back to an older,
self-consistent state: rows, head and meters all older together, and the chain holds. So does
a tail cut off with the head and meters in `meta` edited to match. What no edit of the file
can reach is a copy of the head kept elsewhere: `PATH.anchor`, one JSON line

    {"seq": N, "hash": H, "key_id": K or null, "mac": M or null, "format": 1}

written with the head (at the end of each round, at each boot and at a clean stop, see
live.py) atomically: a temporary file, fsync, rename over the old one, fsync of the
directory. Its seq only grows (`write` refuses to go back). On a keyed journal `mac` is
HMAC-SHA256 under the journal key over seq, hash and key id: nobody without the key writes a
lower one that boot believes. At boot (`check`) the journal must hold row N with hash H, and
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
import os

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


class FileWitness(Witness):
    """`PATH.anchor` beside the journal (see the module docstring)."""

    def __init__(self, journal_path):
        self.path = anchor_path(journal_path)
        self.name = "anchor file %s" % self.path

    def read(self):
        """The anchor, None when there is no file; JournalError when it is not one."""
        try:
            with open(self.path, "rb") as f:
                text = f.read(4096)
        except FileNotFoundError:
            return None
        except OSError as e:
            raise JournalError("%s: %s" % (self.name, e.strerror))
        try:
            a = json.loads(text.decode("utf-8"))
            if not (isinstance(a, dict) and type(a.get("seq")) is int and a["seq"] >= 0
                    and isinstance(a.get("hash"), str)):
                raise ValueError("not an anchor")
        except ValueError as e:
            raise JournalError("%s is damaged (%s)" % (self.name, e))
        return a

    def write(self, anchor):
        directory = os.path.dirname(os.path.abspath(self.path))
        tmp = "%s.tmp-%d" % (self.path, os.getpid())
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, json.dumps(anchor, sort_keys=True).encode("ascii") + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


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
    row = store.db.execute("SELECT hash FROM journal WHERE seq = ?", (seq,)).fetchone()
    if row is None:
        return "row %d, named by %s, is missing" % (seq, name)
    if row[0] != anchor["hash"]:
        return ("row %d's hash is not the one in %s (%s...): the journal was rewritten up to "
                "it" % (seq, name, anchor["hash"][:16]))
    return None
