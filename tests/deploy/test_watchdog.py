"""controller/watchdog.py against a fake systemd: a real AF_UNIX datagram socket we bind."""
import os
import shutil
import socket
import tempfile
import threading
import uuid

import pytest

from controller.policies import Policy
from controller.table import CONSUMED
from controller.watchdog import Heartbeat, Notifier, socket_address, watchdog_interval_ns
from tests.builders import Clock
from tests.controller.helpers import ev, make

SEC = 10 ** 9


class FakeSystemd:
    """The receiving end of NOTIFY_SOCKET, as systemd binds it (a path or an abstract name)."""

    def __init__(self, abstract=False):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.dir = None
        if abstract:
            name = "tablectl-test-%s" % uuid.uuid4().hex
            self.sock.bind("\0" + name)
            self.env_value = "@" + name
        else:
            # Short directory: AF_UNIX paths are limited to 107 bytes.
            self.dir = tempfile.mkdtemp(prefix="tn")
            self.env_value = os.path.join(self.dir, "notify")
            self.sock.bind(self.env_value)

    def recv(self, timeout=2.0):
        self.sock.settimeout(timeout)
        return self.sock.recv(4096).decode()

    def pending(self):
        """Every datagram already queued, without waiting."""
        out = []
        self.sock.setblocking(False)
        try:
            while True:
                out.append(self.sock.recv(4096).decode())
        except BlockingIOError:
            return out

    def close(self):
        self.sock.close()
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(params=[False, True], ids=["path", "abstract"])
def systemd(request):
    fake = FakeSystemd(abstract=request.param)
    yield fake
    fake.close()


def test_ready_then_watchdog_at_half_watchdog_usec_then_stopping(systemd):
    clock = Clock()
    env = {"NOTIFY_SOCKET": systemd.env_value, "WATCHDOG_USEC": "10000000"}   # WatchdogSec=10s
    hb = Heartbeat(clock, env)
    assert hb.interval_ns == 5 * SEC
    hb.tick()
    assert systemd.recv().splitlines()[0] == "READY=1"
    for t in (1, 4.9):
        clock.now = int(t * SEC)
        hb.tick()
    assert systemd.pending() == []                      # not due before half the interval
    clock.now = 5 * SEC
    hb.tick()
    assert systemd.pending() == ["WATCHDOG=1"]
    clock.now = 9 * SEC
    hb.tick()
    assert systemd.pending() == []
    clock.now = 10 * SEC
    hb.tick()
    assert systemd.pending() == ["WATCHDOG=1"]
    hb.stopping()
    assert systemd.pending() == ["STOPPING=1"]
    clock.now = 100 * SEC
    hb.tick()
    hb.stopping()
    assert systemd.pending() == []                      # nothing after STOPPING=1


def test_late_ticks_send_one_watchdog_and_count_the_interval_from_it(systemd):
    clock = Clock()
    hb = Heartbeat(clock, {"NOTIFY_SOCKET": systemd.env_value, "WATCHDOG_USEC": "2000000"})
    hb.tick()
    systemd.recv()
    clock.now = 7 * SEC                                 # a slow iteration: one ping, not several
    hb.tick()
    assert systemd.pending() == ["WATCHDOG=1"]
    clock.now = 7 * SEC + SEC - 1
    hb.tick()
    assert systemd.pending() == []
    clock.now = 8 * SEC
    hb.tick()
    assert systemd.pending() == ["WATCHDOG=1"]


def test_without_watchdog_usec_only_ready_and_stopping(systemd):
    clock = Clock()
    hb = Heartbeat(clock, {"NOTIFY_SOCKET": systemd.env_value})
    hb.tick()
    assert "READY=1" in systemd.recv().splitlines()
    clock.now = 3600 * SEC
    hb.tick()
    assert systemd.pending() == []
    hb.stopping()
    assert systemd.pending() == ["STOPPING=1"]


def test_watchdog_pid_of_another_process_is_not_ours(systemd):
    env = {"NOTIFY_SOCKET": systemd.env_value, "WATCHDOG_USEC": "1000000",
           "WATCHDOG_PID": str(os.getpid() + 1)}
    assert watchdog_interval_ns(env) is None
    env["WATCHDOG_PID"] = str(os.getpid())
    assert watchdog_interval_ns(env) == SEC // 2
    assert watchdog_interval_ns({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval_ns({"WATCHDOG_USEC": "ten"}) is None


def test_no_notify_socket_is_a_no_op():
    clock = Clock()
    hb = Heartbeat(clock, {"WATCHDOG_USEC": "1000000"})
    assert hb.interval_ns is None and not hb.notifier.enabled
    for t in range(5):
        clock.now = t * SEC
        hb.tick()
    hb.stopping()
    assert hb.notifier._sock is None                    # no socket was ever opened


def test_socket_addresses():
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"
    assert socket_address("@abc") == "\0abc"
    assert socket_address("relative/path") is None
    assert socket_address("vsock:2:1234") is None
    assert socket_address("") is None


def test_a_vanished_socket_never_raises_into_the_loop(systemd):
    clock = Clock()
    n = Notifier({"NOTIFY_SOCKET": systemd.env_value})
    hb = Heartbeat(clock, {"NOTIFY_SOCKET": systemd.env_value, "WATCHDOG_USEC": "1000000"},
                   notifier=n)
    systemd.close()
    hb.tick()                                           # READY=1 undeliverable: logged only
    clock.now = SEC
    hb.tick()
    hb.stopping()
    assert n.send("WATCHDOG=1") is False


def test_status_follows_the_table_state(systemd):
    class Ctl:
        class model:
            state = "closed"
    clock = Clock()
    hb = Heartbeat(clock, {"NOTIFY_SOCKET": systemd.env_value})
    hb.tick(Ctl, 0)
    assert systemd.pending() == ["READY=1\nSTATUS=running", "STATUS=table closed"]
    hb.tick(Ctl, 0)
    assert systemd.pending() == []
    Ctl.model.state = "locked_out"
    hb.tick(Ctl, 0)
    assert systemd.pending() == ["STATUS=table locked_out"]


class Blocker(Policy):
    """Holds the loop inside one event until released: a stuck controller loop."""

    def __init__(self):
        self.entered = threading.Event()
        self.release = threading.Event()

    def before(self, ctl, event):
        if event.get("stick"):
            self.entered.set()
            assert self.release.wait(10)
            return CONSUMED
        return None


def test_a_stuck_controller_loop_stops_the_heartbeat():
    """Wired as a policy of the real TableController loop (real time: 50 ms interval)."""
    fake = FakeSystemd()
    ctl, _gpio, _clock = make()
    blocker = Blocker()
    hb = Heartbeat(environ={"NOTIFY_SOCKET": fake.env_value, "WATCHDOG_USEC": "100000"})
    ctl.policies += [blocker, hb]
    ctl.start()
    try:
        assert fake.recv().startswith("READY=1")
        got = [fake.recv() for _ in range(3)]
        assert got.count("WATCHDOG=1") >= 2             # STATUS= may come in between
        ctl.submit(ev("irregularity", 1, stick=True))
        assert blocker.entered.wait(30)
        fake.pending()
        threading.Event().wait(0.3)                     # six intervals with the loop stuck
        assert fake.pending() == []
        blocker.release.set()
        assert "WATCHDOG=1" in [fake.recv() for _ in range(3)]
    finally:
        blocker.release.set()
        hb.stopping()
        ctl.stop()
    assert fake.pending()[-1] == "STOPPING=1"
    fake.close()
