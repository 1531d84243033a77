"""A simulated dice shaker reader: reads the dice it is told to, or no roll."""

from hal_sim.devices.sim_serial import SimSerialDevice


class SimDiceReader(SimSerialDevice):
    device = "dice_reader"

    def roll(self, *dice):
        self.event("dice", dice=list(dice))

    def die_out(self):
        self.event("die_out")

    def not_flat(self, die=1):
        self.event("not_flat", die=die)
