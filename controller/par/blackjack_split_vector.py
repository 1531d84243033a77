"""Bad Beat's split rounds with every inclusion-exclusion term, on numpy arrays: the same
integers as controller/par/blackjack_split_exact.py (split_polynomial and its pairing with the
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
numpy is the `par` extra (setup.cfg): without it blackjack_bad_beat uses blackjack_split_exact,
which gives the same Fractions more slowly. tests/par/test_par_blackjack_exact.py compares the
two numerator for numerator.
"""

from math import prod

from controller.par import blackjack_play as bp
from controller.par import blackjack_split_exact as exact

try:
    import numpy as np
except ImportError:                 # the `par` extra; blackjack_split_exact does without it
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
    """(the order that sorts `keys`, where each run of equal sorted keys starts)."""
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
    the same figure as blackjack_split_exact.add_split_round_by_support, as one numerator over
    the longest length a pair can reach. The arrays a prime's pass touches are allocated once
    and reused (a fresh array of millions of entries costs more in page faults than the
    arithmetic done on it)."""
    if poly is None or not ds:
        return
    lay, keys, weights = poly
    if not len(keys):
        return
    c = [shoe[x] for x in VALUES]
    n_all = sum(c)
    iv = v - 1
    others = n_all - c[iv]
    x = [lay.field(keys, i) for i in range(10)]
    t, q = x[iv], lay.lumped(keys)
    mo = sum(x[i] for i in range(10) if i != iv)
    l_top = int((t + mo + q).max()) + 2 + max(sum(d) for d in ds)
    l_max = min(l_top, n_all)           # a pair longer than the shoe is priced zero anyway
    bound = int(np.abs(weights).sum()) * sum(ds.values()) * bp.falling(n_all, l_max)
    primes = primes_over(bound)
    col = np.array(primes, dtype=np.int64)[:, None]

    def table(rows):
        """rows: [[int]] -> (primes, len(rows), width) residues."""
        width = max(len(r) for r in rows)
        out = np.zeros((len(primes), len(rows), width), dtype=np.int64)
        for j, p in enumerate(primes):
            out[j] = [[e % p for e in r] + [0] * (width - len(r)) for r in rows]
        return out

    d_max = max(max(d) for d in ds)
    u_max = max(int(xi.max()) for xi in x) + 1
    ff = table([[bp.falling(ci, k) for k in range(u_max + 1)] for ci in c])   # (c_i)_k
    ratio = [table([[bp.falling(ci - u, dk) if u <= ci else 0 for u in range(u_max + 1)]
                    for dk in range(d_max + 1)]) for ci in c]                 # (c_i - u)_d
    ff_v = table([[bp.falling(c[iv], k) for k in range(int(t.max()) + 3 + d_max)]])[:, 0]
    mo_off = int(mo.max()) + max(sum(d) - d[iv] for d in ds)
    width = others + mo_off + 1             # falling(others - mo - dn, q) at q * width + a,
    lumped = table([[bp.falling(a - mo_off, qq) if a >= mo_off else 0   # a = that + mo_off
                     for qq in range(int(q.max()) + 1) for a in range(width)]])[:, 0]
    tail = table([[bp.falling(n_all - length, l_max - length) if length <= l_max else 0
                   for length in range(l_top + 1)]])[:, 0]      # falling(N - L, Lmax - L)

    # the marginals' shapes, fixed before any residue: covers of the dealer's values summed
    # from the whole polynomial, then each dealer support from the smallest marginal holding it
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
                         key=lambda k: len(plans[k].starts))
            plans.append(_plan(plans[parent].groups, sup, parent))
            k = len(plans) - 1
        of_sup[sup] = k

    # per prime: the weights priced at every value but v, summed down each plan
    residues = [np.empty((len(primes), len(pl.starts)), dtype=np.int64) for pl in plans]
    base, tmp = np.empty_like(weights), np.empty_like(weights)
    for j, p in enumerate(primes):
        np.remainder(weights, p, out=base)
        for i in range(10):
            if i != iv:
                np.take(ff[j, i], x[i], out=tmp)
                base *= tmp
                base %= p
        for k, pl in enumerate(plans):
            src = base if pl.parent < 0 else residues[pl.parent][j]
            got = np.add.reduceat(src[pl.order], pl.starts)
            got %= p
            residues[k][j] = got
    del base, tmp, x, whole

    acc = np.zeros(len(primes), dtype=np.int64)
    for sup, k in of_sup.items():
        fields, mt, mq, mmo = plans[k].groups
        vals = residues[k]
        w, buf = np.empty_like(vals), np.empty_like(vals)
        lumped_at = mq * width + others + mo_off - mmo
        for d in by_sup[sup]:
            nd, dv, dn = ds[d], d[iv], sum(d) - d[iv]
            np.copyto(w, vals)
            factors = [(ratio[i][:, d[i], :], fields[i]) for i in sup]
            factors += [(ff_v, mt + 2 + dv), (lumped, lumped_at - dn),
                        (tail, mt + 2 + dv + mmo + dn + mq)]
            for tab, idx in factors:
                np.take(tab, idx, axis=1, out=buf)
                w *= buf
                w %= col
            acc = (acc + (w.sum(axis=1) % col[:, 0]) * (nd % col[:, 0])) % col[:, 0]
    sums[l_max] = sums.get(l_max, 0) + crt(acc.tolist(), primes)


class _Plan:
    """One marginal's shape: the values it keeps, the marginal it is summed from (-1 the
    whole polynomial), the order and run starts that sum it, and its groups' fields."""

    def __init__(self, values, parent, order, starts, groups):
        self.values, self.parent, self.order, self.starts = values, parent, order, starts
        self.groups = groups


def _plan(source, values, parent):
    """The plan summing `source`'s groups (fields by value, t, q, mo) down to `values`
    (besides v's t, the lumped q and the hands' other cards mo)."""
    fields, t, q, mo = source
    key = np.zeros(len(t), dtype=np.int64)
    for a in [fields[i] for i in sorted(values)] + [t, q, mo]:
        key = key * (int(a.max()) + 1) + a
    order, starts = _runs(key)
    pick = order[starts]
    groups = ({i: fields[i][pick] for i in values}, t[pick], q[pick], mo[pick])
    return _Plan(frozenset(values), parent, order, starts, groups)
