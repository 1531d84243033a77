"""Suite-wide guards: a test must not leave threads running behind it."""
import threading

import pytest


@pytest.fixture(autouse=True)
def _no_leftover_threads():
    before = set(threading.enumerate())
    yield
    left = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    for t in left:
        t.join(timeout=2)
    left = [t for t in left if t.is_alive()]
    assert not left, "test left threads running: %s" % ", ".join(t.name for t in left)
