"""The floor side: chain continuity from what arrives, each table's state and meters in the
KV bucket equal to the table's own, the journal head anchor, and a floor service that is
SIGKILLed and restarted losing nothing and counting nothing twice."""

import json
import os
import signal
import subprocess
import sys

from controller.wire import subjects as S
from controller.floor.fold import TableView
from controller.wire.uplink import attach
from controller.journal.chain import GENESIS_HASH, row_hash
from controller.lab.sim import Simulation
from tests.floor.conftest import (FLOOR_PW, ROOT, ServiceThread, assert_exactly_once,
                                  journal_meters, journal_rows, kv_get, run, sim_args,
                                  tablectl, wait_for)


def chain(n):
    rows, prev = [], GENESIS_HASH
    for seq in range(1, n + 1):
        r = {"seq": seq, "ts_ns": seq, "source": "x", "entry": "event", "kind": "wager",
             "round_no": 1, "data": json.dumps({"seat": 1, "amount": 100}), "prev_hash": prev}
        r["hash"] = prev = row_hash(prev, r)
        rows.append(r)
    return rows


def test_a_continuous_chain_is_not_flagged_and_a_redelivery_is_skipped():
    v = TableView("T1")
    rows = chain(5)
    for r in rows:
        assert v.apply(r)
    assert not v.apply(rows[3])                 # a redelivery after a floor restart
    assert v.s["integrity"]["ok"] and v.head == (5, rows[-1]["hash"])
    assert v.s["redelivered"] == 1


def test_rows_out_of_order_are_flagged():
    v = TableView("T1")
    rows = chain(5)
    for r in rows[:2] + rows[3:]:
        v.apply(r)
    assert not v.s["integrity"]["ok"]
    assert v.s["integrity"]["problems"][0]["seq"] == 4
    assert "out of order" in v.s["integrity"]["problems"][0]["reason"]


def test_a_rewritten_journal_is_flagged():
    v = TableView("T1")
    rows = chain(5)
    for r in rows[:3]:
        v.apply(r)
    other = chain(6)                            # a journal written again from row 1
    forged = dict(other[3], data=json.dumps({"seat": 1, "amount": 999}))
    forged["prev_hash"] = "f" * 64
    forged["hash"] = row_hash(forged["prev_hash"], forged)
    v.apply(forged)
    assert "rewritten" in v.s["integrity"]["problems"][0]["reason"]


def test_an_edited_row_is_flagged():
    v = TableView("T1")
    rows = chain(3)
    v.apply(rows[0])
    v.apply(dict(rows[1], data=json.dumps({"seat": 1, "amount": 100000})))
    assert "edited" in v.s["integrity"]["problems"][0]["reason"]


def own_fold(table, journal):
    v = TableView(table)
    for r in journal_rows(journal):
        v.apply(r)
    return v.s


def test_the_bucket_holds_each_tables_state_meters_and_anchor(floor, tmp_path):
    svc = ServiceThread(floor.url)
    sims = []
    try:
        for table, game, seed in (("T1", "flop-poker", 1), ("T2", "props-and-hops", 2),
                                  ("T3", "raise-it-up-stud", 3)):
            journal = str(tmp_path / ("%s.journal" % table))
            sim = Simulation(game, seed=seed, journal=journal,
                             faults=[("shuffler", "jam", 1.0)] if game != "props-and-hops"
                             else [("dice_reader", "no_roll", 1.0)])
            sims.append((table, journal, sim))
            attach(sim, sim.ctl, journal, table, floor.url, floor.passwords[table],
                   drain_s=10)
        for table, journal, sim in sims:
            sim.run(6)
    finally:
        for _, _, sim in sims:
            sim.close()
    try:
        for table, journal, sim in sims:
            n = len(journal_rows(journal))
            wait_for(lambda: _head(floor, table) == n, what="the floor to fold %s" % table)
            doc = json.loads(kv_get(floor.url, "table.%s" % table))
            assert doc["integrity"]["ok"], doc["integrity"]
            assert doc["meters"] == journal_meters(journal)
            assert doc["meters"]["rounds"] + doc["meters"]["voids"] == 6
            assert doc["game"] == sim.game
            assert doc["wagers"] == own_fold(table, journal)["wagers"]
            assert doc["wagers"] or doc["meters"]["rounds"] == 0    # every round void
            # the table's own money meters (a void round's wagers are returned: no handle)
            from tests.floor.test_pit import own_money
            handle = sum(w["handle"] for w in doc["wagers"].values())
            assert (handle, -sum(w["net"] for w in doc["wagers"].values())) == \
                own_money(journal)
            assert sum(w["net"] for w in doc["wagers"].values()) == \
                sum(r["net"] for r in sim.summary()["return_to_player"].values())
            los = sim.summary()["lockouts"]
            assert len(doc["lockouts"]) == len(los)
            assert los or sim.game == "props-and-hops"      # a no-roll is rolled again
            assert [lo["reason"] for lo in doc["lockouts"]] == [lo["reason"] for lo in los]
            assert all(lo["cleared"] and lo["cleared"]["by"].startswith("FP-")
                       for lo in doc["lockouts"])
            last = journal_rows(journal)[-1]
            assert kv_get(floor.url, "anchor.%s" % table).decode() == \
                "%d:%s" % (last["seq"], last["hash"])
    finally:
        svc.stop()
    # the table can compare its journal with the floor's copy of its head
    anchor = subprocess.run([sys.executable, "-m", "controller.cli", "floor", "--nats",
                             floor.url, "--password-file", floor.floor_password_file(),
                             "anchor", "T1"], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert anchor.returncode == 0, anchor.stderr
    check = subprocess.run([sys.executable, "-m", "controller.cli", "journal", "verify",
                            sims[0][1], "--head", anchor.stdout.strip()], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_forged_row_sent_under_the_tables_own_credential_is_flagged(floor, tmp_path):
    import nats
    journal = str(tmp_path / "T1.journal")
    sim = Simulation("flop-poker", seed=1, journal=journal)
    try:
        up = attach(sim, sim.ctl, journal, "T1", floor.url, floor.passwords["T1"], drain_s=10)
        sim.run(1)
    finally:
        sim.close()
    last = journal_rows(journal)[-1]
    forged = dict(last, seq=last["seq"] + 1, prev_hash="0" * 64, kind="wager",
                  entry="event", data=json.dumps({"seat": 1, "amount": 1}))
    forged["hash"] = row_hash(forged["prev_hash"], forged)

    async def send():
        nc = await nats.connect(floor.url, user="T1", password=floor.passwords["T1"],
                                inbox_prefix=S.inbox_prefix("T1"))
        await nc.jetstream().publish(S.journal_subject("T1"), json.dumps(forged).encode(),
                                     headers={"Nats-Msg-Id": "T1:%d" % forged["seq"],
                                              "Nats-Expected-Last-Subject-Sequence":
                                              str(up.stream_seq)})
        await nc.close()
    run(send())
    svc = ServiceThread(floor.url)
    try:
        wait_for(lambda: _head(floor, "T1") == forged["seq"], what="the forged row folded")
        doc = json.loads(kv_get(floor.url, "table.T1"))
    finally:
        svc.stop()
    assert not doc["integrity"]["ok"]
    assert doc["integrity"]["problems"][0]["seq"] == forged["seq"]


def test_the_floor_service_sigkilled_and_restarted_counts_every_row_once(floor, tmp_path):
    def start_floor():
        p = subprocess.Popen([sys.executable, "-m", "controller.cli", "floor", "--nats",
                              floor.url, "--password-file", floor.floor_password_file(),
                              "--http", "127.0.0.1:0"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=open(str(tmp_path / "floor.log"), "a"), text=True,
                             env=dict(os.environ, TABLECTL_FLOOR_DEBUG="1"))
        line = p.stdout.readline()
        assert line.startswith("floor page: http://127.0.0.1:"), \
            open(str(tmp_path / "floor.log")).read()[-2000:]
        return p
    journals = {t: str(tmp_path / ("%s.journal" % t)) for t in ("T1", "T2")}
    tables = [tablectl(*sim_args(floor, t, journals[t], game=g, rounds=40, seed=i))
              for i, (t, g) in enumerate((("T1", "blackjack"), ("T2", "flop-poker")))]
    fl = start_floor()
    try:
        wait_for(lambda: _head(floor, "T1") > 100, what="the floor folding T1")
        os.kill(fl.pid, signal.SIGKILL)
        fl.communicate(timeout=10)
        for p in tables:
            _, err = p.communicate(timeout=180)
            assert p.returncode == 0, err[-2000:]
        fl = start_floor()
        for t, j in journals.items():
            n = len(journal_rows(j))
            wait_for(lambda: _head(floor, t) == n, timeout=60, what="the floor to catch up")
    finally:
        fl.send_signal(signal.SIGTERM)
        fl.communicate(timeout=20)
        for p in tables:
            if p.poll() is None:
                p.kill()
                p.communicate()
    for t, j in journals.items():
        assert_exactly_once(floor.url, t, j)
        doc = json.loads(kv_get(floor.url, "table.%s" % t))
        assert doc["integrity"]["ok"], doc["integrity"]
        assert doc["rows"] == len(journal_rows(j))          # none folded twice
        assert doc["meters"] == journal_meters(j)
        assert doc["wagers"] == own_fold(t, j)["wagers"]
    assert FLOOR_PW


def _head(floor, table):
    try:
        return json.loads(kv_get(floor.url, "table.%s" % table))["head"]["seq"]
    except Exception:                           # noqa: BLE001 - not there yet
        return 0
