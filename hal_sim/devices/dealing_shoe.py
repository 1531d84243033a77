"""A simulated dealing shoe: deals the cards it is told to, jams on command."""

from hal_sim.devices.sim_serial import SimSerialDevice


class SimDealingShoe(SimSerialDevice):
    device = "dealing_shoe"

    def deal(self, card):
        self.event("card", card=card)

    def deal_stack(self, cards):
        self.event("stack", cards=list(cards))

    def jam(self):
        self.event("jam")

    def empty(self):
        self.event("empty")
