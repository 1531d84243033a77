"""The hash chain over journal rows, and its verification.

Each row's hash is SHA-256 over the previous row's hash (64 hex digits; the first row's
predecessor is GENESIS_HASH) followed by the canonical JSON of the row's own fields, with
`data` as the exact stored text. So an edited row fails its own hash, a deleted or reordered
row fails the next row's link or its seq, and a truncated tail fails the head kept in `meta`.
A SHA-256 chain proves order and integrity, not authorship: whoever can rewrite the whole
file can recompute it. Two things close that. A keyed journal's hashes are
HMAC-SHA256(key, prev_hash || canonical row) instead, which nobody without the key can
recompute (keys.py). And an anchor: the seq and hash of a row written down outside the file
(`tablectl journal head`); a journal rewritten up to that row no longer has that hash there.
"""

import hashlib
import hmac
import json
import json.encoder

GENESIS_HASH = "0" * 64
FIELDS = ("seq", "ts_ns", "source", "entry", "kind", "round_no", "data")


def _slow_canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


# json.dumps with these arguments builds an encoder object per call (half its time on a
# row's data); this is that encoder, built once: the C one json.dumps itself uses, the same
# arguments, without the check for circular containers (data from JSON or from the code
# has none; jsonable() would recurse on one before this ran)
_make = getattr(json.encoder, "c_make_encoder", None)
_encoder = None if _make is None else _make(
    None, json.JSONEncoder().default, json.encoder.encode_basestring, None, ":", ",", True,
    False, False)


def canonical(obj):
    """One byte string per JSON value: sorted keys, no spaces, UTF-8, no NaN."""
    if _encoder is None:
        return _slow_canonical(obj)
    return "".join(_encoder(obj, 0)).encode("utf-8")


_string = json.encoder.encode_basestring      # what json.dumps(ensure_ascii=False) uses
ROW_TEMPLATE = ('{"data":%s,"entry":%s,"kind":%s,"round_no":%d,"seq":%d,"source":%s,'
                '"ts_ns":%d}')                # FIELDS as canonical() orders them (sorted)


def row_body(row):
    """canonical() of the row's FIELDS, the bytes its hash covers.

    Every row the controller writes has int seq, ts_ns and round_no and str source, entry,
    kind and data: for those the text is put together from the template, the same bytes
    canonical() makes (tests/journal/test_chain.py compares them) without building a dict
    and sorting its keys once per row and again per verification. Any other row takes
    canonical() itself."""
    return body_of(row["seq"], row["ts_ns"], row["source"], row["entry"], row["kind"],
                   row["round_no"], row["data"])


def body_of(seq, ts, source, entry, kind, rn, data):
    """row_body() of a row given field by field (the writer's, which has no dict)."""
    if type(seq) is int and type(ts) is int and type(rn) is int and type(source) is str \
            and type(entry) is str and type(kind) is str and type(data) is str:
        return (ROW_TEMPLATE % (_string(data), _string(entry), _string(kind), rn, seq,
                                _string(source), ts)).encode("utf-8")
    return canonical({"seq": seq, "ts_ns": ts, "source": source, "entry": entry, "kind": kind,
                      "round_no": rn, "data": data})


def link_hash(prev_hash, body, key=None):
    """The hash of a row whose row_body() is `body`, linked to `prev_hash`."""
    body = prev_hash.encode("ascii") + body
    if key is None:
        return hashlib.sha256(body).hexdigest()
    return hmac.digest(key, body, "sha256").hex()


def row_hash(prev_hash, row, key=None):
    """SHA-256 over the link and the row, or with `key` (bytes) HMAC-SHA256 under it."""
    return link_hash(prev_hash, row_body(row), key)


class Break:
    """The first row the chain does not hold at, and why."""

    def __init__(self, seq, reason):
        self.seq, self.reason = seq, reason

    def __str__(self):
        return "row %d: %s" % (self.seq, self.reason)

    def __repr__(self):
        return "Break(%d, %r)" % (self.seq, self.reason)


def verify(rows, head=None, key=None, anchor=None, start=1, prev=GENESIS_HASH):
    """The first Break in `rows` (dicts in seq order, any iterable), or None when the
    chain holds.

    `head` is (seq, hash) of the last row as recorded beside the journal: rows missing
    at the end are found by it. `key` is a keyed journal's key. `anchor` is (seq, hash) of
    a row as written down outside the journal: that row must be there, with that hash.
    `start` and `prev`: the rows begin at row `start`, linking from hash `prev` (a boot's
    check from its last verified point, anchor.py).
    """
    expected = start
    for row in rows:
        seq = row["seq"]
        if seq != expected:
            return Break(expected, "missing: the journal goes from row %d to row %d "
                                   "(rows deleted or reordered)" % (expected - 1, seq))
        if row["prev_hash"] != prev:
            return Break(seq, "its link does not match the hash of row %d (a row before it "
                              "was edited, deleted or reordered)" % (seq - 1))
        try:
            json.loads(row["data"])
        except (TypeError, ValueError):
            return Break(seq, "its data is not JSON (edited)")
        if row_hash(prev, row, key) != row["hash"]:
            return Break(seq, "its hash does not match its contents (edited)")
        if anchor is not None and seq == anchor[0] and row["hash"] != anchor[1]:
            return Break(seq, "its hash is not the one in the anchor given (%s...): the "
                              "journal was rewritten up to this row" % anchor[1][:16])
        prev, expected = row["hash"], seq + 1
    if head is not None and head[0] is not None:
        head_seq, head_hash = head
        if head_seq >= expected:
            return Break(expected, "missing: the journal ends at row %d but row %d was "
                                   "written (truncated)" % (expected - 1, head_seq))
        if head_seq < expected - 1:
            return Break(head_seq + 1, "written after the row recorded as the journal's "
                                       "head (%d): appended outside the journal" % head_seq)
        if head_hash != prev:
            return Break(head_seq, "its hash is not the one recorded as the journal's head "
                                   "(edited)")
    if anchor is not None and anchor[0] >= expected:
        return Break(expected, "missing: the journal ends at row %d but the anchor given "
                               "names row %d (truncated)" % (expected - 1, anchor[0]))
    return None
