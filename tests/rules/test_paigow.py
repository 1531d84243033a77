"""Six-Card Fortune Pai Gow Poker (ch. 670a): every case taken from the text."""
import pytest

from controller.errors import IllegalSetting, InvalidHand, RulesError
from controller.rules import cards
from controller.rules import paigow as pg
from controller.rules import paytables as pt
from controller.rules import settle


def h(codes):
    return cards.parse_all(codes)


def value(codes):
    return pg.evaluate_high(h(codes))[0]


def name(codes):
    return pg.evaluate_high(h(codes))[1]


def same_cards(got, codes):
    return sorted(cards.codes(got)) == sorted(codes.split())


# ---- 670a.6(b): the order of the high hands -------------------------------------

RANKED = [
    # (section, hand, name) from the highest to the lowest
    ("670a.6(b)(1)", "As Ah Ad Ac JK", "five_aces"),
    ("670a.6(b)(2)", "As Ks Qs Js Ts", "royal_flush"),
    ("670a.6(b)(3)", "Ad 2d 3d 4d 5d", "straight_flush"),
    ("670a.6(b)(3)", "Kh Qh Jh Th 9h", "straight_flush"),
    ("670a.6(b)(3)", "2c 3c 4c 5c 6c", "straight_flush"),
    ("670a.6(b)(4)", "Ac Ad Ah As Kd", "four_of_a_kind"),
    ("670a.6(b)(4)", "2c 2d 2h 2s 3d", "four_of_a_kind"),
    ("670a.6(b)(5)", "Ac Ad Ah Ks Kd", "full_house"),
    ("670a.6(b)(5)", "2c 2d 2h 3s 3d", "full_house"),
    ("670a.6(b)(6)", "Ah Kh 9h 5h 3h", "flush"),
    ("670a.6(b)(6)", "7h 5h 4h 3h 2h", "flush"),
    ("670a.6(b)(7)", "As Kd Qh Jc Ts", "straight"),
    ("670a.6(b)(7)", "As 2d 3h 4c 5s", "straight"),
    ("670a.6(b)(7)", "Ks Qd Jh Tc 9s", "straight"),
    ("670a.6(b)(7)", "2s 3d 4h 5c 6s", "straight"),
    ("670a.6(b)(8)", "As Ad Ah Kc Qd", "three_of_a_kind"),
    ("670a.6(b)(8)", "2s 2d 2h 3c 4d", "three_of_a_kind"),
    ("670a.6(b)(9)", "As Ad Ks Kd Qc", "two_pair"),
    ("670a.6(b)(9)", "3s 3d 2s 2d 4c", "two_pair"),
    ("670a.6(b)(10)", "As Ad Ks Qd Jc", "pair"),
    ("670a.6(b)(10)", "2s 2d 3s 4d 6c", "pair"),
    ("670a.6(c)", "As Kd Qh Jc 9s", "ace_high"),
    ("670a.6(c)", "7s 5d 4h 3c 2s", "seven_high"),
]


@pytest.mark.reg("670a.6(b)")
@pytest.mark.parametrize("i", list(range(len(RANKED) - 1)))
def test_each_hand_outranks_the_next(i):
    assert value(RANKED[i][1]) > value(RANKED[i + 1][1]), (RANKED[i], RANKED[i + 1])


@pytest.mark.reg("670a.6(b)")
@pytest.mark.parametrize("section, hand, expected", RANKED)
def test_hand_names(section, hand, expected):
    assert name(hand) == expected


@pytest.mark.reg("670a.6(b)(3)")
def test_wheel_is_the_highest_straight_flush_but_the_second_straight():
    assert value("Ad 2d 3d 4d 5d") > value("Kh Qh Jh Th 9h")
    assert value("As 2d 3h 4c 5s") < value("As Kd Qh Jc Ts")
    assert value("As 2d 3h 4c 5s") > value("Ks Qd Jh Tc 9s")


@pytest.mark.reg("670a.6(a)")
def test_ace_does_not_wrap_around():
    assert name("Qs Kd Ah 2c 3s") == "ace_high"


# ---- 670a.6(a): the joker ---------------------------------------------------------

JOKER_HANDS = [
    # joker hand, the natural hand it equals (or None), name
    ("JK Kd Qh 9c 5s", "As Kd Qh 9c 5s", "ace_high"),
    ("JK Ah Kd 7c 3s", "As Ah Kd 7c 3s", "pair"),
    ("JK Ah Ad Kc Ks", "As Ah Ad Kc Ks", "full_house"),
    ("JK Kh Kd Kc Ks", "Ah Kh Kd Kc Ks", "four_of_a_kind"),
    ("JK Kh Kd Kc 2s", "Ah Kh Kd Kc 2s", "three_of_a_kind"),
    ("JK 2h 3d 4c 5s", "As 2h 3d 4c 5s", "straight"),
    ("JK Kh Qd Jc Ts", "As Kh Qd Jc Ts", "straight"),
    ("JK Kh Qd Tc 9s", "Js Kh Qd Tc 9s", "straight"),
    ("JK 2h 3d 5c 6s", "4s 2h 3d 5c 6s", "straight"),
    ("JK As Ks 9s 5s", "As Ks Qs 9s 5s", "flush"),
    ("JK As Ks Qs 5s", "As Ks Qs Js 5s", "flush"),
    ("JK Qs Js Ts 9s", "Ks Qs Js Ts 9s", "straight_flush"),
    ("JK 2s 3s 4s 5s", "As 2s 3s 4s 5s", "straight_flush"),
    ("JK Ks Qs Js Ts", "As Ks Qs Js Ts", "royal_flush"),
    ("JK As Qs Js Ts", "As Ks Qs Js Ts", "royal_flush"),
    ("JK As Ad Ah Ac", None, "five_aces"),
]


@pytest.mark.reg("670a.6(a)")
@pytest.mark.parametrize("joker_hand, natural, expected", JOKER_HANDS)
def test_joker_is_an_ace_or_completes_a_straight_or_flush(joker_hand, natural, expected):
    assert name(joker_hand) == expected
    if natural is not None:
        assert value(joker_hand) == value(natural)


@pytest.mark.reg("670a.6(a)")
def test_joker_does_not_make_a_pair_of_anything_but_aces():
    assert name("JK Kd Qh 9c 5s") == "ace_high"
    assert name("JK Kd Kh 9c 5s") == "pair"
    assert value("JK Kd Kh 9c 5s") == value("Ac Kd Kh 9c 5s")


@pytest.mark.reg("670a.6(b)(1)")
def test_five_aces_beats_a_royal_flush():
    assert value("JK As Ad Ah Ac") > value("As Ks Qs Js Ts")


# ---- 670a.6(c): ties -----------------------------------------------------------

@pytest.mark.reg("670a.6(c)")
@pytest.mark.parametrize("higher, lower", [
    ("Ah Kh 9h 5h 3h", "As Ks 9s 5s 2s"),      # flushes: the 3 is not in the other hand
    ("Ad Kd Qh 9c 6h", "Ac Ks Qd 9h 5s"),
    ("8s 8d Ac 5h 3d", "8h 8c Kc Qh Jd"),      # same pair: the ace decides
    ("9s 9d 2c 3h 4d", "8h 8c Ac Kh Qd"),      # the pair's rank first (670a.6(b)(10))
    ("Ks Kd 3c 3h 2d", "Qh Qc Jc Jh Ad"),      # the higher pair first (670a.6(b)(9))
    ("Ks Kd 3c 3h 5d", "Kh Kc 3s 3d 4d"),
])
def test_highest_card_not_in_the_other_hand_wins(higher, lower):
    assert pg.compare_high(h(higher), h(lower)) == 1
    assert pg.compare_high(h(lower), h(higher)) == -1


@pytest.mark.reg("670a.6(c)")
def test_identical_rank_regardless_of_suit_or_joker():
    assert pg.compare_high(h("Ad Kd Qh 9c 5h"), h("Ac Ks Qd 9h 5s")) == 0
    assert pg.compare_high(h("JK Kd Qh 9c 5h"), h("Ac Ks Qd 9h 5s")) == 0


@pytest.mark.reg("670a.6(c)")
def test_low_hands_joker_wins_for_the_player_and_ranks_as_an_ace_for_the_dealer():
    assert pg.compare_low(cards.JOKER, cards.parse("As")) == 1
    assert pg.compare_low(cards.parse("As"), cards.JOKER) == 0
    assert pg.compare_low(cards.parse("Kd"), cards.JOKER) == -1
    assert pg.compare_low(cards.parse("Kd"), cards.parse("Ks")) == 0
    assert pg.compare_low(cards.parse("Kd"), cards.parse("Qs")) == 1


# ---- 670a.6: best five of six (670a.7(e), 670a.11(h)) ---------------------------

BEST_OF_SIX = [
    ("As Ah Ad Ac JK 2d", "five_aces"),
    ("As Ks Qs Js Ts 2d", "royal_flush"),
    ("As Ks Qs Js Ts 9s", "royal_flush"),
    ("JK Ks Qs Js 2s 3d", "flush"),
    ("JK Ks Qs Js 9d 3d", "straight"),
    ("2s 3s 4s 5s 6s As", "straight_flush"),
    ("9s 9d 9h 9c Ks Kd", "four_of_a_kind"),
    ("Ks Kd Kh 5s 5d 5h", "full_house"),
    ("Ks Kd 9c 9h 4s 4d", "two_pair"),
    ("2h 5h 7h 9h Jh Kc", "flush"),
    ("4c 5d 6h 7s 8c Kd", "straight"),
    ("Ks Kd Kh 2c 5d 9s", "three_of_a_kind"),
    ("JK Ah Kd 9c 7s 3h", "pair"),
    ("JK Kd 9h 7s 4c 2d", "ace_high"),
    ("Ad Kd 9h 7s 4c 2d", "ace_high"),
    ("Kc Qd 9h 7s 4c 2d", "king_high"),
    ("Qc Jd 9h 7s 4c 2d", "queen_high"),
    ("Jc Td 8h 7s 4c 2d", "jack_high"),
    ("Tc 9d 8h 7s 4c 2d", "ten_high"),
    ("9c 8d 7h 5s 4c 2d", "nine_high"),
    ("8c 7d 5h 4s 3c 2d", "eight_high"),
]


@pytest.mark.reg("670a.11(h)")
@pytest.mark.parametrize("six, expected", BEST_OF_SIX)
def test_best_five_of_six(six, expected):
    got, v, five = pg.best_hand(h(six))
    assert got == expected
    assert len(five) == 5 and pg.evaluate_high(five)[0] == v


@pytest.mark.reg("670a.11(h)(1)(i)")
@pytest.mark.parametrize("six, paid, net", [
    ("Ks Kd Kh 2c 5d 9s", "three_of_a_kind", 500),
    ("As Ah Ad Ac JK 2d", "five_aces", 100000),
    ("JK Ks Qs Js 2s 3d", "flush", 1000),
    ("Ks Kd 9c 9h 4s 4d", None, -100),
    ("JK Ah Kd 9c 7s 3h", None, -100),
])
def test_fortune_bonus_three_of_a_kind_or_better(six, paid, net):
    assert pg.fortune_bonus_hand(h(six)) == paid
    table = pt.get(pt.SCF, "fortune_bonus")
    assert settle.settle(table, paid, 100)[1] == net


@pytest.mark.reg("670a.11(h)(2)")
@pytest.mark.parametrize("six, wins", [
    ("Kc Qd 9h 7s 4c 2d", True),
    ("8c 7d 5h 4s 3c 2d", True),
    ("Ad Kd 9h 7s 4c 2d", False),
    ("JK Kd 9h 7s 4c 2d", False),              # the joker is an ace
    ("2c 2d 9h 7s 4c 3d", False),
    ("4c 5d 6h 7s 8c Kd", False),
])
def test_insurance_wins_on_king_high_or_less(six, wins):
    assert pg.insurance_wins(h(six)) == wins


@pytest.mark.reg("670a.11(h)(3)")
@pytest.mark.parametrize("six, paid", [
    ("4c 5d 6h 7s 8c Kd", "straight"),
    ("As Ah Ad Ac JK 2d", "five_aces"),
    ("Ks Kd Kh 2c 5d 9s", None),
])
def test_progressive_straight_or_better(six, paid):
    assert pg.progressive_hand(h(six)) == paid


@pytest.mark.reg("670a.1")
def test_envy_qualifying_hands():
    assert pg.envy_qualifying(h("Ks Kd Kh 5s 5d 5h"), "fortune_bonus")
    assert not pg.envy_qualifying(h("Ks Kd Kh 5s 5d 5h"), "progressive")
    assert pg.envy_qualifying(h("9s 9d 9h 9c Ks Kd"), "progressive")
    assert not pg.envy_qualifying(h("2h 5h 7h 9h Jh Kc"), "fortune_bonus")
    with pytest.raises(RulesError, match="670a.1"):
        pg.envy_qualifying(h("2h 5h 7h 9h Jh Kc"), "insurance")


# ---- 670a.11(b): setting the hands --------------------------------------------

@pytest.mark.reg("670a.11(b)")
@pytest.mark.parametrize("high, low, valid", [
    ("Ks 9d 7h 5c 3s", "Kd", True),            # equal in rank is allowed
    ("Ks 9d 7h 5c 3s", "Qd", True),
    ("Qs 9d 7h 5c 3s", "Kd", False),
    ("2s 2d 7h 5c 3s", "Ad", True),            # any pair outranks one card
    ("2s 3d 4h 5c 6s", "Ad", True),
    ("Ks 9d 7h 5c 3s", "JK", False),           # the joker low ranks as an ace
    ("As 9d 7h 5c 3s", "JK", True),
    ("JK 9d 7h 5c 3s", "Ad", True),
])
def test_high_hand_equal_to_or_higher_than_low_hand(high, low, valid):
    assert pg.setting_is_valid(h(high), cards.parse(low)) == valid


@pytest.mark.reg("670a.11(b)")
def test_check_setting_names_the_fault():
    six = h("Qs 9d 7h 5c 3s Kd")
    pg.check_setting(six, h("Kd 9d 7h 5c 3s"), cards.parse("Qs"))
    with pytest.raises(IllegalSetting, match="670a.11"):
        pg.check_setting(six, h("Qs 9d 7h 5c 3s"), cards.parse("Kd"))
    with pytest.raises(IllegalSetting, match="Ah"):
        pg.check_setting(six, h("Ah 9d 7h 5c 3s"), cards.parse("Qs"))
    with pytest.raises(InvalidHand):
        pg.check_setting(six, h("9d 7h 5c 3s"), cards.parse("Qs"))


# ---- 670a.11(f): the Six-Card Fortune Pai Gow Poker Wager ------------------------

DEALER_HIGH, DEALER_LOW = "Ts Td 7c 5h 3d", "9h"     # pair of tens, nine low

MAIN_WAGER = [
    ("670a.11(f)(1)(i)", "9s 9d 7h 6c 2s", "8d", "lose"),
    ("670a.11(f)(1)(ii)", "9s 9d 7h 6c 2s", "9c", "lose"),
    ("670a.11(f)(1)(iii)", "Th Tc 7d 5s 3c", "8d", "lose"),
    ("670a.11(f)(1)(iv)", "Th Tc 7d 5s 3c", "9c", "lose"),
    ("670a.11(f)(2)(i)", "Qs Qd 7h 6c 2s", "8d", "push"),
    ("670a.11(f)(2)(ii)", "9s 9d 7h 6c 2s", "Ac", "push"),
    ("670a.11(f)(2)(ii)", "9s 9d 7h 6c Ac", "JK", "push"),
    ("670a.11(f)(3)", "Qs Qd 7h 6c 2s", "Ac", "win"),
    ("670a.11(f)(3)", "Qs Qd 7h 6c 2s", "JK", "win"),
    # Not listed in (f): a tie goes to the dealer (670a.6(c)), so these push.
    ("670a.6(c)", "Qs Qd 7h 6c 2s", "9c", "push"),
    ("670a.6(c)", "Th Tc 7d 5s 3c", "Ac", "push"),
]


@pytest.mark.reg("670a.11(f)")
@pytest.mark.parametrize("section, high, low, expected", MAIN_WAGER)
def test_main_wager(section, high, low, expected):
    got = pg.wager_result(h(high), cards.parse(low), h(DEALER_HIGH), cards.parse(DEALER_LOW))
    assert got == expected, section


@pytest.mark.reg("670a.11(f)(2)(ii)")
def test_joker_low_beats_the_dealers_ace_low():
    got = pg.wager_result(h("Ks Kd 7h 6c 2s"), cards.JOKER, h("Qs Qd 7c 5h 3d"), cards.parse("Ad"))
    assert got == "win"


@pytest.mark.reg("670a.11(f)(1)(v)")
def test_a_foul_loses_even_when_both_hands_would_win():
    # Player: Q-high with a king low against the dealer's J-high and nine low.
    got = pg.wager_result(h("Qs Td 8h 6c 4d"), cards.parse("Kh"),
                          h("Js 7d 5c 3h 2d"), cards.parse("9c"))
    assert got == "lose"
    assert pg.wager_result(h("Kh Td 8h 6c 4d"), cards.parse("Qs"),
                           h("Js 7d 5c 3h 2d"), cards.parse("9c")) == "win"


@pytest.mark.reg("670a.12(a)")
def test_main_wager_pays_one_to_one():
    table = pt.get(pt.SCF, "six_card_fortune")
    assert settle.settle(table, "win", 2500) == ("win", 2500)


# ---- 670a.11(g): Double Down ------------------------------------------------------

@pytest.mark.reg("670a.11(g)(1)")
@pytest.mark.parametrize("dealer_high, dealer_low", [
    ("Ts Td 7c 5h 3d", "2h"),                   # pair of tens
    ("8s 8d 7c 5h 3d", "2h"),                   # pair of eights: the least that qualifies
    ("3s 3d 2d 2h 5d", "4s"),                   # two pair is better than a pair of eights
    ("JK Ad 7c 5h 3d", "2h"),                   # the joker pairs an ace
])
def test_double_down_follows_the_main_wager_when_the_dealer_has_eights_or_better(dealer_high,
                                                                                  dealer_low):
    dh, dl = h(dealer_high), cards.parse(dealer_low)
    for high, low in (("Ks Kc Qh 6c 2s", "Qc"), ("9s 6c 4h 3c 2c", "Kh"), ("Ks Kc Qh 6c 2s", "2c")):
        ph, plow = h(high), cards.parse(low)
        assert pg.double_down_result(ph, plow, dh, dl) == pg.wager_result(ph, plow, dh, dl)
    assert pg.dealer_qualifies_double_down(dh + [dl])


@pytest.mark.reg("670a.11(g)(2)")
@pytest.mark.parametrize("dealer_high, dealer_low", [
    ("7s 7d Kc 5h 3d", "Qh"),                   # pair of sevens
    ("As Jd 8c 5h 3d", "Kh"),                   # ace-high
    ("JK Jd 8c 5h 3d", "Kh"),                   # the joker alone is an ace, no pair
])
def test_double_down_returned_below_a_pair_of_eights(dealer_high, dealer_low):
    dh, dl = h(dealer_high), cards.parse(dealer_low)
    assert not pg.dealer_qualifies_double_down(dh + [dl])
    assert pg.double_down_result(h("Qs Qc Th 6c 2s"), cards.parse("Ac"), dh, dl) == "returned"
    assert pg.double_down_result(h("9s 6c 4h 3c 2c"), cards.parse("Qc"), dh, dl) == "returned"


# ---- 670a.11(d): the dealer's house way ------------------------------------------

HOUSE_WAY = [
    # section, dealer's six cards, high hand, low card
    ("670a.11(d)(1)", "Ks Kd 9c 7h 4s 2d", "Ks Kd 7h 4s 2d", "9c"),
    ("670a.11(d)(1)", "Ks Kd 9c 9h As 3d", "Ks Kd 9c 9h 3d", "As"),
    ("670a.11(d)(1)", "Ks Kd Kh 2c 5d 9s", "Ks Kd Kh 2c 5d", "9s"),
    ("670a.11(d)(1)", "9s 9d 9h 5c 5d As", "9s 9d 9h 5c 5d", "As"),
    ("670a.11(d)(1)", "9s 9d 9h 9c Ks 2d", "9s 9d 9h 9c 2d", "Ks"),
    ("670a.11(d)(1)", "9s 9d 9h 9c Ks Kd", "9s 9d 9h 9c Kd", "Ks"),     # four of a kind + pair
    ("670a.11(d)(1)", "As Ad Ah Ac JK 2d", "As Ad Ah Ac JK", "2d"),
    ("670a.11(d)(1)", "JK Ah Kd 9c 7s 3h", "JK Ah 9c 7s 3h", "Kd"),     # joker pairs an ace
    ("670a.11(d)(1)", "JK Kd Kh 9c 5s 3d", "Kd Kh 9c 5s 3d", "JK"),     # lone joker: an ace
    ("670a.11(d)(1)(i)", "Ks Kd Kh 5s 5d 5h", "5s 5d 5h Kd Kh", "Ks"),
    ("670a.11(d)(1)(i)", "As Ah JK Ks Kd Kc", "Ks Kd Kc JK Ah", "As"),
    ("670a.11(d)(1)(ii)", "Ks Kd 9c 9h 4s 4d", "9c 9h 4s 4d Kd", "Ks"),
    ("670a.11(d)(1)(ii)", "Ah JK Kd Ks 5c 5d", "Kd Ks 5c 5d JK", "Ah"),
    ("670a.11(d)(2)", "4c 5d 6h 7s 8c 9d", "4c 5d 6h 7s 8c", "9d"),
    ("670a.11(d)(2)", "As 2d 3h 4s 5c 6d", "2d 3h 4s 5c 6d", "As"),
    ("670a.11(d)(2)", "Ac Kd Qh Js Tc 9d", "Kd Qh Js Tc 9d", "Ac"),
    ("670a.11(d)(2)", "As 2d 3h 4s 5c Kd", "As 2d 3h 4s 5c", "Kd"),
    ("670a.11(d)(2)", "5c 6d 7h 8s 9c 9d", "5c 6d 7h 8s 9d", "9c"),     # straight over a pair
    ("670a.11(d)(2)", "As JK 2d 3c 4h 4s", "As JK 2d 3c 4s", "4h"),     # straight over two pair
    ("670a.11(d)(2)", "JK 5h 6c 7d 8s 9h", "5h 6c 7d 8s 9h", "JK"),     # the joker is the highest card
    ("670a.11(d)(2)", "2h 5h 7h 9h Jh Kh", "2h 5h 7h 9h Jh", "Kh"),
    ("670a.11(d)(2)", "2h 5h 7h 9h Jh Ac", "2h 5h 7h 9h Jh", "Ac"),
    ("670a.11(d)(2)", "JK 2s 5s 7s 9s Js", "2s 5s 7s 9s Js", "JK"),
    ("670a.11(d)(2)", "JK 2s 5s 7s 9s Kh", "JK 2s 5s 7s 9s", "Kh"),
    ("670a.11(d)(2)", "4s 5s 6s 7s 8s 9s", "4s 5s 6s 7s 8s", "9s"),
    ("670a.11(d)(2)", "As 2s 3s 4s 5s 6s", "2s 3s 4s 5s 6s", "As"),
    ("670a.11(d)(2)", "As Ks Qs Js Ts 9s", "Ks Qs Js Ts 9s", "As"),
    ("670a.11(d)(3)", "7s 8h 9s Ts Js 2s", "7s 9s Ts Js 2s", "8h"),
    ("670a.11(d)(4)", "4s 5s 6s 7s 8s 9h", "4s 5s 6s 7s 8s", "9h"),
    ("670a.11(d)(5)", "4s 5s 6s 7s 8s Ks", "4s 5s 6s 7s 8s", "Ks"),
    ("670a.11(d)(6)", "Kc Qd 9h 7s 4c 2d", "Kc 9h 7s 4c 2d", "Qd"),
    ("670a.11(d)(6)", "JK Kd 9h 7s 4c 2d", "JK 9h 7s 4c 2d", "Kd"),
]


@pytest.mark.reg("670a.11(d)")
@pytest.mark.parametrize("section, six, high, low", HOUSE_WAY)
def test_house_way(section, six, high, low):
    got_high, got_low = pg.house_way(h(six))
    assert same_cards(got_high, high), (section, cards.codes(got_high))
    assert cards.code(got_low) == low, (section, cards.code(got_low))
    assert pg.setting_is_valid(got_high, got_low)


@pytest.mark.reg("670a.11(d)")
def test_house_way_needs_six_distinct_cards():
    with pytest.raises(InvalidHand, match="670a.11"):
        pg.house_way(h("As Ks Qs Js Ts"))
    with pytest.raises(cards.InvalidCard, match="As"):
        pg.house_way(h("As As Qs Js Ts 9s"))


# ---- 670a.5(i) and 670a.8(d): starting position and dealing order -------------------

@pytest.mark.reg("670a.5(i)(1)(iii)")
@pytest.mark.parametrize("total, position", [
    (3, 5), (4, 4), (5, 3), (6, 2), (7, 1), (8, "dealer"), (9, 6), (10, 5),
    (14, 1), (15, "dealer"), (16, 6), (18, 4),
])
def test_dice_count_counterclockwise_from_the_dealer(total, position):
    assert pg.starting_position(total, "dice") == position


@pytest.mark.reg("670a.5(i)(2)")
@pytest.mark.parametrize("number, position", [
    (1, "dealer"), (2, 6), (3, 5), (4, 4), (5, 3), (6, 2), (7, 1),
])
def test_random_number_generator_count(number, position):
    assert pg.starting_position(number, "rng") == position


@pytest.mark.reg("670a.5(i)")
@pytest.mark.parametrize("count, method", [
    (2, "dice"), (19, "dice"), (0, "rng"), (8, "rng"), ("7", "rng"), (7, "coin"), (True, "rng"),
])
def test_out_of_range_counts_are_rejected(count, method):
    with pytest.raises(RulesError, match="670a.5"):
        pg.starting_position(count, method)


@pytest.mark.reg("670a.5(i)(1)(ii)")
def test_dice_total():
    assert pg.dice_total(1, 1, 1) == 3
    assert pg.dice_total(6, 6, 6) == 18
    with pytest.raises(RulesError, match="670a.5"):
        pg.dice_total(0, 3, 4)


@pytest.mark.reg("670a.8(d)")
def test_dealing_clockwise_from_the_starting_position_six_cards_each():
    order = pg.dealing_order(5)
    assert order[:8] == [5, 6, "dealer", 1, 2, 3, 4, 5]
    assert len(order) == 42
    for p in (1, 2, 3, 4, 5, 6, "dealer"):
        assert order.count(p) == 6
    assert pg.dealing_order("dealer")[:2] == ["dealer", 1]
    with pytest.raises(RulesError, match="670a.5"):
        pg.dealing_order(7)


@pytest.mark.reg("670a.8(e)")
def test_deal_leaves_eleven_cards():
    stack = cards.joker_deck()
    hands, stub = pg.deal(stack, 6)
    assert hands[6] == [stack[i] for i in (0, 7, 14, 21, 28, 35)]
    assert hands["dealer"] == [stack[i] for i in (1, 8, 15, 22, 29, 36)]
    assert hands[5] == [stack[i] for i in (6, 13, 20, 27, 34, 41)]
    assert len(stub) == 11 and stub == stack[42:]
    with pytest.raises(InvalidHand, match="670a.3"):
        pg.deal(stack[:52], 6)
