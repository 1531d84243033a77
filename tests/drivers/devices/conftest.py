"""Device tests must leave no file descriptors (pty ends, ports) open behind them."""
import pytest

from tests.drivers.devices.support import fd_guard


@pytest.fixture(autouse=True)
def _no_leftover_fds():
    yield from fd_guard()
