"""A message forged under the table's next link message id (issue 31, h31b's open hole):
someone holding only a table's NATS password publishes first under the id the table will
use for its next contribution or hit. The link's controller refuses the forgery (not the
table's signature), but with a guessable id the stream then dropped the table's own message
as a duplicate: the wager was accepted at the table on the forgery's acknowledgement yet
never reached the meter, and the round's genuine hit could never be paid.

Real parts: a nats-server with the contract's permissions, the link's real controller
(controller/floor/linkctl.py), a simulated Raise It Up table with its real link client."""

import asyncio
import json
import time

import pytest

from controller.wire import signing
from controller.wire import subjects as S
from tests.floor.conftest import _connect, journal_rows, wait_for
from tests.floor.link_table_proc import rig
from tests.floor.test_link_controller import controller, define, meter
from tests.floor.test_link_table_e2e import Table

ROUNDS, SEATS = range(1, 4), range(1, 8)


async def _forge(url, password, ids):
    """T1's password alone (no key of T1's): an unsigned message stored under each id."""
    nc = await _connect(url, user="T1", password=password)
    js = nc.jetstream(timeout=5)
    try:
        for kind, ident, msg_id in ids:
            r, s = ident.split(":")[1:]
            doc = {"type": kind, "id": ident, "link": "L1", "table": "T1", "round": int(r),
                   "seat": s, "wager": 500, "jseq": 1, "ts_ns": time.time_ns()}
            if kind == "hit":
                doc.update(hand="As Ks Qs".split(), share=[1, 1], cseq=1)
            await js.publish(S.link_subject("L1", "T1"), json.dumps(doc).encode(),
                             headers={"Nats-Msg-Id": msg_id})
    finally:
        await nc.close()


def _guessable_ids():
    """Every id the table could use next under the old contract, "<type>:<link>:<id>"."""
    return [(kind, "T1:%d:%d" % (r, s), "%s:L1:T1:%d:%d" % (kind, r, s))
            for r in ROUNDS for s in SEATS for kind in ("contribution", "hit")]


def _accepted(t):
    t.sim.commit()
    return [json.loads(r["data"]) for r in journal_rows(t.journal)
            if r["kind"] == "link_contribution"]


@pytest.mark.reg("669a.12(e)(4)", "669a.2(c)", "605a.7")
def test_a_forgery_under_the_next_message_id_does_not_displace_the_tables_own(floor, tmp_path):
    """The forger stores a contribution and a hit under every id of the next rounds the old
    contract made guessable; the table then plays a round with seat 1's royal hit. Its own
    contribution and hit are stored beside the forgeries (their ids are its key's), so its
    wager is accepted on its own message's acknowledgement, the meter counts it, and the
    genuine hit is paid; each forgery is refused and alarmed."""
    assert define(floor)[0] == 0
    ctl = controller(floor)
    t = None
    try:
        asyncio.run(_forge(floor.url, floor.passwords["T1"], _guessable_ids()))
        wait_for(lambda: meter(floor.url).get("alarm_count", 0) >= 2 * len(ROUNDS) * len(SEATS),
                 timeout=60, what="every forgery refused")
        t = Table(tmp_path, floor, floor.url)
        rig(t.sim.autoplay)
        assert t.sim.run(1) == 1
        accepted = _accepted(t)
        assert accepted, "no wager accepted"
        # each wager was accepted on the acknowledgement of the table's own message, which
        # the link applied (its contribution counted at that stream seq)
        m = wait_for(lambda: (lambda m: m if m["contributions"] == len(accepted) else None)(
            meter(floor.url)), timeout=60, what="the table's contributions on the meter")
        assert m["contributions"] == len(accepted)
        assert t.pump(lambda: not t.lk["hits"], 30), "the genuine hit was never paid"
        paid = t.paid()
        assert [p["id"] for p in paid] == ["T1:1:1"] and paid[0]["amount"] > 100000
        assert t.client.status().get("integrity") in (None, [])
        m = meter(floor.url)
        assert m["alarm_count"] == 2 * len(ROUNDS) * len(SEATS)
        assert all("not signed by table T1's own key" in a["why"] for a in m["alarms"])
    finally:
        if t is not None:
            t.sim.close()
        ctl.stop()


@pytest.mark.reg("669a.2(c)(1)", "669a.7(d)(4)")
def test_a_duplicate_acknowledgement_of_a_message_never_sent_is_an_alarm_not_a_wager(
        floor, tmp_path):
    """Something stored under the table's own next contribution id (made here with the
    table's key, as only its holder could): the table's publish is acknowledged as a
    duplicate of a message this table never sent. The table says so (its status, its
    console) and does not accept seat 1's wager on that acknowledgement, so seat 1 plays no
    progressive that round and its royal is not sent as a hit; the controller refused the
    forgery, and the meter holds no contribution of seat 1."""
    assert define(floor)[0] == 0
    ctl = controller(floor)
    t = None
    said = []
    try:
        msg_id = signing.message_id(floor.signing_key("T1"),
                                    S.link_msg_id("contribution", "L1", "T1:1:1"))
        asyncio.run(_forge(floor.url, floor.passwords["T1"], [("contribution", "T1:1:1",
                                                                msg_id)]))
        wait_for(lambda: meter(floor.url).get("alarm_count", 0) == 1, timeout=60,
                 what="the forgery refused")
        t = Table(tmp_path, floor, floor.url)
        console = t.sim.runtime.console
        announce = console.announce             # the console's own, watched: it still runs
        console.announce = lambda text: (said.append(text), announce(text))
        rig(t.sim.autoplay)
        assert t.sim.run(1) == 1
        alarm = wait_for(lambda: t.client.status()["integrity"], timeout=60,
                         what="the table's alarm")[0]
        assert alarm["msg_id"] == msg_id and alarm["kind"] == "contribution"
        assert "never sent it" in alarm["why"] and "not accepted" in alarm["why"]
        wait_for(lambda: said, timeout=60, what="the console's announce")
        assert said[0].startswith("*** LINK INTEGRITY: link L1's stream holds")
        accepted = [a["id"] for a in _accepted(t)]
        assert "T1:1:1" not in accepted
        assert t.pump(lambda: not t.lk["hits"] and not t.lk["asked"], 20)
        assert t.paid() == []                   # no progressive of seat 1: no hit
        m = wait_for(lambda: (lambda m: m if m["contributions"] == len(accepted) else None)(
            meter(floor.url)), timeout=60, what="the accepted wagers on the meter")
        assert m["alarm_count"] == 1
        assert len(t.client.status()["integrity"]) == 1
    finally:
        if t is not None:
            t.sim.close()
        ctl.stop()


@pytest.mark.reg("669a.12(e)(4)")
def test_a_stream_with_the_ids_of_before_is_read_alike(floor):
    """Contributions stored under the message ids of before the tags ("<type>:<link>:<id>"),
    the stream then read by a controller that rebuilds its meter from it (no meter entry
    yet): each counted, and a hit sent under the new id naming one of them paid. Nothing
    reads the id back: the controller keys on the message's own "id"."""
    from tests.floor.linkpub import LinkTable
    assert define(floor)[0] == 0

    async def before():
        old = await LinkTable(floor.url, "L1", "T2", floor.passwords["T2"],
                              old_ids=True).start()
        try:
            return [(await old.contribute(r, 1, 10000)).seq for r in range(1, 4)]
        finally:
            await old.close()
    seqs = asyncio.run(before())
    ctl = controller(floor)
    try:
        m = meter(floor.url)
        assert m["contributions"] == 3 and m.get("alarm_count", 0) == 0

        async def hit():
            t2 = await LinkTable(floor.url, "L1", "T2", floor.passwords["T2"]).start()
            try:
                await t2.hit(3, 1, cseq=seqs[-1])
                return await t2.award(3, 1)
            finally:
                await t2.close()
        award = asyncio.run(hit())
        assert award["amount"] == m["value"] and award["id"] == "T2:3:1"
    finally:
        ctl.stop()


async def _preempt(url, password, msg_ids):
    """T1's password alone: a message on T1's own link subject under each id, which the
    LINKS stream's duplicate window holds for the whole stream, every subject."""
    nc = await _connect(url, user="T1", password=password)
    js = nc.jetstream(timeout=5)
    try:
        for msg_id in msg_ids:
            await js.publish(S.link_subject("L1", "T1"), json.dumps(
                {"type": "hit", "id": "T1:9:9", "link": "L1", "table": "T1", "round": 9,
                 "seat": "9"}).encode(), headers={"Nats-Msg-Id": msg_id})
    finally:
        await nc.close()


@pytest.mark.reg("669a.12(e)(3)")
def test_a_table_password_cannot_preempt_the_floors_own_link_records(floor):
    """The floor's ids on the LINKS stream (a link's next version "config:L1:<v>", the
    controller's records "refusal|locked|paid:L1:<seq>") were guessable too: a table's
    password stored junk under the next version's id, and the floor's define (and so a
    reconcile taking the link down, a restore) was refused as "already on the stream".
    Now the floor's ids carry a tag of the floor's own secret: the next version is stored."""
    from tests.floor.test_link_controller import linkcfg_history
    assert define(floor)[0] == 0
    ids = ["config:L1:%d" % v for v in range(2, 6)] + \
        ["%s:L1:%d" % (k, s) for k in ("refusal", "locked", "paid") for s in range(1, 40)]
    asyncio.run(_preempt(floor.url, floor.passwords["T1"], ids))
    rc, out, err = define(floor, rate="0.15")
    assert rc == 0, out + err
    versions = [d["version"] for d in asyncio.run(linkcfg_history(floor.url, "L1"))]
    assert versions == [1, 2]
    ctl = controller(floor)
    try:
        # the controller refuses each unsigned hit and records the refusal on the stream:
        # every one stored, though the plain ids of most were taken
        from controller.floor.linkctl import history
        want = len(ids)

        async def records():
            nc = await _connect(floor.url)
            try:
                return [d for _, d, _ in await history(nc.jetstream(timeout=5), "L1")
                        if d.get("type") == "refusal"]
            finally:
                await nc.close()
        wait_for(lambda: meter(floor.url).get("alarm_count") == want, timeout=60,
                 what="every unsigned hit refused")
        got = asyncio.run(records())
        assert sorted(r["of"] for r in got) == sorted(set(r["of"] for r in got))
        assert len(got) == want
    finally:
        ctl.stop()


@pytest.mark.reg("669a.11(i)(3)(i)(C)")
def test_a_table_password_cannot_drop_a_supervisors_confirmation(floor, tmp_path):
    """A locked award waits for supervisor sup1 (issue 31's jackpot lock). With T1's password
    someone stores junk under the id the confirmation would have had, "confirm:L1:<award>:
    sup1"; before, sup1's confirmation through the page was dropped as its duplicate and the
    award waited for good. Now it is stored under the floor's tagged id and the award paid."""
    from controller.floor.auth import Users
    from tests.floor.conftest import ServiceThread, signing_key
    from tests.floor.linkpub import LinkTable
    from tests.floor.test_jackpot_lock import Person, users_file, waiting
    assert define(floor, confirm_above="0")[0] == 0
    ctl = controller(floor)
    service = ServiceThread(floor.url, users=Users(users_file(tmp_path)),
                            confirm_key=signing_key("floor-page"))
    loop = asyncio.new_event_loop()
    t1 = None
    try:
        t1 = loop.run_until_complete(LinkTable(floor.url, "L1", "T1",
                                               floor.passwords["T1"]).start())
        loop.run_until_complete(_preempt(floor.url, floor.passwords["T1"],
                                         ["confirm:L1:T1:1:1:sup1"]))
        loop.run_until_complete(t1.contribute_and_hit(1, 1, 10000))
        wait_for(lambda: waiting(floor.url) == ["T1:1:1"], what="the award locked")
        wait_for(lambda: [a["id"] for m in service.service.links()
                          for a in m.get("pending", [])] == ["T1:1:1"], what="the page's feed")
        assert Person(service.page, "sup1").confirm("L1", "T1:1:1")[0] == 200
        award = loop.run_until_complete(t1.award(1, 1, timeout=20))
        assert award["amount"] == 101400 and waiting(floor.url) == []
        assert [c["by"] for c in award["confirmations"]] == ["sup1"]
    finally:
        if t1 is not None:
            loop.run_until_complete(t1.close())
        loop.close()
        service.stop()
        ctl.stop()


def test_one_tables_password_cannot_stall_another_tables_journal(floor, tmp_path):
    """The JOURNAL stream's duplicate window spans every table's subject too: with T1's
    password, junk on T1's own subject under T2's next row ids ("T2:<seq>") made T2's rows
    duplicates; T2's uplink, finding the stream's last row of its subject still the one
    before, sent the row again, and again, and T2's journal never reached the floor. Now a
    row's id carries a tag of its table's own password, which T1's holder lacks."""
    from controller.lab.sim import Simulation
    from controller.wire.uplink import attach
    journal = str(tmp_path / "t2.journal")
    sim = Simulation("flop-poker", seed=4, journal=journal)
    try:
        up = attach(sim, sim.ctl, journal, "T2", floor.url, floor.passwords["T2"],
                    drain_s=10)
        sim.run(1)
        wait_for(lambda: up.rows_waiting() == 0 and up.acked_seq == up.head_seq,
                 what="round 1 on the floor")
        nxt = up.head_seq + 1

        async def junk():
            nc = await _connect(floor.url, user="T1", password=floor.passwords["T1"])
            try:
                js = nc.jetstream(timeout=5)
                for seq in range(nxt, nxt + 200):
                    await js.publish(S.journal_subject("T1"), b"{}",
                                     headers={"Nats-Msg-Id": S.msg_id("T2", seq)})
            finally:
                await nc.close()
        asyncio.run(junk())
        sim.run(1)
        wait_for(lambda: up.rows_waiting() == 0 and up.acked_seq == up.head_seq > nxt,
                 timeout=60, what="round 2 of T2 on the floor")
        assert up.integrity == []
    finally:
        sim.close()


@pytest.mark.reg("669a.12(e)(4)")
def test_a_duplicate_acknowledgement_of_a_hit_never_sent_is_an_alarm(floor, tmp_path):
    """Something stored under the table's own hit id for seat 1's round-1 royal (made with
    the table's key, as only its holder could): the table's hit is acknowledged as a
    duplicate of a message it never sent, so the link never sees it. The table says so (its
    status names the hit's id) and the hit stays owed, unpaid: nothing is paid on the other
    message, which the controller refused."""
    assert define(floor)[0] == 0
    ctl = controller(floor)
    t = None
    try:
        msg_id = signing.message_id(floor.signing_key("T1"),
                                    S.link_msg_id("hit", "L1", "T1:1:1"))
        asyncio.run(_forge(floor.url, floor.passwords["T1"], [("hit", "T1:1:1", msg_id)]))
        wait_for(lambda: meter(floor.url).get("alarm_count", 0) == 1, timeout=60,
                 what="the forgery refused")
        t = Table(tmp_path, floor, floor.url)
        rig(t.sim.autoplay)
        assert t.sim.run(1) == 1
        alarm = wait_for(lambda: t.client.status()["integrity"], timeout=60,
                         what="the table's alarm")[0]
        assert alarm["msg_id"] == msg_id and alarm["kind"] == "hit"
        assert "never sent it" in alarm["why"] and "not accepted" not in alarm["why"]
        assert "T1:1:1" in [a["id"] for a in _accepted(t)]      # its wager was the table's
        assert list(t.lk["hits"]) == ["1:1"] and t.paid() == []
        m = meter(floor.url)
        assert m["hits"] == 0 and m["alarm_count"] == 1
    finally:
        if t is not None:
            t.sim.close()
        ctl.stop()
