"""The dealer's keypad or touch screen: what no sensor sees, keyed in by a person.

Decisions, wagers where no sensor exists, counts, irregularities and a
supervisor's approval all arrive here; the controller decides what each may
do. An approval becomes Event("clear") without "selftest": the controller adds
the failed device's self-test result before applying it (engine.on_clear).
"""

from drivers.devices.serial_device import SerialDevice

# The panel's short role names; the controller decides which roles may clear.
ROLE_NAMES = {"floor": "floorperson", "tech": "technician", "admin": "administrator"}


class DealerPanel(SerialDevice):
    """Events: decision, wager, no_more_bets, open_table (a count of decks), decision
    {"action": "count"} (other counts), irregularity {"kind": ...}, shuffle {"by": "hand"}
    (the dealer shuffled by hand), clear {"role", "badge", "what"}. Commands: display(text)."""

    device = "dealer_panel"
    section = None

    def display(self, text):
        self.command("display", text=str(text))

    def translate(self, payload):
        kind = payload["kind"]
        data = {k: v for k, v in payload.items() if k != "kind"}
        if kind == "decision":
            _seat(data)
            if not isinstance(data["action"], str):
                raise ValueError("action must be a name")
            return [("decision", data)]
        if kind == "wager":
            _seat(data)
            if type(data["amount"]) is not int or data["amount"] < 0 or "wager" not in data:
                raise ValueError("a wager needs its name and whole cents >= 0")
            return [("wager", data)]
        if kind == "no_more_bets":
            return [("no_more_bets", {})]
        if kind == "count":
            if type(data["count"]) is not int:
                raise ValueError("a count is a whole number")
            if data.get("what") == "decks":
                return [("open_table", {"decks": data["count"]})]
            return [("decision", dict(data, action="count"))]
        if kind == "irregularity":
            irregularity = data.pop("irregularity")
            return [("irregularity", dict(data, kind=irregularity))]
        if kind == "shuffle":               # the dealer's; the shuffler reports its own
            return [("shuffle", {"by": "hand"})]
        if kind == "approval":
            role = data.get("role")
            if not isinstance(role, str) or data.get("what", "clear") != "clear":
                raise ValueError("approval %r: not a clear with a role" % (data,))
            return [("clear", {"role": ROLE_NAMES.get(role, role), "badge": data.get("badge"),
                               "what": "clear"})]
        raise ValueError("unknown panel event %r" % kind)


def _seat(data):
    if type(data.get("seat")) is not int or not 1 <= data["seat"] <= 7:
        raise ValueError("seat %r" % (data.get("seat"),))
