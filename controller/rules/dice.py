"""Props & Hops (585): the wagers on one roll of two dice, and who shakes them.

A roll is two ints 1..6 in either order: every 585.2 wager names the faces or
the total, never which die showed what. Wager names and winning hand names are
the ones of the 585.4 paytables in controller.rules.paytables.

Seats are numbered 1..6 from the player farthest to the dealer's left (seat 1)
to the player farthest to the dealer's right (seat 6). The players face the
dealer, so a player's left is the dealer's right: "the next player to the
left" of 585.3(j) is the next occupied seat with a higher number, wrapping from
seat 6 to seat 1. That is also the clockwise order in which 585.3(e) starts,
with the player farthest to the dealer's left.
"""

from controller.errors import RulesError

SEATS = 6                       # 585.1(a)
_NAMES = ("one", "two", "three", "four", "five", "six")
_HARD = ("two", "four", "six", "eight", "ten", "twelve")

# In the order of 585.2: Double Wagers (d), Any Number Wagers (e), then (f).
WAGERS = tuple([h + "_hardway" for h in _HARD]
               + [_NAMES[a - 1] + "_" + _NAMES[b - 1] for a in range(1, 7) for b in range(a + 1, 7)]
               + ["field", "any_craps", "any_seven", "any_doubles"])

_FIELD_TWO_OR_TWELVE = (2, 12)               # circled on the layout, 2 to 1 (585.4)
_FIELD_OTHERS = (3, 4, 9, 10, 11)
_CRAPS = (2, 3, 12)


def wagers():
    """Every wager 585.2 authorizes."""
    return list(WAGERS)


def check_roll(d1, d2):
    """Each die shows 1..6: anything else is no roll of the two dice of 585.3(a)."""
    for d in (d1, d2):
        if not isinstance(d, int) or isinstance(d, bool) or d < 1 or d > 6:
            raise RulesError("a die shows 1 to 6, not %r: a roll is two dice (585.3(a), (g))"
                             % (d,))


def _parse(wager):
    """('hard', face), ('pair', low, high) or (name,) for a wager name."""
    if wager in ("field", "any_craps", "any_seven", "any_doubles"):
        return (wager,)
    if wager in WAGERS:
        if wager.endswith("_hardway"):
            return ("hard", _HARD.index(wager[:-8]) + 1)
        a, b = wager.split("_")
        return ("pair", _NAMES.index(a) + 1, _NAMES.index(b) + 1)
    raise RulesError("%r is not a Props & Hops wager (585.2); the wagers are %s"
                     % (wager, ", ".join(WAGERS)))


def outcome(wager, d1, d2):
    """The 585.4 paytable hand `wager` wins with on the roll, or None when it loses."""
    kind = _parse(wager)
    check_roll(d1, d2)
    t = d1 + d2
    k = kind[0]
    if k == "hard":                          # 585.2(d): the face on each die
        return "win" if d1 == d2 == kind[1] else None
    if k == "pair":                          # 585.2(e): one face on each die
        lo, hi = (d1, d2) if d1 <= d2 else (d2, d1)
        return "win" if (lo, hi) == (kind[1], kind[2]) else None
    if k == "field":                         # 585.2(f)(1), 585.4
        if t in _FIELD_TWO_OR_TWELVE:
            return "two_or_twelve"
        if t in _FIELD_OTHERS:
            return "three_four_nine_ten_eleven"
        return None
    if k == "any_craps":                     # 585.2(f)(2)
        return "win" if t in _CRAPS else None
    if k == "any_seven":                     # 585.2(f)(3)
        return "win" if t == 7 else None
    return "win" if d1 == d2 else None       # 585.2(f)(4): any hardway, 2 and 12 included


def winners(d1, d2):
    """{wager: hand} for every wager the roll wins; the rest lose."""
    check_roll(d1, d2)
    out = {}
    for w in WAGERS:
        h = outcome(w, d1, d2)
        if h is not None:
            out[w] = h
    return out


# ---- the shooter (585.3(e), (j)) ----------------------------------------------

def _check_seats(seated):
    seats = list(seated)
    if not seats:
        raise RulesError("no player is seated to shake the dice (585.3(e))")
    for s in seats:
        if not isinstance(s, int) or isinstance(s, bool) or s < 1 or s > SEATS:
            raise RulesError("seat %r does not exist: seats are 1..%d (585.1(a))" % (s, SEATS))
    return sorted(set(seats))


def first_shooter(seated):
    """The player farthest to the dealer's left: the lowest seated number (585.3(e))."""
    return _check_seats(seated)[0]


def next_to_the_left(seat, seated):
    """The next seated player to the left of `seat`, wrapping from 6 to 1 (module doc)."""
    seats = _check_seats(seated)
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 1 or seat > SEATS:
        raise RulesError("seat %r does not exist: seats are 1..%d (585.1(a))" % (seat, SEATS))
    for s in seats:
        if s > seat:
            return s
    return seats[0]


def next_shooter(shooter, d1, d2, seated):
    """Who shakes next round: the same player until his roll totals 7, then the
    next player to the left (585.3(j)). A shooter no longer seated passes the
    shaker to the left as if he had thrown the 7 (585.2(c): only seated players
    play; the text is silent on one who leaves). A "no roll" (585.3(f), (g)) is
    not a roll: do not call this for it."""
    check_roll(d1, d2)
    seats = _check_seats(seated)
    if d1 + d2 == 7 or shooter not in seats:
        return next_to_the_left(shooter, seats)
    return shooter
