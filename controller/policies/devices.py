"""The card reader's daily inspection (581.2(d)), the controller side of 581.13(i).

The floorperson inspects the card reader at the beginning of each gaming day; the dealer
panel records it as Event("irregularity", {"kind": "reader_inspected", "role":
"floorperson", "passed": bool}) (no device sees it, and the game has no use for it: this
policy consumes it). Until the current gaming day's inspection has passed, Double Attack
Blackjack deals no round: wagering stays locked out and "no more bets" is refused. A round
already being played when the day turns plays to its end. A failed inspection is a reader
malfunction: the table locks out (581.13(i)) until a floorperson clears it after a passing
self-test, and the inspection is recorded again.

The gaming day is counted on the injected clock: `wall_offset_ns` maps its monotonic ns to
wall-clock ns (taken once at start-up: time.time_ns() - time.monotonic_ns()), and the day
begins `day_start_ns` after local midnight ([controller] gaming_day_start, default 06:00).
The stub counts, shuffler counts and device malfunctions of each chapter are the games';
their lock-outs reach the outputs through the controller's state-derived outputs.
"""

from controller.errors import InspectionRequired
from controller.games.engine import CLEARING_ROLES, LOCKED_OUT, WAGERS_OPEN
from controller.policies import CONSUMED, Policy
from controller.units import DAY_NS  # noqa: F401 - the gaming day's length (others import it)
from controller.units import day_start_ns as default_day_start
from controller.units import gaming_day_of

SECTION = "581.2(d)"


class ReaderInspection(Policy):
    def __init__(self, day_start_ns=None, wall_offset_ns=0):
        self.day_start_ns = default_day_start() if day_start_ns is None else day_start_ns
        self.wall_offset_ns = wall_offset_ns
        self.inspected_day = None
        self.inspections = []        # {"day", "role", "passed", "ts_ns"}

    def on_clock(self, local_offset_ns, known=True):
        """A boot's clock record: table time + this is the casino's local time, so a gaming
        day begins at `day_start_ns` past local midnight (journal/clock.py). When the time
        the power was off is unknown, so is the gaming day: the inspection is due again."""
        self.wall_offset_ns = local_offset_ns
        if not known:
            self.inspected_day = None

    def gaming_day(self, ts_ns):
        return gaming_day_of(ts_ns, self.wall_offset_ns, self.day_start_ns)

    def offers(self, ctl):
        """The gaming day it counts (its local offset 0 until a clock record maps table time
        to local time) and the inspection's state, for the console's `inspections`, `meters`
        and the day its figures count from."""
        return {"gaming_day": {"start_ns": self.day_start_ns,
                               "local_offset_ns": self.wall_offset_ns},
                "reader_inspection": {
                    "section": SECTION, "inspected_today": self._done(ctl.clock()),
                    "count": len(self.inspections),
                    "recent": [dict(i) for i in list(self.inspections)[-5:]]}}

    def before(self, ctl, event):
        if event.kind == "irregularity" and event.get("kind") == "reader_inspected":
            return self._record(ctl, event)
        if event.kind == "no_more_bets" and ctl.model.state == WAGERS_OPEN and \
                not self._done(event.ts_ns):
            raise InspectionRequired("no round is dealt: the card reader has not been inspected "
                                     "this gaming day (%s)" % SECTION)
        return None

    def _record(self, ctl, event):
        role = event.get("role")
        if role not in CLEARING_ROLES:
            raise InspectionRequired("the card reader is inspected by the floorperson, not %r "
                                     "(%s)" % (role, SECTION))
        passed = event.get("passed") is True
        day = self.gaming_day(event.ts_ns)
        self.inspections.append({"day": day, "role": role, "passed": passed,
                                 "ts_ns": event.ts_ns})
        ctl.note("reader_inspection", event.ts_ns, day=day, passed=passed, section=SECTION)
        if passed:
            self.inspected_day = day
        else:
            self.inspected_day = None
            ctl.model.lock("the card reader failed its daily inspection: no dealing until it "
                           "is repaired or replaced", "581.13(i)", "card_reader")
        return CONSUMED

    def _done(self, ts_ns):
        return self.inspected_day == self.gaming_day(ts_ns)

    def accepting(self, ctl):
        return self._done(ctl.clock())

    def attention(self, ctl):
        return not self._done(ctl.clock())

    def quiet_until(self, ctl):
        """The next gaming day's first instant: the inspection done today no longer is."""
        return (self.gaming_day(ctl.clock()) + 1) * DAY_NS - self.wall_offset_ns + \
            self.day_start_ns


class FaultedInLockout:
    """The devices that reported a malfunction during the lock-out in force: a mixin of the
    clear's policy (controller/clearing.py's SelftestOnClear, and the replay's stand-in for
    it), whose state is journaled in each snapshot and rebuilt by the boot's replay.

    A malfunction that comes while the table is already locked out gets no lock-out of its
    own, yet the clear must test that device too before play goes on (581.13(i)). A driver's
    latched fault says so only until the power goes: the drivers a boot makes hold none, so
    `tablectl soak` saw a device that failed its self-test before a power cut resume play
    untested after it (blackjack seed 1 step 1182, issue 33). The journal holds what faulted;
    this keeps it as the table's state. It is emptied as soon as the table is not locked out
    (the clear that ended the lock-out tested them all), and is left out of a snapshot while
    empty, so journals written before it verify as they did."""

    faulted = frozenset()        # the class's: an instance attribute only while not empty

    def note_fault(self, ctl, event):
        """After each input applied (Policy.after): keep the devices faulted in a lock-out."""
        if ctl.model.state != LOCKED_OUT:
            if "faulted" in vars(self):
                del self.faulted
            return
        if event.kind == "fault" and event.get("device"):
            self.faulted = set(self.faulted) | {str(event.get("device"))}
