"""The blackjack games' base wager round by round, simulated in table order: the spread of a
round's net (standard deviation per unit of the Bet, hit frequency) that the exact figure,
a sum of expectations, does not give; and, on the same rounds, an independent check of that
figure.

Why a simulation: the exact method (blackjack_exact) sums expected values hand by hand, so it
has no distribution of a round's net to take a second moment or a hit frequency from; a split
round's hands are not independent of one another, and their joint distribution is what the
hand-by-hand pricing avoids. Here each round is dealt from a full shoe as the table deals it
(the up card, the player's two, the hole card and the reader's peek, the player's draws by the
printed chart through blackjack_play.ChartPlay, resplits and split aces included, the dealer's
draws to 17), settled as the sheet settles it, and counted by its net. The figures are
estimates and say so: their 95% intervals are printed with them (the standard deviation's by
the delta method on the first four moments, the hit frequency's binomial), and the mean of
the same rounds must lie within its own interval of the exact figure (a test checks it).
random.Random with a stated seed: a lab figure that a rerun reproduces, not play.
"""

import math
import random

from controller.lab.par import blackjack_play as bp
from controller.lab.par import blackjack_strategy as s

ACE, TEN, VALUES = s.ACE, s.TEN, s.VALUES
SEED = 36


class _Recording(bp.ChartPlay):
    """The chart's play with each hand's end kept: (stake, total / BUST / SURRENDER, a
    split ace-and-ten)."""

    def ended(self, flag, stake, result, ace_ten):
        return (flag or ()) + ((stake, result, ace_ten),)


def _draw(counts, n, rng):
    """One card from `counts` (n cards), taken out."""
    x = rng.randrange(n)
    for v in VALUES:
        c = counts[v]
        if x < c:
            counts[v] = c - 1
            return v
        x -= c
    raise AssertionError("empty shoe")


def _dealer(up, hole, counts, n, rng, hit_soft_17):
    total, soft = s._add(*s._add(0, False, up), hole)
    while total < s.STAND_ALL_17 or (hit_soft_17 and soft and total == s.STAND_ALL_17):
        total, soft = s._add(total, soft, _draw(counts, n, rng))
        n -= 1
    return s.BUST if total > 21 else total


def _settle(rules, ends, final):
    """The hands' net per unit of the Bet against the dealer's `final`."""
    out = 0.0           # halves and whole units: exact in floating point
    for stake, result, ace_ten in ends:
        if ace_ten and rules.split_blackjack:
            out += float(rules.blackjack_pays)
        elif result == bp.SURRENDER:
            out += -1.0 if stake == 2 and rules.surrender_double_down == "half" else -0.5
        elif result == s.BUST:
            out -= 0 if (final == s.BUST and rules.bust_pushes_on_dealer_bust) else stake
        elif final == s.BUST or result > final:
            out += stake
        elif result < final:
            out -= stake
    return out


def play_round(rules, plays, double_attack, rng):
    """One round's net per unit of the Bet, dealt from a full shoe."""
    counts = rules.shoe()
    n = sum(counts)
    up = _draw(counts, n, rng)
    a = _draw(counts, n - 1, rng)
    b = _draw(counts, n - 2, rng)
    hole = _draw(counts, n - 3, rng)
    n -= 4
    player_bj = {a, b} == {ACE, TEN}
    dealer_bj = {up, hole} == {ACE, TEN}
    if dealer_bj and up in rules.peek_ups:
        return 0.0 if player_bj else -1.0
    times = 2 if rules.double_attack and double_attack[up] else 1
    if player_bj:
        return times * (0.0 if dealer_bj else float(rules.blackjack_pays))
    play = plays[up]
    pair = a if a == b else None
    state = play.start(a, b)
    while state[0] != "end":
        state = play.after(state, _draw(counts, n, rng), pair)
        n -= 1
    final = _dealer(up, hole, counts, n, rng, rules.hit_soft_17)
    return times * _settle(rules, state[1], final)


def simulate(rules, strategy, double_attack, rounds, seed=SEED):
    """{net: rounds} over `rounds` rounds."""
    rng = random.Random(seed)
    plays = {up: _Recording(rules, strategy[up]) for up in VALUES}
    out = {}
    for _ in range(rounds):
        net = play_round(rules, plays, double_attack, rng)
        out[net] = out.get(net, 0) + 1
    return out


def summary(counts):
    """{'rounds', 'mean', 'mean_ci95', 'sd', 'sd_ci95', 'hit', 'hit_ci95'} of {net: rounds}."""
    n = sum(counts.values())
    m = [sum(float(x) ** k * c for x, c in counts.items()) / n for k in range(5)]
    mean = m[1]
    var = m[2] - mean ** 2
    sd = math.sqrt(var)
    # central fourth moment, for the standard error of the variance (delta method to the sd)
    mu4 = m[4] - 4 * mean * m[3] + 6 * mean ** 2 * m[2] - 3 * mean ** 4
    se_sd = math.sqrt(max(mu4 - var ** 2, 0.0) / n) / (2 * sd)
    hit = sum(c for x, c in counts.items() if x > 0) / n
    se_hit = math.sqrt(hit * (1 - hit) / n)
    se_mean = sd / math.sqrt(n)
    z = 1.959964
    return {"rounds": n, "mean": mean,
         "mean_ci95": [mean - z * se_mean, mean + z * se_mean],
             "sd": sd, "sd_ci95": [sd - z * se_sd, sd + z * se_sd],
             "hit": hit, "hit_ci95": [hit - z * se_hit, hit + z * se_hit]}


LIVE_ROUNDS = 200000        # a configuration with no recorded figure: about a second


def figures(rules, strategy, double_attack, rounds=None, seed=SEED):
    """summary() of `rounds` simulated rounds with the seed, for the sheet and the report:
    the recorded run for the default tables (RECORDED), else LIVE_ROUNDS simulated now."""
    if rounds is None:
        got = RECORDED.get(s.rules_key(rules))
        if got is not None:
            return dict(got)
        rounds = LIVE_ROUNDS
    out = summary(simulate(rules, strategy, double_attack, rounds, seed))
    out["seed"] = seed
    return out


# figures(rules, chart, placement, RECORDED_ROUNDS) of each game's default table, recorded
# (about 20 s of CPU each); tests/par/test_par_blackjack_simulated.py checks them against a
# short run of the same seed (whose rounds are the first of the long run) and recomputes them
# under TABLECTL_SLOW=1.
RECORDED_ROUNDS = 4000000
RECORDED = {
    s.rules_key(s.double_attack_rules()):
        {"rounds": 4000000, "seed": SEED, "mean": -0.003014625,
         "mean_ci95": [-0.004906958658165243, -0.001122291341834757],
         "sd": 1.9309881795433417, "sd_ci95": [1.9296589413743463, 1.932317417712337],
         "hit": 0.42369275, "hit_ci95": [0.4232084988545782, 0.42417700114542184]},
    s.rules_key(s.blackjack_rules()):
        {"rounds": 4000000, "seed": SEED, "mean": -0.002577625,
         "mean_ci95": [-0.0036938615664939426, -0.0014613884335060578],
         "sd": 1.1390378256885763, "sd_ci95": [1.1384674180267815, 1.139608233350371],
         "hit": 0.42454825, "hit_ci95": [0.4240638701327208, 0.42503262986727924]},
}
