"""The journal file as the console reads it: its own read-only Store, rows streamed.

The controller's loop owns its Store; a console command runs on another thread, so it opens
the file read-only for each call (a reader never blocks the writer, and sees the journal as
it was when it began). A table journals for months, so nothing here holds the whole journal:
a tail is read newest first, a search streams every row a batch at a time.
"""

from controller.journal.formats import open_journal


class JournalReader:
    """`iter_records(kinds=None, last=None)` for controller/console/view.py `entries()`."""

    filters = True                     # view.entries passes kinds and last through

    def __init__(self, path):
        self.path = str(path)

    def iter_records(self, kinds=None, last=None, after=0):
        """Rows as dicts in seq order: only `kinds` if given, only the last `last` if given,
        only those after row `after`."""
        store = open_journal(self.path, readonly=True)
        try:
            yield from store.select(kinds, last, after)
        finally:
            store.close()
