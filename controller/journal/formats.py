"""Which Store a journal file is read with, and which one a new journal is written as.

Two formats: the SQLite file of every version so far (store.py) and the sector log
(log.py). A file is opened by what its first bytes say it is, never by its name or the
configuration, so a journal of any older version still verifies, replays and resumes on
SQLite whatever new journals are made as. A new journal's format is the table
configuration's `[controller] journal_format`, else TABLECTL_JOURNAL_FORMAT, else DEFAULT.
"""

import os
import sqlite3

from controller.errors import JournalError

# what reading an open journal may raise, either format (a reader reports it in one line)
READ_ERRORS = (JournalError, OSError, sqlite3.Error)

from controller.journal.log import MAGIC as LOG_MAGIC
FORMATS = ("sqlite", "log")
DEFAULT = "log"


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
    """The format a new journal is written as: `fmt` if given, else the environment's."""
    fmt = fmt or os.environ.get("TABLECTL_JOURNAL_FORMAT") or DEFAULT
    if fmt not in FORMATS:
        raise JournalError("journal format %r: not one of %s" % (fmt, ", ".join(FORMATS)))
    return fmt


def create_journal(path, key=None, entries=(), meters=None, meta=None, fmt=None):
    """A new journal at `path`, made whole (Store.create) in the format `new_format(fmt)`."""
    return _store_class(new_format(fmt)).create(path, key=key, entries=entries, meters=meters,
                                                meta=meta)
