"""Poker hand evaluation for Flop Poker (583.6), Raise It Up Stud (669a.6) and
the poker room (637a): five-card rankings, best five of N, and three-card
rankings (583.6(d), 669a.6(c)).

A hand's value is an int, higher is better, that carries its category and
tie-breakers: ``category << 20 | r1 << 16 | r2 << 12 | ...`` with ranks 0..12
(2..A) in the order 583.6(c) compares them. An ace is high except in
A-2-3-4-5, the lowest straight (583.6(a), 669a.6(a)).

Hot paths (`evaluate5`, `evaluate7`) are one addition per card and a dict
lookup: a sum of cards is a rank-multiset key plus per-suit counts (see
cards.py). They trust their input; `hand_value` checks it.
"""

import sys

from controller.errors import InvalidHand
from controller.rules import cards as C

# A microcontroller has no room for the 49,205-entry seven-card table: there the
# seven-card path computes from rank counts, which gives the same values.
_SMALL_MEMORY = sys.implementation.name == "micropython"

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, \
    FOUR_OF_A_KIND, STRAIGHT_FLUSH, ROYAL_FLUSH = range(10)

CATEGORY_NAMES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight",
                  "flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush")

_RANKS_DESC = tuple(range(12, -1, -1))
_WEIGHT = tuple(5 ** r for r in range(13))
_MASK = C.RANK_MASK


def category(value):
    return value >> 20


def category_name(value):
    return CATEGORY_NAMES[value >> 20]


def _pack(cat, ranks):
    v = cat
    for i in range(5):
        v = (v << 4) | (ranks[i] if i < len(ranks) else 0)
    return v


def tiebreak_ranks(value):
    """The ranks 583.6(c) compares, most significant first (trailing zeros included)."""
    return [(value >> (16 - 4 * i)) & 15 for i in range(5)]


def _straight_top(mask):
    """Top rank of the highest straight in a 13-bit rank mask, or -1 (A-2-3-4-5 tops at 5)."""
    for top in range(12, 3, -1):
        m = 0x1F << (top - 4)
        if mask & m == m:
            return top
    if mask & 0x100F == 0x100F:   # A, 2, 3, 4, 5
        return 3
    return -1


def _value_from_counts(counts):
    """Best non-flush five-card value from rank counts of five or more cards."""
    quads = []
    trips = []
    pairs = []
    present = []
    mask = 0
    for r in _RANKS_DESC:
        n = counts[r]
        if n:
            present.append(r)
            mask |= 1 << r
            if n >= 4:
                quads.append(r)
            elif n == 3:
                trips.append(r)
            elif n == 2:
                pairs.append(r)
    if quads:
        q = quads[0]
        return _pack(FOUR_OF_A_KIND, [q, _first_other(present, (q,))])
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        rest = trips[1:] + pairs
        return _pack(FULL_HOUSE, [t, max(rest)])
    top = _straight_top(mask)
    if top >= 0:
        return _pack(STRAIGHT, [top])
    if trips:
        t = trips[0]
        return _pack(THREE_OF_A_KIND, [t] + [r for r in present if r != t][:2])
    if len(pairs) >= 2:
        p1, p2 = pairs[0], pairs[1]
        return _pack(TWO_PAIR, [p1, p2, _first_other(present, (p1, p2))])
    if pairs:
        p = pairs[0]
        return _pack(PAIR, [p] + [r for r in present if r != p][:3])
    return _pack(HIGH_CARD, present[:5])


def _first_other(present, used):
    for r in present:
        if r not in used:
            return r
    return 0


def _flush_value(ranks):
    """Best straight flush / royal / flush from the distinct ranks of one suit (five or more)."""
    mask = 0
    for r in ranks:
        mask |= 1 << r
    top = _straight_top(mask)
    if top == C.ACE:
        return _pack(ROYAL_FLUSH, [top])
    if top >= 0:
        return _pack(STRAIGHT_FLUSH, [top])
    desc = [r for r in _RANKS_DESC if mask >> r & 1]
    return _pack(FLUSH, desc[:5])


def _key(ranks):
    k = 0
    for r in ranks:
        k += _WEIGHT[r]
    return k


def _multisets(n, top=12):
    """Rank multisets of size n (each rank at most four times), as count lists."""
    out = []
    counts = [0] * 13

    def walk(r, left):
        if left == 0:
            out.append(list(counts))
            return
        if r < 0:
            return
        for take in range(min(4, left), -1, -1):
            counts[r] = take
            walk(r - 1, left - take)
        counts[r] = 0
    walk(top, n)
    return out


def _subsets(items, k):
    """k-subsets of a list (MicroPython has no itertools)."""
    if k == 0:
        return [[]]
    if len(items) < k:
        return []
    first = items[0]
    return [[first] + s for s in _subsets(items[1:], k - 1)] + _subsets(items[1:], k)


def _key_of_counts(counts):
    k = 0
    for r in range(13):
        k += counts[r] * _WEIGHT[r]
    return k


# Five-card tables: rank-multiset key -> value; distinct-rank key -> flush value.
_RANK5 = {}
for _cnt in _multisets(5):
    _RANK5[_key_of_counts(_cnt)] = _value_from_counts(_cnt)
_FLUSHBEST = {}
for _k in (5, 6, 7):
    for _s in _subsets(list(range(13)), _k):
        _FLUSHBEST[_key(_s)] = _flush_value(_s)
_FLUSH5 = {}
for _s in _subsets(list(range(13)), 5):
    _FLUSH5[_key(_s)] = _flush_value(_s)
_FLUSH5_SUITS = frozenset(5 << (3 * s) for s in range(4))

# Seven-card suit-count fields -> the suit holding five or more, built once.
_FLUSH7_SUIT = {}


_FLUSH6_SUIT = {}


def _fill_flush_suits(table, n):
    for a in range(n + 1):
        for b in range(n + 1 - a):
            for c in range(n + 1 - a - b):
                d = n - a - b - c
                field = a | b << 3 | c << 6 | d << 9
                for s, k in enumerate((a, b, c, d)):
                    if k >= 5:
                        table[field] = s


_fill_flush_suits(_FLUSH7_SUIT, 7)
_fill_flush_suits(_FLUSH6_SUIT, 6)
_RANK7 = {}
_RANK6 = {}


def _rank6():
    """The six-card rank table (18,395 multisets), built on first use."""
    if not _RANK6:
        for cnt in _multisets(6):
            _RANK6[_key_of_counts(cnt)] = _value_from_counts(cnt)
    return _RANK6


def _rank7():
    """The seven-card rank table (49,205 multisets), built on first use."""
    if not _RANK7:
        for cnt in _multisets(7):
            _RANK7[_key_of_counts(cnt)] = _value_from_counts(cnt)
    return _RANK7


def evaluate5(hand):
    """Value of exactly five distinct standard cards (unchecked: the hot path)."""
    a, b, c, d, e = hand
    k = a + b + c + d + e
    if (k >> 31) & 0xFFF in _FLUSH5_SUITS:
        return _FLUSH5[k & _MASK]
    return _RANK5[k & _MASK]


def evaluate7(hand):
    """Value of the best five of exactly seven distinct standard cards (unchecked)."""
    a, b, c, d, e, f, g = hand
    k = a + b + c + d + e + f + g
    v = (_RANK7 or _rank7())[k & _MASK]
    s = _FLUSH7_SUIT.get((k >> 31) & 0xFFF)
    return v if s is None else _with_flush(hand, s, v)


def evaluate6(hand):
    """Value of the best five of exactly six distinct standard cards (unchecked): the
    path Raise It Up's Ante, Blind, Play and Six Card Bonus settle on (669a.11(i))."""
    a, b, c, d, e, f = hand
    k = a + b + c + d + e + f
    v = (_RANK6 or _rank6())[k & _MASK]
    s = _FLUSH6_SUIT.get((k >> 31) & 0xFFF)
    return v if s is None else _with_flush(hand, s, v)


def _with_flush(hand, s, v):
    """The better of v (the best by ranks alone) and the best five of the cards of suit s,
    which has five or more of them: the rare branch of evaluate6 and evaluate7, kept out of
    their straight-line hot path."""
    fk = 0
    for x in hand:
        if (x >> 48) & 3 == s:
            fk += x
    fv = _FLUSHBEST[fk & _MASK]
    return fv if fv > v else v


if _SMALL_MEMORY:
    evaluate7 = lambda hand: _from_counts(hand)  # noqa: E731
    evaluate6 = evaluate7


def best_value(hand):
    """Value of the best five cards of five or more distinct standard cards (unchecked)."""
    n = len(hand)
    if n == 6:
        return evaluate6(hand)
    if n == 5:
        return evaluate5(hand)
    if n == 7:
        return evaluate7(hand)
    return _from_counts(hand)


def _from_counts(hand):
    counts = [0] * 13
    by_suit = ([], [], [], [])
    for x in hand:
        r = (x >> 44) & 15
        counts[r] += 1
        by_suit[(x >> 48) & 3].append(r)
    v = _value_from_counts(counts)
    for ranks in by_suit:
        if len(ranks) >= 5:
            fv = _flush_value(ranks)
            if fv > v:
                v = fv
    return v


def check_hand(hand, sizes, what="hand"):
    if len(hand) not in sizes:
        raise InvalidHand("%s has %d cards; %s expected" % (what, len(hand),
                                                            " or ".join(str(s) for s in sizes)))
    if C.JOKER in hand:
        raise InvalidHand("%s holds the joker, which only Six-Card Fortune uses (670a.3(a))" % what)
    C.check_distinct(hand, what)


def hand_value(hand):
    """Checked evaluation: the best five of 5..7 (or more) distinct standard cards."""
    hand = list(hand)
    check_hand(hand, range(5, 53))
    return best_value(hand)


def best_five(hand):
    """The five cards that make the best hand, highest first, for display and records."""
    hand = list(hand)
    check_hand(hand, range(5, 53))
    best = None
    for five in _subsets(hand, 5):
        v = evaluate5(five)
        if best is None or v > best[0]:
            best = (v, five)
    return best[1]


def compare(a, b):
    """1, 0 or -1 as hand value a ranks above, equal to (a tie, 583.6(c)) or below b."""
    return (a > b) - (a < b)


# ---- Flop Poker: all three of the player's cards and two community cards -------

def best_flop_poker(player3, community3):
    """(value, five cards) of the best hand of the player's three cards and exactly two of
    the three community cards (583.11(d)(2))."""
    player3 = list(player3)
    community3 = list(community3)
    check_hand(player3, (3,), "player's cards")
    check_hand(community3, (3,), "community cards")
    C.check_distinct(player3 + community3, "player's and community cards")
    best = None
    for i in range(3):
        two = [community3[j] for j in range(3) if j != i]
        five = player3 + two
        v = evaluate5(five)
        if best is None or v > best[0]:
            best = (v, five)
    return best


def paytable_hand(value, min_pair_rank):
    """Name of a five-card hand on a Flop (583.12(b)) or Play/Blind (669a.12(c),(d))
    paytable: a pair qualifies only from `min_pair_rank` up (jacks: 'pair_jacks_or_better',
    tens: 'pair_tens_or_better'); None when the hand does not qualify."""
    cat = value >> 20
    if cat == PAIR:
        if ((value >> 16) & 15) < min_pair_rank:
            return None
        return "pair_%s_or_better" % _PAIR_WORDS[min_pair_rank]
    if cat == HIGH_CARD:
        return None
    return CATEGORY_NAMES[cat]


_PAIR_WORDS = {C.TEN: "tens", C.JACK: "jacks"}


# ---- three-card hands: 583.6(d), 669a.6(c) --------------------------------------
# The straight beats the flush. A-2-3 and A-K-Q are both straights (the lowest and
# the highest): the three-card lists define a straight as three cards of
# consecutive rank without the five-card rule's restriction on the ace, as the
# industry's three-card paytables count it.

T_HIGH_CARD, T_PAIR, T_FLUSH, T_STRAIGHT, T_THREE_OF_A_KIND, T_STRAIGHT_FLUSH, T_ROYAL = range(7)
THREE_CARD_NAMES = ("high_card", "pair", "flush", "straight", "three_of_a_kind",
                    "straight_flush", "royal")


def evaluate3(hand):
    """Value of a three-card hand; A-K-Q suited is T_ROYAL (583.6(d)(1)); callers whose
    table has no royal (669a.6(c)) treat it as a straight flush."""
    a, b, c = hand
    ra, rb, rc = (a >> 44) & 15, (b >> 44) & 15, (c >> 44) & 15
    if ra < rb:
        ra, rb = rb, ra
    if rb < rc:
        rb, rc = rc, rb
        if ra < rb:
            ra, rb = rb, ra
    flush = (a >> 48) & 3 == (b >> 48) & 3 == (c >> 48) & 3
    if ra == rb == rc:
        return T_THREE_OF_A_KIND << 12 | ra << 8
    # Only a shoe of more than one deck holds two identical cards (7h 7h 9h): three cards
    # of one suit are a flush whatever their ranks (633a.7(g)(8)), and the flush outranks
    # the pair in every three-card list, so a suited pair falls through to the flush below
    # (no straight holds a pair); suited trips stay three of a kind, the higher hand.
    if not flush and (ra == rb or rb == rc):
        pair = rb
        kick = rc if ra == rb else ra
        return T_PAIR << 12 | pair << 8 | kick << 4
    top = -1
    if ra - rb == 1 and rb - rc == 1:
        top = ra
    elif ra == C.ACE and rb == 1 and rc == 0:    # A-2-3, the lowest straight
        top = 1
    if top >= 0:
        if flush:
            return (T_ROYAL if top == C.ACE else T_STRAIGHT_FLUSH) << 12 | top << 8
        return T_STRAIGHT << 12 | top << 8
    cat = T_FLUSH if flush else T_HIGH_CARD
    return cat << 12 | ra << 8 | rb << 4 | rc


def three_card_value(hand):
    hand = list(hand)
    check_hand(hand, (3,), "three-card hand")
    return evaluate3(hand)


def three_card_name(value, royal=True):
    cat = value >> 12
    if cat == T_ROYAL and not royal:
        cat = T_STRAIGHT_FLUSH
    return THREE_CARD_NAMES[cat]


def is_ace_king_queen_suited(hand):
    """The Envy Bonus Qualifying Hand of 669a.1: ace, king, queen of one suit."""
    return three_card_value(hand) >> 12 == T_ROYAL


def raise_it_up_progressive_hand(hand):
    """The 669a.12(e)(1) paytable hand of a player's three cards, or None."""
    v = three_card_value(hand)
    cat = v >> 12
    if cat == T_ROYAL:
        return "ace_king_queen_of_spades" if C.suit(hand[0]) == 0 else "ace_king_queen_suited"
    if cat in (T_STRAIGHT_FLUSH, T_THREE_OF_A_KIND, T_STRAIGHT):
        return THREE_CARD_NAMES[cat]
    return None
