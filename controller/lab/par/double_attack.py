"""Exact par sheets of Double Attack Blackjack (581.12).

Bust It (581.12(c)) depends only on the dealer's first three cards, and
Insurance (581.12(b)) only on his hole card under an ace: both are priced
exactly over the eight 48-card decks (581.3(a)), cards drawn without
replacement. The players' cards are left unseen: they are dealt and drawn
without sight of the hole card, so they do not change the distribution of the
dealer's cards from a freshly shuffled batch. The Bet, Double Attack and Double Down Wagers
depend on the player's decisions (581.9-581.11): they are priced together under basic
strategy (controller/lab/par/blackjack_strategy.py states the method).

Counting runs over classes of identical cards (a rank in a suit: 48 classes
in the batch, each 8 copies), with the rules core deciding each class triple,
so the sheet and the table settle by the same code.
"""

from controller.errors import InvalidHand
from controller.lab.par import blackjack_strategy as strategy
from controller.lab.par.counting import classes
from controller.lab.par.sheet import LOSES, from_paytable
from controller.rules import blackjack, cards, paytables

GAME = paytables.DAB
_DRAWS = object()


def _deck(deck):
    deck = cards.double_attack_batch() if deck is None else list(deck)
    if len(deck) < 3:
        raise ValueError("Bust It needs a deck of at least 3 cards, not %d" % len(deck))
    return deck


def bust_it_counts(deck=None):
    """({hand or LOSES: ordered draws}, all ordered draws) of the dealer's up,
    hole and third card from `deck` (default: the 384-card batch)."""
    deck = _deck(deck)
    n = len(deck)
    cls = classes(deck)
    counts = {LOSES: 0}
    for i, (a, na) in enumerate(cls):
        for j, (b, nb) in enumerate(cls):
            two = na * (nb - (i == j))
            if two <= 0:
                continue
            try:
                decided = blackjack.bust_it([a, b])     # 581.7(m)(1): no third card drawn
            except InvalidHand:
                decided = _DRAWS                        # 581.7(m)(2): the third card decides
            if decided is not _DRAWS:
                hand = decided or LOSES
                counts[hand] = counts.get(hand, 0) + two * (n - 2)
                continue
            for k, (c, nc) in enumerate(cls):
                left = nc - (k == i) - (k == j)
                if left <= 0:
                    continue
                hand = blackjack.bust_it([a, b, c]) or LOSES
                counts[hand] = counts.get(hand, 0) + two * left
    return counts, n * (n - 1) * (n - 2)


def bust_it_sheet(deck=None):
    counts, combos = bust_it_counts(deck)
    table = paytables.get(GAME, "bust_it")
    paid = dict((h, counts.get(h, 0)) for h in table.hands())    # a small deck may lack some
    sheet = from_paytable(table, paid, combos,
                          note="ordered draws of the dealer's up card, hole card and third card "
                               "from %d cards without replacement" % len(_deck(deck)))
    if sheet.outcomes[-1].count != counts[LOSES]:
        raise AssertionError("Bust It losing draws: %d counted, %d by difference"
                             % (counts[LOSES], sheet.outcomes[-1].count))
    return sheet


def insurance_counts(deck=None):
    """(winning hole cards, possible hole cards) under an ace up card (581.8(a)).

    The same for every ace, which the count checks rather than assumes.
    """
    deck = _deck(deck)
    cls = classes(deck)
    found = None
    for i, (up, _) in enumerate(cls):
        if cards.rank(up) != cards.ACE:
            continue
        wins = 0
        for k, (hole, m) in enumerate(cls):
            if blackjack.insurance_wins(up, hole):
                wins += m - (k == i)
        if found is not None and found != wins:
            raise AssertionError("Insurance wins differ by the ace up: %d and %d" % (found, wins))
        found = wins
    if found is None:
        raise ValueError("a deck without aces never offers Insurance (581.8(a))")
    return found, len(deck) - 1


def insurance_sheet(deck=None):
    wins, combos = insurance_counts(deck)
    return from_paytable(paytables.get(GAME, "insurance"), {"win": wins}, combos,
                         note="conditional on an ace up card: the %d hole cards left, "
                              "no other card seen" % combos)


def base_game(options=None):
    """Bet, Double Attack and Double Down together, per unit of the Bet, under basic strategy
    with the Double Attack decision (controller/lab/par/blackjack_strategy.py)."""
    from controller.lab.par.blackjack import BaseGamePar
    rules = strategy.double_attack_rules(options)
    return BaseGamePar(GAME, ["bet", "double_attack", "double_down"], "581.12(a)", rules,
                       "eight 48-card decks (581.3(a)); Blackjack pays 1 to 1 (581.12(a)); the "
                       "dealer stands on all 17s (581.7(n)); double down on two or more cards "
                       "(581.10(a)); surrender at any time before standing (581.9(a)), after "
                       "doubling with the Double Down Wager %s (options.surrender_double_down)"
                       % ("half collected" if rules.surrender_double_down == "half"
                          else "returned"))


def sheets(config=None):
    """Every wager of 581.12, in the order of the section; the base game under the table's
    configured options."""
    options = (config or {}).get("options", {})
    return [base_game(options), insurance_sheet(), bust_it_sheet()]
