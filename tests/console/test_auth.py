"""Role PINs as salted scrypt hashes, the PIN file, `tablectl passwd`, the log-in guard."""
import json
import re
import os
import stat

import pytest

from controller import cli
from controller.console import auth
from controller.console.auth import LoginGuard, PinStore
from controller.errors import PinStoreError
from tests.console.support import FAST, S, Clock


def test_the_same_pin_gets_a_different_salt_and_hash_each_time(tmp_path):
    a, b = auth.hash_pin("2468", **FAST), auth.hash_pin("2468", **FAST)
    assert a["salt"] != b["salt"] and a["hash"] != b["hash"]
    assert len(bytes.fromhex(a["salt"])) == 16 and a["kdf"] == "scrypt"
    assert auth.verify_pin(a, "2468") and auth.verify_pin(b, "2468")
    assert not auth.verify_pin(a, "2469")


def test_the_shipped_cost_is_scrypt_n_16384():
    entry = auth.hash_pin("2468", salt=b"s" * 16)
    assert (entry["n"], entry["r"], entry["p"]) == (16384, 8, 1)


def test_the_pin_file_holds_hashes_only_and_is_private(tmp_path):
    store = PinStore(str(tmp_path / "etc" / "pins.json"), **FAST)
    store.set("technician", "8642")
    store.set("dealer", "1357")
    raw = open(store.path).read()
    # not as a value of its own (inside the hex or base64 of a hash or salt, four digits turn
    # up by chance, about once in 150 files)
    for pin in ("8642", "1357"):
        assert not re.search(r"(?<![0-9A-Za-z+/])%s(?![0-9A-Za-z+/=])" % pin, raw), pin
    doc = json.loads(raw)
    assert doc["format"] == "tablectl-pins/1" and set(doc["pins"]) == {"technician", "dealer"}
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    assert store.verify("technician", "8642") and not store.verify("technician", "1357")
    assert not store.verify("floorperson", "8642")           # no PIN set for that role
    assert not store.verify("root", "8642")
    store.set("technician", "7531")                          # a new PIN replaces the old
    assert store.verify("technician", "7531") and not store.verify("technician", "8642")
    assert store.verify("dealer", "1357")


@pytest.mark.parametrize("pin", ["12", "12345678901234567", "12a4", "1111", " 1234", "١٢٣٤"])
def test_a_pin_is_4_to_16_digits_not_one_repeated(tmp_path, pin):
    with pytest.raises(PinStoreError):
        PinStore(str(tmp_path / "p.json"), **FAST).set("dealer", pin)


def test_an_unknown_role_cannot_be_given_a_pin(tmp_path):
    with pytest.raises(PinStoreError, match="unknown role"):
        PinStore(str(tmp_path / "p.json"), **FAST).set("pitboss", "2468")


def test_a_corrupt_pin_file_refuses_every_log_in_and_says_so_when_set(tmp_path):
    path = tmp_path / "p.json"
    path.write_text("{not json")
    store = PinStore(str(path), **FAST)
    assert not store.verify("technician", "8642")
    with pytest.raises(PinStoreError, match="cannot be read"):
        store.set("technician", "8642")
    path.write_text(json.dumps({"format": "other", "pins": {}}))
    with pytest.raises(PinStoreError, match="not a tablectl-pins/1 file"):
        store.load()


def test_a_tampered_entry_verifies_nothing(tmp_path):
    store = PinStore(str(tmp_path / "p.json"), **FAST)
    store.set("dealer", "1357")
    doc = json.loads(open(store.path).read())
    doc["pins"]["dealer"]["kdf"] = "plain"
    open(store.path, "w").write(json.dumps(doc))
    assert not store.verify("dealer", "1357")


def test_the_guard_locks_after_n_failures_in_a_row_and_unlocks_after_the_time():
    clock = Clock(0)
    g = LoginGuard(clock, max_failures=3, lock_s=10)
    assert not g.failed() and not g.failed()
    g.succeeded()                                            # a success in between resets
    assert not g.failed() and not g.failed() and g.failed()
    assert g.remaining_ns() == 10 * S
    clock.now += 10 * S
    assert g.remaining_ns() == 0 and g.failures == 0


def test_tablectl_passwd_asks_twice_without_echo_and_stores_the_hash(tmp_path, monkeypatch,
                                                                     capsys):
    path = str(tmp_path / "pins.json")
    asked = []

    def fake_getpass(prompt="Password: ", stream=None):
        asked.append(prompt)
        return "2468"

    monkeypatch.setattr(auth.getpass, "getpass", fake_getpass)
    rc = cli.main(["passwd", "floorperson", "--file", path])
    assert rc == 0 and asked == ["New PIN for floorperson: ", "Repeat the PIN: "]
    assert "PIN set for floorperson" in capsys.readouterr().out
    assert PinStore(path).verify("floorperson", "2468")


def test_tablectl_passwd_refuses_two_different_pins_and_a_bad_pin(tmp_path, monkeypatch,
                                                                   capsys):
    path = str(tmp_path / "pins.json")
    answers = iter(["2468", "2469", "12", "12"])
    monkeypatch.setattr(auth.getpass, "getpass", lambda prompt="", stream=None: next(answers))
    assert cli.main(["passwd", "dealer", "--file", path]) == 1
    assert "differ" in capsys.readouterr().err and not os.path.exists(path)
    assert cli.main(["passwd", "dealer", "--file", path]) == 2
    assert "4 to 16 digits" in capsys.readouterr().err


def test_tablectl_passwd_uses_TABLECTL_PINS(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLECTL_PINS", str(tmp_path / "env.json"))
    assert auth.default_pin_store() == str(tmp_path / "env.json")
    monkeypatch.delenv("TABLECTL_PINS")
    assert auth.default_pin_store() == ("/etc/tablectl/console-pins.json"
                                        if os.path.isdir("/etc/tablectl") else
                                        os.path.expanduser("~/.tablectl/console-pins.json"))


class CountingScrypt:
    """hashlib.scrypt itself, counting each call's cost parameter (a spy, not a mock)."""

    def __init__(self, monkeypatch):
        import hashlib
        self.calls = []
        real = hashlib.scrypt

        def scrypt(*a, **kw):
            self.calls.append(kw.get("n"))
            return real(*a, **kw)
        monkeypatch.setattr(auth.hashlib, "scrypt", scrypt)


def test_an_unknown_role_costs_the_same_scrypt_as_a_real_one(tmp_path, monkeypatch):
    from tests.console.support import PINS, Rig
    rig = Rig(tmp_path)
    spy = CountingScrypt(monkeypatch)
    for role in ("technician", "root", "floorperson"):
        rig.type(role + "\r")
        assert "login incorrect" in rig.type("0000\r")
    # one scrypt per attempt, each at the stored entries' own cost (FAST here, n=2**10)
    assert spy.calls == [FAST["n"]] * 3
    store = PinStore(str(tmp_path / "only-tech.json"), **FAST)
    store.set("technician", PINS["technician"])
    spy.calls.clear()
    assert not store.verify("dealer", "1357")            # a role without a PIN
    assert not store.verify("(nobody)", "1357")          # no such role
    assert spy.calls == [FAST["n"]] * 2


def test_the_log_in_lock_survives_a_restart_and_attempts_during_it_are_journaled(tmp_path):
    from tests.console.support import PINS, Rig
    rig = Rig(tmp_path, max_failures=2, lock_s=120)
    lock_file = str(tmp_path / "pins.json.lock")
    wall = Clock(10 ** 18)
    rig.guard = LoginGuard(rig.clock, max_failures=2, lock_s=120, state_path=lock_file,
                           wall=wall)
    rig.session.guard = rig.guard
    for _ in range(2):
        rig.type("technician\r")
        rig.type("0000\r")
    assert "locked" in rig.type("technician\r")
    # a restart: a new guard (and a monotonic clock that began again) on the same file
    wall.now += 30 * S
    rig2 = Rig(tmp_path / "after", max_failures=2, lock_s=120)
    rig2.guard = LoginGuard(Clock(5), max_failures=2, lock_s=120, state_path=lock_file,
                            wall=wall)
    rig2.session.guard = rig2.guard
    assert 85 * S < rig2.guard.remaining_ns() <= 90 * S
    out = rig2.type("technician\r")
    assert "console locked after failed log-ins: try again in 90 seconds" in out
    assert "PIN" not in out and rig2.session.role is None
    tries = rig2.ctl.journal.records("console_login")
    assert tries[-1].data == {"role": "technician", "ok": False, "locked": True,
                              "failures": 2}
    wall.now += 91 * S
    rig3 = Rig(tmp_path / "later", max_failures=2, lock_s=120)
    rig3.guard = LoginGuard(Clock(5), max_failures=2, lock_s=120, state_path=lock_file,
                            wall=wall)
    rig3.session.guard = rig3.guard
    assert rig3.guard.remaining_ns() == 0
    rig3.type("technician\r")
    assert "logged in as technician" in rig3.type(PINS["technician"] + "\r")


def test_an_unreadable_log_in_lock_file_locks_the_console(tmp_path):
    lock_file = tmp_path / "pins.json.lock"
    lock_file.write_text("{not json")
    guard = LoginGuard(Clock(0), max_failures=5, lock_s=300, state_path=str(lock_file))
    assert guard.remaining_ns() == 300 * S and "cannot be read" in guard.problem
