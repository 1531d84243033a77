"""Journals written by main at af28839, before the round's waits became machine states
(issue 12): one per game (`tablectl sim --game GAME --rounds 3 --seed 12 --journal ...`)
and three with a lock-out in a round (`--seed 5 --fault shoe:jam:0.5`, and
`card_reader:fail:0.5` for Raise It Up). They are the proof that a journal of the earlier
snapshot format still verifies (every snapshot equal to its replay), still reconstructs
each round exactly as that code did (tests/fixtures/journals/expected.json: digests of
each round's reconstruction and of the replay's final state, written by that code), and still boots and resumes, its new rows in the new format after the old ones.

Regenerate expected.json only with the code that wrote the journals:
    python -m tests.journal.test_journals_before_waits --write
"""
import hashlib
import json
import os
import shutil
import sys

import pytest

from controller import cli
from controller.games import model_class
from controller.games.engine import LOCKED_OUT
from controller.journal.cli import show_round
from controller.journal.live import check
from controller.journal.formats import open_journal

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "fixtures", "journals")
EXPECTED = os.path.join(HERE, "expected.json")
PREFIX = "main-af28839-"


def fixtures():
    return sorted(n for n in os.listdir(HERE) if n.startswith(PREFIX) and n.endswith(".db"))


def game_of(name):
    return name[len(PREFIX):-len(".db")].replace("-lockout", "")


def copy(name, tmp_path):
    path = tmp_path / name
    shutil.copy(os.path.join(HERE, name), path)
    shutil.copy(os.path.join(HERE, name + ".anchor"), str(path) + ".anchor")
    return path


def observed(path, game):
    """What the journal says happened: each round as `journal show --round N --json`
    reconstructs it, and the table's state at the end of the replay (its lifecycle state,
    its model's data, the policies and the counters)."""
    store = open_journal(str(path))
    try:
        replay, problem = check(store, model_class(game), full=True)
    finally:
        store.close()
    assert problem is None, problem
    model = replay.ctl.model
    rounds = {str(n): show_round(str(path), n) for n in range(1, replay.last_round + 1)}
    final = {"state": model.state, "model": model.to_json(),
             "policies": replay.state()["policies"], "counters": replay.counters}
    return {"rounds": {n: {"status": doc.get("status"), "digest": digest(doc)}
                       for n, doc in rounds.items()},
            "final": {"state": model.state, "round_no": model.round_no,
                      "digest": digest(final)}}


def digest(doc):
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def test_every_game_has_a_journal_of_the_earlier_format():
    games = {game_of(n) for n in fixtures()}
    from controller.games import GAMES
    assert games == set(GAMES)


@pytest.mark.reg("581.7(q)")
@pytest.mark.parametrize("name", fixtures())
def test_a_journal_before_the_waits_verifies_and_replays_to_the_same_rounds(tmp_path, capsys,
                                                                          name):
    path = copy(name, tmp_path)
    assert cli.main(["journal", "verify", str(path)]) == 0, capsys.readouterr()
    assert "every snapshot equals its replay" in capsys.readouterr().out
    with open(EXPECTED) as f:
        expected = json.load(f)[name]
    assert observed(path, game_of(name)) == expected


@pytest.mark.parametrize("name", [n for n in fixtures() if "lockout" in n][:1] +
                         [n for n in fixtures() if "lockout" not in n][:1])
def test_a_journal_before_the_waits_boots_and_resumes(tmp_path, capsys, name):
    from controller.journal import boot
    from controller.policies import default_policies
    from tests import builders
    path = copy(name, tmp_path)
    game = game_of(name)
    ctl = boot(str(path), builders.table(game), default_policies(game))
    try:
        assert ctl.boot_report["problem"] is None and ctl.model.state != LOCKED_OUT
    finally:
        ctl.close()
    assert cli.main(["journal", "verify", str(path)]) == 0, capsys.readouterr()


def write_expected(tmp):
    out = {}
    for name in fixtures():
        path = copy(name, tmp)
        out[name] = observed(path, game_of(name))
    with open(EXPECTED, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    import pathlib
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        write_expected(pathlib.Path(d))
