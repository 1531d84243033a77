"""Suite-wide guards: a test must not leave threads running behind it; a test that reads the
regulation texts (marked `regs`) is skipped with one line saying how to provide them when they
are absent, or failed where they are required (TABLECTL_REGS_REQUIRED=1, which .ci/run sets, so
CI never skips them silently)."""
import os
import threading

import pytest


@pytest.fixture(autouse=True)
def _no_leftover_threads():
    before = set(threading.enumerate())
    yield
    left = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    for t in left:
        t.join(timeout=30)          # generous: a loaded machine is slow to end one
    left = [t for t in left if t.is_alive()]
    assert not left, "test left threads running: %s" % ", ".join(t.name for t in left)


REGS_REQUIRED = "TABLECTL_REGS_REQUIRED"


def regs_missing():
    """One line saying where the texts were looked for and how to provide them, or None."""
    from controller.lab.trace.regs import find_regs
    where = find_regs()
    if os.path.isdir(where):
        return None
    return ("regulation texts not found at %s: put the texts in ../shared/regs beside the "
            "repository or set TABLECTL_REGS=FOLDER" % where)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if item.get_closest_marker("regs") is None:
        return
    why = regs_missing()
    if why is None:
        return
    if os.environ.get(REGS_REQUIRED):
        pytest.fail("%s (%s is set)" % (why, REGS_REQUIRED), pytrace=False)
    pytest.skip(why)
