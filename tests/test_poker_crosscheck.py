"""The evaluator's categories and ordering against an independent library (treys),
on random hands from a fixed seed, and its category counts over every five-card hand."""
import random

import pytest

from controller.rules import cards as C
from controller.rules import poker as P

treys = pytest.importorskip("treys")

SAMPLES = 120_000
# treys' rank classes: 0 royal flush, 1 straight flush ... 9 high card
TREYS_CLASS = {P.ROYAL_FLUSH: 0, P.STRAIGHT_FLUSH: 1, P.FOUR_OF_A_KIND: 2, P.FULL_HOUSE: 3,
               P.FLUSH: 4, P.STRAIGHT: 5, P.THREE_OF_A_KIND: 6, P.TWO_PAIR: 7, P.PAIR: 8,
               P.HIGH_CARD: 9}


def _to_treys(card):
    return treys.Card.new(C.code(card))


def _check_against_treys(size, seed):
    rng = random.Random(seed)
    deck = C.standard_deck()
    evaluator = treys.Evaluator()
    ours, theirs = [], []
    for _ in range(SAMPLES):
        hand = rng.sample(deck, size)
        t = [_to_treys(c) for c in hand]
        ours.append(P.best_value(hand))
        theirs.append(evaluator.evaluate(t[:2], t[2:]))
    for o, t in zip(ours, theirs):
        assert TREYS_CLASS[P.category(o)] == evaluator.get_rank_class(t), (hex(o), t)
    # Ordering: our values and treys' ranks (lower is better) sort the sample identically,
    # ties included.
    pairs = sorted(zip(ours, theirs))
    for (o1, t1), (o2, t2) in zip(pairs, pairs[1:]):
        if o1 == o2:
            assert t1 == t2
        else:
            assert t1 > t2, (hex(o1), t1, hex(o2), t2)


@pytest.mark.reg("583.6(b)", "583.6(c)")
def test_five_card_evaluation_agrees_with_treys():
    _check_against_treys(5, seed=583)


@pytest.mark.reg("669a.6(b)")
def test_best_five_of_six_agrees_with_treys():
    _check_against_treys(6, seed=669)


@pytest.mark.reg("583.6(b)", "637a(d)")
def test_best_five_of_seven_agrees_with_treys():
    _check_against_treys(7, seed=637)


@pytest.mark.reg("583.6(b)")
def test_category_counts_over_all_2598960_five_card_hands():
    deck = C.standard_deck()
    counts = [0] * 10
    ev = P.evaluate5
    n = 52
    for a in range(n):
        ca = deck[a]
        for b in range(a + 1, n):
            cb = deck[b]
            for c in range(b + 1, n):
                cc = deck[c]
                for d in range(c + 1, n):
                    cd = deck[d]
                    for e in range(d + 1, n):
                        counts[ev((ca, cb, cc, cd, deck[e])) >> 20] += 1
    assert counts == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]
