"""Flop Poker's Ante and Flop Wager under the optimal Flop decision, exact
(583.7(d)(1)-(2), 583.11(b)-(d), 583.12(a)-(b)).

The player sees his three cards and folds, losing the Ante (583.11(b)), or
makes a Flop Wager equal to the Ante. The three community cards are then
shown; the player's hand is his three cards and exactly two of the three
community cards (583.11(d)(2)); a pair of jacks or better pays the Ante 1 to 1
and the Flop by 583.12(b), anything less loses both. The Pot (583.11(e)) is
paid between players and is not part of this sheet. Optimal: the Flop Wager
is made when its expected return over the C(49, 3) community cards is at
least the fold's (a tie goes to the Flop Wager).

Counting: a flush needs all five cards in one suit, so only a player's three
suited cards can make one, and only with two community cards of their suit.
Every other hand is decided by ranks alone. So a player's hand is valued by
its rank multiset (all unsuited hands with the same ranks are alike) or, if
suited, by its ranks; the community cards by their rank multiset (ways:
the product of C(cards of that rank left, m)), and for a suited hand also by
which of them carry its suit. Each class is valued once on representative
cards by the rules core's evaluator (controller/rules/poker.py) and its
583.12(b) hand (controller/rules/flop_poker.py's qualifying pair).
"""

from math import comb

from controller.rules import cards as C
from controller.rules import flop_poker as F
from controller.rules import paytables as pt
from controller.rules import poker

ALL_RANKS = tuple(range(13))
SUITS = 4
FOLD = "fold"
PLAY = "flop_wager"
LOSES = "loses"
HANDS = tuple(h for h, _ in pt.get(pt.FLOP, "flop").rows) + (LOSES,)
# What a hand below a pair of jacks does to the Ante and Flop Wager: 583.11(d)(2) as
# docs/interpretations.md reads it (`flop-below-jacks`), or the reading priced against it.
BELOW_JACKS = ("lost", "returned")


def _net(hand, below_jacks="lost"):
    """Ante + Flop net per unit of Ante for a player who made the Flop Wager."""
    if hand == LOSES:
        if below_jacks not in BELOW_JACKS:
            raise ValueError("below_jacks is one of %s, not %r" % (BELOW_JACKS, below_jacks))
        return -2 if below_jacks == "lost" else 0
    pay = pt.get(pt.FLOP, "flop").pay(hand)
    if pay.den != 1:
        raise AssertionError("583.12(b) pays whole multiples; %s pays %s" % (hand, pay.text()))
    return 1 + pay.num


def _rank_multisets(ranks, size, avail):
    """[(ranks, ways)]: rank multisets of `size` cards with avail[r] cards left of rank r."""
    out = []

    def walk(i, left, acc, ways):
        if left == 0:
            out.append((tuple(acc), ways))
            return
        if i == len(ranks):
            return
        r = ranks[i]
        for m in range(min(left, avail.get(r, 0)), -1, -1):
            w = comb(avail.get(r, 0), m)
            if w:
                walk(i + 1, left - m, acc + [r] * m, ways * w)

    walk(0, size, [], 1)
    return out


def _subsets(items, k):
    if k == 0:
        return [()]
    if len(items) < k:
        return []
    return [(items[0],) + s for s in _subsets(items[1:], k - 1)] + _subsets(items[1:], k)


class Solver:
    def __init__(self, ranks=ALL_RANKS, suits=SUITS, below_jacks="lost"):
        if suits < 2 or len(ranks) * suits < 6:
            raise ValueError("a deck of %d ranks x %d suits cannot deal six cards"
                             % (len(ranks), suits))
        if below_jacks not in BELOW_JACKS:
            raise ValueError("below_jacks is one of %s, not %r" % (BELOW_JACKS, below_jacks))
        self.below_jacks = below_jacks
        self.ranks = tuple(sorted(ranks))
        self.suits = suits
        self.deck_size = len(self.ranks) * suits
        self.community = comb(self.deck_size - 3, 3)
        self._ranked = {}
        # Every rank multiset of 0..3 community cards, as (ranks, [(rank, copies)]), once.
        full = dict((r, suits) for r in self.ranks)
        self._shapes = {}
        for size in range(4):
            shapes = []
            for ranks, _ in _rank_multisets(list(self.ranks), size, full):
                mult = {}
                for r in ranks:
                    mult[r] = mult.get(r, 0) + 1
                shapes.append((ranks, tuple(mult.items())))
            self._shapes[size] = shapes

    def _multisets(self, size, left):
        """[(ranks, ways)] of `size` community cards with left[r] cards of rank r."""
        out = []
        for ranks, mult in self._shapes[size]:
            ways = 1
            for r, m in mult:
                ways *= comb(left[r], m)
                if not ways:
                    break
            if ways:
                out.append((ranks, ways))
        return out

    def _hand(self, player, community):
        """583.12(b) hand of the best three + two (583.11(d)(2))."""
        best = -1
        for i in range(3):
            v = poker.evaluate5(player + [community[j] for j in range(3) if j != i])
            if v > best:
                best = v
        return poker.paytable_hand(best, F.QUALIFYING_PAIR) or LOSES

    def _spread(self, ranks, first_suit):
        """Cards of these ranks, copies of a rank in distinct suits from first_suit up."""
        out = []
        used = {}
        for r in ranks:
            s = first_suit + used.get(r, 0)
            used[r] = used.get(r, 0) + 1
            out.append(C.make(r, s))
        return out

    def _rank_hand(self, pranks, cranks):
        """The hand when no flush is possible: ranks alone decide, so the value is the
        rules core's five-card rank table (poker._RANK5, the table evaluate5 reads)
        at the rank key of the player's three and each two of the community's."""
        key = (pranks, cranks)
        got = self._ranked.get(key)
        if got is None:
            w = poker._WEIGHT
            base = w[pranks[0]] + w[pranks[1]] + w[pranks[2]]
            a, b, c = cranks
            best = max(poker._RANK5[base + w[a] + w[b]], poker._RANK5[base + w[a] + w[c]],
                       poker._RANK5[base + w[b] + w[c]])
            got = poker.paytable_hand(best, F.QUALIFYING_PAIR) or LOSES
            self._ranked[key] = got
        return got

    def player_classes(self):
        """[(player's ranks, suited?, number of three-card hands)]."""
        out = []
        avail = dict((r, self.suits) for r in self.ranks)
        for pranks, ways in _rank_multisets(list(self.ranks), 3, avail):
            if len(set(pranks)) == 3:
                suited = self.suits            # one suit for all three
                out.append((pranks, True, suited))
                out.append((pranks, False, ways - suited))
            else:
                out.append((pranks, False, ways))
        return out

    def community_counts(self, pranks, suited):
        """{583.12(b) hand or LOSES: community three-card sets} for a player's hand."""
        counts = {}
        left = dict((r, self.suits) for r in self.ranks)
        for r in pranks:
            left[r] -= 1
        if not suited:
            for cranks, ways in self._multisets(3, left):
                h = self._rank_hand(pranks, cranks)
                counts[h] = counts.get(h, 0) + ways
            return counts
        # Suited in suit 0: split the community into its suit-0 cards and the others.
        in_suit = [r for r in self.ranks if r not in pranks]
        off = dict((r, self.suits - 1) for r in self.ranks)
        offs = dict((k, self._multisets(k, off)) for k in range(4))
        player = [C.make(r, 0) for r in pranks]
        for j in range(4):
            for sranks in _subsets(in_suit, j):
                for oranks, ways in offs[3 - j]:
                    if j < 2:
                        h = self._rank_hand(pranks, tuple(sorted(sranks + oranks)))
                    else:
                        community = [C.make(r, 0) for r in sranks] + self._spread(oranks, 1)
                        h = self._hand(player, community)
                    counts[h] = counts.get(h, 0) + ways
        return counts

    def solve(self):
        """(total net in Antes over all deals, deals, {(decision, hand): deals}, decisions)
        where decisions is [(ranks, suited, hands, decision, expected net of the Flop Wager)]."""
        from fractions import Fraction
        outcomes = {}
        total = 0
        deals = 0
        decisions = []
        for pranks, suited, n in self.player_classes():
            if not n:
                continue
            counts = self.community_counts(pranks, suited)
            if sum(counts.values()) != self.community:
                raise AssertionError("community sets for %r add to %d, not %d"
                                     % (pranks, sum(counts.values()), self.community))
            play = sum(_net(h, self.below_jacks) * k for h, k in counts.items())
            fold = -self.community
            deals += n * self.community
            if play >= fold:
                total += n * play
                for h, k in counts.items():
                    outcomes[(PLAY, h)] = outcomes.get((PLAY, h), 0) + n * k
                decision = PLAY
            else:
                total += n * fold
                outcomes[(FOLD, FOLD)] = outcomes.get((FOLD, FOLD), 0) + n * self.community
                decision = FOLD
            decisions.append((pranks, suited, n, decision, Fraction(play, self.community)))
        return total, deals, outcomes, decisions


_FULL = []


def full_rows():
    """rows() of the full deck, solved once per process (kept in memory only: nothing
    on disk can go stale)."""
    if not _FULL:
        _FULL.append(rows())
    return _FULL[0]


def rows(solver=None):
    """(rows for a StrategyPar, deals, decisions): [(decision, hand, deals, net per
    unit of Ante)] over the player's three cards and the community's three."""
    from fractions import Fraction
    solver = solver or Solver()
    total, deals, outcomes, decisions = solver.solve()
    out = []
    for hand in HANDS:
        n = outcomes.get((PLAY, hand), 0)
        if n:
            out.append((PLAY, hand, n, Fraction(_net(hand, solver.below_jacks))))
    folded = outcomes.get((FOLD, FOLD), 0)
    if folded:
        out.append((FOLD, FOLD, folded, Fraction(-1)))
    if sum(r[3] * r[2] for r in out) != total:
        raise AssertionError("rows do not sum to the solution")
    return out, deals, decisions
