"""The console's journal screen: the journal's last entries (`events [N]`) and a search of
all of it (`events search TEXT`), every entry in one shape with its local time and no card
(console/view.py).

One of the screens console/commands.py was split into (issue 32).
"""

from collections import deque

from controller.console import view
from controller.console.tree import Screen
from controller.errors import ConsoleError

EVENTS_DEFAULT, EVENTS_MAX = 20, 500


class JournalScreen(Screen):
    """events [N], events search TEXT."""

    def c_events(self, role, args):
        n = EVENTS_DEFAULT
        if args:
            try:
                n = int(args[0])
            except ValueError:
                raise ConsoleError("usage: events [N] | events search TEXT")
            if not 1 <= n <= EVENTS_MAX:
                raise ConsoleError("N is 1 to %d" % EVENTS_MAX)
        return "\n".join(self._line(e) for e in view.entries(self.journal, last=n)) \
            or "the journal is empty"

    def _line(self, entry):
        """An entry as a person reads it: each device by its configured name, but a record
        that quotes what was written or typed (device_registry.AS_WRITTEN) as it was."""
        from controller.device_registry import AS_WRITTEN
        line = view.render(entry, self.when)
        return line if entry.kind in AS_WRITTEN else self.spoken(line)

    def c_search(self, role, args):
        text = self.spoken(" ".join(args))     # a kind or its configured name: either finds
        if not text:
            raise ConsoleError("usage: events search TEXT")
        found, shown = 0, deque(maxlen=EVENTS_DEFAULT)      # a journal of months: streamed
        for line in (self._line(e) for e in view.entries(self.journal)
                     if not _own_search(e)):
            if text.lower() in line.lower():
                found += 1
                shown.append(line)
        head = "%d entries match %r%s" % (found, text, "; the last %d:" % len(shown)
                                          if found > len(shown) else "")
        return "\n".join([head] + list(shown))


def _journal_of(controller):
    """A journaled controller's file (all of it, streamed); else its journal in memory."""
    store = getattr(controller, "store", None)
    if store is not None and getattr(store, "path", None):
        from controller.journal.reader import JournalReader
        return JournalReader(store.path)
    return controller.journal

def _own_search(entry):
    """A console record of an `events` command: searches do not find each other."""
    if entry.type != "record" or entry.kind not in ("console", "console_refused") or \
            not isinstance(entry.data, dict):
        return False
    cmd = entry.data.get("command")
    return cmd == "events" or (cmd == "show" and (entry.data.get("args") or [None])[0]
                               == "events")
