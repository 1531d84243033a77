"""Poker rankings of 583.6 and 669a.6, taken from the text case by case."""
import pytest

from controller.errors import InvalidCard, InvalidHand
from controller.lab.par.three_card import three_card_counts
from controller.rules import cards as C
from controller.rules import poker as P


def v(codes):
    return P.hand_value(C.parse_all(codes))


def name(codes):
    return P.category_name(v(codes))


# The permissible five-card hands, highest first, with the examples the text gives.
@pytest.mark.reg("583.6(b)")
@pytest.mark.parametrize("codes, expected", [
    ("As Ks Qs Js Ts", "royal_flush"),
    ("Kh Qh Jh Th 9h", "straight_flush"),
    ("Ad 2d 3d 4d 5d", "straight_flush"),
    ("Ac Ad Ah As 2c", "four_of_a_kind"),
    ("Ac Ad Ah Ks Kc", "full_house"),
    ("Ac Kc Qc Jc 9c", "flush"),
    ("2h 3h 4h 5h 7h", "flush"),
    ("As Kd Qc Jh Ts", "straight"),
    ("As 2d 3c 4h 5s", "straight"),
    ("Ac Ad Ah 7s 2c", "three_of_a_kind"),
    ("Ac Ad Kh Ks 2c", "two_pair"),
    ("Ac Ad 9h 7s 2c", "pair"),
    ("Ac Qd 9h 7s 2c", "high_card"),
])
def test_five_card_categories(codes, expected):
    assert name(codes) == expected


@pytest.mark.reg("583.6(b)")
def test_categories_rank_in_the_order_of_the_text():
    ladder = ["As Ks Qs Js Ts", "Kh Qh Jh Th 9h", "2c 2d 2h 2s 3c", "3c 3d 3h 2s 2c",
              "2h 3h 4h 5h 7h", "2s 3d 4c 5h 6s", "2c 2d 2h 4s 5c", "3c 3d 2h 2s 4c",
              "2c 2d 3h 4s 5c", "Ac Qd 9h 7s 2c"]
    values = [v(h) for h in ladder]
    for higher, lower in zip(values, values[1:]):
        assert higher > lower


@pytest.mark.reg("583.6(a)")
@pytest.mark.parametrize("codes", ["Qs Kd Ac 2h 3s", "Ks Ac 2d 3h 4c", "Jh Qd Kc As 2h"])
def test_ace_does_not_wrap_around(codes):
    assert name(codes) == "high_card"


@pytest.mark.reg("583.6(a)", "669a.6(a)")
def test_ace_low_only_in_the_lowest_straight():
    wheel = v("As 2d 3c 4h 5s")
    six_high = v("2s 3d 4c 5h 6s")
    broadway = v("As Kd Qc Jh Ts")
    assert wheel < six_high < broadway
    assert v("Ah 2h 3h 4h 5h") < v("2d 3d 4d 5d 6d")


@pytest.mark.reg("583.6(b)(2)")
def test_king_high_straight_flush_is_the_highest_straight_flush():
    assert name("Kh Qh Jh Th 9h") == "straight_flush"
    assert v("Kh Qh Jh Th 9h") > v("Qc Jc Tc 9c 8c")
    assert v("As Ks Qs Js Ts") > v("Kh Qh Jh Th 9h")


@pytest.mark.reg("583.6(c)")
@pytest.mark.parametrize("better, worse", [
    ("Ac Kc Qc Jc 9c", "Ad Kd Qd Jd 8d"),       # flushes: highest card not in the other
    ("Ac Ad Kh 9s 2c", "Ah As Kc 8s 7c"),       # same pair, kicker decides
    ("Kc Kd 9h 9s Ac", "Kh Ks 9c 9d Qc"),       # same two pair, kicker
    ("Ac Ad 3h 3s 2c", "Kc Kd Qh Qs Jc"),       # higher top pair
    ("3c 3d 3h As Ac", "2c 2d 2h Ks Kc"),       # full houses by the three of a kind
    ("9c 8d 7h 6s 5c", "8c 7d 6h 5s 4c"),
    ("Ac Qd 9h 7s 3c", "Ac Qd 9h 7s 2c"),
])
def test_tie_break_by_highest_card_not_in_the_other(better, worse):
    assert P.compare(v(better), v(worse)) == 1
    assert P.compare(v(worse), v(better)) == -1


@pytest.mark.reg("583.6(c)")
@pytest.mark.parametrize("a, b", [
    ("Ac Kc Qd Jh 9s", "Ad Kh Qs Js 9c"),
    ("As Kd Qc Jh Ts", "Ah Ks Qd Jc Td"),
    ("7c 7d 5h 4s 2c", "7h 7s 5c 4d 2d"),
])
def test_identical_ranks_are_a_tie(a, b):
    assert P.compare(v(a), v(b)) == 0


@pytest.mark.reg("669a.6(b)")
def test_best_five_of_six_for_raise_it_up():
    # three player cards and three community cards
    assert name("Ah Kh 2c Qh Jh Th") == "royal_flush"
    assert name("9s 9d 4c 9h 4h 2c") == "full_house"
    assert name("2s 3d 4c 5h Ac Kd") == "straight"
    assert P.category(v("Ts Td 4c 5h 8c Kd")) == P.PAIR


@pytest.mark.reg("583.6(b)", "637a(d)")
def test_best_of_seven_finds_flush_over_straight_and_full_house_over_flush():
    assert name("2h 3h 4c 5d 6s 9h Kh Ah") == "flush"  # more than seven cards too
    assert name("2h 3d 4c 5d 6s 9h Kh") == "straight"
    assert name("2h 3h 4c 5d 6s 9h Kh") == "straight"
    assert name("2h 3h 4h 5d 6s 9h Kh") == "flush"
    assert name("2h 2d 2c 9d 6h 9h Kh") == "full_house"
    assert name("8h 9h Th Jh Qh Kh 2c") == "straight_flush"
    assert name("Ah Kh Qh Jh Th 9h 8h") == "royal_flush"
    assert name("Ah Ad Kh Kd Qh Qd 2c") == "two_pair"
    assert v("Ah Ad Kh Kd Qh Qd 2c") == v("Ah Ad Kh Kd Qc")
    assert name("Ah Ad Ac Kd Kh Kc 2c") == "full_house"
    assert v("Ah Ad Ac Kd Kh Kc 2c") == v("Ah Ad Ac Kd Kh")


@pytest.mark.reg("583.6(b)", "637a(d)")
def test_seven_card_evaluation_equals_the_best_of_its_fives():
    hands = ["2h 3h 4h 5d 6s 9h Kh", "Ah Ad Ac Ks Kh 2c 2d", "7s 8s 9s Ts Js Qd Kc",
             "As 2s 3s 4s 5s 6d 7d", "2c 2d 2h 2s 3c 3d 3h", "Ac Kd 9h 7s 5c 4d 2h"]
    for h in hands:
        cards = C.parse_all(h)
        best = max(P.evaluate5(f) for f in P._subsets(cards, 5))
        assert P.evaluate7(cards) == best
        assert P.best_value(cards) == best
        assert P.evaluate5(P.best_five(cards)) == best


@pytest.mark.reg("583.11(d)(2)")
def test_flop_poker_uses_all_three_player_cards_and_exactly_two_community_cards():
    # Four hearts on the flop would make a flush with any three; the rule allows two.
    player = C.parse_all("Ah 2c 7d")
    flop = C.parse_all("Kh Qh Jh")
    value, five = P.best_flop_poker(player, flop)
    assert P.category_name(value) == "high_card"
    assert len(five) == 5 and all(c in five for c in player)
    # Kings and nines would need three community cards: the best is the kings.
    value, five = P.best_flop_poker(C.parse_all("9c 4d 2s"), C.parse_all("Ks Kd 9h"))
    assert value == v("Ks Kd 9c 4d 2s")
    # The player's three of a kind needs no community help; best two kickers are used.
    value, _ = P.best_flop_poker(C.parse_all("8c 8d 8s"), C.parse_all("2h Ac Kd"))
    assert value == v("8c 8d 8s Ac Kd")


@pytest.mark.reg("583.12(b)")
@pytest.mark.parametrize("codes, expected", [
    ("Jc Jd 7h 5s 2c", "pair_jacks_or_better"),
    ("Ac Ad 7h 5s 2c", "pair_jacks_or_better"),
    ("Tc Td 7h 5s 2c", None),
    ("Ac Kd 7h 5s 2c", None),
    ("Tc Td 7h 7s 2c", "two_pair"),
])
def test_flop_wager_pays_from_a_pair_of_jacks(codes, expected):
    assert P.paytable_hand(v(codes), C.JACK) == expected


@pytest.mark.reg("669a.11(i)(2)")
@pytest.mark.parametrize("codes, expected", [
    ("Tc Td 7h 5s 2c", "pair_tens_or_better"),
    ("9c 9d 7h 5s 2c", None),
    ("9c 9d 7h 7s 2c", "two_pair"),
])
def test_play_and_blind_qualify_from_a_pair_of_tens(codes, expected):
    assert P.paytable_hand(v(codes), C.TEN) == expected


def t3(codes, royal=True):
    return P.three_card_name(P.three_card_value(C.parse_all(codes)), royal)


@pytest.mark.reg("583.6(d)")
@pytest.mark.parametrize("codes, expected", [
    ("As Ks Qs", "royal"),
    ("Kd Qd Jd", "straight_flush"),
    ("3c 2c Ac", "straight_flush"),
    ("7h 7d 7c", "three_of_a_kind"),
    ("9h Td Jc", "straight"),
    ("Ah 2d 3c", "straight"),
    ("Ah Kd Qc", "straight"),
    ("2h 9h Kh", "flush"),
    ("5h 5d Kc", "pair"),
    ("Kh 2d 3c", "high_card"),
    ("Kh Ad 2c", "high_card"),
])
def test_three_card_bonus_hands(codes, expected):
    assert t3(codes) == expected


@pytest.mark.reg("669a.6(c)")
def test_pair_plus_hands_straight_beats_flush_and_aKQ_is_a_straight_flush():
    assert t3("As Ks Qs", royal=False) == "straight_flush"
    straight = P.three_card_value(C.parse_all("4h 5d 6c"))
    flush = P.three_card_value(C.parse_all("Ah Kh 9h"))
    trips = P.three_card_value(C.parse_all("2h 2d 2c"))
    sflush = P.three_card_value(C.parse_all("2h 3h 4h"))
    pair = P.three_card_value(C.parse_all("Ah Ad Kc"))
    assert sflush > trips > straight > flush > pair


@pytest.mark.reg("669a.6(c)")
def test_three_card_category_counts_over_the_whole_deck():
    assert three_card_counts(royal=False) == {
        "straight_flush": 48, "three_of_a_kind": 52, "straight": 720, "flush": 1096,
        "pair": 3744, "high_card": 16440}


@pytest.mark.reg("669a.1")
def test_envy_qualifying_hand_and_progressive_hands():
    assert P.is_ace_king_queen_suited(C.parse_all("Qh Ah Kh"))
    assert not P.is_ace_king_queen_suited(C.parse_all("Qh Ah Kd"))
    assert P.raise_it_up_progressive_hand(C.parse_all("As Ks Qs")) == "ace_king_queen_of_spades"
    assert P.raise_it_up_progressive_hand(C.parse_all("Ad Kd Qd")) == "ace_king_queen_suited"
    assert P.raise_it_up_progressive_hand(C.parse_all("9d Td Jd")) == "straight_flush"
    assert P.raise_it_up_progressive_hand(C.parse_all("9d 9s 9c")) == "three_of_a_kind"
    assert P.raise_it_up_progressive_hand(C.parse_all("9d Ts Jc")) == "straight"
    assert P.raise_it_up_progressive_hand(C.parse_all("9d 2d Jd")) is None


def test_bad_hands_are_named():
    with pytest.raises(InvalidHand):
        v("As Ks Qs Js")
    with pytest.raises(InvalidCard, match="As"):
        v("As As Qs Js Ts")
    with pytest.raises(InvalidHand, match="joker"):
        v("JK Ks Qs Js Ts")
    with pytest.raises(InvalidCard):
        P.best_flop_poker(C.parse_all("As Kd 2c"), C.parse_all("As 3d 4c"))
