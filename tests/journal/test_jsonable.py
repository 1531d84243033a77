"""jsonable(): what a row's data becomes before canonical() encodes and the chain hashes it.
Its fast branches (exact dicts, lists and tuples of plain values) must give the very value
the general ones do, for every input: a row's bytes, and so its hash, depend on it."""
import enum
import math
from collections import Counter, OrderedDict

from controller.journal.chain import canonical
from controller.journal.store import jsonable


def general(obj):
    """The reference: jsonable as it was, every value through the isinstance chain."""
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    if isinstance(obj, float):
        return obj if obj == obj and obj not in (math.inf, -math.inf) else repr(obj)
    if isinstance(obj, dict):
        return {str(k): general(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [general(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted((general(v) for v in obj), key=repr)
    if hasattr(obj, "to_json"):
        return general(obj.to_json())
    return str(obj)


class Seat(enum.IntEnum):
    ONE = 1


class Tag(str):
    pass


class Card:
    def to_json(self):
        return {"rank": "A", "suit": ("s",)}


class Opaque:
    def __str__(self):
        return "opaque!"


CASES = [
    None, True, 0, -7, "x", 1.5, math.nan, math.inf, -math.inf,
    {"a": 1, 2: "b", None: [1, (2, 3)], True: {4, 5}, Seat.ONE: Tag("t")},
    [(), [], {}, set(), frozenset({"b", "a"}), ({"k": (1.0, None)},)],
    {"seats": {1: {"wagers": {"ante": 500}, "cards": ("As", "Kd")}, 10: None, 2: []}},
    OrderedDict([("z", 1), ("a", (2,))]), Counter({"x": 3}),
    [Card(), Opaque(), Seat.ONE, Tag("y"), b"raw", 3 + 4j],
    {"deep": [[[[{"n": (i, str(i), i * 0.5)} for i in range(3)]]]]},
]


def test_jsonable_gives_the_general_value_for_every_kind_of_input():
    for case in CASES:
        assert jsonable(case) == general(case), case
        assert canonical(jsonable(case)) == canonical(general(case)), case
        got, want = jsonable(case), general(case)
        assert type(got) is type(want), case
