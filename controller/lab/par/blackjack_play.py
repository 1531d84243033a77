"""A Blackjack seat's play by the basic strategy chart, and the dealer's, as counts of card
sequences grouped by the multiset of card values they use: the counting trick that makes the
optional wagers that look at drawn cards (Bad Beat, 633a.7(o)(1)) exact over the shoe.

Why counts of sequences and not probabilities: the chance of drawing one particular sequence of
values from a shoe is the product over values of falling factorials of the shoe's counts,
divided by a falling factorial of the shoe's size, and so depends only on the multiset the
sequence uses, never on its order. The chart decides on totals, not on the shoe, so the number
of sequences by which the chart's play ends on a given multiset is a property of the chart
alone; one walk per up card gives every multiset the seat can end on with that count, and any
shoe then prices them with integer arithmetic (no rounding anywhere).

The hole card is dealt before the player draws (633a.7(f)(4), (j)), but it is unseen: for card
sequences drawn without replacement the chance of a whole deal depends only on which cards go
where, so the hole card may be taken as drawn after the player's cards, from the shoe his draws
have depleted. The card reader's "no Blackjack" (633a.7(h)) is then a condition on that later
card, priced jointly with the rest of the deal, exactly.

The seat plays as 633a.7(i)-(k) and the table's options say (controller/games/blackjack/model.py):
split hands are played one after the other from the same shoe, a hand getting its second card
when its turn comes (a resplit hand inserted after the one split, as the table does); a pair is
resplit while the chart splits it and the seat has fewer than `split_hands` hands; split aces
take one card each and are not split again; a doubled hand takes one card; the chart's choice
where an option is gone is its fallback (blackjack_strategy.Hand.chart_action).
"""

from controller.lab.par import blackjack_strategy as s

ACE, TEN, VALUES = s.ACE, s.TEN, s.VALUES
# what the hand waiting for a card is waiting for
SECOND, HIT, DOUBLE, SPLIT_ACE = "second", "hit", "double", "split_ace"
SURRENDER = "surrender"             # how a surrendered hand ended (ChartPlay.ended)
# a multiset of card values: a tuple of 10 counts, the ace's first


def add_value(multiset, v):
    i = v - 1
    return multiset[:i] + (multiset[i] + 1,) + multiset[i + 1:]


def multiset_of(values):
    out = [0] * 10
    for v in values:
        out[v - 1] += 1
    return tuple(out)


class ChartPlay:
    """One up card's chart, played by one seat. `finals(shoe)`: {(multiset of all the seat's
    cards, the initial two included; ended on 20): number of value sequences}."""

    def __init__(self, rules, chart_up):
        self.rules = rules
        self.chart = chart_up
        # chart_action needs only the chart and the rules; the values are never read
        self.hand = s.Hand(rules, [0.0] * 11, dict.fromkeys((17, 18, 19, 20, 21, s.BUST), 0.0),
                           chart=chart_up)

    def action(self, total, soft, two_cards, split):
        return self.hand.charted(total, soft, two_cards, split)

    def splits(self, v):
        return self.chart.get(("pair", v)) == s.SPLIT and self.rules.split_hands >= 2

    def _stands_after(self, kind, total):
        """A doubled hand or a split ace has its card: False if the chart surrenders it
        (only where surrender stays open after the card, rules.surrender 'any')."""
        if self.rules.surrender != "any" or total >= 21:
            return True
        return self.chart.get((kind, total)) != s.SURRENDER

    # ---- one hand's next step -------------------------------------------------------------

    def ended(self, flag, stake, result, ace_ten):
        """A hand is done: the walk's flag after it. `stake` in units of the hand's Bet (2
        doubled), `result` its total, BUST or SURRENDER, `ace_ten` a split hand of an ace and
        a ten-value card. Here the flag says some hand stood on 20 (Bad Beat);
        blackjack_exact.SplitRound keeps the outcome itself."""
        return flag or result == 20

    def _decide(self, total, soft, ncards, split, pair, hands, pending, flag):
        """The hand has its cards so far: a state waiting for a card, or ('end', flag) once
        every hand is done. States: (waiting for, total, soft, ncards, pending, hands, flag)."""
        if total < 21:
            act = self.action(total, soft, ncards == 2, split)
            if act == s.HIT:
                return (HIT, total, soft, ncards, pending, hands, flag)
            if act == s.DOUBLE:
                return (DOUBLE, total, soft, ncards, pending, hands, flag)
            flag = self.ended(flag, 1, total if act == s.STAND else SURRENDER, False)
        else:
            flag = self.ended(flag, 1, min(total, s.BUST), split and ncards == 2)
        # a stand, a surrender, 21 or a bust ends the hand; the next split hand's turn
        if not pending:
            return ("end", flag)
        return self._start_split_hand(pair, hands, pending - 1, flag)

    def _start_split_hand(self, pair, hands, pending, flag):
        total, soft = s.hand_state([pair])
        return (SPLIT_ACE if pair == ACE else SECOND, total, soft, 1, pending, hands, flag)

    def _finish(self, total, pair, hands, pending, flag, kind):
        """A hand that takes no more cards (doubled, a split ace) is done."""
        stake = 2 if kind == "after_double" else 1
        if total > 21:
            flag = self.ended(flag, stake, s.BUST, False)
        else:
            flag = self.ended(flag, stake, total if self._stands_after(kind, total)
                              else SURRENDER, kind == "split_ace" and total == 21)
        if not pending:
            return ("end", flag)
        return self._start_split_hand(pair, hands, pending - 1, flag)

    def after(self, state, v, pair):
        """The state once the hand waiting in `state` gets a card of value v."""
        waiting, total, soft, ncards, pending, hands, flag = state
        t, sf = s._add(total, soft, v)
        if waiting == SPLIT_ACE:
            return self._finish(t, pair, hands, pending, flag, "split_ace")
        if waiting == DOUBLE:
            return self._finish(t, pair, hands, pending, flag, "after_double")
        if waiting == SECOND and v == pair and hands < self.rules.split_hands \
                and self.splits(pair):
            # resplit: this hand keeps one card and waits again, a new one waits its turn
            return (SECOND, total, soft, 1, pending + 1, hands + 1, flag)
        return self._decide(t, sf, ncards + 1, hands >= 2, pair, hands, pending, flag)

    def start(self, a, b):
        """The state after the initial two cards a, b (not a Blackjack)."""
        if a == b and self.splits(a):
            return self._start_split_hand(a, 2, 1, False)
        total, soft = s.hand_state([a, b])
        return self._decide(total, soft, 2, False, None, 1, 0, False)

    # ---- the walks -------------------------------------------------------------------------

    def _walk(self, starts, cap):
        """{(multiset, ended on 20): sequences} from `starts` {(multiset, state, pair): n},
        each state walked card by card until every hand is done. `cap`: the shoe's counts
        (a tuple of 10); a multiset the shoe cannot supply is not walked."""
        out = {}
        layer = {}
        for (m, st, pair), n in starts.items():
            if st[0] == "end":
                out[(m, st[1])] = out.get((m, st[1]), 0) + n
            else:
                layer[(m, st, pair)] = layer.get((m, st, pair), 0) + n
        while layer:
            nxt = {}
            for (m, st, pair), n in layer.items():
                for v in VALUES:
                    i = v - 1
                    if cap is not None and m[i] >= cap[i]:
                        continue
                    m2 = m[:i] + (m[i] + 1,) + m[i + 1:]
                    st2 = self.after(st, v, pair)
                    if st2[0] == "end":
                        out[(m2, st2[1])] = out.get((m2, st2[1]), 0) + n
                    else:
                        nxt[(m2, st2, pair)] = nxt.get((m2, st2, pair), 0) + n
            layer = nxt
        return out

    def initial_pairs(self, cap, split):
        """The ordered initial two cards (a, b) that are not a Blackjack and that the chart
        splits (`split` True) or plays as they are (False)."""
        for a in VALUES:
            for b in VALUES:
                if {a, b} == {ACE, TEN} or (a == b and self.splits(a)) != split:
                    continue
                m = multiset_of([a, b])
                if all(m[i] <= cap[i] for i in range(10)):
                    yield a, b, m

    def finals(self, shoe, split=None):
        """{(multiset of all the seat's cards, the initial two included; ended on 20):
        sequences} over the initial two cards that are not a Blackjack, in both orders, and
        every continuation the shoe (a list of 11 counts by value, the up card out) can
        supply. `split`: only the pairs the chart splits (True), only the others (False),
        or all (None). Walking a split round hand after hand tracks every card of every
        hand: exact, but for small pairs resplit to four hands the multisets run to
        millions (see blackjack_bad_beat.py, which prices split rounds another way)."""
        cap = tuple(shoe[v] for v in VALUES)
        starts = {}
        for flag in ((False, True) if split is None else (split,)):
            for a, b, m in self.initial_pairs(cap, flag):
                key = (m, self.start(a, b), a if a == b else None)
                starts[key] = starts.get(key, 0) + 1
        return self._walk(starts, cap)

    def split_hand_twenties(self, v, w, cap=None):
        """{multiset of the hand's cards after its first (w and its draws): sequences} by
        which one split hand of v that got w as its second card ends on 20. The hand is
        played on its own (no hand after it): the caller accounts for the others."""
        if v == ACE:
            st = self._finish(s._add(11, True, w)[0], v, 2, 0, False, "split_ace")
        else:
            total, soft = s.hand_state([v, w])
            st = self._decide(total, soft, 2, True, v, 2, 0, False)
        out = self._walk({(multiset_of([w]), st, v): 1}, cap)
        return {m: n for (m, flag), n in out.items() if flag}


def dealer_sequences(up, excluded=(), hit_soft_17=False, cap=None):
    """{(multiset of the dealer's cards after the up card, his final total or BUST):
    sequences}: the hole card first (not one of `excluded`, the values the card reader would
    have found to give a Blackjack), then his draws to 17 (633a.7(m))."""
    out = {}
    t0, s0 = s._add(0, False, up)

    def walk(total, soft, m, n):
        for v in VALUES:
            i = v - 1
            if (not any(m) and v in excluded) or (cap is not None and m[i] >= cap[i]):
                continue
            t, sf = s._add(total, soft, v)
            m2 = m[:i] + (m[i] + 1,) + m[i + 1:]
            if t >= s.STAND_ALL_17 and not (hit_soft_17 and sf and t == s.STAND_ALL_17):
                key = (m2, s.BUST if t > 21 else t)
                out[key] = out.get(key, 0) + n
            else:
                walk(t, sf, m2, n)
    walk(t0, s0, (0,) * 10, 1)
    return out


def falling(n, k):
    out = 1
    for i in range(k):
        out *= n - i
    return out
