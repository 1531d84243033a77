"""The hold under each reading of docs/interpretations.md that moves money, and under its
alternative (issue 19).

Why: a reading of a silent or loose text is a choice the certificate holder files. A choice
that turns a wager's hold negative, or moves it by more than a tenth of a percent, is one a
lab and a regulator must see with its figure; one that does not can be argued on the text
alone. Each Reading below prices both sides with the par machinery, and
tests/par/test_readings.py checks that docs/interpretations.md prints exactly the figures
this module computes (`render()`), flagged where they cross the line.

A reading whose hold needs a strategy this module does not own (Flop Poker's and Raise It
Up's optimal play, Six-Card Fortune's house way) is listed with `pending` saying what it
waits for; its line says so instead of a figure.
"""

from fractions import Fraction

from controller.par import blackjack_strategy as strategy
from controller.rules import paytables as pt

FLAG_MOVE = Fraction(1, 1000)       # a tenth of a percent of the wager


class Reading:
    def __init__(self, key, title, wager, taken, alternative, holds=None, pending=None):
        self.key = key
        self.title = title              # the reading, as docs/interpretations.md words it
        self.wager = wager              # what the hold is of
        self.taken = taken              # the reading the firmware takes
        self.alternative = alternative  # the reading priced against it
        self.holds = holds              # () -> (hold taken, hold alternative), fractions of 1
        self.pending = pending          # why there is no figure yet

    def figures(self):
        if self.holds is None:
            return None
        taken, alternative = self.holds()
        return float(taken), float(alternative)

    def flagged(self):
        f = self.figures()
        if f is None:
            return False
        taken, alternative = f
        return taken < 0 or alternative < 0 or abs(taken - alternative) > float(FLAG_MOVE)

    def line(self):
        """The line docs/interpretations.md carries for this reading."""
        f = self.figures()
        if f is None:
            return "- `%s` %s: hold pending (%s)." % (self.key, self.wager, self.pending)
        taken, alternative = f
        flag = ""
        if self.flagged():
            why = []
            if taken < 0 or alternative < 0:
                why.append("a negative hold")
            if abs(taken - alternative) > float(FLAG_MOVE):
                why.append("moves the hold by %.2f%%" % (100 * abs(taken - alternative)))
            flag = " **FLAGGED: %s.**" % " and ".join(why)
        return ("- `%s` %s: %.4f%% as read (%s); %.4f%% otherwise (%s).%s"
                % (self.key, self.wager, 100 * taken, self.taken, 100 * alternative,
                   self.alternative, flag))


# ---- the blackjack games, under basic strategy -------------------------------------------

def _edge(rules):
    return Fraction(strategy.solve(rules)[1].house_edge())


def _both(make, **alternative):
    return lambda: (_edge(make()), _edge(make(**alternative)))


def _dab_double_down():
    return (_edge(strategy.double_attack_rules({"surrender_double_down": "half"})),
            _edge(strategy.double_attack_rules({"surrender_double_down": "returned"})))


# ---- three-card hands (583.6(d), 669a.6(c), 583.12(c), 669a.12(a)) -------------------------

def three_card_counts(a23=True, akq=True, royal=False):
    """{hand: count} of the 22,100 three-card hands, counted by ranks and suits here:
    `a23`/`akq` whether A-2-3 and A-K-Q are straights, `royal` A-K-Q suited apart."""
    from itertools import combinations
    out = {"three_of_a_kind": 13 * 4, "pair": 13 * 6 * 12 * 4}
    for ranks in combinations(range(13), 3):        # 0..12 for 2..A
        r = set(ranks)
        run = max(ranks) - min(ranks) == 2
        if r == {12, 0, 1}:
            run = a23
        if r == {10, 11, 12}:
            run = akq
        suited, unsuited = 4, 64 - 4
        if run:
            key = "royal" if royal and r == {10, 11, 12} else "straight_flush"
            out[key] = out.get(key, 0) + suited
            out["straight"] = out.get("straight", 0) + unsuited
        else:
            out["flush"] = out.get("flush", 0) + suited
    return out


def _three_card_hold(game, wager, letter=None, **how):
    table = pt.get(game, wager, letter) if letter else pt.get(game, wager)
    counts = three_card_counts(**how)
    back = Fraction(0)
    for hand, pay in table.rows:
        back += counts.get(hand, 0) * (1 + Fraction(pay.num, pay.den))
    return 1 - back / 22100


def _pair_plus_straights():
    return (_three_card_hold(pt.RIU, "pair_plus", "A"),
            _three_card_hold(pt.RIU, "pair_plus", "A", a23=False))


def _bonus_straights():
    return (_three_card_hold(pt.FLOP, "three_card_bonus", royal=True),
            _three_card_hold(pt.FLOP, "three_card_bonus", royal=True, a23=False))


def _bonus_royal():
    return (_three_card_hold(pt.FLOP, "three_card_bonus", royal=True),
            _three_card_hold(pt.FLOP, "three_card_bonus", royal=False))


DAB = strategy.double_attack_rules
BJ = strategy.blackjack_rules

READINGS = [
    Reading("dab-surrender-double-down",
            "A surrender after doubling collects half of the Double Down Wager (581.9(b))",
            "Double Attack base game under basic strategy",
            "half the Double Down collected", "the Double Down returned",
            holds=_dab_double_down),
    Reading("dab-split-not-blackjack", "A split hand is never a Blackjack (581.1)",
            "Double Attack base game under basic strategy",
            "a split ace and king is 21", "a Blackjack paid 1 to 1",
            holds=_both(DAB, split_blackjack=True)),
    Reading("bj-split-not-blackjack", "A split hand is never a Blackjack (633a.1 as 581.1)",
            "Blackjack Wager under basic strategy, default options",
            "a split ace and ten is 21", "a Blackjack paid 3 to 2",
            holds=_both(BJ, split_blackjack=True)),
    Reading("dab-bust-loses", "A player over 21 loses even when the dealer busts (581.7(o)(1))",
            "Double Attack base game under basic strategy",
            "the player's bust loses", "a tie when both bust",
            holds=_both(DAB, bust_pushes_on_dealer_bust=True)),
    Reading("bj-bust-loses", "A player over 21 loses whatever the dealer's hand (633a.7(p),(q))",
            "Blackjack Wager under basic strategy, default options",
            "the player's bust loses", "a tie when both bust",
            holds=_both(BJ, bust_pushes_on_dealer_bust=True)),
    Reading("dab-soft-17", "The dealer stands on every 17, soft 17 included (581.7(n))",
            "Double Attack base game under basic strategy",
            "stands on soft 17", "draws to soft 17",
            holds=_both(DAB, hit_soft_17=True)),
    Reading("three-card-straights-pair-plus",
            "Three-card straights include A-2-3 and A-K-Q (669a.6(c))",
            "Pair Plus, paytable A (669a.12(a))",
            "A-2-3 a straight", "A-2-3 ace high, no straight",
            holds=_pair_plus_straights),
    Reading("three-card-straights-bonus",
            "Three-card straights include A-2-3 and A-K-Q (583.6(d))",
            "Three Card Bonus (583.12(c))",
            "A-2-3 a straight", "A-2-3 ace high, no straight",
            holds=_bonus_straights),
    Reading("three-card-bonus-royal",
            "Three Card Bonus pays A-K-Q suited as its royal (583.12(c))",
            "Three Card Bonus (583.12(c))",
            "A-K-Q suited the royal, 100 to 1", "a straight flush, 50 to 1",
            holds=_bonus_royal),
    Reading("flop-below-jacks", "A hand below a pair of jacks loses the Ante and the Flop "
            "Wager (583.11(d)(2))", "Flop Poker Ante and Flop under the optimal Flop decision",
            "both lost", "both returned", pending="needs Flop Poker's optimal-strategy hold"),
    Reading("riu-progressive-three-cards", "The Progressive Payout Wager is paid on the "
            "player's three cards (669a.11(i)(3)(i))", "Raise It Up Progressive Payout Wager",
            "the player's three cards", "with the community cards",
            pending="needs Raise It Up's optimal strategy (the wager is forfeited without a "
                    "Play Wager, 669a.11(g))"),
    Reading("riu-fold-loses-pair-plus", "A fold loses the Pair Plus with the Ante and Blind "
            "(669a.11(f))", "Raise It Up Pair Plus with the base game",
            "lost on a fold", "kept on a fold",
            pending="needs Raise It Up's optimal strategy (how often a player folds)"),
    Reading("scf-pushes", "A higher high hand with an identical low hand, or the reverse, is "
            "a push (670a.11(f))", "Six-Card Fortune Wager under the house way",
            "a push", "the dealer's (identical hands go to the dealer, 670a.6(c))",
            pending="needs the Six-Card Fortune house-way hold"),
    Reading("scf-double-down-returned", "A Double Down is returned when the dealer holds less "
            "than a pair of eights, even on a foul (670a.11(g)(2))",
            "Six-Card Fortune Double Down under the house way", "returned", "lost on a foul",
            pending="needs the Six-Card Fortune house-way hold"),
    Reading("scf-joker", "The joker completes straights and flushes only, as the highest rank "
            "not held (670a)", "Fortune Bonus, Insurance and Progressive (670a.12)",
            "a bug completing straights and flushes", "a wild card",
            pending="needs the six-card counts with the joker read the other way"),
]


def by_key(key):
    for r in READINGS:
        if r.key == key:
            return r
    raise KeyError(key)


def render():
    """The lines of docs/interpretations.md's section "Holds under each reading"."""
    return [r.line() for r in READINGS]
