"""The console's table screen: the state and its lock-out (`status`), every lock-out
(`lockouts`), `clear` through the one clear service, the devices' self-tests and state
(`selftest`, `devices`), the floor link (`show link`), the announcements of lock-outs and
clears, and the live screen `watch` draws (console/screen.py).

One of the screens console/commands.py was split into (issue 32: its Commands held 40
methods for five screens); each screen is a `Screen` over the console's Commands, whose
tree names its commands (`nodes`).
"""

import logging

from controller.clearing import CONSOLE, rule_for, selftest as _selftest, service_for
from controller.console import view
from controller.console.screen import render
from controller.console.tree import Screen
from controller.errors import ConsoleError
from controller.games.engine import CLOSED, LOCKED_OUT

log = logging.getLogger(__name__)
# A GPIO self-test writes each output its current level again from the console's thread;
# only in these states are the outputs held still (at their safe values) by the loop.
QUIET = (LOCKED_OUT, CLOSED)


class TableScreen(Screen):
    """status, lockouts, clear, selftest, devices, show link; announcements; watch's screen."""

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
            rows.append(("LOCKED OUT", "%s [%s]" % (self.spoken(lo.get("reason")),
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

    def c_lockouts(self, role, args):
        lines = []
        for n, lo in enumerate(list(self.ctl.lockouts), 1):
            # two lines each, so that an 80-column terminal shows each whole
            lines.append("%3d  %-9s %s  device %s" % (
                n, "cleared" if lo.get("cleared") else "IN FORCE",
                view.local_time(self.ctl, lo.get("ts_ns")), self.name_of(lo.get("device")) or "-"))
            lines.append("     %s [%s]" % (self.spoken(lo.get("reason")),
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
        lines = [self.spoken(ln) for ln in ticket.lines]
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
                lines.append(self.spoken(ticket.reason) or "lock-out not cleared")
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

    def c_link(self, role, args):
        return "floor link  %s" % self._link_text()

    def announcement(self, what, entry):
        """The line announcing a lock-out ("lock_out") or its clearing ("cleared")."""
        if what == "lock_out":
            return "*** LOCK-OUT %s: %s [%s]; device %s; to clear: %s" % (
                view.local_time(self.ctl, entry.get("ts_ns")), self.spoken(entry.get("reason")),
                self.ctl.model.lockout_section(entry) or "-",
                self.name_of(entry.get("device")) or "-",
                rule_for(self.named(self.ctl.model.lockout or entry)).describe())
        return "*** lock-out cleared %s by %s%s: %s; the table is %s" % (
            view.local_time(self.ctl, entry.get("cleared_ns")), entry.get("cleared_by") or "-",
            " (%s)" % entry["cleared_at"] if entry.get("cleared_at") else "",
            self.spoken(entry.get("reason")), self.ctl.model.state)

    def live_info(self):
        ctl, model = self.ctl, self.ctl.model
        today, day = self.meters_book.today()
        lo = model.lockout or {} if model.state == LOCKED_OUT else None
        return {
            "now": view.local_time(ctl, ctl.clock()), "game": model.GAME, "state": model.state,
            "round": getattr(model, "round_no", None), "accepting": ctl.accepting(),
            "lockout": None if lo is None else {"reason": self.spoken(lo.get("reason")),
                                                "to_clear": rule_for(self.named(lo)).describe()},
            "title": "tablectl watch",
            "devices": [(n, str(st.get("state", "-")), _last_fault(st.get("last_fault"),
                                                                   self.when))
                        for n, st in ((n, _status(d)) for n, d in sorted(self.devices.items()))],
            "lockouts": [{"when": view.local_time(ctl, x.get("ts_ns")),
                          "device": self.name_of(x.get("device")),
                          "reason": self.spoken(x.get("reason")),
                          "cleared": x.get("cleared"), "by": x.get("cleared_by")}
                         for x in list(ctl.lockouts)[-5:]],
            "day": self.day_text(day), "meters": today,
            "rounds": list(self.meters_book.recent),
        }

    def screen(self, width=view.WIDTH):
        """What `watch` (and `tablectl top`) shows: state, devices, lock-outs, meters, rounds,
        folded to the session's terminal width."""
        return render(self.live_info(), width)


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
