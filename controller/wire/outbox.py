"""The table's journal as its outbox: what may go on the wire, and how far it went.

The forwarder reads the journal file through a read-only Store of its own (the game loop's
Store is never touched, nor its lock), and writes the acknowledged sequence in a file of its
own beside the journal, `PATH.uplink` (a small SQLite file, table `floor_uplink`): a tiny
transaction after each batch, and the journal's own file is written by the controller alone,
whatever its format. An older version kept that table inside the journal file; it is still
read there until the first acknowledgement is written to the file of its own.

Secrecy: the journal holds every card, face down ones included (show.py). A row carrying a
card code (show.hide_cards changes it: a card, or a rejected frame's bytes) is a row the
floor may not see while its round is in progress; it and every row after it (order is kept)
wait until the round is over, which is the snapshot row the controller writes when a round
is settled or void. Rows with no card go at once: the fault, the lock-out, the wagers. Rows
are held back, not redacted: the floor gets each row whole, once, and checks its hash; a
redacted copy would carry the hash of the hidden card, and 52 guesses recover it.
"""

import itertools
import sqlite3

from controller.journal.formats import open_journal
from controller.journal.show import hide_cards

ACK_SCHEMA = "CREATE TABLE IF NOT EXISTS floor_uplink (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


def acks_path(journal_path):
    """The file the floor uplink's acknowledgements are kept in, beside the journal."""
    return "%s.uplink" % journal_path


def carries_card(row):
    """True if the row's data names a card (or bytes that may)."""
    import json
    data = json.loads(row["data"]) if isinstance(row["data"], str) else row["data"]
    return hide_cards(data) != data


def releasable(rows):
    """How many of `rows` (consecutive, in seq order, the first one not yet sent) may be
    sent now: up to the first row with a card, or, when a snapshot (a round's end) follows
    that row, up to and including the last such snapshot, and so on."""
    n, held = 0, False
    for i, row in enumerate(rows):
        if row["entry"] == "snapshot":
            held = False
            n = i + 1
        elif held:
            continue
        elif carries_card(row):
            held = True
        else:
            n = i + 1
    return n


class Outbox:
    """The journal file at `path` seen from the forwarder."""

    def __init__(self, path):
        self.path = path
        self.read = open_journal(path, readonly=True)
        self._seen = None
        self.write = sqlite3.connect(acks_path(path), isolation_level=None,
                                     check_same_thread=False, timeout=10)
        self.write.execute("PRAGMA synchronous=FULL")
        self.write.execute(ACK_SCHEMA)

    def close(self):
        self.read.close()
        self.write.close()

    def changed(self):
        """True if rows were committed to the journal since the last call (the Store's
        refresh: one cheap look, every poll)."""
        self.read.refresh()
        was, self._seen = self._seen, self.read.last_seq
        return self._seen != was

    def head(self):
        self.read.refresh()
        return self.read.last_seq

    def rows_after(self, seq, limit):
        return list(itertools.islice(self.read.rows(seq + 1), limit))

    def acked(self):
        """(journal seq, stream seq of that row on the table's subject) last acknowledged:
        from the file of their own, else (never written there yet) from the journal file,
        where an older version kept them."""
        got = dict(self.write.execute("SELECT key, value FROM floor_uplink")) or \
            self.read.legacy_acks()
        return int(got.get("acked_seq", 0)), int(got.get("stream_seq", 0))

    def set_acked(self, seq, stream_seq):
        self.write.execute("BEGIN IMMEDIATE")
        try:
            self.write.executemany("INSERT OR REPLACE INTO floor_uplink VALUES (?, ?)",
                                   [("acked_seq", str(seq)), ("stream_seq", str(stream_seq))])
            self.write.execute("COMMIT")
        except BaseException:
            self.write.execute("ROLLBACK")
            raise
