"""Clears the soak found wrong (issue 33), each replayed as a fast test on virtual time.

581.13(i): a device that malfunctions locks the table out until a floorperson clears it
after the device passes its self-test. The clear service tests every device that reported a
malfunction since the last clear, not only the lock-out's own; these tests hold that across
what the soak found breaking it.
"""

import pytest

from controller.games.engine import LOCKED_OUT
from controller.games.events import Event
from controller.lab.soak_checks import Checks
from hal_sim.virtual import VirtualTable


def _fault(ctl, device, reason):
    """What a driver submits when its device malfunctions (SerialDevice._fault)."""
    ctl.submit(Event("fault", {"device": device, "name": device, "reason": reason,
                               "section": "581.13(i)"}, device, ctl.clock()))


@pytest.mark.reg("581.13(i)")
def test_a_device_faulted_before_a_power_cut_is_tested_by_the_clear_after_the_boot(tmp_path):
    """tablectl soak --game blackjack --seed 1 --rounds 1000 --faults 1 --power-cuts 0.1
    --replay 1:1182: the meter display malfunctioned during the dealer panel's lock-out,
    then the power went; the new drivers hold no fault and the lock-out names the panel, so
    the clear tested the panel alone. What faulted is the journal's, and survives the boot."""
    checks = Checks("blackjack", 1)
    table = VirtualTable("blackjack", 1, str(tmp_path / "j.journal"), on_boot=checks.attach)
    table.boot()
    try:
        table.play_round()
        ctl = table.ctl
        _fault(ctl, "dealer_panel", "silent")
        _fault(ctl, "meter_display", "selftest")
        table.world.settle()
        assert ctl.model.state == LOCKED_OUT
        assert ctl.model.lockout["device"] == "dealer_panel"
        assert checks.untested == {"dealer_panel", "meter_display"}
        table.close()                       # every process state gone; the journal stays
        table.boot()                        # the floorperson called to the lock-out clears it
        ctl = table.ctl
        clears = [e for e in ctl.journal if getattr(e, "kind", None) == "clear"]
        assert ctl.model.state != LOCKED_OUT and clears
        assert clears[-1].data["selftest"] is True
        assert clears[-1].data["tested"] == ["meter_display"]
        assert checks.violations == []
        # once cleared, the next lock-out's clear does not test it again
        _fault(ctl, "dealing_shoe", "jam")
        table.world.settle()
        assert ctl.model.state == LOCKED_OUT
        ticket = ctl.clearing.request("floorperson", "console")
        assert ticket.ok, (ticket.reason, ticket.lines)
        assert "tested" not in ticket.event.data
    finally:
        table.close()
