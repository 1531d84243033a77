"""The jackpot lock (issue 31; DEQ's Jackpot Lock, NY 9 NYCRR 5321.18, MD COMAR
36.05.03.24), against a real nats-server, the real link controller and the floor service's
page: at a verified hit the amount is locked and the meter resets at once for every table;
the award waits, shown pending, until a floor supervisor logged in confirms having seen the
cards, and above the link's `second_above` a second, different one; two hits are paid in
the stream's order; every step is on the LINKS stream with who and when, and `floor
reconcile` accounts for each."""

import asyncio
import json
import urllib.error
import urllib.request

import pytest

from controller.floor.auth import Users, add_user
from tests.floor.conftest import FLOOR_PW, ServiceThread, _connect, logged_in, signing_key, \
    wait_for
from tests.floor.linkpub import LinkTable
from tests.floor.test_link_controller import cli, controller, define, kv_json, meter
from controller.wire import subjects as S

PASSWORDS = {"sup1": "first-supervisor", "sup2": "second-supervisor", "view": "only-looking"}


def users_file(tmp_path):
    path = str(tmp_path / "floor-users.json")
    add_user(path, "sup1", "supervisor", PASSWORDS["sup1"])
    add_user(path, "sup2", "supervisor", PASSWORDS["sup2"])
    add_user(path, "view", "viewer", PASSWORDS["view"])
    return path


class Person:
    """Someone at the floor page: a login, a session cookie, the confirm button's request."""

    def __init__(self, page, name, password=None):
        self.page = page
        self.opener = logged_in(page, name, password or PASSWORDS[name])

    def confirm(self, link, ident):
        req = urllib.request.Request(self.page + "/api/confirm", json.dumps(
            {"link": link, "id": ident}).encode(), {"Content-Type": "application/json"})
        try:
            with self.opener.open(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())


async def _forged_confirm(url, ident):
    nc = await _connect(url, user="floor", password=FLOOR_PW)
    try:
        await nc.jetstream(timeout=5).publish(S.linkcfg_subject("L1"), json.dumps(
            {"type": "confirm", "link": "L1", "id": ident, "by": "sup1",
             "ts_ns": 1}).encode())
    finally:
        await nc.close()


def waiting(url):
    return [a["id"] for a in meter(url).get("pending") or []]


@pytest.mark.reg("669a.12(e)(4)", "669a.11(i)(3)(i)(D)")
def test_a_verified_hit_is_locked_then_paid_after_two_different_supervisors(floor, tmp_path):
    assert define(floor, confirm_above="0")[0] == 0
    assert cli("floor", "link", "define", "L1", "--game", "raise-it-up-stud", "--wager",
               "progressive", "--tables", "T1,T2", "--reset", "100000", "--rate", "0.14",
               "--confirm-above", "0", "--second-above", "100000", "--nats", floor.url,
               "--password-file", floor.floor_password_file())[0] == 0
    ctl = controller(floor)
    service = ServiceThread(floor.url, users=Users(users_file(tmp_path)),
                            confirm_key=signing_key("floor-page"))
    tables = {}

    async def open_tables():
        for t in ("T1", "T2"):
            tables[t] = await LinkTable(floor.url, "L1", t, floor.passwords[t],
                                       journal=True).start()
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(open_tables())
        t1, t2 = tables["T1"], tables["T2"]
        loop.run_until_complete(t1.contribute(1, 1, 10000))          # +$14
        loop.run_until_complete(t1.hit(1, 1))
        # locked: the meter reset at once for every table, the award waits, nothing paid
        wait_for(lambda: waiting(floor.url) == ["T1:1:1"], what="the award locked")
        m = meter(floor.url)
        assert m["value"] == 100000 and m["pending"][0]["amount"] == 101400
        assert m["pending"][0]["needs"] == 2            # above second_above: two people
        loop.run_until_complete(t2.contribute(1, 2, 10000))
        loop.run_until_complete(t2.hit(1, 2))           # a second hit, after the first
        wait_for(lambda: waiting(floor.url) == ["T1:1:1", "T2:1:2"], what="both locked")
        assert meter(floor.url)["pending"][1]["amount"] == 101400
        assert asyncio.run(kv_json(floor.url, "award.L1.T1.1-1"))[0] is None
        # the page shows them pending (its feed), and only a supervisor may confirm
        wait_for(lambda: [a["id"] for m in service.service.links()
                          for a in m.get("pending", [])] == ["T1:1:1", "T2:1:2"],
                 what="the page's feed")
        # the floor's NATS password alone (no page, no login): refused, an alarm
        loop.run_until_complete(_forged_confirm(floor.url, "T1:1:1"))
        wait_for(lambda: meter(floor.url).get("alarm_count") == 1, what="the alarm")
        assert "not signed by a floor page's key" in meter(floor.url)["alarms"][0]["why"]
        assert meter(floor.url)["pending"][0]["confirmations"] == []
        viewer = Person(service.page, "view")
        assert viewer.confirm("L1", "T1:1:1")[0] == 403
        with pytest.raises(urllib.error.HTTPError):
            Person(service.page, "sup1", "not-the-password").confirm("L1", "T1:1:1")
        sup1, sup2 = Person(service.page, "sup1"), Person(service.page, "sup2")
        # the second hit fully confirmed first is still paid after the first: the
        # stream's order (669a.12(e)(4))
        assert sup1.confirm("L1", "T2:1:2")[0] == 200
        assert sup2.confirm("L1", "T2:1:2")[0] == 200
        assert sup1.confirm("L1", "T1:1:1")[0] == 200
        assert sup1.confirm("L1", "T1:1:1")[0] == 200           # the same person again
        wait_for(lambda: [len(a["confirmations"]) for a in meter(floor.url)["pending"]] ==
                 [1, 2], what="the confirmations applied")
        assert waiting(floor.url) == ["T1:1:1", "T2:1:2"]       # nothing paid yet
        assert t2.awards == {}
        assert sup2.confirm("L1", "T1:1:1")[0] == 200
        a1 = loop.run_until_complete(t1.award(1, 1))
        a2 = loop.run_until_complete(t2.award(1, 2))
        assert (a1["amount"], a2["amount"]) == (101400, 101400)
        assert [c["by"] for c in a1["confirmations"]] == ["sup1", "sup2"]
        assert a1["seq"] < a2["seq"] and waiting(floor.url) == []
    finally:
        for t in tables.values():
            loop.run_until_complete(t.close())
        loop.close()
        service.stop()
        ctl.stop()
    assert ctl.error is None
    # every step on the stream, with who and when; reconcile accounts for each
    rc, out, err = cli("floor", "reconcile", "L1", "--json", "--nats", floor.url,
                       "--password-file", floor.floor_password_file())
    report = json.loads(out)
    assert rc == 0, report["problems"]
    fates = {j["id"]: j for j in report["jackpots"]}
    assert fates["T1:1:1"]["state"] == fates["T2:1:2"]["state"] == "paid"
    assert [c["by"] for c in fates["T1:1:1"]["confirmations"]] == ["sup1", "sup2"]
    assert all(c["ts_ns"] for c in fates["T1:1:1"]["confirmations"])
    rc, out, _ = cli("floor", "reconcile", "L1", "--nats", floor.url, "--password-file",
                     floor.floor_password_file())
    assert "hit T1:1:1 (seq" in out and "paid $1,014.00, confirmed by sup1 at" in out


def test_a_floor_user_is_added_with_a_salted_hash_and_checked(tmp_path):
    path = users_file(tmp_path)
    users = Users(path)
    assert users.check("sup1", PASSWORDS["sup1"]) == "supervisor"
    assert users.check("sup1", "wrong") is None and users.check("nobody", "x") is None
    with open(path) as f:
        text = f.read()
    assert not any(pw in text for pw in PASSWORDS.values()) and text.count("scrypt$") == 3
    import os
    import stat
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    rc, _, err = cli("floor", "user", "add", "x y", "--role", "supervisor", "--users-file",
                     path, "--password-stdin")
    assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.reg("669a.12(e)(4)", "605a.7")
def test_a_locked_jackpot_shows_pending_on_the_tables_meter_display(floor, tmp_path):
    """A real simulated table on the link: its hit locked, its meter display shows the
    jackpot pending beside the reset meter until the supervisor's confirmation pays it."""
    from tests.floor.link_table_proc import rig
    from tests.floor.test_link_table_e2e import Table
    assert define(floor, confirm_above="0")[0] == 0
    ctl = controller(floor)
    service = ServiceThread(floor.url, users=Users(users_file(tmp_path)),
                            confirm_key=signing_key("floor-page"))
    t = None
    try:
        t = Table(tmp_path, floor, floor.url)
        rig(t.sim.autoplay)
        assert t.sim.run(1) == 1 and t.lk["hits"]
        shown = t.sim.sim.serial["meter_display"].shown
        wait_for(lambda: waiting(floor.url), what="the award locked")
        amount = meter(floor.url)["pending"][0]["amount"]
        assert t.pump(lambda: shown.get("progressive_jackpot_pending") == amount, 10)
        assert shown["progressive"] == 100000           # the meter reset meanwhile
        assert t.paid() == []
        wait_for(lambda: any(m.get("pending") for m in service.service.links()),
                 what="the page's feed")
        assert Person(service.page, "sup2").confirm("L1", waiting(floor.url)[0])[0] == 200
        assert t.pump(lambda: shown.get("progressive_jackpot_pending") == 0 and t.paid(), 20)
        assert t.paid()[0]["amount"] == amount
    finally:
        if t is not None:
            t.sim.close()
        service.stop()
        ctl.stop()
