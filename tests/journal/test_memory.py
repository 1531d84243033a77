"""A table runs for months: what the controller keeps in memory is a bounded tail of what it
journals, and the console reads the journal file itself (all of it, streamed)."""
from controller.console.commands import Commands
from controller.journal import live
from controller.journal.reader import JournalReader
from controller.table import Tail
from tests.journal.test_boot import boot_fresh


def test_a_tail_keeps_about_its_last_limit_items_in_order():
    tail = Tail(8)
    for n in range(1000):
        tail.append(n)
        assert len(tail) <= 10
    assert tail[-8:] == list(range(992, 1000)) and tail == sorted(tail)
    assert len(_filled(Tail(), 5000)) == 5000                       # no limit: everything


def _filled(tail, n):
    for i in range(n):
        tail.append(i)
    return tail


def test_a_journaled_controller_keeps_a_tail_and_the_console_reads_the_whole_file(
        tmp_path, monkeypatch):
    monkeypatch.setattr(live, "MEMORY_TAIL", 40)
    ctl = boot_fresh(tmp_path / "j.db", game="flop-poker")
    try:
        ctl.process(ctl.event("open_table"))
        for n in range(60):                   # refused: the cards are not shuffled yet
            ctl.process(ctl.event("no_more_bets"))
        assert ctl.stats["refused"] == 60
        assert len(ctl.journal) <= 50 and len(ctl.refusals) <= 50
        assert all(e.kind != "open_table" for e in ctl.journal)      # gone from memory
        commands = Commands(ctl, {})
        assert isinstance(commands.journal, JournalReader)
        found = commands.run("administrator", "events search open_table")
        assert found.startswith("1 entries match 'open_table'"), found
        last = commands.run("administrator", "events 3").splitlines()
        assert len(last) == 3 and "command=events" in last[-1], last   # the file's own tail
        assert [int(line.split()[0][1:]) for line in last] == \
            list(range(ctl.store.last_seq - 2, ctl.store.last_seq + 1))
        assert "decks opened: 1" in commands.run("administrator", "inspections")
    finally:
        ctl.close()


def test_the_simulator_without_a_journal_keeps_a_bounded_tail_in_memory():
    """Issue 16, Leaks: `sim` without --journal kept every entry and refusal in memory."""
    from controller.lab.sim import Simulation
    s = Simulation("props-and-hops", 1)
    try:
        s.run(3)
        limit = s.ctl.journal.limit
        assert limit is not None and s.ctl.refusals.limit is not None
        assert s.ctl.lockouts.limit is not None
        assert len(s.ctl.journal) <= limit + limit // 4
    finally:
        s.close()
