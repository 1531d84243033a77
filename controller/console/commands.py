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
    technician    devices, verify, config show, show devices|config
    administrator (everything above)
"""

import hashlib
import json
import logging
import time
from collections import deque

from controller.clearing import CONSOLE, rule_for, selftest as _selftest, service_for
from controller.console import view
from controller.console.auth import ROLES, at_least
from controller.console.screen import render
from controller.errors import ConsoleError, ManifestError
from controller.games.engine import CLOSED, LOCKED_OUT
from controller.progressive import cents, progressives

log = logging.getLogger(__name__)
EVENTS_DEFAULT, EVENTS_MAX = 20, 500
# A GPIO self-test writes each output its current level again from the console's thread;
# only in these states are the outputs held still (at their safe values) by the loop.
QUIET = (LOCKED_OUT, CLOSED)
LAST_ROUNDS = 5


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
        self.say = lambda text: None         # a line announced on the console (start_console)
        from controller.console.practice import PracticeCommands
        self.bench = PracticeCommands(self)
        store = getattr(controller, "store", None)
        self.meters_book = WagerMeters(controller, self.gaming_day,
                                       getattr(store, "path", None) or None)
        S = self._show_children()
        self.command_tree = {c.name: c for c in (
            Command("help", "dealer", "help [COMMAND]", "what you may run here", self.c_help,
                    args="[COMMAND]"),
            Command("status", "dealer", "status", "the table's state, lock-out and counts",
                    self.c_status),
            Command("meters", "dealer", "meters", "money meters per wager, progressive and "
                    "controller meters (read only)", self.c_meters),
            Command("inspections", "dealer", "inspections", "reader, decks and dice",
                    self.c_inspections, children=(
                        Command("reader", "floorperson", "inspections reader pass|fail",
                                "record the card reader's daily inspection (581.2(d))",
                                children=(
                                    Command("pass", "floorperson", "inspections reader pass",
                                            "the reader passed", self.c_reader_pass),
                                    Command("fail", "floorperson", "inspections reader fail",
                                            "the reader failed: the table locks out "
                                            "(581.13(i))", self.c_reader_fail))),)),
            Command("lockouts", "floorperson", "lockouts", "every lock-out: when, which "
                    "device and rule, who cleared it and when", self.c_lockouts),
            Command("clear", "floorperson", "clear", "clear the lock-out once what its rule "
                    "names has passed", self.c_clear),
            Command("selftest", "floorperson", "selftest [DEVICE]", "run device self-tests",
                    self.c_selftest, args="[DEVICE]", words=self.device_names),
            Command("events", "floorperson", "events [N]", "the journal's last N entries",
                    self.c_events, args="[N]", children=(
                        Command("search", "floorperson", "events search TEXT",
                                "the last entries matching TEXT", self.c_search,
                                args="TEXT"),)),
            Command("devices", "technician", "devices [DEVICE]", "state, counters and last "
                    "fault of each device", self.c_devices, args="[DEVICE]",
                    words=self.device_names),
            Command("verify", "technician", "verify [SEED]", "SHA-256 of the installed "
                    "software against its manifest; the journal's head", self.c_verify,
                    args="[SEED]"),
            Command("config", "technician", "config show", "the table's configuration",
                    children=(Command("show", "technician", "config show",
                                      "the configuration, its [controller] section and hash",
                                      self.c_config),)),
            Command("show", "dealer", "show WHAT", "show one of the table's views",
                    children=S),
            Command("watch", "dealer", "watch", "the table live, refreshed in place; any key "
                    "ends it", self.c_watch),
            Command("terminal", "dealer", "terminal [width N] [length N]", "this session's "
                    "terminal: its width in columns (80) and page length in lines (24; 0: no "
                    "paging)", self.c_terminal, args="[width N] [length N]",
                    words=lambda: sorted(TERMINAL)),
        ) + self.bench.nodes(Command) + (
            Command("logout", "dealer", "logout", "end this session (also exit, quit)",
                    self.c_logout),
        )}

    def _show_children(self):
        return (
            Command("status", "dealer", "show status", "as `status`", self.c_status),
            Command("meters", "dealer", "show meters", "as `meters`", self.c_meters),
            Command("version", "dealer", "show version", "the software version and the "
                    "manifest's hash", self.c_version),
            Command("link", "dealer", "show link", "the floor link: up or down since when, "
                    "rows waiting", self.c_link),
            Command("lockouts", "floorperson", "show lockouts", "as `lockouts`",
                    self.c_lockouts),
            Command("events", "floorperson", "show events [N]", "as `events`", self.c_events,
                    args="[N]"),
            Command("devices", "technician", "show devices [DEVICE]", "as `devices`",
                    self.c_devices, args="[DEVICE]", words=self.device_names),
            Command("config", "technician", "show config", "as `config show`",
                    self.c_config),
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

    def c_status(self, role, args):
        ctl, model = self.ctl, self.ctl.model
        state = model.state
        rows = [("game", model.GAME), ("state", state), ("round", getattr(model, "round_no", "-")),
                ("wagers", "recognized" if ctl.accepting() else
                 "not recognized (lock-out output on)")]
        waiting = getattr(model, "waiting_for", None)
        if callable(waiting):
            try:
                rows.append(("waiting for", waiting()))
            except Exception:               # noqa: BLE001 - a status line must not fail
                pass
        if state == LOCKED_OUT:
            lo = model.lockout or {}
            rows.append(("LOCKED OUT", "%s [%s]" % (lo.get("reason"),
                                                     model.lockout_section(lo) or "-")))
            last = self.ctl.lockouts[-1] if self.ctl.lockouts else {}
            if last.get("ts_ns") is not None and not last.get("cleared"):
                rows.append(("since", view.local_time(ctl, last["ts_ns"])))
            rows.append(("to clear", rule_for(self.named(lo)).describe()))
        s = ctl.stats
        rows.append(("controller", "events %(events)d, applied %(applied)d, refused "
                     "%(refused)d, errors %(errors)d, faults %(faults)d" % s))
        if self.devices:
            rows.append(("devices", ", ".join("%s %s" % (n, _state(d))
                                              for n, d in sorted(self.devices.items()))))
        rows.append(("floor link", self._link_text()))
        return _two_columns(rows)

    def day_start_ns(self):
        """When the gaming day begins (ns past local midnight): the table's configuration's
        ([controller] gaming_day_start, which the runtime hands the controller and the card
        reader's policy), else the default (controller/units.py)."""
        from controller.policies.devices import ReaderInspection
        from controller.units import day_start_ns
        reader = self.ctl.policy(ReaderInspection)
        if reader is not None:
            return reader.day_start_ns
        start = getattr(self.ctl, "day_start_ns", None)
        return day_start_ns() if not isinstance(start, int) else start

    def gaming_day(self, ts_ns):
        """The gaming day of a stamp: the card reader's policy's day where it keeps one, else
        a day from the configured start, casino local time."""
        from controller.policies.devices import DAY_NS, ReaderInspection
        reader = self.ctl.policy(ReaderInspection)
        if reader is not None and reader.wall_offset_ns:
            return reader.gaming_day(ts_ns)
        return (ts_ns + view.local_offset_ns(self.ctl) - self.day_start_ns()) // DAY_NS

    def day_text(self, day):
        from controller.human import gaming_day
        return gaming_day(int(day))

    def c_meters(self, role, args):
        model = self.ctl.model
        today, total, day = self.meters_book.read()
        start = self.day_start_ns()
        lines = ["money meters per wager (a gaming day begins %02d:%02d local time):"
                 % (start // (3600 * 10 ** 9), start // (60 * 10 ** 9) % 60)]
        since = "since installation" if self.meters_book.journal_path else \
            "since this controller started (no journal file)"
        for title, book in (("gaming day %s" % self.day_text(day), today), (since, total)):
            lines.append("  %s" % title)
            if not book:
                lines.append("    no settled rounds")
            for wager, m in sorted(book.items()):
                hold_pct = "" if not m["handle"] else "  (%.1f%% of handle)" % (
                    100.0 * m["hold"] / m["handle"])
                lines.append("    %-20s handle %s  paid %s  hold %s%s  rounds %d"
                             % (wager, view.dollars(m["handle"]), view.dollars(m["paid"]),
                                view.dollars(m["hold"]), hold_pct, m["rounds"]))
        rows = [("round number", getattr(model, "round_no", "-"))]
        kept = getattr(self.ctl, "meters", None)          # the journal's regulation meters
        if isinstance(kept, dict):
            rows += [(k, v) for k, v in sorted(kept.items())
                     if not str(k).startswith("progressive.")]
        rows += [("lock-outs", self.ctl.stats["lockouts"]),
                 ("events", self.ctl.stats["events"]), ("refused", self.ctl.stats["refused"])]
        meters = progressives(model)
        for name, m in sorted(meters.items()):
            num, den = (m.get("rate") or [0, 1])
            rows.append((name, "value %s  reset %s  rate %s/%s  hits %s  paid %s  "
                         "contributed %s  wagers %s"
                         % (cents(m.get("value")), cents(m.get("reset")), num, den,
                            m.get("hits"), cents(m.get("paid")),
                            cents(m.get("contributed")), m.get("wagers"))))
            lk = m.get("link") if isinstance(m.get("link"), dict) else None
            if lk is not None:                    # a linked meter: the link's (issue 14)
                from controller.progressive import link_up
                pending = sorted(lk.get("hits") or {})
                rows.append(("%s link" % name, "%s %s  meter %s (the link's)  pending hits %s"
                             % (lk.get("id"), "up" if link_up(m) else "DOWN",
                                cents(m.get("value")),
                                ", ".join("round %s seat %s PENDING" % tuple(k.split(":"))
                                          for k in pending) or "none")))
        if not meters:
            rows.append(("progressive", "none at this table"))
        return "\n".join(lines) + "\n" + _two_columns(rows)

    def c_lockouts(self, role, args):
        lines = []
        for n, lo in enumerate(list(self.ctl.lockouts), 1):
            # two lines each, so that an 80-column terminal shows each whole
            lines.append("%3d  %-9s %s  device %s" % (
                n, "cleared" if lo.get("cleared") else "IN FORCE",
                view.local_time(self.ctl, lo.get("ts_ns")), self.name_of(lo.get("device")) or "-"))
            lines.append("     %s [%s]" % (lo.get("reason"),
                                             self.ctl.model.lockout_section(lo) or "-"))
            if lo.get("cleared"):
                lines.append("     cleared by %s%s at %s" % (
                    lo.get("cleared_by") or "-",
                    " (%s)" % lo["cleared_at"] if lo.get("cleared_at") else "",
                    view.local_time(self.ctl, lo.get("cleared_ns"))))
        if not lines:
            lines.append("no lock-outs")
        if self.ctl.model.state == LOCKED_OUT:
            lo = self.ctl.model.lockout or {}
            rule = rule_for(self.named(lo))
            if lo.get("covered"):
                lines.append("now locked out: device %s, covered as out of order; `clear` "
                             "clears without its self-test" % self.name_of(lo.get("device")))
            else:
                lines.append("now locked out: %s; cleared by %s"
                             % (rule.kind_text(), rule.describe()))
        return "\n".join(lines)

    def c_clear(self, role, args):
        ctl = self.ctl
        if ctl.model.state != LOCKED_OUT:
            raise ConsoleError("nothing to clear: the table is not locked out")
        ticket = service_for(ctl, self.devices).request(role, CONSOLE)
        lines = list(ticket.lines)
        if ticket.ok:
            lines.append("lock-out cleared by %s; the table is %s" % (role, ctl.model.state))
        elif ticket.ok is None and ticket.event is not None:
            lines.append("clear submitted; the controller has not applied it yet (see status)")
        else:
            failed = next((ln.split(":")[0][len("self-test "):] for ln in lines
                           if ln.startswith("self-test ") and ": FAIL" in ln), None)
            if failed:
                lines.append("lock-out not cleared: %s failed its self-test" % failed)
            elif any(ln.startswith("journal check: FAIL") for ln in lines):
                lines.append("lock-out not cleared: the journal failed its check; "
                             "%s" % rule_for(self.named(ctl.model.lockout)).check)
            else:
                lines.append(ticket.reason or "lock-out not cleared")
            raise ConsoleError("\n".join(lines))
        return "\n".join(lines)

    def c_selftest(self, role, args):
        if args:
            name = self.name_of(args[0])
            chosen = [(name, self.driver(name))]
        else:
            chosen = sorted(self.devices.items())
        if not chosen:
            return "no devices at this table"
        lines = []
        for name, driver in chosen:
            if _writes_outputs(driver) and self.ctl.model.state not in QUIET:
                lines.append("%-20s skipped: its self-test rewrites its outputs, so it runs "
                             "only while the table is locked out or closed" % name)
                continue
            ok, detail = _selftest(driver)
            lines.append("%-20s %s%s" % (name, "pass" if ok else "FAIL",
                                         "" if ok else "  (%s)" % detail))
        return "\n".join(lines)

    def c_inspections(self, role, args):
        from controller.policies.devices import ReaderInspection
        return "\n".join(self._inspection_lines(self.ctl.policy(ReaderInspection)))

    def c_reader_pass(self, role, args):
        return self._reader(role, True)

    def c_reader_fail(self, role, args):
        return self._reader(role, False)

    def _reader(self, role, passed):
        from controller.policies.devices import ReaderInspection
        reader = self.ctl.policy(ReaderInspection)
        if reader is None:
            raise ConsoleError("this table has no card reader inspection (%s)"
                               % self.ctl.model.GAME)
        return self._record_inspection(role, reader, passed)
    def _record_inspection(self, role, reader, passed):
        ctl = self.ctl
        before = len(reader.inspections)
        event = ctl.event("irregularity", {"kind": "reader_inspected", "role": role,
                                           "passed": passed}, source="console")
        ctl.submit(event)
        outcome = self._await(event, lambda: len(reader.inspections) > before)
        if outcome is _PENDING:
            return "inspection submitted; the controller has not applied it yet"
        if outcome is not None:
            raise ConsoleError("the controller refused the inspection: %s" % outcome)
        if passed:
            return "card reader inspection recorded: passed, by %s" % role
        return ("card reader inspection recorded: FAILED, by %s; the table is locked out until "
                "the reader is repaired or replaced and a floorperson clears it" % role)

    def _inspection_lines(self, reader):
        from controller.policies.intervals import HOUR_NS, ChangeIntervals, declared
        ctl, now = self.ctl, self.ctl.clock()
        lines = []
        if reader is None:
            lines.append("card reader: no daily inspection at this table")
        else:
            today = reader.gaming_day(now) == reader.inspected_day
            lines.append("card reader: %s this gaming day (581.2(d))"
                         % ("inspected and passed" if today else "INSPECTION DUE"))
            for i in list(reader.inspections)[-5:]:
                lines.append("  day %s  %s  by %s  at %s s" % (i["day"], "passed" if i["passed"]
                                                               else "FAILED", i["role"],
                                                               view.seconds(i["ts_ns"])))
        opened = [e for e in view.entries(self.journal, kinds=("open_table", "new_deck"))
                  if e.type == "event"]
        lines.append("decks opened: %d" % len(opened))
        for e in opened[-5:]:
            lines.append("  %s at %s s%s" % (e.kind, view.seconds(e.ts_ns),
                                             "  decks=%s" % e.data["decks"]
                                             if "decks" in e.data else ""))
        intervals = ctl.policy(ChangeIntervals)
        placed = dict(intervals.placed) if intervals else {}
        if getattr(ctl.model, "dice_placed_ns", None):
            placed.setdefault("dice", ctl.model.dice_placed_ns)
        for interval in declared(ctl.model):
            what, got = interval.what, interval.limit(ctl.model)
            if what not in placed:
                lines.append("%s: not on the table yet" % ("dice" if what == "dice" else "deck"))
                continue
            age_h = (now - placed[what]) / HOUR_NS
            label = "dice placed" if what == "dice" else "deck in play"
            lines.append("%s: %.1f h ago%s" % (label, age_h, "" if got is None else
                                              ", to be changed within %d h (%s)" % got))
        return lines

    def c_devices(self, role, args):
        if args:
            driver = self.driver(args[0])
            return "\n".join("%-28s %s" % kv for kv in view.humane(
                view.flat(view.redact(_status(driver))), self.when))
        if not self.devices:
            return "no devices at this table"
        lines = []
        for name, driver in sorted(self.devices.items()):
            st = view.redact(_status(driver))
            counters = ", ".join("%s=%s" % kv for kv in sorted(st.get("counters", {}).items()))
            rejected = sum(st.get("rejected", {}).values()) if isinstance(
                st.get("rejected"), dict) else 0
            lines.append("%-18s %-18s %-10s %s" % (name, st.get("type", "-"),
                                                   st.get("state", "-"), counters or "-"))
            if rejected:
                lines.append("    frames rejected: %d" % rejected)
            fault = st.get("last_fault")
            lines.append("    last fault: %s" % ("none" if not fault else " ".join(
                "%s=%s" % kv for kv in view.humane(view.flat(fault), self.when))))
        return "\n".join(lines)

    def c_verify(self, role, args):
        from controller.console import manifest     # not at import: `-m ...manifest` runs it
        try:
            r = manifest.verify(self.manifest_path, self.manifest_root)
            seeded = manifest.seeded(args[0], self.manifest_path, self.manifest_root) \
                if args else None
        except ManifestError as e:
            raise ConsoleError("verify: %s" % e)
        lines = []
        for what in ("changed", "missing", "unlisted"):
            for rel in getattr(r, what):
                lines.append("%-9s %s" % (what, rel))
        lines.append("%s: %d files listed, %d changed, %d missing, %d unlisted"
                     % ("PASS" if r.ok else "FAIL", len(r.expected), len(r.changed),
                        len(r.missing), len(r.unlisted)))
        lines.append("manifest signature  %s" % r.expected_signature)
        lines.append("installed signature %s" % r.signature)
        if seeded is not None:
            lines.append("HMAC-SHA-256 under the seed: %s" % seeded)
        store = getattr(self.ctl, "store", None)         # a journaled controller's journal
        if store is not None:
            # the anchor to write down: `tablectl journal verify --head SEQ:HASH` checks it
            lines.append("journal head        %d:%s%s" % (store.last() + (
                " (keyed, key id %s)" % store.key_id if store.keyed else "",)))
        return "\n".join(lines)

    def c_events(self, role, args):
        n = EVENTS_DEFAULT
        if args:
            try:
                n = int(args[0])
            except ValueError:
                raise ConsoleError("usage: events [N] | events search TEXT")
            if not 1 <= n <= EVENTS_MAX:
                raise ConsoleError("N is 1 to %d" % EVENTS_MAX)
        return "\n".join(view.render(e, self.when) for e in view.entries(self.journal, last=n)) \
            or "the journal is empty"

    def when(self, ts_ns):
        return view.local_time(self.ctl, ts_ns)

    def c_search(self, role, args):
        text = " ".join(args)
        if not text:
            raise ConsoleError("usage: events search TEXT")
        found, shown = 0, deque(maxlen=EVENTS_DEFAULT)      # a journal of months: streamed
        for line in (view.render(e, self.when) for e in view.entries(self.journal)
                     if not _own_search(e)):
            if text.lower() in line.lower():
                found += 1
                shown.append(line)
        head = "%d entries match %r%s" % (found, text, "; the last %d:" % len(shown)
                                          if found > len(shown) else "")
        return "\n".join([head] + list(shown))

    def configuration(self):
        return self.config if self.config is not None else getattr(self.ctl.model, "config", {})

    def c_config(self, role, args):
        cfg = self.configuration()
        lines = ["configuration hash  %s" % config_hash(cfg)]
        section = cfg.get("controller") if isinstance(cfg, dict) else None
        game = {k: v for k, v in cfg.items() if k != "controller"} if isinstance(cfg, dict) \
            else cfg
        options = getattr(self.ctl.model, "OPTIONS", {})
        lines += ["%-32s %s" % (k, _money(k, v, options)) for k, v in
                  view.flat(view.redact(game))] or ["(empty)"]
        lines.append("[controller]")
        if isinstance(section, dict) and section:
            # device names and ports, not cards: "shoe" here is the dealing shoe's driver
            lines += ["  %-30s %s" % (k, view.scrub(v)) for k, v in view.flat(section)]
        else:
            lines.append("  not configured here (no devices, ports or pins were given)")
        return "\n".join(lines)

    def c_version(self, role, args):
        from controller.console import manifest
        lines = ["tablectl %s" % software_version()]
        try:
            path = self.manifest_path or manifest.default_path(self.manifest_root)
            lines.append("manifest %s  signature %s" % (path, manifest.signature(
                manifest.read(path))))
        except (ManifestError, OSError) as e:
            lines.append("manifest: none (%s)" % e)
        return "\n".join(lines)

    def _link_text(self):
        if self.link is None:
            return "not configured"
        try:
            st = self.link()
        except Exception as e:              # noqa: BLE001 - the link's bug is not the console's
            return "unknown (%s)" % e
        if not st:
            return "not configured"
        since = st.get("since_ns")
        return "%s%s, %s rows waiting" % (
            "up" if st.get("up") else "DOWN",
            "" if since is None else " since %s" % view.local_time(self.ctl, since),
            st.get("waiting", "-"))

    def _await(self, event, done):
        """None once `done()`, the refusal's reason if the controller refused `event`,
        _PENDING if neither within apply_timeout_s (real time: the loop is a thread)."""
        end = time.monotonic() + self.apply_timeout_s
        while True:
            for ev, reason in list(self.ctl.refusals[-50:]):
                if ev is event:
                    return reason
            if done():
                return None
            if time.monotonic() >= end:
                return _PENDING
            time.sleep(0.002)

    def announcement(self, what, entry):
        """The line announcing a lock-out ("lock_out") or its clearing ("cleared")."""
        if what == "lock_out":
            return "*** LOCK-OUT %s: %s [%s]; device %s; to clear: %s" % (
                view.local_time(self.ctl, entry.get("ts_ns")), entry.get("reason"),
                self.ctl.model.lockout_section(entry) or "-",
                self.name_of(entry.get("device")) or "-",
                rule_for(self.named(self.ctl.model.lockout or entry)).describe())
        return "*** lock-out cleared %s by %s%s: %s; the table is %s" % (
            view.local_time(self.ctl, entry.get("cleared_ns")), entry.get("cleared_by") or "-",
            " (%s)" % entry["cleared_at"] if entry.get("cleared_at") else "",
            entry.get("reason"), self.ctl.model.state)

    def c_link(self, role, args):
        return "floor link  %s" % self._link_text()

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

    def screen(self):
        """What `watch` (and `tablectl top`) shows: state, devices, lock-outs, meters, rounds."""
        return render(self.live_info())

    def live_info(self):
        ctl, model = self.ctl, self.ctl.model
        today, _, day = self.meters_book.read()
        lo = model.lockout or {} if model.state == LOCKED_OUT else None
        return {
            "now": view.local_time(ctl, ctl.clock()), "game": model.GAME, "state": model.state,
            "round": getattr(model, "round_no", None), "accepting": ctl.accepting(),
            "lockout": None if lo is None else {"reason": lo.get("reason"),
                                                "to_clear": rule_for(self.named(lo)).describe()},
            "title": "tablectl watch",
            "devices": [(n, str(_status(d).get("state", "-")),
                         _last_fault(_status(d).get("last_fault"), self.when))
                        for n, d in sorted(self.devices.items())],
            "lockouts": [{"when": view.local_time(ctl, x.get("ts_ns")),
                          "device": self.name_of(x.get("device")), "reason": x.get("reason"),
                          "cleared": x.get("cleared"), "by": x.get("cleared_by")}
                         for x in list(ctl.lockouts)[-5:]],
            "day": self.day_text(day), "meters": today,
            "rounds": list(self.meters_book.recent),
        }


_PENDING = object()


def config_hash(cfg):
    """SHA-256 of the configuration as canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(cfg, sort_keys=True, separators=(",", ":"),
                                     default=str).encode()).hexdigest()


def software_version():
    try:
        from importlib.metadata import version
        return version("tablectl")
    except Exception:                       # noqa: BLE001 - not installed: say so
        return "(not installed as a package)"


MONEY_KEYS = ("table_min", "table_max", "progressive.meter", "progressive.reset")


def _money(key, value, options):
    """A configuration value as a person reads it: an amount of money (the table limits, a
    wager's limits, the progressive's meter and reset, an option its check calls cents) in
    dollars; anything else as it is."""
    spec = options.get(key[len("options."):]) if key.startswith("options.") else None
    money = key in MONEY_KEYS or key.startswith("limits.") or \
        (spec is not None and getattr(spec[1], "cents", False))
    if not money:
        return value
    try:
        amounts = [int(a) for a in str(value).strip("[]").split(",")]
    except ValueError:
        return value
    shown = [view.dollars(a) for a in amounts]
    return shown[0] if len(shown) == 1 and not str(value).startswith("[") else \
        "[%s]" % ", ".join(shown)


def _last_fault(fault, when):
    """The screen's fault column: the same words as `tablectl top` (screen.fault_line)."""
    from controller.console.screen import fault_line
    if not isinstance(fault, dict) or not fault:
        return _fault_text(fault, when)
    return fault_line(view.scrub(str(fault.get("reason"))), when(fault["ts_ns"])
                      if isinstance(fault.get("ts_ns"), int) else "-")


def _fault_text(fault, when):
    if not fault:
        return ""
    if isinstance(fault, dict):
        return " ".join("%s=%s" % kv for kv in view.humane(view.flat(view.redact(fault)), when))
    return view.scrub(str(fault))



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


def _status(driver):
    try:
        st = driver.status()
    except Exception as e:                  # noqa: BLE001 - one device must not stop the list
        return {"state": "error", "last_fault": {"reason": "status", "detail": repr(e)}}
    return st if isinstance(st, dict) else {"state": str(st)}


def _state(driver):
    return str(_status(driver).get("state", "-"))


def _writes_outputs(driver):
    return bool(getattr(driver, "outputs", None))


def _two_columns(rows):
    """(label, value) rows as two aligned columns of text."""
    width = max(len(k) for k, _ in rows)
    return "\n".join("%-*s  %s" % (width, k, v) for k, v in rows)


__all__ = ["Commands", "ROLES", "Watch", "config_hash"]
