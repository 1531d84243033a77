"""Three-card hand counts over the 52-card deck (22,100 hands, enumerated)."""

from controller.rules import cards as C
from controller.rules import poker


def three_card_counts(royal):
    """{hand name: count}; `royal` separates A-K-Q suited (583.6(d)) from straight flushes."""
    deck = C.standard_deck()
    out = {}
    n = len(deck)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                name = poker.three_card_name(poker.evaluate3((deck[i], deck[j], deck[k])), royal)
                out[name] = out.get(name, 0) + 1
    return out


COMBINATIONS = 22100
