"""Raise It Up Stud's base game (Ante, Blind and Play together) under the
player's optimal strategy, by exact enumeration (669a.7(d)(1)-(2), 669a.11(b)-(i),
669a.12(b)-(d)).

The round as 669a.11 plays it: the player sees his three cards and checks or
makes a Play Wager of 1, 2 or 3 times the Ante (669a.11(b)); the first community
card is shown and a player who has not yet made one checks or plays 1 or 2 times
(669a.11(d)); the second is shown and he plays 1 time or folds, losing Ante and
Blind (669a.11(f)); the third is shown and the best five of the six cards
settle all three wagers (669a.11(i)(2)). A player makes one Play Wager at most:
the game asks only players without one (controller/games/single_deck/raise_it_up.py). There
is no dealer hand to beat: a pair of tens or better pays Ante 1 to 1, Play and
Blind by their tables; anything less loses all three.

Optimal means: at each decision, the choice of greatest expected return given
the cards the player has seen, every unseen card equally likely. The best five
of six does not care which cards are the player's and which the community's,
so a decision depends only on the set of cards seen. The counting trick: a set
of k cards matters only through its rank multiset and, for a flush, through
the ranks of the one suit that can still reach five cards by the sixth
(a suit with at least k - 1 cards; with k >= 3 seen cards there is at most
one). Every other suit is interchangeable. That shrinks the 22,100 x 49 x 48 x
47 deals to a few tens of thousands of states, each summed exactly in integers
over its ordered completions. Each final six-card class is settled by the rules
core itself (controller/rules/raise_it_up.settle_ante_blind_play) on a
representative hand, so the sheet and the table pay by the same code.
"""

from controller.rules import cards as C
from controller.rules import raise_it_up as R

ALL_RANKS = tuple(range(13))
SUITS = 4
UNIT = 2                    # the Ante in the engine's integer units: two pair pays 3 to 2
FOLD = "fold"
LOSES = "loses"
# The final hands of the 669a.12(c)/(d) tables, best first, then a hand below a pair of 10s.
HANDS = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight", "three_of_a_kind", "two_pair", "pair_tens_or_better", LOSES)
_HAND_INDEX = dict((h, i) for i, h in enumerate(HANDS))
STREETS = ("before_4th_street", "before_5th_street", "before_6th_street")


class Solver:
    """The exact solution over a deck of `ranks` x `suits` (the 52-card deck by
    default; a reduced deck for checking against brute force)."""

    def __init__(self, ranks=ALL_RANKS, suits=SUITS):
        if suits < 2 or len(ranks) * suits < 6:
            raise ValueError("a deck of %d ranks x %d suits cannot deal six cards"
                             % (len(ranks), suits))
        self.ranks = tuple(sorted(ranks))
        self.suits = suits
        self.deck_size = len(self.ranks) * suits
        self._terminal = {}
        self._settled = {}
        self._sums = [dict() for _ in range(7)]       # level -> key -> (base, play) sums
        self._best = [dict() for _ in range(7)]       # level -> key -> (value, decision)
        self._dist = [dict() for _ in range(7)]       # level -> key -> hand counts
        self._trans = [dict() for _ in range(7)]

    # ---- states --------------------------------------------------------------
    # A state is (counts, live): counts a 13-tuple of cards per rank, live the sorted
    # ranks of the suit that can still make a flush by the sixth card, or ().

    def key_of(self, hand):
        """The state of a set of 3 to 6 distinct cards of this deck."""
        k = len(hand)
        counts = [0] * 13
        by_suit = {}
        for c in hand:
            r, s = C.rank(c), C.suit(c)
            counts[r] += 1
            by_suit.setdefault(s, []).append(r)
        live = ()
        for ranks in by_suit.values():
            if len(ranks) + 6 - k >= 5:
                live = tuple(sorted(ranks))
        return tuple(counts), live

    def transitions(self, level, key):
        """[(state after one more card, number of cards leading there)] from a state
        of `level` cards."""
        memo = self._trans[level]
        out = memo.get(key)
        if out is not None:
            return out
        counts, live = key
        out = []
        total = 0
        for r in self.ranks:
            left = self.suits - counts[r]
            if not left:
                continue
            grown = counts[:r] + (counts[r] + 1,) + counts[r + 1:]
            in_live = 1 if live and r not in live else 0
            if in_live:
                out.append(((grown, tuple(sorted(live + (r,)))), 1))
            off = left - in_live
            if off:
                # A card of a suit that cannot flush: the live suit stays live only if
                # it can still reach five with the cards left to come.
                stays = live if live and len(live) + 6 - level - 1 >= 5 else ()
                out.append(((grown, stays), off))
            total += left
        if total != self.deck_size - level:
            raise AssertionError("transitions from %d cards count %d cards, not %d"
                                 % (level, total, self.deck_size - level))
        memo[key] = out
        return out

    def representative(self, key):
        """Six cards of the state: the live suit's ranks in suit 0, the rest spread
        over the other suits so no other flush forms."""
        counts, live = key
        hand = []
        rest = []
        for r in range(13):
            n = counts[r]
            if r in live:
                hand.append(C.make(r, 0))
                n -= 1
            rest.extend([r] * n)
        first = 1 if live else 0
        span = self.suits - first
        for i, r in enumerate(rest):
            s = first + i % span
            while C.make(r, s) in hand:
                s = first + (s - first + 1) % span
            hand.append(C.make(r, s))
        return hand

    def terminal(self, key):
        """(Ante + Blind net, Play net per Ante of Play) in units of half an Ante, and the
        paytable hand, of a six-card state, as the rules core settles it."""
        out = self._terminal.get(key)
        if out is None:
            six = self.representative(key)
            hand, _ = R.five_card_hand(six[:3], six[3:])
            hand = hand or LOSES
            # The payout is the hand's (669a.12(b)-(d)): settled by the rules core on the
            # first six cards found of each hand, and the same for every other.
            nets = self._settled.get(hand)
            if nets is None:
                got = R.settle_ante_blind_play(six[:3], six[3:], UNIT, UNIT, UNIT)
                nets = (got["ante"][1] + got["blind"][1], got["play"][1])
                self._settled[hand] = nets
            out = (nets[0], nets[1], hand)
            self._terminal[key] = out
        return out

    # ---- sums and decisions -----------------------------------------------------

    def sums(self, level, key):
        """(sum of Ante+Blind net, sum of Play net per Ante) over the ordered
        completions of a state to six cards."""
        if level == 6:
            t = self.terminal(key)
            return t[0], t[1]
        memo = self._sums[level]
        out = memo.get(key)
        if out is None:
            b = p = 0
            for nxt, m in self.transitions(level, key):
                nb, np_ = self.sums(level + 1, nxt)
                b += m * nb
                p += m * np_
            out = (b, p)
            memo[key] = out
        return out

    def completions(self, level):
        n = 1
        for i in range(level, 6):
            n *= self.deck_size - i
        return n

    # what a fold forfeits beyond the Ante and Blind (2 UNIT): a side wager lost with the fold
    # when a reading says so (controller/lab/par/readings.py); 0 for the base game
    fold_extra = 0

    def best(self, level, key):
        """(value summed over ordered completions, decision) at a decision point:
        level 3 (3x or check), 4 (2x or check), 5 (1x or fold). A tie goes to the
        Play Wager."""
        memo = self._best[level]
        out = memo.get(key)
        if out is not None:
            return out
        b, p = self.sums(level, key)
        multiple = 6 - level
        play = b + multiple * p
        if level == 5:
            other = -(2 * UNIT + self.fold_extra) * self.completions(5)
            alt = FOLD
        else:
            other = 0
            for nxt, m in self.transitions(level, key):
                other += m * self.best(level + 1, nxt)[0]
            alt = "check"
        out = (play, multiple) if play >= other else (other, alt)
        memo[key] = out
        return out

    def dist(self, level, key):
        """Hand counts (in HANDS order) over the ordered completions of a state."""
        if level == 6:
            d = [0] * len(HANDS)
            d[_HAND_INDEX[self.terminal(key)[2]]] = 1
            return d
        memo = self._dist[level]
        out = memo.get(key)
        if out is None:
            out = [0] * len(HANDS)
            for nxt, m in self.transitions(level, key):
                for i, n in enumerate(self.dist(level + 1, nxt)):
                    if n:
                        out[i] += m * n
            memo[key] = out
        return out

    # ---- the whole game -----------------------------------------------------------

    def deck(self):
        return [C.make(r, s) for r in self.ranks for s in range(self.suits)]

    def starts(self):
        """{state of the player's three cards: number of three-card hands}."""
        deck = self.deck()
        out = {}
        n = len(deck)
        for i in range(n):
            for j in range(i + 1, n):
                for k in range(j + 1, n):
                    key = self.key_of((deck[i], deck[j], deck[k]))
                    out[key] = out.get(key, 0) + 1
        return out

    def hand_value(self, three):
        """Expected net per unit of Ante of the optimal play from these three cards
        (a Fraction), and the first decision."""
        from fractions import Fraction
        value, decision = self.best(3, self.key_of(three))
        return Fraction(value, UNIT * self.completions(3)), decision

    def nets_by_hand(self):
        """{final hand: (Ante+Blind net, Play net per Ante)} in half-Ante units, from the
        settled six-card classes; every class of one hand must settle alike."""
        out = {}
        for b, p, hand in self._terminal.values():
            if out.setdefault(hand, (b, p)) != (b, p):
                raise AssertionError("%s settles two ways: %r and %r" % (hand, out[hand], (b, p)))
        return out

    def solve(self):
        """(total value in half-Ante units over all deals, deals, outcomes) where
        outcomes is {(play multiple or 'fold', hand): number of deals}; a deal is
        the player's three cards (unordered) and the three community cards in order."""
        outcomes = {}
        total = 0
        deals = 0

        def add(multiple, counts, weight):
            for i, n in enumerate(counts):
                if n:
                    k = (multiple, HANDS[i])
                    outcomes[k] = outcomes.get(k, 0) + n * weight

        frontier = self.starts()
        for level in (3, 4, 5):
            nxt = {}
            for key, weight in frontier.items():
                value, decision = self.best(level, key)
                if level == 3:
                    total += weight * value
                    deals += weight * self.completions(3)
                if decision == FOLD:
                    outcomes[(FOLD, FOLD)] = outcomes.get((FOLD, FOLD), 0) \
                        + weight * self.completions(5)
                elif decision == "check":
                    for k2, m in self.transitions(level, key):
                        nxt[k2] = nxt.get(k2, 0) + weight * m
                else:
                    add(decision, self.dist(level, key), weight)
            frontier = nxt
        return total, deals, outcomes


DECISION_NAMES = {3: "play_3x_before_4th_street", 2: "play_2x_before_5th_street",
                  1: "play_1x_before_6th_street", FOLD: "fold_before_6th_street"}


_FULL = []


def full_rows():
    """rows() of the full deck, solved once per process (kept in memory only: nothing
    on disk can go stale)."""
    if not _FULL:
        _FULL.append(rows())
    return _FULL[0]


def rows(solver=None):
    """(rows for a StrategyPar, deals, the solver) of the full 52-card game:
    [(decision, hand, deals, net per unit of Ante)], the decision the one the
    player's optimal play makes (the Play multiple says at which street)."""
    from fractions import Fraction
    solver = solver or Solver()
    total, deals, outcomes = solver.solve()
    nets = solver.nets_by_hand()
    out = []
    for multiple in (3, 2, 1):
        for hand in HANDS:
            n = outcomes.get((multiple, hand), 0)
            if n:
                b, p = nets[hand]
                out.append((DECISION_NAMES[multiple], hand, n,
                            Fraction(b + multiple * p, UNIT)))
    folded = outcomes.get((FOLD, FOLD), 0)
    if folded:
        out.append((DECISION_NAMES[FOLD], FOLD, folded, Fraction(-2)))
    check = sum(r[3] * r[2] for r in out)
    if check != Fraction(total, UNIT):
        raise AssertionError("rows sum to %s, the solution to %s" % (check, Fraction(total, UNIT)))
    return out, deals, solver
