"""The one clear service: who may clear a lock-out, where, what must pass first, and the clear.

Every lock-out names its clearing rule (`rule_for`):

    a device's malfunction   a floorperson or above, at the console or the dealer panel, once
                             that device's driver passes its self-test; a device with no
                             driver here cannot be tested, so it cannot be cleared
    a device covered as out  a floorperson or above, anywhere: it is out of service, no
    of order (581.13(k))     self-test is asked for and its fault stays latched
    the controller/outputs   a floorperson or above, once every device passes its self-test
    the journal's integrity  a technician or above, at the console only, once the journal
                             file verifies again from its first row (the check `tablectl
                             journal verify` runs); an edited journal never does, so the
                             table never takes wagers on it (docs/journal.md: move it aside)

The self-test (or the journal check) runs on the service's own thread, never the loop's: the
console, the dealer panel (its `approval`, through the SelftestOnClear policy) and the
simulated floorperson all ask `ClearService.request()`, which checks the rule, runs the test
and then submits Event("clear", {"role", "selftest", "device", "at", "check"}) for the loop to
apply like any other input, so the journal holds the result and a replay needs no device
(with `tested`, the other devices a passing clear tested; `failed`, the device that failed).

The dealer panel's approval reaches the loop without a self-test. SelftestOnClear (the policy,
kept under the name older journals' headers give it) refuses it there when the rule does not
allow the panel (a journal lock-out), else journals a `clear_deferred` record, keeps the
approval from the game and hands it to the service: the clear that follows is the service's.
"""

import logging
import threading
import time

from controller.errors import ClearRefused
from controller.games.engine import LOCKED_OUT
from controller.games.events import Event
from controller.policies import CONSUMED, Policy
from controller.policies.devices import FaultedInLockout

log = logging.getLogger(__name__)

ROLES = ("dealer", "floorperson", "technician", "administrator")     # lowest to highest
CONSOLE, PANEL = "console", "dealer_panel"
ALIASES = {"progressive": "progressive_system"}       # a lock-out's device -> driver type
EVERY = (None, "controller", "outputs")                # lock-outs naming no single device


def at_least(role, minimum):
    return role in ROLES and ROLES.index(role) >= ROLES.index(minimum)


class ClearRule:
    """Who (`minimum` role) may clear a lock-out, where (`places`), after what (`check`)."""

    def __init__(self, kind, device, minimum, places, check):
        self.kind, self.device, self.minimum, self.places, self.check = \
            kind, device, minimum, places, check

    def describe(self):
        where = " or ".join({CONSOLE: "the console (`clear`)",
                             PANEL: "the dealer panel (approval)"}[p] for p in self.places)
        return "a %s or above, at %s, %s" % (self.minimum, where, self.check)

    def refusal(self, role, place):
        """Why `role` at `place` may not clear under this rule, or None."""
        if place not in self.places:
            return ("this lock-out (%s) is cleared only at %s, by a %s or above, %s"
                    % (self.kind_text(), " or ".join(self.places), self.minimum, self.check))
        if not at_least(role, self.minimum):
            return "this lock-out (%s) is cleared by a %s or above, not %r" \
                % (self.kind_text(), self.minimum, role)
        return None

    def kind_text(self):
        return {"journal": "the journal's integrity", "covered": "%s covered as out of order"
                % self.device, "every": "no single device"}.get(self.kind,
                                                                 "device %s" % self.device)


def rule_for(lockout):
    """The ClearRule of a lock-out dict (engine.lock: device, reason, section, covered?)."""
    lockout = lockout or {}
    device = lockout.get("device")
    if lockout.get("covered"):
        return ClearRule("covered", device, "floorperson", (CONSOLE, PANEL),
                         "without a self-test: %s is covered as out of order" % device)
    if device == "journal":
        return ClearRule("journal", device, "technician", (CONSOLE,),
                         "once the journal file verifies again from its first row (the check "
                         "`tablectl journal verify` runs); an edited journal never does: move "
                         "it aside and start a new one (docs/journal.md)")
    if device in EVERY:
        return ClearRule("every", device, "floorperson", (CONSOLE, PANEL),
                         "once every device passes its self-test")
    return ClearRule("device", device, "floorperson", (CONSOLE, PANEL),
                     "once %s passes its self-test" % device)


class Ticket:
    """One clear asked of the service: `lines` (what was tested and how it went), `done`
    (a threading.Event), `ok` (True cleared, False not, None pending), `reason`."""

    def __init__(self, role, place, badge=None):
        self.role, self.place, self.badge = role, place, badge
        self.lines = []
        self.ok = None
        self.reason = None
        self.event = None             # the clear the service submitted, if it got that far
        self.failed = None            # the device whose self-test failed, if one did
        self.done = threading.Event()

    def finish(self, ok, reason=None):
        self.ok, self.reason = ok, reason
        self.done.set()
        return self

    def wait(self, timeout):
        return self.done.wait(timeout)


class ClearService:
    """Runs clears for one controller and its drivers (see the module docstring).

    `journal_check()` -> (ok, text): the integrity check a journal lock-out names (default:
    the controller's journal file verified from row 1; none without a file). `quiet` the
    states in which a self-test may rewrite a GPIO device's outputs."""

    def __init__(self, ctl, drivers=None, *, journal_check=None, apply_timeout_s=5.0,
                 spawn=None, wait=None):
        """`spawn(fn, ticket)` runs the clear off the loop (a thread; returns what `join`s
        it) and `wait(done, timeout_s)` waits for the loop's answer (polling real time): a
        table on virtual time (hal_sim/virtual.py) runs them on its scheduler instead."""
        self.spawn = spawn or _on_a_thread
        self.wait = wait or poll_until
        self.ctl = ctl
        self.drivers = {} if drivers is None else drivers
        self.journal_check = journal_check or (lambda: default_journal_check(ctl))
        self.apply_timeout_s = apply_timeout_s
        self.issued = set()           # ids of the clear events this service submitted
        self.busy = None              # the Ticket being worked on
        self._lock = threading.Lock()
        ctl.clearing = self

    # ---- asking --------------------------------------------------------------------------

    def rule(self):
        return rule_for(self.ctl.model.lockout) if self.ctl.model.state == LOCKED_OUT else None

    def request(self, role, place, badge=None, wait=True):
        """Ask for a clear. Runs on the service's thread; with `wait`, blocks the caller (the
        console's thread, never the loop's) until the loop has applied or refused it."""
        ticket = Ticket(role, place, badge)
        with self._lock:
            if self.busy is not None:
                return ticket.finish(False, "a clear is already running (asked by %s at %s)"
                                     % (self.busy.role, self.busy.place))
            self.busy = ticket
        thread = self.spawn(self._run, ticket)
        if wait:
            thread.join(self.apply_timeout_s + 30)
        return ticket

    # ---- the service's thread ---------------------------------------------------------

    def _run(self, ticket):
        try:
            self._clear(ticket)
        except Exception as e:                  # noqa: BLE001 - a bug is a refused clear
            log.exception("clear service")
            ticket.finish(False, "the clear failed: %r" % (e,))
        finally:
            with self._lock:
                self.busy = None
            if not ticket.done.is_set():
                ticket.finish(False, "the clear ended without an answer")

    def _clear(self, ticket):
        ctl = self.ctl
        if ctl.model.state != LOCKED_OUT:
            return ticket.finish(False, "nothing to clear: the table is not locked out")
        lockout = dict(ctl.model.lockout or {})
        rule = rule_for(lockout)
        why = rule.refusal(ticket.role, ticket.place)
        if why:
            return ticket.finish(False, why)
        passed, drivers = self._check(rule, ticket)
        data = {"role": ticket.role, "selftest": passed, "device": rule.device,
                "at": ticket.place, "check": rule.kind}
        besides = [(n, d) for n, d in drivers if getattr(d, "device", n) != rule.device]
        if not passed and ticket.failed is not None:
            # the device that failed, which need not be the lock-out's: the refusal names it
            # (the person at the dealer panel was told the lock-out's device had failed)
            data["failed"] = ticket.failed
        if passed and besides and rule.kind == "device":
            # the other devices faulted since, which passed their self-tests here too
            data["tested"] = sorted({str(getattr(d, "device", None) or n) for n, d in besides})
        if ticket.badge is not None:
            data["badge"] = ticket.badge
        if passed:
            for _, driver in drivers:
                if hasattr(driver, "clear_fault"):
                    driver.clear_fault()
        event = Event("clear", data, "console" if ticket.place == CONSOLE else PANEL,
                      ctl.clock())
        ticket.event = event
        self.issued.add(id(event))
        ctl.submit(event)
        self._await(ticket, event)
        return ticket

    def _check(self, rule, ticket):
        """(passed, [(name, driver)] tested): the check the rule names, run now."""
        if rule.kind == "covered":
            ticket.lines.append("self-test %s: none, it is covered as out of order" % rule.device)
            return True, []
        if rule.kind == "journal":
            ok, text = self.journal_check()
            ticket.lines.append("journal check: %s%s" % ("pass" if ok else "FAIL",
                                                          "" if not text else " (%s)" % text))
            return ok, []
        drivers = self.drivers_for(rule)
        if not drivers and rule.kind == "device":
            ticket.lines.append("self-test %s: FAIL (no driver for %s on this controller: its "
                                "self-test cannot run)" % (rule.device, rule.device))
            return False, []
        drivers = drivers + self.faulted_besides(drivers)
        for name, driver in drivers:
            ok, detail = selftest(driver)
            ticket.lines.append("self-test %s: %s%s" % (name, "pass" if ok else "FAIL",
                                                        "" if ok else " (%s)" % detail))
            if not ok:
                ticket.failed = str(getattr(driver, "device", None) or name)
                return False, drivers
        return True, drivers

    def faulted_besides(self, drivers):
        """Every other device that reported a malfunction not cleared since: one that came
        while the table was already locked out for another device got no lock-out of its
        own (the first one's is in force), so this clear tests it too before play goes on
        (581.13(i)); `tablectl soak` found it resuming untested (issue 33). Its driver's
        latched fault says so in this process; the journaled state (FaultedInLockout) says
        so across a power cut, when the boot's new drivers hold none."""
        named = {name for name, _ in drivers}
        journaled = set()
        for p in self.ctl.policies:
            journaled |= {ALIASES.get(d, d) for d in getattr(p, "faulted", ())}
        return [(n, d) for n, d in sorted(self.drivers.items())
                if n not in named and (getattr(d, "last_fault", None) is not None
                                       or n in journaled
                                       or getattr(d, "device", None) in journaled)]

    def drivers_for(self, rule):
        if rule.kind == "every":
            return sorted(self.drivers.items())
        want = ALIASES.get(rule.device, rule.device)
        return [(n, d) for n, d in sorted(self.drivers.items())
                if n == want or getattr(d, "device", None) == want]

    def _await(self, ticket, event):
        ctl = self.ctl

        def answered():
            for ev, reason in list(ctl.refusals[-50:]):
                if ev is event:
                    ticket.finish(False, reason)
                    return True
            if ctl.model.state != LOCKED_OUT:
                ticket.finish(True)
                return True
            return False
        if not self.wait(answered, self.apply_timeout_s):
            ticket.finish(None, "submitted; the controller has not applied it yet (see status)")


def _on_a_thread(fn, *args):
    thread = threading.Thread(target=fn, args=args, name="tablectl-clear", daemon=True)
    thread.start()
    return thread


def poll_until(done, timeout_s, every_s=0.002):
    """True once `done()`, False when `timeout_s` of real time passed first."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if done():
            return True
        time.sleep(every_s)
    return done()


def service_for(ctl, drivers=None):
    """The controller's one ClearService (made on first use); `drivers` fill an empty one."""
    service = getattr(ctl, "clearing", None)
    if not isinstance(service, ClearService):
        return ClearService(ctl, drivers)
    if drivers and service.drivers is not drivers and not service.drivers:
        service.drivers = drivers
    return service


def selftest(driver):
    """(passed, detail) of one driver's self-test; an exception is a failure."""
    try:
        ok = bool(driver.selftest())
    except Exception as e:                  # noqa: BLE001 - a failing device is a failed test
        return False, "%s: %s" % (type(e).__name__, e)
    if ok:
        return True, None
    last = getattr(driver, "last_selftest", None) or getattr(driver, "last_fault", None) or {}
    return False, (last.get("detail") if isinstance(last, dict) else None) or "no answer"


def default_journal_check(ctl):
    """(ok, text): the controller's journal file verified from its first row, read-only."""
    store = getattr(ctl, "store", None)
    path = getattr(store, "path", None)
    if not path:
        return False, "this controller keeps no journal file to verify"
    from controller.games import model_class
    from controller.journal.live import check, integrity_beyond_chain
    from controller.journal.formats import open_journal
    from controller.journal.store import load
    try:
        # its own connection, with the controller's key: a keyed journal is checked as keyed
        verifier = open_journal(path, key=getattr(store, "key", None))
        try:
            first = next(verifier.rows(1, 2), None)
            if first is None or first["entry"] != "genesis":
                return False, "journal %s: row 1 is not the genesis row" % path
            _, problem = check(verifier, model_class(load(first)["data"]["game"]), full=True)
            # the head under the key, the anchor file, a journal the boot refused
            beyond = integrity_beyond_chain(ctl, verifier) if problem is None else None
        finally:
            verifier.close()
    except Exception as e:                  # noqa: BLE001 - a journal that cannot be read fails
        return False, str(e)
    if problem is not None:
        return False, "journal %s: first bad row %d: %s" % (path, problem.seq, problem.reason)
    if beyond:
        return False, "journal %s: %s" % (path, beyond)
    return True, "journal %s: the chain holds from row 1, every snapshot and the meters " \
        "equal their replay" % path


class SelftestOnClear(FaultedInLockout, Policy):
    """The dealer panel's approval on the loop: refused where its rule does not allow the
    panel, else deferred to the ClearService (the module docstring). A clear carrying a
    self-test is let through only if the rule allows where it came from and, for the journal's
    integrity, only if the service itself issued it."""

    def __init__(self, drivers=None, service=None):
        self.drivers = {} if drivers is None else drivers
        self._service = service
        self.results = []          # journaled state of older journals (replay.ReplaySelftest)

    def attach(self, ctl, drivers=None):
        """The service for `ctl`, sharing this policy's drivers."""
        if drivers is not None:
            self.drivers.clear()
            self.drivers.update(drivers)
        if self._service is None or self._service.ctl is not ctl:
            self._service = service_for(ctl, self.drivers)
        return self._service

    def after(self, ctl, event):
        self.note_fault(ctl, event)

    def before(self, ctl, event):
        if event.kind != "clear" or ctl.model.state != LOCKED_OUT:
            return None
        service = self._service if self._service is not None and self._service.ctl is ctl \
            else self.attach(ctl)
        rule = rule_for(ctl.model.lockout)
        if "selftest" in event.data:
            if id(event) in service.issued:
                service.issued.discard(id(event))
                return None
            place = CONSOLE if event.source == "console" else PANEL
            why = rule.refusal(event.get("role"), place)
            if why is None and rule.kind == "journal":
                why = "an integrity lock-out is cleared only through the console's `clear`, " \
                      "after its check"
            if why:
                raise ClearRefused(why)
            return None
        why = rule.refusal(event.get("role"), PANEL)
        if why:
            raise ClearRefused(why)
        if service.busy is not None:
            raise ClearRefused("a clear is already running (asked by %s at %s)"
                               % (service.busy.role, service.busy.place))
        ctl.note("clear_deferred", event.ts_ns, role=event.get("role"), device=rule.device,
                 check=rule.kind)
        service.request(event.get("role"), PANEL, badge=event.get("badge"), wait=False)
        return CONSUMED
