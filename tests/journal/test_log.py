"""The sector log (controller/journal/log.py): a journal the real simulator writes and resumes,
read only through CRCs and checked lengths, a torn write falling back to the commit before,
and every damage or rewrite caught by `journal verify` and at boot as on SQLite."""
import os
import shutil

import pytest

from controller import cli
from controller.errors import JournalDamaged
from controller.games.engine import LOCKED_OUT
from controller.journal import log as L
from controller.journal.anchor import FileWitness, anchor_path
from controller.journal.formats import create_journal, format_of, open_journal
from controller.journal.store import load
from tests.journal.conftest import simulate
from tests.journal.test_integrity import GAME, locked_reason


@pytest.fixture(scope="module")
def log_master(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("TABLECTL_JOURNAL_FORMAT", "log")
    try:
        path = tmp_path_factory.mktemp("log") / "riu.journal"
        simulate(path)
    finally:
        mp.undo()
    return path


@pytest.fixture
def log_copy(log_master, tmp_path):
    path = tmp_path / "table.journal"
    shutil.copy(log_master, path)
    shutil.copy(anchor_path(log_master), anchor_path(path))
    return path


def rows(path):
    store = open_journal(str(path))
    try:
        return list(store.rows())
    finally:
        store.close()


def stream_end(path):
    """(full sectors, the newest slot, last seq, the older slot's full sectors)."""
    store = open_journal(str(path))
    try:
        with open(path, "rb") as f:
            f.seek((2 - store._newest_slot) * L.SECTOR)
            older = L._parse_slot(f.read(L.SECTOR))
        return store._full, store._newest_slot, store.last_seq, older[1]
    finally:
        store.close()


def poke(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def test_the_simulator_writes_a_log_that_verifies_and_resumes(log_copy, capsys):
    assert format_of(str(log_copy)) == "log"
    assert cli.main(["journal", "verify", str(log_copy)]) == 0
    assert "the chain holds" in capsys.readouterr().out
    before = rows(log_copy)
    simulate(log_copy, GAME, rounds=1, seed=2)           # boot checks, resume, one round more
    after = rows(log_copy)
    assert after[:len(before)] == before and len(after) > len(before) + 10
    assert cli.main(["journal", "verify", str(log_copy)]) == 0
    state, reason, _ = locked_reason(log_copy)
    assert state != LOCKED_OUT, reason


def test_a_log_reads_back_what_was_appended_with_the_meters_and_the_index(tmp_path):
    path = str(tmp_path / "j")
    store = create_journal(path, fmt="log", entries=[
        (1, "controller", "genesis", "genesis", 0, {"game": "poker"}),
        (2, "controller", "snapshot", "snapshot", 0, {"s": 0})], meters={"a": 1, "b": 2})
    for i in range(200):                       # rows that fill sectors, and some that do not
        store.append([(10 + i, "shoe", "event", "card", 1 + i // 50, {"card": "Kh", "n": i})]
                     + ([(10 + i, "controller", "snapshot", "snapshot", 1 + i // 50, {"i": i})]
                        if i % 50 == 49 else []),
                     meters={"a": i, "c": 3}, meters_after=1)
    store._put_meta({"anchored": "1"})
    written = list(store.rows())
    store.close()
    again = open_journal(path)
    try:
        assert list(again.rows()) == written and again.verify() is None
        assert again.meters() == {"a": 199, "c": 3} and again.meters_seq() == len(written) - 1
        assert again.meta("anchored") == "1" and again.latest_ts() == 209
        assert again.snapshots(limit=2) == [s["seq"] for s in written
                                           if s["entry"] == "snapshot"][-1:-3:-1]
        assert again.snapshots(before_round=2) == [53]
        assert list(again.rows(100, 103)) == written[99:102]
        assert again.hash_at(150) == written[149]["hash"] and again.hash_at(10 ** 6) is None
    finally:
        again.close()


def test_a_tail_is_read_from_the_end_and_is_the_tail_of_the_whole(tmp_path, monkeypatch):
    """`events N` after every card of a soak read the whole journal each time (issue 33): a
    tail reads the commits it needs from the end back, and gives what filtering all of it
    gives, with kinds or without, however many are asked. The snapshots (the console's wager
    meters at every start) are read by their index, not by reading every commit."""
    path = str(tmp_path / "j")
    store = create_journal(path, fmt="log", entries=[
        (1, "controller", "genesis", "genesis", 0, {"game": "poker"}),
        (2, "controller", "snapshot", "snapshot", 0, {"s": 0})])
    for i in range(300):
        store.append([(10 + i, "shoe", "event", "card", 1 + i // 50, {"n": i})]
                     + ([(10 + i, "controller", "snapshot", "snapshot", 1 + i // 50, {"i": i})]
                        if i % 50 == 49 else []))
    store.close()
    store = open_journal(path, readonly=True)
    try:
        whole = list(store.rows())
        for kinds in (None, ("card",), ("snapshot",), ("genesis", "snapshot"), ("none",)):
            picked = [r for r in whole if not kinds or r["kind"] in kinds]
            for last in (1, 2, 7, 20, 64, 500):
                assert list(store.select(kinds, last)) == picked[-last:], (kinds, last)
            assert list(store.select(kinds)) == picked
        read = []
        items = store._commit_items
        monkeypatch.setattr(store, "_commit_items",
                            lambda i, *ahead: read.append(i) or items(i, *ahead))
        assert [r["data"] for r in store.select(None, 3)] == ['{"n":298}', '{"n":299}',
                                                              '{"i":299}']
        assert 0 < len(read) <= 8 and min(read) >= 290, read      # not the 300 commits
        del read[:]
        assert [r["data"] for r in store.select(("snapshot",))] == \
            ['{"s":0}'] + ['{"i":%d}' % i for i in range(49, 300, 50)]
        assert len(read) <= 2 * 7, read            # the commits that hold them (and links)
    finally:
        store.close()


def test_a_flipped_byte_anywhere_is_damage_named_at_boot_and_by_verify(log_copy, capsys):
    _, _, _, older = stream_end(log_copy)
    for offset in (100, 300, (L.FIRST + 1) * L.SECTOR + 7, (L.FIRST + older // 2) * L.SECTOR,
                   (L.FIRST + older - 1) * L.SECTOR + 480):
        shutil.copy(str(log_copy), str(log_copy) + ".good")
        flip(log_copy, offset)
        if os.path.exists(str(log_copy) + ".index"):      # the last boot's (below)
            os.unlink(str(log_copy) + ".index")
        with pytest.raises(JournalDamaged, match="CRC"):
            open_journal(str(log_copy))
        assert cli.main(["journal", "verify", str(log_copy)]) == 1
        assert "CRC" in capsys.readouterr().err
        state, reason, report = locked_reason(log_copy)
        assert state == LOCKED_OUT and "CRC" in reason and report.get("refused")
        shutil.copy(str(log_copy) + ".good", str(log_copy))


def test_with_the_side_index_a_flipped_old_sector_is_found_when_its_rows_are_read(log_copy,
                                                                              capsys):
    """The index spares a boot the scan of the rows before it, sector CRCs and all; those
    rows' sectors are checked as they are read: by `journal verify`, by the boot."""
    locked_reason(log_copy)                                  # a clean stop writes the index
    assert os.path.exists(str(log_copy) + ".index")
    store = open_journal(str(log_copy))
    assert store._checked > 2
    store.close()
    flip(log_copy, (L.FIRST + 1) * L.SECTOR + 7)
    assert cli.main(["journal", "verify", str(log_copy)]) == 1
    assert "sector %d of the log fails its CRC" % (L.FIRST + 1) in capsys.readouterr().err
    state, reason, report = locked_reason(log_copy)    # the boot reads rows 1-2 there
    assert state == LOCKED_OUT and "fails its CRC" in reason and report.get("refused")


def test_a_side_index_that_does_not_agree_with_the_log_is_not_taken(log_copy):
    locked_reason(log_copy)
    index = str(log_copy) + ".index"
    good = rows(log_copy)
    for damage in (lambda b: b[:-1] + bytes([b[-1] ^ 1]),            # its CRC
                   lambda b: b[:40]):                                 # cut
        data = open(index, "rb").read()
        with open(index, "wb") as f:
            f.write(damage(data))
        store = open_journal(str(log_copy))
        try:
            assert store._checked == store._full and list(store.rows()) == good
        finally:
            store.close()                 # and writes it again, whole



def index_records(path):
    """PATH.index's records: [(sector, number, end, head, the arrays' bytes)]."""
    import json
    import zlib
    data = open(str(path) + ".index", "rb").read()
    out, pos = [], 1
    while (pos + 1) * L.SECTOR <= len(data):
        magic, no, end, n, crc = L.IX_HEAD.unpack_from(data, pos * L.SECTOR)
        body = data[pos * L.SECTOR + L.IX_HEAD.size:pos * L.SECTOR + L.IX_HEAD.size + n]
        if magic != L.IX_MAGIC or zlib.crc32(body) != crc:
            break
        text, _, rest = zlib.decompress(body).partition(b"\n")
        out.append((pos, no, end, json.loads(text), rest))
        pos += 1 + (L.IX_HEAD.size + n - 1) // L.SECTOR
    return out


def put_record(path, pos, no, end, head, rest):
    """A record written over the one at sector `pos`, its CRC made to hold (an edit made by
    someone who knows the format)."""
    import zlib
    body = zlib.compress(L.canonical(head) + b"\n" + rest)
    poke(str(path) + ".index", pos * L.SECTOR,
         L.IX_HEAD.pack(L.IX_MAGIC, no, end, len(body), zlib.crc32(body)) + body)


def scanned(path):
    """What the log holds read by the whole scan (no index): rows, meters, snapshots, meta."""
    os.rename(str(path) + ".index", str(path) + ".index.aside")
    try:
        store = open_journal(str(path), readonly=True)
        try:
            assert store.index_taken == 0
            return (list(store.rows()), store.meters(), store.meters_seq(),
                    store.snapshots(limit=10 ** 6), store._records, store.meta("anchored"))
        finally:
            store.close()
    finally:
        os.rename(str(path) + ".index.aside", str(path) + ".index")


def read_through_index(path):
    store = open_journal(str(path), readonly=True)
    try:
        return store.index_taken, store._end, (
            list(store.rows()), store.meters(), store.meters_seq(),
            store.snapshots(limit=10 ** 6), store._records, store.meta("anchored"))
    finally:
        store.close()


def run_killed(path, rounds, seed, records=None):
    """`simulate` in a forked child that is SIGKILLed where its clean stop would begin (the
    Store's close, which writes the index's last record), or with `records`, once that many
    records were written while it ran, at the first commit after which none was: an unclean
    stop with commits the index does not hold."""
    import signal
    pid = os.fork()
    if pid == 0:
        try:
            append = L.LogStore.append

            def killed(self, *a, **kw):
                seq = append(self, *a, **kw)
                if records is not None and self._ix_no > records and \
                        self._end > self._ix_end:
                    os.kill(os.getpid(), signal.SIGKILL)
                return seq
            L.LogStore.append = killed
            L.LogStore.close = lambda self: os.kill(os.getpid(), signal.SIGKILL)
            simulate(path, GAME, rounds=rounds, seed=seed)
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status


def test_after_an_unclean_stop_the_boot_reads_the_running_index_and_the_log_after_it(
        log_copy, monkeypatch):
    """Issue 16, boot: the index is kept while running (a record every INDEX_EVERY stream
    bytes), so after a kill -9 the opening takes the index's records, checked against the
    log, and scans only the commits after its last; what it reads is what the whole scan
    reads, and the table boots."""
    monkeypatch.setattr(L, "INDEX_EVERY", 2048)          # several records in a few rounds
    locked_reason(log_copy)                              # a clean stop: an index to the end
    before = len(index_records(log_copy))
    run_killed(log_copy, rounds=4, seed=5, records=before + 3)
    taken, end, seen = read_through_index(log_copy)
    recs = index_records(log_copy)
    assert len(recs) >= before + 3 and recs[-1][2] == taken   # written while it ran
    assert 0 < end - taken < 2048 + 8 * L.SECTOR         # and only what came after scanned
    assert seen == scanned(log_copy)
    state, reason, report = locked_reason(log_copy)
    assert state != LOCKED_OUT, reason
    assert cli.main(["journal", "verify", str(log_copy)]) == 0


def test_a_running_index_edited_stale_or_torn_is_never_taken_blindly(log_copy, tmp_path,
                                                                      monkeypatch):
    """An index is checked against the log, never believed: an edit with its CRC made to
    hold, an index of a longer log (an older copy of the log put back beside a newer index)
    and another log's index are refused whole, the log scanned; a torn last record leaves
    the records before it."""
    monkeypatch.setattr(L, "INDEX_EVERY", 2048)
    locked_reason(log_copy)
    run_killed(log_copy, rounds=2, seed=6)
    locked_reason(log_copy)                              # clean: the index to the end
    good = scanned(log_copy)
    index = str(log_copy) + ".index"
    clean = open(index, "rb").read()
    recs = index_records(log_copy)
    assert len(recs) >= 3 and read_through_index(log_copy)[0] == recs[-1][2]

    pos, no, end, head, rest = recs[-1]                  # the head's hash edited
    put_record(log_copy, pos, no, end, dict(head, last_hash="0" * 64), rest)
    assert read_through_index(log_copy)[0] == 0 and scanned(log_copy) == good
    assert read_through_index(log_copy)[2] == good

    open(index, "wb").write(clean)                       # an offset moved
    pos, no, end, head, rest = recs[1]
    a = L.array("q")
    a.frombytes(rest)
    a[head["commits"] - 1] += 1
    put_record(log_copy, pos, no, end, head, a.tobytes())
    assert read_through_index(log_copy)[0] == 0
    assert read_through_index(log_copy)[2] == good

    open(index, "wb").write(clean)                       # the last record torn
    poke(index, (recs[-1][0]) * L.SECTOR + 30, b"\0" * 20)
    taken, _, seen = read_through_index(log_copy)
    assert taken == recs[-2][2] and seen == good

    older = tmp_path / "older.journal"                   # a log shorter than its index
    shutil.copy(log_copy, older)
    open(index, "wb").write(clean)
    simulate(log_copy, GAME, rounds=1, seed=7)
    shutil.copy(older, log_copy)
    assert read_through_index(log_copy)[0] == 0

    other = tmp_path / "other.journal"                   # another log's index beside it
    monkeypatch.setenv("TABLECTL_JOURNAL_FORMAT", "log")
    simulate(other, GAME, rounds=2, seed=8)
    shutil.copy(str(other) + ".index", index)
    assert read_through_index(log_copy)[0] == 0
    store = open_journal(str(log_copy))                  # the writer puts its own in place
    store.close()
    assert read_through_index(log_copy)[0] == index_records(log_copy)[-1][2] > 0


def flip(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)
        f.seek(offset)
        f.write(bytes([b[0] ^ 0x20]))


def test_a_flipped_byte_in_a_tail_slot_leaves_the_other_and_both_are_damage(log_copy):
    good = rows(log_copy)
    _, newest, _, _ = stream_end(log_copy)
    flip(log_copy, (1 + newest) * L.SECTOR + 40)           # the newest: one commit back
    back = rows(log_copy)
    assert back == good[:len(back)] and len(back) < len(good)
    both = str(log_copy) + ".both"
    shutil.copy(str(log_copy), both)
    flip(both, (1 + (1 - newest)) * L.SECTOR + 40)         # and the other
    with pytest.raises(JournalDamaged, match="neither tail slot holds"):
        open_journal(both)
    state, reason, _ = locked_reason(log_copy)              # the anchor was ahead of it
    assert state == LOCKED_OUT and "rolled back" in reason, reason


def test_a_cut_tail_and_zeroed_last_sectors_are_damage_or_a_rollback(log_copy):
    """Below the older slot's sectors, damage; within the last commit's own, that commit
    is lost as at a power cut mid-write, and the anchor written after it tells."""
    full, _, last, older = stream_end(log_copy)
    good = str(log_copy) + ".good"
    shutil.copy(str(log_copy), good)
    os.truncate(log_copy, (L.FIRST + older - 2) * L.SECTOR)        # the tail cut
    with pytest.raises(JournalDamaged, match="fails its CRC"):
        open_journal(str(log_copy))
    state, reason, _ = locked_reason(log_copy)
    assert state == LOCKED_OUT and "fails its CRC" in reason
    shutil.copy(good, str(log_copy))
    poke(log_copy, (L.FIRST + older - 3) * L.SECTOR, bytes(4 * L.SECTOR))  # zeroed
    with pytest.raises(JournalDamaged, match="sector %d of the log" % (L.FIRST + older - 3)):
        open_journal(str(log_copy))
    if full > older:                          # the last commit filled sectors of its own
        shutil.copy(good, str(log_copy))
        os.truncate(log_copy, (L.FIRST + full - 1) * L.SECTOR)
        assert stream_end(log_copy)[2] < last
        state, reason, _ = locked_reason(log_copy)
        assert state == LOCKED_OUT and "rolled back" in reason, reason


def test_an_older_copy_put_back_is_caught_by_the_anchor(log_copy, tmp_path):
    older = tmp_path / "older.journal"
    shutil.copy(log_copy, older)
    simulate(log_copy, GAME, rounds=1, seed=2)
    shutil.copy(older, log_copy)
    state, reason, _ = locked_reason(log_copy)
    assert state == LOCKED_OUT and "rolled back" in reason, reason


def test_a_torn_tail_slot_write_leaves_the_commit_before_and_the_next_goes_over_it(tmp_path):
    path = str(tmp_path / "j")
    store = create_journal(path, fmt="log", entries=[
        (1, "controller", "genesis", "genesis", 0, {"game": "poker"})])
    for i in range(30):
        store.append([(2 + i, "shoe", "event", "card", 1, {"card": "Kh", "n": i})])
    older = store._newest_slot
    before = list(store.rows())
    store.append([(99, "shoe", "event", "card", 1, {"card": "Qs", "n": 99})])
    store.close()
    assert stream_end(path)[1] != older
    newest = 1 + (1 - older)
    # the last commit's slot written half: its first 256 bytes new, the rest as they were
    with open(path, "r+b") as f:
        f.seek(newest * L.SECTOR + 256)
        f.write(os.urandom(L.SECTOR - 256))
    again = open_journal(path)
    try:
        assert list(again.rows()) == before and again.verify() is None
        assert again._newest_slot == older
        again.append([(100, "shoe", "event", "card", 1, {"card": "2c", "n": 100})])
        assert again._newest_slot != older              # over the torn one, not the good one
    finally:
        again.close()
    final = rows(path)
    assert final[:-1] == before and load(final[-1])["data"]["card"] == "2c"


def test_a_commit_whose_filled_sectors_never_reached_the_disk_is_not_the_journal(tmp_path):
    """The newest slot on the disk, the sectors it names not (written out of order, then the
    power cut): the slot before it is the journal, as that commit never returned."""
    path = str(tmp_path / "j")
    store = create_journal(path, fmt="log", entries=[
        (1, "controller", "genesis", "genesis", 0, {"game": "poker"})])
    full = store._full
    while store._full == full:
        before = list(store.rows())
        store.append([(5, "shoe", "event", "card", 1, {"card": "Kh", "pad": os.urandom(60).hex()})])
    new_sectors = (L.FIRST + full) * L.SECTOR, (store._full - full) * L.SECTOR
    store.close()
    poke(path, new_sectors[0], bytes(new_sectors[1]))
    assert rows(path) == before


def test_a_row_edited_with_its_hashes_and_crcs_recomputed_is_caught(log_copy, capsys):
    """Whoever can write the file rebuilds it whole, one row's data edited, every hash and
    CRC after it recomputed: the anchor's row no longer has the anchor's hash."""
    anchor = FileWitness(str(log_copy)).read()
    store = open_journal(str(log_copy))
    try:
        old, meters, meters_seq = [load(r) for r in store.rows()], store.meters(), \
            store.meters_seq()
    finally:
        store.close()
    edit = next(r for r in old if r["kind"] == "wager" and r["seq"] < anchor["seq"])
    edit["data"]["amount"] = edit["data"]["amount"] * 10
    os.unlink(log_copy)
    entries = [(r["ts_ns"], r["source"], r["entry"], r["kind"], r["round_no"], r["data"])
               for r in old]
    new = create_journal(str(log_copy), fmt="log", meta={"anchored": "1"},
                         entries=entries[:meters_seq], meters=meters)
    if entries[meters_seq:]:
        new.append(entries[meters_seq:])
    new.close()
    assert [r["seq"] for r in rows(log_copy)] == [r["seq"] for r in old]
    assert cli.main(["journal", "verify", str(log_copy)]) == 1
    out = capsys.readouterr().out
    assert "first bad row" in out, out          # the replay, or the anchor's row's hash
    state, reason, _ = locked_reason(log_copy)
    assert state == LOCKED_OUT and "row %d's hash is not the one in" % anchor["seq"] in reason, \
        reason


def test_a_length_past_the_end_is_refused_not_followed(tmp_path):
    """A commit's length is checked against the stream's end, and its body inflated whole,
    before anything in it is read."""
    store = L.LogStore.__new__(L.LogStore)
    store.path, store.zdict = "j", L.VERSIONS[1]
    with pytest.raises(JournalDamaged, match="runs past the log's end"):
        list(store._commits(L.LEN.pack(400) + b"x" * 10, 0))
    with pytest.raises(JournalDamaged, match="does not inflate"):
        list(store._commits(L.LEN.pack(10) + b"x" * 10, 0))


def test_a_new_journal_is_a_sector_log_whatever_is_asked(tmp_path, monkeypatch):
    """Issue 32: the sector log is the only format of a new journal; the configuration, the
    environment and boot refuse SQLite in one line (an older version's SQLite journal is
    still resumed: the next test)."""
    from controller.config import check_controller
    from controller.errors import ConfigError, JournalError
    from tests.journal.test_boot import fresh
    from controller.journal import boot
    assert check_controller({"journal_format": "log"})["journal_format"] == "log"
    with pytest.raises(ConfigError, match="controller.journal_format: journal format 'sqlite': "
                       "a new journal is a sector log"):
        check_controller({"journal_format": "sqlite"})
    with pytest.raises(ConfigError, match="journal format 'lmdb': a new journal is a sector"):
        check_controller({"journal_format": "lmdb"})
    path = str(tmp_path / "t.journal")
    table, policies = fresh(GAME)
    with pytest.raises(JournalError, match="a SQLite journal of an older version is still"):
        boot(path, table, policies, journal_format="sqlite")
    monkeypatch.setenv("TABLECTL_JOURNAL_FORMAT", "sqlite")
    table, policies = fresh(GAME)
    with pytest.raises(JournalError, match="journal format 'sqlite'"):
        boot(path, table, policies)
    assert not os.path.exists(path)
    monkeypatch.delenv("TABLECTL_JOURNAL_FORMAT")
    table, policies = fresh(GAME)
    boot(path, table, policies).close()
    assert format_of(path) == "log"
    assert not [f for f in os.listdir(tmp_path) if ".new-" in f]      # no temporary left


def test_a_sqlite_journal_of_an_older_version_stays_sqlite_with_the_log_the_default(tmp_path,
                                                                                    monkeypatch):
    """The sector log is every new journal's format (formats.NEW); a table whose journal is
    SQLite (every version before) keeps it: it boots, resumes and appends as SQLite, and
    verifies."""
    from controller.journal import boot
    from controller.journal.formats import DEFAULT, open_journal
    from tests.journal.legacy import new_journals_as_sqlite
    from tests.journal.test_boot import fresh
    monkeypatch.delenv("TABLECTL_JOURNAL_FORMAT", raising=False)
    assert DEFAULT == "log"
    path = str(tmp_path / "old.journal")
    table, policies = fresh(GAME)
    with new_journals_as_sqlite():                # as an older version made it
        boot(path, table, policies).close()
    assert format_of(path) == "sqlite"
    before = open_journal(path).last()[0]
    table, policies = fresh(GAME)
    ctl = boot(path, table, policies)             # no format given: the default is log
    ctl.journal.step_record("appended", {})
    ctl.close()
    store = open_journal(path)
    try:
        assert format_of(path) == "sqlite" and type(store).__name__ == "Store"
        assert store.last()[0] > before
        assert store.verify() is None                 # the chain holds, the head agrees
    finally:
        store.close()


def _many_commits(path, n=400):
    """A log of `n` commits of one or two rows (a snapshot every 50th), closed cleanly (its
    side index written), several sectors long."""
    store = create_journal(path, fmt="log", entries=[
        (1, "controller", "genesis", "genesis", 0, {"game": "poker"}),
        (2, "controller", "snapshot", "snapshot", 0, {"s": 0})])
    for i in range(n):
        store.append([(10 + i, "shoe", "event", "card", 1 + i // 50, {"n": i, "t": "é" * (i % 7)})]
                     + ([(10 + i, "controller", "snapshot", "snapshot", 1 + i // 50, {"i": i})]
                        if i % 50 == 49 else []))
    store.close()


def _one_by_one(monkeypatch):
    """Each commit read alone, as before the scans read ahead."""
    monkeypatch.setattr(L._ReadAhead, "stream", lambda self, lo, hi: None)


def _read(path, *ranges):
    """The rows of each (start, stop) range, read by one store in turn, and the error."""
    got, store = [], None
    try:
        store = open_journal(path, readonly=True)
        for start, stop in ranges:
            for row in store.rows(start, stop):
                got.append(row)
    except JournalDamaged as e:
        got.append(str(e))
    finally:
        if store is not None:
            store.close()
    return got


RANGES = [[(1, None)], [(150, None)], [(37, 41), (41, 45), (45, 300), (300, None)],
          [(5, 6), (9, 10), (2, 3)], [(388, 389), (389, 402)]]


@pytest.mark.parametrize("ranges", RANGES)
def test_a_scan_reading_ahead_gives_the_rows_each_commit_read_alone_gives(tmp_path, monkeypatch,
                                                                        ranges):
    """A scan reads the stream of the commits after its first in one piece, and a read from
    the commit after the last one read takes that row's hash as its link (issue 33): the
    rows, prev_hash and hash included, are those read commit by commit."""
    path = str(tmp_path / "j")
    _many_commits(path)
    fast = _read(path, *ranges)
    _one_by_one(monkeypatch)
    monkeypatch.setattr(L.LogStore, "_commit_rows", _commit_rows_unlinked(L.LogStore))
    assert fast == _read(path, *ranges) and len(fast) > 1
    assert all(isinstance(r, dict) for r in fast)


def _commit_rows_unlinked(cls):
    """_commit_rows with the commit before always read for the link, as before."""
    original = cls._commit_rows

    def read(self, i, prev=None, ahead=None):
        self._last_read = (-1, None)
        return original(self, i, prev, ahead)
    return read


@pytest.mark.parametrize("sector", [0, 3, 9, 10, 30])
def test_a_damaged_sector_stops_a_scan_reading_ahead_where_it_stopped_one_by_one(
        tmp_path, monkeypatch, sector):
    """A piece read ahead that fails a CRC is not used: the rows before the damaged sector
    are given, then the damage named by the read of the commit that holds it."""
    path = str(tmp_path / "j")
    _many_commits(path)
    flip(path, (L.FIRST + sector) * L.SECTOR + 100)
    fast = _read(path, (1, None))
    assert isinstance(fast[-1], str) and "sector %d of the log fails its CRC" % (
        L.FIRST + sector) in fast[-1]
    _one_by_one(monkeypatch)
    assert fast == _read(path, (1, None))


def test_a_row_body_is_read_as_json_reads_its_bytes():
    """_row decodes a writer's body itself; any body, as json.loads of the bytes would."""
    import json
    from controller.journal.chain import body_of
    bodies = [body_of(7, 12, "shoe", "event", "card", 3, json.dumps({"t": t}))
              for t in ("", "é", "\u2603", "\ud800", "\\", '"', "\x00")]
    bodies += [b'\xef\xbb\xbf' + bodies[0], b'{"', b"{", b"[1]", b'{"seq": 1}', b"\xff{",
               '{"data":"x","entry":"e","kind":"k","round_no":1,"seq":2,"source":"s",'
               '"ts_ns":3}'.encode("utf-16-le")]
    for body in bodies:
        try:
            want = json.loads(body)
            want = {c: want[c] for c in ("seq", "ts_ns", "source", "entry", "kind",
                                         "round_no", "data")}
        except (ValueError, KeyError, TypeError):
            want = JournalDamaged
        try:
            got = L._row(body, b"\x01" * 32, "ab", "here")
        except JournalDamaged:
            assert want is JournalDamaged, body
            continue
        assert got == dict(want, prev_hash="ab", hash="01" * 32), body
        assert list(got) == list(want) + ["prev_hash", "hash"]
