"""The loop holds its journal as a part, by the interface controller/journal_part.py declares
(issue 32): a third part, known to no module of the controller, plugged in receives every hook
in the order of a step; a part that leaves one out, or anything else, is refused."""

import pytest

from controller.games.events import Event
from controller.journal_part import JournalPart, MemoryJournal, Record
from controller.policies import Policy
from controller.table import TableController
from tests import builders
from tests.builders import Clock

GAME = "props-and-hops"


class Calls(JournalPart):
    """A journal part of this test only: each hook it receives, in order (and the table
    clock as the loop reads it inside a tick it fixes)."""

    def __init__(self, fixed_tick_ns=None):
        super().__init__()
        self.calls = []
        self.fixed_tick_ns = fixed_tick_ns

    def attach(self, ctl):
        super().attach(ctl)
        self.calls.append(("attach", ctl))

    def __call__(self, entry):
        self.append(entry)
        self.calls.append(("entry", entry.kind, self.ctl.model.state))

    def stepped(self, batched):
        self.calls.append(("stepped", batched))

    def step_record(self, kind, data, ts_ns=None):
        self.calls.append(("step_record", kind))

    def tick_clock(self, now):
        self.calls.append(("tick_clock", now))
        if self.fixed_tick_ns is not None:
            return lambda: self.fixed_tick_ns
        return None

    def ticked(self, done):
        self.calls.append(("ticked", done))

    def started(self):
        self.calls.append(("started",))

    def capture_rng(self):
        self.calls.append(("capture_rng",))

    def commit_pending(self):
        self.calls.append(("commit_pending",))

    def close(self):
        self.calls.append(("close",))


class Noter(Policy):
    """A timer that journals a note each tick, stamped by the loop's clock."""

    def tick(self, ctl, now_ns):
        ctl.note("timer", seen_ns=ctl.clock())


def controller(part, policies=()):
    return TableController(builders.table(GAME), clock=Clock(1_000), journal=part,
                           policies=list(policies))


def wager(seat, ts):
    return Event("wager", {"seat": seat, "wager": "two_hardway", "amount": 500}, "sensor", ts)


def test_a_part_plugged_in_receives_every_hook_in_the_order_of_a_step():
    part = Calls()
    ctl = controller(part)
    assert ctl.journal is part and part.calls == [("attach", ctl)]
    for e in (Event("open_table", None, "dealer_panel", 10),
              Event("shuffle", None, "dealer_panel", 20), wager(1, 30)):
        ctl.submit(e)
    part.calls.clear()
    ctl.run_once()
    # each input to the part before it is applied, its step's end after (a batch: more
    # follow but for the last), then the tick around the timers
    assert part.calls == [
        ("entry", "open_table", "closed"), ("stepped", True),
        ("entry", "shuffle", "opened"), ("stepped", True),
        ("entry", "wager", "shuffled"), ("stepped", True),
        ("tick_clock", 1_000), ("ticked", True)]
    assert ctl.model.state == "wagers_open"
    part.calls.clear()
    ctl.process(wager(2, 40))               # a step on its own: not batched
    assert part.calls == [("entry", "wager", "wagers_open"), ("stepped", False)]


def test_the_loops_own_calls_reach_the_part():
    part = Calls()
    ctl = controller(part)
    part.calls.clear()
    ctl.capture_rng()
    ctl.commit_pending()
    ctl.start()
    try:
        assert ("started",) in part.calls
    finally:
        ctl.stop()
    ctl.close()
    assert [c for c in part.calls if c[0] not in ("tick_clock", "ticked")] == \
        [("capture_rng",), ("commit_pending",), ("started",), ("close",)]


def test_the_tick_runs_on_the_clock_the_part_gives_and_the_table_clock_after():
    part = Calls(fixed_tick_ns=777)
    ctl = controller(part, [Noter()])
    ctl.tick()
    notes = [e for e in part if isinstance(e, Record) and e.kind == "timer"]
    assert [(n.ts_ns, n.data["seen_ns"]) for n in notes] == [(777, 777)]
    assert ctl.clock() == 1_000             # the table clock again once the tick is over
    plain = MemoryJournal()                 # a part that fixes nothing: the clock runs on
    ctl = controller(plain, [Noter()])
    ctl.tick()
    assert [(n.ts_ns, n.data["seen_ns"]) for n in plain.records("timer")] == [(1_000, 1_000)]


def test_the_part_is_told_when_a_timer_raised():
    class Broken(Policy):
        def tick(self, ctl, now_ns):
            raise RuntimeError("a timer's bug")
    part = Calls(fixed_tick_ns=5)
    ctl = controller(part, [Broken()])
    part.calls.clear()
    with pytest.raises(RuntimeError):
        ctl.tick()
    assert part.calls == [("tick_clock", 1_000), ("ticked", False)]
    assert ctl.clock() == 1_000             # the part's clock is not left in place


def test_a_part_that_leaves_a_hook_out_is_refused_and_so_is_a_bare_callable():
    class Partial(JournalPart):            # entries only: no step, tick, close...
        def __call__(self, entry):
            pass
    with pytest.raises(TypeError, match="abstract"):
        Partial()
    with pytest.raises(TypeError, match="JournalPart"):
        controller([].append)


def test_a_part_serves_one_controller():
    part = MemoryJournal()
    controller(part)
    with pytest.raises(RuntimeError, match="one controller"):
        controller(part)
