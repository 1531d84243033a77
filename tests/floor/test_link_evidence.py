"""A jackpot is paid on evidence, never on a message (issue 31), against a real nats-server
and the real link controller: an attacker holding one table's NATS password (a Pi stolen
from the table, a configuration copied off its SD card) publishes on the table's own link
subject, which the server allows; the controller must still pay nothing it cannot prove.

Each attack leaves the meter untouched (value, hits, awarded; no award entry) and raises an
alarm: the refusal on the LINKS stream with its reason, and in the meter's `alarms`, which
the floor service hands the page (/api/links)."""

import asyncio
import json

import pytest

from controller.floor import linkcfg
from controller.floor.linkctl import ensure_link_streams, history, kv_entry
from controller.wire import links as L
from controller.wire import signing
from controller.wire import subjects as S
from tests.floor.conftest import FLOOR_PW, ServiceThread, _connect, signing_key, wait_for
from tests.floor.linkpub import LinkTable
from tests.floor.test_link_controller import controller, define, meter

STOLEN = "2c 7d 9h".split()         # the hand of the issue: no hand at all


async def _award_entry(url, key):
    nc = await _connect(url)
    try:
        kv = await ensure_link_streams(nc.jetstream(timeout=5))
        return (await kv_entry(kv, key))[0]
    finally:
        await nc.close()


async def _refusals(url):
    nc = await _connect(url)
    try:
        return [d for _, d, _ in await history(nc.jetstream(timeout=5), "L1")
                if d.get("type") == "refusal"]
    finally:
        await nc.close()


async def _last_table_seq(url):
    nc = await _connect(url)
    try:
        return max(seq for seq, d, _ in await history(nc.jetstream(timeout=5), "L1")
                   if d.get("type") in ("contribution", "withdraw", "hit"))
    finally:
        await nc.close()


def untouched_and_alarmed(floor, before, why, n=1):
    """Once the controller has applied every table message: the meter's money as it was;
    `n` alarms, the newest naming `why`; its refusal on the stream."""
    last = asyncio.run(_last_table_seq(floor.url))
    m = wait_for(lambda: (lambda m: m if m["applied_seq"] >= last else None)(
        meter(floor.url)), timeout=10, what="the controller applying seq %d" % last)
    money = {k: m[k] for k in ("value", "carry", "hits", "awarded", "resets")}
    assert money == {k: before[k] for k in money}, "the meter moved: %r" % money
    assert m.get("alarm_count") == n and why in m["alarms"][0]["why"], m.get("alarms")
    refusals = asyncio.run(_refusals(floor.url))
    assert len(refusals) == n and why in refusals[-1]["why"]
    return m


async def _play(floor, fn):
    t1 = await LinkTable(floor.url, "L1", "T1", floor.passwords["T1"]).start()
    t2 = await LinkTable(floor.url, "L1", "T2", floor.passwords["T2"]).start()
    try:
        return await fn(t1, t2)
    finally:
        await t1.close()
        await t2.close()


@pytest.fixture
def link(floor):
    assert define(floor)[0] == 0
    ctl = controller(floor)
    try:
        async def seed(t1, t2):
            for r in range(1, 6):
                await t2.contribute(r, 1, 10000)        # $100 each: the meter at $1,070
        asyncio.run(_play(floor, seed))
        wait_for(lambda: meter(floor.url)["contributions"] == 5, timeout=60)
        yield ctl
    finally:
        ctl.stop()
    assert ctl.error is None


@pytest.mark.reg("669a.12(e)(4)")
def test_a_hit_forged_with_a_stolen_table_password_pays_nothing(floor, link):
    """The issue's attack: T1's password, an invented round, no contribution; and the same
    with a good hand, a contribution of its own, even signed with a key that is not T1's."""
    before = meter(floor.url)

    async def attack(t1, t2):
        thief = await LinkTable(floor.url, "L1", "T1", floor.passwords["T1"], key=None).start()
        try:
            await thief.hit(777, 3, hand=STOLEN, cseq=1)
        finally:
            await thief.close()
    asyncio.run(_play(floor, attack))
    untouched_and_alarmed(floor, before, "not signed by table T1's own key")

    from cryptography.hazmat.primitives.asymmetric import ed25519

    async def better(t1, t2):
        thief = await LinkTable(floor.url, "L1", "T1", floor.passwords["T1"],
                                key=ed25519.Ed25519PrivateKey.generate()).start()
        try:
            await thief.contribute(778, 3, 500)
            await thief.hit(778, 3)                     # the ace, king, queen of spades
        finally:
            await thief.close()
    asyncio.run(_play(floor, better))
    m = untouched_and_alarmed(floor, before, "not signed by table T1's own key", n=3)
    assert m["contributions"] == 5                      # its contribution refused too
    assert asyncio.run(_award_entry(floor.url, "award.L1.T1.777-3")) is None
    assert asyncio.run(_award_entry(floor.url, "award.L1.T1.778-3")) is None


@pytest.mark.reg("669a.12(e)(1)")
def test_a_losing_hand_signed_by_the_table_pays_nothing(floor, link):
    """The table's own key, its contribution acknowledged: 2c 7d 9h wins no share of the
    meter under 669a.12(e)(1), and three aces win 60 for 1, not the meter."""
    before = meter(floor.url)

    async def losing(t1, t2):
        await t1.contribute(1, 2, 500)
        await t1.hit(1, 2, hand=STOLEN)
    asyncio.run(_play(floor, losing))
    before = dict(before, value=before["value"] + 70)   # the contribution went on
    untouched_and_alarmed(floor, before, "wins no share of the meter")

    async def trips(t1, t2):
        await t1.contribute(2, 2, 500)
        await t1.hit(2, 2, hand=["AS", "AH", "AD"])
    asyncio.run(_play(floor, trips))
    before = dict(before, value=before["value"] + 70)
    untouched_and_alarmed(floor, before, "wins no share of the meter", n=2)
    # and a whole meter claimed for a hand that wins a tenth of it (670a.12(d)(1)) is the
    # game's own paytable's answer, read by the rules core
    assert L.hit_share("six-card-fortune-pai-gow", "progressive",
                       ["As", "Ks", "Qs", "Js", "Ts", "2c"]) == [1, 10]


@pytest.mark.reg("669a.12(e)(4)")
def test_a_hit_without_its_acknowledged_contribution_pays_nothing(floor, link):
    before = meter(floor.url)

    async def no_wager(t1, t2):
        await t1.hit(9, 4, cseq=1)                      # signed, good hand, no wager behind
    asyncio.run(_play(floor, no_wager))
    untouched_and_alarmed(floor, before, "no contribution of that seat")


@pytest.mark.reg("669a.12(e)(4)")
def test_a_replayed_genuine_hit_pays_nothing(floor, link):
    """A genuine hit is paid once; the same signed message sent again under another message
    id, or moved to another round (its signature then broken), pays nothing more."""
    captured = {}

    async def genuine(t1, t2):
        await t1.contribute_and_hit(3, 1)
        captured["award"] = await t1.award(3, 1)
    asyncio.run(_play(floor, genuine))
    paid = meter(floor.url)
    assert paid["hits"] == 1 and captured["award"]["amount"] == 107000 + 70

    async def replay(t1, t2):
        doc = signing.sign(signing_key("T1"), {
            "type": "hit", "id": "T1:3:1", "link": "L1", "table": "T1", "round": 3,
            "seat": 1, "hand": ["AS", "KS", "QS"], "share": [1, 1],
            "cseq": 1, "jseq": 1,
            "ts_ns": 1})
        await t1._publish(S.link_subject("L1", "T1"), json.dumps(doc).encode(), "replay-1")
    asyncio.run(_play(floor, replay))
    untouched_and_alarmed(floor, paid, "a replay")

    async def moved(t1, t2):
        await t1.contribute(4, 1, 500)
        doc = signing.sign(signing_key("T1"), {
            "type": "hit", "id": "T1:3:1", "link": "L1", "table": "T1", "round": 3,
            "seat": 1, "hand": ["AS", "KS", "QS"], "share": [1, 1],
            "cseq": t1.contributed["T1:4:1"], "jseq": 2, "ts_ns": 1})
        doc.update(id="T1:4:1", round=4)                # the signature no longer holds
        await t1._publish(S.link_subject("L1", "T1"), json.dumps(doc).encode(), "replay-2")
    asyncio.run(_play(floor, moved))
    untouched_and_alarmed(floor, dict(paid, value=paid["value"] + 70),
                          "not signed by table T1's own key", n=2)


@pytest.mark.reg("669a.2(c)")
def test_a_hit_on_an_inoperable_link_pays_nothing(floor, link):
    """Reconcile (or the floor) took the link down: the next hit, genuine in every other
    way, is refused; the floor page's /api/links shows the alarm."""
    async def take_down():
        nc = await _connect(floor.url)
        try:
            js = nc.jetstream(timeout=5)
            kv = await ensure_link_streams(js)
            cfg, rev = await linkcfg.read_config(kv, "L1")
            new = L.check(dict(L.next_version(cfg, dict(cfg, operable=False,
                                                        why="taken down by a test")),
                               operable=False, why="taken down by a test"))
            await linkcfg.write_version(nc, js, kv, cfg, rev, new, listen_s=0)
        finally:
            await nc.close()
    asyncio.run(take_down())
    wait_for(lambda: meter(floor.url)["operable"] is False, timeout=60)
    service = ServiceThread(floor.url)
    try:
        before = meter(floor.url)

        async def hit(t1, t2):
            await t2.contribute_and_hit(6, 1)
        asyncio.run(_play(floor, hit))
        untouched_and_alarmed(floor, dict(before, value=before["value"] + 70),
                              "inoperable link pays nothing")
        assert asyncio.run(_award_entry(floor.url, "award.L1.T2.6-1")) is None

        def shown():
            import urllib.request
            with urllib.request.urlopen(service.page + "/api/links", timeout=5) as r:
                links = json.loads(r.read())
            return [a for m in links for a in m.get("alarms", [])]
        alarms = wait_for(shown, timeout=60, what="the alarm on the floor page's feed")
        assert alarms[0]["table"] == "T2" and "inoperable" in alarms[0]["why"]
    finally:
        service.stop()


@pytest.mark.reg("669a.12(e)(1)", "670a.12(d)(1)", "633a.7(o)(1)(i)", "633a.7(o)(2)(i)",
                 "633a.7(o)(3)(i)")
def test_the_share_a_hit_claims_is_the_games_own_paytables():
    """The link's controller asks each game's own check (its declaration's link_hits, the
    rules core's evaluator and paytable the table settles with)."""
    from controller.errors import ConfigError
    share = L.hit_share
    assert share("raise-it-up-stud", "progressive", ["As", "Ks", "Qs"]) == [1, 1]
    assert share("raise-it-up-stud", "progressive", ["Ah", "Kh", "Qh"]) is None  # 500 for 1
    assert share("six-card-fortune-pai-gow", "progressive",
                 ["As", "Ah", "Ad", "Ac", "JK", "2c"]) == [1, 1]                 # five aces
    assert share("six-card-fortune-pai-gow", "progressive",
                 ["Ks", "Qs", "Js", "Ts", "9s", "2c"]) is None                   # 300 for 1
    # Hit and Run: eight dealer cards; Straight Jack: a six-card straight (default rows)
    assert share("blackjack", "hit_and_run_progressive",
                 ["2c", "2d", "2h", "2s", "3c", "3d", "Ac", "5d"]) == [1, 1]
    assert share("blackjack", "straight_jack_progressive",
                 ["Ac", "2d", "3h", "4s", "5c", "6d"]) == [1, 1]
    # Bad Beat under the link's declared rows: 20 against the dealer's 21, with the dealer's
    # hand the hit carries; without it, not checkable: refused rather than paid
    rows = {"twenty_vs_blackjack": "50 for 1", "twenty_vs_21": "100% of meter"}
    assert share("blackjack", "bad_beat_progressive", ["Kd", "Jh"], ["6h", "5c", "Th"],
                 rows) == [1, 1]
    assert share("blackjack", "bad_beat_progressive", ["Kd", "Jh"], ["As", "Kc"],
                 rows) is None                                                   # 50 for 1
    with pytest.raises(ConfigError):
        share("blackjack", "bad_beat_progressive", ["Kd", "Jh"], None, rows)
    with pytest.raises(ConfigError, match="three different cards"):
        share("raise-it-up-stud", "progressive", ["As", "As", "Qs"])
