"""The hash chain: an edited, deleted or reordered row is found, and named."""

import hashlib
import hmac

from controller.journal.chain import FIELDS, GENESIS_HASH, canonical, row_body, row_hash
from controller.journal.formats import format_of, open_journal
from tests.journal import tamper


def _rows(path):
    s = open_journal(str(path))
    try:
        return list(s.rows()), s.verify()
    finally:
        s.close()


def test_the_chain_of_a_simulated_journal_holds(journal_copy):
    rows, brk = _rows(journal_copy)
    assert brk is None and len(rows) > 50
    assert rows[0]["prev_hash"] == GENESIS_HASH
    for prev, row in zip(rows, rows[1:]):
        assert row["prev_hash"] == prev["hash"] == row_hash(prev["prev_hash"], prev)


def test_the_canonical_json_is_one_byte_string_per_value():
    assert canonical({"b": [1, "é"], "a": None}) == '{"a":null,"b":[1,"é"]}'.encode()


def test_the_row_body_is_the_canonical_json_of_the_row_byte_for_byte():
    # the writer's and verifier's template must make exactly what canonical() makes, or
    # every journal written before it (and every one after) would fail its own hashes
    texts = ['{"a":"\\"quoted\\" \\\\ back"}', "é ü 中文 😀", "\u2028\u2029\x00\x1f\x7f",
             "tab\tnew\nline\r", "", '"', "\\", "\ud7ff\ue000"]
    rows = [{"seq": 1 + i, "ts_ns": 10 ** 18 + i, "source": src, "entry": "event",
             "kind": kind, "round_no": i, "data": text}
            for i, (text, src, kind) in enumerate(
                (t, s, k) for t in texts for s in ("dealer_panel", "é\"")
                for k in ("wager", "\n"))]
    # and rows of other types (a replay's, a hand-edited one): canonical() itself
    rows += [{"seq": 1, "ts_ns": 2, "source": "x", "entry": "event", "kind": None,
              "round_no": True, "data": "{}"},
             {"seq": 1.5, "ts_ns": 2, "source": "x", "entry": "event", "kind": "k",
              "round_no": 0, "data": {"not": "text"}}]
    for row in rows:
        assert row_body(row) == canonical({k: row[k] for k in FIELDS}), row
        body = GENESIS_HASH.encode("ascii") + canonical({k: row[k] for k in FIELDS})
        assert row_hash(GENESIS_HASH, row) == hashlib.sha256(body).hexdigest()
        assert row_hash(GENESIS_HASH, row, b"k" * 16) == \
            hmac.new(b"k" * 16, body, hashlib.sha256).hexdigest()


def test_canonical_is_json_dumps_with_its_arguments():
    from controller.journal.chain import _slow_canonical
    import math
    import pytest

    class Kind(int):
        pass
    values = [None, True, 0, -7, 10 ** 30, 1.5, -0.0, 1e300, "é\"\\\n\u2028😀", "", [], {},
              (1, "a"), {"b": [1, {"z": None, "a": (2.5, False)}], "a": "x", "é": 1},
              {1: "int keys", 2: "sorted as ints"}, {"n": Kind(3)}, [[[[{"deep": 1}]]]]]
    for v in values:
        assert canonical(v) == _slow_canonical(v), v
    for bad, error in ((math.nan, ValueError), ({"x": math.inf}, ValueError),
                       ([-math.inf], ValueError), ({"s": {1, 2}}, TypeError),
                       (object(), TypeError), ({1: "a", "b": 2}, TypeError)):
        with pytest.raises(error):
            _slow_canonical(bad)
        with pytest.raises(error):
            canonical(bad)


def test_an_edited_row_is_named(either_copy):
    rows, _ = _rows(either_copy)
    wager = next(r for r in rows if r["kind"] == "wager" and r["seq"] > 20)

    def edit(rows):
        rows[wager["seq"] - 1]["data"] = wager["data"].replace("500", "50000")
        return rows
    tamper.edit_rows(either_copy, edit)
    _, brk = _rows(either_copy)
    assert brk.seq == wager["seq"] and "edited" in brk.reason


def test_a_deleted_row_is_named(either_copy):
    tamper.edit_rows(either_copy, lambda rows: [r for r in rows if r["seq"] != 40])
    _, brk = _rows(either_copy)
    assert brk.seq == 40 and "missing" in brk.reason


def test_reordered_rows_are_named(either_copy):
    cols = ("ts_ns", "source", "entry", "kind", "round_no", "data", "prev_hash", "hash")

    def swap(rows):                           # rows 30 and 31 change places
        a, b = dict(rows[29]), dict(rows[30])
        rows[29].update({c: b[c] for c in cols})
        rows[30].update({c: a[c] for c in cols})
        return rows
    tamper.edit_rows(either_copy, swap)
    _, brk = _rows(either_copy)
    assert brk.seq == 30


def test_a_row_rehashed_after_an_edit_breaks_the_next_link(either_copy):
    def edit(rows):
        row = rows[44]
        row["data"] = row["data"].replace("}", ',"x":1}', 1)
        row["hash"] = row_hash(row["prev_hash"], row)
        return rows
    tamper.edit_rows(either_copy, edit)
    _, brk = _rows(either_copy)
    # SQLite stores each row's prev_hash, so row 46's link names 45's old hash; the log
    # stores none (a row's prev_hash is the hash of the row before it), so 46's own hash,
    # made over 45's old one, fails
    assert brk.seq == 46 and ("link" in brk.reason or "edited" in brk.reason), brk.reason


def test_a_truncated_tail_is_found_by_the_head(either_copy):
    rows, _ = _rows(either_copy)
    last = rows[-1]["seq"]
    tamper.edit_rows(either_copy, lambda rows: [r for r in rows if r["seq"] < last - 2])
    _, brk = _rows(either_copy)
    if format_of(str(either_copy)) == "log":
        # the log keeps no head apart from its rows: a cut tail is a shorter chain that holds,
        # and what finds it is the anchor (tests/journal/test_log.py, the anchor ahead of it)
        assert brk is None
        from tests.journal.test_integrity import locked_reason
        state, reason, _ = locked_reason(either_copy)
        assert "rolled back" in reason, reason
        return
    assert brk.seq == last - 2 and "truncated" in brk.reason
