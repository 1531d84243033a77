"""The dice shaker reader: the values in the uncovered shaker, or why there is no roll.

A die out of the shaker or not lying flat is no roll (585.3(f), (g)); it is a
normal outcome, not a malfunction, so it is a dice Event, not a fault.
"""

from drivers.devices.serial_device import SerialDevice


class DiceReader(SerialDevice):
    """Events: Event("dice", {"dice": [a, b]}), Event("dice", {"no_roll": "die_out"|"not_flat"}),
    faults (the camera cannot read). `dice`: how many dice the shaker holds."""

    device = "dice_reader"
    section = "585.3"

    def __init__(self, *args, dice=2, **kwargs):
        super().__init__(*args, **kwargs)
        self.dice = dice

    def translate(self, payload):
        kind = payload["kind"]
        if kind == "dice":
            values = payload["dice"]
            if (not isinstance(values, list) or len(values) != self.dice
                    or not all(type(v) is int and 1 <= v <= 6 for v in values)):
                raise ValueError("dice %r: need %d values 1..6" % (values, self.dice))
            return [("dice", {"dice": list(values)})]
        if kind == "die_out":
            return [("dice", {"no_roll": "die_out"})]
        if kind == "not_flat":
            die = payload.get("die")
            if die is not None and (type(die) is not int or not 1 <= die <= self.dice):
                raise ValueError("not_flat: die %r is not 1..%d" % (die, self.dice))
            return [("dice", {"no_roll": "not_flat", "die": die})]
        raise ValueError("unknown dice reader event %r" % kind)
