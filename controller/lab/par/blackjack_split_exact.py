"""Bad Beat's split rounds with every inclusion-exclusion term (three and four hands included),
exact, in one polynomial: what controller/lab/par/blackjack_bad_beat.py's truncated sum leaves out.

Why a second way: the term-by-term sum (bad_beat.up_card_probabilities with most_tracked=None)
convolves the hands of every set J of hands, every pattern of resplits and every split of J
between hands whose second card was constrained and free separately, then pairs each result
with the dealer: 470-731 s of CPU on the default table. Here
  * a multiset of card values is one integer, 8 bits a value (its count of lumped "not v"
    cards and its length in two more bytes), so adding multisets is adding integers;
  * the terms that share a pattern tag (resplits r, lumped cards q) are one polynomial in the
    free hand A and the constrained hand C, sum of sign * patterns * C(nc, jc) * C(na, ja) *
    C^jc A^ja, built by Horner's rule in A: one 4-fold product per tag instead of one per term;
    the tag rides in the key (r more cards of v, q lumped cards), so all tags end in one dict;
  * the dealer is paired through marginals: each dealer multiset reads the hands' counts only
    at the values it holds, so the hands' polynomial (priced at every value) is summed down to
    a few covering sets of values, and each dealer multiset is priced against its set's sums.
  * add_split_round_by_support (what blackjack_bad_beat uses) pairs each dealer multiset with
    the marginal on its own values only, taken from the smallest marginal already made, and
    groups that marginal by (cards of v, lumped cards, other cards) so a pair is one short
    product; add_split_round (covers of up to five values) is kept to compare with.
Exactly the same figure, fraction for fraction (tests/par/test_par_blackjack_exact.py against
the brute-force deal-out, the term-by-term sum, and one pairing against the other;
bench/par.py --bad-beat-exact times the two pairings). Still about a minute of CPU at four
hands on the default table, over the 30 s of `tablectl par --all`: see docs/par-sheets.md.
"""

from math import comb

from controller.lab.par import blackjack_play as bp
from controller.lab.par import blackjack_strategy as s

VALUES, ACE = s.VALUES, s.ACE
Q_BIT, LEN_BIT = 80, 88          # bytes 10 and 11 of a packed multiset: lumped cards, length
BYTE = 255


def phase_patterns(hands_max, resplit):
    """{(resplits, constrained second cards, free second cards): patterns} of a split
    round's second cards: while the seat has fewer than `hands_max` hands a second card of
    the pair's value resplits (so a second card kept is 'constrained': not that value);
    once it cannot resplit a second card is free."""
    out = {}

    def walk(hands, need, r, nc, na):
        if not need:
            out[(r, nc, na)] = out.get((r, nc, na), 0) + 1
            return
        if resplit and hands < hands_max:
            walk(hands + 1, need + 1, r + 1, nc, na)
            walk(hands, need - 1, r, nc + 1, na)
        else:
            walk(hands, need - 1, r, nc, na + 1)
    walk(2, 2, 0, 0, 0)
    return out


def hand_twenties(play, v, cap):
    """({multiset: sequences} of the constrained hand C, of the free hand A): the cards after
    its first by which one split hand of v ends on 20, its second card any value (A) or any
    but v (C: a hand whose second card ended the resplitting)."""
    hand_c, hand_a = {}, {}
    for w in VALUES:
        for m, n in play.split_hand_twenties(v, w, cap).items():
            hand_a[m] = hand_a.get(m, 0) + n
            if w != v:
                hand_c[m] = hand_c.get(m, 0) + n
    return hand_c, hand_a


def _packed(hand):
    out = {}
    for m, n in hand.items():
        k = pack(m)
        out[k] = out.get(k, 0) + n
    return out


def tag_coefficients(split_hands, resplit):
    """{(resplits r, lumped cards q): {ja: {jc: coefficient}}}: a split round's inclusion-
    exclusion terms grouped by what the key of a term carries besides its tracked hands (r
    more cards of v, q cards "not v" for the constrained hands left out), each a polynomial
    sum of sign * patterns * C(nc, jc) * C(na, ja) * C^jc A^ja in the constrained hand C and
    the free hand A. Shared by this module and blackjack_split_vector."""
    tags = {}
    for (r, nc, na), patterns in phase_patterns(split_hands, resplit).items():
        for jc in range(nc + 1):
            for ja in range(na + 1):
                if jc or ja:
                    sign = 1 if (jc + ja) % 2 else -1
                    by_jc = tags.setdefault((r, nc - jc), {}).setdefault(ja, {})
                    by_jc[jc] = by_jc.get(jc, 0) + sign * patterns * comb(nc, jc) * comb(na, ja)
    return tags


def pack(m):
    """A multiset of values (10 counts, the ace's first) as one integer, its length on top."""
    key = 0
    for i, k in enumerate(m):
        key |= k << (8 * i)
    return key | sum(m) << LEN_BIT


def _mul(a, b):
    """Packed polynomials multiplied: multisets added (no byte passes 255), counts multiplied.
    Multisets past the shoe are kept: their price is zero."""
    out = {}
    get = out.get
    bl = list(b.items())
    for x, nx in a.items():
        for y, ny in bl:
            k = x + y
            out[k] = get(k, 0) + nx * ny
    return out


def split_polynomial(play, v, split_hands, cap):
    """{packed multiset: signed weight}: every inclusion-exclusion term of a split pair of v
    at once. A key holds the tracked hands' cards after their first (r resplit cards of v
    added to v's count) and the q lumped cards; the weight is the sign times the patterns
    times the sequences."""
    hand_c, hand_a = (_packed(h) for h in hand_twenties(play, v, cap))
    if not hand_a:
        return {}
    tags = {}                            # key shift -> ja -> jc -> coefficient
    for (r, q), by_ja in tag_coefficients(split_hands, v != ACE).items():
        tags[(r << 8 * (v - 1)) + (r << LEN_BIT) + (q << Q_BIT)] = by_ja
    c_powers = [{0: 1}]
    total = {}
    for shift, by_ja in tags.items():
        y = {}
        for ja in range(max(by_ja), -1, -1):           # Horner's rule in A
            if y:
                y = _mul(y, hand_a)
            for jc, coef in by_ja.get(ja, {}).items():
                while len(c_powers) <= jc:
                    c_powers.append(_mul(c_powers[-1], hand_c))
                for key, n in c_powers[jc].items():
                    y[key] = y.get(key, 0) + coef * n
        for key, x in y.items():
            total[key + shift] = total.get(key + shift, 0) + x
    return {k: x for k, x in total.items() if x}


def _covers(ds, iv, most=5):
    """The dealer multisets grouped under sets of at most `most` values (v aside) that hold
    each one's values: one marginal of the hands' polynomial per set."""
    sets = []
    for d in sorted(ds, key=lambda d: -sum(1 for i, k in enumerate(d) if k and i != iv)):
        sup = frozenset(i for i, k in enumerate(d) if k and i != iv)
        fits = [j for j, (cs, _) in enumerate(sets) if len(cs | sup) <= most]
        if fits:
            j = min(fits, key=lambda j: len(sets[j][0] | sup))
            sets[j] = (sets[j][0] | sup, sets[j][1] + [d])
        else:
            sets.append((sup, [d]))
    return sets


def _priced(shoe, v, y):
    """(counts by value, index of v, cards not v, {key: y's weight times the falling
    factorials of the shoe at the key's values other than v}): the part of a split round's
    pricing that does not depend on the dealer, shared by both pairings."""
    c = [shoe[x] for x in VALUES]
    iv = v - 1
    others = sum(c) - c[iv]
    lo_mask = (1 << 40) - 1
    memo = {}

    def base(part, first):
        b = memo.get((part, first))
        if b is None:
            b = 1
            for i in range(first, first + 5):
                k = (part >> 8 * i) & BYTE
                if k and i != iv:
                    b *= bp.falling(c[i], k)
            memo[(part, first)] = b
        return b
    priced = {}
    for k, x in y.items():
        b = base(k & lo_mask, 0) * base(k & (lo_mask << 40), 5)
        if b:
            priced[k] = x * b
    return c, iv, others, priced


def add_split_round(sums, shoe, v, y, ds):
    """Add to `sums` ({length: numerator over falling(n, length)}) the split polynomial `y`
    of v paired with the dealer multisets `ds` ({multiset: sequences}): the 2 + r cards of v
    and the lumped cards ("not v") priced as in blackjack_bad_beat._Pricer.add_split_terms."""
    c, iv, others, priced = _priced(shoe, v, y)
    dmax = max(max(d) for d in ds)
    ratio = [[[bp.falling(c[i] - u, d) if u <= c[i] else 0 for d in range(dmax + 1)]
              for u in range(256)] for i in range(10)]
    keep = (BYTE << 8 * iv) | (BYTE << Q_BIT) | (BYTE << LEN_BIT)
    for values, members in _covers(ds, iv):
        mask = keep
        for i in values:
            mask |= BYTE << 8 * i
        marg = {}
        get = marg.get
        for k, x in priced.items():
            kk = k & mask
            marg[kk] = get(kk, 0) + x
        dl = [([(i, k) for i, k in enumerate(d) if k and i != iv], ds[d], d[iv],
               sum(d) - d[iv]) for d in members]
        for k, x in marg.items():
            t, q = (k >> 8 * iv) & BYTE, (k >> Q_BIT) & BYTE
            mo_hands = ((k >> LEN_BIT) & BYTE) - t
            for items, nd, dv, dn in dl:
                w = x * nd
                for i, dk in items:
                    w *= ratio[i][(k >> 8 * i) & BYTE][dk]
                    if not w:
                        break
                if not w:
                    continue
                mv, mo = t + dv + 2, mo_hands + dn
                w *= bp.falling(c[iv], mv) * bp.falling(others - mo, q)
                if w:
                    sums[mv + mo + q] = sums.get(mv + mo + q, 0) + w


def _fields_and_values(m, iv, idx):
    """A marginal {packed key: priced weight} regrouped by what the dealer's pricing needs
    besides the values of his support `idx`: (cards of v, lumped cards, hands' other cards)
    -> [(counts at idx, weight)]. Regrouping once per support, not once per dealer multiset,
    is what makes the pairing below a short inner product."""
    groups = {}
    keep = (BYTE << 8 * iv) | (BYTE << Q_BIT) | (BYTE << LEN_BIT)
    shifts = [8 * i for i in idx]
    for k, x in m.items():
        f = k & keep
        if len(shifts) == 1:
            ts = ((k >> shifts[0]) & BYTE,)
        elif len(shifts) == 2:
            ts = ((k >> shifts[0]) & BYTE, (k >> shifts[1]) & BYTE)
        else:
            ts = tuple((k >> sh) & BYTE for sh in shifts)
        got = groups.get(f)
        if got is None:
            groups[f] = [(ts, x)]
        else:
            got.append((ts, x))
    out = {}
    for f, lst in groups.items():
        t = (f >> 8 * iv) & BYTE
        out[(t, (f >> Q_BIT) & BYTE, ((f >> LEN_BIT) & BYTE) - t)] = lst
    return out


def add_split_round_by_support(sums, shoe, v, y, ds, most=4):
    """add_split_round, the same sum in another order (the figure is equal, term for term;
    tests/par/test_par_blackjack_exact.py): the hands' polynomial is summed down to each
    dealer multiset's own support (the values it holds besides v), not to a cover of up to
    five values shared by several, and the dealer multisets of one support are paired with
    its marginal grouped by (cards of v, lumped cards, other cards), so a pair costs one
    product per value the dealer holds. Why: on the default table the shared covers made
    37 million (hands, dealer) pairs for 2-2 against a 7, the exact supports 5.5 million;
    each support's marginal is taken from the smallest marginal already made that holds its
    values (a cover of at most `most` values, taken once from the full polynomial, or a
    larger support's), so the full polynomial is walked once per cover only."""
    c, iv, others, priced = _priced(shoe, v, y)
    if not priced:
        return
    dmax = max(max(d) for d in ds)
    ratio = [[[bp.falling(c[i] - u, d) if u <= c[i] else 0 for u in range(256)]
              for d in range(dmax + 1)] for i in range(10)]
    ff_v = [bp.falling(c[iv], k) for k in range(c[iv] + dmax + 64)]
    ff_o = {}

    def falling_o(a, q):
        key = (a, q)
        if key not in ff_o:
            ff_o[key] = bp.falling(a, q) if a >= 0 else 0
        return ff_o[key]
    keep = (BYTE << 8 * iv) | (BYTE << Q_BIT) | (BYTE << LEN_BIT)

    def mask_of(values):
        mask = keep
        for i in values:
            mask |= BYTE << 8 * i
        return mask

    def marginal(src, mask):
        out = {}
        get = out.get
        for k, x in src.items():
            kk = k & mask
            out[kk] = get(kk, 0) + x
        return out
    by_sup = {}
    for d in ds:
        sup = tuple(sorted(i for i, k in enumerate(d) if k and i != iv))
        by_sup.setdefault(sup, []).append(d)
    made = []                                   # (values, marginal)
    for values, _ in _covers(ds, iv, most):
        made.append((frozenset(values), marginal(priced, mask_of(values))))
    del priced
    for sup in sorted(by_sup, key=len, reverse=True):
        exact = [m for vs, m in made if vs == set(sup)]
        if exact:
            src = exact[0]
        else:                           # from the smallest marginal that holds its values
            src = marginal(min((m for vs, m in made if vs >= set(sup)), key=len),
                           mask_of(sup))
            made.append((frozenset(sup), src))
        _pair_support(sums, src, iv, sup, by_sup[sup], ds, ratio, ff_v, falling_o, c[iv], others)


def _pair_support(sums, m, iv, sup, dl, ds, ratio, ff_v, falling_o, cv, others):
    """The dealer multisets `dl` of one support `sup` paired with the hands' marginal `m` on
    it: sums[length] += sequences * the price of the pair's cards."""
    groups = _fields_and_values(m, iv, sup)
    for d in dl:
        nd, dv = ds[d], d[iv]
        dn = sum(d) - dv
        rows = [ratio[i][d[i]] for i in sup]
        for (t, q, mo), lst in groups.items():
            mv = t + dv + 2
            fac = ff_v[mv] if mv <= cv else 0
            if fac:
                fac *= falling_o(others - mo - dn, q)
            if not fac:
                continue
            if len(rows) == 1:
                r0, = rows
                acc = sum(x * r0[a] for (a,), x in lst)
            elif len(rows) == 2:
                r0, r1 = rows
                acc = sum(x * r0[a] * r1[b] for (a, b), x in lst)
            elif len(rows) == 3:
                r0, r1, r2 = rows
                acc = sum(x * r0[a] * r1[b] * r2[e] for (a, b, e), x in lst)
            elif not rows:
                acc = sum(x for _, x in lst)
            else:
                acc = 0
                for ts, x in lst:
                    for r, u in zip(rows, ts):
                        x *= r[u]
                    acc += x
            if acc:
                length = mv + mo + dn + q
                sums[length] = sums.get(length, 0) + nd * fac * acc
