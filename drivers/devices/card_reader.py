"""The hole-card reader (peek device): it answers "blackjack or not", never the card.

Double Attack Blackjack may not continue on a failed reader (581.13(i)), so a
failed self-test is a fault like any other malfunction.
"""

from controller.events import READER_ANSWER
from drivers.devices.fields import flag
from drivers.devices.serial_device import SerialDevice


class CardReader(SerialDevice):
    """Events: Event("reader", {"blackjack": bool}); faults. Commands: peek(upcard)."""

    device = "card_reader"
    section = "581.13(i)"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.card_inserted = False

    def peek(self, upcard):
        """Ask whether the inserted hole card makes blackjack with `upcard` ("As")."""
        self.command("peek", upcard=upcard)

    def translate(self, payload):
        kind = payload["kind"]
        if kind == "hole_card":
            self.card_inserted = flag(payload, "inserted")
            self.counters["hole_cards" if self.card_inserted else "hole_cards_removed"] += 1
            return []
        if kind == "reader":
            blackjack = payload[READER_ANSWER]
            if not isinstance(blackjack, bool):
                raise ValueError("blackjack must be true or false")
            return [("reader", {READER_ANSWER: blackjack})]
        raise ValueError("unknown card reader event %r" % kind)

    def status(self):
        return dict(super().status(), card_inserted=self.card_inserted)
