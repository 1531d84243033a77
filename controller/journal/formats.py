"""Which Store a journal file is read with, and which one a new journal is written as.

Two formats a file may be: the SQLite file of the versions before the sector log (store.py)
and the sector log (log.py). A file is opened by what its first bytes say it is, never by its
name or the configuration, so a journal of any older version still verifies, replays and
resumes on SQLite. A NEW journal is a sector log, always (issue 32): `[controller]
journal_format` and TABLECTL_JOURNAL_FORMAT may say "log" and nothing else. (The tests and
benches that damage an SQLite file make one with `store.Store.create`, which this production
path does not offer: tests/journal/legacy.py.)
"""

import os
import sqlite3

from controller.errors import JournalError

# what reading an open journal may raise, either format (a reader reports it in one line)
READ_ERRORS = (JournalError, OSError, sqlite3.Error)

from controller.journal.log import MAGIC as LOG_MAGIC
FORMATS = ("sqlite", "log")      # what a journal file may be, and is read as
DEFAULT = NEW = "log"            # what a new journal is written as: the sector log alone


def _store_class(fmt):
    from controller.journal.log import LogStore
    from controller.journal.store import Store
    return LogStore if fmt == "log" else Store


def format_of(path):
    """"log" when the file at `path` begins as a sector log does, else "sqlite" (SQLite
    itself then says what is wrong with a file that is neither: empty, missing, foreign)."""
    try:
        with open(path, "rb") as f:
            first = f.read(len(LOG_MAGIC))
    except OSError:
        return "sqlite"
    return "log" if first == LOG_MAGIC else "sqlite"


def open_journal(path, key=None, readonly=False):
    """The Store for the existing journal at `path` (JournalError, JournalDamaged as
    Store raises them)."""
    return _store_class(format_of(path))(path, key=key, readonly=readonly)


def new_format(fmt=None):
    """The format a new journal is written as, the sector log; JournalError for anything else
    `fmt` (or the environment) asks for."""
    fmt = fmt or os.environ.get("TABLECTL_JOURNAL_FORMAT") or NEW
    if fmt != NEW:
        raise JournalError(new_format_refusal(fmt))
    return fmt


def new_format_refusal(fmt):
    """Why `fmt` cannot be a new journal's format (the configuration's check says it too)."""
    if fmt == "sqlite":
        return ("journal format 'sqlite': a new journal is a sector log (\"log\"); a SQLite "
                "journal of an older version is still read, verified, replayed and resumed")
    return "journal format %r: a new journal is a sector log (\"log\")" % (fmt,)


def _new_store():
    """The Store class of a new journal: the sector log's. (tests/journal/legacy.py replaces
    this, in a test or a bench, to make an older version's SQLite journal.)"""
    return _store_class(NEW)


def create_journal(path, key=None, entries=(), meters=None, meta=None, fmt=None):
    """A new journal at `path`, made whole (LogStore.create), a sector log (`new_format`)."""
    new_format(fmt)
    return _new_store().create(path, key=key, entries=entries, meters=meters, meta=meta)
