"""The table side of a linked progressive, end to end (docs/linked-progressives.md): a real
simulated Raise It Up table (its real drivers, journal and meter display on ptys) with the
real link client, a real nats-server, and a link controller that speaks the contract
(tests/floor/link_harness.py); the link cut by the TCP proxy of tests/floor/proxy.py."""

import json
import time

import pytest

from controller.wire.link_client import attach
from hal_sim.simulation import Simulation
from tests.floor.conftest import Floor, journal_rows
from tests.floor.link_harness import FakeLink
from tests.floor.link_table_proc import rig
from tests.floor.proxy import Proxy


@pytest.fixture
def link_floor(tmp_path):
    f = Floor(tmp_path)              # the contract's permissions are every table user's
    f.server.start()
    try:
        yield f
    finally:
        f.server.stop()


@pytest.fixture
def fake(link_floor):
    link = FakeLink(link_floor.url)
    try:
        yield link
    finally:
        link.stop()


class Linked:
    """A simulated table on link L1 as table T1, through `url` (a proxy's, or the server's)."""

    def __init__(self, tmp_path, floor, url, seed=3):
        self.journal = str(tmp_path / "t1.db")
        self.sim = Simulation("raise-it-up-stud", seed=seed, journal=self.journal, link="L1")
        try:
            self.client = attach(self.sim, "T1", "L1", url, floor.passwords["T1"],
                                 signing_key=floor.signing_key("T1"))
            assert self.pump(self.up, 20), "the link never came up"
        except BaseException:
            self.sim.close()
            raise

    @property
    def meter(self):
        return self.sim.ctl.model.meter

    def up(self):
        lk = self.meter["link"]
        return lk["up"] and lk["synced"]

    def pump(self, pred, timeout=60):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pred():
                return True
            self.sim.autoplay.pump(lambda: False, 0.02)
        return bool(pred())

    def display(self):
        d = self.sim.sim.serial["meter_display"]
        return d.blanked if d.blanked is not None else d.shown.get("progressive")

    def rows(self, kind):
        self.sim.commit()
        return [json.loads(r["data"]) for r in journal_rows(self.journal) if r["kind"] == kind]

    def meters_text(self):
        return self.sim.console.session.commands.money.c_meters("dealer", [])

    def close(self):
        self.sim.close()


@pytest.mark.reg("669a.2(c)(1)", "669a.7(d)(4)", "669a.12(e)(3)")
def test_wagers_are_accepted_on_the_links_acknowledgement_and_journaled(tmp_path, link_floor,
                                                                        fake):
    t = Linked(tmp_path, link_floor, link_floor.url)
    try:
        assert t.sim.run(3) == 3 and t.sim.stuck is None
        # each sensed wager was stored by the link before the table accepted it
        acks = t.rows("link_contribution")
        assert len(acks) == 6 == len(fake.contributions)
        for a in acks:
            assert set(a) == {"link", "id", "seq", "seat", "wager"}
            stored = fake.contributions[a["id"]]
            assert (a["link"], a["seq"], a["seat"], a["wager"]) == \
                ("L1", stored["seq"], stored["seat"], stored["wager"])
        assert t.sim.ctl.kinds["link_contribution"] == 6
        # the link's meter is the table's: reset + 6 x 14% of $1
        assert t.pump(lambda: t.meter["value"] == fake.value == 100000 + 6 * 14, 5)
        assert t.pump(lambda: t.display() == fake.value, 5)
        assert "L1 up  meter $1,000.84 (the link's)  pending hits none" in t.meters_text()
    finally:
        t.close()


@pytest.mark.reg("605a.7")
def test_the_meter_shown_follows_the_links_meter(tmp_path, link_floor, fake):
    """Another table's contributions move the link's meter; this table's display and console
    follow (the contract: within 1 s of each change; measured by bench/linked_progressive.py,
    not timed here)."""
    t = Linked(tmp_path, link_floor, link_floor.url)
    try:
        assert t.sim.run(1) == 1                # open: the display shows amounts
        for n in range(3):
            fake.call(lambda: fake._apply({"type": "contribution", "id": "T2:%d:1" % n,
                                           "table": "T2", "round": n, "seat": "1",
                                           "wager": 5000}, fake.applied_seq + 1))
            want = fake.value
            assert t.pump(lambda: t.display() == want, 10), (t.display(), want)
            assert t.meter["value"] == want
        assert want == 100000 + 2 * 14 + 3 * 700
        assert t.rows("link_meter")[-1]["value"] == want
    finally:
        t.close()


@pytest.mark.reg("605a.7", "669a.2(c)(2)")
def test_a_lost_link_locks_the_progressive_out_base_play_goes_on_and_it_all_returns(
        tmp_path, link_floor, fake):
    proxy = Proxy(link_floor.server.port)
    t = Linked(tmp_path, link_floor, proxy.url)
    try:
        assert t.sim.run(1) == 1
        outputs = t.sim.ctl.outputs
        assert t.pump(lambda: not outputs.lockout.on and t.display() == fake.value, 5)
        proxy.cut()
        assert t.pump(lambda: not t.up(), 5)
        assert outputs.lockout.on                     # the sensors locked out
        assert not any(o.on for o in outputs.seats.values())
        # the meter display is a serial device: its command crosses the pty after the lines
        assert t.pump(lambda: t.display() == "LINK DOWN", 5), t.display()
        assert t.rows("link_state")[-1] == {"link": "L1", "up": False}
        # base play goes on: a round settles, its progressive wagers refused
        refused = t.sim.ctl.stats["refused"]
        assert t.sim.run(1) == 1 and t.sim.ctl.model.status == "settled"
        assert t.sim.ctl.stats["refused"] > refused
        assert any("link L1 is down" in why for _, why in t.sim.ctl.refusals)
        results = t.sim.ctl.model.results
        assert results and all("progressive" not in r for r in results.values())
        assert all("ante" in r for r in results.values())
        assert "L1 DOWN" in t.meters_text()
        # the link returns: the meter re-synchronised, the sensors and the display back
        fake.call(lambda: fake._apply({"type": "contribution", "id": "T2:9:1", "table": "T2",
                                       "round": 9, "seat": "1", "wager": 10000},
                                      fake.applied_seq + 1))
        proxy.restore()
        assert t.pump(t.up, 10)
        assert t.meter["value"] == fake.value
        assert t.pump(lambda: t.display() == fake.value and not outputs.lockout.on, 5)
        before = len(fake.contributions)
        assert t.sim.run(1) == 1
        assert len(fake.contributions) == before + 2
    finally:
        t.close()
        proxy.close()


@pytest.mark.reg("669a.12(e)(4)", "669a.11(i)(3)(i)(C)", "669a.11(i)(3)(i)(D)", "605a.7")
def test_a_hit_during_an_outage_stays_pending_and_is_paid_once_when_the_link_returns(
        tmp_path, link_floor, fake):
    proxy = Proxy(link_floor.server.port)
    t = Linked(tmp_path, link_floor, proxy.url)
    try:
        rig(t.sim.autoplay)
        fake.hold_awards = True
        assert t.sim.run(1) == 1
        assert t.pump(lambda: fake.hits, 5)
        hit = fake.hits[0]
        assert (hit["id"], hit["hand"], hit["share"]) == ("T1:1:1", ["As", "Ks", "Qs"],
                                                          [1, 1])
        model = t.sim.ctl.model
        assert model.results["1"]["progressive"] == ["pending", -100]
        # the link is cut during the hit; the award is made meanwhile, the table away
        proxy.cut()
        assert t.pump(lambda: not t.up(), 5)
        fake.release(publish=False)
        text = t.meters_text()
        assert "L1 DOWN" in text and "round 1 seat 1 PENDING" in text
        assert t.meter["link"]["hits"] and t.meter["hits"] == 0
        proxy.restore()
        assert t.pump(lambda: not t.meter["link"]["hits"], 10)
        award = fake.awards[0]
        assert t.rows("link_award") == [{"link": "L1", "id": "T1:1:1", "seq": hit["seq"],
                                         "seat": "1", "amount": award["amount"]}]
        assert model.results["1"]["progressive"] == ["win", award["amount"] - 100]
        assert t.meter["paid"] == award["amount"] == 100000 + 2 * 14    # seats 1, 2 at 14% of $1
        assert model.jackpots[0]["amount"] == award["amount"]
        assert "pending hits none" in t.meters_text()
        # the award seen again (the award subject, a lookup after another reconnect) pays
        # nothing more
        t.client._award(award)
        proxy.cut()
        proxy.restore()
        assert t.pump(lambda: t.up() and t.client.stats["awards"] >= 1, 10)
        t.pump(lambda: False, 0.5)
        assert len(t.rows("link_award")) == 1 and t.meter["hits"] == 1
    finally:
        t.close()
        proxy.close()


@pytest.mark.reg("669a.2(c)")
def test_tablectl_sim_plays_on_a_link(tmp_path, link_floor, fake):
    from tests.floor.conftest import ensure, tablectl
    ensure(link_floor.url)                      # the JOURNAL stream the uplink forwards to
    journal = str(tmp_path / "sim.db")
    p = tablectl("sim", "--game", "six-card-fortune-pai-gow", "--rounds", "3", "--seed", "2",
                 "--journal", journal, "--floor", link_floor.url, "--table-id", "T1",
                 "--floor-password-file", link_floor.password_file("T1"), "--link", "L1",
                 "--floor-signing-key", link_floor.signing_key_file("T1"), "--json")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err[-2000:]
    summary = json.loads(out)
    assert summary["progressive_link"]["link"] == "L1"
    assert summary["progressive_link"]["stats"]["acks"] >= 6
    assert len(fake.contributions) >= 6


def test_sim_link_needs_the_floor():
    from tests.floor.conftest import tablectl
    p = tablectl("sim", "--game", "raise-it-up-stud", "--rounds", "1", "--link", "L1")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 2 and err.strip().endswith("give --floor NATS_URL too"), err
    assert "Traceback" not in err


def _journal_books(journal):
    """What the floor folds from the table's journal (controller/floor/fold.py), and the
    money meters of its settled rounds as they were counted (no late award)."""
    from controller.console.wager_meters import add_round
    from controller.floor.fold import TableView
    view, counted, last = TableView("T1"), {}, 0
    for row in journal_rows(journal):
        view.apply(row)
        if row["entry"] == "snapshot":
            model = json.loads(row["data"])["table"]["model"]
            if model.get("round_no", 0) > last and model.get("status") == "settled":
                last = model["round_no"]
                add_round(counted, model.get("wagers"), model.get("results"))
    return view.s["wagers"], counted


@pytest.mark.reg("669a.12(e)(4)", "605a.7")
def test_an_award_paid_after_its_round_was_counted_is_in_the_paid_money_meters(
        tmp_path, link_floor, fake):
    """The round settles with the hit "pending" (its wager counted lost); the award comes
    after: the console's money meters, the same meters seeded from the journal after a
    restart, and the floor's handle/paid per wager (folded from the journal) all add it."""
    from controller.console.wager_meters import WagerMeters
    t = Linked(tmp_path, link_floor, link_floor.url)
    try:
        rig(t.sim.autoplay)
        fake.hold_awards = True
        assert t.sim.run(1) == 1
        model = t.sim.ctl.model
        assert model.status == "settled" and model.results["1"]["progressive"] == \
            ["pending", -100]
        book = t.sim.console.session.commands.meters_book
        lost = book.read()[1]["progressive"]
        assert lost["paid"] == 0 and lost["hold"] == 200          # both stakes kept so far
        fake.release()
        assert t.pump(lambda: not t.meter["link"]["hits"], 10)
        award = fake.awards[0]["amount"]
        assert award == 100000 + 2 * 14
        total = book.read()[1]["progressive"]
        assert total["paid"] == award - 100 and total["hold"] == 200 - award
        assert total["handle"] == lost["handle"] == 200            # the handle is the round's
        assert t.sim.run(1) == 1                # rigged again: a second hit, paid late too
        assert t.pump(lambda: not t.meter["link"]["hits"], 10)
        t.sim.commit()
        awards = [a["amount"] for a in t.rows("link_award")]
        assert len(awards) == 2
        live = book.read()[1]["progressive"]
        # the floor's fold of the journal: the rounds as counted, plus the late awards (the
        # second counted from its link_award row, before any snapshot follows it)
        floor_wagers, counted = _journal_books(t.journal)
        want = counted["progressive"]
        assert want["paid"] == 0 and want["hold"] == 400           # as counted: both lost
        assert floor_wagers["progressive"]["handle"] == want["handle"] == live["handle"]
        assert floor_wagers["progressive"]["paid"] == sum(a - 100 for a in awards) == \
            live["paid"]
        assert floor_wagers["progressive"]["net"] == -400 + sum(awards) == -live["hold"]
        # a console started later reads the same from the journal's snapshots
        again = WagerMeters(t.sim.ctl, book.day_of, t.journal)
        assert again.read()[1]["progressive"] == live
    finally:
        t.close()
