"""The optimal total-dependent strategy beside the printed chart (issue 36): every cell of the
chart (hard, soft, after a double, split aces, pairs, per up card) tried against each other
action the table allows, with every round priced exactly (every card seen removed, split rounds
hand by hand), changed where another action wins, until no cell's change wins.

Why one walk per up card gives every cell's gain at once: a cell (a total the chart decides on)
is met at most once on a hand's path (each card raises the hand's hard sum), and a change of one
cell changes only what follows the states in it. So the gain of changing cell c to action a,
everything else as charted, is the sum over the states in c of (the chance of reaching that
state under the chart) x (the value of a there, then the chart) - (the value of the chart's own
action there). The chances come from one walk forward, layer by layer (a layer a card), merged
on (shoe, hand); the values from one memoised walk backward. A split hand is priced as
blackjack_exact.SplitHands prices it (its values carry the weights of the other hands' kept
cards, a vector over how many), so split hands' cells and the pair cells are in the same sums.

Why a coordinate search: the cells that win are changed one per up card at a time (the best
first) and the gains computed again, until none wins (a gain over 1e-12 of the Bet). What that
gives is said as it is: a chart no single cell of which can be improved, reached from the
printed chart; other strategies that differ from it in several cells at once are not searched.
The Double Attack Wager (581.5) is then placed on each up card where the round's play is worth
more than nothing to the player, as the printed chart's is.
"""

import numpy as np

from controller.lab.par import blackjack_exact as X
from controller.lab.par import blackjack_strategy as s

ACE, TEN, VALUES = s.ACE, s.TEN, s.VALUES
STAND, HIT, DOUBLE, SURRENDER, SPLIT = s.STAND, s.HIT, s.DOUBLE, s.SURRENDER, s.SPLIT
BUST_AT = X.FINALS.index(s.BUST)
NO_SPLIT = "no_split"            # a pair cell's other action (blackjack_strategy.Hand)
GAIN_FLOOR = 1e-12


def alternatives(rules, key):
    """The actions a chart cell could hold instead of its own."""
    if key[0] == "after_double":
        return (STAND, SURRENDER)
    if key[0] not in ("hard", "soft"):
        return ()
    kind, total, first, late, _ = key
    acts = [STAND, HIT]
    if (first or rules.double_cards == "any") and total < 21 and (
            rules.double_totals is None or (kind == "hard" and total in rules.double_totals)):
        acts.append(DOUBLE)
    if rules.surrender == "any" or (rules.surrender == "late" and late):
        acts.append(SURRENDER)
    return tuple(acts)



class _Walk(X.ExactHand):
    """The hand walk (blackjack_exact.ExactHand) with each cell's gain on the walk forward."""

    def acted(self, key, act, options):
        """What the chart with `key` set to `act` plays where `options` are open."""
        return self.hand.chart_action(key, {o: 0 for o in options}, act)

    # ---- the walk forward: each cell's gain -----------------------------------------------

    def gains(self, starts, out):
        """Add to `out` {(cell, action): gain} over the decision states reached from
        `starts` {(shoe, total, soft, ncards, split): weight vector}, layer by layer."""
        layer = dict(starts)
        while layer:
            nxt = {}
            for (shoe, total, soft, ncards, split), w in layer.items():
                counts = list(shoe)
                options = self.options(total, soft, ncards, split)
                key = self.hand.decision_key(total, soft, ncards == 2, split)
                own = self.hand.charted(total, soft, ncards == 2, split)
                base = self.decide(total, soft, ncards, split, counts)
                for alt in alternatives(self.rules, key):
                    if alt == self.chart.get(key):
                        continue
                    act = self.acted(key, alt, options)
                    if act == own:
                        continue
                    gain = float(w @ (self.action_value(act, total, soft, ncards, split,
                                                        counts) - base))
                    out[(key, alt)] = out.get((key, alt), 0.0) + gain
                if own not in (HIT, DOUBLE):
                    continue
                for v, p in X.draws(counts):
                    t, sf = s._add(total, soft, v)
                    wv = w * p
                    if own == DOUBLE:
                        self._after_double_gain(t, counts, wv, out)
                    elif t < 21:
                        k2 = (tuple(counts), t, sf, ncards + 1, split)
                        got = nxt.get(k2)
                        nxt[k2] = wv if got is None else got + wv
            layer = nxt

    def _after_double_gain(self, total, counts, w, out):
        if not (total < 21 and self.rules.surrender == "any"):
            return
        key = ("after_double", total)
        own = self.chart.get(key)
        for alt in (STAND, SURRENDER):
            if alt == own:
                continue
            gain = float(w @ (self.after_double(total, counts, alt)
                              - self.after_double(total, counts)))
            out[(key, alt)] = out.get((key, alt), 0.0) + gain


class UpCard:
    """Every round against one up card, for one chart: its value (per unit of the hand,
    jointly with no dealer Blackjack, the rounds that go on after the peek) and each cell's
    gain."""

    def __init__(self, rules, chart_up, up, pricer):
        self.rules = rules
        self.chart = chart_up
        self.up = up
        self.pricer = pricer
        self.plain = _Walk(rules, chart_up, pricer)
        self.splits = X.SplitHands(rules, chart_up, pricer, hand=_Walk)
        self.splitting = {}

    def rounds(self):
        """[(a, b, chance, shoe after the three, the chart splits)] of the rounds that are
        not a player Blackjack."""
        shoe = self.rules.shoe()
        after_up = s._without(shoe, self.up)
        for a, b, pp, counts, player_bj, _ in s.initial_deals(self.rules, after_up, self.up):
            if not player_bj:
                yield a, b, pp, counts, X.chart_splits(self.chart, a, b, self.rules)

    def _splitting(self, pair):
        """This up card's rounds under the chart with `pair` split."""
        if pair not in self.splitting:
            chart = dict(self.chart)
            chart[("pair", pair)] = SPLIT
            self.splitting[pair] = UpCard(self.rules, chart, self.up, self.pricer)
        return self.splitting[pair]

    def value(self):
        total = 0.0
        for a, b, pp, counts, split in self.rounds():
            if split:
                total += self.splits.value(a, counts, pp)
            else:
                t, sf = s.hand_state([a, b])
                total += pp * float(self.plain.next_card(t, sf, 2, False, counts)[0])
        return total

    def gains(self):
        """{(cell, action): gain per unit of the hand against this up card}."""
        out = {}
        plain_starts = {}
        for a, b, pp, counts, split in self.rounds():
            t, sf = s.hand_state([a, b])
            as_is = float(self.plain.next_card(t, sf, 2, False, counts)[0]) if t < 21 \
                else None
            if a == b and self.rules.split_hands >= 2:
                key = ("pair", a)
                if split:
                    v_split = self.splits.value(a, counts, pp)
                    out[(key, NO_SPLIT)] = out.get((key, NO_SPLIT), 0.0) + pp * as_is - v_split
                else:
                    # split by a chart that splits this pair (and so resplits it)
                    v_split = self._splitting(a).splits.value(a, counts, pp)
                    out[(key, SPLIT)] = out.get((key, SPLIT), 0.0) + v_split - pp * as_is
            if split:
                walk, starts, _, aces = self.splits.starts(a, counts, pp)
                walk.gains(starts, out)
                for t2, shoe, w in aces:
                    if t2 < 21 and self.rules.surrender == "any":
                        key = ("split_ace", t2)
                        own = self.chart.get(key)
                        for alt in (STAND, SURRENDER):
                            if alt != own:
                                g = float(w @ (walk.split_ace(t2, list(shoe), alt)
                                               - walk.split_ace(t2, list(shoe))))
                                out[(key, alt)] = out.get((key, alt), 0.0) + g
            elif t < 21:
                k = (tuple(counts), t, sf, 2, False)
                plain_starts[k] = plain_starts.get(k, 0.0) + np.array([pp])
        self.plain.gains(plain_starts, out)
        return out


def optimise_up(rules, chart_up, up, pricer=None, log=None):
    """(the chart for `up` no single cell of which can be improved, [(cell, from, to, gain)]
    in the order they were changed), starting from `chart_up`."""
    pricer = pricer or X.DealerPricer(up, rules)
    chart = dict(chart_up)
    changes = []
    while True:
        gains = UpCard(rules, chart, up, pricer).gains()
        key, alt, gain = max(((k, a, g) for (k, a), g in gains.items()),
                             key=lambda x: x[2], default=(None, None, 0.0))
        if gain <= GAIN_FLOOR:
            return chart, changes
        changes.append((key, chart.get(key), alt, gain))
        if log:
            log("up %s: %s %s -> %s gains %.3g" % (s.chart_label(up), key, chart.get(key),
                                                   alt, gain))
        chart[key] = alt


def optimise(rules, strategy, log=None):
    """({up: chart}, {up: changes}) for every up card."""
    charts, changes = {}, {}
    for up in VALUES:
        charts[up], changes[up] = optimise_up(rules, strategy[up], up, log=log)
    return charts, changes


# ---- recorded for the default tables, and what the sheet and `tablectl strategy` print ----

# optimise() on each game's default rules (about 30 s of CPU a game, over the 30 s of
# `par --all` for both): {rules_key: [(up, cell, the chart's action, the better action, gain
# per unit of the hand against that up card when it was changed)]}, in the order changed.
# tests/par/test_par_blackjack_optimal.py replays each change's gain and checks that no cell
# of the changed up cards gains any more; under TABLECTL_SLOW=1 it runs optimise() again.
RECORDED = {
    s.rules_key(s.double_attack_rules()): [
        (4, ("pair", 6), NO_SPLIT, SPLIT, 6.044536415350e-05),
        (4, ("soft", 17, False, False, False), HIT, DOUBLE, 2.948131303749e-05),
        (10, ("hard", 11, False, False, False), HIT, DOUBLE, 1.491675856242e-04)],
    s.rules_key(s.blackjack_rules()): [
        (2, ("soft", 18, True, False, False), STAND, DOUBLE, 7.661352890128e-07),
        (5, ("soft", 13, True, True, False), HIT, DOUBLE, 3.010734298140e-05),
        (5, ("soft", 13, True, False, False), HIT, DOUBLE, 6.317455149337e-06),
        (10, ("hard", 16, False, False, False), HIT, STAND, 4.916976227866e-05)],
}


def recorded(rules):
    """The recorded changes of `rules`, or None where they were not computed (a
    configuration other than the defaults: optimise() computes them in about a minute)."""
    return RECORDED.get(s.rules_key(rules))


def changed_chart(strategy, changes):
    """The chart with each change of `changes` [(up, cell, from, to, gain)] made."""
    out = {up: dict(c) for up, c in strategy.items()}
    for up, key, _, act, _ in changes:
        out[up][key] = act
    return out


class OptimalEdge:
    """The house edge of the chart with `changes` made, every card seen removed, the Double
    Attack Wager placed on each up card where the round's play under that chart is worth
    more than nothing to the player (placing it doubles exactly that part of the round)."""

    def __init__(self, rules, strategy, printed, changes):
        self.chart = changed_chart(strategy, changes)
        self.exact = X.ExactEdge(rules, self.chart, printed)
        self.double_attack = {u: rules.double_attack and self.exact.parts[u][2] > 0
                              for u in VALUES}

    def house_edge(self):
        return self.exact.placed(self.double_attack)


_SOLVED = {}


def solved(rules):
    """OptimalEdge of `rules` with its recorded changes, cached per rule set within a
    process (blackjack_exact.solved's reason); None where none are recorded."""
    key = s.rules_key(rules)
    if key not in _SOLVED:
        changes = recorded(rules)
        strategy, edge = s.solve(rules)
        _SOLVED[key] = None if changes is None else OptimalEdge(rules, strategy, edge, changes)
    return _SOLVED[key]


CLAIM = ("the chart changed cell by cell (hard, soft, after a double, split aces, pairs, split "
         "hands) wherever another action the table allows wins with every card seen removed, "
         "split rounds included, until no single cell's change wins (gain over 1e-12 of the "
         "Bet), the Double Attack Wager placed where it gains; a coordinate optimum reached "
         "from the printed chart (strategies differing from it in several cells at once not "
         "searched); exact figures in floating point, about 1e-12")


WORDS = dict(s.ACTION_WORDS, **{NO_SPLIT: "play as it is"})


def cell_words(rules, up, key, own, act):
    """'hard 16 after a hit against 10: hit -> stand' as a lab reads it."""
    two = rules.double_cards == "two" or rules.surrender == "late"   # the chart tells them
    if key[0] == "after_double":
        where = "%d after doubling" % key[1]
    elif key[0] == "split_ace":
        where = "a split ace with its card, %d" % key[1]
    elif key[0] == "pair":
        where = "a pair of %ss" % s.chart_label(key[1])
    else:
        kind, total, first, late, no_das = key[:5]
        where = "%s %d%s" % (kind, total, " on the first two cards" if first
                             else " after a hit" if two else " (any number of cards)")
        if first and not late and rules.surrender == "late":
            where += " of a split hand"
        if no_das:
            where += " (after a split, no double)"
    return "%s against %s: %s -> %s" % (where, s.chart_label(up), WORDS[own], WORDS[act])


def strategy_text(game, options=None):
    """`tablectl strategy GAME`'s chart (blackjack_strategy.strategy_text) with its house edge
    as the par sheet prints it, every card seen removed, and where the chart loses to the
    optimal total-dependent strategy; the declarations name this."""
    rules = s.double_attack_rules(options) if game == "double-attack-blackjack" \
        else s.blackjack_rules(options)
    strategy, edge = s.solve(rules)
    exact = X.solved(rules)
    old = "house edge under this chart: %.4f%% of the Bet" % (100 * edge.house_edge())
    new = ("house edge under this chart: %.4f%% of the Bet (every card seen removed, split "
           "rounds included; %.4f%% with every draw by the first two cards)"
           % (100 * exact.house_edge(), 100 * edge.house_edge()))
    text = s.render_chart(rules, strategy, edge).replace(old, new)
    changes = recorded(rules)
    if changes:
        best = solved(rules)
        text += ("where the chart loses to the optimal total-dependent strategy (no single "
                 "cell of it can be improved, every card seen removed; its house edge "
                 "%.4f%%):\n" % (100 * best.house_edge()))
        text += "".join("  %s\n" % cell_words(rules, *c[:4]) for c in changes)
    return text
