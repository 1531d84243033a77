"""Nothing on the wire reveals a card before the round is over; a table publishes only as
itself, and only with its own credential."""

import asyncio
import json
import time

import pytest

from controller.wire import subjects as S
from controller.wire.outbox import carries_card, releasable
from controller.wire.uplink import Uplink
from controller.journal.store import Store
from controller.journal.show import hide_cards
from tests.floor.conftest import FLOOR_PW, journal_rows, run, stream_rows, wait_for


def row(seq, entry, kind, data):
    return {"seq": seq, "entry": entry, "kind": kind, "data": json.dumps(data)}


def test_rows_with_cards_wait_for_the_end_of_their_round():
    rows = [row(1, "event", "wager", {"seat": 1, "amount": 500}),
            row(2, "event", "card", {"card": "Ah"}),
            row(3, "event", "fault", {"device": "shoe"}),     # after a card: order is kept
            row(4, "snapshot", "snapshot", {"cards": ["Ah"]}),
            row(5, "event", "wager", {"seat": 1, "amount": 500}),
            row(6, "event", "card", {"card": "Kd"})]
    assert releasable(rows[:1]) == 1
    assert releasable(rows[:3]) == 1
    assert releasable(rows) == 5
    assert carries_card(row(7, "event", "rejected", {"frame": "4b6400"}))   # bytes may hold one
    assert not carries_card(row(8, "event", "dice", {"dice": [3, 4]}))


def _store(path):
    st = Store.create(path)
    st.append([(1, "controller", "genesis", "genesis", 0, {"game": "flop-poker"}),
               (2, "controller", "snapshot", "snapshot", 0, {"table": {}})])
    return st


def test_no_card_is_on_the_wire_before_its_round_is_over(floor, tmp_path):
    """A real journal appended as a table deals: the floor's copy of the stream holds the
    wagers at once, no card while the round is in progress, all of it once it is over."""
    path = str(tmp_path / "t1.journal")
    st = _store(path)
    up = Uplink(path, "T1", floor.url, password=floor.passwords["T1"]).start()
    try:
        st.append([(3, "dealer_panel", "event", "wager", 1, {"seat": 1, "amount": 500})])
        wait_for(lambda: len(stream_rows(floor.url, "T1")) == 3, what="the wager sent")
        st.append([(4, "shoe", "event", "card", 1, {"card": "Ah"}),
                   (5, "shoe", "event", "card", 1, {"card": "Kd"}),
                   (6, "shuffler", "event", "fault", 1, {"device": "shuffler"})])
        time.sleep(0.6)                         # a dozen polls of the uplink
        wire = stream_rows(floor.url, "T1")
        assert len(wire) == 3
        assert all(hide_cards(json.loads(r["data"])) == json.loads(r["data"]) for _, r in wire)
        assert up.link_status()["held_for_round"] == 3
        st.append([(7, "controller", "snapshot", "snapshot", 1, {"dealt": ["Ah", "Kd"]})])
        wait_for(lambda: len(stream_rows(floor.url, "T1")) == 7, what="the round sent")
    finally:
        up.stop()
        st.close()
    assert [r for _, r in stream_rows(floor.url, "T1")] == journal_rows(path)


def test_a_played_round_shows_no_card_before_its_snapshot(floor, tmp_path):
    """Over a real simulated table's play: every card row reached the stream only with (or
    after) the snapshot that closed its round, which the stream order shows."""
    from controller.wire.uplink import attach
    from controller.lab.sim import Simulation
    journal = str(tmp_path / "t1.journal")
    sim = Simulation("blackjack", seed=2, journal=journal)
    seen = []

    async def watch(stop):
        import nats
        nc = await nats.connect(floor.url, user="floor", password=FLOOR_PW,
                                inbox_prefix=S.inbox_prefix("floor"))
        sub = await nc.jetstream().subscribe(S.journal_subject("T1"), ordered_consumer=True)
        while not stop.is_set():
            try:
                msg = await sub.next_msg(timeout=0.1)
            except Exception:               # noqa: BLE001 - nothing yet
                continue
            seen.append((time.monotonic(), json.loads(msg.data)))
        await sub.unsubscribe()
        await nc.close()
    import threading
    stop = asyncio.Event()
    loop = asyncio.new_event_loop()
    t = threading.Thread(target=lambda: loop.run_until_complete(watch(stop)))
    t.start()
    try:
        attach(sim, sim.ctl, journal, "T1", floor.url, floor.passwords["T1"], drain_s=10)
        sim.run(3)
    finally:
        sim.close()
        wait_for(lambda: len(seen) == len(journal_rows(journal)), what="every row seen")
        loop.call_soon_threadsafe(stop.set)
        t.join(10)
        loop.close()
    rows = journal_rows(journal)
    clock = json.loads(next(r["data"] for r in rows if r["kind"] == "clock"))
    assert clock["offset_ns"] == 0      # a new journal: table time is this host's monotonic
    arrivals = {r["seq"]: ts for ts, r in seen}
    snaps = {r["seq"]: r["ts_ns"] for _, r in seen if r["entry"] == "snapshot"}
    cards = [r for _, r in seen if carries_card(r) and r["entry"] != "snapshot"]
    assert len(cards) > 20
    for r in cards:
        closing = min(s for s in snaps if s > r["seq"])
        # seen on the wire only after the table wrote the snapshot that ended its round
        assert arrivals[r["seq"]] * 1e9 >= snaps[closing], r


# ---- security -------------------------------------------------------------------------------

async def _try_publish(url, user, password, subject):
    import nats
    from nats.js.errors import NoStreamResponseError
    errors = []

    async def on_error(e):
        errors.append(str(e))
    nc = await nats.connect(url, user=user, password=password, error_cb=on_error,
                            inbox_prefix=S.inbox_prefix(user),
                            max_reconnect_attempts=0)
    try:
        try:
            await nc.jetstream(timeout=1).publish(subject, b"{}", headers={
                "Nats-Msg-Id": "%s:1" % subject.rsplit(".", 1)[-1]})
            return "stored", errors
        except (asyncio.TimeoutError, NoStreamResponseError) as e:
            await asyncio.sleep(0.2)
            return type(e).__name__, errors
        except Exception as e:                  # noqa: BLE001
            return str(e), errors
    finally:
        await nc.close()


def test_table_a_is_refused_when_it_publishes_as_table_b(floor):
    result, errors = run(_try_publish(floor.url, "T1", floor.passwords["T1"],
                                      S.journal_subject("T2")))
    assert result != "stored"
    assert any("ermissions" in e for e in errors), errors
    assert stream_rows(floor.url, "T2") == []
    # its own subject it may
    result, _ = run(_try_publish(floor.url, "T1", floor.passwords["T1"], S.journal_subject("T1")))
    assert result == "stored"


def test_a_table_cannot_read_another_tables_rows_or_the_floor_bucket(floor):
    import nats

    async def go():
        errors = []

        async def on_error(e):
            errors.append(str(e))
        nc = await nats.connect(floor.url, user="T1", password=floor.passwords["T1"],
                                inbox_prefix=S.inbox_prefix("T1"),
                                error_cb=on_error, max_reconnect_attempts=0)
        try:
            js = nc.jetstream(timeout=1)
            with pytest.raises(Exception):
                await js.get_last_msg(S.STREAM, S.journal_subject("T2"), direct=True)
            with pytest.raises(Exception):
                await js.key_value(S.KV_BUCKET)
        finally:
            await nc.close()
        return errors
    assert any("ermissions" in e for e in run(go()))


def test_a_wrong_credential_is_refused(floor, tmp_path):
    import nats
    from nats.errors import NoServersError

    async def go():
        with pytest.raises((NoServersError, Exception)) as e:
            await nats.connect(floor.url, user="T1", password="not-T1s",
                               max_reconnect_attempts=0, connect_timeout=1,
                               allow_reconnect=False, error_cb=lambda e: asyncio.sleep(0))
        return e
    run(go())
    path = str(tmp_path / "t1.journal")
    _store(path).close()
    up = Uplink(path, "T1", floor.url, password="not-T1s").start()
    try:
        wait_for(lambda: "uthoriz" in (up.link_status()["error"] or ""), what="refusal")
        assert up.link_status()["state"] == "down" and up.acked_seq == 0
    finally:
        up.stop()
    assert stream_rows(floor.url, "T1") == []
