"""The automated dealing shoe: every card dispensed arrives with its identity.

A shoe jam voids a round being played and returns every wager where the game's
chapter says so (583.13(e), 669a.13(f), 670a.13(m)): the game does that on the
fault Event raised here, citing its own section.
"""

from controller.rules import cards as cardlib
from drivers.devices.serial_device import SerialDevice


class DealingShoe(SerialDevice):
    """Events: Event("card", {"card": "As"}), Event("card", {"cards": [...]}) for a stack;
    faults "jam" and the device's own. `empty` is kept in status()."""

    device = "dealing_shoe"
    section = None               # the game cites its own chapter

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.empty = False
        self.dealt = 0

    def translate(self, payload):
        kind = payload["kind"]
        if kind == "card":
            card = _card(payload["card"])
            self.dealt += 1
            return [("card", {"card": card})]
        if kind == "stack":
            if not isinstance(payload["cards"], list):
                raise ValueError("a stack is a list of card codes")
            cards = [_card(c) for c in payload["cards"]]
            if not cards:
                raise ValueError("an empty stack")
            self.dealt += len(cards)
            return [("card", {"cards": cards})]
        if kind == "jam":
            return [("fault", {"reason": "jam"})]
        if kind == "empty":
            self.empty = True
            return []
        raise ValueError("unknown shoe event %r" % kind)

    def status(self):
        return dict(super().status(), empty=self.empty, dealt=self.dealt)


def _card(code):
    return cardlib.code(cardlib.parse(code))     # InvalidCard: counted as bad_event
