"""A linked table killed (SIGKILL, a real process: tests/floor/link_table_proc.py) and
restarted from its journal: a hit sent before the crash is paid exactly once, whether its
award was made while the table was dead or is made after it returns; a round interrupted
mid-play is void and its contributions are withdrawn from the link."""

import json
import os
import signal
import subprocess
import sys

import pytest

from tests.floor.conftest import ROOT, journal_rows
from tests.floor.test_link_table import fake, link_floor  # noqa: F401 - fixtures


def start(journal, floor, mode):
    return subprocess.Popen([sys.executable, "-m", "tests.floor.link_table_proc", journal,
                             floor.url, floor.password_file("T1"), mode], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def until_sent(proc):
    for line in proc.stdout:
        if line.startswith("SENT"):
            return json.loads(line.split(" ", 1)[1])
    raise AssertionError("the table process ended: %s" % proc.stderr.read()[-2000:])


def kill(proc):
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    proc.stdout.close()
    proc.stderr.close()


def resume(journal, floor):
    p = subprocess.run([sys.executable, "-m", "tests.floor.link_table_proc", journal, floor.url,
                        floor.password_file("T1"), "resume"], cwd=ROOT, capture_output=True,
                       text=True, timeout=90)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def kinds(journal, kind):
    return [json.loads(r["data"]) for r in journal_rows(journal) if r["kind"] == kind]


@pytest.mark.parametrize("award_while", ["dead", "back"])
@pytest.mark.reg("669a.12(e)(4)", "669a.11(i)(3)(i)(D)")
def test_a_table_killed_after_sending_a_hit_pays_it_exactly_once(tmp_path, link_floor, fake,
                                                                 award_while):
    journal = str(tmp_path / "t1.db")
    fake.hold_awards = True
    proc = start(journal, link_floor, "hit")
    try:
        assert until_sent(proc) == ["1:1"]
    finally:
        kill(proc)
    assert [h["id"] for h in fake.hits] == ["T1:1:1"]
    assert kinds(journal, "link_award") == []
    if award_while == "dead":
        fake.release(publish=True)          # made and published to no one: read back later
    else:
        import threading
        threading.Timer(2.0, fake.release).start()
    out = resume(journal, link_floor)
    assert out["done"], out
    award = fake.awards[0]
    assert len(fake.awards) == 1 and len(fake.hits) == 1     # the hit sent again: stored once
    paid = kinds(journal, "link_award")
    assert paid == [{"link": "L1", "id": "T1:1:1", "seq": award["seq"], "seat": "1",
                     "amount": award["amount"]}]
    meter = out["meter"]
    assert meter["hits"] == 1 and meter["paid"] == award["amount"] and not meter["link"]["hits"]
    assert out["integrity"] == []           # the hit's duplicate is the table's own
    # once more, from the journal alone: nothing owed, nothing paid again
    out = resume(journal, link_floor)
    assert out["meter"]["paid"] == award["amount"] and len(kinds(journal, "link_award")) == 1


@pytest.mark.reg("669a.13(d)", "669a.7(c)")
def test_a_table_restarted_mid_round_voids_it_and_withdraws_its_contributions(
        tmp_path, link_floor, fake):
    journal = str(tmp_path / "t1.db")
    proc = start(journal, link_floor, "round")
    try:
        accepted = until_sent(proc)
    finally:
        kill(proc)
    assert accepted == ["1:1", "1:2"]
    assert fake.value == 100000 + 2 * 14
    out = resume(journal, link_floor)
    assert out["done"], out
    withdrawn = kinds(journal, "link_withdraw")
    assert sorted(w["id"] for w in withdrawn) == ["T1:1:1", "T1:1:2"]
    assert sorted(w["id"] for w in fake.withdrawals) == ["T1:1:1", "T1:1:2"]
    assert {w["id"]: w["seq"] for w in withdrawn} == \
        {w["id"]: w["seq"] for w in fake.withdrawals}
    assert fake.value == 100000 and fake.refused == []
    assert out["meter"]["contributed"] == 0 and out["meter"]["wagers"] == 0
    # the contributions sent again before their withdraws were acknowledged as duplicates
    # of the earlier process's: the table's own, no integrity alarm (issue 31)
    assert out["integrity"] == []
