"""A simulated hole-card reader: holds a hole card, answers peeks, can malfunction."""

from hal_sim.devices.sim_serial import SimSerialDevice

TEN = set("TJQK")


def is_blackjack(upcard, hole):
    ranks = {upcard[0], hole[0]}
    return "A" in ranks and bool(ranks & TEN)


class SimCardReader(SimSerialDevice):
    """insert(card)/remove(); fail(detail) is the reader malfunction (selftest and peeks fail)."""

    device = "card_reader"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.hole = None

    def insert(self, card):
        self.hole = card
        self.event("hole_card", inserted=True)

    def remove(self):
        self.hole = None
        self.event("hole_card", inserted=False)

    def fail(self, detail="optics"):
        self.malfunction = detail
        self.fault(detail)

    def on_command(self, cmd, payload):
        if cmd != "peek":
            return
        if self.malfunction:
            self.fault("unreadable card")
        elif self.hole is None:
            self.fault("no card")
        else:
            self.event("reader", blackjack=is_blackjack(payload["upcard"], self.hole))
