"""The dealer's keypad or touch screen: what no sensor sees, keyed in by a person.

Decisions, wagers where no sensor exists, counts, irregularities, a
supervisor's approval, the dealer's shake of a covered dice shaker and the
dealer's own setting of his hand all arrive here; the controller decides what
each may do. An approval becomes Event("clear") without "selftest": the controller adds
the failed device's self-test result before applying it (engine.on_clear).
"""

from controller.errors import InvalidCard
from controller.events import DEALER_SEAT as DEALER
from controller.rules import cards as cardlib
from drivers.devices.fields import MAX_CARDS, MAX_CENTS, whole
from drivers.devices.serial_device import SerialDevice

# The panel's short role names; the controller decides which roles may clear.
ROLE_NAMES = {"floor": "floorperson", "tech": "technician", "admin": "administrator"}


class DealerPanel(SerialDevice):
    """Events: decision, wager, no_more_bets, open_table (a count of decks), decision
    {"action": "count"} (other counts), irregularity {"kind": ...}, shuffle {"by": "hand"}
    (the dealer shuffled by hand), clear {"role", "badge", "what"}, shuffle {"shake": true}
    (the dealer shook the covered dice shaker), decision {"seat": "dealer", "action": "set",
    "low"} (the dealer's own setting). Commands: display(text)."""

    device = "dealer_panel"
    section = None

    def display(self, text):
        self.command("display", text=str(text))

    def translate(self, payload):
        kind = payload["kind"]
        data = {k: v for k, v in payload.items() if k != "kind"}
        if kind == "decision":
            _need(kind, data, ("seat", "action"))
            _seat(data)
            if not isinstance(data["action"], str):
                raise ValueError("action must be a name")
            if "amount" in data:
                whole(data, "amount", 0, MAX_CENTS)
            return [("decision", data)]
        if kind == "wager":
            _need(kind, data, ("seat", "wager", "amount"))
            _seat(data)
            if type(data["amount"]) is not int or not 0 <= data["amount"] <= MAX_CENTS \
                    or not isinstance(data["wager"], str):
                raise ValueError("a wager needs its name and whole cents 0..10^11")
            return [("wager", data)]
        if kind == "no_more_bets":
            return [("no_more_bets", {})]
        if kind == "count":
            _need(kind, data, ("count",))
            whole(data, "count", 0, MAX_CARDS)
            if data.get("what") == "decks":
                return [("open_table", {"decks": data["count"]})]
            return [("decision", dict(data, action="count"))]
        if kind == "irregularity":
            _need(kind, data, ("irregularity",))
            irregularity = data.pop("irregularity")
            if not isinstance(irregularity, str):
                raise ValueError("irregularity: field 'irregularity' is not a name")
            return [("irregularity", dict(data, kind=irregularity))]
        if kind == "shuffle":               # the dealer's; the shuffler reports its own
            _fields(kind, data, ())
            return [("shuffle", {"by": "hand"})]
        if kind == "approval":
            role = data.get("role")
            if not isinstance(role, str) or data.get("what", "clear") != "clear":
                raise ValueError("approval %r: not a clear with a role" % (data,))
            return [("clear", {"role": ROLE_NAMES.get(role, role), "badge": data.get("badge"),
                               "what": "clear"})]
        if kind == "shake":
            # a shake is not a card shuffle: the flag lets a card game refuse it
            _fields(kind, data, ())
            return [("shuffle", {"shake": True})]
        if kind == "dealer_setting":
            _fields(kind, data, ("low",))
            return [("decision", {"seat": DEALER, "action": "set",
                                  "low": _card(kind, data, "low")})]
        raise ValueError("unknown panel event %r" % kind)


def _seat(data):
    if type(data.get("seat")) is not int or not 1 <= data["seat"] <= 7:
        raise ValueError("seat %r" % (data.get("seat"),))


def _fields(kind, data, names):
    """An entry with exactly its fields: a key pressed by mistake is not ignored."""
    for name in data:
        if name not in names:
            raise ValueError("%s: unknown field %r (it takes %s)"
                             % (kind, name, ", ".join(names) or "no fields"))
    _need(kind, data, names)


def _need(kind, data, names):
    for name in names:
        if name not in data:
            raise ValueError("%s: field %r is missing" % (kind, name))


def _card(kind, data, name):
    try:
        return cardlib.code(cardlib.parse(data[name]))
    except InvalidCard as e:
        raise ValueError("%s: field %r: %s" % (kind, name, e))
