"""Helpers of the device tests: a sink, bounded waits, fd counting (the clock the test moves
is the tests' one Clock, tests/builders.py, started at START_NS)."""
import os
import threading
import time

from tests.builders import MS, Clock  # noqa: F401 - the device tests import them from here

START_NS = 10 ** 12         # the device tests' table time starts here: far from zero


class Sink:
    """The controller's submit: thread-safe, keeps the Events for the test."""

    def __init__(self):
        self.events = []
        self._lock = threading.Lock()

    def __call__(self, event):
        with self._lock:
            self.events.append(event)

    def of(self, kind):
        with self._lock:
            return [e for e in self.events if e.kind == kind]


def wait_for(condition, timeout=30.0):
    """Poll `condition` every millisecond of real time (ptys move bytes in real time) until
    it holds or `timeout` s pass; returns its last value. The bound is generous: a loaded
    machine may take seconds to move a pty's bytes, and a condition that holds returns at
    once (issue 33: no test asserts a wall-clock deadline)."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() >= end:
            return value
        time.sleep(0.001)


def open_fds():
    return set(os.listdir("/proc/self/fd"))


def fd_guard():
    """A generator fixture body: fail a test that leaves file descriptors open."""
    before = len(open_fds())
    yield
    closed = wait_for(lambda: len(open_fds()) <= before, timeout=10)
    assert closed, "test left %d fds open" % (len(open_fds()) - before)


class Bench:
    """A driver on a pty slave, its simulated device on the master, a sink and a clock."""

    def __init__(self, driver_cls, sim_cls, sink=None, **driver_kwargs):
        self.clock = Clock(START_NS)
        self.sink = sink or Sink()
        self.journal = []
        self.sim = sim_cls().start()
        self.driver = driver_cls(None, self.sim.path, clock=self.clock,
                                 on_rejected=lambda *r: self.journal.append(r), **driver_kwargs)
        self.driver.start(self.sink)
        assert self.driver.wait_connected(), self.driver.status()

    def stop(self):
        self.driver.stop()
        self.sim.stop()

    def next(self, kind, n=1):
        events = wait_for(lambda: len(self.sink.of(kind)) >= n and self.sink.of(kind))
        assert events, "no %s event; got %r" % (kind, self.sink.events)
        return events[n - 1]
