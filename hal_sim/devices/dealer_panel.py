"""A simulated dealer panel: the simulation keys entries in; the display shows commands."""

from hal_sim.devices.sim_serial import SimSerialDevice


class SimDealerPanel(SimSerialDevice):
    device = "dealer_panel"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.display = None

    def key(self, kind, **data):
        """Key an entry: decision, wager, no_more_bets, count, irregularity, shuffle, approval,
        shake, dealer_setting (docs/protocols.md section 10). Anything is sent as keyed, so a
        test can key a malformed entry."""
        self.event(kind, **data)

    def on_command(self, cmd, payload):
        if cmd == "display":
            self.display = payload.get("text")
