"""The six-card path (`best_value` on six cards, poker.evaluate6) that Raise It Up
settles on (669a.11(i)(2)): a rank table and a flush check, held to the best of
the six five-card hands it stands for."""
import pytest

from controller.rules import cards as C
from controller.rules import poker as P


def _best_of_fives(six):
    return max(P.evaluate5(list(f)) for f in P._subsets(list(six), 5))


def _sample(deck, n, state):
    """n distinct cards by a fixed linear congruential sequence (MicroPython has no
    random.sample): the same hands under both interpreters."""
    pool = list(deck)
    out = []
    for _ in range(n):
        state = (state * 1103515245 + 12345) % 2147483648
        out.append(pool.pop(state % len(pool)))
    return out, state


@pytest.mark.reg("669a.6(b)", "669a.11(i)")
def test_six_card_value_is_the_best_five_on_random_hands():
    deck = C.standard_deck()
    state = 669
    for _ in range(5000):
        six, state = _sample(deck, 6, state)
        assert P.best_value(six) == P.evaluate6(six) == _best_of_fives(six)


@pytest.mark.reg("669a.6(a)", "669a.6(b)")
@pytest.mark.parametrize("codes", [
    "As Ks Qs Js Ts 9s",      # royal flush with a sixth suited card
    "9h Th Jh Qh Kh Ah",      # the same, a royal beats the king-high straight flush
    "Ac 2c 3c 4c 5c Kd",      # the wheel straight flush
    "2s 3s 4s 5s 7s 6h",      # a flush with a 6 of another suit making a straight
    "2d 7d 9d Jd Kd Ks",      # flush over a pair
    "Ah Ad Ac As Kh Kd",      # four of a kind, king kicker
    "8h 8d 8c 5s 5h 5d",      # two trips: eights full of fives
    "Ah 2d 3c 4s 5h 9d",      # the wheel (669a.6(a))
    "Kh Qd Jc Ts 9h 2d",      # king-high straight
    "Qh Kd Ac 2s 3h 9d",      # no wrap-around straight: ace high
])
def test_six_card_value_on_the_hands_that_test_the_rules(codes):
    six = C.parse_all(codes)
    assert P.best_value(six) == _best_of_fives(six)
