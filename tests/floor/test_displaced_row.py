"""A table notices when the stream does not hold its row (issue 31), against a real
nats-server: someone holding the table's NATS password publishes a row with the table's next
message id first; the stream stores it and drops the table's own as a duplicate. Before,
the table skipped its row and never knew; the floor flagged the row after the forged one.
Now the table's uplink compares the stored row with its journal's, journals the alarm
(`floor_integrity`), announces it, sends it in its status, and the floor names the forged
row itself."""

import asyncio
import json

from controller.lab.sim import Simulation
from controller.wire import subjects as S
from controller.wire.uplink import attach
from tests.floor.conftest import ServiceThread, _connect, journal_rows, run, wait_for


async def _forge(url, password):
    """With T1's password only: a row claiming to be T1's next seq, stored first. The table
    may store a row of its own between the read and the publish (the stream then refuses
    the forgery's expected last sequence): read again and forge the next one. Returns (the
    forged seq, its stream seq)."""
    from nats.js.errors import BadRequestError
    nc = await _connect(url, user="T1", password=password)
    try:
        js = nc.jetstream(timeout=5)
        for _ in range(20):
            last = await js.get_last_msg(S.STREAM, S.journal_subject("T1"), direct=True)
            prev = json.loads(last.data)
            seq = prev["seq"] + 1
            row = {"seq": seq, "ts_ns": 1, "source": "dealer", "entry": "event",
                   "kind": "wager", "round_no": 0, "data": json.dumps({"forged": True}),
                   "prev_hash": prev["hash"], "hash": "f" * 64}
            try:
                ack = await js.publish(S.journal_subject("T1"), json.dumps(row).encode(),
                                       headers={"Nats-Msg-Id": S.msg_id("T1", seq),
                                                "Nats-Expected-Last-Subject-Sequence":
                                                str(last.seq)})
            except BadRequestError:             # the table's own row came first: again
                continue
            return seq, ack.seq
        raise AssertionError("the table's rows always came first")
    finally:
        await nc.close()


def test_a_displaced_row_is_detected_on_the_table_and_named_on_the_floor(floor, tmp_path):
    journal = str(tmp_path / "t1.journal")
    service = ServiceThread(floor.url)
    sim = Simulation("flop-poker", seed=4, journal=journal)
    told, said = [], []
    console = sim.runtime.console
    announce = console.announce                  # the console's own, watched: it still runs
    console.announce = lambda text: (said.append(text), announce(text))
    try:
        up = attach(sim, sim.ctl, journal, "T1", floor.url, floor.passwords["T1"],
                    drain_s=10)
        up.on_integrity.append(told.append)
        sim.run(1)
        wait_for(lambda: up.rows_waiting() == 0 and up.acked_seq == up.head_seq,
                 what="round 1 on the floor")
        # the row the table writes next
        target, forged_at = run(_forge(floor.url, floor.passwords["T1"]))
        sim.run(1)
        alarm = wait_for(lambda: told and told[0], timeout=60, what="the table's alarm")
    finally:
        sim.close()
    try:
        assert alarm["seq"] == target and alarm["stream_seq"] == forged_at
        assert "not this table's" in alarm["why"]
        assert up.integrity[0]["seq"] == target
        assert said and said[0].startswith("*** FLOOR INTEGRITY: the stream's row %d" % target)
        # journaled on the table, as an input of the record
        noted = [json.loads(r["data"]) for r in journal_rows(journal)
                 if r["kind"] == "floor_integrity"]
        assert [n["seq"] for n in noted] == [target]
        # and the floor names the forged row itself, not the one after it
        problems = wait_for(lambda: [p for p in service.service.summary("T1")[
            "integrity"]["problems"] if "not the table's" in p["reason"]], timeout=20,
            what="the floor naming the forged row")
        assert problems[0]["seq"] == target
    finally:
        service.stop()
