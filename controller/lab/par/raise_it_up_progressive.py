"""Raise It Up's Progressive Payout Wager (669a.12(e)(1)) under the player's optimal
strategy for the base game, exact, on his three cards (the firmware's reading of
669a.11(i)(3)(i)) and on the best three-card hand of the six cards with the community
cards (the alternative 669a.12(e)(2) suggests): docs/interpretations.md's
`riu-progressive-three-cards`.

Why the strategy matters: a player who makes no Play Wager forfeits the Progressive
Payout (669a.11(g)), and the optimal player of raise_it_up_optimal folds at the second
community card when the Play Wager is worth less than the Ante and Blind. The player is
taken to play the base game as that solver does (the Progressive does not change his
decisions: the wager is a fixed chip while the Ante is any amount), so the figures are
the hold a lab would check against the par sheet's strategy.

Both readings are exact over every deal (22,100 x 49 x 48 x 47 ordered deals):

* On the player's three cards, the hand is fixed by the start, and the deals it loses
  are the solver's own folds from that start, counted through its state machine.
* On six cards, the fold depends on the five cards seen and the payout on the sixth too,
  and suits matter (a straight flush in any suit, the ace, king and queen of spades), so
  the solver's suit-blind states are not enough. Instead every five-card set S is
  visited (numpy, 2,598,960 of them): w(S), the number of the 20 ways (three cards of
  the player's, then the 4th and 5th street cards) it is reached by a player who
  checked twice and now folds, from the solver's decisions at each street; and A(S),
  the sum of the payouts over the 47 sixth cards. The return is
  sum (20 - w(S)) A(S) over all deals. With check=True the same arrays give the
  three-card reading a second time, a check of one method by the other (the reduced-deck
  tests run it; tests/par/test_readings.py).

The meter share (the ace, king and queen of spades, "100% of meter") is priced with the
meter at its reset amount on a $1 wager: the Rules Submission's reset is at least
$1,000 (669a.12(e)(3)); the table's own reset can only raise the return.
"""

from fractions import Fraction
from math import comb

from controller.lab.par import raise_it_up_optimal as RO
from controller.rules import cards as C
from controller.rules import paytables as pt

GAME = pt.RIU
WAGER = 100                                     # cents: the $1 wager of 669a.12(e)(5)
RESET = pt.PROGRESSIVE_MINIMUMS[GAME]["reset"]  # cents: 669a.12(e)(3)'s minimum

AKQ = (1 << 10) | (1 << 11) | (1 << 12)
A23 = (1 << 12) | (1 << 0) | (1 << 1)
SPADES = 0                                      # controller.rules.cards: suit 0


def payouts(meter=RESET, wager=WAGER):
    """{paytable hand: amount returned per unit wagered, an integer} with the meter at
    `meter` cents on a wager of `wager` cents."""
    out = {}
    for hand, pay in pt.get(GAME, "progressive").rows:
        if pay.kind == pt.FOR:
            out[hand] = pay.num
        elif pay.kind == pt.METER:
            share = Fraction(pay.num, 100) * Fraction(meter, wager)
            if share.denominator != 1:
                raise ValueError("meter share %s is not a whole number of wagers" % share)
            out[hand] = int(share)
        else:
            raise ValueError("progressive paytable: unexpected %r" % (pay,))
    return out


# ---- reading taken: the player's three cards, through the solver's states ------------

def _folds(solver, level, key, memo):
    """Ordered completions to six cards from this state in which the player folds."""
    m = memo[level]
    out = m.get(key)
    if out is None:
        decision = solver.best(level, key)[1]
        if decision == RO.FOLD:
            out = solver.completions(5)
        elif decision != "check":
            out = 0
        else:
            out = sum(k * _folds(solver, level + 1, nxt, memo)
                      for nxt, k in solver.transitions(level, key))
        m[key] = out
    return out


def three_card_return(solver, pays=None):
    """(total returned over all ordered deals, deals, folded deals) on the player's three
    cards, forfeited on a fold (three_card_counts, each hand's deals times its pay)."""
    pays = pays or payouts()
    counts, deals, folded = three_card_counts(solver)
    total = sum((n * pays[hand] for hand, n in counts.items()), 0)
    return total, deals, folded


def three_card_counts(solver):
    """({paytable hand: deals that hold it and are not folded}, deals, folded deals) on the
    player's three cards, forfeited on a fold. The spade royal splits off a quarter of the
    suited A-K-Q starts (the solver's representative puts its suited cards in spades): a
    Fraction of them, whole over all the starts."""
    from controller.rules import raise_it_up as R
    memo = [dict() for _ in range(7)]
    counts = {}
    deals = folded = 0
    per = solver.completions(3)
    for key, weight in solver.starts().items():
        three = solver.representative(key)[:3]
        f = _folds(solver, 3, key, memo)
        deals += weight * per
        folded += weight * f
        hand = R.progressive_hand(three, True)
        if hand is None:
            continue
        n = weight * (per - f)
        if hand == "ace_king_queen_of_spades":
            counts[hand] = counts.get(hand, 0) + Fraction(n, solver.suits)
            rest = Fraction(n * (solver.suits - 1), solver.suits)
            counts["ace_king_queen_suited"] = counts.get("ace_king_queen_suited", 0) + rest
        else:
            counts[hand] = counts.get(hand, 0) + n
    return counts, deals, folded


# ---- both readings over every five-card set (numpy) ----------------------------------

def _k_sets(n, k, np):
    """All k-subsets of range(n), rows ascending, as an int8 array."""
    sets = np.arange(n, dtype=np.int8)[:, None]
    for _ in range(k - 1):
        last = sets[:, -1]
        more = (n - 1 - last).astype(np.int64)
        rows = np.repeat(np.arange(len(sets)), more)
        starts = np.repeat(np.cumsum(more) - more, more)
        nxt = np.repeat(last + 1, more) + (np.arange(len(rows)) - starts)
        sets = np.concatenate([sets[rows], nxt[:, None]], axis=1)
    return sets


def _colex(sets, np):
    """Colex rank of each ascending row: sum of C(c_j, j + 1)."""
    n = int(sets.max()) + 1 if len(sets) else 1
    k = sets.shape[1]
    table = np.array([[comb(i, j) for j in range(k + 1)] for i in range(max(n, 1))],
                     dtype=np.int64)
    out = np.zeros(len(sets), dtype=np.int64)
    for j in range(k):
        out += table[sets[:, j], j + 1]
    return out


def _masks(sets, rank_of, suit_of, np):
    """Per suit, the 13-bit mask of the ranks each set holds in it."""
    out = np.zeros((4, len(sets)), dtype=np.int16)
    for j in range(sets.shape[1]):
        c = sets[:, j]
        out[suit_of[c], np.arange(len(sets))] |= (1 << rank_of[c])
    return out


def _decisions(solver, level, masks, np):
    """The solver's decision at `level` cards for each set (by its masks)."""
    code = np.zeros(masks.shape[1], dtype=np.int64)
    for r in range(13):
        cnt = np.zeros(masks.shape[1], dtype=np.int64)
        for s in range(4):
            cnt += (masks[s] >> r) & 1
        code += cnt * 5 ** r
    live = np.zeros(masks.shape[1], dtype=np.int64)
    for s in range(4):
        size = np.zeros(masks.shape[1], dtype=np.int8)
        for r in range(13):
            size += ((masks[s] >> r) & 1).astype(np.int8)
        live = np.where(size + 6 - level >= 5, masks[s], live)
    uniq, inverse = np.unique(code * 8192 + live, return_inverse=True)
    names = []
    for u in uniq.tolist():
        c, lv = divmod(u, 8192)
        counts = []
        for r in range(13):
            c, m = divmod(c, 5)
            counts.append(m)
        key = (tuple(counts), tuple(r for r in range(13) if lv >> r & 1))
        names.append(solver.best(level, key)[1])
    return np.array(names, dtype=object)[inverse]


def _runs(x):
    """Whether a rank mask holds three consecutive ranks (A-2-3 and A-K-Q included, as
    the firmware reads 669a.6(c): readings' three-card-straights)."""
    return ((x & (x >> 1) & (x >> 2)) != 0) | ((x & A23) == A23)


def six_card_returns(solver, pays=None, check=False):
    """{'six': total returned over all ordered deals on the best three-card hand of the
    six cards, 'deals', 'folded'}, forfeited without a Play Wager; with `check`, also
    'three': the same on the player's three cards, the check of three_card_return's
    route by this one (about twice the time)."""
    import numpy as np
    pays = pays or payouts()
    deck = solver.deck()
    n = len(deck)
    rank_of = np.array([C.rank(c) for c in deck], dtype=np.int64)
    suit_of = np.array([C.suit(c) for c in deck], dtype=np.int64)

    threes = _k_sets(n, 3, np)
    check3 = np.zeros(comb(n, 3), dtype=np.int64)
    check3[_colex(threes, np)] = _decisions(solver, 3, _masks(threes, rank_of, suit_of, np),
                                            np) == "check"
    fours = _k_sets(n, 4, np)
    f_rank = _colex(fours, np)
    ways = np.zeros(len(fours), dtype=np.int64)
    for j in range(4):
        ways += check3[_colex(np.delete(fours, j, axis=1), np)]
    g = np.zeros(comb(n, 4), dtype=np.int64)
    g[f_rank] = ways * (_decisions(solver, 4, _masks(fours, rank_of, suit_of, np), np)
                        == "check")
    del fours, f_rank, ways

    fives = _k_sets(n, 5, np)
    m = _masks(fives, rank_of, suit_of, np)
    fold5 = _decisions(solver, 5, m, np) == RO.FOLD
    w = np.zeros(len(fives), dtype=np.int64)
    for j in range(5):
        w += g[_colex(np.delete(fives, j, axis=1), np)]
    w *= fold5

    # A(S): the payouts over the sixth cards, on the best three-card hand of six
    present = m[0] | m[1] | m[2] | m[3]
    cnt = np.zeros((13, len(fives)), dtype=np.int8)
    for r in range(13):
        for s in range(4):
            cnt[r] += ((m[s] >> r) & 1).astype(np.int8)
    trips = np.zeros(len(fives), dtype=bool)
    for r in range(13):
        trips |= cnt[r] >= 3
    akq = [(m[s] & AKQ) == AKQ for s in range(4)]
    sf = [_runs(m[s]) for s in range(4)]
    A = np.zeros(len(fives), dtype=np.int64)
    bit = [np.int16(1 << r) for r in range(13)]
    for r, s in zip(rank_of.tolist(), suit_of.tolist()):
        free = (m[s] & bit[r]) == 0
        ms = m[s] | bit[r]
        spade = (akq[SPADES] if s != SPADES else (ms & AKQ) == AKQ)
        any_akq = ((ms & AKQ) == AKQ)
        any_sf = _runs(ms)
        for t in range(4):
            if t != s:
                any_akq = any_akq | akq[t]
                any_sf = any_sf | sf[t]
        pay = np.where(spade, pays["ace_king_queen_of_spades"],
              np.where(any_akq, pays["ace_king_queen_suited"],
              np.where(any_sf, pays["straight_flush"],
              np.where(trips | (cnt[r] >= 2), pays["three_of_a_kind"],
              np.where(_runs(present | bit[r]), pays["straight"], 0)))))
        A += np.where(free, pay, 0)
    six_total = int(((20 - w) * A).sum())
    deals = comb(n, 3) * (n - 3) * (n - 4) * (n - 5)
    out = {"six": six_total, "deals": deals, "folded": int(w.sum()) * (n - 5)}
    if check:
        out["three"] = _three_from_arrays(solver, pays, n, threes, check3, fives, fold5,
                                          rank_of, suit_of, np)
    return out


def _three_from_arrays(solver, pays, n, threes, check3, fives, fold5, rank_of, suit_of, np):
    """The three-card reading's total from the five-card sets: per (three cards, 4th,
    5th street) path not folded, the three cards' payout, times the n - 5 sixth cards."""
    pay3 = np.zeros(comb(n, 3), dtype=np.int64)
    tm = _masks(threes, rank_of, suit_of, np)
    tcnt = np.zeros((13, len(threes)), dtype=np.int64)
    for r in range(13):
        for s in range(4):
            tcnt[r] += (tm[s] >> r) & 1
    tpresent = tm[0] | tm[1] | tm[2] | tm[3]
    tp = np.where((tm[SPADES] & AKQ) == AKQ, pays["ace_king_queen_of_spades"],
         np.where(((tm[1] & AKQ) == AKQ) | ((tm[2] & AKQ) == AKQ) | ((tm[3] & AKQ) == AKQ),
                  pays["ace_king_queen_suited"],
         np.where(_runs(tm[0]) | _runs(tm[1]) | _runs(tm[2]) | _runs(tm[3]),
                  pays["straight_flush"],
         np.where(tcnt.max(axis=0) == 3, pays["three_of_a_kind"],
         np.where(_runs(tpresent), pays["straight"], 0)))))
    pay3[_colex(threes, np)] = tp
    three_total = 0
    fours = _k_sets(n, 4, np)
    dec4 = _decisions(solver, 4, _masks(fours, rank_of, suit_of, np), np) == "check"
    check4 = np.zeros(comb(n, 4), dtype=bool)
    check4[_colex(fours, np)] = dec4
    del fours
    for drop5 in range(5):
        four = np.delete(fives, drop5, axis=1)
        r4 = _colex(four, np)
        for drop4 in range(4):
            three = np.delete(four, drop4, axis=1)
            r3 = _colex(three, np)
            folded = (check3[r3] == 1) & check4[r4] & fold5
            three_total += int(np.where(folded, 0, pay3[r3]).sum())
    return three_total * (n - 5)


def holds(solver=None, meter=RESET, wager=WAGER):
    """(hold on the player's three cards, hold on the six cards), exact Fractions per
    unit of the wager, with the meter at `meter` cents."""
    if solver is None:
        solver = RO.Solver()
    pays = payouts(meter, wager)
    total, deals, _ = three_card_return(solver, pays)
    six = six_card_returns(solver, pays)
    return 1 - Fraction(total) / deals, 1 - Fraction(six["six"], six["deals"])


# ---- on a linked meter (controller/lab/par/linked.py, `tablectl par raise-it-up-stud
# --link-tables N`) -----------------------------------------------------------------------

class LinkedSheet:
    """The Progressive Payout Wager priced for a linked meter, on the firmware's reading
    (the player's three cards, forfeited without a Play Wager, under the optimal base-game
    strategy): the fixed part of the return (the "N for 1" rows over the deals not folded)
    and the meter share, the chance per wager of the ace, king and queen of spades paid
    100% of the meter (never folded: the solver plays it). controller/lab/par/linked.py needs
    only house_edge(), meter_share() and whole_hit_chance() of it."""

    game, wager, section = GAME, "progressive", "669a.12(e)"
    note = ("under the optimal base-game strategy, on the player's three cards "
            "(669a.11(i)(3)(i)); a fold forfeits it (669a.11(g))")
    linked_priced = True

    def __init__(self, solver=None):
        solver = solver or RO.Solver()
        meter_rows = [h for h, p in pt.get(GAME, "progressive").rows if p.kind == pt.METER]
        if meter_rows != ["ace_king_queen_of_spades"] or \
                pt.get(GAME, "progressive").pay("ace_king_queen_of_spades").num != 100:
            raise ValueError("Raise It Up's meter rows are not the one 100% row priced here")
        self.rows = pt.get(GAME, "progressive").rows
        self.counts, self.deals, self.folded = three_card_counts(solver)
        self.fixed_return = sum((Fraction(self.counts.get(h, 0)) * p.num
                                 for h, p in self.rows if p.kind == pt.FOR),
                                Fraction(0)) / self.deals
        self.share = Fraction(self.counts.get("ace_king_queen_of_spades", 0)) / self.deals

    def house_edge(self):
        return 1 - self.fixed_return

    def spread_rows(self):
        """[(hand, deals, how it pays, net per unit)] over every deal, the meter's row
        counted as the loss the hold counts it as (its share is priced beside): what the
        lab report takes the standard deviation and hit frequency from."""
        out = []
        paid = Fraction(0)
        for hand, pay in self.rows:
            n = Fraction(self.counts.get(hand, 0))
            paid += n
            net = Fraction(pay.num - 1) if pay.kind == pt.FOR else Fraction(-1)
            out.append((hand, n, pay.text(), net))
        out.append(("folded (forfeited, 669a.11(g))", Fraction(self.folded), "loses",
                    Fraction(-1)))
        out.append(("no paying hand", self.deals - self.folded - paid, "loses", Fraction(-1)))
        # whole numbers of deals (the spade royal's quarter of the suited starts is whole)
        return [(h, int(n) if Fraction(n).denominator == 1 else n, pays, net)
                for h, n, pays, net in out]

    def meter_share(self):
        return self.share

    def whole_hit_chance(self):
        return self.share

    METHOD = ("exact: every three-card start's deals under the base game's optimal strategy "
              "(raise_it_up_optimal), the 'N for 1' rows paid over the deals not folded, the "
              "ace, king and queen of spades as a share of the meter")

    def to_json(self):
        """The sheet as `tablectl par --json` and the lab report give it (issue 36: priced,
        not listed as strategy-dependent): the fixed part of the hold with the meter-share
        row counted as a loss, and the meter share beside it, as every meter sheet does."""
        edge, share = self.house_edge(), self.meter_share()
        return {"wager": self.wager, "section": self.section, "strategy": "optimal",
                "wagers": [self.wager], "house_edge": round(float(edge), 7),
                "house_edge_exact": "%d/%d" % (edge.numerator, edge.denominator),
                "meter_share": float(share),
                "meter_share_exact": "%d/%d" % (share.numerator, share.denominator),
                "method": self.METHOD, "precision": "exact (Fractions)", "note": self.note}
