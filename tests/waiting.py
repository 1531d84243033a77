"""Waiting for a condition in a test: the one loop the suite's waits share.

A bound is generous (a loaded machine is slow) and never a measurement: `wait_for` returns as
soon as the condition holds, and only a condition that never comes fails, naming what was
awaited (`what`: text, or a function giving it when the wait fails, e.g. the screen then).
Timing itself is measured in bench/, not asserted here."""

import time


def wait_for(pred, timeout=30.0, step=0.05, what="condition"):
    """pred()'s first truthy value, polled every `step` s for up to `timeout` s; else
    AssertionError("timed out waiting for WHAT")."""
    end = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() >= end:
            raise AssertionError("timed out waiting for %s"
                                 % (what() if callable(what) else what))
        time.sleep(step)
