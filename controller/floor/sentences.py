"""A journal row as the sentence a floor supervisor reads on a table's page (issue 34: "events
as sentences", not raw JSON in cents): amounts in dollars, seats and devices named. A kind
without a sentence of its own is its name and its details as `journal show` prints them
(controller/journal/show.py), never JSON in cents. Cards are never named: the floor holds a
round's cards back until the round is over, and a supervisor's screen does not need them.
"""

from controller.device_registry import say_names
from controller.events import READER_ANSWER
from controller.human import dollars


def _seat(data):
    seat = data.get("seat")
    return "seat %s" % seat if seat is not None else "a seat"


def _device(data, source):
    return str(data.get("device") or data.get("name") or source).replace("_", " ")


def _wager(data, source):
    amount = data.get("amount")
    if amount == 0:
        return "%s withdrew the %s wager" % (_seat(data).capitalize(), data.get("wager"))
    if source == "progressive_system":     # a chip on the sensor: the table decides
        return "%s's progressive sensor saw %s" % (_seat(data).capitalize(), dollars(amount))
    return "%s wagered %s on %s" % (_seat(data).capitalize(), dollars(amount),
                                    str(data.get("wager")).replace("_", " "))


def _decision(data, source):
    amount = data.get("amount")
    return "%s: %s%s" % (_seat(data).capitalize(), data.get("action"),
                         " " + dollars(amount) if isinstance(amount, int) else "")


def _card(data, source):
    n = len(data.get("cards") or []) or 1
    return "%d card%s dealt from the %s" % (n, "" if n == 1 else "s", source.replace("_", " "))


def _fault(data, source):
    section = data.get("section")
    return "%s fault: %s%s" % (_device(data, source).capitalize(), data.get("reason"),
                               " (%s)" % section if section else "")


def _clear(data, source):
    who = data.get("badge") or data.get("role") or "someone"
    role = data.get("role")
    test = data.get("selftest")
    return "Lock-out cleared by %s%s%s" % (
        who, " (%s)" % role if role and role != who else "",
        "" if test is None else (", self-test passed" if test else ", self-test FAILED"))


def _lock_out(data, source):
    section = data.get("section")
    return "Locked out: %s%s" % (data.get("reason"), " (%s)" % section if section else "")


def _link_award(data, source):
    return "Linked progressive %s awarded %s to %s" % (data.get("link"),
                                                       dollars(data.get("amount")), _seat(data))


def _link_state(data, source):
    return "Linked progressive %s %s" % (data.get("link"),
                                         "is back" if data.get("up") else "was lost")


SENTENCES = {
    "open_table": lambda d, s: "Table opened with %s deck%s" % (
        d.get("decks", 1), "" if d.get("decks", 1) == 1 else "s"),
    "shuffle": lambda d, s: "Cards shuffled%s" % (
        " by the %s" % d["by"] if d.get("by") else "") if not d.get("shake")
    else "The dice shaker was shaken",
    "wager": _wager,
    "no_more_bets": lambda d, s: "No more bets",
    "card": _card,
    "decision": _decision,
    "reader": lambda d, s: "The card reader answered: %s" % (
        "a natural" if d.get(READER_ANSWER) else "no natural"),
    "dice": lambda d, s: ("Dice rolled: %s" % " ".join(str(x) for x in d["dice"])
                          if d.get("dice") else "No roll: %s" % d.get("no_roll")),
    "irregularity": lambda d, s: "Irregularity reported: %s" % str(d.get("kind")).replace(
        "_", " "),
    "fault": _fault,
    "frame_rejected": lambda d, s: "A frame from the %s was rejected: %s" % (
        _device(d, s), d.get("reason")),
    "clear": _clear,
    "new_deck": lambda d, s: "A new deck was brought to the table",
    "close_table": lambda d, s: "Table closed",
    "link_contribution": lambda d, s: "Linked progressive %s took %s's contribution" % (
        d.get("link"), _seat(d)),
    "link_withdraw": lambda d, s: "Linked progressive %s returned %s's contribution" % (
        d.get("link"), _seat(d)),
    "link_award": _link_award,
    "link_meter": lambda d, s: "Linked progressive %s meter at %s" % (
        d.get("link"), dollars(d.get("value"))),
    "link_state": _link_state,
    "lock_out": _lock_out,
    "integrity_lock": lambda d, s: "Locked out, journal integrity: %s" % d.get("reason"),
}


def sentence(kind, source, data, names=None):
    """The row's sentence (`data` its parsed data, a dict), each device by the name the
    table's configuration gives it (`names` {kind: name}: the table's `table` record,
    device_registry.configured_names), as the table's console says it."""
    data = say_names(data, names)
    say = SENTENCES.get(kind)
    if say is not None:
        try:
            return say(data, str(source))
        except (KeyError, TypeError, ValueError, AttributeError):
            pass                                # an odd row: said plainly below
    from controller.journal.show import _detail
    return ("%s %s" % (str(kind).replace("_", " ").capitalize(), _detail(data))).strip()
