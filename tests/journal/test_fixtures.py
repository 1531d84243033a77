"""Journals written by the code before the anchor, the lock and the in-place meters (main at
08d13d7, `tablectl sim --rounds 2 --seed 3`) still open, verify and resume: their first
boot verifies them whole and writes their anchor (docs/journal.md, Boot)."""
import os
import shutil

import pytest

from controller import cli
from controller.games.engine import LOCKED_OUT
from controller.journal.anchor import anchor_path
from tests.journal.conftest import KEY, rows_of
from tests.journal.test_boot import fresh

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
FIXTURES = [("main-08d13d7-raise-it-up-stud.db", "raise-it-up-stud", None),
            ("main-08d13d7-blackjack-keyed.db", "blackjack", KEY)]


def key_file(tmp_path):
    path = tmp_path / "key"
    path.write_bytes(KEY)
    os.chmod(path, 0o600)
    return str(path)


@pytest.mark.parametrize("name, game, key", FIXTURES)
def test_a_journal_of_the_previous_version_verifies_and_resumes(tmp_path, capsys, name,
                                                                game, key):
    from controller.journal import boot
    path = tmp_path / "j.db"
    shutil.copy(os.path.join(HERE, name), path)
    args = [] if key is None else ["--key", key_file(tmp_path)]
    assert cli.main(["journal", "verify", str(path)] + args) == 0, capsys.readouterr()
    before = rows_of(path)[-1]["seq"]
    table, policies = fresh(game)
    ctl = boot(str(path), table, policies, key=key)
    try:
        assert ctl.boot_report["problem"] is None and ctl.model.state != LOCKED_OUT
        assert ctl.boot_report["verified_from"] == 1          # whole, the first time
    finally:
        ctl.close()
    assert os.path.exists(anchor_path(path))                 # and anchored from then on
    assert rows_of(path)[-1]["seq"] > before
    assert cli.main(["journal", "verify", str(path)] + args) == 0, capsys.readouterr()
    table, policies = fresh(game)
    again = boot(str(path), table, policies, key=key)
    try:
        assert again.boot_report["problem"] is None
        assert again.boot_report["verified_from"] > 1          # from its anchor now
    finally:
        again.close()
