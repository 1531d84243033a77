"""The journal file as the console reads it: its own read-only connection, rows streamed.

The controller's loop owns the Store's connection; a console command runs on another thread,
so it opens the file read-only for each call (WAL: a reader never blocks the writer, and sees
the journal as it was when it began). A table journals for months, so nothing here holds the
whole journal: a tail is read newest first, a search streams every row a batch at a time.
"""

import sqlite3

from controller.journal.store import COLUMNS, batched


class JournalReader:
    """`iter_records(kinds=None, last=None)` for controller/console/view.py `entries()`."""

    filters = True                     # view.entries passes kinds and last through

    def __init__(self, path):
        self.path = str(path)

    def iter_records(self, kinds=None, last=None):
        """Rows as dicts in seq order: only `kinds` if given, only the last `last` if given."""
        where, args = "", []
        if kinds:
            where = " WHERE kind IN (%s)" % ", ".join("?" * len(kinds))
            args = list(kinds)
        sql = "SELECT %s FROM journal%s ORDER BY seq" % (", ".join(COLUMNS), where)
        if last is not None:
            sql = "SELECT * FROM (%s DESC LIMIT ?) ORDER BY seq" % sql
            args.append(int(last))
        db = sqlite3.connect("file:%s?mode=ro" % self.path, uri=True)
        try:
            yield from batched(db.execute(sql, args))
        finally:
            db.close()
