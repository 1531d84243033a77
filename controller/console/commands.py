"""The console's commands: read the table, and ask the controller; never change it directly.

A command reads the controller, the drivers and the journal, or asks the controller for
something it applies like any other input (`clear` through the one clear service,
controller/clearing.py; `inspections reader`): no command writes a meter, the model or the
journal itself. Every command line is journaled first, through the controller's journal
hook, as Record("console", {"role", "command", "args"}); a refusal adds
Record("console_refused", {"role", "command", "reason"}).

The commands form a tree (`Commands.command_tree`, {word: Command}; it was `table`, one of
five things called "table", issue 12): a word may be shortened to any prefix no other word at
its place shares (`sh st` is `show status`), and `?` after any partial line lists what may
follow it there, for the logged-in role. Who may run what (each role may run everything of
the roles below it) is each node's `minimum`; `help` and `?` list only what the role may run:
    dealer        help, status, meters, inspections (to read), show status|meters|version|link,
                  watch
    floorperson   lockouts, clear, inspections reader pass|fail, selftest, events,
                  show lockouts|events
    technician    devices, verify, config show, show devices|config, and on a bench whose
                  devices are all simulated inject, repair, autoplay on|off
    administrator (everything above)

This module is the tree and its dispatch (issue 32 split it along the screens it serves:
it held 40 methods importing policies by class): the tree's types are console/tree.py; the
commands' bodies are their screens', table_screen.py (status, lockouts, clear, selftest,
devices, show link, the announcements and watch's screen), money_screen.py (meters,
inspections, the gaming day), journal_screen.py (events), software_screen.py (verify,
config show, show version) and practice.py (the bench's inject, repair, autoplay).
"""

import logging

from controller.console import view
from controller.console.auth import ROLES, at_least
from controller.console.journal_screen import JournalScreen, _journal_of
from controller.console.money_screen import MoneyScreen
from controller.console.software_screen import SoftwareScreen, config_hash
from controller.console.table_screen import TableScreen
from controller.console.tree import Command, Resolved, Setting, Watch, match
from controller.errors import ConsoleError

log = logging.getLogger(__name__)


HELP_COLUMN = 22             # `help`'s usage column: the text beside it fits 80 columns
TERMINAL = {"width": (40, 250), "length": (0, 200)}     # what `terminal` may set, and bounds


class Commands:
    """The command tree over one controller. `run(role, line)` returns the text to show
    (lines separated by "\\n") or raises ConsoleError with the reason it was refused.

    `devices` {name: driver with status(), selftest(), clear_fault()?}; `journal` what
    `events` reads (default: a journaled controller's file, else its memory);
    `note(kind, **data)` journals a console record (default: controller.note);
    `apply_timeout_s` how long (real time) a command waits for the controller's loop to
    apply an event it submitted; `config` the configuration `show config` prints (with its
    [controller] section, if the caller has one); `link` a callable giving the floor link's
    state, {"up": bool, "since_ns": table ns, "waiting": rows not yet sent}, or None
    (`show link` says "not configured" until the floor link sets one).
    """

    def __init__(self, controller, devices=None, *, journal=None, note=None,
                 manifest_path=None, manifest_root=None, config=None, apply_timeout_s=2.0,
                 link=None):
        from controller.console.wager_meters import WagerMeters
        self.ctl = controller
        self.devices = dict(devices or {})
        self.journal = _journal_of(controller) if journal is None else journal
        self.note = note or controller.note
        self.manifest_path = manifest_path
        self.manifest_root = manifest_root
        self.config = config
        self.apply_timeout_s = apply_timeout_s
        self.link = link
        self._names_of = (None, {})          # (devices' names and kinds, configured_names)
        self.say = lambda text: None         # a line announced on the console (start_console)
        # the screens the commands serve, each its own module (issue 32)
        from controller.console.practice import PracticeCommands
        T, M, J, V = self.table, self.money, self.records, self.software = (
            TableScreen(self), MoneyScreen(self), JournalScreen(self), SoftwareScreen(self))
        self.bench = PracticeCommands(self)
        store = getattr(controller, "store", None)
        self.meters_book = WagerMeters(controller, M.gaming_day,
                                       getattr(store, "path", None) or None,
                                       key=getattr(store, "key", None))
        S = self._show_children(T, M, J, V)
        self.command_tree = {c.name: c for c in (
            Command("help", "dealer", "help [COMMAND]", "what you may run here", self.c_help,
                    args="[COMMAND]"),
            Command("status", "dealer", "status", "the table's state, lock-out and counts",
                    T.c_status),
            Command("meters", "dealer", "meters", "money meters per wager, progressive and "
                    "controller meters (read only)", M.c_meters),
            Command("inspections", "dealer", "inspections", "reader, decks and dice",
                    M.c_inspections, children=(
                        Command("reader", "floorperson", "inspections reader pass|fail",
                                "record the card reader's daily inspection (581.2(d))",
                                children=(
                                    Command("pass", "floorperson", "inspections reader pass",
                                            "the reader passed", M.c_reader_pass),
                                    Command("fail", "floorperson", "inspections reader fail",
                                            "the reader failed: the table locks out "
                                            "(581.13(i))", M.c_reader_fail))),)),
            Command("lockouts", "floorperson", "lockouts", "every lock-out: when, which "
                    "device and rule, who cleared it and when", T.c_lockouts),
            Command("clear", "floorperson", "clear", "clear the lock-out once what its rule "
                    "names has passed", T.c_clear),
            Command("selftest", "floorperson", "selftest [DEVICE]", "run device self-tests",
                    T.c_selftest, args="[DEVICE]", words=self.device_names),
            Command("events", "floorperson", "events [N]", "the journal's last N entries",
                    J.c_events, args="[N]", children=(
                        Command("search", "floorperson", "events search TEXT",
                                "the last entries matching TEXT", J.c_search,
                                args="TEXT"),)),
            Command("devices", "technician", "devices [DEVICE]", "state, counters and last "
                    "fault of each device", T.c_devices, args="[DEVICE]",
                    words=self.device_names),
            Command("verify", "technician", "verify [SEED]", "SHA-256 of the installed "
                    "software against its manifest; the journal's head", V.c_verify,
                    args="[SEED]"),
            Command("config", "technician", "config show", "the table's configuration",
                    children=(Command("show", "technician", "config show",
                                      "the configuration, its [controller] section and hash",
                                      V.c_config),)),
            Command("show", "dealer", "show WHAT", "show one of the table's views",
                    children=S),
            Command("watch", "dealer", "watch", "the table live, refreshed in place; any key "
                    "ends it", self.c_watch),
            Command("terminal", "dealer", "terminal [width N] [length N]", "this session's "
                    "terminal: its width in columns (80) and page length in lines (24; 0: no "
                    "paging)", self.c_terminal, args="[width N] [length N]",
                    words=lambda: sorted(TERMINAL)),
        ) + self.bench.nodes() + (
            Command("logout", "dealer", "logout", "end this session (also exit, quit)",
                    self.c_logout),
        )}

    def _show_children(self, T, M, J, V):
        return (
            Command("status", "dealer", "show status", "as `status`", T.c_status),
            Command("meters", "dealer", "show meters", "as `meters`", M.c_meters),
            Command("version", "dealer", "show version", "the software version and the "
                    "manifest's hash", V.c_version),
            Command("link", "dealer", "show link", "the floor link: up or down since when, "
                    "rows waiting", T.c_link),
            Command("lockouts", "floorperson", "show lockouts", "as `lockouts`",
                    T.c_lockouts),
            Command("events", "floorperson", "show events [N]", "as `events`", J.c_events,
                    args="[N]"),
            Command("devices", "technician", "show devices [DEVICE]", "as `devices`",
                    T.c_devices, args="[DEVICE]", words=self.device_names),
            Command("config", "technician", "show config", "as `config show`",
                    V.c_config),
        )

    # ---- the tree ---------------------------------------------------------------------------

    def resolve(self, words):
        """A Resolved for the words of a line (see the module docstring); ConsoleError for an
        unknown or ambiguous word."""
        path, nodes, args = [], self.command_tree, []
        for i, word in enumerate(words):
            if "?" in word:
                return Resolved(path, args, True, word.split("?", 1)[0].lower())
            if args:
                args.append(word)
                continue
            node = match(nodes, word) if nodes else None
            if node is None:
                if not path:
                    raise ConsoleError("unknown command %r: type help or ?" % word[:40])
                if path[-1].func is None:
                    raise ConsoleError("%s: no %r here; usage: %s (type %s ?)" % (
                        " ".join(n.name for n in path), word[:40], path[-1].usage,
                        " ".join(n.name for n in path)))
                args.append(word)
                continue
            path.append(node)
            nodes = node.children
        return Resolved(path, args)

    def catalogue(self):
        """[(usage, minimum, help)] of every command line that runs something, tree order:
        what docs/console.md's command table lists (tests/console/test_docs.py)."""
        out = []

        def walk(nodes):
            for n in nodes.values():
                if n.func is not None:
                    out.append((n.usage, n.minimum, n.help))
                walk(n.children)
        walk(self.command_tree)
        return out

    def visible(self, role, nodes):
        return [n for n in nodes.values() if at_least(role, n.minimum)]

    def usage(self, role, node, prefix=""):
        kids = [c.name for c in self.visible(role, node.children)]
        words = prefix + node.name
        if kids:
            words += " " + ("[%s]" if node.func else "%s") % "|".join(kids)
        if node.args:
            words += " " + node.args
        return words

    def possible(self, role, r):
        """What may follow the words of `r` (the `?` answer), for `role`."""
        nodes = r.path[-1].children if r.path else self.command_tree
        lines = []
        prefix = " ".join(n.name for n in r.path)
        for n in self.visible(role, nodes):
            if n.name.startswith(r.partial):
                lines.append("  %-14s %s" % (n.name, n.help))
        if r.path and not r.partial:
            node = r.path[-1]
            if node.args:
                lines.append("  %-14s %s" % (node.args, "(argument)"))
            if node.func is not None:
                lines.append("  %-14s %s" % ("<Enter>", "run `%s`" % prefix))
        if not lines:
            return "nothing you may run follows %r" % ((prefix + " " + r.partial).strip())
        return "\n".join(lines)

    def complete(self, role, text):
        """The words (sorted) that Tab may make of the last word of `text`, for `role`: the
        commands that may follow the words before it, or an argument's words (a device)."""
        words = text.split()
        partial = "" if not text or text.endswith(" ") else words.pop().lower()
        try:
            r = self.resolve(words) if words else Resolved([], [])
        except ConsoleError:
            return []
        if r.asked or r.args or not all(at_least(role, n.minimum) for n in r.path):
            return []
        nodes = r.path[-1].children if r.path else self.command_tree
        found = [n.name for n in self.visible(role, nodes) if n.name.startswith(partial)]
        node = r.command
        if node is not None and node.words is not None:
            found += [w for w in node.words() if w.lower().startswith(partial)]
        return sorted(set(found))

    # what the session, the server and `tablectl top`'s tests ask of the console as a whole
    def announcement(self, what, entry):
        return self.table.announcement(what, entry)

    def live_info(self):
        return self.table.live_info()

    def screen(self, width=view.WIDTH):
        return self.table.screen(width)

    def gaming_day(self, ts_ns):
        return self.money.gaming_day(ts_ns)

    def day_text(self, day):
        return self.money.day_text(day)

    def configuration(self):
        return self.software.configuration()

    def when(self, ts_ns):
        return view.local_time(self.ctl, ts_ns)

    def device_names(self):
        return sorted(self.devices)

    # ---- one name per device (issue 35) ---------------------------------------------------
    # A lock-out names the device's kind (the games know kinds: "dealing_shoe"); a
    # technician knows the name the configuration gives it ("shoe"), which `devices`,
    # `selftest` and `config show` use. The console shows that name wherever it names a
    # device on its own, and takes either where a device is asked for.

    def name_of(self, device):
        """The configured name of the device `device` names (a name or a kind)."""
        if device is None or device in self.devices:
            return device
        named = [n for n, d in self.devices.items() if getattr(d, "device", None) == device]
        return named[0] if len(named) == 1 else device

    def spoken(self, text):
        """A text as a person reads it here: each device kind it names (a lock-out's reason,
        "device dealing_shoe: jam") given its configured name (device_registry.say_names)."""
        from controller.device_registry import say_names
        return say_names(text, self._configured_names())

    def _configured_names(self):
        """device_registry.configured_names() of the devices as they are now, worked out
        again only when a device's name or kind is another than at the last call: the live
        screen and every `events` line say their texts by it (issue 33: it was the most of
        the cost of an `events` line in a soak)."""
        from controller.device_registry import configured_names
        kinds = tuple((n, getattr(d, "device", n)) for n, d in self.devices.items())
        if kinds != self._names_of[0]:
            self._names_of = (kinds, configured_names(dict(kinds)))
        return self._names_of[1]

    def named(self, lockout):
        """A lock-out with its device given by its configured name (for display)."""
        if not lockout or not lockout.get("device"):
            return lockout
        return dict(lockout, device=self.name_of(lockout["device"]))

    def driver(self, device):
        """The driver `device` names (its name or its kind); ConsoleError listing the names."""
        driver = self.devices.get(self.name_of(device))
        if driver is None:
            raise ConsoleError("no device %r; devices: %s"
                               % (device[:40], ", ".join(sorted(self.devices)) or "none"))
        return driver

    def close(self):
        """The console stops: what the bench commands started (the autoplay) stops too."""
        self.bench.close()

    def is_logout(self, line):
        words = line.split()
        if len(words) != 1 or "?" in words[0]:
            return False
        if words[0].lower() in ("exit", "quit"):
            return True
        try:
            node = match(self.command_tree, words[0])
        except ConsoleError:
            return False
        return node is not None and node.name == "logout"

    # ---- dispatch -------------------------------------------------------------------------

    def available(self, role):
        return self.visible(role, self.command_tree)

    def run(self, role, line):
        words = line.split()
        if not words:
            return ""
        if words[0].isdigit():           # a PIN typed at the wrong prompt is not journaled
            words = ["(digits)"]
        try:
            r = self.resolve(words)
            err = None
        except ConsoleError as e:
            r, err = None, e
        if r is not None and r.path:
            name = r.path[0].name
            args = [n.name for n in r.path[1:]] + r.args + (["?"] if r.asked else [])
        else:
            name, args = ("?" if r is not None else words[0].lower()), words[1:]
        self.note("console", role=role, command=view.scrub(name[:40]),
                  args=[view.scrub(a[:80]) for a in args[:8]])
        try:
            if err is not None:
                raise err
            if r.asked:
                return self.possible(role, r)
            for i, node in enumerate(r.path):
                if not at_least(role, node.minimum):
                    raise ConsoleError("%s needs a %s or above; you are logged in as %s"
                                       % (" ".join(n.name for n in r.path[:i + 1]),
                                          node.minimum, role))
            cmd = r.command
            if cmd.func is None:
                raise ConsoleError("usage: %s (type %s ? for what each does)" % (
                    self.usage(role, cmd, "".join(n.name + " " for n in r.path[:-1])),
                    " ".join(n.name for n in r.path)))
            if r.args and not cmd.args:
                raise ConsoleError("%s takes no argument %r" % (
                    " ".join(n.name for n in r.path), r.args[0][:40]))
            return cmd.func(role, r.args)
        except ConsoleError as e:
            self.note("console_refused", role=role, command=view.scrub(name[:40]),
                      reason=view.scrub(str(e)))
            raise
        except Exception as e:              # noqa: BLE001 - a bug must not end the console
            log.exception("console command %r", name)
            self.note("console_refused", role=role, command=view.scrub(name[:40]),
                      reason=view.scrub("error: %r" % e))
            raise ConsoleError("%s failed: %s" % (name, e))

    # ---- commands -------------------------------------------------------------------------

    def c_help(self, role, args):
        if args:
            r = self.resolve(args)
            if not r.path:
                raise ConsoleError("no command %r" % args[0][:40])
            cmd = r.command
            if not at_least(role, cmd.minimum):
                raise ConsoleError("%s needs a %s or above; you are logged in as %s"
                                   % (cmd.usage, cmd.minimum, role))
            lines = ["%s\n  %s\n  (%s or above)" % (cmd.usage, cmd.help, cmd.minimum)]
            for c in self.visible(role, cmd.children):
                lines.append("  %s: %s (%s or above)" % (c.usage, c.help, c.minimum))
                for g in self.visible(role, c.children):
                    lines.append("  %s: %s (%s or above)" % (g.usage, g.help, g.minimum))
            return "\n".join(lines)
        rows = [(self.usage(role, c), c.help) for c in self.available(role)]
        width = min(HELP_COLUMN, max(len(u) for u, _ in rows))
        lines = ["commands for a %s (a unique prefix will do; ? lists what may follow):" % role]
        for u, h in rows:        # a usage wider than the column: its text on the next line
            lines += ["  %-*s  %s" % (width, u, h)] if len(u) <= width else \
                ["  %s" % u, "  %-*s  %s" % (width, "", h)]
        lines.append("line editing: ? lists what may follow at once, Tab completes, the "
                     "arrows move and recall earlier lines, Backspace or DEL erases, Ctrl-U "
                     "erases the line, Ctrl-C cancels it; a long answer stops at -- more --")
        return "\n".join(lines)

    def c_logout(self, role, args):       # the session ends it (Session.is_logout)
        return "logout"

    def c_watch(self, role, args):
        return Watch("watch")

    def c_terminal(self, role, args):
        changes = {}
        if len(args) % 2:
            raise ConsoleError("usage: terminal [width N] [length N]")
        for what, n in zip(args[::2], args[1::2]):
            what = what.lower()
            if what not in TERMINAL or not n.isdigit():
                raise ConsoleError("usage: terminal [width N] [length N]")
            lo, hi = TERMINAL[what]
            if not lo <= int(n) <= hi:
                raise ConsoleError("terminal %s is %d to %d" % (what, lo, hi))
            changes[what] = int(n)
        return Setting(changes)


__all__ = ["Commands", "ROLES", "Watch", "Setting", "config_hash"]
