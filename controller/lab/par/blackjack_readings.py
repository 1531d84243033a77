"""The blackjack games' readings of docs/interpretations.md, under basic strategy
(controller/lab/par/readings.py collects them; the declarations of Double Attack and Blackjack
name their lists)."""

from fractions import Fraction

from controller.lab.par import blackjack_strategy as strategy
from controller.lab.par.reading import Reading

def _edge(rules):
    """The hold as the sheet prints it: the chart solved under `rules`, played with every
    card seen removed outside split rounds (blackjack_exact, issue 36)."""
    from controller.lab.par import blackjack_exact
    return Fraction(blackjack_exact.solved(rules).house_edge())


def _both(make, **alternative):
    return lambda: (_edge(make()), _edge(make(**alternative)))


def _dab_double_down():
    return (_edge(strategy.double_attack_rules({"surrender_double_down": "half"})),
            _edge(strategy.double_attack_rules({"surrender_double_down": "returned"})))


DAB = strategy.double_attack_rules
BJ = strategy.blackjack_rules

DOUBLE_ATTACK = [
    Reading("dab-surrender-double-down",
            "A surrender after doubling collects half of the Double Down Wager (581.9(b))",
            "Double Attack base game under basic strategy",
            "half the Double Down collected", "the Double Down returned",
            holds=_dab_double_down),
    Reading("dab-split-not-blackjack", "A split hand is never a Blackjack (581.1)",
            "Double Attack base game under basic strategy",
            "a split ace and king is 21", "a Blackjack paid 1 to 1",
            holds=_both(DAB, split_blackjack=True)),
    Reading("dab-bust-loses", "A player over 21 loses even when the dealer busts (581.7(o)(1))",
            "Double Attack base game under basic strategy",
            "the player's bust loses", "a tie when both bust",
            holds=_both(DAB, bust_pushes_on_dealer_bust=True)),
    Reading("dab-soft-17", "The dealer stands on every 17, soft 17 included (581.7(n))",
            "Double Attack base game under basic strategy",
            "stands on soft 17", "draws to soft 17",
            holds=_both(DAB, hit_soft_17=True)),
]

BLACKJACK = [
    Reading("bj-split-not-blackjack", "A split hand is never a Blackjack (633a.1 as 581.1)",
            "Blackjack Wager under basic strategy, default options",
            "a split ace and ten is 21", "a Blackjack paid 3 to 2",
            holds=_both(BJ, split_blackjack=True)),
    Reading("bj-bust-loses", "A player over 21 loses whatever the dealer's hand (633a.7(p),(q))",
            "Blackjack Wager under basic strategy, default options",
            "the player's bust loses", "a tie when both bust",
            holds=_both(BJ, bust_pushes_on_dealer_bust=True)),
]
