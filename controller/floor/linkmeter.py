"""A linked meter's arithmetic, in stream order: pure, no NATS (linkctl.py moves the bytes).

The meter is the JSON entry of docs/linked-progressives.md. Each message of the link's
stream (a table's contribution, withdraw or hit; the floor's parameter versions and
operability changes) is applied by `apply(meter, seen, seq, doc)`, which returns the award a
hit made (or None). `seen` is what the controller remembers of the link's history (the
contributions applied, with the rate they were applied at, the withdraws, the hits awarded),
so a message sent again after the stream's duplicate window is still applied once, and a
withdraw takes back exactly what its contribution added. A controller starts from the meter
entry, not from the stream's beginning: the entry keeps `open`, each table's contributions
of its latest round (the only ones a table ever withdraws, or sends again: a restarted
table voids the round it was in), and the hits are the award entries' keys in the bucket
(`seen_from`). An entry written before `open` existed is rebuilt from the whole stream once.

Exactness: `value` cents plus `carry` / den of a cent is the meter; a contribution adds
wager x num to the carry and moves the whole cents into the value (progressive.py's
arithmetic, the standalone case of the same model). A rate version with another
denominator re-expresses the carry over the common denominator, so nothing is rounded.
"""

from math import gcd

LAST_HITS = 25
LAST_REFUSED = 25
LAST_ALARMS = 25
REFUSAL = "refusal"             # a record the controller puts on the stream (issue 31)
LOCKED, PAID = "locked", "paid"     # the controller's records of a jackpot's lock, payment
RECORDS = (REFUSAL, LOCKED, PAID)
CONFIRM = "confirm"             # a supervisor's confirmation, put on the stream by the floor


def new_meter(cfg, writer=None):
    """The meter of a link just defined: at its reset amount."""
    return {"link": cfg["link"], "version": cfg["version"], "value": cfg["reset"], "carry": 0,
            "rate": list(cfg["rate"]), "reset": cfg["reset"], "cap": cfg.get("cap"),
            "tables": list(cfg["tables"]), "game": cfg["game"], "wager": cfg["wager"],
            "paytable": cfg.get("paytable"),
            "applied_seq": 0, "contributed": 0, "withdrawn": 0, "awarded": 0, "resets": 0,
            "seeded": cfg["reset"], "over_cap": 0, "hits": 0, "contributions": 0,
            "withdraws": 0, "refused": 0, "last_refused": [], "last_hits": [],
            "last_award": None, "operable": cfg.get("operable", True),
            "confirm_above": cfg.get("confirm_above", 0),
            "second_above": cfg.get("second_above"), "pending": [],
            "why": cfg.get("why"), "writer": writer, "open": {}}


class Seen:
    """The link's history as far as applied: contribution id -> [wager, num, den,
    withdrawn], hit id -> the award's key."""

    def __init__(self):
        self.contributions = {}
        self.hits = {}


def seen_from(meter, award_keys):
    """The Seen a controller starts with: the meter entry's `open` contributions and the
    hits whose award entries the bucket holds (keys "award.<link>.<table>.<round>-<seat>")."""
    seen = Seen()
    for table, latest in (meter.get("open") or {}).items():
        for ident, c in latest["c"].items():
            seen.contributions[ident] = list(c)
    for key in award_keys:
        parts = key.split(".")
        if len(parts) != 4 or parts[0] != "award" or "-" not in parts[3]:
            continue
        round_no, seat = parts[3].split("-", 1)
        seen.hits["%s:%s:%s" % (parts[2], round_no, seat)] = key
    return seen


def _open(meter, table, ident, c):
    """Keep `ident` among `table`'s contributions of its latest round in the entry."""
    try:
        round_no = int(ident.split(":")[-2])
    except (ValueError, IndexError):
        return
    book = meter.setdefault("open", {})
    latest = book.get(table)
    if latest is None or round_no > latest["round"]:
        book[table] = latest = {"round": round_no, "c": {}}
    if round_no == latest["round"]:
        latest["c"][ident] = list(c)


def _refuse(meter, seq, doc, why):
    meter["refused"] += 1
    meter["last_refused"] = ([{"seq": seq, "type": doc.get("type"), "id": doc.get("id"),
                               "table": doc.get("table"), "why": why}] +
                             meter["last_refused"])[:LAST_REFUSED]
    return None


def alarm(meter, seq, doc, why, ts_ns=0):
    """A message the controller refused on the evidence (issue 31: a hit not signed by its
    table, on an inoperable link, without its acknowledged contribution, with a hand that
    does not win the share, sent again): recorded as refused, and as an alarm the floor
    page shows, with the meter untouched."""
    meter["applied_seq"] = seq
    _refuse(meter, seq, doc, why)
    meter["alarm_count"] = meter.get("alarm_count", 0) + 1
    meter["alarms"] = ([{"seq": seq, "type": doc.get("type"), "id": doc.get("id"),
                         "table": doc.get("table"), "round": doc.get("round"),
                         "seat": doc.get("seat"), "hand": doc.get("hand"), "why": why,
                         "ts_ns": ts_ns}] + meter.get("alarms", []))[:LAST_ALARMS]
    return None


def _add(meter, units):
    """`units` / den cents onto the meter (negative: off it); the cap applied."""
    num_den = meter["rate"][1]
    total = meter["carry"] + units
    cents = total // num_den
    meter["carry"] = total % num_den
    meter["value"] += cents
    cap = meter.get("cap")
    if cap is not None and meter["value"] > cap:
        meter["over_cap"] += meter["value"] - cap
        meter["value"] = cap
    return cents


def _rebase(meter, num, den):
    """A new rate num/den: the carry re-expressed over the common denominator."""
    old = meter["rate"][1]
    common = old * den // gcd(old, den)
    meter["carry"] = meter["carry"] * (common // old)
    meter["rate"] = [num * (common // den), common]


def _units(wager, num, den, meter_den):
    """wager x num/den in 1/meter_den of a cent (exact: meter_den is a multiple of den)."""
    return wager * num * (meter_den // den)


def award_key(meter, table, round_no, seat):
    return "award.%s.%s.%s-%s" % (meter["link"], table, round_no, seat)


def apply(meter, seen, seq, doc, ts_ns=0):
    """One stream message (`doc`, stored at stream sequence `seq`) applied to `meter`.
    Returns the award of a hit, else None. Raises nothing on bad input: a message the
    controller cannot apply is recorded as refused, with why."""
    kind = doc.get("type") if isinstance(doc, dict) else None
    meter["applied_seq"] = seq
    if kind == "config":
        if doc.get("version", 0) < meter["version"]:
            return _refuse(meter, seq, doc, "version %s is before %s"
                           % (doc.get("version"), meter["version"]))
        num, den = doc["rate"]
        if [num, den] != _reduced(meter["rate"]):
            _rebase(meter, num, den)
        for k in ("version", "reset", "cap", "tables", "game", "wager"):
            meter[k] = doc[k]
        meter["paytable"] = doc.get("paytable")
        meter["confirm_above"] = doc.get("confirm_above", 0)
        meter["second_above"] = doc.get("second_above")
        meter["operable"] = doc.get("operable", True)
        meter["why"] = doc.get("why")
        if meter["cap"] is not None and meter["value"] > meter["cap"]:
            meter["over_cap"] += meter["value"] - meter["cap"]
            meter["value"] = meter["cap"]
        return None
    if kind == "operable":
        meter["operable"] = bool(doc.get("operable"))
        meter["why"] = None if meter["operable"] else doc.get("why")
        return None
    if kind in RECORDS:
        return None                 # the controller's own record (a refusal, a lock, a payment)
    if kind == CONFIRM:
        return _confirm(meter, seq, doc)
    if kind not in ("contribution", "withdraw", "hit"):
        return _refuse(meter, seq, doc, "unknown message type %r" % (kind,))
    table, ident = doc.get("table"), doc.get("id")
    if table not in meter["tables"]:
        return _refuse(meter, seq, doc, "table %r is not on link %s" % (table, meter["link"]))
    if not isinstance(ident, str) or not ident.startswith("%s:" % table):
        return _refuse(meter, seq, doc, "id %r is not <table>:<round>:<seat>" % (ident,))
    if kind == "contribution":
        wager = doc.get("wager")
        if not isinstance(wager, int) or isinstance(wager, bool) or wager <= 0:
            return _refuse(meter, seq, doc, "wager %r is not whole cents > 0" % (wager,))
        if ident in seen.contributions:
            return _refuse(meter, seq, doc, "contribution %s already applied" % ident)
        num, den = meter["rate"]
        seen.contributions[ident] = [wager, num, den, False, seq]
        _open(meter, table, ident, seen.contributions[ident])
        meter["contributed"] += _add(meter, wager * num)
        meter["contributions"] += 1
        return None
    if kind == "withdraw":
        c = seen.contributions.get(ident)
        if c is None:
            return _refuse(meter, seq, doc, "withdraw of %s: no such contribution" % ident)
        if c[3]:
            return _refuse(meter, seq, doc, "withdraw of %s: already withdrawn" % ident)
        c[3] = True
        _open(meter, table, ident, c)
        meter["withdrawn"] -= _add(meter, -_units(c[0], c[1], c[2], meter["rate"][1]))
        meter["withdraws"] += 1
        return None
    # a hit
    share = doc.get("share", [1, 1])
    if not (isinstance(share, list) and len(share) == 2 and
            all(isinstance(x, int) and not isinstance(x, bool) for x in share) and
            0 < share[0] <= share[1]):
        return _refuse(meter, seq, doc, "share %r is not [num, den] of the meter" % (share,))
    if ident in seen.hits:
        return _refuse(meter, seq, doc, "hit %s already awarded" % ident)
    before = meter["value"]
    amount = before * share[0] // share[1]
    if share[0] >= share[1]:
        meter["value"] = meter["reset"]
        meter["resets"] += 1
        meter["seeded"] += meter["reset"]
    else:
        meter["value"] -= amount
    meter["awarded"] += amount
    meter["hits"] += 1
    award = {"type": "award", "id": ident, "link": meter["link"], "table": table,
             "round": doc.get("round"), "seat": doc.get("seat"), "amount": amount, "seq": seq,
             "share": share, "meter_before": before, "meter_after": meter["value"],
             "hand": doc.get("hand"), "ts_ns": ts_ns, "hit_ts_ns": doc.get("ts_ns"),
             "key": award_key(meter, table, doc.get("round"), doc.get("seat"))}
    seen.hits[ident] = award["key"]
    meter["last_hits"] = ([{k: award[k] for k in ("table", "seat", "round", "amount", "seq",
                                                  "hand", "ts_ns")}] +
                          meter["last_hits"])[:LAST_HITS]
    needs = confirmations_needed(meter, amount)
    if needs:
        # the jackpot lock: the amount fixed and the meter reset at the hit's place in the
        # stream, the award paid only once supervisors confirmed having seen the cards
        award.update(needs=needs, confirmations=[])
        meter.setdefault("pending", []).append(award)
    else:
        meter["last_award"] = award
    return award


def confirmations_needed(meter, amount):
    """How many supervisors confirm an award of `amount` before it is paid: none below the
    link's `confirm_above` (cents; 0: every award), one, two (different people) above
    `second_above`."""
    if amount < (meter.get("confirm_above") or 0):
        return 0
    second = meter.get("second_above")
    return 2 if second is not None and amount > second else 1


def _confirm(meter, seq, doc):
    """A supervisor's confirmation of a pending award (`id`, `by`, `ts_ns`)."""
    pending = {a["id"]: a for a in meter.get("pending") or []}
    award, by = pending.get(doc.get("id")), doc.get("by")
    if award is None:
        return _refuse(meter, seq, doc, "confirmation of %s: no award of it waits" % (
            doc.get("id"),))
    if not isinstance(by, str) or not by:
        return _refuse(meter, seq, doc, "confirmation of %s names no supervisor" % award["id"])
    if by in [c["by"] for c in award["confirmations"]]:
        return _refuse(meter, seq, doc, "confirmation of %s: %s confirmed it already; a "
                       "second person confirms" % (award["id"], by))
    award["confirmations"].append({"by": by, "ts_ns": doc.get("ts_ns"), "seq": seq})
    return None


def release_one(meter):
    """The first pending award (stream order: two hits are paid in the order they came) if
    its confirmations are all there: taken out of `pending`, made `last_award`. Or None."""
    pending = meter.get("pending") or []
    if pending and len(pending[0]["confirmations"]) >= pending[0]["needs"]:
        award = pending.pop(0)
        meter["last_award"] = award
        return award
    return None


def _reduced(rate):
    g = gcd(rate[0], rate[1])
    return [rate[0] // g, rate[1] // g]


def invariant(meter):
    """What reconcile checks of the meter alone: [] or the lines that fail. `seeded` is
    reset x (1 + resets) while the reset never changed, the sum of the seeds otherwise."""
    bad = []
    want = (meter["seeded"] + meter["contributed"] - meter["withdrawn"] - meter["awarded"] -
            meter["over_cap"])
    if meter["value"] != want:
        bad.append("value %d != seeded %d + contributed %d - withdrawn %d - awarded %d - "
                   "over_cap %d = %d" % (meter["value"], meter["seeded"], meter["contributed"],
                                         meter["withdrawn"], meter["awarded"],
                                         meter["over_cap"], want))
    if not 0 <= meter["carry"] < meter["rate"][1]:
        bad.append("carry %d is not in [0, %d)" % (meter["carry"], meter["rate"][1]))
    return bad
