"""The progressive meter display: its driver against the simulated display over a real pty,
then wired to a Six-Card Fortune controller (amounts after each change, faults, the lock-out).

A meter share is paid at the amount on the meter when the player's turn comes (670a.12(d)(3)),
so what the display reads back must be what the controller holds; a display that cannot show
it is a malfunction of the progressive table game system (670a.2(c), 605a.7).
"""
import pytest

from controller.games.events import Event
from controller.clearing import SelftestOnClear
from drivers.devices import MeterDisplay
from drivers.errors import DeviceError
from hal_sim.devices.meter_display import SimMeterDisplay
from tests.controller.helpers import LOCKOUT, make
from tests.drivers.devices.support import Sink, wait_for
from tests.games.six_card_fortune_table import KINGS, dealer_sets, deal, place, players

SCF = "six-card-fortune-pai-gow"


# -- the driver and the simulated display -------------------------------------------------

def test_each_changed_amount_is_sent_formatted_and_read_back(bench):
    b = bench(MeterDisplay, SimMeterDisplay)
    b.driver.show({"progressive": 512345, "straight_jack": 100000})
    assert wait_for(lambda: b.driver.showing == {"progressive": 512345, "straight_jack": 100000})
    assert b.sim.texts == {"progressive": "$5,123.45", "straight_jack": "$1,000.00"}
    b.driver.show({"progressive": 512345, "straight_jack": 100000})      # nothing changed
    b.driver.show({"progressive": 512365, "straight_jack": 100000})
    assert wait_for(lambda: b.sim.shown["progressive"] == 512365)
    assert [c.get("meter") for c in b.sim.commands] == ["progressive", "straight_jack",
                                                        "progressive"]
    assert b.sim.commands[-1] == {"cmd": "show", "meter": "progressive", "cents": 512365,
                                  "text": "$5,123.65"}
    assert not b.sink.of("fault")


def test_a_display_whose_controller_goes_silent_shows_no_amount():
    """protocols.md section 10: amounts nobody keeps any more are not left on show."""
    sim = SimMeterDisplay(heartbeat_timeout_ms=200).start()
    driver = MeterDisplay(None, sim.path)
    try:
        driver.start(Sink())
        assert driver.wait_connected()
        driver.show({"progressive": 512345})
        assert wait_for(lambda: sim.shown == {"progressive": 512345} and sim.blanked is None)
        driver.stop()                                   # the controller is gone
        assert wait_for(lambda: sim.blanked == "", timeout=5.0), sim.blanked
    finally:
        driver.stop()
        sim.stop()


def test_amounts_superseded_before_their_read_back_are_no_mismatch(bench):
    b = bench(MeterDisplay, SimMeterDisplay)
    for amount in (100, 120, 140, 160):
        b.driver.show({"progressive": amount})
    assert wait_for(lambda: b.sim.link.idle and b.driver.showing.get("progressive") == 160)
    assert not b.sink.of("fault")


@pytest.mark.reg("670a.12(d)(3)", "605a.7")
def test_a_display_that_keeps_an_old_amount_is_a_mismatch_fault(bench):
    b = bench(MeterDisplay, SimMeterDisplay)
    b.driver.show({"progressive": 500000})
    assert wait_for(lambda: b.driver.showing == {"progressive": 500000})
    b.sim.stick()
    b.driver.show({"progressive": 500020})
    fault = b.next("fault")
    assert fault.data == {"device": "meter_display", "name": "meter_display",
                          "reason": "mismatch", "meter": "progressive", "sent": 500020,
                          "shown": 500000, "section": "605a.7"}
    assert b.driver.selftest() is False


def test_a_dead_segment_is_a_fault_and_fails_the_selftest(bench):
    b = bench(MeterDisplay, SimMeterDisplay)
    assert b.driver.selftest() is True
    b.sim.fail("segment")
    assert b.next("fault").data["reason"] == "segment"
    assert b.driver.selftest() is False


def test_text_instead_of_amounts_then_every_amount_again(bench):
    b = bench(MeterDisplay, SimMeterDisplay)
    b.driver.blank("CLOSED")
    assert wait_for(lambda: b.sim.blanked == "CLOSED")
    b.driver.show({"progressive": 700})
    b.driver.to_safe()
    assert wait_for(lambda: b.sim.blanked == "LOCKED")
    b.driver.to_safe()                                    # already safe: nothing more sent
    b.driver.show({"progressive": 700})                   # after LOCKED: sent again
    assert wait_for(lambda: b.sim.blanked is None and b.sim.shown == {"progressive": 700})
    assert [c["cmd"] for c in b.sim.commands if c["cmd"] == "blank"] == ["blank", "blank"]
    assert not b.sink.of("fault")


def test_what_the_display_cannot_show_is_refused_and_nothing_is_sent(bench):
    b = bench(MeterDisplay, SimMeterDisplay)
    with pytest.raises(DeviceError, match=r"'progressive' amount 12.5 is not whole cents"):
        b.driver.show({"jackpot": 100, "progressive": 12.5})
    with pytest.raises(DeviceError, match="'OPEN' is not one of"):
        b.driver.blank("OPEN")
    assert b.driver.sent is None and b.driver.status()["counters"].get("commands") is None


def test_a_malformed_read_back_is_counted_and_journaled_not_taken(bench):
    b = bench(MeterDisplay, SimMeterDisplay)
    b.driver.show({"progressive": 500000})
    assert wait_for(lambda: b.driver.showing)
    b.sim.event("showing", meter="progressive", cents="lots")
    b.sim.event("flicker")
    b.sim.inject("junk", 8)
    assert wait_for(lambda: sum(b.driver.status()["rejected"].values()) == 3)
    assert b.driver.status()["rejected"] == {"bad_event": 2, "junk": 1}
    b.clock.advance(1000)                        # the second bad_event waits for its batch
    assert wait_for(lambda: sum(j[3] for j in b.journal) == 3)
    assert sorted((j[:2] + (j[3],)) for j in b.journal) == [
        ("meter_display", "bad_event", 1)] * 2 + [("meter_display", "junk", 1)]
    assert b.driver.showing == {"progressive": 500000} and not b.sink.of("fault")


# -- wired to the controller --------------------------------------------------------------

class Fed:
    """The Six-Card Fortune test helpers' table, fed through the controller's loop."""

    def __init__(self, ctl):
        self.ctl, self.model = ctl, ctl.model

    def handle(self, event):
        refused = self.ctl.stats["refused"]
        self.ctl.submit(event)
        self.ctl.run_until_idle()
        assert self.ctl.stats["refused"] == refused, self.ctl.refusals[-1]

    def until(self, condition):
        return wait_for(lambda: (self.ctl.run_once(), condition())[1])


@pytest.fixture
def table(bench):
    """(Fed controller, its GPIO, the Bench of its display) at a Six-Card Fortune table."""
    ctl, gpio, _ = make(SCF, {"progressive": {"meter": 600000, "reset": 500000}})
    b = bench(MeterDisplay, SimMeterDisplay, sink=ctl.submit)
    ctl.outputs.meters = b.driver
    ctl.policies.insert(0, SelftestOnClear({"meter_display": b.driver}))
    ctl.sync_outputs()
    return Fed(ctl), gpio, b


def _open(fed, b):
    fed.handle(Event("open_table"))
    fed.handle(Event("shuffle"))
    assert wait_for(lambda: b.sim.shown == {"progressive": 600000})


@pytest.mark.reg("670a.12(d)(1)", "670a.12(d)(3)")
def test_the_display_follows_the_meter_from_start_up_through_a_contribution_and_a_hit(table):
    fed, gpio, b = table
    assert wait_for(lambda: b.sim.blanked == "CLOSED")        # start-up: the table is closed
    _open(fed, b)
    place(fed, {4: {"six_card_fortune": 1000, "progressive": 100}})
    fed.handle(Event("no_more_bets"))
    assert wait_for(lambda: b.sim.shown == {"progressive": 600020})      # 20% of $1
    assert b.sim.texts == {"progressive": "$6,000.20"}
    deal(fed, {4: ["As", "Ah", "Ad", "Ac", "JK", "2s"], "dealer": KINGS})
    players(fed, {"4": "2s"})
    dealer_sets(fed)
    assert fed.model.results["4"]["progressive"] == ["win", 599920]   # five aces: 100%
    assert wait_for(lambda: b.sim.shown == {"progressive": 500000})      # reset
    assert fed.ctl.stats["faults"] == 0 and fed.model.state == "settled"


@pytest.mark.reg("670a.12(d)(3)", "605a.7")
def test_a_display_not_showing_the_new_amount_locks_the_table(table):
    fed, gpio, b = table
    _open(fed, b)
    b.sim.stick()
    place(fed, {2: {"six_card_fortune": 1000, "progressive": 500}})
    fed.handle(Event("no_more_bets"))
    assert fed.until(lambda: fed.model.state == "locked_out")
    assert [{k: lo[k] for k in ("reason", "section", "cleared")}
            for lo in fed.ctl.lockouts] == [{"reason": "device meter_display: mismatch",
                                 "section": "605a.7", "cleared": False}]
    fault = [e for e in fed.ctl.journal if getattr(e, "kind", None) == "fault"][0]
    assert (fault.data["sent"], fault.data["shown"]) == (600100, 600000)


@pytest.mark.reg("670a.2(c)", "605a.7")
def test_a_display_fault_drives_the_table_safe_until_repaired_and_cleared(table):
    fed, gpio, b = table
    _open(fed, b)
    place(fed, {1: {"six_card_fortune": 1000, "progressive": 100}})
    assert gpio.level(LOCKOUT) is False                       # wagering open
    b.sim.fail("segment")
    assert fed.until(lambda: fed.model.state == "locked_out")
    assert all(o.pin.is_safe for o in fed.ctl.outputs.all()) and gpio.level(LOCKOUT) is True
    assert wait_for(lambda: b.sim.blanked == "LOCKED")
    fed.ctl.submit(Event("clear", {"role": "floorperson"}))
    # the clear service tests the display on its own thread, then submits the clear with the
    # result (controller/clearing.py): the self-test fails, the clear is refused
    assert fed.until(lambda: fed.ctl.refusals)
    assert fed.model.state == "locked_out" and "self-test" in fed.ctl.refusals[-1][1]
    assert wait_for(lambda: fed.ctl.clearing.busy is None)
    b.sim.malfunction = None                                   # the display is repaired
    fed.ctl.submit(Event("clear", {"role": "floorperson"}))
    assert fed.until(lambda: fed.model.state != "locked_out")
    assert wait_for(lambda: fed.ctl.clearing.busy is None)
    assert fed.model.state == "wagers_open" and gpio.level(LOCKOUT) is False
    assert wait_for(lambda: b.sim.blanked is None and b.sim.shown == {"progressive": 600000})
