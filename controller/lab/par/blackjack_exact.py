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
from controller.lab.par import blackjack_strategy as s

ACE, TEN, VALUES, BUST = s.ACE, s.TEN, s.VALUES, s.BUST
FINALS = (17, 18, 19, 20, 21, BUST)


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


class ExactHand:
    """One two-card hand the chart plays as it is (not split), against one up card."""

    def __init__(self, rules, chart_up, pricer):
        self.rules = rules
        self.play = bp.ChartPlay(rules, chart_up)
        self.chart = chart_up
        self.pricer = pricer

    def _no_blackjack(self, counts):
        """P(the hole card, taken after the player's cards, gives the dealer no Blackjack)."""
        return float(self.pricer.joint(counts).sum())

    def _bust(self, counts, stake):
        """A busted hand loses its stake (jointly with no dealer Blackjack); under the
        alternative reading priced in docs/interpretations.md it ties a busted dealer."""
        joint = self.pricer.joint(counts)
        lose = float(joint.sum())
        if self.rules.bust_pushes_on_dealer_bust:
            lose -= float(joint[FINALS.index(BUST)])
        return -stake * lose

    def _stand(self, total, counts, stake):
        if total > 21:
            return self._bust(counts, stake)
        return stake * float(self.pricer.joint(counts) @ _STAND[total])

    def _after_double(self, total, counts):
        """The doubled stake (2 units) once its one card is out: stand, or surrender where
        the chart says so and the table leaves it open (581.9(a))."""
        if total <= 21 and self.rules.surrender == "any" and total < 21 and \
                self.chart.get(("after_double", total)) == s.SURRENDER:
            loss = -1.0 if self.rules.surrender_double_down == "half" else -0.5
            return loss * self._no_blackjack(counts)
        return self._stand(total, counts, 2.0)

    def value(self, total, soft, two_cards, counts):
        """Expected net, jointly with no dealer Blackjack, of the hand from here."""
        if total > 21:
            return self._bust(counts, 1.0)
        if total == 21:
            return self._stand(21, counts, 1.0)
        act = self.play.action(total, soft, two_cards, False)
        if act == s.STAND:
            return self._stand(total, counts, 1.0)
        if act == s.SURRENDER:
            return -0.5 * self._no_blackjack(counts)
        n = sum(counts[v] for v in VALUES)
        out = 0.0
        for v in VALUES:
            c = counts[v]
            if not c:
                continue
            counts[v] = c - 1
            t, sf = s._add(total, soft, v)
            if act == s.DOUBLE:
                out += c / n * self._after_double(t, counts)
            else:
                out += c / n * self.value(t, sf, False, counts)
            counts[v] = c
        return out


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

    def __init__(self, rules, chart_up, pricer):
        self.rules = rules
        self.play = SplitRound(rules, chart_up, pricer)     # the walk's steps, nets by final
        self.pricer = pricer
        self.memo = {}

    def _patterns(self, pair):
        from controller.lab.par.blackjack_split_exact import phase_patterns
        resplit = pair != ACE and self.play.splits(pair)
        return phase_patterns(self.rules.split_hands, resplit)

    def _hand(self, counts, st, pair, kmax):
        """[E(the hand's net from state `st`, the dealer without Blackjack, and then k cards
        none of the pair's value) for k in 0..kmax]."""
        key = (tuple(counts), st)
        out = self.memo.get(key)
        if out is not None:
            return out
        n = sum(counts[v] for v in VALUES)
        out = np.zeros(kmax + 1)
        for v in VALUES:
            c = counts[v]
            if not c:
                continue
            counts[v] = c - 1
            st2 = self.play.after(st, v, pair)
            if st2[0] == "end":
                out += c / n * (self.pricer.joint_kept(counts, pair, kmax) @ st2[1])
            else:
                out += c / n * self._hand(counts, st2, pair, kmax)
            counts[v] = c
        self.memo[key] = out
        return out

    def _kept(self, counts, pair, constrained, kmax):
        """Hand i from its kept second card on: [sum over that card of its chance times
        _hand] for k in 0..kmax; `constrained`: the card is not of the pair's value."""
        # the hand waits for its second card with no resplit open: its one card and the
        # table's count of hands (>= 2: a split hand, as the chart reads it)
        start = self.play._start_split_hand(pair, self.rules.split_hands, 0, None)
        n = sum(counts[v] for v in VALUES)
        out = np.zeros(kmax + 1)
        for v in VALUES:
            c = counts[v]
            if not c or (constrained and v == pair):
                continue
            counts[v] = c - 1
            st = self.play.after(start, v, pair)
            if st[0] == "end":
                out += c / n * (self.pricer.joint_kept(counts, pair, kmax) @ st[1])
            else:
                out += c / n * self._hand(counts, st, pair, kmax)
            counts[v] = c
        return out

    def value(self, pair, counts):
        """Expected net, per unit of the Bet, of splitting pair-pair on `counts` (the shoe
        less the up card and the two), jointly with no dealer Blackjack."""
        patterns = self._patterns(pair)
        kmax = max(nc for (_, nc, _) in patterns)
        n0, p0 = sum(counts[v] for v in VALUES), counts[pair]
        total = 0.0
        by_r = {}
        for (r, nc, na), ways in sorted(patterns.items()):
            if r not in by_r:
                shoe = list(counts)
                shoe[pair] -= r
                chance = 1.0
                for j in range(r):
                    chance *= (p0 - j) / (n0 - j)
                if shoe[pair] < 0:
                    by_r[r] = None
                else:
                    by_r[r] = (chance, self._kept(list(shoe), pair, True, kmax),
                               self._kept(list(shoe), pair, False, kmax))
            got = by_r[r]
            if got is None:
                continue
            chance, kept_c, kept_f = got
            if nc:
                total += ways * chance * nc * kept_c[nc - 1]
            if na:
                total += ways * chance * na * kept_f[nc]
        return total


def split_bounded(rules, chart_up, pricer, pair, counts, cutoff):
    """(estimate, bound) of SplitRound.value(pair, counts): the same walk forward, layer by
    layer (one more card each), the states of one layer merged on (shoe, state) with their
    chance p and A = sum over the paths into them of chance * the net of the hands already
    ended (a vector against the dealer's finals: the rest of the round does not look back,
    so the path's contribution is A . D + p * W of the state). A state reached with p below
    `cutoff` is not walked: with D >= 0 summing to at most 1 (a chance), A . D lies between
    min(0, min A) and max(0, max A), and each hand not yet ended nets between -2 and
    +max(2, blackjack_pays) units per unit of its chance, so the state is counted at the
    middle of that interval and half its width is added to `bound`: |estimate - exact| <=
    bound, proven, computed. cutoff 0 walks everything (exact, SplitRound's figure)."""
    play = SplitRound(rules, chart_up, pricer)
    win = max(2.0, float(rules.blackjack_pays))
    layer = {(tuple(counts), play._start_split_hand(pair, 2, 1, None)): [1.0, np.zeros(6)]}
    estimate = bound = 0.0
    while layer:
        nxt = {}
        for (key, st), (p, acc) in layer.items():
            if p < cutoff:
                # hands not yet ended: this one, those waiting, the resplits still possible
                open_hands = 1 + st[4] + (rules.split_hands - st[5])
                lo = min(0.0, float(acc.min())) - 2.0 * open_hands * p
                hi = max(0.0, float(acc.max())) + win * open_hands * p
                estimate += (lo + hi) / 2
                bound += (hi - lo) / 2
                continue
            shoe = list(key)
            n = sum(shoe[v] for v in VALUES)
            for v in VALUES:
                c = shoe[v]
                if not c:
                    continue
                shoe[v] = c - 1
                st2 = play.after(st, v, pair)
                p2 = p * c / n
                acc2 = acc * (c / n)
                u = st2[-1]
                if u is not None:
                    acc2 = acc2 + p2 * u
                if st2[0] == "end":
                    estimate += float(acc2 @ pricer.joint(shoe))
                else:
                    k2 = (tuple(shoe), st2[:-1] + (None,))
                    got = nxt.get(k2)
                    if got is None:
                        nxt[k2] = [p2, acc2]
                    else:
                        got[0] += p2
                        got[1] = got[1] + acc2
                shoe[v] = c
        layer = nxt
    return estimate, bound


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
            ev_up = blackjack_part + play_part * (2 if attack else 1)
            self.split_part += p_up * split_part * (2 if attack else 1)
            self.by_up[up] = ev_up
            total += p_up * ev_up
        self.expected_net = total

    def house_edge(self):
        return -self.expected_net


def strategy_text(game, options=None):
    """`tablectl strategy GAME`'s chart (blackjack_strategy.strategy_text) with its house edge
    as the par sheet prints it, every card seen removed; the declarations name this."""
    rules = s.double_attack_rules(options) if game == "double-attack-blackjack" \
        else s.blackjack_rules(options)
    strategy, edge = s.solve(rules)
    exact = ExactEdge(rules, strategy, edge)
    old = "house edge under this chart: %.4f%% of the Bet" % (100 * edge.house_edge())
    new = ("house edge under this chart: %.4f%% of the Bet (every card seen removed, split "
           "rounds included; %.4f%% with every draw by the first two cards)"
           % (100 * exact.house_edge(), 100 * edge.house_edge()))
    text = s.render_chart(rules, strategy, edge).replace(old, new)
    cells = recorded_cells(rules)
    if cells:
        fixed = ExactEdge(rules, corrected_chart(strategy, cells), edge)
        text += ("cells that lose to another action with every card seen removed (the chart "
                 "with them corrected: %.4f%%):\n" % (100 * fixed.house_edge()))
        text += "".join("  %s\n" % cell_words(rules, *c[:4]) for c in cells)
    return text


def _up_value(rules, chart_up, up, pricer):
    """The expected net, per unit of the hand, of the rounds against `up` that the chart
    plays without a split and that the reader lets go on (the part a cell of the chart can
    change here), every card seen removed."""
    shoe = rules.shoe()
    after_up = s._without(shoe, up)
    exact = ExactHand(rules, chart_up, pricer)
    total = 0.0
    for a, b, pp, counts, player_bj, _ in s.initial_deals(rules, after_up, up):
        if player_bj or chart_splits(chart_up, a, b, rules):
            continue
        tot, soft = s.hand_state([a, b])
        total += pp * exact.value(tot, soft, True, counts)
    return total


def _alternatives(rules, key):
    """The actions a chart cell could hold instead of its own."""
    if key[0] == "after_double":
        return (s.STAND, s.SURRENDER)
    if key[0] not in ("hard", "soft"):
        return ()
    kind, total, first, late, _ = key
    acts = [s.STAND, s.HIT]
    if (first or rules.double_cards == "any") and total < 21 and (
            rules.double_totals is None or (kind == "hard" and total in rules.double_totals)):
        acts.append(s.DOUBLE)
    if rules.surrender == "any" or (rules.surrender == "late" and late):
        acts.append(s.SURRENDER)
    return tuple(acts)


def losing_cells(rules, strategy, ups=VALUES):
    """[(up, cell, the chart's action, the better action, gain per unit of the hand against
    that up card)]: each cell of the printed chart (outside pairs and split aces) whose
    action, changed alone, gives less than another with every card seen removed; and the
    corrected chart, every such cell changed (one pass, best gain first per up card)."""
    out = []
    corrected = {}
    for up in ups:
        chart_up = dict(strategy[up])
        pricer = DealerPricer(up, rules)
        base = _up_value(rules, chart_up, up, pricer)
        for key in sorted(k for k in chart_up if k[0] in ("hard", "soft", "after_double")):
            own = chart_up[key]
            best = (0.0, own)
            for act in _alternatives(rules, key):
                if act == own:
                    continue
                chart_up[key] = act
                gain = _up_value(rules, chart_up, up, pricer) - base
                chart_up[key] = own
                if gain > max(best[0], 1e-12):
                    best = (gain, act)
            if best[1] != own:
                out.append((up, key, own, best[1], best[0]))
        fixed = dict(chart_up)
        for u, key, own, act, gain in out:
            if u == up:
                fixed[key] = act
        corrected[up] = fixed
    return out, corrected


# losing_cells of each game's default rules (about two minutes of CPU each, over the 30 s of
# `par --all`), recorded: tests/par/test_par_blackjack_chart_exact.py recomputes them under
# TABLECTL_SLOW=1 and checks each recorded cell's gain on its own up card in the fast suite.
# {rules_key: [(up, cell, the chart's action, the better action, gain per unit of the hand)]}
RECORDED_CELLS = {
    s.rules_key(s.double_attack_rules()): [
        (4, ("soft", 17, False, False, False), s.HIT, s.DOUBLE, 2.2880849272e-05),
        (10, ("hard", 11, False, False, False), s.HIT, s.DOUBLE, 1.4835196609e-04)],
    s.rules_key(s.blackjack_rules()): [
        (5, ("soft", 13, True, True, False), s.HIT, s.DOUBLE, 3.0107342981e-05),
        (10, ("hard", 16, False, False, False), s.HIT, s.STAND, 4.8913392205e-05)],
}


def recorded_cells(rules):
    """The recorded losing cells of `rules`, or None where they were not computed (a
    configuration other than the defaults: losing_cells computes them, in minutes)."""
    return RECORDED_CELLS.get(s.rules_key(rules))


def corrected_chart(strategy, cells):
    """The chart with each losing cell changed to its better action."""
    out = {up: dict(c) for up, c in strategy.items()}
    for up, key, _, act, _ in cells:
        out[up][key] = act
    return out


def cell_words(rules, up, key, own, act):
    """'hard 16 after a hit against 10: hit -> stand' as a lab reads it."""
    two = rules.double_cards == "two" or rules.surrender == "late"   # the chart tells them
    if key[0] == "after_double":
        where = "%d after doubling" % key[1]
    elif key[0] in ("hard", "soft"):
        where = "%s %d%s" % (key[0], key[1], " on the first two cards" if key[2]
                             else " after a hit" if two else " (any number of cards)")
    else:
        where = str(key)
    return "%s against %s: %s -> %s" % (where, s.chart_label(up), s.ACTION_WORDS[own],
                                         s.ACTION_WORDS[act])
