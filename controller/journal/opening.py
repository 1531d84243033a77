"""A journal opened for reading by the commands that read one (`journal verify|show|head`,
`journal show`'s row listing): the file must be there and begin with its genesis row, which
names the game whose model replays it. In a module of its own so that show.py, which the
journal command offers as a verb, reads the journal without importing the command."""

from controller.errors import JournalError


class JournalPathError(JournalError):
    """No journal file at the path given: bad input (exit 2), not a journal that fails."""


def _exists(path):
    """A journal to read must be there: SQLite would create an empty one instead."""
    import os
    if os.path.isdir(path):
        raise JournalPathError("journal %s is a folder, not a journal file" % path)
    if not os.path.exists(path):
        raise JournalPathError("no journal at %s" % path)


def _open(path, key_file=None):
    _exists(path)
    from controller.games import model_class
    from controller.journal.keys import read_key
    from controller.journal.formats import open_journal
    from controller.journal.store import load
    store = open_journal(path, key=None if key_file is None else read_key(key_file))
    first = next(store.rows(1, 2), None)
    if first is None or first["entry"] != "genesis":
        store.close()
        raise JournalError("journal %s: row 1 is not the genesis row" % path)
    return store, model_class(load(first)["data"]["game"])

