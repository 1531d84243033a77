"""Journals as an older version made them, the SQLite store (controller/journal/store.py):
what the tests and benches of damage to a SQLite file (its -wal cut by a power loss) start
from, since the production path makes sector logs only (journal/formats.py, issue 32).

`new_journals_as_sqlite()` is the maker: inside it a new journal is made as the versions
before the sector log made it (formats' new-journal class replaced for the while; a child
forked inside inherits it). `sqlite_journal(path, game)` is the simulator's table of `game`,
as `tablectl sim` builds it, booted once on a new SQLite journal and closed: every later boot
(a `tablectl sim`, a forked `cli.main`) resumes it, and appends to it, as SQLite."""
import contextlib

from controller.journal import formats
from controller.journal.store import Store


@contextlib.contextmanager
def new_journals_as_sqlite():
    made = formats._new_store
    formats._new_store = lambda: Store
    try:
        yield
    finally:
        formats._new_store = made


def sqlite_journal(path, game, seed=1, key=None):
    """The SQLite journal at `path` (which must not exist) of the simulator's `game` table,
    with its genesis; returns path."""
    from hal_sim.simulation import Simulation
    with new_journals_as_sqlite():
        Simulation(game, seed, journal=str(path), key=key).close()
    assert formats.format_of(str(path)) == "sqlite"
    return path
