"""The one runtime (controller/runtime.py): start order, register_part, ONE shutdown path.

The table is real (a Props & Hops machine, its policies, a real SQLite journal) on a device
set of simulated GPIO lines: the progressive system's and the tower light's real drivers on
hal_sim's SimFactory, so the outputs the shutdown makes safe are the drivers' own lines.
"""
import io
import logging
import sqlite3

import pytest

from controller import config
from controller.errors import JournalError
from controller.games import model_class
from controller.journal.formats import open_journal
from controller.runtime import Runtime, writer
from drivers.devices import build_devices
from hal_sim.devices import PROGRESSIVE_PINS, TOWER_PINS
from hal_sim.gpio import SimFactory


class GpioOnly:
    """A device set: the progressive system and tower light on simulated lines."""

    def __init__(self):
        self.factory = None
        self.closed = 0

    def open(self, clock, on_rejected):
        self.factory = SimFactory(clock=clock)
        cfg = {"progressive_system": dict(PROGRESSIVE_PINS), "tower_light": dict(TOWER_PINS)}
        return self.factory, build_devices(cfg, self.factory, clock=clock,
                                           on_rejected=on_rejected)

    def close(self):
        self.closed += 1
        self.factory.close()


class Part:
    """A registered part (as a floor link will be) that records its calls in `log`."""

    def __init__(self, name, log, fail_stop=None):
        self.name, self.log, self.fail_stop = name, log, fail_stop

    def start(self):
        self.log.append("start " + self.name)

    def stop(self):
        self.log.append("stop " + self.name)
        if self.fail_stop is not None:
            raise self.fail_stop


def runtime(tmp_path, game="props-and-hops", **options):
    cls = model_class(game)
    cfg = config.validate({"game": game}, cls)
    err = io.StringIO()
    rt = Runtime(cfg, GpioOnly(), journal=str(tmp_path / "journal.db"), loop=False,
                 say=writer(err, "test: "), **options)
    return rt, err


def test_a_failing_shutdown_step_is_reported_and_every_later_step_still_runs(tmp_path, caplog):
    log = []
    rt, err = runtime(tmp_path)
    rt.register_part(Part("first", log))
    rt.register_part(Part("broken", log, fail_stop=OSError("uplink socket gone")))
    rt.register_part(Part("last", log))
    rt.start()
    assert log == ["start first", "start broken", "start last"]
    rt.ctl.submit(rt.ctl.event("open_table"))
    rt.ctl.submit(rt.ctl.event("shuffle"))
    rt.ctl.run_until_idle()
    lockout = rt.ctl.outputs.lockout.pin
    assert lockout.value is False                          # wagering open: the line is off
    with caplog.at_level(logging.ERROR):
        failures = rt.close()
    # reported: returned, said, logged -- never swallowed
    assert [(what, str(e)) for what, e in failures] == [("part broken", "uplink socket gone")]
    assert "test: shutdown: part broken failed: uplink socket gone" in err.getvalue()
    assert "shutdown: part broken failed" in caplog.text
    # the later steps ran: the other parts (last registered stops first), the outputs to their
    # safe values, the drivers, the devices, the journal
    assert log[3:] == ["stop last", "stop broken", "stop first"]
    assert lockout.value is lockout.safe is True
    assert rt.devices.closed == 1 and rt.devices.factory.closed
    assert all(not d._running for d in rt.drivers.values() if hasattr(d, "_running"))
    with pytest.raises((sqlite3.ProgrammingError, JournalError)):
        list(rt.ctl.store.rows())                          # the journal is closed
    assert rt.close() is failures and rt.devices.closed == 1    # a second close: nothing


def test_a_part_registered_on_a_running_table_starts_at_once_and_stops_first(tmp_path):
    log = []
    rt, _ = runtime(tmp_path)
    rt.register_part(Part("early", log))
    rt.start()
    rt.register_part(Part("late", log))
    assert log == ["start early", "start late"]
    assert rt.close() == []
    assert log[2:] == ["stop late", "stop early"]
    with pytest.raises(RuntimeError, match="closed"):
        rt.register_part(Part("after", log))


class Reader(Part):
    """A part that reads the journal file at its stop, as the floor link drains it."""

    reads_journal = True

    def __init__(self, name, log, path):
        super().__init__(name, log)
        self.path = path

    def stop(self):
        self.seen = entries(self.path)
        super().stop()


def entries(path):
    """The `entry` of every row on the disk, read as another process would (either
    format, read-only)."""
    store = open_journal(path, readonly=True)
    try:
        return [r["entry"] for r in store.rows()]
    finally:
        store.close()


@pytest.mark.parametrize("when", ["before start", "on the running table"])
def test_a_part_stops_after_the_journal_committed_what_it_held(tmp_path, when):
    """The journal defers a step's derived rows (a round's end snapshot) to the next input's
    commit; a part that forwards the journal (the floor link) must see them at its stop, not
    at the next boot: the runtime commits them once the loop stopped, before any part stops.
    A simulated table plays one round (its autoplay, without the run's own commit)."""
    from hal_sim.simulation import Simulation
    path = str(tmp_path / "journal.db")
    log = []
    reader = Reader("reader", log, path)
    parts = [reader] if when == "before start" else []
    sim = Simulation("props-and-hops", seed=1, journal=path, parts=parts)
    if when != "before start":
        sim.register_part(reader)
    sim.autoplay.play_round()
    assert "snapshot" in [r[3] for r in sim.ctl.journal._pending], "no round end held: no test"
    assert sim.close() == []
    on_disk = entries(path)
    assert reader.seen == on_disk           # nothing committed after the part stopped
    assert reader.seen[-1] == "snapshot"
    assert log == ["start reader", "stop reader"]


def test_a_journal_reader_stops_after_every_other_step_but_the_journals_close(tmp_path):
    """What the shutdown itself journals (here a step that writes a row after the devices
    stopped) reaches a reader of the journal: it stops after the final commit."""
    log = []
    rt, _ = runtime(tmp_path)
    reader = Reader("reader", log, str(tmp_path / "journal.db"))
    rt.register_part(reader)
    rt.register_part(Part("plain", log))
    rt.start()
    devices = [what for what, _ in rt._stops].index("devices")
    rt._stops.insert(devices, ("a late row", lambda: (log.append("late row"),
                                                    rt.ctl.journal.step_record("late_row", {}))))
    assert rt.close() == []
    assert log == ["start reader", "start plain", "stop plain", "late row", "stop reader"]
    assert reader.seen[-1] == "record"


def test_an_interrupt_in_a_shutdown_step_waits_until_every_step_ran(tmp_path):
    log = []
    rt, _ = runtime(tmp_path)
    rt.register_part(Part("first", log))
    rt.register_part(Part("interrupted", log, fail_stop=KeyboardInterrupt()))
    rt.start()
    with pytest.raises(KeyboardInterrupt):
        rt.close()
    assert log[-1] == "stop first"
    assert rt.devices.factory.closed                     # the steps after it ran


def test_a_failed_start_step_still_runs_the_stop_steps_of_what_started(tmp_path):
    log = []
    rt, _ = runtime(tmp_path)
    rt.register_part(Part("up", log))

    class Refuses(Part):
        def start(self):
            raise OSError("no route to the floor system")
    rt.register_part(Refuses("down", log))
    with pytest.raises(OSError):
        rt.start()
    assert rt.close() == []
    assert log == ["start up", "stop up"] and rt.devices.closed == 1


@pytest.mark.reg("581.13(i)")
def test_the_shutdown_uses_the_controllers_one_safe_path(tmp_path):
    """The outputs step is TableController.safe_state: a line that cannot be written is a
    reported failure, and every other line still goes safe."""
    rt, err = runtime(tmp_path, game="raise-it-up-stud")
    rt.start()
    ctl = rt.ctl
    for kind, data in (("open_table", None), ("shuffle", None)):
        ctl.submit(ctl.event(kind, data))
    ctl.submit(ctl.event("wager", {"seat": 2, "wager": "ante", "amount": 500}))
    ctl.submit(ctl.event("wager", {"seat": 2, "wager": "blind", "amount": 500}))
    ctl.submit(ctl.event("wager", {"seat": 2, "wager": "progressive", "amount": 100}))
    ctl.run_until_idle()
    light = ctl.outputs.seats["2"].pin
    assert light.value is not light.safe                  # lit: a progressive wager
    rt.devices.factory.fail_writes(ctl.outputs.lockout.pin.bcm, OSError("driver chip gone"))
    failures = rt.close()
    assert [what for what, _ in failures] == ["outputs to their safe values", "devices"]
    assert "driver chip gone" in str(failures[0][1])
    assert light.value is light.safe                      # the others went safe regardless
