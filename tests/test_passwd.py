"""`tablectl passwd ROLE` (controller/cli_passwd.py): a weak PIN is refused at its first
entry, and a damaged PIN file is replaced only after the person confirms, kept aside."""
import os

from controller import cli
from controller.console.auth import PinStore


def answers(monkeypatch, *typed):
    asked = []
    it = iter(typed)

    def fake_getpass(prompt="", stream=None):
        asked.append(prompt)
        return next(it)

    import getpass
    monkeypatch.setattr(getpass, "getpass", fake_getpass)
    return asked


def test_a_weak_pin_is_refused_at_its_first_entry(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "pins.json")
    for weak, why in (("12", "4 to 16 digits"), ("1111", "one repeated digit"),
                      ("12ab", "4 to 16 digits")):
        asked = answers(monkeypatch, weak, weak)
        assert cli.main(["passwd", "technician", "--file", path]) == 2
        assert asked == ["New PIN for technician: "]             # not asked to repeat it
        err = capsys.readouterr().err
        assert err.startswith("tablectl passwd: ") and why in err and len(err.splitlines()) == 1
    assert not os.path.exists(path)


def test_a_damaged_pin_file_is_replaced_after_confirming_and_kept_aside(tmp_path, monkeypatch,
                                                                        capsys):
    path = tmp_path / "pins.json"
    path.write_text('{"format": "tablectl-pins/1", "pins": {"technician": ')   # cut short
    answers(monkeypatch, "2468", "2468")
    monkeypatch.setattr("controller.cli_passwd._ask_yes", lambda text, stream=None: False)
    assert cli.main(["passwd", "technician", "--file", str(path)]) == 2
    assert "nothing changed" in capsys.readouterr().err
    assert path.read_text().endswith('"technician": ')               # untouched

    answers(monkeypatch, "2468", "2468")
    questions = []
    monkeypatch.setattr("controller.cli_passwd._ask_yes",
                        lambda text, stream=None: questions.append(text) or True)
    assert cli.main(["passwd", "technician", "--file", str(path)]) == 0
    out = capsys.readouterr().out
    assert "cannot be read" in questions[0] and "Replace it" in questions[0]
    aside = tmp_path / "pins.json.damaged-1"
    assert aside.read_text().endswith('"technician": ')              # nothing lost
    assert "moved to %s" % aside in out and "tablectl passwd administrator" in out
    assert PinStore(str(path)).verify("technician", "2468")


def test_replace_damaged_without_asking_and_no_terminal_to_confirm(tmp_path, monkeypatch,
                                                                   capsys):
    path = tmp_path / "pins.json"
    path.write_text("not json")
    answers(monkeypatch, "2468", "2468")
    assert cli.main(["passwd", "dealer", "--file", str(path)]) == 2      # stdin: no terminal
    assert "no terminal to confirm on" in capsys.readouterr().err
    answers(monkeypatch, "2468", "2468")
    assert cli.main(["passwd", "dealer", "--file", str(path), "--replace-damaged"]) == 0
    assert PinStore(str(path)).verify("dealer", "2468")
    assert (tmp_path / "pins.json.damaged-1").read_text() == "not json"
