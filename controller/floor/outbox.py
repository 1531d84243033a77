"""The table's journal as its outbox: what may go on the wire, and how far it went.

The forwarder reads the journal file through a read-only connection of its own (the game
loop's Store is never touched, nor its lock), and writes the acknowledged sequence in a table
of its own, `floor_uplink`, through a second connection of its own: a tiny transaction after
each batch, so the controller's appends wait microseconds at worst.

Secrecy: the journal holds every card, face down ones included (show.py). A row carrying a
card code (show.hide_cards changes it: a card, or a rejected frame's bytes) is a row the
floor may not see while its round is in progress; it and every row after it (order is kept)
wait until the round is over, which is the snapshot row the controller writes when a round
is settled or void. Rows with no card go at once: the fault, the lock-out, the wagers. Rows
are held back, not redacted: the floor gets each row whole, once, and checks its hash; a
redacted copy would carry the hash of the hidden card, and 52 guesses recover it.
"""

import sqlite3

from controller.journal.show import hide_cards
from controller.journal.store import COLUMNS

ACK_SCHEMA = "CREATE TABLE IF NOT EXISTS floor_uplink (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


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
        self.read = sqlite3.connect("file:%s?mode=ro" % path, uri=True, isolation_level=None,
                                    check_same_thread=False, timeout=10)
        self.write = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                     timeout=10)
        self.write.execute("PRAGMA synchronous=FULL")
        self.write.execute(ACK_SCHEMA)

    def close(self):
        self.read.close()
        self.write.close()

    def changed(self):
        """True if any connection committed to the file since the last call (SQLite's
        data_version: one cheap pragma instead of a query, every poll)."""
        v = self.read.execute("PRAGMA data_version").fetchone()[0]
        was, self._version = getattr(self, "_version", None), v
        return v != was

    def head(self):
        row = self.read.execute("SELECT MAX(seq) FROM journal").fetchone()
        return row[0] or 0

    def rows_after(self, seq, limit):
        cur = self.read.execute("SELECT %s FROM journal WHERE seq > ? ORDER BY seq LIMIT ?"
                                % ", ".join(COLUMNS), (seq, limit))
        return [dict(zip(COLUMNS, r)) for r in cur.fetchall()]

    def acked(self):
        """(journal seq, stream seq of that row on the table's subject) last acknowledged."""
        got = dict(self.write.execute("SELECT key, value FROM floor_uplink"))
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
