"""The optional wagers of Blackjack (633a.7(g) and (o)): win conditions, when and
in what order they settle, and their paytables.

Every wager is a function from the cards it looks at to its OUTCOME: the hand
name it wins with on its paytable, or None when it loses. Two wagers can be paid
more than once and so return a list of hand names ([] when they lose):
Match-the-Dealer pays for each matching card (633a.7(g)(2)) and Royal Match 21
pays the Crown Treasure Bonus "in addition to" the Royal Match (g)(4).
`settle_outcome` turns any outcome into (result, net cents).

Cards are ints of controller.rules.cards; a hand may hold the same int twice
(a multi-deck shoe: two queens of hearts is the point of (g)(1)). The card
reader's answer is a bool, `dealer_blackjack`: None while it is not known.

The paytables, the settlement timing and the progressive payout rules are in
blackjack_side_payouts.py.

Readings of the text (it leaves these open; see docs/blackjack-side-wagers.md):
  * Hand terms follow 633a.1's definitions: a pair is two cards of one rank (a
    king and a queen are not a pair); "matched"/"suited pair" means two identical
    cards (rank and suit); "any 20" is two cards of different suits.
  * A two-card straight is two cards of consecutive rank; the ace is high (A-K,
    which (o)(3)(i) names) or low (A-2); a straight does not wrap (K-A-2).
  * In Between ranks the ace high only: an up card falls between A and 2 when it
    is 3..K (an 11-card spread).
  * Straight Jack: once a drawn card breaks the sequence, no later card counts
    ((o)(3)(i)(C)); the card that busts does not count ((D)). Only cards drawn
    to the unsplit hand extend it; a split leaves the two-card straight.
  * "Floorperson ... odds of N for 1 or greater": a payout's odds as "for 1"
    (N to D is (N+D)/D for 1; a meter share is share/wager for 1), compared >= N.
  * "a progressive payout that is X% or more of the jackpot amount": the amount
    paid (the wager included for "for 1" and meter payouts) against the meter.
  * Shared jackpots: integer cents, each share rounded down; the odd cents go
    one each to the winners in settlement order, from the dealer's right
    (the highest seat first), as Flop Poker's pot split does.
"""

from controller.errors import InvalidCard, InvalidHand
from controller.rules import blackjack as bj
from controller.rules import cards
from controller.rules import poker
from controller.rules import settle as st

GAME = "blackjack"

LUCKY_LADIES = "lucky_ladies"
MATCH_THE_DEALER = "match_the_dealer"
IN_BETWEEN = "in_between"
ROYAL_MATCH_21 = "royal_match_21"
BET_THE_SET_21 = "bet_the_set_21"
KINGS_BOUNTY = "kings_bounty"
SUPER_MATCH = "super_match"
THREE_CARD_POKER = "three_card_poker"
STRAIGHT_JACK = "straight_jack_progressive"
HOUSE_MONEY = "house_money"
BAD_BEAT = "bad_beat_progressive"
HIT_AND_RUN = "hit_and_run_progressive"

# In the order 633a.7 lists them: (g)(1)..(10), then (o)(1)..(3).
WAGERS = (LUCKY_LADIES, MATCH_THE_DEALER, IN_BETWEEN, ROYAL_MATCH_21, BET_THE_SET_21,
          KINGS_BOUNTY, SUPER_MATCH, THREE_CARD_POKER, STRAIGHT_JACK, HOUSE_MONEY,
          BAD_BEAT, HIT_AND_RUN)

# Where each wager's win condition is written ...
WIN_SECTION = {
    LUCKY_LADIES: "633a.7(g)(1)", MATCH_THE_DEALER: "633a.7(g)(2)",
    IN_BETWEEN: "633a.7(g)(3)", ROYAL_MATCH_21: "633a.7(g)(4)",
    BET_THE_SET_21: "633a.7(g)(5)", KINGS_BOUNTY: "633a.7(g)(6)",
    SUPER_MATCH: "633a.7(g)(7)", THREE_CARD_POKER: "633a.7(g)(8)",
    STRAIGHT_JACK: "633a.7(o)(3)(i)", HOUSE_MONEY: "633a.7(g)(10)",
    BAD_BEAT: "633a.7(o)(1)(i)", HIT_AND_RUN: "633a.7(o)(2)(i)",
}
# ... and the 633a.13 subsection 633a.7 sends its payout to (configuration).
PAYOUT_SECTION = {
    LUCKY_LADIES: "633a.13(c)", MATCH_THE_DEALER: "633a.13(d)", IN_BETWEEN: "633a.13(e)",
    ROYAL_MATCH_21: "633a.13(f)", BET_THE_SET_21: "633a.13(g)", KINGS_BOUNTY: "633a.13(h)",
    SUPER_MATCH: "633a.13(i)", BAD_BEAT: "633a.13(j)", THREE_CARD_POKER: "633a.13(k)",
    HIT_AND_RUN: "633a.13(l)", STRAIGHT_JACK: "633a.13(m)", HOUSE_MONEY: "633a.13(n)",
}

_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                 "nine", "ten", "eleven")

# Every hand each wager can produce, highest first: the rows a paytable may have.
HANDS = {
    LUCKY_LADIES: ("queen_of_hearts_pair_dealer_blackjack", "queen_of_hearts_pair",
                   "matched_20", "suited_20", "any_20"),
    MATCH_THE_DEALER: ("suited_match", "unsuited_match"),
    IN_BETWEEN: ("triple_match",) + tuple("spread_%d" % n for n in range(1, 12)),
    ROYAL_MATCH_21: ("crown_treasure_bonus", "royal_match", "suited_match"),
    BET_THE_SET_21: ("suited_pair", "pair"),
    KINGS_BOUNTY: ("two_kings_of_spades_dealer_blackjack", "two_kings_of_spades",
                   "suited_kings", "suited_queens_jacks_or_tens", "suited_20", "any_20"),
    SUPER_MATCH: ("four_of_a_kind", "two_pair", "three_of_a_kind", "pair"),
    THREE_CARD_POKER: ("straight_flush", "three_of_a_kind", "straight", "flush"),
    STRAIGHT_JACK: tuple("%s_card_straight" % _NUMBER_WORDS[n] for n in range(6, 1, -1)),
    HOUSE_MONEY: ("ace_king_suited", "two_card_straight_flush", "pair", "two_card_straight"),
    BAD_BEAT: ("twenty_vs_blackjack", "twenty_vs_21", "twenty"),
    HIT_AND_RUN: ("eight_or_more_cards", "seven_cards", "six_cards", "dealer_blackjack",
                  "five_cards"),
}

_TEN_OR_ACE = (cards.TEN, cards.JACK, cards.QUEEN, cards.KING, cards.ACE)
_HEARTS, _SPADES = 1, 0


# ---- checking the cards -------------------------------------------------------

def _check_card(card, what, section):
    if card == cards.JOKER or not cards.is_card(card):
        raise InvalidCard("%s is not a blackjack card: %r (%s)" % (what, card, section))


def _check_cards(hand, n, what, section):
    """Exactly `n` cards, or at least `-n` when n is negative (None: any number).
    Repeats are allowed: a shoe holds several decks."""
    if not isinstance(hand, (list, tuple)):
        raise InvalidHand("%s must be a list of cards, not %r (%s)" % (what, hand, section))
    if n is not None and ((n >= 0 and len(hand) != n) or (n < 0 and len(hand) < -n)):
        raise InvalidHand("%s must be %s%d cards, not %d (%s)"
                          % (what, "" if n >= 0 else "at least ", abs(n), len(hand), section))
    for c in hand:
        _check_card(c, "a card of the " + what, section)
    return list(hand)


def _up(up, section):
    _check_card(up, "the dealer's up card", section)
    return up


def _ten_or_ace(card):
    return cards.rank(card) in _TEN_OR_ACE


def _blackjack_known(up, dealer_blackjack, wager, section):
    """The card reader's answer, checked against the up card (only a ten-value or ace
    up card can give the dealer a Blackjack, 633a.7(h))."""
    if dealer_blackjack is None:
        raise InvalidHand("%s: with a %s up card this hand settles only once the dealer has "
                          "determined whether the hole card gives him a Blackjack; pass "
                          "dealer_blackjack (%s)" % (wager, cards.code(up), section))
    if dealer_blackjack and not _ten_or_ace(up):
        raise InvalidHand("%s: the dealer cannot have a Blackjack with a %s up card (633a.7(h))"
                          % (wager, cards.code(up)))
    return bool(dealer_blackjack)


def dealer_has_blackjack(up, hole):
    """The up card and hole card make a Blackjack (633a.1) - what the card reader answers."""
    return bj.is_blackjack([up, hole])


def _identical(a, b):
    return a == b


def _suited(a, b):
    return cards.suit(a) == cards.suit(b)


def _pair_held_for_the_reader(name, up, dealer_blackjack, wager, section):
    """Two queens of hearts (g)(1) or two kings of spades (g)(6): against a ten-value or
    ace up card the pair waits for the card reader and, with a dealer Blackjack, wins its
    own higher row (`name` + "_dealer_blackjack"), (i)-(ii)."""
    if not _ten_or_ace(up):
        if dealer_blackjack:
            _blackjack_known(up, dealer_blackjack, wager, section)
        return name
    if _blackjack_known(up, dealer_blackjack, wager, section + "(i), (ii)"):
        return name + "_dealer_blackjack"
    return name


# ---- (g)(1) Lucky Ladies Twenty Point Bonus -------------------------------------

def _twenty(player):
    return bj.total(player) == 20


def _queen_of_hearts(card):
    return cards.rank(card) == cards.QUEEN and cards.suit(card) == _HEARTS


def _king_of_spades(card):
    return cards.rank(card) == cards.KING and cards.suit(card) == _SPADES


def lucky_ladies(player, up, dealer_blackjack=None):
    """Hand won on a two-card 20 (633a.7(g)(1)), or None.

    Two queens of hearts against a ten-value or ace up card wait for the card
    reader, (g)(1)(i)-(ii): `dealer_blackjack` must then be given, and with a
    dealer Blackjack the pair wins its own higher row.
    """
    section = "633a.7(g)(1)"
    a, b = _check_cards(player, 2, "player's initial two cards", section)
    _up(up, section)
    if not _twenty([a, b]):
        return None
    if _queen_of_hearts(a) and _queen_of_hearts(b):
        return _pair_held_for_the_reader("queen_of_hearts_pair", up, dealer_blackjack,
                                         LUCKY_LADIES, section)
    if _identical(a, b):
        return "matched_20"
    if _suited(a, b):
        return "suited_20"
    return "any_20"


# ---- (g)(2) Match-the-Dealer ------------------------------------------------------

def match_the_dealer(player, up):
    """One hand name per initial card that matches the up card's rank ([] loses),
    633a.7(g)(2). Matching is by rank, never by value: a 10 matches only a 10 and
    a king only a king ("without regard to value")."""
    section = "633a.7(g)(2)"
    two = _check_cards(player, 2, "player's initial two cards", section)
    _up(up, section)
    out = []
    for c in two:
        if cards.rank(c) == cards.rank(up):
            out.append("suited_match" if _suited(c, up) else "unsuited_match")
    return out


# ---- (g)(3) In Between ------------------------------------------------------------

def in_between(player, up):
    """'triple_match', 'spread_N' (N ranks strictly between the two cards, the up card
    among them), or None, 633a.7(g)(3). Ace is high only."""
    section = "633a.7(g)(3)"
    a, b = _check_cards(player, 2, "player's initial two cards", section)
    _up(up, section)
    ra, rb, ru = cards.rank(a), cards.rank(b), cards.rank(up)
    if ra == rb == ru:
        return "triple_match"                      # (g)(3)(ii)
    lo, hi = (ra, rb) if ra < rb else (rb, ra)
    if lo < ru < hi:
        return "spread_%d" % (hi - lo - 1)         # (g)(3)(i)
    return None


# ---- (g)(4) Royal Match 21 --------------------------------------------------------

def _royal_match(a, b):
    ranks = (cards.rank(a), cards.rank(b))
    return _suited(a, b) and (ranks == (cards.KING, cards.QUEEN) or ranks == (cards.QUEEN, cards.KING))


def royal_match_deferred(player, up):
    """A Royal Match against a king or queen up card settles after the hole card is
    exposed, before the Blackjack Wager (633a.7(g)(4))."""
    a, b = _check_cards(player, 2, "player's initial two cards", "633a.7(g)(4)")
    _up(up, "633a.7(g)(4)")
    return _royal_match(a, b) and cards.rank(up) in (cards.KING, cards.QUEEN)


def royal_match_21(player, up, hole=None):
    """List of hands paid, 633a.7(g)(4): ['suited_match'], ['royal_match'], or
    ['royal_match', 'crown_treasure_bonus'] when the dealer's up and hole cards are
    also a Royal Match; [] loses. The hole card is needed only for a Royal Match
    against a king or queen up card (it settles after the hole card is exposed)."""
    section = "633a.7(g)(4)"
    a, b = _check_cards(player, 2, "player's initial two cards", section)
    _up(up, section)
    if _royal_match(a, b):
        if cards.rank(up) not in (cards.KING, cards.QUEEN):
            return ["royal_match"]
        if hole is None:
            raise InvalidHand("royal_match_21: a Royal Match against a %s up card settles after "
                              "the hole card is exposed; pass the hole card (%s)"
                              % (cards.code(up), section))
        _check_card(hole, "the dealer's hole card", section)
        if _royal_match(up, hole):
            return ["royal_match", "crown_treasure_bonus"]
        return ["royal_match"]
    if _suited(a, b):
        return ["suited_match"]
    return []


# ---- (g)(5) Bet the Set 21 --------------------------------------------------------

def bet_the_set_21(player):
    """'suited_pair' (identical cards), 'pair' (same rank), or None, 633a.7(g)(5)."""
    a, b = _check_cards(player, 2, "player's initial two cards", "633a.7(g)(5)")
    if cards.rank(a) != cards.rank(b):
        return None
    return "suited_pair" if _suited(a, b) else "pair"


# ---- (g)(6) King's Bounty ----------------------------------------------------------

def kings_bounty(player, up, dealer_blackjack=None):
    """Hand won on a two-card 20 (633a.7(g)(6)), or None; two kings of spades against
    a ten-value or ace up card wait for the card reader as in (g)(6)(i)-(ii)."""
    section = "633a.7(g)(6)"
    a, b = _check_cards(player, 2, "player's initial two cards", section)
    _up(up, section)
    if not _twenty([a, b]):
        return None
    if _king_of_spades(a) and _king_of_spades(b):
        return _pair_held_for_the_reader("two_kings_of_spades", up, dealer_blackjack,
                                         KINGS_BOUNTY, section)
    if _identical(a, b):
        return "suited_kings" if cards.rank(a) == cards.KING else "suited_queens_jacks_or_tens"
    if _suited(a, b):
        return "suited_20"
    return "any_20"


def _deferred_pair(player, up, pick, section):
    a, b = _check_cards(player, 2, "player's initial two cards", section)
    _up(up, section)
    return pick(a) and pick(b) and _ten_or_ace(up)


def lucky_ladies_deferred(player, up):
    """Two queens of hearts against a ten-value or ace up card: settled after all other
    Twenty Point Bonus Wagers, once the card reader has answered (633a.7(g)(1))."""
    return _deferred_pair(player, up, _queen_of_hearts, "633a.7(g)(1)")


def kings_bounty_deferred(player, up):
    """Two kings of spades against a ten-value or ace up card: settled after all other
    King's Bounty Wagers, once the card reader has answered (633a.7(g)(6))."""
    return _deferred_pair(player, up, _king_of_spades, "633a.7(g)(6)")


# ---- (g)(7) Super Match (Blackjack Switch) ---------------------------------------

def super_match(player):
    """Best of 'four_of_a_kind', 'two_pair', 'three_of_a_kind', 'pair' in the player's
    initial four cards, or None (633a.7(g)(7))."""
    four = _check_cards(player, 4, "player's initial four cards", "633a.7(g)(7)")
    counts = {}
    for c in four:
        r = cards.rank(c)
        counts[r] = counts.get(r, 0) + 1
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        return "four_of_a_kind"
    if shape[0] == 3:
        return "three_of_a_kind"
    if shape[0] == 2:
        return "two_pair" if shape[1] == 2 else "pair"
    return None


# ---- (g)(8) Three Card Poker --------------------------------------------------------

def three_card_poker(player, up):
    """'straight_flush', 'three_of_a_kind', 'straight' or 'flush' of the up card and the
    player's initial two cards, or None (633a.7(g)(8)); a straight beats a flush, A-K-Q
    suited is a straight flush, A-2-3 and A-K-Q are straights (poker.evaluate3)."""
    section = "633a.7(g)(8)"
    two = _check_cards(player, 2, "player's initial two cards", section)
    _up(up, section)
    name = poker.three_card_name(poker.evaluate3([up] + two), royal=False)
    if name in HANDS[THREE_CARD_POKER]:
        return name
    return None


# ---- straights of two and more cards: (g)(9), (g)(10), (o)(3) ---------------------

def _two_card_straight(a, b):
    """The sequence (low, high) of two cards of consecutive rank, the ace high (A-K)
    or low (A-2, its low position -1); None when they are not a straight."""
    ra, rb = cards.rank(a), cards.rank(b)
    lo, hi = (ra, rb) if ra < rb else (rb, ra)
    if hi - lo == 1:
        return lo, hi
    if lo == 0 and hi == cards.ACE:
        return -1, 0
    return None


def is_two_card_straight(player):
    a, b = _check_cards(player, 2, "player's initial two cards", "633a.7(g)(9)")
    return _two_card_straight(a, b) is not None


def straight_jack_length(player, drawn=()):
    """How many cards the Straight Jack straight counts (0: the initial two are not a
    straight), 633a.7(o)(3)(i): each drawn card that extends the sequence at either
    end adds one; the first that does not ends it (C); a card that busts the hand
    never counts (D). `drawn` are the cards drawn to the unsplit hand, in order."""
    section = "633a.7(o)(3)(i)"
    a, b = _check_cards(player, 2, "player's initial two cards", section)
    drawn = _check_cards(drawn, None, "player's drawn cards", section)
    hand = [a, b]
    for c in drawn:
        if bj.total(hand) >= 21:
            raise InvalidHand("the player's %s totals %d and may not draw %s (633a.7(k))"
                              % (" ".join(cards.codes(hand)), bj.total(hand), cards.code(c)))
        hand.append(c)
    seq = _two_card_straight(a, b)
    if seq is None:
        return 0
    lo, hi = seq
    length = 2
    hand = [a, b]
    for c in drawn:
        hand.append(c)
        if bj.total(hand) > 21:
            break                                 # (D): the busting card does not count
        r = cards.rank(c)
        if r == hi + 1:
            hi = r
        elif r == lo - 1 or (r == cards.ACE and lo == 0):
            lo = r if r != cards.ACE else -1
        else:
            break                                 # (C): the sequence is broken
        length += 1
    return length


def straight_jack_progressive(player, drawn=()):
    """'two_card_straight' .. 'six_card_straight', or None (633a.7(g)(9), (o)(3)(i)).
    Six is the longest possible: A-2-3-4-5-6 is 21 and any seventh card busts."""
    n = straight_jack_length(player, drawn)
    if n == 0:
        return None
    return "%s_card_straight" % _NUMBER_WORDS[n]


# ---- (g)(10) House Money -------------------------------------------------------------

def house_money(player):
    """'ace_king_suited', 'two_card_straight_flush', 'pair', 'two_card_straight', or
    None (633a.7(g)(10)). Ace-king suited is its own hand, named before the straight
    flush it would otherwise also be."""
    a, b = _check_cards(player, 2, "player's initial two cards", "633a.7(g)(10)")
    ra, rb = cards.rank(a), cards.rank(b)
    if _suited(a, b) and ((ra, rb) == (cards.ACE, cards.KING) or (ra, rb) == (cards.KING, cards.ACE)):
        return "ace_king_suited"
    if ra == rb:
        return "pair"
    if _two_card_straight(a, b) is not None:
        return "two_card_straight_flush" if _suited(a, b) else "two_card_straight"
    return None


def house_money_may_add_to_blackjack(player, up, dealer_blackjack=None):
    """May the dealer place the House Money payout on the Blackjack Wager at the
    player's choice? Only for a winning hand and only when the dealer has no
    Blackjack ((g)(10)(i)(B), (ii)); the Rules Submission may limit it to a portion
    ((ii)(A)), and the payout then counts as Blackjack Wager for a split or double
    down ((ii)(C))."""
    section = "633a.7(g)(10)"
    if house_money(player) is None:
        return False
    _up(up, section)
    if _ten_or_ace(up):
        return not _blackjack_known(up, dealer_blackjack, HOUSE_MONEY, "633a.7(g)(10)(i)")
    if dealer_blackjack:
        _blackjack_known(up, dealer_blackjack, HOUSE_MONEY, section)
    return True


# ---- (o)(1) Bad Beat Progressive, (o)(2) Hit and Run Progressive --------------------

def _check_dealer_draws(dealer, section):
    """The dealer drew no card after standing (633a.7(m)); he may stop early (n)."""
    for k in range(2, len(dealer)):
        if bj.total(dealer[:k]) >= bj.DEALER_STANDS:
            raise InvalidHand("the dealer's %s stands at %d after %d cards and may not draw "
                              "more (633a.7(m)) (%s)"
                              % (" ".join(cards.codes(dealer)), bj.total(dealer[:k]), k, section))


def bad_beat_progressive(player, dealer, any_twenty=False):
    """'twenty_vs_blackjack', 'twenty_vs_21', or None: the player's hand totals 20
    and the dealer has Blackjack or 21 (633a.7(o)(1)(i)). `any_twenty` is the Rules
    Submission's option: then a 20 against any other dealer hand wins 'twenty'."""
    section = "633a.7(o)(1)(i)"
    hand = _check_cards(player, -2, "player's hand", section)
    dealer = _check_cards(dealer, -2, "dealer's hand", section)
    _check_dealer_draws(dealer, section)
    if bj.total(hand) != 20:
        return None
    if bj.is_blackjack(dealer):
        return "twenty_vs_blackjack"
    if bj.total(dealer) == 21:
        return "twenty_vs_21"
    return "twenty" if any_twenty else None


def hit_and_run_progressive(dealer):
    """'dealer_blackjack', or the dealer's card count from five up ('five_cards' ..
    'seven_cards', 'eight_or_more_cards'), the card that busts him included; None
    otherwise (633a.7(o)(2)(i))."""
    section = "633a.7(o)(2)(i)"
    dealer = _check_cards(dealer, -2, "dealer's hand", section)
    _check_dealer_draws(dealer, section)
    if bj.is_blackjack(dealer):
        return "dealer_blackjack"
    n = len(dealer)
    if n < 5:
        return None
    if n >= 8:
        return "eight_or_more_cards"
    return "%s_cards" % _NUMBER_WORDS[n]


# ---- settling an outcome ------------------------------------------------------------

def outcome_hands(outcome):
    """The hand names an outcome pays: [] for None, [name] for a name, the list itself."""
    if outcome is None:
        return []
    if isinstance(outcome, str):
        return [outcome]
    return list(outcome)


def settle_outcome(table, outcome, wager, meter=None):
    """(result, net cents) of `wager` cents on `table` for an outcome of the functions
    above. A list pays each of its hands the table lists (Match-the-Dealer's cards,
    Royal Match plus Crown Treasure) and skips a hand the table does not offer; it
    loses only when none is paid. A single name the table does not list loses."""
    if outcome is None or isinstance(outcome, str):
        return st.settle(table, outcome, wager, meter)
    pays = [table.pay(h) for h in outcome if table.pay(h) is not None]
    if not pays:
        return st.LOSE, st.net_for(None, wager, meter)
    net = 0
    for p in pays:
        net += st.net_for(p, wager, meter)
    return st.WIN, net
