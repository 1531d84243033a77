"""Six-Card Fortune's side wagers with the joker read as a fully wild card: the
alternative that docs/interpretations.md's `scf-joker` reading is priced against.

Why a module of its own: the firmware reads 670a.6(a) ("used and ranked as an ace or
... as any card to complete a straight or a flush") as a bug; the wild reading lets
the joker be ANY card (a pair plus the joker is three of a kind, two pair plus the
joker a full house). A lab must see what that choice is worth on the Fortune Bonus,
Insurance and Progressive (670a.12(b)-(d)), which are settled on the best five of the
player's six cards (670a.11(h)). The counts are exact over all C(53, 6) hands, by the
same classes as six_card_fortune.best_hand_counts (rank multisets x the suit patterns
that can flush); only the joker's hands are valued differently.

The wild joker, as counted here: it stands for any card not already in the hand
(a card the deck does not hold twice), so four of a kind plus the joker is four of a
kind with an ace kicker, not a "five of a kind" 670a.6(b) does not list, except that
four aces and the joker are five aces (670a.6(b)(1)) under either reading.
"""

from controller.lab.par import six_card_fortune as scf_par
from controller.rules import cards as C
from controller.rules import paigow as G

_FIVE_ACES = G._pack(G.FIVE_ACES, [])
_MEMO = {}


def _wild4(ranks, suited):
    """Best value of four natural cards (their ranks; whether they share one suit) plus
    a joker standing for any card not among them."""
    key = (tuple(sorted(ranks)), suited)
    v = _MEMO.get(key)
    if v is not None:
        return v
    if list(key[0]) == [G.ACE] * 4:
        v = _FIVE_ACES
    else:
        v = -1
        for r in range(13):
            m = ranks.count(r)
            if m == 4:
                continue
            if suited and m == 0:            # the joker as the fifth card of the suit
                v = max(v, G._value_of(list(ranks) + [r], True, False))
            # the joker as a card of rank r in a suit that does not hold one: always
            # possible below four of a kind, and never a flush
            v = max(v, G._value_of(list(ranks) + [r], False, False))
    _MEMO[key] = v
    return v


def wild_best_value(six):
    """Value (paigow's encoding) of the best five of six cards with the joker wild."""
    if C.JOKER not in six:
        return G.best_value(six)
    naturals = [c for c in six if c != C.JOKER]
    best = G._value5(naturals)                          # the joker left out
    for i in range(5):
        four = naturals[:i] + naturals[i + 1:]
        suits = set(C.suit(c) for c in four)
        v = _wild4([C.rank(c) for c in four], len(suits) == 1)
        if v > best:
            best = v
    return best


def wild_best_value_by_substitution(six):
    """The same value the slow, obvious way: the joker replaced by every card not in the
    hand in turn, each six natural cards valued by the game's own evaluator. For tests."""
    if C.JOKER not in six:
        return G.best_value(six)
    naturals = [c for c in six if c != C.JOKER]
    if sum(1 for c in naturals if C.rank(c) == G.ACE) == 4:
        return _FIVE_ACES
    return max(G.best_value(naturals + [c]) for r in range(13) for s in range(4)
               for c in (C.make(r, s),) if c not in naturals)


def best_hand_counts(ranks=scf_par.ALL_RANKS, suits=scf_par.SUITS):
    """{hand name: six-card hands} with the joker wild, over the deck of `ranks` x
    `suits` plus the joker (the joker may still stand for any card of the full deck)."""
    if suits < 2:
        raise ValueError("counting needs at least two suits")
    ranks = tuple(ranks)
    counts = {}

    def add(hand, k):
        name = G.hand_name(wild_best_value(hand))
        counts[name] = counts.get(name, 0) + k

    for ms in scf_par._multisets(ranks, 6, suits):
        for hand, k in scf_par._suit_classes(ms, suits, 5):
            add(hand, k)
    for ms in scf_par._multisets(ranks, 5, suits):
        for hand, k in scf_par._suit_classes(ms, suits, 4):
            add(hand + [C.JOKER], k)
    return counts
