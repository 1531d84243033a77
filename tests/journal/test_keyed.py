"""The keyed chain (HMAC-SHA256 under a key file) and the head anchor: what they catch that
the SHA-256 chain alone cannot, a rewrite of the whole file with every hash recomputed."""
import os
import shutil

import pytest

from controller import cli
from controller import config as configuration
from controller.errors import ConfigError, JournalError
from controller.games import model_class
from controller.journal import boot
from controller.journal.chain import row_hash
from controller.journal.keys import key_id, read_key
from controller.journal.formats import open_journal
from tests.journal import tamper
from tests.journal.conftest import KEY, rows_of, simulate
from tests.journal.test_boot import fresh

OTHER = b"e99a18c428cb38d5f260853678922e03"


def key_file(path, key=KEY, mode=0o600):
    path.write_bytes(key + b"\n")
    path.chmod(mode)
    return str(path)


def quiet_record(path):
    """A record the replay does not read (an edit of it changes no state): only the chain
    can tell it was edited."""
    return next(r["seq"] for r in rows_of(path) if r["kind"] == "wagers_closed")


def add_field(data):
    return data.replace("}", ',"x":1}', 1) if data != "{}" else '{"x":1}'


def verify(capsys, path, *args):
    rc = cli.main(["journal", "verify", str(path)] + list(args))
    out = capsys.readouterr()
    return rc, out.out + out.err


def test_a_keyed_journal_is_hmac_chained_and_names_its_key_without_holding_it(keyed, capsys,
                                                                              tmp_path):
    rows = rows_of(keyed)
    for row in rows:
        assert row["hash"] == row_hash(row["prev_hash"], row, KEY)
        assert row["hash"] != row_hash(row["prev_hash"], row)
    store = open_journal(str(keyed), key=KEY)
    try:
        assert store.keyed and store.key_id == key_id(KEY) and store.verify() is None
    finally:
        store.close()
    assert KEY not in keyed.read_bytes()
    rc, out = verify(capsys, keyed, "--key", key_file(tmp_path / "k"))
    assert rc == 0 and "the chain holds (keyed, key id %s)" % key_id(KEY) in out
    assert cli.main(["journal", "show", str(keyed), "--round", "2", "--key",
                     str(tmp_path / "k")]) == 0
    assert "raise-it-up-stud round 2: settled" in capsys.readouterr().out


def test_a_keyed_journal_rewritten_without_the_key_fails_at_the_first_rewritten_row(
        either_keyed, capsys, tmp_path):
    """Either format (tests/journal/tamper.py)."""
    keyed = either_keyed
    seq = quiet_record(keyed)
    tamper.rewrite(keyed, seq, add_field)                # rehashed, but without the key
    rc, out = verify(capsys, keyed, "--key", key_file(tmp_path / "k"))
    assert rc == 1
    assert "first bad row %d: its hash does not match its contents (edited)" % seq in out


def test_the_same_rewrite_of_an_unkeyed_journal_is_caught_only_by_an_anchor(either_copy,
                                                                          capsys):
    """Either format (tamper.py)."""
    journal_copy = either_copy
    assert cli.main(["journal", "head", str(journal_copy)]) == 0
    anchor = capsys.readouterr().out.strip()
    last = rows_of(journal_copy)[-1]
    assert anchor == "%d:%s" % (last["seq"], last["hash"])
    rc, out = verify(capsys, journal_copy, "--head", anchor)
    assert rc == 0 and "row %d is the anchor's" % last["seq"] in out
    tamper.rewrite(journal_copy, quiet_record(journal_copy), add_field)
    os.unlink(str(journal_copy) + ".anchor")      # and the anchor file beside it removed
    tamper.drop_meta(journal_copy, "anchored")
    rc, out = verify(capsys, journal_copy)
    assert rc == 0                      # the SHA-256 chain recomputed holds: the gap
    rc, out = verify(capsys, journal_copy, "--head", anchor)
    assert rc == 1
    assert "first bad row %d: its hash is not the one in the anchor given" % last["seq"] in out


def test_an_anchor_past_the_end_finds_a_journal_put_back_to_an_older_copy(journal_copy,
                                                                         tmp_path, capsys):
    older = tmp_path / "older.db"
    shutil.copy(journal_copy, older)
    end = rows_of(older)[-1]["seq"]
    simulate(journal_copy, rounds=1, seed=2)            # the table plays on
    last = rows_of(journal_copy)[-1]
    anchor = "%d:%s" % (last["seq"], last["hash"])
    shutil.copy(older, journal_copy)                    # and its journal is rolled back
    rc, out = verify(capsys, journal_copy)              # the anchor file beside it sees it
    assert rc == 1 and "rolled back" in out, out
    rc, out = verify(capsys, journal_copy, "--head", anchor)
    assert rc == 1
    assert ("first bad row %d: missing: the journal ends at row %d but the anchor given "
            "names row %d (truncated)" % (end + 1, end, last["seq"])) in out


@pytest.mark.parametrize("text", ["12", "12:abc", "0:" + "a" * 64, "x:" + "a" * 64])
def test_an_anchor_not_written_as_journal_head_prints_it_exits_2(journal_copy, capsys, text):
    with pytest.raises(SystemExit) as e:
        cli.main(["journal", "verify", str(journal_copy), "--head", text])
    assert e.value.code == 2 and "SEQ:HASH" in capsys.readouterr().err


def test_the_wrong_key_is_named_by_key_ids_not_as_an_edit(keyed, capsys, tmp_path):
    rc, out = verify(capsys, keyed, "--key", key_file(tmp_path / "k", OTHER))
    assert rc == 1
    assert ("keyed with key id %s; the key given has key id %s: the wrong key"
            % (key_id(KEY), key_id(OTHER))) in out
    assert "edited" not in out and "bad row" not in out


def test_a_keyed_journal_without_its_key_is_refused_not_reported_edited(keyed, capsys,
                                                                        tmp_path):
    rc, out = verify(capsys, keyed)
    assert rc == 1 and "is keyed (key id %s)" % key_id(KEY) in out and "edited" not in out
    assert cli.main(["journal", "show", str(keyed), "--round", "1"]) == 1
    assert "is keyed" in capsys.readouterr().err
    table, policies = fresh("raise-it-up-stud")
    with pytest.raises(JournalError, match="is keyed"):
        boot(str(keyed), table, policies)
    assert cli.main(["sim", "--game", "raise-it-up-stud", "--rounds", "1", "--journal",
                     str(keyed)]) == 1
    assert "is keyed" in capsys.readouterr().err


def test_a_keyed_journal_rewritten_as_an_unkeyed_one_fails_with_the_key(either_keyed, capsys,
                                                                       tmp_path):
    """Either format (tamper.strip_key)."""
    keyed = either_keyed
    tamper.strip_key(keyed)                              # every hash SHA-256 from row 1
    rc, out = verify(capsys, keyed)                      # a consistent unkeyed journal, but
    assert rc == 1 and "written for a keyed journal" in out, out   # its anchor file says no
    os.unlink(str(keyed) + ".anchor")
    tamper.drop_meta(keyed, "anchored")
    assert verify(capsys, keyed)[0] == 0                 # a consistent unkeyed journal...
    rc, out = verify(capsys, keyed, "--key", key_file(tmp_path / "k"))
    assert rc == 1 and "is not keyed, but a key was given" in out    # ...not the table's


def test_boot_keys_a_new_journal_and_resumes_it_only_with_its_key(tmp_path):
    path = str(tmp_path / "t.db")
    table, policies = fresh()
    ctl = boot(path, table, policies, key=KEY)
    try:
        ctl.process(ctl.event("open_table", {"decks": 1}))
        assert ctl.store.keyed and ctl.store.key_id == key_id(KEY)
    finally:
        ctl.close()
    table, policies = fresh()
    with pytest.raises(JournalError, match="the wrong key"):
        boot(path, table, policies, key=OTHER)
    table, policies = fresh()
    ctl = boot(path, table, policies, key=KEY)
    try:
        assert ctl.boot_report["problem"] is None and ctl.model.state == "opened"
    finally:
        ctl.close()
    store = open_journal(path, key=KEY)
    try:
        assert store.verify() is None                   # the resumed boot wrote under it
        assert [r["kind"] for r in store.rows()][-1] == "boot"
    finally:
        store.close()


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o620])
def test_a_key_file_others_may_read_or_write_is_refused_naming_it(tmp_path, capsys,
                                                                   journal_copy, mode):
    path = key_file(tmp_path / "journal.key", mode=mode)
    with pytest.raises(JournalError, match="journal key %s is accessible by group or others"
                       % path):
        read_key(path)
    rc, out = verify(capsys, journal_copy, "--key", path)
    assert rc == 1 and path in out and "chmod 600" in out
    assert cli.main(["sim", "--game", "raise-it-up-stud", "--rounds", "1", "--journal",
                     str(tmp_path / "new.db"), "--key", path]) == 1
    assert path in capsys.readouterr().err and not os.path.exists(tmp_path / "new.db")


def test_a_key_too_short_or_missing_is_refused_naming_it(tmp_path):
    short = key_file(tmp_path / "short", b"secret")
    with pytest.raises(JournalError, match="journal key %s holds 6 bytes" % short):
        read_key(short)
    with pytest.raises(JournalError, match="journal key %s: No such file" % (tmp_path / "no")):
        read_key(str(tmp_path / "no"))
    assert read_key(key_file(tmp_path / "k")) == KEY            # the newline is not the key


def test_the_key_is_configured_in_the_controller_section():
    cls = model_class("blackjack")
    cfg = configuration.validate({"controller": {"journal_key": "/etc/tablectl/journal.key"}},
                                 cls)
    assert cfg["controller"]["journal_key"] == "/etc/tablectl/journal.key"
    for bad in (5, ""):
        with pytest.raises(ConfigError, match=r"controller\.journal_key"):
            configuration.validate({"controller": {"journal_key": bad}}, cls)
