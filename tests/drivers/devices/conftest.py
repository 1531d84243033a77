"""Device tests must leave no file descriptors (pty ends, ports) open behind them."""
import pytest

from tests.drivers.devices.support import Bench, fd_guard


@pytest.fixture(autouse=True)
def _no_leftover_fds():
    yield from fd_guard()


@pytest.fixture
def bench():
    """make(driver_cls, sim_cls, sink=None, **driver_kwargs) -> a started Bench; all stopped."""
    made = []

    def make(driver_cls, sim_cls, **kwargs):
        made.append(Bench(driver_cls, sim_cls, **kwargs))
        return made[-1]
    yield make
    for b in made:
        b.stop()
