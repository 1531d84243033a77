"""Settlement of a Flop Poker player's wagers (583.11(d), (e); 583.12).

One player at a time, from the dealer's right: the Three Card Bonus on the
player's three cards, then the Ante and Flop on the best hand of those three
and exactly two community cards; then the Pot to the best hand at the table,
folded players included.
"""

from controller.errors import RulesError
from controller.rules import cards as C
from controller.rules import paytables as pt
from controller.rules import poker
from controller.rules import settle as settlement

GAME = pt.FLOP
QUALIFYING_PAIR = C.JACK          # 583.11(d)(2): a pair of jacks or better


def three_card_bonus_hand(player3):
    """583.12(c) hand of the player's three cards (583.6(d)), or None (no pair)."""
    name = poker.three_card_name(poker.three_card_value(player3), royal=True)
    return None if name == "high_card" else name


def settle_three_card_bonus(player3, wager):
    return settlement.settle(pt.get(GAME, "three_card_bonus"), three_card_bonus_hand(player3),
                             wager)


def flop_hand(player3, community3):
    """(583.12(b) hand or None, value, five cards) of the player's best 3+2 hand."""
    value, five = poker.best_flop_poker(player3, community3)
    return poker.paytable_hand(value, QUALIFYING_PAIR), value, five


def settle_ante_and_flop(player3, community3, ante, flop, folded=False):
    """{'ante': (result, net), 'flop': (result, net)}.

    A player who folded lost the Ante when he folded (583.11(b)) and has no Flop
    Wager; one who made it must have wagered the Ante's amount (583.7(d)(2)).
    A hand below a pair of jacks loses both; a qualifying hand is paid the Ante
    at 1 to 1 and the Flop by the 583.12(b) table.
    """
    if folded:
        if flop:
            raise RulesError("a player who folds makes no Flop Wager (583.1, 583.11(b))")
        return {"ante": (settlement.LOSE, -ante)}
    if flop != ante:
        raise RulesError("the Flop Wager %d must equal the Ante Wager %d (583.7(d)(2))"
                         % (flop, ante))
    hand, _, _ = flop_hand(player3, community3)
    if hand is None:
        return {"ante": (settlement.LOSE, -ante), "flop": (settlement.LOSE, -flop)}
    return {"ante": settlement.settle(pt.get(GAME, "ante"), "win", ante),
            "flop": settlement.settle(pt.get(GAME, "flop"), hand, flop)}


def pot_shares(values_by_seat, pot_wagers):
    """{seat: net cents} of the Pot Wagers (583.11(e)).

    `values_by_seat` holds each player's best 3+2 hand value (folded players too);
    `pot_wagers` each player's Pot Wager. The highest hand takes the whole pot; a
    tie broken by the next highest card is already in the value, so only identical
    hands split. The pot is split evenly; cents that do not divide go one each to
    the tied winners in settlement order, from the dealer's right (583.11(d)).
    """
    seats = sorted(values_by_seat)
    if sorted(pot_wagers) != seats:
        raise RulesError("every player with a Pot Wager has a hand, and only they (583.7(d)(1))")
    if len(seats) < 1:
        return {}
    pot = 0
    for s in seats:
        pot += pot_wagers[s]
    best = max(values_by_seat[s] for s in seats)
    winners = [s for s in sorted(seats, reverse=True) if values_by_seat[s] == best]
    share, odd = divmod(pot, len(winners))
    out = {}
    for s in seats:
        out[s] = -pot_wagers[s]
    for i, s in enumerate(winners):
        out[s] += share + (1 if i < odd else 0)
    return out
