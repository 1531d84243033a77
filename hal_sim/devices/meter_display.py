"""A simulated progressive meter display: shows what it is sent, reads it back, can break."""

from hal_sim.devices.sim_serial import SimSerialDevice


class SimMeterDisplay(SimSerialDevice):
    """`shown` {meter: cents}, `texts` {meter: as displayed}, `blanked` the text shown instead
    (None: the amounts). stick() freezes it: it keeps what it shows and reads that back;
    fail(detail) is a dead segment: a fault EVENT. Either makes the self-test fail."""

    device = "meter_display"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.shown, self.texts = {}, {}
        self.blanked = None

    def stick(self):
        self.malfunction = "stuck"

    def fail(self, detail="segment"):
        self.malfunction = detail
        self.fault(detail)

    def on_command(self, cmd, payload):
        frozen = self.malfunction == "stuck"
        if cmd == "show":
            meter = payload["meter"]
            if not frozen:
                self.shown[meter], self.texts[meter] = payload["cents"], payload["text"]
                self.blanked = None
            self.event("showing", meter=meter, cents=self.shown.get(meter))
        elif cmd == "blank" and not frozen:
            self.blanked = payload["text"]

    def on_link_fault(self, reason):
        """No controller, no amount it vouches for: the display goes dark (protocols.md 10)."""
        if self.malfunction != "stuck":
            self.blanked = ""
