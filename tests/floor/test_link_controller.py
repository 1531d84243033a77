"""The linked progressive's floor side against a real nats-server: definitions and their
versions, the single-writer controller, stream order for near-simultaneous hits.
The tables are small publishers speaking the wire contract with their own credentials."""

import asyncio
import io
import json

import pytest

from controller.wire import signing
from controller.wire import subjects as S
from controller.floor.linkctl import ControllerThread, WriterLost, ensure_link_streams
from tests.floor.conftest import (FLOOR_PW, _connect, page_keys, public_keys, tablectl,
                                  wait_for)
from tests.floor.linkpub import LinkTable

RIU = "raise-it-up-stud"


def cli(*argv):
    """`tablectl` in this process: (exit code, stdout, stderr)."""
    from controller.cli import build_parser
    args = build_parser().parse_args(list(argv))
    out, err = io.StringIO(), io.StringIO()
    rc = args.func(args, out, err)
    return rc, out.getvalue(), err.getvalue()


def define(floor, link="L1", tables="T1,T2", reset="100000", rate="0.14", cap=None,
           game=RIU, wager="progressive", paytable=None, confirm_above="100000000000"):
    """`floor link define`; awards paid without a supervisor's confirmation below
    `confirm_above` (these tests' awards: the jackpot lock has its own tests)."""
    argv = ["floor", "link", "define", link, "--game", game, "--wager", wager, "--tables",
            tables, "--reset", reset, "--rate", rate, "--nats", floor.url,
            "--password-file", floor.floor_password_file()]
    if cap is not None:
        argv += ["--cap", cap]
    if paytable is not None:
        argv += ["--paytable", json.dumps(paytable)]
    if confirm_above is not None:
        argv += ["--confirm-above", confirm_above]
    return cli(*argv)


async def kv_json(url, key):
    from controller.floor.linkctl import kv_entry
    nc = await _connect(url)
    try:
        kv = await ensure_link_streams(nc.jetstream(timeout=5))
        raw, rev = await kv_entry(kv, key)
        return (json.loads(raw) if raw is not None else None), rev
    finally:
        await nc.close()


def meter(url, link="L1"):
    return asyncio.run(kv_json(url, S.meter_key(link)))[0]


async def linkcfg_history(url, link):
    from controller.floor.linkctl import history
    nc = await _connect(url)
    try:
        return [d for _, d, _ in await history(nc.jetstream(timeout=5), link)
                if d.get("type") == "config"]
    finally:
        await nc.close()


def controller(floor, link="L1", **kw):
    kw.setdefault("keys", public_keys())
    kw.setdefault("page_keys", page_keys())
    return ControllerThread(floor.url, link, password=FLOOR_PW, listen_s=0.3, **kw)


@pytest.mark.reg("669a.12(e)(3)")
def test_a_definition_is_checked_key_by_key_before_anything_is_written(floor):
    rc, _, err = define(floor, reset="99999")
    assert rc == 2 and "reset 99999" in err and "669a.12(e)(3)" in err
    rc, _, err = define(floor, rate="0.13")
    assert rc == 2 and "rate 13/100" in err
    rc, _, err = define(floor, game="poker")
    assert rc == 2 and "game 'poker'" in err
    rc, _, err = define(floor, game="blackjack", wager="lucky_ladies")
    assert rc == 2 and "wager 'lucky_ladies'" in err and "bad_beat_progressive" in err
    rc, _, err = define(floor, tables="T1,T1")
    assert rc == 2 and "T1 is named twice" in err
    rc, _, err = define(floor, cap="5")
    assert rc == 2 and "cap 5" in err
    rc, _, err = define(floor, game="six-card-fortune-pai-gow", reset="499999", rate="1/10")
    assert rc == 2 and "670a.12(d)(2)" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert asyncio.run(kv_json(floor.url, S.config_key("L1")))[0] is None
    # and through the real command line: exit 2, one line
    p = tablectl("floor", "link", "define", "L1", "--game", RIU, "--wager", "progressive",
                 "--tables", "T1", "--reset", "-5", "--rate", "0.2", "--nats", floor.url)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 2 and err.strip().startswith("tablectl floor link define: reset")


@pytest.mark.reg("669a.2(c)")
def test_versions_are_recorded_and_rate_or_reset_refused_while_a_table_is_on_the_link(floor):
    rc, out, err = define(floor)
    assert rc == 0, err
    assert "version 1 recorded" in out
    rc, out, _ = define(floor)
    assert rc == 0 and "unchanged (version 1)" in out
    rc, out, err = define(floor, cap="2000000")            # a cap is not refused live
    assert rc == 0 and "version 2" in out and "cap" in out

    async def with_table_on_the_link():
        t1 = await LinkTable(floor.url, "L1", "T1", floor.passwords["T1"]).start(status=True)
        try:
            await asyncio.sleep(0.2)
            return await asyncio.get_running_loop().run_in_executor(
                None, lambda: define(floor, rate="0.15", cap="2000000"))
        finally:
            await t1.close()
    rc, _, err = asyncio.run(with_table_on_the_link())
    assert rc == 1 and "rate not changed while its tables are on the link (T1" in err
    cfg, _ = asyncio.run(kv_json(floor.url, S.config_key("L1")))
    assert cfg["version"] == 2 and cfg["rate"] == [7, 50]
    rc, out, err = define(floor, rate="0.15", reset="150000", cap="2000000")  # nobody on it
    assert rc == 0, err
    assert "version 3 recorded (reset, rate)" in out
    cfg, _ = asyncio.run(kv_json(floor.url, S.config_key("L1")))
    assert (cfg["version"], cfg["rate"], cfg["reset"]) == (3, [3, 20], 150000)
    versions = asyncio.run(linkcfg_history(floor.url, "L1"))
    assert [v["version"] for v in versions] == [1, 2, 3]
    assert versions[1]["cap"] == 2000000 and versions[0]["cap"] is None
    rc, out, _ = cli("floor", "link", "show", "L1", "--versions", "--nats", floor.url,
                     "--password-file", floor.floor_password_file())
    assert rc == 0 and "v3 at stream seq" in out and "rate 3/20" in out


@pytest.mark.reg("669a.2(c)")
def test_the_controller_applies_contributions_withdraws_and_hits_in_stream_order(floor):
    assert define(floor, rate="7/50")[0] == 0
    ctl = controller(floor)

    async def play():
        t1 = await LinkTable(floor.url, "L1", "T1", floor.passwords["T1"]).start()
        t2 = await LinkTable(floor.url, "L1", "T2", floor.passwords["T2"]).start()
        t3 = await LinkTable(floor.url, "L1", "T3", floor.passwords["T3"]).start()
        try:
            for r in range(1, 8):               # 7 x $1 at 14%: 98 cents, no cent lost
                await t1.contribute(r, 1, 100)
            dup = await t1.contribute(7, 1, 100)        # sent again: stored once
            assert dup.duplicate
            await t2.contribute(1, 3, 500)      # 70 cents
            await t2.withdraw(1, 3, 500)        # taken back exactly
            assert (await t2.withdraw(1, 3, 500)).duplicate     # sent again: stored once
            await t2.withdraw(9, 9, 100)        # refused: no such contribution
            await t3.contribute(1, 1, 500)      # refused: T3 is not on the link
            await t1.contribute(8, 1, 5)        # 0.7 cent: carried
            ack = await t2.contribute_and_hit(2, 4, wager=500)     # 70 cents, then the hit
            award = await t2.award(2, 4)
            assert award["seq"] == ack.seq and award["amount"] == 100000 + 98 + 70
            assert award["meter_before"] == 100168 and award["meter_after"] == 100000
            # the table's own credential reads back its award and the meter, not another's
            entry = await t2.direct_get("award.L1.T2.2-4")
            assert entry["amount"] == 100168
            assert (await t2.direct_get("meter.L1"))["link"] == "L1"
            with pytest.raises(Exception):
                await t1.direct_get("award.L1.T2.2-4")
            for _ in range(100):                # the meter every table shows, within 1 s
                if t1.meters and t1.meters[-1]["value"] == 100000:
                    break
                await asyncio.sleep(0.01)
            assert t1.meters[-1]["value"] == 100000
            return award
        finally:
            for t in (t1, t2, t3):
                await t.close()
    try:
        asyncio.run(play())
        m = wait_for(lambda: (lambda m: m if m["hits"] == 1 else None)(meter(floor.url)),
                     timeout=5)
        assert (m["value"], m["carry"], m["rate"]) == (100000, 35, [7, 50])
        assert m["contributions"] == 10 and m["withdraws"] == 1 and m["refused"] == 2
        assert {r["why"].split(":")[0] for r in m["last_refused"]} >= {
            "withdraw of T2", "table 'T3' is not on link L1"}
        assert "no such contribution" in m["last_refused"][1]["why"]
        assert m["value"] == (m["seeded"] + m["contributed"] - m["withdrawn"] - m["awarded"]
                              - m["over_cap"])
        assert m["last_hits"][0]["table"] == "T2" and m["last_award"]["amount"] == 100168
    finally:
        ctl.stop()
    assert ctl.error is None


@pytest.mark.reg("669a.12(e)(4)")
def test_two_hits_within_a_millisecond_are_paid_in_stream_order_fifty_times(floor):
    """The first hit in the stream is paid the meter; the second the reset plus what was
    contributed between them; both carry their stream sequence."""
    assert define(floor, rate="0.5", reset="100000")[0] == 0
    ctl = controller(floor)

    async def play():
        t1 = await LinkTable(floor.url, "L1", "T1", floor.passwords["T1"]).start()
        t2 = await LinkTable(floor.url, "L1", "T2", floor.passwords["T2"]).start()
        try:
            for r in range(1, 51):
                await t1.contribute(r, 1, 1000)         # +$5.00
                await t2.contribute(r, 2, 1000)         # +$5.00 (a hit is paid on one)
                # both hits within a millisecond, and sometimes a contribution between
                between = r % 3 == 0
                sends = [t1.hit(r, 1), t2.hit(r, 2)]
                if between:
                    sends.insert(1, t2.contribute(r, 6, 200))   # +$1.00 between, maybe
                acks = await asyncio.gather(*sends)
                a1, a2 = await t1.award(r, 1), await t2.award(r, 2)
                first, second = sorted((a1, a2), key=lambda a: a["seq"])
                assert {a1["seq"], a2["seq"]} == {acks[0].seq, acks[-1].seq}
                contrib_between = 100 if between and acks[1].seq < second["seq"] and \
                    acks[1].seq > first["seq"] else 0
                assert first["amount"] == first["meter_before"] >= 100500
                assert second["amount"] == 100000 + contrib_between, (r, first, second)
        finally:
            await t1.close()
            await t2.close()
    try:
        asyncio.run(play())
        m = meter(floor.url)
        assert m["hits"] == 100 and m["resets"] == 100
        assert m["value"] == m["seeded"] + m["contributed"] - m["withdrawn"] - m["awarded"]
    finally:
        ctl.stop()
    assert ctl.error is None


@pytest.mark.reg("669a.2(c)")
def test_a_second_controller_cannot_write_and_the_meter_is_unharmed(floor):
    assert define(floor)[0] == 0
    first = controller(floor)
    try:
        async def feed(n, start=1):
            t1 = await LinkTable(floor.url, "L1", "T1", floor.passwords["T1"]).start()
            try:
                for r in range(start, start + n):
                    await t1.contribute(r, 1, 1000)
            finally:
                await t1.close()
        asyncio.run(feed(5))
        wait_for(lambda: meter(floor.url)["contributions"] == 5, timeout=60)
        # started by mistake, through the real command line: it hears the first and stops
        p = tablectl("floor", "link", "run", "L1", "--nats", floor.url, "--password-file",
                     floor.floor_password_file(), "--table-keys", floor.table_keys_file())
        _, err = p.communicate(timeout=60)
        assert p.returncode == 1
        assert err.strip().count("\n") == 0 and "another controller" in err, err
        before = meter(floor.url)
        assert before["writer"] == first.ctl.writer
        # one started in the same instant (it hears nothing): it takes the meter by
        # compare-and-set, and the first, at its next write, finds it written and stops
        second = ControllerThread(floor.url, "L1", password=FLOOR_PW, listen_s=0.0,
                                  keys=public_keys())
        asyncio.run(feed(3, start=6))
        wait_for(lambda: meter(floor.url)["contributions"] == 8, timeout=60)
        wait_for(lambda: not first.alive, timeout=60, what="the first controller stopping")
        assert isinstance(first.error, WriterLost)
        assert "written by another controller" in str(first.error)
        m = meter(floor.url)
        assert m["writer"] == second.ctl.writer
        assert m["value"] == 100000 + 8 * 140 and m["applied_seq"] == before["applied_seq"] + 3
        second.stop()
        assert second.error is None
    finally:
        first.stop()


class Died(BaseException):
    """The controller's death at a step (the in-process crash hook)."""


@pytest.mark.reg("669a.2(c)")
def test_a_restart_resumes_after_applied_seq_with_no_double_award_and_no_lost_contribution(
        floor):
    assert define(floor, rate="0.2")[0] == 0

    def die_at(step):
        def crash(at):
            if at == step:
                raise Died(at)
        return crash

    async def feed(table, rounds, hit=None):
        t = await LinkTable(floor.url, "L1", table, floor.passwords[table]).start()
        try:
            for r in rounds:
                await t.contribute(r, 2, 1000)
            if hit:
                return await t.hit(*hit)
        finally:
            await t.close()
    ctl = controller(floor, crash=die_at("after_meter_cas"))
    try:
        asyncio.run(feed("T1", range(1, 4), hit=(3, 2)))
        wait_for(lambda: not ctl.alive, timeout=60, what="the controller dying mid-hit")
        assert isinstance(ctl.error, Died)
        m = meter(floor.url)
        assert m["last_award"]["id"] == "T1:3:2" and m["hits"] == 1
        assert asyncio.run(kv_json(floor.url, "award.L1.T1.3-2"))[0] is None
        asyncio.run(feed("T2", range(1, 6)))        # while it is down: stored, not applied
        asyncio.run(feed("T1", [3], hit=(3, 2)))   # the table sends its hit again
    finally:
        ctl.stop()
    again = controller(floor)
    try:
        entry = wait_for(lambda: asyncio.run(kv_json(floor.url, "award.L1.T1.3-2"))[0],
                         timeout=5, what="the award entry written at the restart")
        assert entry["amount"] == 100000 + 3 * 200 and entry["seq"] == m["last_award"]["seq"]
        m2 = wait_for(lambda: (lambda x: x if x["contributions"] == 8 else None)(
            meter(floor.url)), timeout=5)
        assert m2["hits"] == 1 and m2["awarded"] == entry["amount"]
        assert m2["value"] == 100000 + 5 * 200
        assert m2["value"] == m2["seeded"] + m2["contributed"] - m2["withdrawn"] - \
            m2["awarded"] - m2["over_cap"]
    finally:
        again.stop()
    assert again.error is None


@pytest.mark.reg("633a.7(o)")
def test_a_table_on_two_links_has_each_contribution_stored_and_applied_on_each(floor):
    """Blackjack's progressives on two links: the same seat's contributions, one per link,
    are two messages (the link is in the message id), each applied by its link's controller."""
    for link, wager in (("BB", "bad_beat_progressive"), ("HR", "hit_and_run_progressive")):
        assert define(floor, link=link, game="blackjack", wager=wager, reset="50000",
                      rate="0.1")[0] == 0
    ctls = [controller(floor, link) for link in ("BB", "HR")]
    try:
        async def both():
            ts = [await LinkTable(floor.url, link, "T1", floor.passwords["T1"]).start()
                  for link in ("BB", "HR")]
            try:
                acks = [await t.contribute(1, 3, 1000) for t in ts]
                assert not any(a.duplicate for a in acks)
            finally:
                for t in ts:
                    await t.close()
        asyncio.run(both())
        for link in ("BB", "HR"):
            m = wait_for(lambda: (lambda x: x if x["contributions"] == 1 else None)(
                meter(floor.url, link)), timeout=5, what="%s's contribution" % link)
            assert m["value"] == 50000 + 100
    finally:
        for c in ctls:
            c.stop()


@pytest.mark.reg("605a.7", "669a.12(e)(4)")
def test_a_controller_starts_from_the_meters_applied_seq_not_the_whole_history(floor):
    """A long history (300 contributions, 3 hits): a restarted controller reads no message of
    the stream to start (the entry's `open` contributions and the award entries' keys are
    what it needs), where an entry of before `open` made it read all of them; and what it
    starts with is enough: a withdraw of the latest round comes off exactly, a hit sent
    again (past the stream's duplicate window: another message id) is awarded once."""
    rc, out, err = define(floor, rate="0.14")
    assert rc == 0, out + err
    ctl = controller(floor)
    try:
        async def feed():
            t1 = await LinkTable(floor.url, "L1", "T1", floor.passwords["T1"]).start()
            try:
                for r in range(1, 301):
                    await t1.contribute(r, 1, 1000)
                    if r % 100 == 0:
                        await t1.hit(r, 1)
                        await t1.award(r, 1)
                await t1.contribute(301, 2, 500)        # the latest round, still open
            finally:
                await t1.close()
        asyncio.run(feed())
        wait_for(lambda: meter(floor.url)["contributions"] == 301, timeout=60)
        first_read = ctl.ctl.start_read
        # a link just defined: its meter made from the stream, which holds the definition
        assert first_read == {"stream_messages": 1, "award_keys": 0}
    finally:
        ctl.stop()
    m = meter(floor.url)
    assert m["applied_seq"] >= 304 and m["open"]["T1"]["round"] == 301
    ctl = controller(floor)
    try:
        assert ctl.ctl.start_read == {"stream_messages": 0, "award_keys": 3}
        before = meter(floor.url)["value"]

        async def more():
            t1 = await LinkTable(floor.url, "L1", "T1", floor.passwords["T1"]).start()
            try:
                await t1.withdraw(301, 2, 500)
                # the hit of round 300 sent again with another message id: refused, answered
                doc = signing.sign(t1.key, {
                    "type": "hit", "id": "T1:300:1", "link": "L1", "table": "T1",
                    "round": 300, "seat": 1, "hand": ["AS", "KS", "QS"], "share": [1, 1],
                    "cseq": 1, "jseq": 1})
                await t1._publish(S.link_subject("L1", "T1"), json.dumps(doc).encode(),
                                  "hit-again:T1:300:1")
            finally:
                await t1.close()
        asyncio.run(more())
        wait_for(lambda: meter(floor.url)["refused"] == 1, timeout=60)
        after = meter(floor.url)
        assert after["value"] == before - 70 and after["withdrawn"] == 70   # 14% of $5
        assert after["hits"] == 3 and "answered already" in after["last_refused"][0]["why"]
    finally:
        ctl.stop()

    # an entry written before `open` existed: rebuilt from the whole stream, once
    async def strip():
        from controller.floor.linkctl import kv_entry
        nc = await _connect(floor.url)
        try:
            kv = await ensure_link_streams(nc.jetstream(timeout=5))
            raw, rev = await kv_entry(kv, S.meter_key("L1"))
            doc = json.loads(raw)
            del doc["open"]
            await kv.update(S.meter_key("L1"), json.dumps(doc).encode(), last=rev)
            return doc["applied_seq"]
        finally:
            await nc.close()
    applied = asyncio.run(strip())
    ctl = controller(floor)
    try:
        read = ctl.ctl.start_read
        print("start read, entry without open: %r (applied_seq %d)" % (read, applied))
        assert read["stream_messages"] >= applied - 1 and read["award_keys"] == 0
    finally:
        ctl.stop()
    assert "open" in meter(floor.url)
    ctl = controller(floor)
    try:
        assert ctl.ctl.start_read["stream_messages"] == 0
    finally:
        ctl.stop()
