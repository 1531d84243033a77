"""Conformance tests: the page's protocol, spoken by code written from the page alone."""
import os
import tty

import pytest


@pytest.fixture
def pty_pair():
    """(master fd, slave path) of a raw pty; both closed after the test."""
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    path = os.ttyname(slave)
    yield master, path
    for fd in (master, slave):
        try:
            os.close(fd)
        except OSError:
            pass
