"""A round reconstructed hand by hand from the journal (each game's own section: 581.7(q),
633a.7(s), 583.11(f), 669a.11(j), 670a.11(j); `Declaration.reconstruction`), and redaction.

The journal holds every card, the hole card and the community cards dealt face down
included, so that a round can be reconstructed. Nothing else may show them before the
procedure reveals them: `redact` is applied to anything about a round still in progress.
What counts as revealed:
    HOLE_CARD         every card but the dealer's second (the hole card) until the
                      `hole_card` entry turns it up (the blackjack games)
    FACE_DOWN         only the cards of entries that turn cards up (REVEALING); cards dealt
                      face down (players' hands, community cards, burns) stay hidden (the
                      other card games; a dice game has no card to hide)
Each game declares which (`secret` in controller/games/declarations/).
Journal rows of a round in progress have every card code hidden: an input row does not say
which card is face down.
"""

import copy
import json
import sys

from controller.errors import InvalidCard
from controller.games.declarations import HOLE_CARD
from controller.rules.cards import parse

HIDDEN = "??"
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
    if model.DECLARES.secret == HOLE_CARD:
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
    model = _Shown(replay.ctl.model, status)
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
    """What redaction needs of a model: the game, what it keeps secret, and whether the
    round is over."""

    def __init__(self, model, status):
        self.GAME, self.DECLARES, self.status = model.GAME, model.DECLARES, status


def _void_reason(record):
    return next((d.get("reason") for what, d in record if what == "void"), None)


def render(doc, out, times=None, since=None, until=None, device_names=None):
    """The reconstruction as text, hand by hand: amounts in dollars, each journal row with
    the casino's local time (`times`: a human.WallClock; table time where none maps it),
    the rows limited to [since, until) wall ns when given, each device by its configured
    name (`device_names` {kind: name}, device_registry.configured_names)."""
    from controller.device_registry import say_names, say_row
    from controller.human import WallClock, dollars, hand_note
    times = times or WallClock()
    out.write("%s round %d: %s%s\n" % (doc["game"], doc["round"], doc["status"],
                                       " (%s)" % doc["void_reason"] if doc["void_reason"]
                                       else ""))
    if doc["rows"]:
        out.write("  from %s to %s\n" % (times.iso(doc["rows"][0]["ts_ns"]),
                                         times.iso(doc["rows"][-1]["ts_ns"])))
    if doc["status"] == "in progress":
        out.write("  (round in progress: cards not yet revealed are shown as %s)\n" % HIDDEN)
    out.write("\nwagers:\n")
    names = set()
    for seat in sorted(doc["wagers"], key=_seat_order):
        placed = doc["wagers"][seat]
        names.update(placed)
        out.write("  seat %s: %s\n" % (seat, ", ".join("%s %s" % (w, dollars(a))
                                                       for w, a in sorted(placed.items()))))
    if not doc["wagers"]:
        out.write("  none\n")
    from controller.games import declaration
    section = declaration(doc["game"]).reconstruction
    out.write("\nthe round as it happened%s:\n" % (" (%s)" % section if section else ""))
    for what, detail in doc["record"]:
        out.write("  %-22s %s\n" % (what, say_names(_detail(detail), device_names)))
    if doc["results"]:
        out.write("\nsettlement:\n")
        for seat in sorted(doc["results"], key=_seat_order):
            res = doc["results"][seat]
            names.update(res)
            out.write("  seat %s: %s\n" % (seat, ", ".join(
                "%s %s %s" % (w, r[0], dollars(r[1], sign=True)) for w, r in sorted(res.items()))))
    note = hand_note(names)
    if note:
        out.write("  (%s)\n" % note)
    out.write("\njournal rows:\n")
    for r in doc["rows"]:
        wall = times.wall_ns(r["ts_ns"])
        if since is not None and (wall is None or wall < since):
            continue
        if until is not None and (wall is None or wall >= until):
            continue
        out.write("  %6d  %s  %-7s %-14s %-16s %s\n"
                  % (r["seq"], times.iso(r["ts_ns"]), r["entry"], r["source"], r["kind"],
                     say_row(r["kind"], _detail(r["data"]), device_names)))


def _seat_order(seat):
    return (0, int(seat)) if str(seat).isdigit() else (1, str(seat))


# detail keys whose integer value is money (cents): printed as dollars
MONEY_KEYS = ("amount", "net", "paid", "pays", "payout", "meter", "reset", "won", "total",
              "handle", "contribution", "wagered", "collected", "returned")


def _detail(d):
    from controller.human import dollars
    if isinstance(d, dict):
        return " ".join("%s=%s" % (k, dollars(v) if k in MONEY_KEYS and type(v) is int
                                   else _value(v)) for k, v in d.items())
    return _value(d)


def _value(v):
    """A detail value as a person reads it: JSON for what is nested (never Python's repr:
    no None, True or quotes of a dict), "-" for nothing."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, dict)):
        return json.dumps(v, separators=(",", ":"), sort_keys=False)
    return str(v)


# ---- rows between two times -------------------------------------------------------------

def show_rows(path, out, key_file=None, since=None, until=None, as_json=False):
    """`journal show PATH [--since T] [--until T]`: every row in the window, each with the
    casino's local time (in JSON the rows as stored: table time, cents). The rows of a round
    still in progress have their card codes hidden, as everywhere. Streams: memory does not
    grow with the journal. Exit 0; 1 when the journal does not verify (the rows before the
    first bad one are shown, then the warning)."""
    from controller.device_registry import configured_names, say_row
    from controller.human import WallClock
    from controller.journal.opening import _open
    from controller.journal.live import check
    from controller.journal.store import load
    store, model_cls = _open(path, key_file)
    try:
        replay, problem = check(store, model_cls)
        model = None if replay is None else replay.ctl.model
        open_round = None
        if model is not None and not round_over(model) and model.round_no:
            open_round = model.round_no
        stop = None if problem is None else problem.seq
        clock = WallClock()
        first_clock = store.first_record("clock")
        if first_clock is not None:     # the rows before a boot's clock record are its own
            clock.add(store.last_record("clock", upto=first_clock))
        shown = 0
        names = {}          # {kind: configured name}: the runtime's `table` record says
        for raw in store.rows(1, stop):
            try:
                row = load(raw)
            except ValueError:
                break
            if row["entry"] == "record" and row["kind"] == "clock":
                clock.add(row["data"])
            elif row["entry"] == "record" and row["kind"] == "table" and \
                    isinstance(row["data"], dict):
                names = configured_names(row["data"].get("devices"))
            wall = clock.wall_ns(row["ts_ns"])
            if since is not None and (wall is None or wall < since):
                continue
            if until is not None and (wall is None or wall >= until):
                continue
            if open_round is not None and row.get("round_no") == open_round:
                row = dict(row, data=hide_cards(row["data"]))
            shown += 1
            if as_json:
                out.write(json.dumps({k: row[k] for k in ("seq", "ts_ns", "source", "entry",
                                                          "kind", "round_no", "data")}) + "\n")
                continue
            detail = ("the table's whole state (--json shows it)" if row["kind"] == "snapshot"
                      else say_row(row["kind"], _detail(row["data"]), names))
            out.write("%6d  %s  round %-4s %-7s %-14s %-16s %s\n"
                      % (row["seq"], clock.iso(row["ts_ns"]), row.get("round_no"),
                         row["entry"], row["source"], row["kind"], detail))
        if not as_json and not shown:
            out.write("no rows%s\n" % ("" if since is None and until is None
                                       else " in that time"))
    finally:
        store.close()
    if problem is not None:
        sys.stderr.write("tablectl journal show: the journal does not verify: first bad row "
                         "%d: %s\n" % (problem.seq, problem.reason))
        return 1
    return 0
