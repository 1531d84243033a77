"""The automated card shuffler: shuffles, counts (where the model counts), jams.

A jam or an incomplete cycle forces a reshuffle and a shuffler out of service
must be covered before another method is used (581.13(k), 583.13(f)); both are
the controller's policy, on the fault Event this driver raises.
"""

from drivers.devices.fields import MAX_CARDS, text, whole
from drivers.devices.serial_device import SerialDevice


class Shuffler(SerialDevice):
    """Events: Event("shuffle", {"by": "shuffler", "count": n}) (no count if the model does not
    count); faults "jam" and "stopped". Commands: shuffle(), count(). `counts`: the model counts
    cards. "by" tells the game the device shuffled, not the dealer's hands (581.13(k))."""

    device = "shuffler"
    section = "581.13(k)"

    def __init__(self, *args, counts=True, **kwargs):
        super().__init__(*args, **kwargs)
        self.counts = counts
        self.shuffling = False
        self.last_count = None

    def shuffle(self):
        self.command("shuffle")

    def count(self):
        """Ask for a count; it arrives in status()["last_count"] (a recount, not a shuffle)."""
        self.command("count")

    def translate(self, payload):
        kind = payload["kind"]
        if kind == "shuffle_started":
            self.shuffling = True
            return []
        if kind == "shuffle_completed":
            self.shuffling = False
            if self.counts:                  # a counting shuffler must report its cards
                cards = whole(payload, "cards", 0, MAX_CARDS)
                return [("shuffle", {"by": "shuffler", "count": cards})]
            return [("shuffle", {"by": "shuffler"})]
        if kind == "card_count":
            self.last_count = {"count": whole(payload, "count", 0, MAX_CARDS),
                               "expected": whole(payload, "expected", 0, MAX_CARDS,
                                                 optional=True)}
            return []
        if kind == "jam":
            self.shuffling = False
            return [("fault", {"reason": "jam", "where": text(payload, "where")})]
        if kind == "stopped":
            self.shuffling = False
            return [("fault", {"reason": "stopped", "detail": text(payload, "reason")})]
        raise ValueError("unknown shuffler event %r" % kind)

    def status(self):
        return dict(super().status(), shuffling=self.shuffling, last_count=self.last_count)
