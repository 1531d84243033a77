"""The hold under each reading of docs/interpretations.md that moves money, and under its
alternative (issue 19).

Why: a reading of a silent or loose text is a choice the certificate holder files. A choice
that turns a wager's hold negative, or moves it by more than a tenth of a percent, is one a
lab and a regulator must see with its figure; one that does not can be argued on the text
alone. Each Reading below prices both sides with the par machinery, and
tests/par/test_readings.py checks that docs/interpretations.md prints exactly the figures
this module computes (`render()`), flagged where they cross the line.

Flop Poker is priced exactly under the optimal Flop decision (flop_poker_optimal, solved
under each reading); Six-Card Fortune under the house way by a seeded simulation
(SimulatedReading: both readings on the same deals, each figure with n and its 95% CI,
flagged unless the sample rules the line out). A reading whose hold the par machinery
cannot price yet is listed with `pending` saying what it waits for; its line says so
instead of a figure.
"""

from fractions import Fraction

from controller.par import blackjack_strategy as strategy
from controller.rules import paytables as pt

FLAG_MOVE = Fraction(1, 1000)       # a tenth of a percent of the wager


class Reading:
    def __init__(self, key, title, wager, taken, alternative, holds=None, pending=None):
        self.key = key
        self.title = title              # the reading, as docs/interpretations.md words it
        self.wager = wager              # what the hold is of
        self.taken = taken              # the reading the firmware takes
        self.alternative = alternative  # the reading priced against it
        self.holds = holds              # () -> (hold taken, hold alternative), fractions of 1
        self.pending = pending          # why there is no figure yet

    def figures(self):
        if self.holds is None:
            return None
        taken, alternative = self.holds()
        return float(taken), float(alternative)

    def flagged(self):
        f = self.figures()
        if f is None:
            return False
        taken, alternative = f
        return taken < 0 or alternative < 0 or abs(taken - alternative) > float(FLAG_MOVE)

    def line(self):
        """The line docs/interpretations.md carries for this reading."""
        f = self.figures()
        if f is None:
            return "- `%s` %s: hold pending (%s)." % (self.key, self.wager, self.pending)
        taken, alternative = f
        flag = ""
        if self.flagged():
            why = []
            if taken < 0 or alternative < 0:
                why.append("a negative hold")
            if abs(taken - alternative) > float(FLAG_MOVE):
                why.append("moves the hold by %.2f%%" % (100 * abs(taken - alternative)))
            flag = " **FLAGGED: %s.**" % " and ".join(why)
        return ("- `%s` %s: %.4f%% as read (%s); %.4f%% otherwise (%s).%s"
                % (self.key, self.wager, 100 * taken, self.taken, 100 * alternative,
                   self.alternative, flag))


class SlowReading(Reading):
    """An exact reading whose alternative takes seconds of numpy at full size (too slow
    for the default suite): `fast_taken` gives the hold as read by a quicker route, which
    the fast suite checks against the document's line; the whole line is checked under
    TABLECTL_SLOW=1, and the method on reduced decks against brute force."""

    def __init__(self, *args, **kw):
        self.fast_taken = kw.pop("fast_taken")
        Reading.__init__(self, *args, **kw)
        self._holds = None

    def figures(self):
        if self._holds is None:
            self._holds = Reading.figures(self)
        return self._holds


class MultiReading(Reading):
    """One reading that moves several wagers (the joker of 670a.6(a) is read once for
    the Fortune Bonus, Insurance and Progressive): `parts` is [(wager, holds)], each
    priced and flagged on its own by the rule above, on one line."""

    def __init__(self, key, title, wager, taken, alternative, parts, note=None):
        Reading.__init__(self, key, title, wager, taken, alternative)
        self.parts = parts
        self.note = note
        self._figures = None

    def part_figures(self):
        if self._figures is None:
            self._figures = [(w, tuple(float(x) for x in holds())) for w, holds in self.parts]
        return self._figures

    def figures(self):
        return [f for _, f in self.part_figures()]

    @staticmethod
    def _why(taken, alternative):
        why = []
        if taken < 0 or alternative < 0:
            why.append("a negative hold")
        if abs(taken - alternative) > float(FLAG_MOVE):
            why.append("moves the hold by %.2f%%" % (100 * abs(taken - alternative)))
        return why

    def flagged(self):
        return any(self._why(*f) for f in self.figures())

    def line(self):
        out = []
        for wager, (taken, alternative) in self.part_figures():
            why = self._why(taken, alternative)
            flag = " **FLAGGED: %s.**" % " and ".join(why) if why else ""
            out.append("%s: %.4f%% as read; %.4f%% otherwise.%s"
                       % (wager, 100 * taken, 100 * alternative, flag))
        return ("- `%s` %s, as read (%s) and otherwise (%s): %s%s"
                % (self.key, self.wager, self.taken, self.alternative, " ".join(out),
                   " " + self.note if self.note else ""))


class SimulatedReading(Reading):
    """A reading priced by a seeded simulation on common deals: each hold carries its 95%
    confidence interval, and so does the move between them (measured pair by pair).

    Flag logic, conservative because the flag is what a lab must look at: flagged unless
    the sample RULES OUT the line, i.e. flagged when a hold's interval reaches below zero
    or the move's interval reaches past a tenth of a percent either way. Not flagged only
    when both holds' intervals lie above zero and the move's inside (-0.1%, +0.1%)."""

    def __init__(self, *args, **kw):
        self.simulate = kw.pop("simulate")   # (shuffles=None) -> paired_simulation(...)
        Reading.__init__(self, *args, **kw)
        self._full = None

    def estimate(self, shuffles=None):
        if shuffles is not None:
            return self.simulate(shuffles)
        if self._full is None:
            self._full = self.simulate()
        return self._full

    def figures(self, shuffles=None):
        e = self.estimate(shuffles)
        return e["holds"][0][0], e["holds"][1][0]

    def reasons(self, shuffles=None):
        e = self.estimate(shuffles)
        why = []
        if any(ci[0] < 0 for _, ci in e["holds"]):
            why.append("a hold whose 95% CI reaches below zero")
        mean, (lo, hi) = e["moves"][1]
        if hi > float(FLAG_MOVE) or lo < -float(FLAG_MOVE):
            why.append("a move of %.2f%% whose 95%% CI reaches past 0.1%%" % (100 * abs(mean)))
        return why

    def flagged(self, shuffles=None):
        return bool(self.reasons(shuffles))

    def line(self, shuffles=None):
        e = self.estimate(shuffles)
        (t, tci), (a, aci) = e["holds"]
        mean, (lo, hi) = e["moves"][1]
        why = self.reasons(shuffles)
        flag = " **FLAGGED: %s.**" % " and ".join(why) if why else ""
        return ("- `%s` %s: %.4f%% as read (%s; 95%% CI %.4f%% to %.4f%%); %.4f%% otherwise "
                "(%s; 95%% CI %.4f%% to %.4f%%); move %+.4f%% (95%% CI %+.4f%% to %+.4f%%, "
                "paired); simulated, n = %s rounds (%s shuffles, seed %d).%s"
                % (self.key, self.wager, 100 * t, self.taken, 100 * tci[0], 100 * tci[1],
                   100 * a, self.alternative, 100 * aci[0], 100 * aci[1], 100 * mean,
                   100 * lo, 100 * hi, format(e["rounds"], ","), format(e["shuffles"], ","),
                   e["seed"], flag))


# ---- the blackjack games, under basic strategy -------------------------------------------

def _edge(rules):
    return Fraction(strategy.solve(rules)[1].house_edge())


def _both(make, **alternative):
    return lambda: (_edge(make()), _edge(make(**alternative)))


def _dab_double_down():
    return (_edge(strategy.double_attack_rules({"surrender_double_down": "half"})),
            _edge(strategy.double_attack_rules({"surrender_double_down": "returned"})))


# ---- Flop Poker, under the optimal Flop decision (583.11(d)(2)) ----------------------------

def _flop_hold(below_jacks):
    from controller.par import flop_poker_optimal as FO
    rows, deals, _ = FO.rows(FO.Solver(below_jacks=below_jacks))
    return -sum(Fraction(net) * n for _, _, n, net in rows) / deals


def _flop_below_jacks():
    return _flop_hold("lost"), _flop_hold("returned")


# ---- Six-Card Fortune, under the house way, by seeded simulation (670a.11(f)) -------------

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
    its own result, reproduces the sheet's figure), the house's win per shuffle one
    observation. `setter` (six cards -> setting) is the house way's set_hand unless given. Why paired: the move between two readings is measured on common deals,
    so its interval is far narrower than the two holds' intervals would suggest.
    Returns {'holds': [(mean, (lo, hi))], 'moves': [(mean, (lo, hi))] of each result
    less the first, 'shuffles', 'rounds', 'seed'}."""
    import math
    import random
    from controller.rules import cards as C
    from controller.par import six_card_fortune_house_way as H
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
    for _ in range(shuffles):
        cards = rng.sample(deck, 6 * k)
        sets = [(setter or H.set_hand)(cards[6 * i:6 * i + 6]) for i in range(k)]
        nets = [0] * n
        for i in range(k):
            for j in range(k):
                if i != j:
                    for r, f in enumerate(results):
                        nets[r] += f(sets[i], sets[j])
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
            "shuffles": shuffles, "rounds": shuffles * pairs, "seed": seed}


def _scf_pushes(shuffles=None):
    from controller.par import six_card_fortune_house_way as H
    return paired_simulation((H.result, _scf_result_dealer_takes_identical), shuffles)


def _dd_setting(six):
    """The house way's setting plus whether these six cards qualify as the dealer's for the
    Double Down (a pair of eights or better, 670a.11(g)(1))."""
    from controller.rules import paigow as G
    from controller.par import six_card_fortune_house_way as H
    return H.set_hand(six) + (G.dealer_qualifies_double_down(six),)


def _dd_returned(player, dealer):
    """670a.11(g)(2) as read: returned below the dealer's pair of eights, even on a foul."""
    from controller.par import six_card_fortune_house_way as H
    return H.result(player[:3], dealer[:3]) if dealer[3] else 0


def _dd_lost_on_foul(player, dealer):
    """The alternative: a fouled hand loses the Double Down even when it would be returned."""
    from controller.par import six_card_fortune_house_way as H
    if not dealer[3]:
        return 0 if player[2] else -1
    return H.result(player[:3], dealer[:3])


def _scf_double_down(shuffles=None):
    return paired_simulation((_dd_returned, _dd_lost_on_foul), shuffles, setter=_dd_setting)


# ---- Six-Card Fortune's joker (670a.6(a)), exact over all C(53, 6) hands ----------------

_SCF_COUNTS = {}
SCF_PROGRESSIVE_WAGER = 100         # cents: the $1 Progressive Payout Wager of 670a.12(d)(4)


def scf_counts(wild):
    """{hand: six-card hands} with the joker as the firmware reads it (a bug completing
    straights and flushes, six_card_fortune.best_hand_counts, valued by paigow itself)
    or as a wild card (six_card_fortune_joker); counted once per process, about a second each."""
    if wild not in _SCF_COUNTS:
        from controller.par import six_card_fortune, six_card_fortune_joker as scf_joker
        _SCF_COUNTS[wild] = (scf_joker.best_hand_counts() if wild
                             else six_card_fortune.best_hand_counts())
    return _SCF_COUNTS[wild]


def paytable_return(table, counts, combinations, meter=None, wager=None):
    """Exact expected return per unit wagered of a paytable over {hand: count}: "to 1"
    returns the stake with the odds, "for 1" the amount; a meter share is priced with
    the meter at `meter` cents on a wager of `wager` cents (the reset amount, so a
    floor on the return a lab can check)."""
    back = Fraction(0)
    for hand, pay in table.rows:
        n = counts.get(hand, 0)
        if pay.kind == pt.TO:
            back += n * (1 + Fraction(pay.num, pay.den))
        elif pay.kind == pt.FOR:
            back += n * pay.num
        elif pay.kind == pt.METER:
            if meter is None:
                raise ValueError("%s pays a share of the meter: price it at a stated meter"
                                 % table.wager)
            back += n * Fraction(pay.num, 100) * Fraction(meter, wager)
        else:
            raise ValueError("%s: cannot price %r per unit" % (table.wager, pay))
    return back / combinations


def _scf_hold(wager):
    from math import comb
    table = pt.get(pt.SCF, wager)
    meter = pt.PROGRESSIVE_MINIMUMS[pt.SCF]["reset"]

    def hold(wild):
        return 1 - paytable_return(table, scf_counts(wild), comb(53, 6), meter,
                                   SCF_PROGRESSIVE_WAGER)
    return lambda: (hold(False), hold(True))


# ---- Raise It Up, under the optimal strategy (669a.11(f)) ---------------------------------

def _riu_pair_plus(letter="A"):
    """(hold lost on a fold, hold kept on a fold) of the Ante, Blind, Play and a Pair Plus
    equal to the Ante together, per unit of the Ante, each under its own optimal strategy.

    Why it is exact: a three-card start's state (raise_it_up_optimal.key_of) holds its
    ranks and, when suited, its suit's ranks, so it fixes the Pair Plus hand. With the Pair
    Plus lost on a fold, folding costs its net w plus the stake: the solver is re-run with
    that extra cost in the fold decision, once per Pair Plus payout, its sums shared."""
    from controller.par import raise_it_up_optimal as RO
    from controller.rules import raise_it_up as R
    base = RO.Solver()
    base.solve()
    table = pt.get(pt.RIU, "pair_plus", letter)
    solvers = {}
    kept = lost = Fraction(0)
    hands = 0
    for key, weight in base.starts().items():
        three = base.representative(key)[:3]
        hand = R.pair_plus_hand(three)
        pay = table.pay(hand) if hand else None
        w = Fraction(pay.num, pay.den) if pay else Fraction(-1)
        per = Fraction(RO.UNIT * base.completions(3))
        kept += weight * (Fraction(base.best(3, key)[0]) / per + w)
        if w not in solvers:
            solvers[w] = _FoldCosts(base, (w + 1) * RO.UNIT)
        lost += weight * (Fraction(solvers[w].best(3, key)[0]) / per + w)
        hands += weight
    return -lost / hands, -kept / hands


def _riu_progressive():
    from controller.par import raise_it_up_optimal as RO
    from controller.par import raise_it_up_progressive as RP
    return RP.holds(RO.full_rows()[2])


def _riu_progressive_taken():
    from fractions import Fraction as F
    from controller.par import raise_it_up_optimal as RO
    from controller.par import raise_it_up_progressive as RP
    total, deals, _ = RP.three_card_return(RO.full_rows()[2])
    return 1 - F(total) / deals


def _fold_costs_class():
    from controller.par import raise_it_up_optimal as RO

    class FoldCosts(RO.Solver):
        """A Solver whose fold also forfeits `extra` half-Ante units (a side wager), sharing
        the base solver's states and sums (they do not depend on the fold)."""

        def __init__(self, base, extra):
            self.__dict__.update(base.__dict__)
            self._best = [dict() for _ in range(7)]
            self.fold_extra = extra

    return FoldCosts


def _FoldCosts(base, extra):
    return _fold_costs_class()(base, extra)


# ---- three-card hands (583.6(d), 669a.6(c), 583.12(c), 669a.12(a)) -------------------------

def three_card_counts(a23=True, akq=True, royal=False):
    """{hand: count} of the 22,100 three-card hands, counted by ranks and suits here:
    `a23`/`akq` whether A-2-3 and A-K-Q are straights, `royal` A-K-Q suited apart."""
    from itertools import combinations
    out = {"three_of_a_kind": 13 * 4, "pair": 13 * 6 * 12 * 4}
    for ranks in combinations(range(13), 3):        # 0..12 for 2..A
        r = set(ranks)
        run = max(ranks) - min(ranks) == 2
        if r == {12, 0, 1}:
            run = a23
        if r == {10, 11, 12}:
            run = akq
        suited, unsuited = 4, 64 - 4
        if run:
            key = "royal" if royal and r == {10, 11, 12} else "straight_flush"
            out[key] = out.get(key, 0) + suited
            out["straight"] = out.get("straight", 0) + unsuited
        else:
            out["flush"] = out.get("flush", 0) + suited
    return out


def _three_card_hold(game, wager, letter=None, **how):
    table = pt.get(game, wager, letter) if letter else pt.get(game, wager)
    counts = three_card_counts(**how)
    back = Fraction(0)
    for hand, pay in table.rows:
        back += counts.get(hand, 0) * (1 + Fraction(pay.num, pay.den))
    return 1 - back / 22100


def _pair_plus_straights():
    return (_three_card_hold(pt.RIU, "pair_plus", "A"),
            _three_card_hold(pt.RIU, "pair_plus", "A", a23=False))


def _bonus_straights():
    return (_three_card_hold(pt.FLOP, "three_card_bonus", royal=True),
            _three_card_hold(pt.FLOP, "three_card_bonus", royal=True, a23=False))


def _bonus_royal():
    return (_three_card_hold(pt.FLOP, "three_card_bonus", royal=True),
            _three_card_hold(pt.FLOP, "three_card_bonus", royal=False))


DAB = strategy.double_attack_rules
BJ = strategy.blackjack_rules

READINGS = [
    Reading("dab-surrender-double-down",
            "A surrender after doubling collects half of the Double Down Wager (581.9(b))",
            "Double Attack base game under basic strategy",
            "half the Double Down collected", "the Double Down returned",
            holds=_dab_double_down),
    Reading("dab-split-not-blackjack", "A split hand is never a Blackjack (581.1)",
            "Double Attack base game under basic strategy",
            "a split ace and king is 21", "a Blackjack paid 1 to 1",
            holds=_both(DAB, split_blackjack=True)),
    Reading("bj-split-not-blackjack", "A split hand is never a Blackjack (633a.1 as 581.1)",
            "Blackjack Wager under basic strategy, default options",
            "a split ace and ten is 21", "a Blackjack paid 3 to 2",
            holds=_both(BJ, split_blackjack=True)),
    Reading("dab-bust-loses", "A player over 21 loses even when the dealer busts (581.7(o)(1))",
            "Double Attack base game under basic strategy",
            "the player's bust loses", "a tie when both bust",
            holds=_both(DAB, bust_pushes_on_dealer_bust=True)),
    Reading("bj-bust-loses", "A player over 21 loses whatever the dealer's hand (633a.7(p),(q))",
            "Blackjack Wager under basic strategy, default options",
            "the player's bust loses", "a tie when both bust",
            holds=_both(BJ, bust_pushes_on_dealer_bust=True)),
    Reading("dab-soft-17", "The dealer stands on every 17, soft 17 included (581.7(n))",
            "Double Attack base game under basic strategy",
            "stands on soft 17", "draws to soft 17",
            holds=_both(DAB, hit_soft_17=True)),
    Reading("three-card-straights-pair-plus",
            "Three-card straights include A-2-3 and A-K-Q (669a.6(c))",
            "Pair Plus, paytable A (669a.12(a))",
            "A-2-3 a straight", "A-2-3 ace high, no straight",
            holds=_pair_plus_straights),
    Reading("three-card-straights-bonus",
            "Three-card straights include A-2-3 and A-K-Q (583.6(d))",
            "Three Card Bonus (583.12(c))",
            "A-2-3 a straight", "A-2-3 ace high, no straight",
            holds=_bonus_straights),
    Reading("three-card-bonus-royal",
            "Three Card Bonus pays A-K-Q suited as its royal (583.12(c))",
            "Three Card Bonus (583.12(c))",
            "A-K-Q suited the royal, 100 to 1", "a straight flush, 50 to 1",
            holds=_bonus_royal),
    Reading("flop-below-jacks", "A hand below a pair of jacks loses the Ante and the Flop "
            "Wager (583.11(d)(2))", "Flop Poker Ante and Flop under the optimal Flop decision",
            "both lost", "both returned", holds=_flop_below_jacks),
    SlowReading("riu-progressive-three-cards", "The Progressive Payout Wager is paid on the "
                "player's three cards (669a.11(i)(3)(i))",
                "Raise It Up Progressive Payout Wager, exact, a $1 wager with the meter at "
                "its $1,000 reset (669a.12(e)(3)), forfeited on the folds of the base "
                "game's optimal strategy (669a.11(g))",
                "the player's three cards",
                "the best three-card hand of the six cards with the community cards",
                holds=_riu_progressive, fast_taken=_riu_progressive_taken),
    Reading("riu-fold-loses-pair-plus", "A fold loses the Pair Plus with the Ante and Blind "
            "(669a.11(f))", "Raise It Up Ante, Blind, Play and a Pair Plus (paytable A) equal to the "
            "Ante, per unit of the Ante, optimal play under each reading",
            "lost on a fold", "kept on a fold",
            holds=_riu_pair_plus),
    SimulatedReading("scf-pushes", "A higher high hand with an identical low hand, or the "
                     "reverse, is a push (670a.11(f))",
                     "Six-Card Fortune Wager under the house way",
                     "a push", "the dealer's (identical hands go to the dealer, 670a.6(c))",
                     simulate=_scf_pushes),
    SimulatedReading("scf-double-down-returned", "A Double Down is returned when the dealer holds less "
            "than a pair of eights, even on a foul (670a.11(g)(2))",
            "Six-Card Fortune Double Down, placed on every hand, under the house way "
            "(a setting by the house way never fouls, so the two readings part only for a "
            "player who sets his own hand)", "returned", "lost on a foul",
            simulate=_scf_double_down),
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


def by_key(key):
    for r in READINGS:
        if r.key == key:
            return r
    raise KeyError(key)


def render():
    """The lines of docs/interpretations.md's section "Holds under each reading", at full
    size (the simulations at six_card_fortune_house_way.SHUFFLES: about a minute)."""
    return [r.line() for r in READINGS]
