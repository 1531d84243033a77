"""The regulation meters: rounds, voids and, per progressive, value, hits, paid, contributed.

They are a function of the table's state and the round counters, so the replay of the
journal recomputes them; the copy in the `meters` table is what a boot check compares.
A round is counted once, when its status is first seen set (settled or void) for its
round number, whatever state the table went on to in the same step (a deck removed).
"""

from controller.progressive import progressives

METER_FIELDS = ("value", "hits", "paid", "contributed")


def new_counters():
    return {"rounds": 0, "voids": 0, "last_round": 0}


def observe(counters, model):
    """Count the round that has just ended, once; True if one did."""
    status = getattr(model, "status", None)
    if status not in ("settled", "void") or model.round_no == counters["last_round"]:
        return False
    counters["last_round"] = model.round_no
    counters["voids" if status == "void" else "rounds"] += 1
    return True


def derive(model, counters):
    out = {"rounds": counters["rounds"], "voids": counters["voids"]}
    for name, m in sorted(progressives(model).items()):
        for field in METER_FIELDS:
            out["progressive.%s.%s" % (name, field)] = int(m.get(field, 0))
    return out


def compare(stored, derived):
    """The first meter that differs, as text, or None."""
    for name in sorted(set(stored) | set(derived)):
        a, b = stored.get(name), derived.get(name)
        if a != b:
            return "meter %s is %s in the meters table but %s by the replay of the journal" \
                % (name, a, b)
    return None
