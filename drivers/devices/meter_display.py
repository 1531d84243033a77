"""The progressive meter display: the amount of each progressive payout, where players see it.

A meter share is paid at the amount on the meter when the player's turn comes
(669a.12(e)(4), 670a.12(d)(3)), so the amount players read must be the amount the
controller holds. The display reads back what it shows; an amount that differs from the
last one sent is a malfunction like a dead segment (fault "mismatch"), and the table locks
out under the progressive table game system's section (605a.7, required by 669a.2(c) and
670a.2(c)). While the table is locked out or closed the display shows text, no amount.
"""

import threading

from controller.units import cents as amount_text
from drivers.devices.serial_device import SerialDevice
from drivers.errors import DeviceError

LOCKED, CLOSED, LINK_DOWN = "LOCKED", "CLOSED", "LINK DOWN"
# what the display may show instead of the amounts; LINK DOWN: a linked progressive's link is
# lost and its meter unplayable (docs/linked-progressives.md)
TEXTS = ("", CLOSED, LOCKED, LINK_DOWN)


class MeterDisplay(SerialDevice):
    """Events: none of its own; `showing` is checked against what was sent (fault "mismatch"
    with meter, sent, shown); faults. Commands: show({meter: cents}), blank(text)."""

    device = "meter_display"
    section = "605a.7"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sent = None               # {meter: cents} last sent, or the text shown instead
        self.showing = {}              # {meter: cents or None} as the display last read back
        self._unanswered = {}          # meter -> shows sent whose read-back has not arrived
        self._sent_lock = threading.Lock()

    # -- commands -----------------------------------------------------------------

    def show(self, meters):
        """Send each meter whose amount differs from the one last sent (so a caller may ask
        every step); a display showing text is sent every amount."""
        for meter, amount in meters.items():
            if type(amount) is not int or amount < 0:
                raise DeviceError("%s: meter %r amount %r is not whole cents >= 0"
                                  % (self.name, meter, amount))
        with self._sent_lock:
            if not isinstance(self.sent, dict):
                self.sent = {}
            changed = sorted((m, c) for m, c in meters.items() if self.sent.get(m) != c)
            for meter, amount in changed:
                self.sent[meter] = amount
                self._unanswered[meter] = self._unanswered.get(meter, 0) + 1
        for meter, amount in changed:
            self.command("show", meter=meter, cents=amount, text=amount_text(amount))

    def blank(self, text=LOCKED):
        """Show `text` ("", "CLOSED" or "LOCKED") on every line instead of the amounts."""
        if text not in TEXTS:
            raise DeviceError("%s: %r is not one of %r" % (self.name, text, TEXTS))
        with self._sent_lock:
            if self.sent == text:
                return
            self.sent = text
            self._unanswered.clear()
        self.command("blank", text=text)

    def to_safe(self):
        """Drop the amounts still queued and show LOCKED (nothing to command once stopped)."""
        if not self._running or self.sent == LOCKED:
            return
        super().to_safe()
        self.blank(LOCKED)

    # -- what arrives -------------------------------------------------------------

    def translate(self, payload):
        if payload["kind"] != "showing":
            raise ValueError("unknown meter display event %r" % payload["kind"])
        meter, shown = payload["meter"], payload["cents"]
        if not isinstance(meter, str) or shown is not None and (type(shown) is not int
                                                                or shown < 0):
            raise ValueError("showing %r: a meter name and whole cents >= 0 (null: dark)"
                             % ((meter, shown),))
        with self._sent_lock:
            self.showing[meter] = shown
            left = self._unanswered.get(meter, 0)
            if left:
                self._unanswered[meter] = left - 1
            sent = self.sent.get(meter) if isinstance(self.sent, dict) else None
        if left > 1 or sent is None or shown == sent:
            return []                  # an amount already superseded, or nothing to compare
        return [("fault", {"reason": "mismatch", "meter": meter, "sent": sent, "shown": shown})]

    def status(self):
        return dict(super().status(), sent=self.sent, showing=dict(self.showing))
