"""Six-Card Fortune Pai Gow Poker (58 Pa. Code ch. 670a): rankings, settings,
the dealer's house way, the main and side wagers, and the starting position.

Pure and MicroPython-compatible: imports nothing but controller.*.

How the text is read where it leaves a choice (each is pinned by a test):

* The joker (670a.6(a)) ranks as an ace; it stands for another card only to
  complete a straight or a flush. Completing a flush it takes the highest rank
  of that suit not already in the hand (AsKs9s5s+JK is A-K-Q-9-5, not a pair of
  aces); completing a straight it takes whichever rank gives the best hand, so
  2-3-4-5+JK is A-2-3-4-5 and any suited A-K-Q-J-T it completes is a royal flush.
  Held as a lone card, in a tie or as the dealer's low hand, it is an ace.
* Within a rank of 670a.6(b) hands are ordered as that paragraph orders them
  (the pair, the trips, the higher pair first); 670a.6(c) -- the highest card
  not in the other hand -- breaks the ties left, and a tie after that goes to
  the dealer. So the two cases 670a.11(f) does not list are pushes: a higher
  high hand with an identical low hand (the dealer takes the low), and an
  identical high hand with a higher low hand (the dealer takes the high).
* A setting is valid (670a.11(b)) when the high hand is a pair or better, or
  when its highest card ranks at least as high as the low card.
* A foul loses the main wager (670a.11(f)(1)(v)) and the Double Down with it,
  except that a Double Down is returned whenever the dealer does not hold a
  pair of eights or better (670a.11(g)(2) says so without exception). "A pair
  of eights or better" is measured on the dealer's best five of six cards.
* House way (670a.11(d)): a straight, flush or straight flush (a royal counts
  as one) is played ahead of any pair, two pair or three of a kind, because
  670a.11(d)(2)-(5) name them without exception and they outrank those sets
  (a full house or better never occurs with them in six cards). Among hands
  of the family chosen, the highest card that can be spared goes low and then
  the lowest such hand is played; without the joker that is simply "the
  lowest possible, highest card low", and with it JK-5-6-7-8-9 plays 5-6-7-8-9
  with the joker (an ace) low rather than JK-5-6-7-8 with the 9 low.
* Four of a kind with a pair: no setting keeps both sets, so the four of a
  kind (the higher set) stays whole and a card of the pair goes low, as the
  highest card left once the set is played (670a.11(d)(1)).
* When an ace and the joker are interchangeable (three pairs with the aces
  on top, say), the natural ace goes low; the outcome is the same either way.
"""

from controller.errors import IllegalSetting, InvalidHand, RulesError
from controller.rules import cards as C
from controller.rules import paytables as pt

JOKER = C.JOKER
ACE = C.ACE

# Categories of 670a.6(b), lowest first; the value of a hand is
# category << 20 | five 4-bit tie-break ranks.
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, \
    STRAIGHT_FLUSH, ROYAL_FLUSH, FIVE_ACES = range(11)
CATEGORY_NAMES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight",
                  "flush", "full_house", "four_of_a_kind", "straight_flush",
                  "royal_flush", "five_aces")
_RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine",
               "ten", "jack", "queen", "king", "ace")
_CAT_SHIFT = 20

# Straights ordered per 670a.6(b)(3),(7): A-K-Q-J-T, then A-2-3-4-5, then K-high
# down to 6-high (tie-break value = top rank 4..11).
_WHEEL_VALUE = 12
_BROADWAY_VALUE = 13

EIGHT = 6
WIN, LOSE, PUSH, RETURNED = "win", "lose", "push", "returned"

DEALER = "dealer"
SEATS = (1, 2, 3, 4, 5, 6)
CLOCKWISE = (1, 2, 3, 4, 5, 6, DEALER)   # seat 1 is farthest to the dealer's left
CARDS_PER_HAND = 6
DECK_SIZE = 53
STUB_SIZE = 11                           # 670a.8(e), 670a.9(d), 670a.10(d)


# ---- five-card values ------------------------------------------------------

def _pack(cat, ranks):
    v = 0
    for r in ranks:
        v = (v << 4) | r
    for _ in range(5 - len(ranks)):
        v <<= 4
    return (cat << _CAT_SHIFT) | v


def _straight_value(distinct_desc):
    """Tie-break value of five distinct ranks (descending) if they are a straight, else 0."""
    top = distinct_desc[0]
    if top - distinct_desc[4] == 4:
        return _BROADWAY_VALUE if top == ACE else top
    if distinct_desc == [ACE, 3, 2, 1, 0]:
        return _WHEEL_VALUE
    return 0


def _suited_value(ranks):
    """Five distinct ranks of one suit: royal flush, straight flush or flush."""
    desc = sorted(ranks, reverse=True)
    s = _straight_value(desc)
    if s == _BROADWAY_VALUE:
        return _pack(ROYAL_FLUSH, [])
    if s:
        return _pack(STRAIGHT_FLUSH, [s])
    return _pack(FLUSH, desc)


def _unsuited_value(ranks):
    """Five ranks (five aces allowed: the joker as an ace) with no flush."""
    counts = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted([(m, r) for r, m in counts.items()], reverse=True)
    shape = [m for m, _ in groups]
    order = [r for _, r in groups]
    if shape[0] == 5:
        return _pack(FIVE_ACES, [])
    if shape[0] == 4:
        return _pack(QUADS, order)
    if shape == [3, 2]:
        return _pack(FULL_HOUSE, order)
    if shape[0] == 3:
        return _pack(TRIPS, order)
    if shape == [2, 2, 1]:
        return _pack(TWO_PAIR, order)
    if shape[0] == 2:
        return _pack(PAIR, order)
    s = _straight_value(order)
    if s:
        return _pack(STRAIGHT, [s])
    return _pack(HIGH_CARD, order)


def _value_of(ranks, suited, joker):
    """Value of a five-card hand given its natural ranks, whether the naturals
    share one suit, and whether the fifth card is the joker."""
    if not joker:
        return _suited_value(ranks) if suited else _unsuited_value(ranks)
    best = _unsuited_value(ranks + [ACE])
    held = set(ranks)
    if len(held) == 4:
        for r in range(13):
            if r not in held:
                filled = ranks + [r]
                if _straight_value(sorted(filled, reverse=True)):
                    v = _suited_value(filled) if suited else _unsuited_value(filled)
                    if v > best:
                        best = v
    if suited:
        r = ACE
        while r in held:
            r -= 1
        v = _suited_value(ranks + [r])
        if v > best:
            best = v
    return best


# A hand's value depends only on its natural ranks, whether they share a suit and
# whether the joker is in it; the card encoding makes that a key from a sum.
_MEMO = {}
_SUIT_FIELD_SHIFTS = (C.SUIT_SHIFT, C.SUIT_SHIFT + 3, C.SUIT_SHIFT + 6, C.SUIT_SHIFT + 9)


def _key(natural_sum, n_naturals, joker):
    suited = 0
    for sh in _SUIT_FIELD_SHIFTS:
        if (natural_sum >> sh) & 7 == n_naturals:
            suited = 2
            break
    return ((natural_sum & C.RANK_MASK) << 2) | suited | (1 if joker else 0)


def _value_for_key(key):
    v = _MEMO.get(key)
    if v is None:
        rk = key >> 2
        ranks = []
        r = 0
        while rk:
            for _ in range(rk % 5):
                ranks.append(r)
            rk //= 5
            r += 1
        v = _value_of(ranks, bool(key & 2), bool(key & 1))
        _MEMO[key] = v
    return v


def _value5(five):
    s = 0
    joker = False
    for c in five:
        if c == JOKER:
            joker = True
        else:
            s += c
    return _value_for_key(_key(s, 4 if joker else 5, joker))


def category(value):
    return value >> _CAT_SHIFT


def hand_name(value):
    """The paytables' name of a hand value: 'royal_flush', ..., 'pair', 'king_high'."""
    cat = value >> _CAT_SHIFT
    if cat == HIGH_CARD:
        return _RANK_WORDS[(value >> 16) & 15] + "_high"
    return CATEGORY_NAMES[cat]


def _check_cards(hand, n, what, section):
    if not isinstance(hand, (list, tuple)) or len(hand) != n:
        raise InvalidHand("%s must be %d cards (%s), got %r" % (what, n, section, hand))
    C.check_distinct(hand, what)


def evaluate_high(five):
    """(value, name) of a five-card high hand per 670a.6(b),(c); higher value wins."""
    _check_cards(five, 5, "a high hand", "670a.6(b)")
    v = _value5(five)
    return v, hand_name(v)


def best_hand(six):
    """(name, value, five cards) of the best five-card hand in six cards: the hand the
    Fortune Bonus, Insurance and Progressive wagers are settled on (670a.11(h))."""
    _check_cards(six, 6, "a six-card hand", "670a.7(e)")
    best, best_i = _best_of_six(six)
    return hand_name(best), best, [c for j, c in enumerate(six) if j != best_i]


def _best_of_six(six):
    joker = JOKER in six
    total = 0
    for c in six:
        if c != JOKER:
            total += c
    best = -1
    best_i = 0
    for i in range(6):
        c = six[i]
        if c == JOKER:
            v = _value_for_key(_key(total, 5, False))
        else:
            v = _value_for_key(_key(total - c, 4 if joker else 5, joker))
        if v > best:
            best = v
            best_i = i
    return best, best_i


def best_value(six):
    """Value of the best five of six cards, unchecked: for counting many hands."""
    return _best_of_six(six)[0]


# ---- the low hand, settings and comparison -----------------------------------

def low_rank(card):
    """Rank of a one-card low hand: the joker ranks as an ace (670a.6(a))."""
    return ACE if card == JOKER else C.rank(card)


def _top_rank(value):
    return (value >> 16) & 15


def setting_is_valid(high, low):
    """670a.11(b): the high hand must rank equal to or higher than the low card."""
    _check_cards(high, 5, "a high hand", "670a.11(b)")
    C.check_distinct(list(high) + [low], "a setting")
    v = _value5(high)
    if v >> _CAT_SHIFT > HIGH_CARD:
        return True
    return _top_rank(v) >= low_rank(low)


def check_setting(six, high, low):
    """Raise IllegalSetting unless high + low are exactly the six cards dealt and
    the high hand ranks at least as high as the low hand (670a.11(b))."""
    _check_cards(six, 6, "the hand dealt", "670a.8(d)")
    _check_cards(high, 5, "a high hand", "670a.11(b)")
    used = list(high) + [low]
    C.check_distinct(used, "a setting")
    for c in used:
        if c not in six:
            raise IllegalSetting("setting uses %s, which was not dealt to this hand (670a.11(b))"
                                 % C.code(c))
    if not setting_is_valid(high, low):
        raise IllegalSetting("high hand %s ranks lower than the low hand %s (670a.11(b))"
                             % (" ".join(C.codes(high)), C.code(low)))


def compare_high(a, b):
    """-1, 0 or 1 as five-card hand a ranks below, identical to, or above b."""
    va = evaluate_high(a)[0]
    vb = evaluate_high(b)[0]
    return (va > vb) - (va < vb)


def compare_low(player_low, dealer_low):
    """-1, 0 or 1 for the player's low card against the dealer's; a joker as the
    player's low hand ranks higher (670a.6(c), 670a.11(f)(2)(ii),(3))."""
    if player_low == JOKER:
        return 1
    p = low_rank(player_low)
    d = low_rank(dealer_low)
    return (p > d) - (p < d)


def _outcome(player_high, player_low, dealer_high, dealer_low):
    if not setting_is_valid(player_high, player_low):
        return LOSE                                  # 670a.11(f)(1)(v)
    # Identical hands go to the dealer (670a.6(c)): only "higher" wins a hand.
    high = compare_high(player_high, dealer_high) > 0
    low = compare_low(player_low, dealer_low) > 0
    if high and low:
        return WIN                                   # 670a.11(f)(3)
    if high or low:
        return PUSH                                  # 670a.11(f)(2)
    return LOSE                                      # 670a.11(f)(1)(i)-(iv)


def wager_result(player_high, player_low, dealer_high, dealer_low):
    """'win', 'lose' or 'push' for the Six-Card Fortune Pai Gow Poker Wager (670a.11(f))."""
    C.check_distinct(list(player_high) + [player_low] + list(dealer_high) + [dealer_low],
                     "the player's and dealer's cards")
    _check_cards(dealer_high, 5, "the dealer's high hand", "670a.11(d)")
    return _outcome(player_high, player_low, dealer_high, dealer_low)


def dealer_qualifies_double_down(dealer_six):
    """670a.11(g)(1): the dealer's six cards hold a pair of eights or better."""
    _check_cards(dealer_six, 6, "the dealer's hand", "670a.11(g)")
    v = best_value(dealer_six)
    cat = v >> _CAT_SHIFT
    return cat > PAIR or (cat == PAIR and _top_rank(v) >= EIGHT)


def double_down_result(player_high, player_low, dealer_high, dealer_low):
    """'win', 'lose', 'push' as the main wager (670a.11(g)(1)), or 'returned' when the
    dealer holds less than a pair of eights (670a.11(g)(2))."""
    result = wager_result(player_high, player_low, dealer_high, dealer_low)
    if not dealer_qualifies_double_down(list(dealer_high) + [dealer_low]):
        return RETURNED
    return result


def fortune_bonus_hand(six):
    """The hand the Fortune Bonus is paid on (670a.11(h)(1)), or None below three of a kind."""
    name, value, _ = best_hand(six)
    return name if value >> _CAT_SHIFT >= TRIPS else None


def insurance_wins(six):
    """670a.11(h)(2): Insurance wins on a king-high or less (a joker is at least ace-high)."""
    _, value, _ = best_hand(six)
    return value >> _CAT_SHIFT == HIGH_CARD and _top_rank(value) <= C.KING


def progressive_hand(six):
    """The hand the Progressive Payout Wager is paid on (670a.11(h)(3)), or None below a straight."""
    name, value, _ = best_hand(six)
    return name if value >> _CAT_SHIFT >= STRAIGHT else None


def progressive_meter_share(codes, dealer=None, paytable=None):
    """The percent of the meter six card codes win at the Progressive Payout Wager
    (670a.12(d)(1): 100 for five aces, 10 for a royal flush), or None: what a linked
    progressive's controller checks a hit's hand with (issue 31), by the evaluator and the
    paytable the table settles with. Raises RulesError for anything but six cards. The
    paytable is the text's own (`paytable`, `dealer`: not this game's)."""
    six = C.parse_all(codes) if isinstance(codes, (list, tuple)) else None
    if six is None or len(six) != 6:
        raise RulesError("a Six-Card Fortune progressive hit's hand is six cards, not %r"
                         % (codes,))
    hand = progressive_hand(six)
    pay = pt.get(pt.SCF, "progressive").pay(hand) if hand else None
    return pay.num if pay is not None and pay.kind == pt.METER else None


def envy_qualifying(six, wager):
    """670a.1: Envy Bonus Qualifying Hand -- full house or better for the Fortune Bonus
    ('fortune_bonus'), four of a kind or better for the Progressive ('progressive')."""
    floor = {"fortune_bonus": FULL_HOUSE, "progressive": QUADS}.get(wager)
    if floor is None:
        raise RulesError("no Envy Bonus for wager %r (670a.1: fortune_bonus or progressive)"
                         % (wager,))
    return best_hand(six)[1] >> _CAT_SHIFT >= floor


# ---- the dealer's house way, 670a.11(d) ----------------------------------------

def _card_order(card):
    """Sort key: by rank (the joker as an ace, above the natural aces), then suit."""
    if card == JOKER:
        return ACE * 8 + 7
    return C.rank(card) * 8 + C.suit(card)


def house_way(six):
    """(high five, low card) the dealer must set from six cards (670a.11(d))."""
    _check_cards(six, 6, "the dealer's hand", "670a.11(d)")
    splits = []
    for i in range(6):
        rest = [c for j, c in enumerate(six) if j != i]
        splits.append((_value5(rest), rest, six[i]))
    for family in ((STRAIGHT_FLUSH, ROYAL_FLUSH), (FLUSH,), (STRAIGHT,)):
        chosen = [s for s in splits if s[0] >> _CAT_SHIFT in family]
        if chosen:
            return _lowest_with_highest_low(chosen)
    return _set_the_sets(six)


def _lowest_with_highest_low(splits):
    """670a.11(d)(2)-(5): the highest card that can be spared goes low, the lowest such hand high."""
    best = None
    for value, rest, low in splits:
        key = (low_rank(low), -value, 0 if low == JOKER else 1)
        if best is None or key > best[0]:
            best = (key, rest, low)
    return _sorted_desc(best[1]), best[2]


def _sorted_desc(hand):
    return sorted(hand, key=_card_order, reverse=True)


def _set_the_sets(six):
    """670a.11(d)(1) and (6): no straight or flush among the six cards."""
    groups = {}
    for c in six:
        groups.setdefault(low_rank(c), []).append(c)
    # Largest sets first, higher rank first among sets of one size.
    ordered = sorted(groups.items(), key=lambda kv: (len(kv[1]), kv[0]), reverse=True)
    sets = [_sorted_desc(cs) for _, cs in ordered if len(cs) >= 2]
    singles = _sorted_desc([cs[0] for _, cs in ordered if len(cs) == 1])
    if not sets:                                             # 670a.11(d)(6)
        return [singles[0]] + singles[2:], singles[1]
    if singles:                                              # 670a.11(d)(1)
        low = singles[0]
        high = []
        for s in sets:
            high.extend(s)
        return high + singles[1:], low
    sizes = [len(s) for s in sets]
    if sizes == [3, 3]:                                      # 670a.11(d)(1)(i)
        top, bottom = _higher_first(sets)
        return bottom + top[:-1], top[-1]
    if sizes == [2, 2, 2]:                                   # 670a.11(d)(1)(ii)
        by_rank = sorted(sets, key=lambda s: low_rank(s[0]), reverse=True)
        top = by_rank[0]
        return by_rank[2] + by_rank[1] + top[:-1], top[-1]
    # Four of a kind and a pair: the four of a kind stays whole, a card of the pair
    # goes low (see the module docstring).
    quads, pair = sets
    return quads + pair[:-1], pair[-1]


def _higher_first(two_sets):
    a, b = two_sets
    return (a, b) if low_rank(a[0]) > low_rank(b[0]) else (b, a)


# ---- starting position and dealing, 670a.5(i), 670a.8(d) ---------------------

RNG, DICE = "rng", "dice"
_COUNT_RANGES = {RNG: (1, 7), DICE: (3, 18)}


def starting_position(count, method=DICE):
    """The position dealt first (670a.5(i)): counting each of the seven positions
    counterclockwise with the dealer as one -- dealer, seat 6, seat 5, ..., seat 1,
    dealer again -- until the count matches the dice total or the RNG number."""
    rng = _COUNT_RANGES.get(method)
    if rng is None:
        raise RulesError("starting position method %r is neither 'dice' (670a.5(i)(1)) "
                         "nor 'rng' (670a.5(i)(2))" % (method,))
    if not isinstance(count, int) or isinstance(count, bool) or not rng[0] <= count <= rng[1]:
        raise RulesError("%s count %r is outside %d..%d (670a.5(i)%s)"
                         % ("three-dice total" if method == DICE else "random number generator",
                            count, rng[0], rng[1], "(1)" if method == DICE else "(2)"))
    k = (count - 1) % 7
    return DEALER if k == 0 else 7 - k


def dice_total(d1, d2, d3):
    """Total of the three dice in the Pai Gow Poker shaker (670a.5(i)(1)(ii))."""
    for d in (d1, d2, d3):
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            raise RulesError("a die shows 1..6, not %r (670a.5(i)(1))" % (d,))
    return d1 + d2 + d3


def dealing_order(start):
    """The 42 positions in the order the cards go (670a.8(d)): from the starting
    position clockwise, one card at a time to every position and the dealer."""
    if start not in CLOCKWISE:
        raise RulesError("starting position %r is not a seat 1..6 or %r (670a.5(i))"
                         % (start, DEALER))
    i = CLOCKWISE.index(start)
    ring = CLOCKWISE[i:] + CLOCKWISE[:i]
    return list(ring) * CARDS_PER_HAND


def deal(stack, start):
    """({position: six cards}, stub) dealt from the top of a 53-card stack (670a.8(d));
    the stub is the 11 cards 670a.8(e) expects to remain."""
    if not isinstance(stack, (list, tuple)) or len(stack) != DECK_SIZE:
        raise InvalidHand("the stack dealt must be the 53-card deck (670a.3(a)), got %s cards"
                          % (len(stack) if isinstance(stack, (list, tuple)) else repr(stack)))
    C.check_distinct(stack, "the stack")
    hands = {}
    for p in CLOCKWISE:
        hands[p] = []
    order = dealing_order(start)
    for i in range(len(order)):
        hands[order[i]].append(stack[i])
    return hands, list(stack[len(order):])
