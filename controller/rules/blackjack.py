"""Blackjack arithmetic: Double Attack Blackjack (581) and the dealer rule of
Blackjack (633a.7).

A hand is a list of card ints (controller.rules.cards), in the order dealt;
the order matters only for the dealer (his first two cards decide the Bust It
Wager, 581.7(m)) and for telling a completed dealer hand from one stopped early.
Multi-deck batches repeat cards, so a hand may hold the same int twice.

Readings of the text this module takes (581 is silent or loose on them):
  * A split hand is never a Blackjack: 581.1 defines Blackjack as the
    "initial two cards" dealt to a player; after a split (581.11) a hand's
    two cards are not the player's initial two. Pass split=True for such hands.
  * A player whose hand exceeds 21 loses even if the dealer also busts.
    581.7(o)(1) covers neither case (no win rule applies to a player over 21),
    and (iii) would read two busted totals as a "tie"; every blackjack game
    collects the busted player, and (o)(1)(ii)(B) is the nearest rule.
  * The dealer's hand is checked to be complete before it settles a wager:
    he draws to 16 and stands on every 17, soft 17 included (581.2(b)(3)(iii),
    581.7(n), 633a.7(m)); 581 has no exception like 633a.7(n).
  * Tens are values of 10 (633a Blackjack: totals, the dealer rule and the
    Bet comparison, which 633a.7(p), (q) word as 581.7(o)(1) does), but what
    only Double Attack has (Bust It, its Insurance, its surrender) rejects a
    ten: its decks hold none (581.3(a)), so a ten there is a wrong card.
"""

from controller.errors import InvalidCard, InvalidHand, RulesError
from controller.rules import cards
from controller.rules import settle

WIN, LOSE, PUSH, RETURNED = settle.WIN, settle.LOSE, settle.PUSH, settle.RETURNED

DEALER_STANDS = 17          # 581.7(n), 633a.7(m): stand on all 17s, soft included
BUST_IT_DRAW_BELOW = 17     # 581.7(m)(2): a third card only below 17
MAX_HANDS = 4               # 581.11(c): three splits, four hands

_FACES = (cards.JACK, cards.QUEEN, cards.KING)
_BLACKJACK_UP = (cards.ACE, cards.KING, cards.QUEEN, cards.JACK)   # 581.7(g), 581.9(b)
_THIRD_CARD = {4: "third_card_6", 5: "third_card_7", 6: "third_card_8", 7: "third_card_9",
               cards.JACK: "third_card_face", cards.QUEEN: "third_card_face",
               cards.KING: "third_card_face"}


# ---- values and totals (581.3(d), 581.1) -----------------------------------

def _check_card(card, what):
    if card == cards.JOKER:
        raise InvalidCard("%s is the joker, which blackjack does not use (581.3(a))" % what)
    if not cards.is_card(card):
        raise InvalidCard("%s is not a card: %r" % (what, card))


def _check_hand(hand, what, least=1):
    if not isinstance(hand, (list, tuple)):
        raise InvalidHand("%s must be a list of cards, not %r" % (what, hand))
    if len(hand) < least:
        raise InvalidHand("%s needs at least %d cards, has %d" % (what, least, len(hand)))
    for c in hand:
        _check_card(c, "a card of the " + what)


def _no_tens(hand, what):
    for c in hand:
        if cards.rank(c) == cards.TEN:
            raise InvalidCard("%s holds %s: Double Attack decks have the tens removed (581.3(a))"
                              % (what, cards.code(c)))


def card_value(card):
    """2-9 face value, ten/J/Q/K 10, ace 11: the ace's 1 is decided by the hand (581.3(d))."""
    _check_card(card, "card")
    r = cards.rank(card)
    if r == cards.ACE:
        return 11
    if r >= cards.TEN:
        return 10
    return r + 2


def _hard_and_aces(hand):
    hard = 0
    aces = 0
    for c in hand:
        v = card_value(c)
        if v == 11:
            aces += 1
            hard += 1
        else:
            hard += v
    return hard, aces


def hand_total(hand):
    """(total, soft): soft when an ace counts 11 (581.1). At most one ace can,
    and it does unless that busts (581.3(d)(3))."""
    _check_hand(hand, "hand")
    hard, aces = _hard_and_aces(hand)
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def total(hand):
    return hand_total(hand)[0]


def is_soft(hand):
    return hand_total(hand)[1]


def is_bust(hand):
    """A total in excess of 21 (581.7(o)(1))."""
    return total(hand) > 21


def is_blackjack(hand, split=False):
    """An ace and a ten-value card as the initial two cards (581.1); never a split hand."""
    _check_hand(hand, "hand")
    if split or len(hand) != 2:
        return False
    a, b = card_value(hand[0]), card_value(hand[1])
    return (a == 11 and b == 10) or (a == 10 and b == 11)


def player_may_draw(hand, split=False):
    """Below 21 only; a Blackjack or any 21 stands (581.7(j)(1))."""
    return not is_blackjack(hand, split) and total(hand) < 21


# ---- the dealer (581.7(m), (n); 633a.7(m)) ---------------------------------

def dealer_must_draw(hand):
    """Draw to 16, stand on all 17s: a soft 17 stands too (581.2(b)(3)(iii))."""
    return total(hand) < DEALER_STANDS


def dealer_play(hand, draws):
    """The dealer's finished hand: `hand` (his two cards) and as many of `draws`,
    in order, as the rule takes."""
    _check_hand(hand, "dealer's hand", 2)
    out = list(hand)
    pending = list(draws)
    while dealer_must_draw(out):
        if not pending:
            raise InvalidHand("the dealer's %s totals %d and must draw, but no card is left "
                              "(581.7(n))" % (" ".join(cards.codes(out)), total(out)))
        out.append(pending.pop(0))
    return out


def check_dealer_hand(hand):
    """A dealer's hand that the draw rule could have produced and that is finished."""
    _check_hand(hand, "dealer's hand", 2)
    for k in range(2, len(hand)):
        if not dealer_must_draw(hand[:k]):
            raise InvalidHand("the dealer's %s stands at %d after %d cards and may not draw "
                              "more (581.7(n), 581.13(d))"
                              % (" ".join(cards.codes(hand)), total(hand[:k]), k))
    if dealer_must_draw(hand):
        raise InvalidHand("the dealer's %s totals %d and must still draw (581.7(n))"
                          % (" ".join(cards.codes(hand)), total(hand)))


# ---- splitting (581.11) ------------------------------------------------------

def can_split(hand, hands=1, aces_split=False):
    """Two cards identical in value (a king and a queen may, 581.11(a)); at most
    four hands (581.11(c)); split aces are never split again (581.11(e)).
    `hands` is how many hands the player has now; `aces_split` whether the
    hand came from splitting aces."""
    _check_hand(hand, "hand", 2)
    if len(hand) != 2:
        return False
    if card_value(hand[0]) != card_value(hand[1]):
        return False
    if hands >= MAX_HANDS:
        return False
    if aces_split and card_value(hand[0]) == 11:
        return False
    return True


# ---- Bust It (581.7(m), 581.12(c)) ------------------------------------------

def bust_it(dealer_hand):
    """The 581.12(c) hand the Bust It Wager wins with, or None when it loses.

    Only the dealer's first three cards count: it wins when his first two total
    less than 17 and the third busts him; 8-8-8 of one suit, else of one colour,
    pays instead of the third card (581.7(m)(2)(i)).
    """
    _check_hand(dealer_hand, "dealer's hand", 2)
    _no_tens(dealer_hand, "the dealer's hand")
    first_two = dealer_hand[:2]
    if total(first_two) >= BUST_IT_DRAW_BELOW:
        if len(dealer_hand) > 2:
            raise InvalidHand("the dealer's first two cards total %d and he draws no third card "
                              "(581.7(m)(1))" % total(first_two))
        return None
    if len(dealer_hand) < 3:
        raise InvalidHand("the dealer's first two cards total %d: Bust It needs the third card "
                          "he draws (581.7(m)(2))" % total(first_two))
    three = dealer_hand[:3]
    if total(three) <= 21:
        return None
    if all(cards.rank(c) == 6 for c in three):
        s = cards.suit(three[0])
        if cards.suit(three[1]) == s and cards.suit(three[2]) == s:
            return "eight_eight_eight_suited"
        red = cards.is_red(three[0])
        if cards.is_red(three[1]) == red and cards.is_red(three[2]) == red:
            return "eight_eight_eight_same_color"
    hand = _THIRD_CARD.get(cards.rank(three[2]))
    if hand is None:        # unreachable: a card below 6 cannot bust 16 or less
        raise RulesError("third card %s busted a total under 17" % cards.code(three[2]))
    return hand


# ---- Bet and Double Attack Wagers (581.7(o)) ---------------------------------

def bet_result(player, dealer, split=False):
    """WIN, LOSE or PUSH for a Bet Wager (581.7(o)(1)); `split` marks a hand formed
    by splitting, which is never a Blackjack."""
    _check_hand(player, "player's hand", 2)
    check_dealer_hand(dealer)
    p_bj = is_blackjack(player, split)
    d_bj = is_blackjack(dealer)
    if p_bj and d_bj:
        return PUSH                          # (iii)
    if d_bj:
        return LOSE                          # (ii)(A)
    if p_bj:
        return WIN                           # (i)(B), (i)(C): 21 in more cards loses to it
    p = total(player)
    d = total(dealer)
    if p > 21:
        return LOSE                          # (ii)(B), and when both bust: see module doc
    if d > 21:
        return WIN                           # (i)(A)
    if p > d:
        return WIN                           # (i)(B)
    if d > p:
        return LOSE                          # (ii)(C)
    return PUSH                              # (iii)


def double_attack_result(player, dealer, split=False):
    """As the Bet Wager, except RETURNED when the dealer's Blackjack beats a player
    without one (581.7(o)(2))."""
    result = bet_result(player, dealer, split)
    if result == LOSE and is_blackjack(dealer) and not is_blackjack(player, split):
        return RETURNED
    return result


# ---- Insurance (581.8) and surrender (581.9) in cents --------------------------

def _check_cents(amount, what):
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise RulesError("%s is a whole number of cents >= 0, not %r" % (what, amount))


def insurance_max(bet, chip_unit=1):
    """The largest Insurance Wager: half the Bet, or the next chip unit above half
    when half cannot be bet in chips (581.8(b)). All amounts in cents."""
    _check_cents(bet, "the Bet Wager")
    _check_cents(chip_unit, "the chip unit")
    if chip_unit == 0:
        raise RulesError("the chip unit must be at least one cent")
    return (bet + 2 * chip_unit - 1) // (2 * chip_unit) * chip_unit


def check_insurance(insurance, bet, chip_unit=1):
    """Raise when the Insurance Wager exceeds what 581.8(b) allows."""
    _check_cents(insurance, "the Insurance Wager")
    cap = insurance_max(bet, chip_unit)
    if insurance > cap:
        raise RulesError("an Insurance Wager of %d cents exceeds %d, half the Bet Wager of %d "
                         "cents in chips of %d (581.8(b))" % (insurance, cap, bet, chip_unit))


def insurance_wins(up_card, hole_card):
    """Insurance is offered on an ace up and wins on a king, queen or jack in the hole (581.8(a))."""
    _check_card(up_card, "the dealer's up card")
    _check_card(hole_card, "the dealer's hole card")
    _no_tens([up_card, hole_card], "the dealer's hand")
    if cards.rank(up_card) != cards.ACE:
        raise RulesError("Insurance is offered only when the dealer's first card is an ace, "
                         "not %s (581.8(a))" % cards.code(up_card))
    return cards.rank(hole_card) in _FACES


def insurance_net(insurance, up_card, hole_card):
    """Cents won (5 to 2, 581.12(b); the half cent rounded down) or lost."""
    _check_cents(insurance, "the Insurance Wager")
    if insurance_wins(up_card, hole_card):
        return insurance * 5 // 2
    return -insurance


def surrender(bet, double_attack, up_card, hole_card=None):
    """(Bet net, Double Attack net) in cents for a surrendered hand (581.9(b)).

    Half of each wager is collected; the odd cent stays with the player. With an
    ace, king, queen or jack up the hole card is read first, and a dealer Blackjack
    takes the whole Bet and returns the Double Attack Wager (581.9(b)(2)(i)).
    """
    _check_cents(bet, "the Bet Wager")
    _check_cents(double_attack, "the Double Attack Wager")
    _check_card(up_card, "the dealer's up card")
    _no_tens([up_card], "the dealer's hand")
    if cards.rank(up_card) in _BLACKJACK_UP:
        if hole_card is None:
            raise RulesError("with %s up the hole card decides the surrender (581.9(b)(2))"
                             % cards.code(up_card))
        _check_card(hole_card, "the dealer's hole card")
        _no_tens([hole_card], "the dealer's hand")
        if is_blackjack([up_card, hole_card]):
            return -bet, 0
    return settle.half_returned(bet), settle.half_returned(double_attack)
