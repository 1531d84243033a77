"""The console's wager meters since installation resume from a checkpoint beside the journal
(controller/console/wager_meters.py): the same books as reading every snapshot, only the
rows after the checkpoint read, and a checkpoint the journal does not bear out never used.

On virtual time (hal_sim/virtual.py): a table boots on the journal the rounds before left, as
after a power cut, and its console reads the meters as `meters` and `watch` do.
"""

import json
import os
import shutil
import tempfile

import pytest

from controller.console.commands import Commands
from controller.console.wager_meters import checkpoint_path
from hal_sim.virtual import VirtualTable

KEY = bytes(range(32))


@pytest.fixture
def folder():
    path = tempfile.mkdtemp(prefix="tablectl-test-",
                            dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _played(folder, rounds, key=KEY, game="props-and-hops"):
    table = VirtualTable(game, 3, os.path.join(folder, "j.journal"), key=key)
    table.boot()
    for _ in range(rounds):
        table.play_round()
    return table


def _read(table):
    """A console's meters since installation on the table as it stands, and the row its
    reading of the journal began after."""
    book = Commands(table.ctl, table.runtime.drivers).meters_book
    total = book.read()[1]
    return total, book.read_from


def _rebooted(table):
    table.close()
    table.boot()
    return table


def test_the_next_console_reads_only_the_rows_after_the_checkpoint(folder):
    table = _played(folder, 6)
    try:
        first, began = _read(table)
        assert began == 0 and os.path.exists(checkpoint_path(table.journal))
        assert sum(m["rounds"] for m in first.values()) > 0
        for _ in range(4):
            table.play_round()
        _rebooted(table)
        resumed, began = _read(table)
        assert began > 0                      # the checkpoint's row, not the journal's start
        os.unlink(checkpoint_path(table.journal))
        full, began = _read(table)
        assert began == 0
        assert resumed == full != first       # the four rounds since are counted, once
    finally:
        table.close()


def _forge(path, change):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    change(doc)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def _bigger_handle(doc):
    for meter in doc["total"].values():
        meter["handle"] += 100000


@pytest.mark.parametrize("change, why", [
    (_bigger_handle, "a meter edited without the journal key (its HMAC no longer matches)"),
    (lambda doc: doc.update(hash="0" * 64), "bound to a row hash the journal does not hold"),
    (lambda doc: doc.update(seq=10 ** 9), "a row past the journal's end (a journal rolled "
                                          "back, or another one)"),
    (lambda doc: doc.update(mac=None, key_id=None), "made unkeyed for a keyed journal"),
    (lambda doc: doc.update(total="x"), "damaged"),
])
def test_a_checkpoint_the_journal_does_not_bear_out_is_not_used(folder, change, why):
    table = _played(folder, 5)
    try:
        _read(table)                          # the checkpoint written
        _rebooted(table)
        path = checkpoint_path(table.journal)
        _forge(path, change)
        got, began = _read(table)
        assert began == 0, why                # read from the start instead
        os.unlink(path)
        full, _ = _read(table)
        assert got == full, why
    finally:
        table.close()


def test_an_unkeyed_journal_resumes_too(folder):
    """Without a journal key the checkpoint is bound to its row's hash only (as the anchor of
    an unkeyed journal is): written down in the module docstring."""
    table = _played(folder, 5, key=None)
    try:
        _read(table)
        _rebooted(table)
        got, began = _read(table)
        os.unlink(checkpoint_path(table.journal))
        full, _ = _read(table)
        assert began > 0 and got == full
    finally:
        table.close()


def test_a_poker_room_resumes_its_room_meter(folder):
    """A poker room's book is its hands, pots and rake (house_take), not wagers: its
    checkpoint is its own kind and resumes the same."""
    table = _played(folder, 3, game="poker")
    try:
        honest, _ = _read(table)
        assert "poker room" in honest
        for _ in range(2):
            table.play_round()
        _rebooted(table)
        resumed, began = _read(table)
        os.unlink(checkpoint_path(table.journal))
        full, _ = _read(table)
        assert began > 0 and resumed == full and full["poker room"]["hands"] > \
            honest["poker room"]["hands"]
    finally:
        table.close()


@pytest.mark.parametrize("fmt", ["log", "sqlite"])
def test_the_journal_selects_rows_after_a_row(folder, fmt):
    """The stores' `after` (the checkpoint's resumption): the same rows as filtering all, on
    the sector log and on an older version's SQLite journal."""
    import contextlib
    from controller.journal.formats import format_of, open_journal
    from tests.journal.legacy import new_journals_as_sqlite
    with new_journals_as_sqlite() if fmt == "sqlite" else contextlib.nullcontext():
        table = _played(folder, 4, key=None)
        table.close()
    assert format_of(table.journal) == fmt
    store = open_journal(table.journal, readonly=True)
    try:
        every = list(store.select())
        snaps = [r["seq"] for r in store.select(kinds=("snapshot",))]
        middle = every[len(every) // 2]["seq"]
        assert [r["seq"] for r in store.select(after=middle)] == \
            [r["seq"] for r in every if r["seq"] > middle]
        assert [r["seq"] for r in store.select(kinds=("snapshot",), after=middle)] == \
            [s for s in snaps if s > middle]
        assert [r["seq"] for r in store.select(last=5, after=middle)] == \
            [r["seq"] for r in every if r["seq"] > middle][-5:]
        assert list(store.select(last=5, after=every[-1]["seq"])) == []
    finally:
        store.close()


def test_a_console_begun_right_after_a_round_counts_it(folder):
    """The settled round's snapshot is committed with the next input or a second later: a
    console started in between found it neither in the journal nor live (seen writing the
    tests above: four rounds of five counted). It counts it from the table's state, once."""
    table = _played(folder, 5)
    try:
        early, began = _read(table)
        assert began == 0
        assert max(m["rounds"] for m in early.values()) == 5
        table.world.run_for(3)                # the snapshot committed (idle flush)
        os.unlink(checkpoint_path(table.journal))
        later, _ = _read(table)
        assert later == early
    finally:
        table.close()


def test_the_live_screens_meters_are_todays_as_meters_reads_them(folder):
    """The live screen reads today's books alone (issue 33: it is drawn after every card of
    a soak): the same books and day as `meters` reads, seeded from the journal or not."""
    table = _played(folder, 5)
    try:
        console = Commands(table.ctl, table.runtime.drivers)
        today, day = console.meters_book.today()         # the first read: it seeds
        assert sum(m["rounds"] for m in today.values()) > 0
        assert (today, day) == console.meters_book.read()[::2]
        table.play_round()
        assert console.meters_book.today() == console.meters_book.read()[::2] != (today, day)
        assert console.live_info()["meters"] == console.meters_book.read()[0]
    finally:
        table.close()
