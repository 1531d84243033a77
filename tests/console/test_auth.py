"""Role PINs as salted scrypt hashes, the PIN file, `tablectl passwd`, the log-in guard."""
import json
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
    assert "8642" not in raw and "1357" not in raw
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
    assert auth.default_pin_store() == "/etc/tablectl/console-pins.json"
