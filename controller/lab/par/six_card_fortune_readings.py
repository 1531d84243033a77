"""Six-Card Fortune's readings of docs/interpretations.md: under the house way by a seeded
simulation on common deals (670a.11(f), (g)(2)), and its joker (670a.6(a)) exact over all
C(53, 6) hands."""

from controller.lab.par.reading import MultiReading, SimulatedReading, paytable_return
# the sheet's recorded Double Down figure lives with the house way's recorded hold (the same
# shuffles); named here too, where its recomputation is
from controller.lab.par.six_card_fortune_house_way import (  # noqa: F401
    DD_RECORDED_HOLD, DD_RECORDED_TALLY, double_down_estimate)
from controller.rules import paytables as pt

def _scf_result_dealer_takes_identical(player, dealer):
    """The alternative to 670a.11(f)(2): a higher high hand with an identical low hand, or
    the reverse, goes to the dealer as identical hands do (670a.6(c))."""
    from controller.rules import paigow as G
    p_high, p_low, p_valid = player
    d_high, d_low, _ = dealer
    if not p_valid:
        return -1
    low = G.compare_low(p_low, d_low)
    if (p_high > d_high and low == 0) or (p_high == d_high and low > 0):
        return -1
    if p_high > d_high and low > 0:
        return 1
    if p_high > d_high or low > 0:
        return 0
    return -1


def paired_simulation(results, shuffles=None, seed=None, setter=None):
    """Each of `results` (player setting, dealer setting) -> +1/0/-1 priced on the SAME
    deals: six_card_fortune_house_way.simulate's shuffles, seed and pairing (so the first,
    its own result, reproduces simulate() at SHUFFLES; the sheet records a longer run), the
    house's win per shuffle one
    observation. `setter` (six cards -> setting) is the house way's set_hand unless given.
    Why paired: the move between two readings is measured on common deals, so its interval
    is far narrower than the two holds' intervals would suggest.
    Returns {'holds': [(mean, (lo, hi))], 'moves': [(mean, (lo, hi))] of each result
    less the first, 'shuffles', 'rounds', 'seed'}."""
    import math
    import random
    from controller.rules import cards as C
    from controller.lab.par import six_card_fortune_house_way as H
    shuffles = H.SHUFFLES if shuffles is None else shuffles
    seed = H.SEED if seed is None else seed
    if shuffles < 2:
        raise ValueError("a confidence interval needs at least two shuffles, not %d" % shuffles)
    rng = random.Random(seed)
    deck = C.joker_deck()
    k = H.HANDS_PER_SHUFFLE
    pairs = k * (k - 1)
    n = len(results)
    obs = [[0.0, 0.0] for _ in range(2 * n)]     # sums and squares: holds, then moves
    tally = {1: 0, 0: 0, -1: 0}                  # the first result's rounds by outcome
    for _ in range(shuffles):
        cards = rng.sample(deck, 6 * k)
        sets = [(setter or H.set_hand)(cards[6 * i:6 * i + 6]) for i in range(k)]
        nets = [0] * n
        for i in range(k):
            for j in range(k):
                if i != j:
                    for r, f in enumerate(results):
                        x = f(sets[i], sets[j])
                        nets[r] += x
                        if not r:
                            tally[x] += 1
        xs = [-x / pairs for x in nets]
        xs += [x - xs[0] for x in xs]
        for o, x in zip(obs, xs):
            o[0] += x
            o[1] += x * x

    def est(o):
        mean = o[0] / shuffles
        var = max(0.0, (o[1] - shuffles * mean * mean) / (shuffles - 1))
        half = H.Z95 * math.sqrt(var / shuffles)
        return mean, (mean - half, mean + half)
    return {"holds": [est(o) for o in obs[:n]], "moves": [est(o) for o in obs[n:]],
            "shuffles": shuffles, "rounds": shuffles * pairs, "seed": seed,
            "wins": tally[1], "pushes": tally[0], "losses": tally[-1]}


def _scf_pushes(shuffles=None):
    from controller.lab.par import six_card_fortune_house_way as H
    return paired_simulation((H.result, _scf_result_dealer_takes_identical), shuffles)


def _dd_setting(six):
    """The house way's setting plus whether these six cards qualify as the dealer's for the
    Double Down (a pair of eights or better, 670a.11(g)(1))."""
    from controller.rules import paigow as G
    from controller.lab.par import six_card_fortune_house_way as H
    return H.set_hand(six) + (G.dealer_qualifies_double_down(six),)


def _dd_returned(player, dealer):
    """670a.11(g)(2) as read: returned below the dealer's pair of eights, even on a foul."""
    from controller.lab.par import six_card_fortune_house_way as H
    return H.result(player[:3], dealer[:3]) if dealer[3] else 0


def _dd_lost_on_foul(player, dealer):
    """The alternative: a fouled hand loses the Double Down even when it would be returned."""
    from controller.lab.par import six_card_fortune_house_way as H
    if not dealer[3]:
        return 0 if player[2] else -1
    return H.result(player[:3], dealer[:3])


def _scf_double_down(shuffles=None):
    return paired_simulation((_dd_returned, _dd_lost_on_foul), shuffles, setter=_dd_setting)


def double_down_recomputed():
    """DD_RECORDED_HOLD computed again (the slow test compares the two)."""
    from controller.lab.par import six_card_fortune_house_way as H
    e = paired_simulation((_dd_returned,), H.SHEET_SHUFFLES, setter=_dd_setting)
    return e["holds"][0], (e["wins"], e["pushes"], e["losses"])


# ---- the house way's joker cases (670a.11(d), issue 36) ---------------------------------

def _joker_settings(six):
    """The house way's setting as the sheet takes it (set_hand: the joker low where it and a
    natural ace are interchangeable), then the two alternatives priced against it: (a) the
    natural ace low, as the rules core's dealer house way sets it (alike for the dealer);
    (b) the dealer's straight that the joker completes with 2-3-4-5 valued as 2-3-4-5-6, the
    lowest straight, instead of the wheel."""
    from controller.lab.par import six_card_fortune_house_way as H
    from controller.rules import cards as C
    from controller.rules import paigow as G
    high, low = G.house_way(six)
    base = H.set_hand(six)
    alt_low = (G.evaluate_high(high)[0], low, G.setting_is_valid(high, low))
    wheel_value = base[0]
    rest = [c for c in high if c != G.JOKER]
    if len(rest) == 4 and sorted(C.rank(c) for c in rest) == [0, 1, 2, 3]:
        suits = {C.suit(c) for c in rest}
        six_card = C.make(4, suits.pop() if len(suits) == 1 else (C.suit(rest[0]) + 1) % 4)
        if G.evaluate_high(high)[0] >> G._CAT_SHIFT in (G.STRAIGHT, G.STRAIGHT_FLUSH):
            wheel_value = G.evaluate_high(rest + [six_card])[0]
    return base + alt_low + (wheel_value,)


def _taken(player, dealer):
    from controller.lab.par import six_card_fortune_house_way as H
    return H.result(player[:3], dealer[:3])


def _joker_goes_low(player, dealer):
    from controller.lab.par import six_card_fortune_house_way as H
    return H.result(player[3:6], dealer[3:6])


def _dealer_wheel_as_lowest(player, dealer):
    from controller.lab.par import six_card_fortune_house_way as H
    return H.result(player[:3], (dealer[6],) + dealer[1:3])


def _scf_ace_or_joker_low(shuffles=None):
    return paired_simulation((_taken, _joker_goes_low), shuffles, setter=_joker_settings)


def _scf_joker_wheel(shuffles=None):
    return paired_simulation((_taken, _dealer_wheel_as_lowest), shuffles,
                             setter=_joker_settings)


# ---- Six-Card Fortune's joker (670a.6(a)), exact over all C(53, 6) hands ----------------

_SCF_COUNTS = {}
SCF_PROGRESSIVE_WAGER = 100         # cents: the $1 Progressive Payout Wager of 670a.12(d)(4)


def scf_counts(wild):
    """{hand: six-card hands} with the joker as the firmware reads it (a bug completing
    straights and flushes, six_card_fortune.best_hand_counts, valued by paigow itself)
    or as a wild card (six_card_fortune_joker); counted once per process, about a second each."""
    if wild not in _SCF_COUNTS:
        from controller.lab.par import six_card_fortune, six_card_fortune_joker as scf_joker
        _SCF_COUNTS[wild] = (scf_joker.best_hand_counts() if wild
                             else six_card_fortune.best_hand_counts())
    return _SCF_COUNTS[wild]


def _scf_hold(wager):
    from math import comb
    table = pt.get(pt.SCF, wager)
    meter = pt.PROGRESSIVE_MINIMUMS[pt.SCF]["reset"]

    def hold(wild):
        return 1 - paytable_return(table, scf_counts(wild), comb(53, 6), meter,
                                   SCF_PROGRESSIVE_WAGER)
    return lambda: (hold(False), hold(True))


READINGS = [
    SimulatedReading("scf-pushes", "A higher high hand with an identical low hand, or the "
                     "reverse, is a push (670a.11(f))",
                     "Six-Card Fortune Wager under the house way",
                     "a push", "the dealer's (identical hands go to the dealer, 670a.6(c))",
                     simulate=_scf_pushes),
    SimulatedReading("scf-double-down-returned", "A Double Down is returned when the dealer "
                     "holds less "
            "than a pair of eights, even on a foul (670a.11(g)(2))",
            "Six-Card Fortune Double Down, placed on every hand, under the house way "
            "(a setting by the house way never fouls, so the two readings part only for a "
            "player who sets his own hand)", "returned", "lost on a foul",
            simulate=_scf_double_down),
    SimulatedReading("scf-ace-or-joker-low", "Where the house way puts one card of an "
                     "ace-and-joker pair low, a player setting as the dealer must puts the "
                     "joker low: the highest ranking card (670a.11(d)(1)), a joker low hand "
                     "outranking an ace (670a.6(c))",
                     "Six-Card Fortune Wager under the house way (for the dealer the two are "
                     "alike, no other hand holding the joker)",
                     "the joker low", "the natural ace low",
                     simulate=_scf_ace_or_joker_low),
    SimulatedReading("scf-joker-wheel", "The joker with 2-3-4-5 is the wheel, the second "
                     "highest straight (670a.6(a), (b)(7)); 'the lowest possible straight' "
                     "(670a.11(d)(2)) chooses among the cards, not the joker's value",
                     "Six-Card Fortune Wager under the house way",
                     "the dealer's joker straight valued at its best, the wheel",
                     "valued as 2-3-4-5-6, the lowest straight",
                     simulate=_scf_joker_wheel),
    MultiReading("scf-joker", "The joker completes straights and flushes only, as the "
                 "highest rank not held (670a.6(a))",
                 "Fortune Bonus, Insurance and Progressive (670a.12), exact over all "
                 "22,957,480 six-card hands",
                 "an ace that completes straights and flushes",
                 "a wild card: any card not in the hand, so a pair and the joker are three "
                 "of a kind",
                 [("Fortune Bonus (670a.12(b)(1))", _scf_hold("fortune_bonus")),
                  ("Insurance (670a.12(c))", _scf_hold("insurance")),
                  ("Progressive (670a.12(d)(1), a $1 wager with the meter at its $5,000 "
                   "reset, 670a.12(d)(2))", _scf_hold("progressive"))],
                 note="The Envy Bonuses are paid per other player and left out."),
]
