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


# ---- every initial-cards wager of 633a.7(g), card by card on a reduced multi-deck shoe ------

_HOLE = object()     # the hand waits for the hole card (the reader, or (g)(4)'s exposure)


def _value(c):
    r = cards.rank(c)
    return 11 if r == cards.ACE else min(r + 2, 10)


def _two_card_total(a, b):
    t = _value(a) + _value(b)
    return 12 if t == 22 else t


def _ten_or_ace(c):
    return _value(c) >= 10


def _blackjack(a, b):
    return _two_card_total(a, b) == 21


def _code(c):
    return cards.code(c)


def _twenty_point(p, up, hole, pair_code, pair_row, identical_rows):
    """(g)(1) and (g)(6) read alone: a two-card 20; the named pair against a ten-value or
    ace up card waits for the reader and wins its own row with a dealer Blackjack; two
    identical cards their row; one suit; any other."""
    a, b = p
    if _two_card_total(a, b) != 20:
        return ()
    if _code(a) == _code(b) == pair_code:
        if not _ten_or_ace(up):
            return (pair_row,)
        if hole is None:
            return _HOLE
        return (pair_row + ("_dealer_blackjack" if _blackjack(up, hole) else ""),)
    if a == b:
        return (identical_rows(a),)
    return ("suited_20",) if cards.suit(a) == cards.suit(b) else ("any_20",)


def _lucky_ladies(p, up, hole):
    return _twenty_point(p, up, hole, "Qh", "queen_of_hearts_pair", lambda c: "matched_20")


def _kings_bounty(p, up, hole):
    return _twenty_point(p, up, hole, "Ks", "two_kings_of_spades",
                         lambda c: "suited_kings" if cards.rank(c) == cards.KING
                         else "suited_queens_jacks_or_tens")


def _match_the_dealer(p, up, hole):
    return tuple(("suited_match" if cards.suit(c) == cards.suit(up) else "unsuited_match")
                 for c in p if cards.rank(c) == cards.rank(up))


def _in_between(p, up, hole):
    ra, rb, ru = sorted([cards.rank(p[0]), cards.rank(p[1])]) + [cards.rank(up)]
    if ra == rb == ru:
        return ("triple_match",)
    return ("spread_%d" % (rb - ra - 1),) if ra < ru < rb else ()


def _king_queen_suited(a, b):
    return (cards.suit(a) == cards.suit(b)
            and {cards.rank(a), cards.rank(b)} == {cards.KING, cards.QUEEN})


def _royal_match_21(p, up, hole):
    a, b = p
    if _king_queen_suited(a, b):
        if cards.rank(up) not in (cards.KING, cards.QUEEN):
            return ("royal_match",)
        if hole is None:
            return _HOLE
        return ("royal_match",) + (("crown_treasure_bonus",) if _king_queen_suited(up, hole)
                                   else ())
    return ("suited_match",) if cards.suit(a) == cards.suit(b) else ()


def _bet_the_set_21(p, up, hole):
    a, b = p
    if cards.rank(a) != cards.rank(b):
        return ()
    return ("suited_pair",) if cards.suit(a) == cards.suit(b) else ("pair",)


def _house_money(p, up, hole):
    a, b = p
    ranks = {cards.rank(a), cards.rank(b)}
    suited = cards.suit(a) == cards.suit(b)
    if suited and ranks == {cards.ACE, cards.KING}:
        return ("ace_king_suited",)
    if len(ranks) == 1:
        return ("pair",)
    lo, hi = sorted(ranks)
    if hi - lo == 1 or (lo, hi) == (0, cards.ACE):
        return ("two_card_straight_flush",) if suited else ("two_card_straight",)
    return ()


def _three_card_poker(p, up, hole):
    name = _three_card_poker_by_the_text([p[0], p[1], up])
    return (name,) if name else ()


BY_THE_TEXT = {
    W.LUCKY_LADIES: _lucky_ladies, W.MATCH_THE_DEALER: _match_the_dealer,
    W.IN_BETWEEN: _in_between, W.ROYAL_MATCH_21: _royal_match_21,
    W.BET_THE_SET_21: _bet_the_set_21, W.KINGS_BOUNTY: _kings_bounty,
    W.THREE_CARD_POKER: _three_card_poker, W.HOUSE_MONEY: _house_money,
}
# Three copies of seven cards: two queens of hearts and two kings of spades (the pairs that
# wait for the reader), identical tens and faces, K-Q and A-K suited, three-card flushes
# with a pair, suited trips, straights with and without the ace, every In Between spread
# kind, 20s of one suit and of two.
REDUCED_SHOE = [cards.parse(c) for c in ("Qh", "Kh", "Ks", "Jh", "Ah", "9h", "2c")] * 3


def _brute(decide, shoe):
    """{hands paid: ordered draws of four physical cards} (player, player, up, hole)."""
    n = len(shoe)
    out = {}
    idx = range(n)
    for i in idx:
        for j in idx:
            if j == i:
                continue
            for k in idx:
                if k in (i, j):
                    continue
                p, up = (shoe[i], shoe[j]), shoe[k]
                hands = decide(p, up, None)
                if hands is not _HOLE:
                    out[hands] = out.get(hands, 0) + n - 3
                    continue
                for m in idx:
                    if m not in (i, j, k):
                        hands = decide(p, up, shoe[m])
                        out[hands] = out.get(hands, 0) + 1
    return out


@pytest.mark.reg("633a.7(g)")
@pytest.mark.parametrize("wager", sorted(BY_THE_TEXT))
def test_each_initial_cards_wager_counts_every_physical_card_of_a_reduced_shoe(wager):
    brute = _brute(BY_THE_TEXT[wager], REDUCED_SHOE)
    counts, combos = par.initial_cards_counts(wager, None, shoe=REDUCED_SHOE)
    assert {k: v for k, v in counts.items() if v} == brute
    n = len(REDUCED_SHOE)
    assert combos == n * (n - 1) * (n - 2) * (n - 3) == sum(brute.values())


def test_the_reduced_shoe_reaches_the_identical_card_hands():
    """The shoe above is worth brute-forcing only if it deals what one deck cannot."""
    seen = set()
    for wager, decide in BY_THE_TEXT.items():
        seen.update(_brute(decide, REDUCED_SHOE))
    for hands in [("matched_20",), ("suited_kings",), ("suited_queens_jacks_or_tens",),
                  ("queen_of_hearts_pair_dealer_blackjack",), ("two_kings_of_spades",),
                  ("royal_match", "crown_treasure_bonus"), ("suited_pair",),
                  ("flush",), ("three_of_a_kind",), ("triple_match",),
                  ("suited_match", "suited_match")]:
        assert hands in seen, hands


# ---- Bust It (581.7(m), 581.12(c)) on a reduced eight-deck Spanish shoe -------------------

def _total(hand):
    hard = sum(1 if cards.rank(c) == cards.ACE else min(cards.rank(c) + 2, 10) for c in hand)
    soft = any(cards.rank(c) == cards.ACE for c in hand) and hard + 10 <= 21
    return hard + 10 if soft else hard


def _bust_it_by_the_text(three):
    """581.7(m) read alone: no third card at 17 or more; a third card that takes the dealer
    over 21 pays by its value, three 8s of one suit, else of one colour, instead."""
    if _total(three[:2]) >= 17:
        return "no third card"
    if _total(three) <= 21:
        return None
    if all(_code(c)[0] == "8" for c in three):
        if len({cards.suit(c) for c in three}) == 1:
            return "eight_eight_eight_suited"
        if len({cards.is_red(c) for c in three}) == 1:
            return "eight_eight_eight_same_color"
    third = _code(three[2])[0]
    return "third_card_face" if third in "JQK" else "third_card_" + third


@pytest.mark.reg("581.7(m)(2)(i)")
def test_bust_it_counts_every_physical_card_of_a_reduced_eight_deck_shoe():
    from controller.lab.par import double_attack as da
    from controller.lab.par.sheet import LOSES
    shoe = [cards.parse(c) for c in ("8h", "8d", "8s", "6c", "9h", "Kd", "Ah")] * 3
    n = len(shoe)
    brute = {}
    for i in range(n):
        for j in range(n):
            if j == i:
                continue
            if _total([shoe[i], shoe[j]]) >= 17:
                brute[LOSES] = brute.get(LOSES, 0) + n - 2
                continue
            for k in range(n):
                if k not in (i, j):
                    hand = _bust_it_by_the_text([shoe[i], shoe[j], shoe[k]]) or LOSES
                    brute[hand] = brute.get(hand, 0) + 1
    counts, combos = da.bust_it_counts(shoe)
    assert {k: v for k, v in counts.items() if v} == brute
    assert combos == n * (n - 1) * (n - 2)
    assert brute["eight_eight_eight_suited"] and brute["eight_eight_eight_same_color"]
