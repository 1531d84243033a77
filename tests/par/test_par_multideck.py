"""Hand evaluations on a shoe of more than one deck, where two cards can be identical.

Every evaluator here was first written for one deck, where a hand never holds the same card
twice; a multi-deck shoe deals 7h 7h 9h (issue 36: the table did not pay that Three Card
Poker flush). Each sheet's counts are checked against a brute force over every physical
card of a multi-deck shoe, the hand judged by a definition written here from the text, not
by the rules core.
"""
from fractions import Fraction
from itertools import combinations

import pytest

from controller.lab.par import blackjack as par
from controller.rules import blackjack_side_wagers as W
from controller.rules import cards


def _physical(decks):
    """Every physical card of `decks` standard decks (the same card `decks` times)."""
    return [c for c in cards.standard_deck() for _ in range(decks)]


def _three_card_poker_by_the_text(hand):
    """633a.7(g)(8) read alone: the first of straight flush, three-of-a-kind, straight,
    flush that the three cards form (A-2-3 and A-K-Q straights, no wrap), else None."""
    ranks = sorted(cards.rank(c) for c in hand)
    suits = {cards.suit(c) for c in hand}
    flush = len(suits) == 1
    straight = (len(set(ranks)) == 3 and (ranks[2] - ranks[0] == 2
                                          or ranks == [0, 1, cards.ACE]))
    if straight and flush:
        return "straight_flush"
    if ranks[0] == ranks[2]:
        return "three_of_a_kind"
    if straight:
        return "straight"
    if flush:
        return "flush"
    return None


@pytest.mark.reg("633a.7(g)(8)")
def test_three_card_poker_sheet_counts_every_physical_card_of_a_two_deck_shoe():
    decks = 2
    shoe = _physical(decks)
    n = len(shoe)
    brute = {}
    for hand in combinations(shoe, 3):
        name = _three_card_poker_by_the_text(hand)
        key = (name,) if name else ()
        brute[key] = brute.get(key, 0) + 1
    # The sheet counts ordered draws of four cards: 3! orders of the three, any fourth.
    brute = {k: v * 6 * (n - 3) for k, v in brute.items()}
    counts, combos = par.initial_cards_counts(W.THREE_CARD_POKER, decks)
    assert {k: v for k, v in counts.items() if v} == brute
    assert combos == n * (n - 1) * (n - 2) * (n - 3)
    # the pair-and-flush hands are there, and paid as flushes
    suited_pairs = sum(1 for h in combinations(shoe, 3)
                       if len({cards.suit(c) for c in h}) == 1
                       and len({cards.rank(c) for c in h}) == 2)
    assert suited_pairs > 0


@pytest.mark.reg("633a.7(g)(8)")
def test_the_six_deck_three_card_poker_hold_is_the_fixed_count():
    """Issue 36: 12.7944% (80178/626665) while a suited pair lost; 6.0731%, as an
    independent exact count, once it is paid as the flush it is."""
    (sheet,) = par.side_sheets({"offered": {W.THREE_CARD_POKER: True}})
    assert sheet.house_edge() == Fraction(38058, 626665)
