"""The whole table on virtual time: the real controller and the simulated devices, stepped by
one scheduler on a virtual clock. No threads, no ptys, no sleeps: time jumps to the next timer.

`tablectl sim` runs the table in real time: the drivers' reader threads on real ptys, the
simulated devices' threads, a clear service on its own thread, waits in wall-clock seconds.
That is the honest end-to-end run of those parts, and it is slow and load-sensitive. Here the
same objects run, assembled by the same `Runtime` (controller/runtime.py) from the same
configuration, and only what moves them differs:

- the serial lines are `VirtualLine`s, in-memory byte pipes with every fault a pty line has
  (delay, split, bad CRC, junk, silence, disconnect: the same `PtyPort` code applies them);
  the drivers' and devices' `Link`s run no thread (`tick_s=None`): `World` calls their
  `service()` when bytes wait or their protocol's next timer (`next_due`) is due;
- the controller's loop is not a thread: `World` runs `ctl.run_once()` between services;
- one `Universe` clock, an integer of ns, is every clock: each boot's monotonic clock (near
  zero at power-on), the table clock the journal builds on it, the wall clock (which a
  clock step moves), the GPIO factory's stamps. It moves only when nothing is left to do now,
  straight to the earliest timer (a retransmit, a heartbeat, the watchdog, a policy's
  deadline, a dealer's pause);
- the clear service's self-test runs on the scheduler (`ClearService(spawn=, wait=)`) and a
  driver's self-test waits by stepping the table (`SerialDevice.waiter`);
- the autoplay (hal_sim/autoplay.py) is the same dealer and players; its waits step the
  table (`Autoplay.run`, `sleep`, `monotonic`).

The game machines, the policies, the outputs, the journal writing real bytes to a real file
with its fsyncs, the link protocol objects and the drivers' translation of frames are the
code `tablectl run` runs. With the same seed the same frames are exchanged at the same virtual
instants, so a run replays byte for byte (the journal included) whatever the machine's load.

`VirtualTable` is one table across boots: `power_cut()` throws the process state away (see
hal_sim/power_cut.py for the disk), and `boot()` builds a new runtime on the journal the cut
left, as a table's power coming back does. controller/lab/soak.py drives it.
"""

import collections
import functools
import heapq
import os
import random

from controller import config as configuration
from controller.games import model_class
from controller.runtime import Runtime
from hal_sim.idle_plan import Plan, line_quiet
from hal_sim.virtual_line import VirtualLine

MS = 1_000_000
S = 1_000_000_000
# The wall clock at virtual time 0 (2026-06-01T12:00:00Z) and the casino's zone (UTC-4, EDT).
WALL_START_NS = 1_780_315_200 * S
UTC_OFFSET_S = -4 * 3600
POWER_ON_NS = S                 # a boot's monotonic clock reads 1 s when the controller starts
SETTLE_LIMIT = 100_000          # passes at one instant before the scheduler calls it a livelock
# A dealer's or player's action takes this long (a round of blackjack about 40 s): the table's
# timers run through it, so virtual hours mean what a real table's hours mean
DEALER_PACE_S = 1.5
# The loop's timers are ticked at least this often while time passes (and at their deadlines):
# its thread wakes every 50 ms at most on a table; nothing it does between needs more often
TICK_NS = 250 * MS
# set to 1: every heartbeat serviced one by one (World.bulk False), to compare with the bulk
STEPWISE_ENV = "TABLECTL_VIRTUAL_STEPWISE"
# World.idle_span's answers: it went through an idle span; a tick in it left work to do
SPANNED, STOPPED = 1, 2


class Livelock(RuntimeError):
    """The table keeps finding work at one instant (a bug in a timer or the scheduler)."""


class Universe:
    """Virtual time: `t` ns since the run began, moved only by the scheduler. The wall clock
    is `wall_offset + t`; a clock step (an NTP step, an RTC-less boot) moves the offset."""

    def __init__(self, wall_start_ns=WALL_START_NS):
        self.t = 0
        self.wall_offset = wall_start_ns

    def wall(self):
        return self.wall_offset + self.t


class BootClock:
    """One boot's monotonic clock: zero at power-on, moving with the universe."""

    real_time = False             # a link's thread, if one ran, must not sleep on it

    def __init__(self, universe):
        self.universe = universe
        self.origin = universe.t - POWER_ON_NS

    def __call__(self):
        return self.universe.t - self.origin


# ---- the scheduler ---------------------------------------------------------------------

class World:
    """Everything of one boot that has work to do, stepped at one instant until it is quiet,
    then moved to the earliest timer. `ends`: (link, its clock, the bytes it may read);
    `ctl` the controller (its loop's `run_once`); `tasks` what a part runs off the loop (a
    clear's self-test) on the scheduler."""

    def __init__(self, universe, bulk=True):
        self.universe = universe
        self.ends = []
        self.lines = []
        self.pairs = []                   # (line, device link, its clock, driver link, its):
                                          # pair k's ends are ends[2k] and ends[2k + 1]
        self.runtime = None               # its ctl is the controller, once booted
        self._ctl = None
        self.tasks = collections.deque()
        self.steps = 0                    # passes with work done (the summary's steps)
        self._ticked = -TICK_NS
        self.quiet_ticks = 0               # ticks the bulk path skipped (tick_is_quiet)
        # bulk: an idle table's heartbeats in bulk (idle_span), and the ends looked at only
        # when woken or due (settle, next_due); False: every end asked at every pass, every
        # heartbeat serviced -- the scheduler the bulk one is compared with
        self.bulk = bulk
        self.spans = 0                    # idle spans taken in bulk, for the bench
        self._due = []                    # each end's next timer (universe ns) or None
        self._timers = []                 # heap of (due, end), stale ones skipped
        self._woken = set()               # ends to look at in the next pass
        self._pass = None                 # the pass under way: (heap of ends, its cursor)
        # An idle line nothing else happens on, span after span (84% of a line's spans in
        # a game), is carried by its plan alone: `_lazy`, pair k -> the Plan whose beats
        # run on from span to span, its ends' state left as it was when the plan was made.
        # Its counts are paid when someone looks (_look: a Link's counters or decoder, the
        # line's bytes), and it is brought up to date and no longer carried before it is
        # used (_touch: a service, a send, a handshake, a close, a change of the line's
        # fault settings) or the scheduler asks one of its ends whether it has work.
        self._lazy = {}
        self._span_done = None            # in an idle span: the last instant gone through
        self._looked = None               # ... and the lines looked at since (_touch)

    @property
    def ctl(self):
        # (kept once the runtime has made it: a boot's runtime makes one controller, and
        # the scheduler asks for it at every pass and tick)
        ctl = self._ctl
        if ctl is None:
            ctl = self._ctl = getattr(self.runtime, "ctl", None)
        return ctl

    def add_line(self, line, device_link, device_clock, driver_link, driver_clock):
        self.lines.append(line)
        self.pairs.append((line, device_link, device_clock, driver_link, driver_clock))
        if self.bulk:
            k = len(self.pairs) - 1
            touch, look = functools.partial(self._touch, k), functools.partial(self._look, k)
            line.before_use = device_link.before_use = driver_link.before_use = touch
            line.before_look = device_link.before_look = driver_link.before_look = look
        for link, clock, device_side in ((device_link, device_clock, True),
                                         (driver_link, driver_clock, False)):
            i = len(self.ends)
            self.ends.append((link, clock, line, device_side))
            self._due.append(None)
            wake = functools.partial(self._wake, i)
            if self.bulk:
                link.on_wake = wake
                if device_side:
                    line.wake_device = wake
                else:
                    line.wake_driver = wake
            self._woken.add(i)

    # -- one instant -----------------------------------------------------------------------

    def _has_work(self, link, clock, line, device_side, now_u):
        if line.closed:
            return False
        if line._pending and line._pending[0][0] <= line.clock():
            return True
        if (line.to_device if device_side else line.to_driver):
            return True
        now = clock()
        due = link.protocol.next_due()          # (one thread: the Link's lock guards nothing)
        if due is not None and due <= now:
            return True
        due = link.on_due() if link.on_due is not None else None
        return due is not None and due <= now

    def settle(self):
        """Run everything that has work at this instant until nothing has: passes of the
        tasks, every end with work (in their order), the loop."""
        ends_pass = self._pass_woken if self.bulk else self._pass_all
        for _ in range(SETTLE_LIMIT):
            worked = False
            while self.tasks:
                self.tasks.popleft()()
                worked = True
            if ends_pass(self.universe.t):
                worked = True
            ctl = self.ctl
            if ctl is not None and not ctl.idle():
                ctl.run_once()
                worked = True
            if not worked:
                return
            self.steps += 1
        raise Livelock("the table found work %d times at virtual time %d ns"
                       % (SETTLE_LIMIT, self.universe.t))

    def _pass_all(self, now_u):
        """The stepwise pass: every end asked, in order."""
        worked = False
        for link, clock, line, device_side in self.ends:
            if self._has_work(link, clock, line, device_side, now_u):
                link.service()
                worked = True
        return worked

    # -- the ends looked at only when woken or due ------------------------------------------
    #
    # The stepwise settle asks every end at every pass whether it has work. An end's work
    # can only come from bytes arriving for it (the line wakes it, as select() wakes a
    # reader thread), from its link's timers changed by a send, a handshake begun or a
    # close (Link.on_wake, where the thread is nudged), from its own service, or from time
    # reaching its next timer (`_due`, the heap `_timers`). So a pass asks only the ends
    # woken or due, in the same order, an end woken during a pass being asked in it if it
    # comes later (as the scan would reach it) and in the next one otherwise; every end
    # serviced is asked again in the next pass, as the scan asks it.

    def _wake(self, i):
        run = self._pass
        if run is not None and i > run[1]:
            heapq.heappush(run[0], i)
        else:
            self._woken.add(i)

    def _end_due(self, i):
        """End i's next timer in universe time (its protocol's, its on_due, the bytes on
        its line not yet due), or None."""
        link, clock, line, device_side = self.ends[i]
        if line.closed:
            return None
        t = self.universe.t
        now = clock()
        due = None
        for d in (link.protocol.next_due(), link.on_due() if link.on_due is not None else None):
            if d is not None and (due is None or t + max(0, d - now) < due):
                due = t + max(0, d - now)
        if line._pending:
            d = t + max(0, line._pending[0][0] - line.clock())
            if due is None or d < due:
                due = d
        return due

    def _set_due(self, i):
        """End i's next timer into the heap, if it changed."""
        due = self._end_due(i)
        if due != self._due[i]:
            self._due[i] = due
            if due is not None:
                heapq.heappush(self._timers, (due, i))

    def _pass_woken(self, now_u):
        """The pass of the ends woken or due, in order (see above)."""
        ends, timers, due_of = self.ends, self._timers, self._due
        woken = self._woken
        while timers and timers[0][0] <= now_u:
            due, i = heapq.heappop(timers)
            if due_of[i] == due:
                due_of[i] = None                  # looked at now; _set_due puts it back
                woken.add(i)
        if not woken:
            return False
        worked = False
        lazy = self._lazy
        run = self._pass = [sorted(woken), -1]
        woken.clear()
        order = run[0]
        try:
            while order:
                i = heapq.heappop(order)
                if i <= run[1]:
                    continue                      # woken twice in this pass
                run[1] = i
                if lazy and i >> 1 in lazy:
                    self._touch(i >> 1)           # its plan applied: the end as it is now
                link, clock, line, device_side = ends[i]
                if self._has_work(link, clock, line, device_side, now_u):
                    link.service()
                    worked = True
                    woken.add(i)                  # asked again in the next pass
                self._set_due(i)
        finally:
            self._pass = None
        return worked

    # -- time --------------------------------------------------------------------------

    def next_due(self):
        """The universe time of the earliest timer, or None."""
        if self.bulk:
            timers, due_of = self._timers, self._due
            while timers and (due_of[timers[0][1]] != timers[0][0]
                              or self.ends[timers[0][1]][2].closed):
                heapq.heappop(timers)             # stale, or its line cut
            due = [timers[0][0]] if timers else []
        else:
            due = [d for d in map(self._end_due, range(len(self.ends))) if d is not None]
        ctl = self.ctl
        if ctl is not None:
            t = self.universe.t
            now = ctl.clock()
            for p in ctl.policies:
                d = p.deadline()
                if d is not None and d > now:     # one past was ticked at its instant
                    due.append(t + d - now)
        return min(due) if due else None

    def advance(self, longest_ns):
        """Do what is due now; if nothing was, jump to the next timer (at most `longest_ns`
        on) and tick the loop there: one step of a wait (Autoplay.run)."""
        steps = self.steps
        self.settle()
        if self.steps != steps:
            return
        nxt = self.next_due()
        end = self.universe.t + max(1, int(longest_ns))
        self.universe.t = end if nxt is None or nxt > end else max(nxt, self.universe.t + 1)
        self.tick()
        self.settle()

    def tick(self):
        """The loop's timers at this instant, as its thread ticks them (at least every
        TICK_NS, and at each policy's deadline); not at every heartbeat of every line."""
        ctl = self.ctl
        if ctl is None:
            return
        t = self.universe.t
        if t - self._ticked < TICK_NS:
            now = ctl.clock()
            if not any(d is not None and d <= now for d in
                       (p.deadline() for p in ctl.policies)):
                return
        self._ticked = t
        if self.bulk and ctl.tick_is_quiet(ctl.clock()):
            ctl.skip_quiet_tick()                 # nothing it would do (tick_is_quiet)
            self.quiet_ticks += 1
            return True
        ctl.run_once()
        return True

    def run_for(self, seconds):
        """Step the table through `seconds` of virtual time (Autoplay.sleep)."""
        end = self.universe.t + int(seconds * S)
        while True:
            self.settle()
            if self.bulk and self.idle_span(end) == STOPPED:
                continue                  # a tick left work at its instant: settle there
            nxt = self.next_due()
            if nxt is None or nxt > end:
                self.universe.t = max(self.universe.t, end)
                self.tick()
                self.settle()
                return
            self.universe.t = max(nxt, self.universe.t + 1)
            self.tick()

    # -- an idle table's heartbeats in bulk -------------------------------------------------

    def idle_span(self, end):
        """When nothing but heartbeats can happen up to `end` or before the next other timer (a
        policy's deadline, a watchdog), move through the instants the heartbeats fall at
        as the stepwise scheduler does -- the clock set to each, the loop ticked there
        (`tick`) -- without servicing the lines: each line is carried past the heartbeats
        by its plan (hal_sim/idle_plan.py: its ends brought to the state servicing them
        would have left, the line's bytes with them, when someone looks or uses it). Idle: no task, the controller's queue
        empty, and on every line that is not cut both ends quiet (connected, nothing to
        send or in flight, no partial frame), no byte on the wire either way, no silence
        (a delayed or split line's beats arrive later, at instants of their own) and no
        driver's rejections batched. If a
        tick leaves anything to do, it stops at that instant with the heartbeats before
        it done, and the caller's settle() goes on there, as it would have. Returns
        0 when it did not move time, SPANNED when it went through them (nothing is left
        to do at the instant it stopped at), STOPPED when a tick left work. A quiet
        line with no delay or split stays carried by its plan (`_lazy`), span after span,
        until something uses it (_touch; a look, _look, only pays its counts; inside a span,
        either goes up to the span's last instant before the tick); a delayed or split one
        is advanced at the span's end (Plan.advance). The proof that it is the stepwise
        scheduler's result is tests/sim/test_virtual_bulk.py (both ends' complete state,
        the lines looked at between rounds and by ticks inside spans, and a soak's journal
        byte for byte)."""
        if self.tasks or self._woken:
            return 0
        ctl = self.ctl
        if ctl is not None and not ctl.idle():
            return 0
        t = self.universe.t
        # `end` itself is run_for's: at it the stepwise scheduler ticks, settles (the beats
        # due there) and ticks again; the span ends with the first two, run_for does the rest
        horizon = end + 1
        if ctl is not None:
            now = ctl.clock()
            for p in ctl.policies:
                d = p.deadline()
                if d is not None and d > now and t + d - now < horizon:
                    horizon = t + d - now
        plans = []
        lazy = self._lazy
        for k, (line, dev, dev_clock, drv, drv_clock) in enumerate(self.pairs):
            plan = lazy.get(k)
            if plan is not None:
                plans.append(plan)        # idle since its plan was made: nothing to ask
                continue
            if line.closed:
                continue                  # a cut cable: the scheduler leaves its ends be
            if not line_quiet(line, dev, drv):
                return 0
            plan = Plan(line, dev.protocol, drv.protocol, dev_clock() - t, drv_clock() - t,
                         2 * k)
            if not plan.ok:
                return 0
            plans.append(plan)
        if not plans or horizon <= t + 1:
            return 0
        # the watchdogs: an end whose peer's next heartbeat (or the one after, for an
        # interval above the timeout) comes too late fires at its timeout: stop before it.
        # The device end hears the driver's beats (nb, nb+ib, ...), the driver end the
        # device's (na, na+ia, ..., after the line's delay and split)
        for plan in plans:
            timeout = plan.a.heartbeat_timeout_ns
            fires = plan.ha + timeout + 1
            first = plan.nb
            if first < fires and first < horizon:
                fires = first + timeout + 1 if plan.ib > timeout else horizon
            if fires < horizon:
                horizon = fires
            timeout = plan.b.heartbeat_timeout_ns
            fires = plan.hb + timeout + 1
            first = plan.na + plan.delay + plan.split
            if first < fires and first < horizon:
                fires = first + timeout + 1 if plan.ia > timeout else horizon
            if fires < horizon:
                horizon = fires
        instants = set()
        driver_beats = set()
        for plan in plans:
            instants.update(range(plan.na, horizon, plan.ia))
            for arriving in plan.arrivals(horizon):     # a delayed or split line's beats
                instants.update(arriving)
            beats = range(plan.nb, horizon, plan.ib)
            instants.update(beats)
            driver_beats.update(beats)
        if not instants:
            return 0
        # every quiet line is carried by its plan from here (a line someone looks at during
        # the span is brought up to the last instant gone through: _touch, `_span_done`)
        for plan in plans:
            if plan.done is None and not (plan.delay or plan.split):
                plan.done = t
                lazy[plan.index >> 1] = plan
        stop = None
        done = self._span_done = t
        self._looked = []
        try:
            for u in sorted(instants):
                self.universe.t = u
                if self.tick() and not self._still_idle():
                    stop = u
                    break
                if self._looked:                  # used and left quiet: carried on
                    self._carry_again(plans)
                done = self._span_done = u
                # settle()'s passes at u: the beats sent or arriving, then the devices'
                # reading of the drivers' (their ends come first in each pair)
                self.steps += 2 if u in driver_beats else 1
        finally:
            if self._looked:                      # used at the last tick, or only read
                self._carry_again(plans)
            self._span_done = self._looked = None
            carried = []
            for plan in plans:
                if plan.delay or plan.split:
                    if done > t:
                        plan.advance(done)        # beats on the wire: the line now
                        carried.append(plan)
                elif lazy.get(plan.index >> 1) is plan:
                    plan.run_to(done)
                    carried.append(plan)
                else:                             # used during the span: as it is now
                    self._set_due(plan.index)
                    self._set_due(plan.index + 1)
            if done > t:
                self.spans += 1
                self._beats_due(carried)          # their heartbeats moved on
        return SPANNED if stop is None else STOPPED

    def _carry_again(self, plans):
        """The lines a tick in an idle span used (brought up to the instant before it,
        _touch) and left quiet, carried by plans of their own from the span's last instant,
        so a second use in the span finds their beats since."""
        looked, self._looked = set(self._looked), []
        for n, plan in enumerate(plans):
            k = plan.index >> 1
            if k in looked and k not in self._lazy and not (plan.delay or plan.split):
                line, dev, _, drv, _ = self.pairs[k]
                if line_quiet(line, dev, drv):
                    plan = plans[n] = Plan(line, plan.a, plan.b, plan.oa, plan.ob, plan.index)
                    plan.done = self._span_done
                    self._lazy[k] = plan

    def _beats_due(self, plans):
        """Each end's next timer after a span, as _set_due reckons it for a quiet end (its
        heartbeat or its watchdog), or by _set_due where beats are still on the wire."""
        due_of, timers = self._due, self._timers
        for plan in plans:
            i = plan.index
            if plan.done is None:                 # a delayed or split line, advanced: its
                self._set_due(i)                  # ends as they are now
                self._set_due(i + 1)
                continue
            due = min(plan.na, plan.ha + plan.a.heartbeat_timeout_ns + 1)
            if due != due_of[i]:
                due_of[i] = due
                heapq.heappush(timers, (due, i))
            due = min(plan.nb, plan.hb + plan.b.heartbeat_timeout_ns + 1)
            if due != due_of[i + 1]:
                due_of[i + 1] = due
                heapq.heappush(timers, (due, i + 1))

    def _touch(self, k):
        """Pair k brought up to date before it is used (a service, a send, a handshake, a
        close, a change of the line's delay, split, silence or cable): its plan's beats
        applied to its ends' timers and their counts paid (Plan.apply, Plan.pay), and the
        line no longer carried. Inside an idle span, up to the span's last instant."""
        plan = self._lazy.pop(k, None)
        if plan is not None:
            if self._span_done is not None:
                plan.run_to(self._span_done)
                self._looked.append(k)
            plan.apply(plan.done)
            plan.pay(plan.done)

    def touch_all(self):
        """Every line brought up to date and no longer carried (_touch): for a reader of the
        ends' state that goes to `Link.protocol` itself rather than through the Link
        (tests/sim/test_virtual_bulk.py compares it whole with the stepwise table's)."""
        for k in list(self._lazy):
            self._touch(k)

    def _look(self, k):
        """Pair k's counts brought up to date before they are read (a Link's counters or
        decoder, the line's bytes), the line still carried by its plan (Plan.pay): the
        console's screen and a soak's checks read every link's counters at every card."""
        plan = self._lazy.get(k)
        if plan is not None:
            plan.pay(plan.done if self._span_done is None else self._span_done)

    def _still_idle(self):
        """After a tick in an idle span: still nothing but heartbeats to do. A tick runs
        the loop, not the lines: what it can start is an input queued, a task, or a message
        sent (or a handshake begun) on a link, which wakes that end (Link.on_wake); the
        span began with no end woken (settle had just found none with work)."""
        return not self.tasks and not self._woken and (self.ctl is None or self.ctl.idle())

    def wait(self, done, timeout_s):
        """Step the table until `done()` or `timeout_s` of virtual time passed; done()."""
        end = self.universe.t + int(timeout_s * S)
        while not done():
            if self.universe.t >= end:
                return done()
            self.advance(end - self.universe.t)
        return True

    def spawn(self, fn, *args):
        """Run `fn(*args)` on the scheduler, off the loop's step (a clear's self-test)."""
        done = []

        def task():
            try:
                fn(*args)
            finally:
                done.append(True)
        self.tasks.append(task)
        return _Joinable(self, done)


class _Joinable:
    def __init__(self, world, done):
        self.world, self.done = world, done

    def join(self, timeout=None):
        self.world.wait(lambda: bool(self.done), timeout or 60)


# ---- the device set ------------------------------------------------------------------

def _simulated_devices():
    from hal_sim.simulation import SimulatedDevices
    return SimulatedDevices


class VirtualDevices(_simulated_devices()):
    """The simulated table's devices on virtual lines, for the one Runtime: the same
    simulators and drivers as `tablectl sim`'s SimulatedDevices, no pty and no thread."""

    def __init__(self, game, faults, model, world, clock, rng):
        super().__init__(game, faults, model)
        self.world, self.device_clock, self.rng = world, clock, rng

    def open(self, clock, on_rejected):
        from drivers.devices import SERIAL, build_devices
        from hal_sim.devices import SimHardware
        sim = SimHardware(self.names, gpio_clock=clock, clock=self.device_clock)
        lines = {}
        for name, device in sim.serial.items():
            device.tick_s = None
            device.boot_id = self.rng.getrandbits(31) | 1
            lines[name] = VirtualLine(self.device_clock, name)
            device.start(lines[name])
        self.sim = sim
        dev_cfg = self.configure(sim.config())
        serial = {n: e for n, e in dev_cfg.items() if n in lines}
        drivers = build_devices({n: e for n, e in dev_cfg.items() if n not in lines},
                                sim.factory, clock=clock, on_rejected=on_rejected)
        # the drivers' own boot ids from the seed too (a table's are random): their HELLOs
        # are bytes on the lines, which replay
        driver_ids = random.Random("driver-boot-ids:%s" % self.rng.getrandbits(32))
        for name, entry in serial.items():
            entry = dict(entry)
            entry.pop("url")
            cls = SERIAL[entry.pop("type", name)]
            drivers[name] = cls(name, port=lines[name].driver_end, clock=clock,
                                on_rejected=on_rejected, tick_s=None,
                                boot_id=driver_ids.getrandbits(31) | 1, **entry)
            drivers[name].waiter = self.world.wait
            drivers[name].stop = self._stopper(drivers[name])
        self.lines, self.drivers = lines, drivers
        return sim.factory, drivers

    def _stopper(self, driver):
        """The driver's stop on the shutdown path: what it still has to send (the display's
        safe text) goes out with the table stepped, not by its own real-time drain, which
        would service its end alone and wait out its timeout."""
        stop = driver.stop

        def stop_here(drain_ms=200):
            link = driver.link
            if link is not None and link.connected:
                self.world.wait(lambda: link.idle, drain_ms / 1000)
            stop(drain_ms=0)
        return stop_here

    def connected(self, drivers):
        """Every line into the scheduler, then step until each handshake completed."""
        for name, line in self.lines.items():
            self.world.add_line(line, self.sim.serial[name].link, self.device_clock,
                                drivers[name].link, drivers[name].clock)
        if not self.world.wait(lambda: all(drivers[n].connected for n in self.lines), 5.0):
            raise RuntimeError("no handshake with the simulated devices: %s" % ", ".join(
                n for n in self.lines if not drivers[n].connected))

    def close(self):
        """Nothing to join: no thread ran. The factory's lines to their safe values."""
        if self.sim is not None:
            sim, self.sim = self.sim, None
            for line in self.lines.values():
                line.close()
            if sim.factory is not None:
                sim.factory.close()


# ---- one table across boots ----------------------------------------------------------------

class VirtualTable:
    """One simulated table on virtual time, journaled at `journal`, across power cycles.

    `boot()` assembles it (Runtime with the virtual device set and clocks), resumes as
    `tablectl sim` does and returns the boot report; `play_round()` plays one round with the
    autoplay; `abandon()` throws the process away without its shutdown path (a power cut);
    `close()` is the shutdown path. `faults`: [(device, kind, rate)] as `tablectl sim
    --fault`; `on_boot(table)` runs after each boot (the soak attaches its checks there)."""

    def __init__(self, game, seed, journal, faults=(), on_boot=None, universe=None,
                 pace_s=DEALER_PACE_S, bulk=None, key=None):
        from hal_sim.simulation import game_config
        self.key = key                  # the journal key (bytes), as `run --key-file` gives
        # the idle lines' heartbeats in bulk (World.idle_span) unless bulk=False or
        # TABLECTL_VIRTUAL_STEPWISE=1: the stepwise scheduler, kept to compare with
        self.bulk = (os.environ.get(STEPWISE_ENV, "") not in ("1", "yes", "true")
                     if bulk is None else bool(bulk))
        self.game, self.seed, self.journal = game, seed, journal
        self.faults = list(faults)
        self.universe = universe or Universe()
        self.on_boot = on_boot
        self.pace_s = pace_s
        self.cls = model_class(game)
        self.cfg = configuration.validate(dict(game_config(game, self.faults)[0], game=game),
                                          self.cls)
        self.boots = 0
        self.runtime = self.world = self.autoplay = self.devices = None
        self.stats = collections.Counter()

    ctl = property(lambda self: self.runtime.ctl)

    def boot(self):
        from controller.clearing import ClearService
        from hal_sim.simulation import resume
        self.boots += 1
        tag = "%s:%d" % (self.seed, self.boots)
        world = World(self.universe, bulk=self.bulk)
        mono = BootClock(self.universe)
        devices = VirtualDevices(self.game, self.faults, self.cls(self.cfg), world, mono,
                                 random.Random("boot-ids:%s" % tag))
        runtime = Runtime(self.cfg, devices, journal=self.journal, loop=False, key=self.key,
                          clocks=dict(clock=mono, wall=self.universe.wall,
                                      boot_id=lambda: "virtual-boot-%d" % self.boots,
                                      utc_offset=lambda wall_ns: UTC_OFFSET_S))
        self.runtime, self.world, self.devices = runtime, world, devices
        world.runtime = runtime
        runtime.start()
        # the clear's self-test on the scheduler, not on a thread of its own
        ClearService(runtime.ctl, runtime.drivers, spawn=world.spawn, wait=world.wait)
        ap = VirtualAutoplay(runtime.ctl, devices.sim, runtime.drivers, tag, self.faults, world,
                             self.pace_s)
        self.autoplay = ap
        runtime.ctl.capture_rng()
        if self.on_boot is not None:
            self.on_boot(self)
        resume(runtime.ctl, ap, world.settle)
        return runtime.ctl.boot_report

    def play_round(self):
        return self.autoplay.play_round()

    def close(self):
        """The runtime's one shutdown path (what a clean stop commits, it commits)."""
        if self.runtime is not None:
            runtime, self.runtime = self.runtime, None
            return runtime.close()
        return []


def _autoplay():
    from hal_sim.autoplay import Autoplay
    return Autoplay


from controller.games.engine import LOCKED_OUT  # noqa: E402
from hal_sim.autoplay import Stuck  # noqa: E402


class VirtualAutoplay(_autoplay()):
    """The autoplay's dealer, players and floorperson, waiting in virtual time; and one more
    device fault, `replaced`: the dealing shoe or the card reader swapped for another unit
    (a new boot of the device) in the middle of a round, at the card it was to give."""

    def __init__(self, ctl, sim, drivers, seed, faults, world, pace_s=DEALER_PACE_S):
        super().__init__(ctl, sim, drivers, seed, faults)
        self.world = world
        self.pace_s = pace_s
        self.unit_rng = random.Random("replaced:%s" % seed)
        self.monotonic = lambda: world.universe.t / S
        self.sleep = world.run_for
        self.run = lambda left_s: world.advance(left_s * S)

    def act(self, do, source, events=1, timeout_s=None):
        """A person's pace: `pace_s` of virtual time before each action at a device, the
        table's timers (heartbeats, the watchdog, policies' deadlines) running through it."""
        if self.pace_s:
            self.world.run_for(self.pace_s)
        try:
            return super().act(do, source, events, timeout_s)
        except Stuck:
            # a line fault injected on a device whose link still holds that fault latched
            # from before (it came while the table was locked out for another device, whose
            # clear did not test this one): the driver reports a fault once, so no answer
            # comes. The table plays on; the soak's `clear` check names that device.
            link = getattr(self.drivers.get(source), "link", None)
            if link is not None and link.faults and self.model.state != LOCKED_OUT:
                self.stats["latched_faults"] = self.stats.get("latched_faults", 0) + 1
                return False
            raise

    def past_post(self):
        """The chip pushed on a sensor (or keyed) right at the press, within the moment the
        table takes to close wagering: no pace before it, as a past-poster does not wait."""
        pace, self.pace_s = self.pace_s, 0
        try:
            super().past_post()
        finally:
            self.pace_s = pace

    def floorperson(self):
        """Called to a lock-out, the floorperson has every line of the table repaired, not
        only the one of the device locked out: with faults drawn at random two can be
        broken at once, and the approval itself goes through the dealer panel's line."""
        for sim in self.sim.serial.values():
            sim.inject("none")
        super().floorperson()

    def replaced(self, device):
        """True if the device was replaced now (its driver's fault awaited)."""
        if not self.fire(device, "replaced"):
            return False
        sim = self.sim.serial[device]

        def swap():
            # inject("restart") with the new unit's boot id from the seed, not os.urandom:
            # the driver journals both ids in its fault
            sim.link.boot_id = self.unit_rng.getrandbits(31) | 1
            sim.link.begin_handshake()
        self.act(swap, device)
        return True

    def deal(self):
        if not self.replaced("shoe"):
            super().deal()

    def peek(self):
        if not self.replaced("card_reader"):
            super().peek()
