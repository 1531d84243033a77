"""Cards, card codes and the decks the chapters prescribe.

A card is a plain int laid out so that adding cards builds the keys the
evaluators look up, with no per-card work at evaluation time:

    bits  0..30  5**rank          -> the sum of a hand encodes its rank multiset
                                     (a rank occurs at most 4 times per deck)
    bits 31..42  1 << (31 + 3*s)  -> the sum holds a 3-bit count per suit
    bits 44..47  rank, 48..49 suit (read back from one card, never from a sum)

Ranks are 0..12 for 2..A; suits 0..3 for s, h, d, c. The joker is a
separate value outside this layout: only Six-Card Fortune (670a) knows it.
Multi-deck batches repeat the same ints; position in a shoe tells copies apart.
"""

from controller.errors import InvalidCard

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "shdc"
TEN, JACK, QUEEN, KING, ACE = 8, 9, 10, 11, 12

RANK_MASK = (1 << 31) - 1          # rank-multiset key of a sum of cards
SUIT_SHIFT = 31                    # suit-count fields of a sum of cards
SUIT_FIELDS = (1 << 12) - 1

JOKER = 1 << 53
JOKER_CODE = "JK"


def make(rank, suit):
    """The card of rank 0..12 (2..A) and suit 0..3 (s, h, d, c)."""
    return (5 ** rank) | (1 << (SUIT_SHIFT + 3 * suit)) | (rank << 44) | (suit << 48)


# Every standard card, by rank then suit; and the parser's table.
ALL = [make(r, s) for r in range(13) for s in range(4)]
_BY_CODE = {}
for _c in ALL:
    _BY_CODE[RANK_CHARS[(_c >> 44) & 15] + SUIT_CHARS[(_c >> 48) & 3]] = _c
_BY_CODE[JOKER_CODE] = JOKER


def rank(card):
    """0..12 for 2..A. The joker has no rank of its own."""
    if card == JOKER:
        raise InvalidCard("the joker has no rank of its own (670a.6(a))")
    return (card >> 44) & 15


def suit(card):
    """0..3 for spades, hearts, diamonds, clubs."""
    if card == JOKER:
        raise InvalidCard("the joker has no suit (670a.6(a))")
    return (card >> 48) & 3


def is_red(card):
    return suit(card) in (1, 2)


def parse(code):
    """'As', 'Td', 'JK' -> card. Case of the suit letter is forgiven, of the rank not needed."""
    if not isinstance(code, str):
        raise InvalidCard("card code must be a string such as 'As', got %r" % (code,))
    key = code.strip()
    if len(key) == 2 and key.upper() != JOKER_CODE:
        key = key[0].upper() + key[1].lower()
    else:
        key = key.upper()
    card = _BY_CODE.get(key)
    if card is None:
        raise InvalidCard("not a card: %r (rank one of %s, suit one of %s, or JK)"
                          % (code, RANK_CHARS, SUIT_CHARS))
    return card


def parse_all(codes):
    """A list of codes, or one space-separated string, to cards."""
    if isinstance(codes, str):
        codes = codes.split()
    return [parse(c) for c in codes]


def code(card):
    if card == JOKER:
        return JOKER_CODE
    try:
        return RANK_CHARS[(card >> 44) & 15] + SUIT_CHARS[(card >> 48) & 3]
    except (IndexError, TypeError):
        raise InvalidCard("not a card value: %r" % (card,))


def codes(cards):
    return [code(c) for c in cards]


def is_card(value):
    return value == JOKER or value in _CARD_SET


_CARD_SET = set(ALL)


def check_distinct(cards, what="hand"):
    """A hand dealt from one deck holds no card twice."""
    seen = set()
    for c in cards:
        if not is_card(c):
            raise InvalidCard("%s holds a value that is not a card: %r" % (what, c))
        if c in seen:
            raise InvalidCard("%s holds %s twice" % (what, code(c)))
        seen.add(c)


# ---- decks -----------------------------------------------------------------

def standard_deck():
    """The 52-card deck (583.3, 669a.3, 633a, 637a)."""
    return list(ALL)


def spanish_deck():
    """48 cards: the standard deck with the four tens removed (581.3(a))."""
    return [c for c in ALL if rank(c) != TEN]


def joker_deck():
    """53 cards: the standard deck and one joker (670a.3(a))."""
    return list(ALL) + [JOKER]


def batch(deck, decks):
    """An n-deck batch (581.3(a): eight 48-card decks)."""
    if decks < 1:
        raise InvalidCard("a batch holds at least one deck, not %r" % (decks,))
    out = []
    for _ in range(decks):
        out.extend(deck)
    return out


DOUBLE_ATTACK_DECKS = 8      # 581.3(a)


def double_attack_batch():
    return batch(spanish_deck(), DOUBLE_ATTACK_DECKS)


def check_deck_holds(cards, deck, what="card"):
    """Every card is one the game's decks contain (a ten in Double Attack is not)."""
    allowed = set(deck)
    for c in cards:
        if c not in allowed:
            raise InvalidCard("%s %s is not in this game's decks" % (what, code(c)))
