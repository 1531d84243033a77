"""The one declared interface of a journal store, and the parts both formats share.

`JournalStore` is what the sector log (log.py, the format of every new journal) and the
SQLite file of older versions (store.py, kept to read, verify, replay and resume them) both
implement: the methods every reader and writer of a journal calls, declared here rather than
shared by duck typing with a base class inside the SQLite module. The helpers below are
format-neutral: how a row's data becomes the canonical text the chain hashes (`jsonable`,
`encode_rows`), the keyed head's MAC, and how a new journal file comes into place whole.
"""

import abc
import hashlib
import hmac
import os

from controller.errors import JournalError
from controller.journal.chain import GENESIS_HASH, body_of, canonical, link_hash, verify
from controller.journal.keys import key_id

KEYED = "hmac-sha256"          # the chain's name in a keyed journal's meta


def head_mac(key, seq, digest):
    body = ("tablectl journal head\0%d\0%s" % (seq, digest)).encode("ascii")
    return hmac.new(key, body, hashlib.sha256).hexdigest()


_PLAIN = frozenset((str, int, bool, type(None)))     # kept as they are, exactly these types


def jsonable(obj):
    """Data as JSON keeps it: tuples as lists, sets sorted, anything else by its text.

    The plain dicts, lists and tuples of plain values that make up nearly all of a row (a
    round's snapshot is thousands of them) take the first branches, checked by exact type
    and without a call per plain value; everything else takes the general ones below, as
    before, so the result is the same value for every input."""
    t = type(obj)
    if t is dict:
        return {(k if type(k) is str else str(k)): (v if type(v) in _PLAIN else jsonable(v))
                for k, v in obj.items()}
    if t is list or t is tuple:
        return [v if type(v) in _PLAIN else jsonable(v) for v in obj]
    return _jsonable(obj)


def _jsonable(obj):
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


def encode_rows(entries, seq, prev, key, latest, bodies=None):
    """Rows [(ts_ns, source, entry, kind, round_no, data)] as the journal stores them:
    ([(seq, ts_ns, source, entry, kind, round_no, data text, prev_hash, hash)], the latest
    stamp), numbered on from `seq` and chained on from hash `prev` (under `key`, if any).
    Each value is converted once and each body hashed once, with no dict per row
    (chain.body_of is canonical() of the same fields); `bodies`, a list, receives each
    row's body, the bytes its hash covers (a writer that stores them: bench/sector_log.py)."""
    rows = []
    for ts_ns, source, entry, kind, round_no, data in entries:
        seq += 1
        ts_ns, source, round_no = int(ts_ns), str(source), int(round_no or 0)
        text = canonical(jsonable(data)).decode("utf-8")
        body = body_of(seq, ts_ns, source, entry, kind, round_no, text)
        if bodies is not None:
            bodies.append(body)
        digest = link_hash(prev, body, key)
        rows.append((seq, ts_ns, source, entry, kind, round_no, text, prev, digest))
        prev = digest
        if latest is None or ts_ns > latest:
            latest = ts_ns
    return rows, latest


def link_into_place(tmp, path):
    """The new journal built whole at `tmp`, at `path` (never over a file that appeared
    there meanwhile: JournalError), its folder's entry on the disk."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise JournalError("journal %s: already exists" % path)
    fsync_dir(path)


def fsync_dir(path):
    fd = os.open(os.path.dirname(os.path.abspath(path)) or ".", os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class JournalStore(abc.ABC):
    """What a journal file is, whatever its format: its key, the chain verified through the
    reading methods each format has, and the methods every reader and writer of a journal
    calls (the live controller, boot, replay, verify, show, the console, the floor uplink).
    The sector log (log.LogStore) and the SQLite file of older versions (store.Store)
    implement it; ABCMeta refuses a store that leaves one out.

    Attributes each sets when opened: path, key, key_id, lock, last_seq, last_hash."""

    def _check_key(self):
        """Refuse a key that is not the journal's, or one given for an unkeyed journal."""
        if self.key is not None and self.key_id is None:
            self._refuse("journal %s is not keyed, but a key was given (an unkeyed journal is "
                         "verified without one; one expected keyed and found unkeyed may have "
                         "been rewritten)" % self.path)
        if self.key is not None and key_id(self.key) != self.key_id:
            self._refuse("journal %s is keyed with key id %s; the key given has key id %s: "
                         "the wrong key" % (self.path, self.key_id, key_id(self.key)))

    def _refuse(self, message, cls=JournalError):
        raise cls(message)

    @property
    def keyed(self):
        return self.key_id is not None

    def _need_key(self):
        if self.keyed and self.key is None:
            raise JournalError("journal %s is keyed (key id %s): it is verified and written "
                               "only with its key (--key FILE, or [controller] journal_key "
                               "in the table configuration)" % (self.path, self.key_id))

    def head(self):
        """(seq, hash) of the last row as recorded in meta (see `last` for the row's own)."""
        seq = self.meta("head_seq")
        return (None if seq is None else int(seq)), self.meta("head_hash")

    def last(self):
        """(seq, hash) of the last row this Store wrote or found: the anchor to write down."""
        with self._write:
            return self.last_seq, self.last_hash

    def head_authentic(self):
        """On a keyed journal opened with its key: True when meta's head_mac is the head's
        under the key, False when it is not, None when there is none (an older version's
        journal, or an unkeyed one: nothing to check)."""
        if self.key is None:
            return None
        mac = self.meta("head_mac")
        seq, digest = self.head()
        if mac is None or seq is None:
            return None
        return hmac.compare_digest(mac, head_mac(self.key, seq, digest))

    def verify(self, anchor=None, start=1):
        """The first chain.Break, or None; `anchor` (seq, hash) as chain.verify takes it.
        From row `start` (> 1: a boot's check from its last verified point), linking from
        the stored hash of the row before it."""
        self._need_key()
        prev = GENESIS_HASH if start <= 1 else (self.hash_at(start - 1) or GENESIS_HASH)
        return verify(self.rows(start), self.head(), self.key, anchor, start=start, prev=prev)

    # ---- what each format implements --------------------------------------------------

    @classmethod
    @abc.abstractmethod
    def create(cls, path, key=None, entries=(), meters=None, meta=None):
        """A new journal at `path` holding `entries` (its genesis), made whole under a
        temporary name and linked into place; JournalError if `path` exists."""

    @abc.abstractmethod
    def close(self):
        """The file closed (what was appended is on the disk already)."""

    @abc.abstractmethod
    def append(self, entries, meters=None, meters_after=None):
        """Rows [(ts_ns, source, entry, kind, round_no, data)] and optionally the meters
        (after the first `meters_after` rows), committed durably as one; (seq, hash) last."""

    @abc.abstractmethod
    def _put_meta(self, items):
        """{key: value} written to the journal's meta durably, in one commit (boot marks
        a journal `anchored` with it)."""

    @abc.abstractmethod
    def refresh(self):
        """What was committed since by another Store on the file: True if anything was."""

    @abc.abstractmethod
    def rows(self, start=1, stop=None):
        """Rows as dicts in seq order, `data` as stored text, from `start` to before `stop`."""

    @abc.abstractmethod
    def select(self, kinds=None, last=None, after=0):
        """Rows as dicts in seq order: only `kinds`, only the last `last`, if given; only
        those after row `after` (the console's wager meters resume from a checkpoint)."""

    @abc.abstractmethod
    def hash_at(self, seq):
        """The stored hash of row `seq`, or None when there is no such row."""

    @abc.abstractmethod
    def first_record(self, kind):
        """The seq of the first record of `kind`, or None."""

    @abc.abstractmethod
    def last_record(self, kind, upto=None):
        """The data of the last record of `kind` (at or before row `upto`), parsed, or None."""

    @abc.abstractmethod
    def snapshots(self, below=None, before_round=None, limit=1):
        """Seqs of the last `limit` snapshot rows before row `below`, of a round number below
        `before_round`; newest first."""

    @abc.abstractmethod
    def meta(self, key):
        """The journal's meta value of `key` (text), or None."""

    @abc.abstractmethod
    def meters(self):
        """{name: value} of the meters committed last."""

    @abc.abstractmethod
    def meters_seq(self):
        """The row the committed meters are those after."""

    @abc.abstractmethod
    def latest_ts(self):
        """The latest stamp of any row, or None."""

    @abc.abstractmethod
    def legacy_acks(self):
        """The floor uplink's acknowledgements as an older version kept them ({}: none)."""

    @abc.abstractmethod
    def reading(self):
        """A context: what is read inside is the journal as it was at the first read."""
