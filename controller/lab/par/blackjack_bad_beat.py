"""Bad Beat Progressive (633a.7(o)(1)(i)) priced exactly over the shoe, the seat playing the
basic strategy chart.

Why its own module: Bad Beat is the one optional wager whose outcome depends on both the
player's drawn cards and the dealer's, so its price needs the whole deal: the player's draws
deplete the shoe the dealer then draws from, split hands are drawn from the same shoe one after
the other, a pair is resplit to the table's `split_hands`. Every figure is an exact Fraction.

Method (controller/lab/par/blackjack_play.py explains the counting):
  * Orders of a deal. For cards drawn without replacement, the chance of a whole deal depends
    only on which values go to which role (the player's cards, the hole card, the dealer's
    draws), not on the order they were drawn in; each party's stopping rule (the chart, the
    dealer's 17, 633a.7(m)) reads only its own cards. So the hole card, dealt before the
    player draws, may be priced as drawn after him, and the reader's no-Blackjack
    (633a.7(h)) is then a condition on that card, exact.
  * A deal is priced by its multiset: sum over the seat's final multisets F (the chart's
    sequences counted per multiset, once per up card) and the dealer's final multisets D
    (his sequences ending on 21, hole card first) of count(F) count(D) times the product over
    values of falling factorials of the shoe's counts at F + D, over a falling factorial of
    the shoe's size. Integers to the end; one division per length.
  * An unsplit hand: every multiset the chart can end on 20 with, paired with every dealer 21.
  * A split round: tracking every card of every hand explodes for small pairs (2-2 resplit to
    four hands against a 6: millions of multisets), so a split round is priced by inclusion
    and exclusion over its hands: P(some hand ends on 20 and the dealer on 21) =
    sum over non-empty sets J of hands of (-1)^(|J|+1) P(every hand of J ends on 20 and the
    dealer on 21). For a term only the hands of J and the dealer are tracked: the other hands'
    draws may be priced as drawn after the dealer (their stopping rule reads only their own
    cards), where they sum to one. The hands that exist are fixed by the second cards (a v
    second card to a split v resplits it while the seat has fewer than `split_hands` hands):
    every pattern of resplits is enumerated, and a hand outside J whose second card had to be
    another value to end the resplitting is counted as "a card not v" of the shoe, exactly.
  * Rows as the table settles them (controller/games/blackjack/side_wagers.py): the best row
    over the seat's hands not surrendered; `twenty_vs_blackjack` is the initial 20 against
    the reader's Blackjack (the round ends there); `twenty` (the Rules Submission's option)
    any 20 against a dealer hand that is neither.
One player at the table; the other players' cards are unseen and do not change the figure.
"""

from fractions import Fraction
from math import comb

from controller.lab.par import blackjack_play as bp
from controller.lab.par import blackjack_split_exact as exact
from controller.lab.par import blackjack_split_vector as vector
from controller.lab.par import blackjack_strategy as s
from controller.lab.par import spread

VALUES, ACE, TEN = s.VALUES, s.ACE, s.TEN
ROWS = ("twenty_vs_blackjack", "twenty_vs_21", "twenty")
ZERO = (0,) * 10

METHOD = ("over the shoe in Fractions, the seat playing the basic strategy chart: the "
          "player's draws deplete the shoe the dealer then draws from; the hole card priced "
          "as the card after the player's (exchangeable), conditioned exactly on the reader's "
          "no-Blackjack; split hands drawn one after the other from the same shoe, resplit to "
          "the table's split_hands; a split round by inclusion-exclusion over its hands, "
          "every term (three and four hands included) in one polynomial per pair; counted by "
          "multisets of card values (sequences per multiset times falling factorials of the "
          "shoe), the split rounds' integers modulo 31-bit primes put back by the Chinese "
          "remainder theorem")
PRECISION = ("exact: every inclusion-exclusion term of every split round, Fraction for "
             "Fraction the term-by-term sum (tests/par/test_par_blackjack_exact.py)")


def hole_excluded(rules, up):
    """The hole-card values the card reader finds to give the dealer a Blackjack."""
    if up not in rules.peek_ups:
        return frozenset()
    return frozenset({TEN} if up == ACE else {ACE})


def _add(m1, m2):
    return tuple(a + b for a, b in zip(m1, m2))


class _Pricer:
    """Sums count * (falling factorials of the shoe at a multiset) by length, exactly."""

    def __init__(self, shoe):
        self.c = [shoe[v] for v in VALUES]
        self.n = sum(self.c)
        self.ff = _falling_table(tuple(self.c))
        self.sums = {}

    def numerator(self, m):
        out = 1
        for i, k in enumerate(m):
            if k:
                if k > self.c[i]:
                    return 0
                out *= self.ff[i][0][k]
        return out

    def add_pairs(self, zs, ds, weight, lump=None):
        """Add weight * sum over z in zs, d in ds of count(z) count(d) ways(z + d) / ...:
        `zs`, `ds`: {multiset: count}; `lump` (v, q): q more cards of any value but v."""
        ff, c, sums = self.ff, self.c, self.sums
        dl = [([(i, k) for i, k in enumerate(d) if k], sum(d), n, d) for d, n in ds.items()]
        for z, nz in zs.items():
            base = self.numerator(z)
            if not base:
                continue
            lz = sum(z)
            for items, ld, nd, d in dl:
                w = base
                for i, k in items:
                    zi = z[i]
                    if zi + k > c[i]:
                        w = 0
                        break
                    w *= ff[i][zi][k]
                if not w:
                    continue
                length = lz + ld
                if lump is not None:
                    v, q = lump
                    others = self.n - c[v - 1]
                    used = length - z[v - 1] - d[v - 1]
                    w *= bp.falling(others - used, q)
                    length += q
                sums[length] = sums.get(length, 0) + weight * nz * nd * w

    def add_split_terms(self, v, zs, ds, variants):
        """Add, for each (resplits r, lumped q, weight) of `variants`, weight * the pairs of
        `zs` and `ds` priced with 2 + r more cards of value v (the split pair and its
        resplits) and q more cards of any value but v. The pairs are walked once: what they
        share (every value but v) is summed by (cards of v, cards of other values)."""
        ff, c = self.ff, self.c
        iv = v - 1
        dl = [([(i, k) for i, k in enumerate(d) if k and i != iv], d[iv], sum(d) - d[iv], n)
              for d, n in ds.items()]
        shared = {}
        for z, nz in zs.items():
            base = nz
            for i, k in enumerate(z):
                if k and i != iv:
                    base *= ff[i][0][k]
            if not base:
                continue
            zv, zo = z[iv], sum(z) - z[iv]
            for items, dv, do, nd in dl:
                w = base * nd
                for i, k in items:
                    w *= ff[i][z[i]][k]
                if w:
                    key = (zv + dv, zo + do)
                    shared[key] = shared.get(key, 0) + w
        others = self.n - c[iv]
        sums = self.sums
        for (mv, mo), w in shared.items():
            for r, q, weight in variants:
                if mv + 2 + r > c[iv]:
                    continue
                x = w * ff[iv][0][mv + 2 + r] * bp.falling(others - mo, q)
                if x:
                    length = mv + 2 + r + mo + q
                    sums[length] = sums.get(length, 0) + weight * x

    def total(self):
        return sum((Fraction(x, bp.falling(self.n, k)) for k, x in self.sums.items()),
                   Fraction(0))


_TABLES = {}


def _falling_table(counts):
    """ff[i][z][d] = falling(counts[i] - z, d): the ways of d more cards of value i once z
    are gone (0 when the shoe has too few), for z, d up to counts[i] + 1; cached per
    shoe. Multisets are kept within the shoe (`cap`), so no look-up goes past it."""
    if counts not in _TABLES:
        table = []
        for c in counts:
            rows = []
            for z in range(c + 2):
                row, x = [1], 1
                for d in range(1, c + 2):
                    x *= max(c - z - d + 1, 0)
                    row.append(x)
                rows.append(row)
            table.append(rows)
        _TABLES[counts] = table
    return _TABLES[counts]


def _convolve(a, b, cap):
    """The multisets of a and b added, their counts multiplied; those past the shoe dropped."""
    out = {}
    for x, nx in a.items():
        for y, ny in b.items():
            k = _add(x, y)
            if all(m <= c for m, c in zip(k, cap)):
                out[k] = out.get(k, 0) + nx * ny
    return out


def _every_term(pairing):
    """(the split polynomial's maker, its pairing with the dealer) for most_tracked None:
    blackjack_split_vector's (numpy) by default where numpy is installed, else
    blackjack_split_exact's pairing by support; the same Fractions either way."""
    if pairing is None:
        pairing = (vector.add_split_round if vector.available()
                   else exact.add_split_round_by_support)
    if pairing is vector.add_split_round:
        return vector.split_polynomial, pairing
    return exact.split_polynomial, pairing


def up_card_parts(rules, chart_up, up, shoe):
    """[(estimated cost, part)] of one up card's figure, independent of each other: None (the
    initial 20 against the reader's Blackjack and the unsplit hands) and each pair value the
    chart splits. The estimate (the split hand's 20s squared times the dealer's 21s) only
    orders the parts for spread.map, the longest first."""
    play = bp.ChartPlay(rules, chart_up)
    cap = tuple(shoe[v] for v in VALUES)
    dealer = bp.dealer_sequences(up, hole_excluded(rules, up), rules.hit_soft_17, cap)
    n21 = sum(1 for (_, t) in dealer if t == 21)
    out = [(n21, None)]
    for v in VALUES:
        if play.splits(v) and shoe[v] >= 2:
            out.append((len(exact.hand_twenties(play, v, cap)[1]) ** 2 * n21, v))
    return out


def up_card_part(rules, chart_up, up, shoe, part, most_tracked=None, pairing=None,
                 any_twenty=True):
    """{row: {length: numerator over falling(n, length)}} of one part of an up card's figure
    (up_card_parts): `part` None the initial 20 and the unsplit hands, else the split
    rounds of that pair value. The up card `up` is out of `shoe` (11 counts by value);
    `pairing`: how every term's polynomial meets the dealer (most_tracked None; _every_term).
    The `twenty` row's sums are every 20's against a dealer hand that is not a Blackjack (21
    included, taken off by _totals); without `any_twenty` they are not priced."""
    polynomial, pair_round = _every_term(pairing)
    play = bp.ChartPlay(rules, chart_up)
    excluded = hole_excluded(rules, up)
    cap = tuple(shoe[v] for v in VALUES)
    dealer = bp.dealer_sequences(up, excluded, rules.hit_soft_17, cap)
    d21 = {}
    for (m, t), n in dealer.items():
        if t == 21:
            d21[m] = d21.get(m, 0) + n
    holes = {bp.multiset_of([h]): 1 for h in VALUES if h not in excluded}
    bad_holes = {bp.multiset_of([h]): 1 for h in excluded}
    vs_bj, vs_21, ok20 = _Pricer(shoe), _Pricer(shoe), _Pricer(shoe)
    rows = {"twenty_vs_blackjack": vs_bj.sums, "twenty_vs_21": vs_21.sums, "twenty": ok20.sums}

    if part is None:
        # the initial 20 against the reader's Blackjack: the round ends there
        twenties = {}
        for a in VALUES:
            for b in VALUES:
                if s.hand_state([a, b])[0] == 20:
                    m = bp.multiset_of([a, b])
                    twenties[m] = twenties.get(m, 0) + 1
        if bad_holes:
            vs_bj.add_pairs(twenties, bad_holes, 1)
        # unsplit hands: every multiset the chart ends on 20 with
        finals = play.finals(shoe, split=False)
        f20 = {m: n for (m, flag), n in finals.items() if flag}
        vs_21.add_pairs(f20, d21, 1)
        if any_twenty:
            ok20.add_pairs(f20, holes, 1)
        return rows

    # a split round, by inclusion-exclusion over the hands
    v = part
    if most_tracked is None:                # every term: one polynomial
        y = polynomial(play, v, rules.split_hands, cap)
        pair_round(vs_21.sums, shoe, v, y, d21)
        if any_twenty:
            pair_round(ok20.sums, shoe, v, y, holes)
        return rows
    resplit = v != ACE                      # split aces are not split again
    hand_c, hand_a = exact.hand_twenties(play, v, cap)
    if not hand_a:
        return rows
    convs = {(0, 0): {ZERO: 1}}

    def conv(jc, ja):
        if (jc, ja) not in convs:
            if ja:
                convs[(jc, ja)] = _convolve(conv(jc, ja - 1), hand_a, cap)
            else:
                convs[(jc, ja)] = _convolve(conv(jc - 1, ja), hand_c, cap)
        return convs[(jc, ja)]
    variants = {}
    for (r, nc, na), patterns in exact.phase_patterns(rules.split_hands, resplit).items():
        for jc in range(nc + 1):
            for ja in range(na + 1):
                if not jc and not ja or most_tracked and jc + ja > most_tracked:
                    continue
                sign = 1 if (jc + ja) % 2 else -1
                weight = sign * patterns * comb(nc, jc) * comb(na, ja)
                variants.setdefault((jc, ja), []).append((r, nc - jc, weight))
    for (jc, ja), vs in sorted(variants.items()):
        zs = conv(jc, ja)
        vs_21.add_split_terms(v, zs, d21, vs)
        if any_twenty:
            ok20.add_split_terms(v, zs, holes, vs)
    return rows


def _totals(shoe, rows_list, any_twenty):
    """{row: exact probability} from the parts' sums (up_card_part) over one shoe."""
    n = sum(shoe[v] for v in VALUES)
    sums = {row: {} for row in ROWS}
    for rows in rows_list:
        for row, got in rows.items():
            for length, x in got.items():
                sums[row][length] = sums[row].get(length, 0) + x
    total = {row: sum((Fraction(x, bp.falling(n, k)) for k, x in got.items()), Fraction(0))
             for row, got in sums.items()}
    out = {"twenty_vs_blackjack": total["twenty_vs_blackjack"],
           "twenty_vs_21": total["twenty_vs_21"]}
    if any_twenty:
        out["twenty"] = total["twenty"] - total["twenty_vs_21"]
    return out


def up_card_probabilities(rules, chart_up, up, shoe, most_tracked=None, pairing=None,
                          any_twenty=True):
    """{row: exact probability} given the up card `up`, the rest of the deal drawn from
    `shoe` (a list of 11 counts by value, the up card already out): every part of
    up_card_parts, in this process. Without `any_twenty` the `twenty` row (the Rules
    Submission's option) is neither priced nor returned."""
    parts = [up_card_part(rules, chart_up, up, shoe, part, most_tracked, pairing, any_twenty)
             for _, part in up_card_parts(rules, chart_up, up, shoe)]
    return _totals(shoe, parts, any_twenty)


def _part(task):
    """spread.map's piece: one up_card_part, its arguments in a tuple."""
    return up_card_part(*task)


_CACHE = {}


def probabilities(rules, chart, shoe=None, any_twenty=False, most_tracked=None, pairing=None):
    """{(row,): probability, (): the wager lost} for the table's rules, its chart (one per
    up card) and `shoe` (11 counts by value; default the configured shoe). The parts of every
    up card are spread over the pool `tablectl par` opens (controller/lab/par/spread.py); the
    figure is cached per rule set, shoe and method within a process (a sheet, its report and
    its tests ask for it more than once)."""
    shoe = list(shoe or rules.shoe())
    key = (s.rules_key(rules), tuple(shoe), repr(sorted(chart.items())), most_tracked, pairing)
    for priced in (any_twenty, True):       # the figure with `twenty` holds the one without
        if (key, priced) in _CACHE:
            paid = dict(_CACHE[(key, priced)])
            if priced and not any_twenty:
                paid.pop(("twenty",))
                paid[()] = 1 - sum(v for k, v in paid.items() if k)
            return paid
    n = sum(shoe)
    tasks = []
    for up in VALUES:
        if not shoe[up]:
            continue
        rest = list(shoe)
        rest[up] -= 1
        for cost, part in up_card_parts(rules, chart[up], up, rest):
            tasks.append((cost, (rules, chart[up], up, rest, part, most_tracked, pairing,
                                 any_twenty)))
    tasks.sort(key=lambda t: -t[0])
    by_up = {}
    for (_, task), rows in zip(tasks, spread.map(_part, [t for _, t in tasks])):
        by_up.setdefault(task[2], []).append(rows)
    out = dict.fromkeys(ROWS, Fraction(0))
    for up, parts in by_up.items():
        rest = list(shoe)
        rest[up] -= 1
        for row, p in _totals(rest, parts, any_twenty).items():
            out[row] += Fraction(shoe[up], n) * p
    if not any_twenty:
        out.pop("twenty")
    paid = {(k,): v for k, v in out.items()}
    paid[()] = 1 - sum(paid.values())
    _CACHE[(key, any_twenty)] = dict(paid)
    return paid
