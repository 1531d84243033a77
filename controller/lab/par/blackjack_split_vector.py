"""Bad Beat's split rounds with every inclusion-exclusion term, on numpy arrays: the same
integers as controller/lab/par/blackjack_split_exact.py (split_polynomial and its pairing with the
dealer), fast enough for the sheet of `tablectl par --all`.

Why a third way: blackjack_split_exact walks a million multisets one by one in Python dicts
(2-2 against a 7 alone: 16 s to build its four-hand polynomial, 19 s to pair it with the
dealer's 21s; about 100 s of CPU for the table). Here
  * a multiset is one int64, each value's field as wide as the most cards of that value the
    tracked hands can hold (so adding keys adds multisets, no field carrying into the next),
    and a polynomial is two arrays, keys and weights (exact int64: the weights stay under 2**40);
  * a product is an outer sum of keys and an outer product of weights, merged by a sort (each
    row is the sorted keys shifted by one key of the other factor, a run the stable sort
    merges), in chunks so no array passes a few million entries;
  * the pricing multiplies by falling factorials of the shoe, integers of up to 600 bits: it is
    done modulo as many 31-bit primes as the figure's bound needs (products of two fit in
    int64) and put back together by the Chinese remainder theorem, so the figure stays an
    exact integer; every length's numerator is carried over the longest length's falling
    factorial (times falling(N - L, Lmax - L)), so one residue per prime;
  * the dealer is paired as by blackjack_split_exact.add_split_round_by_support: the hands'
    polynomial summed down to a few covers of the dealer's values, each dealer multiset's own
    support summed from the smallest of those, one short vector product per dealer multiset.
numpy is the `lab` extra (setup.cfg): without it blackjack_bad_beat uses blackjack_split_exact,
which gives the same Fractions more slowly. tests/par/test_par_blackjack_exact.py compares the
two numerator for numerator.
"""

from math import prod

from controller.lab.par import blackjack_play as bp
from controller.lab.par import blackjack_split_exact as exact

try:
    import numpy as np
except ImportError:                 # the `lab` extra; blackjack_split_exact does without it
    np = None

VALUES = exact.VALUES
CHUNK = 1 << 22                     # entries of one outer product, merged before the next
PRIME_BITS = 31
_PRIMES = []


def available():
    return np is not None


def _is_prime(n):
    """Miller-Rabin with the bases 2, 3, 5, 7: deterministic below 3.2e9."""
    if n % 2 == 0:
        return n == 2
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def primes_over(bound):
    """The largest primes below 2**31, as many as make their product exceed 2 * bound (so a
    residue vector names one integer of magnitude at most `bound`)."""
    out, m = [], 1
    i = 0
    while m <= 2 * bound:
        while len(_PRIMES) <= i:
            n = (_PRIMES[-1] if _PRIMES else 1 << PRIME_BITS) - 1
            while not _is_prime(n):
                n -= 1
            _PRIMES.append(n)
        out.append(_PRIMES[i])
        m *= _PRIMES[i]
        i += 1
    return out


def crt(residues, primes):
    """The integer of least magnitude with these residues (Chinese remainder theorem)."""
    m = prod(primes)
    x = 0
    for r, p in zip(residues, primes):
        mp = m // p
        x += int(r) * mp * pow(mp, -1, p)
    x %= m
    return x - m if x > m // 2 else x


class Layout:
    """Where each value's count sits in a key: fields as wide as `bounds` (the most cards of
    each value a key can hold), then the lumped cards' field."""

    def __init__(self, bounds, q_max):
        self.shifts, self.masks, pos = [], [], 0
        for b in bounds:
            width = max(int(b).bit_length(), 1)
            self.shifts.append(pos)
            self.masks.append((1 << width) - 1)
            pos += width
        self.q_shift, self.q_mask = pos, (1 << max(q_max.bit_length(), 1)) - 1
        self.scale = None           # the sum of the terms' |coefficients| (split_polynomial)
        pos += max(q_max.bit_length(), 1)
        if pos > 62:
            raise OverflowError("a split round's multisets need %d bits, over an int64" % pos)

    def pack(self, m):
        return sum(k << sh for k, sh in zip(m, self.shifts))

    def field(self, keys, i):
        return (keys >> self.shifts[i]) & self.masks[i]

    def lumped(self, keys):
        return (keys >> self.q_shift) & self.q_mask


def _arrays(lay, hand):
    keys = np.array([lay.pack(m) for m in hand], dtype=np.int64)
    weights = np.array(list(hand.values()), dtype=np.int64)
    return _merge(keys, weights)


def _runs(keys):
    """(an order that sorts `keys`, where each run of equal sorted keys starts). Why not
    argsort: where a key and its index fit one int64 together (keys are never negative),
    sorting the packed values is an order of magnitude faster than a stable argsort here
    (15 ms against 157 ms a million keys) and no slower than an unstable one; the order
    within a run does not matter to any caller (they sum a run, or keep one of its equals)."""
    n = len(keys)
    bits = max(n - 1, 1).bit_length()
    if n and int(keys.max()).bit_length() + bits <= 63:
        packed = np.sort((keys << bits) | np.arange(n, dtype=np.int64))
        order, ordered = packed & ((1 << bits) - 1), packed >> bits
    else:
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
    return order, np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))


def _merge(keys, weights):
    """Equal keys summed, zero weights dropped, sorted by key."""
    if not len(keys):
        return keys, weights
    order, starts = _runs(keys)
    keys, weights = keys[order[starts]], np.add.reduceat(weights[order], starts)
    nz = weights != 0
    return keys[nz], weights[nz]


def _concat(polys):
    polys = [p for p in polys if len(p[0])]
    if not polys:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return (np.concatenate([k for k, _ in polys]), np.concatenate([w for _, w in polys]))


def _mul(a, b):
    """Two polynomials multiplied: keys added, weights multiplied, equal keys merged."""
    ka, wa = a
    kb, wb = b
    if not len(ka) or not len(kb):
        return ka[:0], wa[:0]
    top = int(np.abs(wa).max()) * int(np.abs(wb).max()) * min(len(ka), len(kb))
    if top >= 1 << 62:
        raise OverflowError("a split round's weights pass an int64")
    rows = max(1, CHUNK // len(ka))
    parts = []
    for s in range(0, len(kb), rows):
        keys = (kb[s:s + rows, None] + ka[None, :]).ravel()
        weights = (wb[s:s + rows, None] * wa[None, :]).ravel()
        parts.append(_merge(keys, weights))
    return _merge(*_concat(parts)) if len(parts) > 1 else parts[0]


def _scaled(poly, coef):
    return poly[0], poly[1] * coef


def split_polynomial(play, v, split_hands, cap):
    """(Layout, keys, weights): blackjack_split_exact.split_polynomial as arrays, every
    inclusion-exclusion term of a split pair of v; a key holds the tracked hands' cards after
    their first (the r resplit cards of v in v's field) and the q lumped cards."""
    hand_c, hand_a = exact.hand_twenties(play, v, cap)
    if not hand_a:
        return None
    tags = exact.tag_coefficients(split_hands, v != exact.ACE)
    most = max(ja + jc for by_ja in tags.values() for ja, by_jc in by_ja.items()
               for jc in by_jc)
    r_max = max(r for r, _ in tags)
    bounds = [most * max(m[i] for m in hand_a) + (r_max if i == v - 1 else 0)
              for i in range(10)]
    lay = Layout(bounds, max(q for _, q in tags))
    lay.scale = sum(abs(coef) for by_ja in tags.values() for by_jc in by_ja.values()
                    for coef in by_jc.values())
    a, c = _arrays(lay, hand_a), _arrays(lay, hand_c)
    c_powers = [(np.zeros(1, np.int64), np.ones(1, np.int64))]
    parts = []
    for (r, q), by_ja in tags.items():
        y = None
        for ja in range(max(by_ja), -1, -1):           # Horner's rule in A
            if y is not None:
                y = _mul(y, a)
            for jc, coef in by_ja.get(ja, {}).items():
                while len(c_powers) <= jc:
                    c_powers.append(_mul(c_powers[-1], c))
                term = _scaled(c_powers[jc], coef)
                y = term if y is None else _merge(*_concat([y, term]))
        shift = (r << lay.shifts[v - 1]) | (q << lay.q_shift)
        parts.append((y[0] + shift, y[1]))
    keys, weights = _merge(*_concat(parts))
    return lay, keys, weights


def add_split_round(sums, shoe, v, poly, ds, most=4):
    """Add to `sums` ({length: numerator over falling(n, length)}) the split polynomial `poly`
    (split_polynomial's) of v paired with the dealer multisets `ds` ({multiset: sequences}):
    the same figure as blackjack_split_exact.add_split_round_by_support, as one numerator per
    band of the hands' lengths (_bands) over the longest length a pair of that band reaches.

    The shapes (which marginals, each element's group in them, the pricing tables' indices)
    are fixed once; then each prime in turn prices the weights, sums them down every marginal
    and pairs every dealer multiset, on arrays of that prime alone (a million-entry array per
    prime, not one per prime at once: in this VM a fresh page costs more than the arithmetic
    on it). Why these steps: a weight is priced at every value but v by a few joint tables
    (one gather per group of values, not one per value); a marginal is a bincount into its
    groups (sequential reads; its float64 sums exact while a bincount adds under 2**22
    residues), not a gather in sorted order; a dealer multiset's price is one gather of the
    values it holds (a joint table) and one of (cards of v, lumped cards, other cards)."""
    if poly is None or not ds:
        return
    lay, keys, weights = poly
    if not len(keys):
        return
    length = lay.lumped(keys) + sum(lay.field(keys, i) for i in range(10))
    for lo, hi in _bands(length):
        sel = (length >= lo) & (length <= hi)
        _pair_band(sums, shoe, v, lay, keys[sel], weights[sel], ds, most)


BAND_KEYS = 100_000                 # multisets a band of lengths holds at the least


def _bands(length):
    """[(shortest, longest)] hands' lengths in bands of about equal counts, one band per
    BAND_KEYS multisets (at most six). Why: a band is priced over the falling factorial of
    its own longest pair, so a band of short hands needs fewer primes than the longest
    (2-2 against a 7: lengths 5 to 48, half of the multisets at 23 or under; 17 primes for
    the longest, 9 for those)."""
    n = len(length)
    count = max(1, min(6, n // BAND_KEYS))
    ordered = np.sort(length)
    cuts = sorted({int(ordered[(n * k) // count - 1]) for k in range(1, count)})
    out, lo = [], int(ordered[0])
    for cut in cuts + [int(ordered[-1])]:
        if cut >= lo:
            out.append((lo, cut))
            lo = cut + 1
    return out


def _pair_band(sums, shoe, v, lay, keys, weights, ds, most):
    """add_split_round over one band of the polynomial's multisets (its keys and weights)."""
    c = [shoe[x] for x in VALUES]
    n_all = sum(c)
    iv = v - 1
    others = n_all - c[iv]
    x = [lay.field(keys, i) for i in range(10)]
    t, q = x[iv], lay.lumped(keys)
    mo = sum(x[i] for i in range(10) if i != iv)
    l_top = int((t + mo + q).max()) + 2 + max(sum(d) for d in ds)
    l_max = min(l_top, n_all)           # a pair longer than the shoe is priced zero anyway
    # the figure is falling(N, Lmax) times a sum of terms, each a coefficient times the chance
    # of an event (the tracked hands' sequences are stopped, so prefix-free: distinct tuples
    # of sequences are distinct deals) for each of the dealer's sequences: at most the terms'
    # |coefficients| (Layout.scale) times his sequences; a Layout without a scale (made by
    # hand) by the sum of its |weights| instead (no pair is priced above its weight times
    # the dealer's sequences times falling(N, Lmax))
    scale = lay.scale if lay.scale is not None else int(np.abs(weights).sum())
    bound = scale * sum(ds.values()) * bp.falling(n_all, l_max)
    primes = primes_over(bound)
    d_max = max(max(d) for d in ds)
    radix = [int(xi.max()) + 1 for xi in x]

    # the shapes, fixed before any residue: the weights' pricing groups; covers of the
    # dealer's values summed from the whole polynomial, then each dealer support from the
    # smallest marginal holding it
    joint = _joint_groups(radix, iv)
    joint_idx = [_joint_index(x, g, radix) for g in joint]
    by_sup = {}
    for d in ds:
        by_sup.setdefault(tuple(i for i, k in enumerate(d) if k and i != iv), []).append(d)
    whole = ({i: x[i] for i in range(10) if i != iv}, t, q, mo)
    plans = [_plan(whole, vals, -1) for vals, _ in exact._covers(ds, iv, most)]
    of_sup = {}
    for sup in sorted(by_sup, key=len, reverse=True):
        k = next((k for k, pl in enumerate(plans) if pl.values == set(sup)), None)
        if k is None:
            parent = min((k for k, pl in enumerate(plans) if pl.values >= set(sup)),
                         key=lambda k: plans[k].size)
            plans.append(_plan(plans[parent].groups, sup, parent))
            k = len(plans) - 1
        of_sup[sup] = k
    del x, whole
    pairing = {sup: _Pairing(plans[k].groups, sup, radix) for sup, k in of_sup.items()}
    fbuf = np.empty(len(keys), dtype=np.float64)

    # the prices as integers, once: the shoe's falling factorials at each value's counts, the
    # dealer's cards' at each count the hands may hold, and what a pair's price reads besides
    # the dealer's values: with a = 2 + t + dv cards of v, b = mo + dn other cards and q lumped
    # ones, falling(c_v, a) * falling(others - b, q) * falling(N - L, Lmax - L), L = a + b + q
    # (the carry to the longest length), one table over (a, b, q)
    ff_big = [[bp.falling(ci, k) for k in range(r)] for ci, r in zip(c, radix)]
    ratio_big = [[[bp.falling(ci - u, dk) if u <= ci else 0 for u in range(r)]
                  for dk in range(d_max + 1)] for ci, r in zip(c, radix)]
    a_n = int(t.max()) + 3 + max(d[iv] for d in ds)
    b_n = int(mo.max()) + 1 + max(sum(d) - d[iv] for d in ds)
    q_n = int(q.max()) + 1
    lumped = [[bp.falling(others - b, qq) if b <= others else 0 for qq in range(q_n)]
              for b in range(b_n)]
    carry = [bp.falling(n_all - ln, l_max - ln) if ln <= l_max else 0
             for ln in range(a_n + b_n + q_n)]
    rest_big = [bp.falling(c[iv], a) * lumped[b][qq] * carry[a + b + qq]
                for a in range(a_n) for b in range(b_n) for qq in range(q_n)]
    rest_at = {sup: ((pr.t + 2) * b_n + pr.mo) * q_n + pr.q      # each group's (a, b, q)
               for sup, pr in pairing.items()}                      # at dv = dn = 0
    offsets = {sup: np.array([(d[iv] * b_n + sum(d) - d[iv]) * q_n for d in dl],
                             dtype=np.int64)[:, None] for sup, dl in by_sup.items()}

    acc = []
    for p in primes:
        ff = [_residues(row, p) for row in ff_big]
        ratio = [[_residues(row, p) for row in rows] for rows in ratio_big]
        base = np.remainder(weights, p)
        for g, idx in zip(joint, joint_idx):
            base *= np.take(_joint_table(ff, g, p), idx)
            base %= p
        res = []
        for pl in plans:
            res.append(_sum_by(pl.ids, base if pl.parent < 0 else res[pl.parent], pl.size,
                               p, fbuf))
        del base
        total = 0
        rest = _residues(rest_big, p)
        for sup, k in of_sup.items():          # a support's dealer multisets at once
            pr, dl = pairing[sup], by_sup[sup]
            w = np.take(pr.held(dl, ratio, p), pr.held_idx, axis=1)
            w *= res[k]
            w %= p
            w *= np.take(rest, rest_at[sup] + offsets[sup])
            w %= p
            for d, x in zip(dl, w.sum(axis=1).tolist()):
                total = (total + x % p * (ds[d] % p)) % p
        acc.append(total)
    sums[l_max] = sums.get(l_max, 0) + crt(acc, primes)


def _residues(values, p):
    """Python integers modulo p, as an int64 array."""
    return (np.array(values, dtype=object) % p).astype(np.int64)


TABLE_MOST = 1 << 12                # entries of one joint table (it stays in the cache)
EXACT_SUM = 1 << 22                 # residues one float64 bincount may add exactly (< 2**53)


def _joint_groups(radix, skip):
    """The values but `skip` in groups whose joint tables (the product of their radices)
    stay under TABLE_MOST entries: one gather per group prices a weight at its values."""
    groups, cur, size = [], [], 1
    for i in sorted((i for i in range(len(radix)) if i != skip), key=lambda i: radix[i]):
        if cur and size * radix[i] > TABLE_MOST:
            groups.append(cur)
            cur, size = [], 1
        cur.append(i)
        size *= radix[i]
    if cur:
        groups.append(cur)
    return groups


def _joint_index(fields, group, radix):
    """Each element's place in the joint table of `group`'s values (mixed radix)."""
    idx = np.zeros(len(fields[group[0]]), dtype=np.int64)
    for i in group:
        idx = idx * radix[i] + fields[i]
    return idx


def _joint_table(tables, group, p):
    """The product of `tables[i]` over `group`'s values at every joint index, modulo p."""
    out = np.ones(1, dtype=np.int64)
    for i in group:
        out = (out[:, None] * tables[i][None, :]).ravel() % p
    return out


def _sum_by(ids, values, size, p, fbuf):
    """{group: sum of its values} modulo p, by float64 bincounts of at most EXACT_SUM
    residues each (each sum under 2**53, so exact)."""
    f = fbuf[:len(values)]
    np.copyto(f, values)
    out = None
    for s in range(0, len(values), EXACT_SUM):
        got = np.bincount(ids[s:s + EXACT_SUM], weights=f[s:s + EXACT_SUM],
                          minlength=size).astype(np.int64)
        out = got if out is None else out + got
        out %= p
    return out


class _Plan:
    """One marginal's shape: the values it keeps, the marginal it is summed from (-1 the
    whole polynomial), each source element's group and the groups' count, and the groups'
    fields."""

    def __init__(self, values, parent, ids, size, groups):
        self.values, self.parent, self.ids, self.size = values, parent, ids, size
        self.groups = groups


def _plan(source, values, parent):
    """The plan summing `source`'s groups (fields by value, t, q, mo) down to `values`
    (besides v's t, the lumped q and the hands' other cards mo)."""
    fields, t, q, mo = source
    key = np.zeros(len(t), dtype=np.int64)
    for a in [fields[i] for i in sorted(values)] + [t, q, mo]:
        key = key * (int(a.max()) + 1) + a
    order, starts = _runs(key)
    ids = np.empty(len(key), dtype=np.int64)
    run = np.zeros(len(key), dtype=np.int64)
    run[starts[1:]] = 1
    ids[order] = np.cumsum(run)
    pick = order[starts]
    groups = ({i: fields[i][pick] for i in values}, t[pick], q[pick], mo[pick])
    return _Plan(frozenset(values), parent, ids, len(starts), groups)


class _Pairing:
    """A support's marginal as the dealer's pricing reads it: each group's place in the joint
    table of the support's values, and its cards of v, lumped cards and other cards."""

    def __init__(self, groups, sup, radix):
        fields, self.t, self.q, self.mo = groups
        self.sup = sup
        self.held_idx = (_joint_index(fields, list(sup), radix) if sup
                         else np.zeros(len(self.t), dtype=np.int64))

    def held(self, dl, ratio, p):
        """The joint tables of falling(c_i - u, d_i) over the support's values, one row per
        dealer multiset of `dl`, modulo p."""
        out = np.ones((len(dl), 1), dtype=np.int64)
        for i in self.sup:
            rows = np.array([ratio[i][d[i]] for d in dl])
            out = (out[:, :, None] * rows[:, None, :]).reshape(len(dl), -1) % p
        return out
