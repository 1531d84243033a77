"""A round reconstructed hand by hand from the journal (581.7(q)), and redaction.

The journal holds every card, the hole card and the community cards dealt face down
included, so that a round can be reconstructed. Nothing else may show them before the
procedure reveals them: `redact` is applied to anything about a round still in progress.
What counts as revealed:
    blackjack games   every card but the dealer's second (the hole card) until the
                      `hole_card` entry turns it up
    other card games  only the cards of entries that turn cards up (REVEALING); cards dealt
                      face down (players' hands, community cards, burns) stay hidden
    dice games        nothing is hidden
Journal rows of a round in progress have every card code hidden: an input row does not say
which card is face down.
"""

import copy

from controller.errors import InvalidCard
from controller.rules.cards import parse

HIDDEN = "??"
BLACKJACK_GAMES = ("blackjack", "double-attack-blackjack")
REVEALING = ("hole_card", "reveal", "flop_turned_up", "turned_up", "set", "dealer_set",
             "settled_seat", "showdown", "board", "exposed", "exposed_card")


def is_card(value):
    if not isinstance(value, str) or len(value) != 2:
        return False
    try:
        parse(value)
    except InvalidCard:
        return False
    return True


def hide_cards(obj):
    """A copy of `obj` with every card code replaced by HIDDEN."""
    if isinstance(obj, dict):       # a rejected frame's bytes may carry a card: hidden whole
        return {k: HIDDEN if k == "frame" else hide_cards(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [hide_cards(v) for v in obj]
    return HIDDEN if is_card(obj) else obj


def round_over(model):
    return getattr(model, "status", None) in ("settled", "void")


def redact(record, model):
    """The round's record ([[what, detail], ...]) as it may be shown now."""
    record = copy.deepcopy(list(record))
    if round_over(model):
        return record
    if model.GAME in BLACKJACK_GAMES:
        if any(what == "hole_card" for what, _ in record):
            return record
        dealer = [i for i, (what, d) in enumerate(record)
                  if what == "card" and isinstance(d, dict) and d.get("to") == "dealer"]
        if len(dealer) >= 2:
            i = dealer[1]
            record[i] = [record[i][0], hide_cards(record[i][1])]
        return record
    return [[what, d if what in REVEALING else hide_cards(d)] for what, d in record]


def redact_row(row, model):
    """A journal row as it may be shown while `model`'s round is in progress."""
    if round_over(model):
        return dict(row)
    out = dict(row)
    out["data"] = hide_cards(row["data"])
    return out


# ---- reconstruction -----------------------------------------------------------------------

def reconstruct(rows, replay, round_no):
    """What `journal show --round N` prints, as a dict (None if the journal has no round N).

    `rows`: the journal's parsed rows in seq order, from the round's first row on or before
    (an iterable, read only until the round's last row); `replay`: a Replay that ran through
    the round, keeping it in `replay.rounds`.
    """
    info = replay.rounds.get(round_no)
    if info is None or round_no == 0:
        return None
    status = info["status"]
    model = _Shown(replay.ctl.model.GAME, status)
    # the round's rows: from the step that opened it to the records of the step that ended it
    mine, inside = [], False
    for row in rows:
        if row["seq"] == info["first"]:
            inside = True
        elif inside and row["seq"] > info["last"] and (row["entry"] == "event" or
                                                       row["kind"] in ("tick", "resume_void",
                                                                       "integrity_lock")):
            break
        if inside and row["entry"] != "snapshot":
            mine.append(redact_row(row, model))
    return {"game": model.GAME, "round": round_no,
            "status": status or "in progress",
            "void_reason": _void_reason(info["record"]),
            "rows": [{k: r[k] for k in ("seq", "ts_ns", "source", "entry", "kind", "data")}
                     for r in mine],
            "record": redact(info["record"], model),
            "wagers": info["wagers"],
            "results": info["results"] if status else {}}


class _Shown:
    """What redaction needs of a model: the game and whether the round is over."""

    def __init__(self, game, status):
        self.GAME, self.status = game, status


def _void_reason(record):
    return next((d.get("reason") for what, d in record if what == "void"), None)


def render(doc, out):
    """The reconstruction as text, hand by hand."""
    out.write("%s round %d: %s%s\n" % (doc["game"], doc["round"], doc["status"],
                                       " (%s)" % doc["void_reason"] if doc["void_reason"]
                                       else ""))
    if doc["status"] == "in progress":
        out.write("  (round in progress: cards not yet revealed are shown as %s)\n" % HIDDEN)
    out.write("\nwagers:\n")
    for seat in sorted(doc["wagers"], key=_seat_order):
        placed = doc["wagers"][seat]
        out.write("  seat %s: %s\n" % (seat, ", ".join("%s %d" % (w, a)
                                                       for w, a in sorted(placed.items()))))
    out.write("\nthe round as it happened (581.7(q)):\n")
    for what, detail in doc["record"]:
        out.write("  %-22s %s\n" % (what, _detail(detail)))
    if doc["results"]:
        out.write("\nsettlement:\n")
        for seat in sorted(doc["results"], key=_seat_order):
            res = doc["results"][seat]
            out.write("  seat %s: %s\n" % (seat, ", ".join(
                "%s %s %+d" % (w, r[0], r[1]) for w, r in sorted(res.items()))))
    out.write("\njournal rows:\n")
    for r in doc["rows"]:
        out.write("  %6d %-7s %-14s %-16s %s\n" % (r["seq"], r["entry"], r["source"], r["kind"],
                                                   _detail(r["data"])))


def _seat_order(seat):
    return (0, int(seat)) if str(seat).isdigit() else (1, str(seat))


def _detail(d):
    if isinstance(d, dict):
        return " ".join("%s=%s" % (k, _value(v)) for k, v in d.items())
    return _value(d)


def _value(v):
    if isinstance(v, list):
        return "[%s]" % ",".join(_value(x) for x in v)
    if isinstance(v, dict):
        return "{%s}" % ",".join("%s:%s" % (k, _value(x)) for k, x in v.items())
    return str(v)
