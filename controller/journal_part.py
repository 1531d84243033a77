"""The journal part the loop holds: the one declared interface between the loop and its journal.

TableController (controller/table.py) does not know how its steps are kept. It holds one
`JournalPart` (`ctl.journal`) and calls the hooks below at the seams of a step; what a part
does there is its own. Two parts implement it:

    MemoryJournal   (here) what a table without a journal file keeps: the entries in memory,
                    every other hook doing nothing; a replay's controller holds one too
    DurableJournal  (controller/journal/live.py) every input committed to a JournalStore
                    before it is applied, what a step derives committed with the next input,
                    the snapshot and anchor at a round's end, the boot checks' lock-out

The hooks, in the order a loop calls them:

    attach(ctl)                 once, when the loop is built around the part
    part(entry)                 an input (an Event, or a Record that is one: a draw, a
                                self-test) before the loop applies it; a Record the loop
                                derived (a refusal, a note) after
    stepped(batched)            after each input's step; `batched`: more of the same batch
                                follow (a part may hold what the step derived until the next
                                input's commit)
    step_record(kind, data)     a step the controller takes on its own (void a round the power
                                cut, the integrity lock-out), journaled before it is applied
    tick_clock(now) / ticked(done)  around the policies' timers: the clock every stamp of
                                the tick reads (None: the table clock as it runs), then the
                                tick's end (`done`: False when a timer raised)
    started()                   after the loop's thread started
    capture_rng()               the game's random draws journaled before they are used
    commit_pending()            what the part still holds, on the disk now (the shutdown)
    close()                     the part's files and locks released

and what a caller may read of it: `store` (the JournalStore, or None), `meters` (the
regulation meters as committed last, or None), `boot_report` (the boot checks', or None).

The part is also the in-memory tail of what was journaled (a list of Events and Records, with
`records(kind)`): the console's screens and the tests read it, whatever the part keeps beside.
This module is the loop's layer: it imports nothing of the journal package.
"""

import abc


class Record:
    """A journal entry the controller writes itself (refusals, holds, warnings)."""

    __slots__ = ("kind", "data", "ts_ns")

    def __init__(self, kind, data, ts_ns):
        self.kind, self.data, self.ts_ns = kind, data, ts_ns

    def to_json(self):
        return {"record": self.kind, "data": self.data, "ts_ns": self.ts_ns}

    def __repr__(self):
        return "Record(%r, %r)" % (self.kind, self.data)


class Tail(list):
    """A list that, with a `limit`, keeps only about its last `limit` items (trimmed a quarter
    at a time): what a table keeps in memory, when it runs for months, of what it journals."""

    def __init__(self, limit=None):
        super().__init__()
        self.limit = limit

    def append(self, item):
        super().append(item)
        if self.limit is not None and len(self) > self.limit + self.limit // 4:
            del self[:len(self) - self.limit]


class JournalPart(Tail, abc.ABC):
    """The declared hooks (see the module docstring); a part that leaves one out is refused
    when made. A part serves one loop: `attach` is called once, from TableController.__init__."""

    store = None            # the JournalStore the part writes, or None
    meters = None           # {name: cents} as committed last, or None
    boot_report = None      # what the boot checks found, or None

    ctl = None

    def __new__(cls, *args, **kwargs):
        # ABCMeta's refusal lives in object.__new__, which a list subclass does not reach
        if cls.__abstractmethods__:
            raise TypeError("can't instantiate abstract class %s without the hooks %s"
                            % (cls.__name__, ", ".join(sorted(cls.__abstractmethods__))))
        return super().__new__(cls)

    def attach(self, ctl):
        """The loop this part journals for (once)."""
        if self.ctl is not None and self.ctl is not ctl:
            raise RuntimeError("a journal part serves one controller")
        self.ctl = ctl

    def records(self, kind):
        """The Records of `kind` still in memory, in order."""
        return [e for e in self if isinstance(e, Record) and e.kind == kind]

    @abc.abstractmethod
    def __call__(self, entry):
        """An entry journaled: an input before it is applied, a derived Record after."""

    @abc.abstractmethod
    def stepped(self, batched):
        """One input's step is over (`batched`: more inputs of its batch follow)."""

    @abc.abstractmethod
    def step_record(self, kind, data, ts_ns=None):
        """A step the controller takes on its own, journaled before it is applied."""

    @abc.abstractmethod
    def tick_clock(self, now):
        """A tick begins at table time `now`: the clock `ctl.clock` is during it (None: the
        table clock itself)."""

    @abc.abstractmethod
    def ticked(self, done):
        """The tick begun by `tick_clock` is over: the policies' timers ran (`done`), or one
        raised (False: the part forgets the tick, the exception goes on)."""

    def quiet_tick(self, now):
        """Whether a tick at `now` with nothing else to do would leave this part as it is
        (nothing to commit, no idle flush due): a scheduler that may skip such a tick
        (hal_sim/virtual.py's bulk path) asks it. Not known: False."""
        return False

    @abc.abstractmethod
    def started(self):
        """The loop's thread started."""

    @abc.abstractmethod
    def capture_rng(self):
        """Each draw of the game's random number generator journaled before it is used."""

    @abc.abstractmethod
    def commit_pending(self):
        """What the part still holds, kept now (the loop has stopped or runs no more)."""

    @abc.abstractmethod
    def close(self):
        """The part's files, witnesses and locks released."""


class MemoryJournal(JournalPart):
    """The part of a table without a journal file: the entries in memory, in order (the last
    `limit`, if given); a step is kept by appending it, every other hook has nothing to do."""

    def __call__(self, entry):
        self.append(entry)

    def stepped(self, batched):
        pass

    def step_record(self, kind, data, ts_ns=None):
        self.append(Record(kind, data, self.ctl.clock() if ts_ns is None else ts_ns))

    def tick_clock(self, now):
        return None             # nothing journals the tick as one step: the clock runs on

    def ticked(self, done):
        pass

    def quiet_tick(self, now):
        return True

    def started(self):
        pass

    def capture_rng(self):
        pass

    def commit_pending(self):
        pass

    def close(self):
        pass
