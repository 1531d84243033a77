"""The printed chart's house edge with every card seen removed (issue 36): the player's draws
from the shoe as it stands after each card he has drawn, the dealer's from the shoe after all
of the player's cards (composition-dependent dealer probabilities), for every round the chart
does not split.

Why: blackjack_strategy.Edge removes the player's first two cards and the up card only; the
player's later cards come from that shoe without further removal and the dealer's outcome
ignores them. At Double Attack, which doubles on any number of cards and surrenders at any
time, that alone puts the figure about 0.03% of the Bet too high for its own chart.

Method, for each up card and each two-card hand the chart plays as it is (not split):
  * the player's hand is walked card by card by the chart (hit, stand, double, surrender, the
    surrender after a double where 581.9(a) leaves it open), each draw's chance its count in
    the shoe the earlier cards left;
  * the hole card, dealt before the player's draws but unseen, is priced as the card after
    them (for cards drawn without replacement a deal's chance depends only on which card goes
    where), so the card reader's no-Blackjack is a condition on it, taken jointly: the
    expectation over the deals without a dealer Blackjack, divided by their chance;
  * the dealer's outcome from the shoe less the up card and every card of the player, by
    pricing each multiset of dealer cards (blackjack_play.dealer_sequences: one walk per up
    card) on that shoe with falling factorials, in numpy floats (about 1e-13 relative).
Split rounds (up to four hands drawing from one shoe) are priced hand by hand (SplitHands):
exact for the same chart, the same figure as walking the whole seat card by card
(SplitRound, kept as the check) in a few hundred walks of one hand instead of millions of
states.
"""

import numpy as np

from controller.lab.par import blackjack_play as bp
from controller.lab.par import blackjack_split_exact as split_exact
from controller.lab.par import blackjack_strategy as s

ACE, TEN, VALUES, BUST = s.ACE, s.TEN, s.VALUES, s.BUST
FINALS = (17, 18, 19, 20, 21, BUST)
BUST_AT = FINALS.index(BUST)


class DealerPricer:
    """The dealer's final total from one up card, priced on any shoe: P(final, no dealer
    Blackjack) for the shoe the player's cards left (a list of 11 counts by value)."""

    def __init__(self, up, rules):
        excluded = ()
        if up in rules.peek_ups:
            excluded = (TEN,) if up == ACE else (ACE,)
        seqs = bp.dealer_sequences(up, excluded, rules.hit_soft_17)
        self.final_index = np.array([FINALS.index(f) for (_, f) in seqs])
        self.multisets = np.array([m for (m, _) in seqs], dtype=np.int64)     # K x 10
        self.sequences = np.array([n for n in seqs.values()], dtype=np.float64)
        self.lengths = self.multisets.sum(axis=1)
        self.depth = int(self.multisets.max()) + 1
        self.memo = {}

    def joint(self, counts):
        """[P(the dealer ends on f and has no Blackjack) for f in FINALS] on `counts`."""
        key = tuple(counts)
        out = self.memo.get(key)
        if out is not None:
            return out
        n = sum(counts[v] for v in VALUES)
        p = self._per_multiset(counts, n)
        out = np.bincount(self.final_index, weights=p, minlength=len(FINALS))
        self.memo[key] = out
        return out

    def _per_multiset(self, counts, n):
        """P(the dealer's cards after the up card are this multiset, in some order his
        rule draws) for each multiset of his walk, on `counts` of size n."""
        # falling factorials of each value's count, to each depth a dealer multiset reaches
        fall = np.ones((10, self.depth))
        for i, v in enumerate(VALUES):
            c = counts[v]
            for k in range(1, self.depth):
                fall[i, k] = fall[i, k - 1] * (c - k + 1)
        ways = self.sequences.copy()
        for i in range(10):
            ways *= fall[i, self.multisets[:, i]]
        longest = int(self.lengths.max())
        total = np.ones(longest + 1)
        for k in range(1, longest + 1):
            total[k] = total[k - 1] * (n - k + 1)
        # a dealer multiset longer than the shoe (a tiny test shoe only) has no ways
        return np.divide(ways, total[self.lengths], out=np.zeros_like(ways),
                         where=total[self.lengths] > 0)

    def joint_kept(self, counts, pair, kmax):
        """[[P(the dealer ends on f, has no Blackjack, and then k more cards drawn from
        what he left are none of them `pair`) for f in FINALS] for k in 0..kmax]: the dealer
        of a split round priced hand by hand (SplitHands), where the k second cards of the
        other hands that ended the resplitting are drawn after him."""
        key = (tuple(counts), pair, kmax)
        out = self.memo.get(key)
        if out is not None:
            return out
        n = sum(counts[v] for v in VALUES)
        plain = self._per_multiset(counts, n)
        rest = n - self.lengths                                  # cards left after him
        kept = (n - counts[pair]) - (self.lengths - self.multisets[:, pair - 1])
        out = np.zeros((kmax + 1, len(FINALS)))
        w = np.ones_like(plain)
        for k in range(kmax + 1):
            if k:
                w = w * np.divide(kept - (k - 1), rest - (k - 1),
                                  out=np.zeros_like(w), where=rest - (k - 1) > 0)
                w[kept - (k - 1) <= 0] = 0.0
            out[k] = np.bincount(self.final_index, weights=plain * w,
                                 minlength=len(FINALS))
        self.memo[key] = out
        return out


def _stand_net(total):
    """Net per unit of standing on `total` against each final of FINALS."""
    return np.array([1.0 if d == BUST else float((total > d) - (total < d)) for d in FINALS])


_STAND = {t: _stand_net(t) for t in range(4, 22)}


def draws(counts):
    """Each value the shoe `counts` holds, with its chance: the card is out of `counts`
    while the caller looks at the shoe it leaves, and back after."""
    n = sum(counts[v] for v in VALUES)
    for v in VALUES:
        c = counts[v]
        if c:
            counts[v] = c - 1
            yield v, c / n
            counts[v] = c


class ExactHand:
    """One hand the chart plays against one up card, walked card by card from the shoe as
    its earlier cards left it, the dealer from the shoe all its cards left: a hand that is not
    split (`pair` None: its value a 1-vector) or a split hand of `pair` (a vector over k, the
    other hands' kept cards drawn after the dealer: SplitHands). Values are expected nets
    jointly with no dealer Blackjack, memoised on (shoe, hand)."""

    def __init__(self, rules, chart_up, pricer, pair=None, kmax=0):
        self.rules = rules
        self.chart = chart_up
        self.play = bp.ChartPlay(rules, chart_up)
        self.hand = self.play.hand
        self.pricer = pricer
        self.pair = pair
        self.kmax = kmax
        self.memo = {}
        self.after_double_loss = -1.0 if rules.surrender_double_down == "half" else -0.5

    # ---- the dealer and the ends of a hand ---------------------------------------------

    def joint(self, counts):
        if self.pair is None:
            return self.pricer.joint(counts)[None, :]
        return self.pricer.joint_kept(counts, self.pair, self.kmax)

    def stand(self, total, counts, stake):
        j = self.joint(counts)
        if total > 21:
            lose = j.sum(axis=1)
            if self.rules.bust_pushes_on_dealer_bust:
                lose = lose - j[:, BUST_AT]
            return -stake * lose
        return stake * (j @ _STAND[total])

    def flat(self, counts, net):
        """A net that does not depend on the dealer's total (a surrender, a split Blackjack),
        jointly with his having no Blackjack."""
        return net * self.joint(counts).sum(axis=1)

    def after_double(self, total, counts, act=None):
        """The doubled hand once its card is out: stand, or surrender where the chart (or
        `act`) says so and the table leaves it open (581.9(a))."""
        if total < 21 and self.rules.surrender == "any":
            act = act or self.chart.get(("after_double", total))
            if act == s.SURRENDER:
                return self.flat(counts, self.after_double_loss)
        return self.stand(total, counts, 2.0)

    def split_ace(self, total, counts, act=None):
        """A split ace with its one card (the chart may surrender it where the table leaves
        surrender open, as blackjack_play.ChartPlay does)."""
        if total == 21 and self.rules.split_blackjack:
            return self.flat(counts, float(self.rules.blackjack_pays))
        if self.rules.surrender == "any" and total < 21:
            act = act or self.chart.get(("split_ace", total))
            if act == s.SURRENDER:
                return self.flat(counts, -0.5)
        return self.stand(total, counts, 1.0)

    # ---- decisions ------------------------------------------------------------------------

    def options(self, total, soft, ncards, split):
        out = [s.STAND, s.HIT]
        if self.hand.may_double(total, soft, ncards == 2, split):
            out.append(s.DOUBLE)
        if self.hand.may_surrender(ncards == 2, split):
            out.append(s.SURRENDER)
        return out

    def next_card(self, total, soft, ncards, split, counts):
        """The hand's value once it has `total` (a card just added): bust, 21, or decide."""
        if total >= 21:
            if total == 21 and ncards == 2 and split and self.pair is not None and \
                    self.rules.split_blackjack:
                return self.flat(counts, float(self.rules.blackjack_pays))
            return self.stand(total, counts, 1.0)
        return self.decide(total, soft, ncards, split, counts)

    def action_value(self, act, total, soft, ncards, split, counts):
        if act == s.STAND:
            return self.stand(total, counts, 1.0)
        if act == s.SURRENDER:
            return self.flat(counts, -0.5)
        out = np.zeros(self.kmax + 1)
        for v, p in draws(counts):
            t, sf = s._add(total, soft, v)
            if act == s.DOUBLE:
                out += p * self.after_double(t, counts)
            else:
                out += p * self.next_card(t, sf, ncards + 1, split, counts)
        return out

    def decide(self, total, soft, ncards, split, counts):
        key = (tuple(counts), total, soft, ncards == 2, split)
        out = self.memo.get(key)
        if out is None:
            act = self.hand.charted(total, soft, ncards == 2, split)
            out = self.action_value(act, total, soft, ncards, split, counts)
            self.memo[key] = out
        return out

    def value(self, total, soft, two_cards, counts):
        """Expected net, jointly with no dealer Blackjack, of a hand not split from here."""
        return float(self.next_card(total, soft, 2 if two_cards else 3, False, counts)[0])


class SplitRound(bp.ChartPlay):
    """A pair the chart splits, played card by card as the table plays it (blackjack_play's
    walk: the hands one after the other from the shoe as it stands, a resplit hand inserted
    after the one split, split aces one card each), the dealer from the shoe all the hands
    left, the hole card taken after them and conditioned jointly on the peek.

    Why a value pair (D, W) per state: the hands' net is sum_i u_i . joint(final shoe), u_i
    the net of hand i against each dealer final (FINALS). The play never looks at earlier
    hands (the chart is total-dependent), so from any state the rest of the round is a
    function of (shoe, the state) alone: D = E[joint(final shoe)], W = E[net of the hands
    that end from here on]; a hand ending with u before a state (D', W') adds u . D' + W'.
    Memoised on (shoe, state): the orders that use the same cards meet again."""

    def __init__(self, rules, chart_up, pricer):
        super().__init__(rules, chart_up)
        self.pricer = pricer
        self.memo = {}
        bust = -np.ones(len(FINALS))
        if rules.bust_pushes_on_dealer_bust:
            bust[FINALS.index(BUST)] = 0.0
        self.bust = bust
        self.after_double_surrender = -1.0 if rules.surrender_double_down == "half" else -0.5

    def ended(self, flag, stake, result, ace_ten):
        """The hand's net against each dealer final, carried in the state's flag slot (the
        walk takes it out at once, so states stay memoisable)."""
        if ace_ten and self.rules.split_blackjack:
            return np.full(len(FINALS), float(self.rules.blackjack_pays))
        if result == s.BUST:
            return stake * self.bust
        if result == bp.SURRENDER:
            loss = self.after_double_surrender if stake == 2 else -0.5
            return np.full(len(FINALS), loss)
        return stake * _STAND[result]

    def _state(self, counts, st, pair):
        """(D, W) of the state `st` (its flag None) on the shoe `counts`."""
        key = (tuple(counts), st)
        out = self.memo.get(key)
        if out is not None:
            return out
        n = sum(counts[v] for v in VALUES)
        d = np.zeros(len(FINALS))
        w = 0.0
        for v in VALUES:
            c = counts[v]
            if not c:
                continue
            counts[v] = c - 1
            st2 = self.after(st, v, pair)
            u = st2[-1] if st2[0] != "end" else st2[1]
            if st2[0] == "end":
                d2, w2 = self.pricer.joint(counts), 0.0
            else:
                d2, w2 = self._state(counts, st2[:-1] + (None,), pair)
            counts[v] = c
            p = c / n
            d += p * d2
            w += p * (w2 + (float(u @ d2) if u is not None else 0.0))
        out = (d, w)
        self.memo[key] = out
        return out

    def value(self, pair, counts):
        """Expected net, per unit of the Bet, of splitting pair-pair on `counts` (the shoe
        less the up card and the two), jointly with no dealer Blackjack."""
        return self._state(list(counts), self._start_split_hand(pair, 2, 1, None), pair)[1]


class SplitHands:
    """A pair the chart splits, exact, priced hand by hand: the same figure as SplitRound
    (tests/par/test_par_blackjack_chart_exact.py checks them against each other and against
    the deal-out in table order), in a few hundred walks of one hand instead of millions of
    states of the whole seat.

    Why it is exact. For cards drawn without replacement the chance of a deal depends only
    on which card goes to which place, so blocks of the deal may be taken in another order
    whenever each block's own rule decides, from its own cards alone, how many cards it
    takes: the count of the whole deal is the same, card for card. A split round is such
    blocks: each hand's second-card slots (a card of the pair's value resplits while the
    seat has fewer than split_hands hands: a slot is 'R', a resplit; 'C', the card kept,
    not of that value; or 'F', kept once no resplit is open: any card), each hand's draws
    after its two cards (the chart is total-dependent: they look at that hand only), and
    the dealer (the hole card, conditioned on the reader's peek, and his draws to 17). Only
    the slots' kinds depend on one another, through the number of hands; given the pattern
    of kinds (blackjack_split_exact.phase_patterns counts them), each slot is a block of one
    card whose own rule is its kind. So hand i's net is priced with the deal in this order:
    the r resplit cards (all of the pair's value), hand i's kept card, hand i's draws, the
    dealer, then the other hands' kept cards (their kinds must still hold: k of them 'C',
    each not of the pair's value, drawn from what the dealer left; DealerPricer.joint_kept),
    then the other hands' draws (which end with certainty and are summed out). The round's
    net is the sum over hands, and hands of one kind in one pattern are priced alike."""

    def __init__(self, rules, chart_up, pricer, hand=None):
        self.rules = rules
        self.chart = chart_up
        self.pricer = pricer
        self.hand = hand or ExactHand       # the hand walk (blackjack_optimal's adds gains)
        self.walks = {}

    def walk(self, pair):
        """(the hand walk of a split hand of `pair`, the patterns of its second cards)."""
        if pair not in self.walks:
            resplit = pair != ACE and self.chart.get(("pair", pair)) == s.SPLIT
            patterns = split_exact.phase_patterns(self.rules.split_hands, resplit)
            kmax = max(nc for (_, nc, _) in patterns)
            self.walks[pair] = (self.hand(self.rules, self.chart, self.pricer, pair, kmax),
                                patterns)
        return self.walks[pair]

    def coefficients(self, pair, counts):
        """[(the shoe less r resplit cards, kept card constrained, the weights over k)]:
        hand i's share of the round, summed over the patterns with r resplits, each pattern
        (ways of it) x P(the r resplit cards) x (its hands of that kind), at k = the other
        hands' constrained kept cards."""
        walk, patterns = self.walk(pair)
        n0, p0 = sum(counts[v] for v in VALUES), counts[pair]
        out = {}
        for (r, nc, na), ways in patterns.items():
            if counts[pair] < r:
                continue
            chance = 1.0
            for j in range(r):
                chance *= (p0 - j) / (n0 - j)
            for constrained, hands, k in ((True, nc, nc - 1), (False, na, nc)):
                if hands:
                    coef = out.setdefault((r, constrained), np.zeros(walk.kmax + 1))
                    coef[k] += ways * chance * hands
        return [(s._without(counts, *[pair] * r), constrained, coef)
                for (r, constrained), coef in sorted(out.items())]

    def starts(self, pair, counts, weight=1.0):
        """(the walk, {(shoe, total, soft, 2, True): weights}: the split hands' first
        decisions; the value of the hands that end on their second card; [(total, shoe,
        weights)] of split aces, which take no decision but the chart's surrender)."""
        walk, _ = self.walk(pair)
        starts, ended, aces = {}, 0.0, []
        for shoe, constrained, coef in self.coefficients(pair, counts):
            coef = coef * weight
            for v, p in draws(shoe):
                if constrained and v == pair:
                    continue
                t, sf = s._add(*s.hand_state([pair]), v)
                w = coef * p
                if pair == ACE:
                    aces.append((t, tuple(shoe), w))
                elif t >= 21:
                    ended += float(w @ walk.next_card(t, sf, 2, True, shoe))
                else:
                    key = (tuple(shoe), t, sf, 2, True)
                    starts[key] = w if key not in starts else starts[key] + w
        return walk, starts, ended, aces

    def value(self, pair, counts, weight=1.0):
        """Expected net, per unit of the Bet (times `weight`), of splitting pair-pair on
        `counts` (the shoe less the up card and the two), jointly with no dealer Blackjack."""
        walk, starts, total, aces = self.starts(pair, counts, weight)
        for (shoe, t, sf, nc, sp), w in starts.items():
            total += float(w @ walk.decide(t, sf, nc, sp, list(shoe)))
        for t, shoe, w in aces:
            total += float(w @ walk.split_ace(t, list(shoe)))
        return total


def chart_splits(chart_up, a, b, rules):
    return a == b and chart_up.get(("pair", a)) == s.SPLIT and rules.split_hands >= 2


class ExactEdge:
    """The house edge of `rules` under `strategy` (the printed chart), every card seen
    removed: each round the chart does not split by ExactHand, each split round by
    SplitHands. The Double Attack Wager is placed where the printed chart places it.
    `split_share` and `split_part` say how much of the deals and of the figure the split
    rounds are."""

    def __init__(self, rules, strategy, printed=None):
        printed = printed or s.Edge(rules, strategy)
        self.rules = rules
        self.by_up = {}
        self.parts = {}                 # up: (its chance, the dealer's Blackjack, the play)
        self.split_share = 0.0          # of all deals
        self.split_part = 0.0           # of the expected net, per unit of the Bet
        shoe = rules.shoe()
        n = sum(shoe)
        total = 0.0
        for up in VALUES:
            p_up = shoe[up] / n
            after_up = s._without(shoe, up)
            pricer = DealerPricer(up, rules)
            exact = ExactHand(rules, strategy[up], pricer)
            splits = SplitHands(rules, strategy[up], pricer)
            blackjack_part = play_part = split_part = 0.0
            for a, b, pp, counts, player_bj, p_dbj in s.initial_deals(rules, after_up, up):
                blackjack_part += pp * p_dbj * (0.0 if player_bj else -1.0)
                if player_bj:
                    play_part += pp * (1 - p_dbj) * float(rules.blackjack_pays)
                elif chart_splits(strategy[up], a, b, rules):
                    part = pp * splits.value(a, counts)
                    play_part += part
                    split_part += part
                    self.split_share += p_up * pp * (1 - p_dbj)
                else:
                    tot, soft = s.hand_state([a, b])
                    play_part += pp * exact.value(tot, soft, True, counts)
            attack = rules.double_attack and printed.double_attack[up]
            self.parts[up] = (p_up, blackjack_part, play_part)
            ev_up = blackjack_part + play_part * (2 if attack else 1)
            self.split_part += p_up * split_part * (2 if attack else 1)
            self.by_up[up] = ev_up
            total += p_up * ev_up
        self.expected_net = total

    def house_edge(self):
        return -self.expected_net

    def placed(self, double_attack):
        """The house edge with the Double Attack Wager placed by up card as
        `double_attack` {up: bool} says (it doubles the play part of the round)."""
        return -sum(p * (bj + play * (2 if self.rules.double_attack and double_attack[up]
                                      else 1))
                    for up, (p, bj, play) in self.parts.items())


_SOLVED = {}


def solved(rules):
    """ExactEdge of `rules` under its chart (blackjack_strategy.solve), cached per rule set
    within a process as solve is: the sheet, the readings, `tablectl strategy` and the tests
    ask for the same figure many times, and each costs seconds."""
    key = s.rules_key(rules)
    if key not in _SOLVED:
        chart, edge = s.solve(rules)
        _SOLVED[key] = ExactEdge(rules, chart, edge)
    return _SOLVED[key]
