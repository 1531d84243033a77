"""Exact counting: poker hands dealt without replacement from one 52-card deck, and the classes
of identical cards a multi-deck shoe holds.

Rather than visit the 20,358,520 six-card hands, visit the rank multisets
(18,395 of them for six cards): each stands for prod(C(4, m_r)) hands, and only
the suit patterns that put five or more cards in one suit change its category.
"""

from math import comb

from controller.rules import poker


def _rank_multisets(n):
    return poker._multisets(n)


def best_category_counts(n):
    """{category: number of n-card hands (5 <= n <= 7) whose best five cards are of it}."""
    if not 5 <= n <= 7:
        raise ValueError("counting covers five to seven cards, not %d" % n)
    out = [0] * 10
    for counts in _rank_multisets(n):
        ways = 1
        for m in counts:
            if m:
                ways *= comb(4, m)
        base = poker._value_from_counts(counts) >> 20
        for cat, k in _flush_patterns(counts):
            out[max(cat, base)] += k
            ways -= k
        out[base] += ways
    return {poker.CATEGORY_NAMES[c]: out[c] for c in range(10) if out[c]}


def _flush_patterns(counts):
    """(category of the suited cards, number of suit assignments) for every way the
    cards of this rank multiset put five or more cards of one suit together."""
    ranks = [r for r in range(13) if counts[r]]
    if len(ranks) < 5:
        return []
    out = []
    # Choose which distinct ranks sit in the flush suit (at least five of them).
    # The flush suit takes one card of each chosen rank; each other card of the
    # hand goes to the three other suits, without two cards of one rank sharing a suit.
    for size in range(5, len(ranks) + 1):
        for chosen in poker._subsets(ranks, size):
            ways = 4                                   # the flush suit
            for r in ranks:
                m = counts[r]
                if r in chosen:
                    ways *= comb(3, m - 1)             # the rank's other cards: off-suit
                else:
                    ways *= comb(3, m)                 # all of this rank off-suit
            if ways:
                out.append((poker._flush_value(chosen) >> 20, ways))
    return out


def classes(deck):
    """[(card, copies)] of a deck, batch or shoe, in first-seen order: the classes of
    identical cards a multi-deck count runs over (Double Attack's batch, Blackjack's shoe)."""
    copies = {}
    order = []
    for c in deck:
        if c not in copies:
            copies[c] = 0
            order.append(c)
        copies[c] += 1
    return [(c, copies[c]) for c in order]
