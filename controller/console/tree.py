"""The console's command tree, its words and what a screen is (split out of
console/commands.py, issue 32): `Command` (one word of the tree), `Resolved` (a line read
against it), `match` (a word or its one prefix), the answers only the session acts on
(`Watch`, `Setting`), and `Screen`, the base of the modules the commands were split into
along the screens they serve (table_screen, money_screen, journal_screen, software_screen,
practice)."""

from operator import attrgetter

from controller.errors import ConsoleError


class Command:
    """One word of the command tree: `func(role, args)` runs it (None: it needs a word after
    it); `children` the words that may follow; `args` the usage of what else may follow."""

    __slots__ = ("name", "minimum", "usage", "help", "func", "children", "args", "words")

    def __init__(self, name, minimum, usage, help_, func=None, children=(), args="",
                 words=None):
        """`words()`: what Tab may complete an argument to (device names, fault kinds)."""
        self.name, self.minimum, self.usage, self.help, self.func, self.args = \
            name, minimum, usage, help_, func, args
        self.words = words
        self.children = {c.name: c for c in children}


class Resolved:
    """A line read against the tree: the path of commands, the words left as arguments,
    whether a `?` asked what may follow, and the prefix typed before that `?`."""

    def __init__(self, path, args, asked=False, partial=""):
        self.path, self.args, self.asked, self.partial = path, args, asked, partial

    @property
    def command(self):
        return self.path[-1] if self.path else None


def match(nodes, word):
    """The node `word` names among `nodes` (exactly, or as the one prefix); ConsoleError
    if it is ambiguous; None if nothing starts with it."""
    word = word.lower()
    if word in nodes:
        return nodes[word]
    found = [n for name, n in nodes.items() if name.startswith(word)]
    if len(found) > 1:
        raise ConsoleError("%r is ambiguous: %s" % (word[:40], ", ".join(sorted(
            n.name for n in found))))
    return found[0] if found else None


class Watch(str):
    """What `watch` returns: the session refreshes `screen()` in place until a key."""


class Setting(str):
    """What `terminal` returns: the session's own settings to change (`changes`, {"width":
    columns, "length": lines}), which only the session holds."""

    def __new__(cls, changes):
        self = super().__new__(cls, "terminal")
        self.changes = dict(changes)
        return self


class Screen:
    """One screen of the console over its Commands (`owner`): the commands' bodies that
    show it. What every screen reads of the console (the controller `ctl`, `devices`,
    `journal`, `note`, `when`, `name_of`, `named`, `driver`, the wager meters, the floor
    link, the configuration) is the owner's, so a screen holds no state of its own."""

    def __init__(self, owner):
        self.owner = owner

    def __getattr__(self, name):
        if name == "owner":                 # not set yet: no owner to ask
            raise AttributeError(name)
        return getattr(self.owner, name)


# What the screens read of their owner most (the live screen and `status` read them after
# every card of a soak, issue 33): each a property that reads the owner's, as __getattr__
# does, without the failed look-up on the screen that comes before __getattr__ each time.
for _name in ("ctl", "devices", "journal", "link", "meters_book", "when", "spoken",
              "name_of", "named", "day_text"):
    setattr(Screen, _name, property(attrgetter("owner." + _name),
                                    doc="The owner's `%s`." % _name))
del _name


__all__ = ["Command", "Resolved", "match", "Watch", "Setting", "Screen"]
