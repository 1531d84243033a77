"""Raise It Up Stud's readings of docs/interpretations.md, under the optimal strategy
(669a.11(f)), and the Pair Plus's straights (669a.6(c))."""

from fractions import Fraction

from controller.lab.par.reading import MultiReading, Reading, SlowReading, three_card_hold
from controller.rules import paytables as pt

def _riu_pair_plus(letter="A"):
    """(hold lost on a fold, hold kept on a fold) of the Ante, Blind, Play and a Pair Plus
    equal to the Ante together, per unit of the Ante, each under its own optimal strategy.

    Why it is exact: a three-card start's state (raise_it_up_optimal.key_of) holds its
    ranks and, when suited, its suit's ranks, so it fixes the Pair Plus hand. With the Pair
    Plus lost on a fold, folding costs its net w plus the stake: the solver is re-run with
    that extra cost in the fold decision, once per Pair Plus payout, its sums shared."""
    from controller.lab.par import raise_it_up_optimal as RO
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
    from controller.lab.par import raise_it_up_optimal as RO
    from controller.lab.par import raise_it_up_progressive as RP
    return RP.holds(RO.full_rows()[2])


def _riu_progressive_taken():
    from fractions import Fraction as F
    from controller.lab.par import raise_it_up_optimal as RO
    from controller.lab.par import raise_it_up_progressive as RP
    total, deals, _ = RP.three_card_return(RO.full_rows()[2])
    return 1 - F(total) / deals


def envy_per_unit():
    """The Envy Bonus one other player's three cards pay a $1 Progressive Payout Wager, as a
    fraction of the wager (669a.12(e)(5)): each suit's A-K-Q is one of the C(52, 3) three-card
    hands, unconditionally (an expectation: linear, whatever the player's own cards)."""
    from controller.rules import settle
    schedules = pt.envy_schedules(pt.RIU, "envy")
    cents = (settle.envy_bonus(schedules, 100, "ace_king_queen_of_spades")
             + 3 * settle.envy_bonus(schedules, 100, "ace_king_queen_suited"))
    return Fraction(cents, 100 * 22100)


def akq_suited_fold_share():
    """The share of the deals from an A-K-Q suited start that the optimal strategy folds
    (computed from the solver, not assumed: it plays three times the Ante at once)."""
    from controller.lab.par import raise_it_up_optimal as RO
    from controller.lab.par import raise_it_up_progressive as RP
    from controller.rules import cards as C
    solver = RO.full_rows()[2]
    key = solver.key_of(C.parse_all(["As", "Ks", "Qs"]))
    folds = RP._folds(solver, 3, key, [dict() for _ in range(7)])
    return Fraction(folds, solver.completions(3))


def _riu_envy_folded(fold_share):
    """(hold, hold) of a $1 Progressive Payout Wager with the Envy Bonus one other player's
    hand pays it: a folded A-K-Q suited kept on the table pays it (as read) or not."""
    def holds():
        hold = _riu_progressive_taken()
        envy = envy_per_unit()
        return hold - envy, hold - envy * (1 - fold_share())
    return holds


def _fold_costs_class():
    from controller.lab.par import raise_it_up_optimal as RO

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


def _pair_plus_straights():
    return (three_card_hold(pt.RIU, "pair_plus", "A"),
            three_card_hold(pt.RIU, "pair_plus", "A", a23=False))


READINGS = [
    Reading("three-card-straights-pair-plus",
            "Three-card straights include A-2-3 and A-K-Q (669a.6(c))",
            "Pair Plus, paytable A (669a.12(a))",
            "A-2-3 a straight", "A-2-3 ace high, no straight",
            holds=_pair_plus_straights),
    SlowReading("riu-progressive-three-cards", "The Progressive Payout Wager is paid on the "
                "player's three cards (669a.11(i)(3)(i))",
                "Raise It Up Progressive Payout Wager, exact, a $1 wager with the meter at "
                "its $1,000 reset (669a.12(e)(3)), forfeited on the folds of the base "
                "game's optimal strategy (669a.11(g))",
                "the player's three cards",
                "the best three-card hand of the six cards with the community cards",
                holds=_riu_progressive, fast_taken=_riu_progressive_taken),
    Reading("riu-fold-loses-pair-plus", "A fold loses the Pair Plus with the Ante and Blind "
            "(669a.11(f))", "Raise It Up Ante, Blind, Play and a Pair Plus (paytable A) equal "
            "to the "
            "Ante, per unit of the Ante, optimal play under each reading",
            "lost on a fold", "kept on a fold",
            holds=_riu_pair_plus),
    MultiReading("riu-envy-folded-hand", "A folded A-K-Q suited left on the table for its "
                 "Progressive Payout or Six Card Bonus Wager still pays the other players "
                 "their Envy Bonus (669a.11(f), (g), 669a.12(e)(5))",
                 "Raise It Up Progressive Payout Wager with the Envy Bonuses one other "
                 "player's hand pays it, a $1 wager with the meter at its $1,000 reset, "
                 "forfeited on the folds of the optimal strategy",
                 "a folded hand kept on the table qualifies",
                 "a folded hand qualifies nobody",
                 [("the other player playing the optimal strategy (which never folds "
                   "A-K-Q suited)", _riu_envy_folded(akq_suited_fold_share)),
                  ("the other player folding every A-K-Q suited he holds with a "
                   "Progressive Payout or Six Card Bonus Wager",
                   _riu_envy_folded(lambda: Fraction(1)))],
                 note="The Envy Bonus is $100 ($500 on $5) for the spades and $25 ($125) for "
                      "another suit, per other player: 175/22,100 of the wager, 0.7919%, "
                      "paid in full as read, less the share folded otherwise."),
]
