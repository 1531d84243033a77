"""A console over a controller on simulated GPIO, fake drivers, and a clock the test moves."""
from controller.console.auth import LoginGuard, PinStore
from controller.console.commands import Commands
from controller.console.session import Session
from tests.controller.helpers import Clock, make

FAST = {"n": 2 ** 10}           # scrypt cost for tests; the shipped default is 2**14
PINS = {"dealer": "1357", "floorperson": "2468", "technician": "8642", "administrator": "9753"}
S = 10 ** 9


class FakeDriver:
    """A driver's console-facing surface: status(), selftest(), clear_fault()."""

    def __init__(self, name, device, ok=True):
        self.name, self.device, self.ok = name, device, ok
        self.selftests = self.cleared = 0
        self.last_fault = None
        self.last_selftest = None

    def selftest(self):
        self.selftests += 1
        self.last_selftest = {"ok": self.ok, "detail": "all good" if self.ok else "motor stuck"}
        return self.ok

    def clear_fault(self):
        self.cleared += 1
        self.last_fault = None

    def status(self):
        return {"device": self.name, "type": self.device,
                "state": "fault" if self.last_fault else "ready",
                "counters": {"events_out": 3, "faults": 1 if self.last_fault else 0},
                "rejected": {"bad_crc": 2}, "last_fault": self.last_fault,
                "device_status": {"next_card": "Qh", "cards": ["As", "Kd"], "temp": 41}}


def pin_store(tmp_path, roles=PINS):
    store = PinStore(str(tmp_path / "pins.json"), **FAST)
    for role, pin in roles.items():
        store.set(role, pin)
    return store


def fake_drivers():
    return {"shoe": FakeDriver("shoe", "dealing_shoe"),
            "card_reader": FakeDriver("card_reader", "card_reader"),
            "progressive_system": FakeDriver("progressive_system", "progressive_system")}


class Rig:
    """Controller + Commands + Session; `type(text)` feeds keys and returns the reply text."""

    def __init__(self, tmp_path, game="flop-poker", drivers=None, idle_s=60, max_failures=3,
                 lock_s=120, journal=None, **kw):
        self.ctl, self.gpio, _ = make(game)
        self.clock = Clock(0)
        self.drivers = fake_drivers() if drivers is None else drivers
        self.store = pin_store(tmp_path)
        self.commands = Commands(self.ctl, self.drivers, journal=journal, **kw)
        self.guard = LoginGuard(self.clock, max_failures=max_failures, lock_s=lock_s)
        self.session = Session(self.commands, self.store.verify, self.guard, self.clock,
                               self.ctl.note, idle_s=idle_s)
        self.banner = self.session.start()

    def type(self, text):
        return self.session.feed(text.encode() if isinstance(text, str) else text).decode()

    def login(self, role):
        self.type(role + "\r")
        out = self.type(PINS[role] + "\r")
        assert "logged in as %s" % role in out, out
        return out

    def run(self, line):
        return self.type(line + "\r")

    def console_records(self, kind="console"):
        return self.ctl.journal.records(kind)


def said(text):
    """The words of what the console wrote, whatever the width folded: a sentence a test
    looks for is found across the folds of an 80-column terminal."""
    return " ".join(text.split())


__all__ = ["said", "Clock", "FakeDriver", "Rig", "PINS", "S", "FAST", "pin_store", "fake_drivers"]
