"""The table side against the link's real controller (controller/floor/linkctl.py, run as
`tablectl floor link run` in a process of its own) on a real nats-server: the controller
SIGKILLed mid-hit (between its meter's compare-and-set and the award entry, by its crash
hook), one table's link cut during a hit, a table SIGKILLed mid-round and restarted. After
each the awards are paid exactly once and `tablectl floor reconcile L1` holds: the link's
meter against its stream, and the table's journal (forwarded by its uplink) against the
link's records."""

import json
import os
import signal

import pytest

from controller.wire.link_client import attach
from controller.wire.uplink import attach as attach_uplink
from hal_sim.simulation import Simulation
from tests.floor.conftest import journal_rows, tablectl, wait_for
from tests.floor.link_table_proc import rig
from tests.floor.proxy import Proxy
from tests.floor.test_link_controller import cli
from tests.floor.test_link_table_restart import kill, resume, start, until_sent


def pw_args(floor):
    return ["--nats", floor.url, "--password-file", floor.floor_password_file()]


def define(floor):
    rc, out, err = cli("floor", "link", "define", "L1", "--game", "raise-it-up-stud",
                       "--wager", "progressive", "--tables", "T1,T2", "--reset", "100000",
                       "--rate", "0.14", "--confirm-above", "100000000000", *pw_args(floor))
    assert rc == 0, out + err


def controller(floor, crash=None):
    env = dict(os.environ)
    env.pop("TABLECTL_LINKCTL_CRASH", None)
    if crash:
        env["TABLECTL_LINKCTL_CRASH"] = crash
    return tablectl("floor", "link", "run", "L1", *pw_args(floor), "--table-keys",
                    floor.table_keys_file(), "--page-keys", floor.page_keys_file(), env=env)


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=20)
        except Exception:                       # noqa: BLE001 - then by force
            proc.kill()
            proc.communicate()
    else:
        proc.communicate()


class Table:
    """Simulated Raise It Up table T1 on L1 with its uplink, both through `url`."""

    def __init__(self, tmp_path, floor, url):
        self.journal = str(tmp_path / "t1.db")
        self.sim = Simulation("raise-it-up-stud", seed=5, journal=self.journal, link="L1")
        try:
            self.uplink = attach_uplink(self.sim, self.sim.ctl, self.journal, "T1", url,
                                        floor.passwords["T1"], drain_s=20)
            self.client = attach(self.sim, "T1", "L1", url, floor.passwords["T1"],
                                 signing_key=floor.signing_key("T1"))
            assert self.pump(self.up, 30), "the link never came up"
        except BaseException:
            self.sim.close()
            raise

    @property
    def lk(self):
        return self.sim.ctl.model.meter["link"]

    def up(self):
        return self.lk["up"] and self.lk["synced"]

    def pump(self, pred, timeout=60):
        return wait_for(lambda: pred() or self.sim.autoplay.pump(pred, 0.05) and pred(),
                        timeout=timeout, step=0.0, what="the table") if timeout else pred()

    def paid(self):
        self.sim.commit()
        return [json.loads(r["data"]) for r in journal_rows(self.journal)
                if r["kind"] == "link_award"]

    def close(self):
        """Everything owed sent, the journal on the floor, the table stopped."""
        self.pump(lambda: not self.lk["hits"] and not self.lk["withdraw"] and
                  not self.lk["asked"], 30)
        self.sim.commit()
        self.sim.close()


def reconcile(floor):
    rc, out, err = cli("floor", "reconcile", "L1", *pw_args(floor))
    assert rc == 0, out + err
    return out


@pytest.mark.reg("669a.12(e)(4)", "669a.11(i)(3)(i)(D)", "605a.7")
def test_the_controller_killed_mid_hit_the_table_pays_once_and_reconcile_holds(floor,
                                                                               tmp_path):
    define(floor)
    ctl = controller(floor, crash="after_meter_cas:1")
    t = None
    try:
        t = Table(tmp_path, floor, floor.url)
        rig(t.sim.autoplay)
        assert t.sim.run(1) == 1
        assert t.lk["hits"], "the rigged round made no hit"
        ctl.wait(30)                            # killed itself after the meter's CAS
        assert ctl.returncode == -signal.SIGKILL
        ctl.communicate()
        assert t.pump(lambda: not t.up(), 10)   # its meter stopped: the link is lost
        assert t.lk["hits"] and t.paid() == []  # the hit pending, nothing paid
        ctl = controller(floor)
        assert t.pump(lambda: not t.lk["hits"], 40)
        paid = t.paid()
        assert len(paid) == 1 and paid[0]["id"] == "T1:1:1"
        assert t.sim.ctl.model.meter["paid"] == paid[0]["amount"] == 100000 + 2 * 14
        assert t.sim.run(2) == 2                # and play goes on
        t.close()
        t = None
        assert "holds" in reconcile(floor)
    finally:
        if t is not None:
            t.sim.close()
        stop(ctl)


@pytest.mark.reg("669a.12(e)(4)", "605a.7")
def test_a_tables_link_cut_during_a_hit_pays_once_on_return_and_reconcile_holds(floor,
                                                                                tmp_path):
    define(floor)
    ctl = controller(floor)
    proxy = Proxy(floor.server.port)
    t = None
    try:
        t = Table(tmp_path, floor, proxy.url)
        ap = rig(t.sim.autoplay)
        press = ap.no_more_bets

        def press_then_cut():                   # the wagers accepted; then the link cut
            press()
            proxy.cut()
            assert t.pump(lambda: not t.up(), 10)
        ap.no_more_bets = press_then_cut
        assert t.sim.run(1) == 1
        ap.no_more_bets = press
        model = t.sim.ctl.model
        assert model.results["1"]["progressive"] == ["pending", -100]
        assert "round 1 seat 1 PENDING" in t.sim.console.session.commands.money.c_meters("dealer",
                                                                                  [])
        assert t.sim.run(1) == 1                # base play goes on meanwhile
        proxy.restore()
        assert t.pump(lambda: not t.lk["hits"], 30)
        paid = t.paid()
        assert [p["id"] for p in paid] == ["T1:1:1"]
        assert t.sim.run(1) == 1
        t.close()
        t = None
        assert "holds" in reconcile(floor)
    finally:
        if t is not None:
            t.sim.close()
        proxy.close()
        stop(ctl)


@pytest.mark.reg("669a.13(d)", "669a.12(e)(4)")
def test_a_table_killed_mid_round_and_after_a_hit_reconciles(floor, tmp_path, monkeypatch):
    define(floor)
    monkeypatch.setenv("TABLECTL_TEST_UPLINK", "1")
    ctl = controller(floor)
    try:
        journal = str(tmp_path / "t1.db")
        # mid-round: its contributions acknowledged, then SIGKILL; restarted: void, withdrawn
        proc = start(journal, floor, "round")
        try:
            assert until_sent(proc) == ["1:1", "1:2"]
        finally:
            kill(proc)
        out = resume(journal, floor)
        assert out["done"], out
        kinds = [r["kind"] for r in journal_rows(journal)]
        assert kinds.count("link_withdraw") == 2
        assert "holds" in reconcile(floor)
        # after sending a hit, before its award (the controller dies after its meter's CAS):
        # SIGKILL; the controller restarted, then the table: paid once
        stop(ctl)
        ctl = controller(floor, crash="after_meter_cas:1")
        proc = start(journal, floor, "hit")
        try:
            hits = until_sent(proc)
            assert len(hits) == 1 and hits[0].endswith(":1"), hits
        finally:
            kill(proc)
        ctl.wait(30)
        assert ctl.returncode == -signal.SIGKILL
        ctl.communicate()
        ctl = controller(floor)
        out = resume(journal, floor)
        assert out["done"] and out["meter"]["hits"] == 1, out
        paid = [json.loads(r["data"]) for r in journal_rows(journal) if r["kind"] == "link_award"]
        assert [p["id"] for p in paid] == ["T1:" + hits[0]]
        assert "holds" in reconcile(floor)
    finally:
        stop(ctl)
