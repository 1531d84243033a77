"""The console's commands: read the table, and ask the controller; never change it directly.

A command reads the controller, the drivers and the journal, or submits an Event for the
controller's loop to apply like any other input (`clear`, `inspections reader`): no
command writes a meter, the model or the journal itself. Every command line is journaled
first, through the controller's journal hook, as Record("console", {"role", "command",
"args"}); a refusal adds Record("console_refused", {"role", "command", "reason"}).

Who may run what (each role may run everything of the roles below it):
    dealer        help, status, meters, inspections (to read)
    floorperson   lockouts, clear, inspections reader pass|fail, selftest, events
    technician    devices, verify, config show
    administrator (everything above)
"""

import logging
import time
from collections import deque

from controller.console import view
from controller.console.auth import ROLES, at_least
from controller.errors import ConsoleError, ManifestError
from controller.games.engine import CLOSED, LOCKED_OUT
from controller.progressive import cents, progressives

log = logging.getLogger(__name__)
ALIASES = {"progressive": "progressive_system"}      # lock-out device -> driver type
EVENTS_DEFAULT, EVENTS_MAX = 20, 500
# A GPIO self-test writes each output its current level again from the console's thread;
# only in these states are the outputs held still (at their safe values) by the loop.
QUIET = (LOCKED_OUT, CLOSED)


class Command:
    __slots__ = ("name", "minimum", "usage", "help", "func")

    def __init__(self, name, minimum, usage, help_, func):
        self.name, self.minimum, self.usage, self.help, self.func = \
            name, minimum, usage, help_, func


class Commands:
    """The command table over one controller. `run(role, line)` returns the text to show
    (lines separated by "\\n") or raises ConsoleError with the reason it was refused.

    `devices` {name: driver with status(), selftest(), clear_fault()?}; `journal` what
    `events` reads (default: a journaled controller's file, else its memory);
    `note(kind, **data)` journals a console record (default: controller.note);
    `apply_timeout_s` how long (real time) a command waits for the controller's loop to
    apply an event it submitted.
    """

    def __init__(self, controller, devices=None, *, journal=None, note=None,
                 manifest_path=None, manifest_root=None, config=None, apply_timeout_s=2.0):
        self.ctl = controller
        self.devices = dict(devices or {})
        self.journal = _journal_of(controller) if journal is None else journal
        self.note = note or controller.note
        self.manifest_path = manifest_path
        self.manifest_root = manifest_root
        self.config = config
        self.apply_timeout_s = apply_timeout_s
        self.table = {}
        for c in (
            Command("help", "dealer", "help [COMMAND]", "what you may run here", self.c_help),
            Command("status", "dealer", "status", "the table's state, lock-out and counts",
                    self.c_status),
            Command("meters", "dealer", "meters", "progressive and controller meters (read "
                    "only)", self.c_meters),
            Command("inspections", "dealer", "inspections [reader pass|fail]",
                    "reader, decks and dice; record the reader's daily inspection",
                    self.c_inspections),
            Command("lockouts", "floorperson", "lockouts", "every lock-out and whether it "
                    "was cleared", self.c_lockouts),
            Command("clear", "floorperson", "clear", "clear the lock-out once the device "
                    "passes its self-test", self.c_clear),
            Command("selftest", "floorperson", "selftest [DEVICE]", "run device self-tests",
                    self.c_selftest),
            Command("events", "floorperson", "events [N] | events search TEXT",
                    "the journal's last N entries, or those matching TEXT", self.c_events),
            Command("devices", "technician", "devices [DEVICE]", "state, counters and last "
                    "fault of each device", self.c_devices),
            Command("verify", "technician", "verify [SEED]", "SHA-256 of the installed "
                    "software against its manifest; the journal's head", self.c_verify),
            Command("config", "technician", "config show", "the table's configuration",
                    self.c_config),
        ):
            self.table[c.name] = c

    # ---- dispatch -------------------------------------------------------------------------

    def available(self, role):
        return [c for c in self.table.values() if at_least(role, c.minimum)]

    def run(self, role, line):
        words = line.split()
        if not words:
            return ""
        name, args = words[0].lower(), words[1:]
        if name.isdigit():               # a PIN typed at the wrong prompt is not journaled
            name, args = "(digits)", []
        self.note("console", role=role, command=view.scrub(name[:40]),
                  args=[view.scrub(a[:80]) for a in args[:8]])
        cmd = self.table.get(name)
        try:
            if cmd is None:
                raise ConsoleError("unknown command %r: type help" % name[:40])
            if not at_least(role, cmd.minimum):
                raise ConsoleError("%s needs a %s or above; you are logged in as %s"
                                   % (name, cmd.minimum, role))
            return cmd.func(role, args)
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
            cmd = self.table.get(args[0].lower())
            if cmd is None:
                raise ConsoleError("no command %r" % args[0][:40])
            return "%s\n  %s\n  (%s or above)" % (cmd.usage, cmd.help, cmd.minimum)
        width = max(len(c.usage) for c in self.table.values())
        lines = ["commands for a %s:" % role]
        lines += ["  %-*s  %s" % (width, c.usage, c.help) for c in self.available(role)]
        lines.append("  %-*s  %s" % (width, "logout", "end this session"))
        lines.append("line editing: Backspace or DEL erases, Ctrl-U erases the line, "
                     "Ctrl-C cancels it")
        return "\n".join(lines)

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
            rows.append(("LOCKED OUT", "%s [%s]" % (lo.get("reason"), lo.get("section") or "-")))
            how = ("(%s is covered as out of order: no self-test)" % lo.get("device")
                   if lo.get("covered") else "once %s passes its self-test"
                   % (lo.get("device") or "every device"))
            rows.append(("to clear", "a floorperson or above runs `clear` " + how))
        link = getattr(ctl, "link_status", None)      # the floor uplink's, when attached
        if callable(link):
            rows.append(("floor link", _link_line(link())))
        s = ctl.stats
        rows.append(("controller", "events %(events)d, applied %(applied)d, refused "
                     "%(refused)d, errors %(errors)d, faults %(faults)d" % s))
        if self.devices:
            rows.append(("devices", ", ".join("%s %s" % (n, _state(d))
                                              for n, d in sorted(self.devices.items()))))
        return _table(rows)

    def c_meters(self, role, args):
        model = self.ctl.model
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
        if not meters:
            rows.append(("progressive", "none at this table"))
        return _table(rows)

    def c_lockouts(self, role, args):
        lines = []
        for n, lo in enumerate(list(self.ctl.lockouts), 1):
            lines.append("%3d  %-9s %s [%s]" % (n, "cleared" if lo["cleared"] else "IN FORCE",
                                                lo["reason"], lo["section"] or "-"))
        if not lines:
            lines.append("no lock-outs")
        if self.ctl.model.state == LOCKED_OUT:
            lo = self.ctl.model.lockout or {}
            if lo.get("covered"):
                lines.append("now locked out: device %s, covered as out of order; `clear` "
                             "clears without its self-test" % lo.get("device"))
            else:
                lines.append("now locked out: device %s; `clear` runs its self-test, then clears"
                             % (lo.get("device") or "- (every device is tested)"))
        return "\n".join(lines)

    def c_clear(self, role, args):
        ctl = self.ctl
        if ctl.model.state != LOCKED_OUT:
            raise ConsoleError("nothing to clear: the table is not locked out")
        lockout = ctl.model.lockout or {}
        covered = lockout.get("covered")      # out of service: not tested (games/out_of_order.py)
        drivers = [] if covered else self.drivers_for(lockout.get("device"))
        lines = ["self-test %s: none, it is covered as out of order" % lockout.get("device")] \
            if covered else []
        for name, driver in drivers:
            if _writes_outputs(driver) and ctl.model.state not in QUIET:
                raise ConsoleError("\n".join(lines + ["the table is no longer locked out "
                                                      "(%s): nothing to clear" % ctl.model.state]))
            ok, detail = _selftest(driver)
            lines.append("self-test %s: %s%s" % (name, "pass" if ok else "FAIL",
                                                 "" if ok else " (%s)" % detail))
            if not ok:
                raise ConsoleError("\n".join(lines + ["lock-out not cleared: %s failed its "
                                                      "self-test" % name]))
        for name, driver in drivers:
            if hasattr(driver, "clear_fault"):
                driver.clear_fault()
        event = ctl.event("clear", {"role": role} if covered else {"role": role, "selftest": True},
                          source="console")
        ctl.submit(event)
        outcome = self._await(event, lambda: ctl.model.state != LOCKED_OUT)
        if outcome is None:
            lines.append("lock-out cleared by %s; the table is %s" % (role, ctl.model.state))
        elif outcome is _PENDING:
            lines.append("clear submitted; the controller has not applied it yet (see status)")
        else:
            raise ConsoleError("\n".join(lines + ["the controller refused the clear: %s"
                                                  % outcome]))
        return "\n".join(lines)

    def c_selftest(self, role, args):
        if args:
            name = args[0]
            if name not in self.devices:
                raise ConsoleError("no device %r; devices: %s"
                                   % (name[:40], ", ".join(sorted(self.devices)) or "none"))
            chosen = [(name, self.devices[name])]
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
        reader = self.ctl.policy(ReaderInspection)
        if args:
            if args[0].lower() != "reader" or len(args) != 2 or \
                    args[1].lower() not in ("pass", "fail"):
                raise ConsoleError("usage: inspections reader pass|fail")
            if not at_least(role, "floorperson"):
                raise ConsoleError("the card reader's inspection is recorded by a floorperson "
                                   "or above (581.2(d)); you are logged in as %s" % role)
            if reader is None:
                raise ConsoleError("this table has no card reader inspection (%s)"
                                   % self.ctl.model.GAME)
            return self._record_inspection(role, reader, args[1].lower() == "pass")
        return "\n".join(self._inspection_lines(reader))

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
        from controller.policies.intervals import HOUR_NS, SPECS, ChangeIntervals
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
        for what, limit, _ in SPECS.get(ctl.model.GAME, ()):
            got = limit(ctl.model)
            if what not in placed:
                lines.append("%s: not on the table yet" % ("dice" if what == "dice" else "deck"))
                continue
            age_h = (now - placed[what]) / HOUR_NS
            label = "dice placed" if what == "dice" else "deck in play"
            lines.append("%s: %.1f h ago%s" % (label, age_h, "" if got is None else
                                              ", to be changed within %d h (%s)" % got))
        return lines

    def c_events(self, role, args):
        if args and args[0].lower() == "search":
            text = " ".join(args[1:])
            if not text:
                raise ConsoleError("usage: events search TEXT")
            found, shown = 0, deque(maxlen=EVENTS_DEFAULT)      # a journal of months: streamed
            for line in (view.render(e) for e in view.entries(self.journal)
                         if not _own_search(e)):
                if text.lower() in line.lower():
                    found += 1
                    shown.append(line)
            head = "%d entries match %r%s" % (found, text, "; the last %d:" % len(shown)
                                              if found > len(shown) else "")
            return "\n".join([head] + list(shown))
        n = EVENTS_DEFAULT
        if args:
            try:
                n = int(args[0])
            except ValueError:
                raise ConsoleError("usage: events [N] | events search TEXT")
            if not 1 <= n <= EVENTS_MAX:
                raise ConsoleError("N is 1 to %d" % EVENTS_MAX)
        return "\n".join(view.render(e) for e in view.entries(self.journal, last=n)) or \
            "the journal is empty"

    def c_devices(self, role, args):
        if args:
            driver = self.devices.get(args[0])
            if driver is None:
                raise ConsoleError("no device %r; devices: %s"
                                   % (args[0][:40], ", ".join(sorted(self.devices)) or "none"))
            return "\n".join("%-28s %s" % kv for kv in view.flat(view.redact(_status(driver))))
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
                "%s=%s" % kv for kv in view.flat(fault))))
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

    def c_config(self, role, args):
        if [a.lower() for a in args] != ["show"]:
            raise ConsoleError("usage: config show")
        cfg = self.config if self.config is not None else getattr(self.ctl.model, "config", {})
        return "\n".join("%-32s %s" % kv for kv in view.flat(view.redact(cfg))) or "(empty)"

    # ---- helpers --------------------------------------------------------------------------

    def drivers_for(self, device):
        """[(name, driver)] whose self-test clears a lock-out of `device`: the drivers of
        that name or type; every driver when the lock-out names none of them."""
        if device:
            want = ALIASES.get(device, device)
            found = [(n, d) for n, d in sorted(self.devices.items())
                     if n == want or getattr(d, "device", None) == want]
            if found:
                return found
            if want not in ("controller", "outputs"):
                raise ConsoleError("no driver for %s at this console: its self-test cannot run"
                                   % device)
        return sorted(self.devices.items())

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


_PENDING = object()


def _journal_of(controller):
    """A journaled controller's file (all of it, streamed); else its journal in memory."""
    store = getattr(controller, "store", None)
    if store is not None and getattr(store, "path", None):
        from controller.journal.reader import JournalReader
        return JournalReader(store.path)
    return controller.journal


def _own_search(entry):
    """A console record of an `events` command: searches do not find each other."""
    return entry.type == "record" and entry.kind in ("console", "console_refused") and \
        isinstance(entry.data, dict) and entry.data.get("command") == "events"


def _link_line(st):
    """The floor uplink's link_status() on one line (controller/floor/uplink.py)."""
    import time as _time
    since = _time.strftime("%Y-%m-%d %H:%M:%S UTC", _time.gmtime(st.get("since") or 0))
    return "%s since %s, rows waiting %d, acknowledged to row %d" % (
        st.get("state"), since, st.get("rows_waiting", 0), st.get("acked_seq", 0))


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


def _selftest(driver):
    """(passed, detail) of one driver's self-test; an exception is a failure."""
    try:
        ok = bool(driver.selftest())
    except Exception as e:                  # noqa: BLE001 - a failing device is a failed test
        return False, "%s: %s" % (type(e).__name__, e)
    if ok:
        return True, None
    last = getattr(driver, "last_selftest", None) or getattr(driver, "last_fault", None) or {}
    return False, (last.get("detail") if isinstance(last, dict) else None) or "no answer"


def _table(rows):
    width = max(len(k) for k, _ in rows)
    return "\n".join("%-*s  %s" % (width, k, v) for k, v in rows)


__all__ = ["Commands", "ROLES"]
