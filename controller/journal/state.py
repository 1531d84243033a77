"""What a snapshot holds: the table, the policies' state and the round counters.

The table is GameMachine.snapshot() (JSON-native by design). Policies keep plain attributes, some
of them sets, tuples or a pending Event; they are written with tags so a restore gives back
the same types. Attributes that are not state (device drivers) cannot be encoded and are
left out; VOLATILE ones are the live clock's readings, which no replay can reproduce.
"""

import hashlib

from controller.games.engine import migrate_snapshot
from controller.games.events import Event
from controller.journal.chain import canonical

VOLATILE = {"press_log", "drivers", "ctx"}   # clock readings; devices; a replay's context
# policy state added after journals were written: a snapshot whose policy state has not the
# key was written before it (or with it empty), and is compared without it (`as_written`)
LATER = {"faulted"}         # FaultedInLockout (controller/policies/devices.py), issue 33


class _Skip(Exception):
    pass


def encode(v):
    if v is None or isinstance(v, (bool, int, str, float)):
        return v
    if isinstance(v, list):
        return [encode(x) for x in v]
    if isinstance(v, tuple):
        return {"__tuple__": [encode(x) for x in v]}
    if isinstance(v, (set, frozenset)):
        return {"__set__": sorted((encode(x) for x in v), key=repr)}
    if isinstance(v, Event):
        return {"__event__": v.to_json()}
    if isinstance(v, dict) and all(isinstance(k, str) for k in v):
        return {"__dict__": {k: encode(x) for k, x in v.items()}}
    raise _Skip(type(v).__name__)


def decode(v):
    if isinstance(v, list):
        return [decode(x) for x in v]
    if isinstance(v, dict):
        (tag, inner), = v.items()
        if tag == "__tuple__":
            return tuple(decode(x) for x in inner)
        if tag == "__set__":
            return set(decode(x) for x in inner)
        if tag == "__event__":
            return Event.from_json(inner)
        return {k: decode(x) for k, x in inner.items()}
    return v


def policy_name(p):
    return getattr(p, "STATE_NAME", type(p).__name__)


def journaled(policies):
    """The policies whose state is the table's: not those marked JOURNALED = False (the
    systemd heartbeat, whose readings are the live clock's and which no replay runs)."""
    return [p for p in policies if getattr(p, "JOURNALED", True)]


def policies_state(policies):
    out = []
    for p in journaled(policies):
        state = {}
        for k, v in vars(p).items():
            if k in VOLATILE or k.startswith("_"):
                continue
            try:
                state[k] = encode(v)
            except _Skip:
                continue
        out.append({"name": policy_name(p), "state": state})
    return out


def restore_policies(policies, saved):
    """Each saved state onto the policy of the same name, in order."""
    by_name = {}
    for s in saved:
        by_name.setdefault(s["name"], []).append(s["state"])
    for p in policies:
        states = by_name.get(policy_name(p))
        if states:
            for k, v in states.pop(0).items():
                setattr(p, k, decode(v))


def snapshot(table, policies, counters):
    return {"table": table.snapshot(), "policies": policies_state(policies),
            "counters": dict(counters)}


def as_written(mine, theirs):
    """`mine` (a replay's snapshot) without the LATER policy keys `theirs` (the journaled one)
    has not: a journal written before a policy kept them verifies as it did. Every other key
    is compared; a snapshot row cannot be edited without breaking the chain."""
    saved = theirs.get("policies") or []
    if len(saved) != len(mine.get("policies") or []):
        return mine
    policies = []
    for m, t in zip(mine["policies"], saved):
        gone = [k for k in LATER if k in m["state"] and k not in (t.get("state") or {})]
        if gone:
            m = dict(m, state={k: v for k, v in m["state"].items() if k not in gone})
        policies.append(m)
    return dict(mine, policies=policies)


def migrate(model_cls, snap):
    """A journaled snapshot in the current format: its table's (engine.migrate_snapshot;
    a journal written before the round's waits were machine states still verifies)."""
    return dict(snap, table=migrate_snapshot(model_cls, snap["table"]))


def digest(obj):
    return hashlib.sha256(canonical(obj)).hexdigest()
