"""Blackjack arithmetic of Double Attack Blackjack (581) and the 633a.7 dealer rule.

Every case below is read off the regulation text; hands are written as card codes.
"""
import pytest

from controller.errors import InvalidCard, InvalidHand, RulesError
from controller.rules import blackjack as bj
from controller.rules import cards, paytables, settle

H = cards.parse_all
C = cards.parse
WIN, LOSE, PUSH, RETURNED = settle.WIN, settle.LOSE, settle.PUSH, settle.RETURNED


# ---- values and totals --------------------------------------------------------

@pytest.mark.reg("581.3(d)(1)")
@pytest.mark.parametrize("code, value", [
    ("2s", 2), ("3h", 3), ("4d", 4), ("5c", 5), ("6s", 6), ("7h", 7), ("8d", 8), ("9c", 9)])
def test_two_to_nine_count_face_value(code, value):
    assert bj.card_value(C(code)) == value


@pytest.mark.reg("581.3(d)(2)")
@pytest.mark.parametrize("code", ["Js", "Qh", "Kd", "Tc"])
def test_jack_queen_king_and_the_633a_ten_count_ten(code):
    assert bj.card_value(C(code)) == 10


@pytest.mark.reg("581.3(d)(3)")
@pytest.mark.parametrize("hand, total, soft", [
    ("As 6h", 17, True),
    ("As 6h 9c", 16, False),          # 11 would bust: the ace counts 1
    ("As Ad", 12, True),              # only one ace can count 11
    ("As Ad 9h", 21, True),
    ("As Ad Ah Ac 7s", 21, True),
    ("As Kh", 21, True),
    ("As 5h Kd", 16, False),
    ("Kh Qd", 20, False),
    ("9s 7h 6d", 22, False),
    ("As Kh Qd", 21, False),
])
def test_ace_counts_eleven_unless_that_busts(hand, total, soft):
    assert bj.hand_total(H(hand)) == (total, soft)
    assert bj.total(H(hand)) == total
    assert bj.is_soft(H(hand)) == soft


@pytest.mark.reg("581.7(o)(1)(i)(A)")
@pytest.mark.parametrize("hand, bust", [
    ("9s 7h 6d", True), ("Ks Qh 2d", True), ("Ks Qh Ad", False), ("As Ad 9h Kc", False),
    ("Ks 6h 6d", True)])
def test_bust_is_a_total_in_excess_of_21(hand, bust):
    assert bj.is_bust(H(hand)) == bust


@pytest.mark.reg("581.1")
@pytest.mark.parametrize("hand, split, blackjack", [
    ("As Kh", False, True),
    ("Qd Ac", False, True),
    ("Jc As", False, True),
    ("As Th", False, True),           # 633a Blackjack: the ten has a value of 10
    ("As 9h", False, False),
    ("As 5h 5d", False, False),       # 21 in three cards is not a Blackjack
    ("Ks Qh Ad", False, False),
    ("As Ad", False, False),
    ("As Kh", True, False),           # a split hand's two cards are not the initial two
])
def test_blackjack_is_an_ace_and_a_ten_value_as_initial_two_cards(hand, split, blackjack):
    assert bj.is_blackjack(H(hand), split) == blackjack


@pytest.mark.reg("581.7(j)(1)")
@pytest.mark.parametrize("hand, may", [
    ("As Kh", False), ("7s 4h Kd", False), ("As Kd Qh", False), ("Ks Qh", True),
    ("As 9h", True), ("2s 3h", True), ("Ks Qh 5d", False)])
def test_player_may_draw_only_below_21(hand, may):
    assert bj.player_may_draw(H(hand)) == may


@pytest.mark.parametrize("bad", [0, 12345, None, cards.JOKER])
def test_a_value_that_is_not_a_card_is_named(bad):
    with pytest.raises(InvalidCard):
        bj.card_value(bad)


def test_a_hand_that_is_not_a_list_is_refused():
    with pytest.raises(InvalidHand):
        bj.total(C("As"))


# ---- the dealer ------------------------------------------------------------------

@pytest.mark.reg("581.7(n)")
@pytest.mark.parametrize("hand, draws", [
    ("9s 7h", True), ("Ks 6h", True), ("As 5h", True), ("As 5h Kd", True),
    ("As 6h", False),                 # soft 17 stands: "stand on all 17s"
    ("Ks 7h", False), ("As Ad 5h", False), ("As Ad 4h", True), ("9s 8h", False),
    ("As 6h Kd", False),              # hard 17 (the ace counts 1) stands too
    ("As 5h Kd", True),               # hard 16 draws
])
def test_dealer_draws_to_16_and_stands_on_all_17s(hand, draws):
    assert bj.dealer_must_draw(H(hand)) == draws


@pytest.mark.reg("633a.7(m)")
@pytest.mark.parametrize("hand, draws, final", [
    ("As 5h", "Kd 2c 9s", "As 5h Kd 2c"),      # soft 16, hard 16, 18
    ("9s 7h", "As 3c", "9s 7h As"),            # 17 stands
    ("2s 3h", "4d As 9s", "2s 3h 4d As"),      # 9 + ace = soft 20 stands
    ("2s 3h", "4d 2c As 9s", "2s 3h 4d 2c As 9s"),  # 11 + ace is hard 12: draws to 21
    ("As 6h", "9d", "As 6h"),                  # soft 17 stands, draws nothing
    ("Ks 6h", "9d 2c", "Ks 6h 9d"),            # busts
])
def test_dealer_play_stops_at_17_soft_or_hard(hand, draws, final):
    assert bj.dealer_play(H(hand), H(draws)) == H(final)


@pytest.mark.reg("581.7(n)")
@pytest.mark.parametrize("hand", ["Ks 6h", "Ks 7h 2c", "As 6h 2c", "9s 5h", "2s 3h 4d"])
def test_dealer_hand_that_stood_early_or_drew_past_17_is_refused(hand):
    with pytest.raises(InvalidHand, match="581"):
        bj.check_dealer_hand(H(hand))


@pytest.mark.reg("581.7(n)")
def test_dealer_play_without_enough_cards_is_refused():
    with pytest.raises(InvalidHand, match="must draw"):
        bj.dealer_play(H("Ks 2h"), H("3d"))


# ---- splitting -----------------------------------------------------------------------

@pytest.mark.reg("581.11(a)")
@pytest.mark.parametrize("hand, ok", [
    ("7s 7h", True), ("Ks Qh", True), ("Js Kd", True), ("As Ad", True), ("2c 2c", True),
    ("9s 8h", False), ("Js As", False), ("7s 7h 7d", False)])
def test_two_cards_identical_in_value_may_be_split(hand, ok):
    assert bj.can_split(H(hand)) == ok


@pytest.mark.reg("581.11(c)")
@pytest.mark.parametrize("hands, ok", [(1, True), (2, True), (3, True), (4, False)])
def test_at_most_three_splits_for_four_hands(hands, ok):
    assert bj.can_split(H("8s 8h"), hands) == ok


@pytest.mark.reg("581.11(e)")
def test_split_aces_are_not_resplit():
    assert bj.can_split(H("As Ah"), 2, aces_split=True) is False
    assert bj.can_split(H("As Ah"), 1) is True


# ---- Bust It ---------------------------------------------------------------------------

@pytest.mark.reg("581.7(m)(1)")
@pytest.mark.parametrize("hand", ["Ks 7h", "As 6h", "As Kh", "9s 8d", "Qs Jh", "9s 9d"])
def test_bust_it_loses_when_the_first_two_cards_total_17_or_more(hand):
    assert bj.bust_it(H(hand)) is None


@pytest.mark.reg("581.7(m)(2)(ii)")
@pytest.mark.parametrize("hand", [
    "9s 5h 7d", "Ks 6h 5d", "Ks 2h 9d", "As 5h Kd", "As Ad Kh", "2s 2h Kd", "Ks 6h As",
    "2s 3h 4d Kc"])
def test_bust_it_loses_when_three_cards_total_21_or_less(hand):
    assert bj.bust_it(H(hand)) is None


@pytest.mark.reg("581.7(m)(2)(i)")
@pytest.mark.parametrize("hand, result", [
    ("Ks 6h 6d", "third_card_6"),
    ("9s 7h 6c", "third_card_6"),
    ("9s 7h 7d", "third_card_7"),
    ("Ks 4h 8d", "third_card_8"),
    ("Ks 6h 9d", "third_card_9"),
    ("Qs 6h Jd", "third_card_face"),
    ("Qs 2h Kd", "third_card_face"),
    ("7s 7h Qc", "third_card_face"),
    ("As 5h 5d", None),               # soft 16 plus 5 is 21
    ("8s 8s 8s", "eight_eight_eight_suited"),
    ("8h 8h 8h", "eight_eight_eight_suited"),
    ("8h 8d 8h", "eight_eight_eight_same_color"),
    ("8s 8c 8s", "eight_eight_eight_same_color"),
    ("8s 8h 8c", "third_card_8"),     # three 8s of mixed colours pay on the third card
    ("8d 8h 8s", "third_card_8"),
])
def test_bust_it_pays_on_the_third_card_and_8_8_8_takes_precedence(hand, result):
    assert bj.bust_it(H(hand)) == result


@pytest.mark.reg("581.12(c)")
@pytest.mark.parametrize("hand, net", [
    ("8c 8c 8c", 20000), ("8d 8h 8d", 5000), ("Ks 6h 6d", 1500), ("Ks 5h 7d", 1000),
    ("Ks 5h 8d", 800), ("Ks 5h 9d", 600), ("Ks 5h Kd", 300), ("Ks 5h 6d", -100),
    ("Ks 7h", -100)])
def test_bust_it_settles_on_the_581_12_c_paytable(hand, net):
    table = paytables.get("double-attack-blackjack", "bust_it")
    assert settle.settle(table, bj.bust_it(H(hand)), 100)[1] == net


@pytest.mark.reg("581.7(m)(2)")
def test_bust_it_needs_the_third_card_below_17():
    with pytest.raises(InvalidHand, match="third card"):
        bj.bust_it(H("Ks 6h"))


@pytest.mark.reg("581.7(m)(1)")
def test_no_third_card_is_drawn_for_bust_it_on_17():
    with pytest.raises(InvalidHand, match="581.7"):
        bj.bust_it(H("Ks 7h 9d"))


@pytest.mark.reg("581.3(a)")
def test_double_attack_wagers_refuse_a_ten_its_decks_do_not_hold():
    with pytest.raises(InvalidCard, match="581.3"):
        bj.bust_it(H("Ks 6h Td"))
    with pytest.raises(InvalidCard, match="581.3"):
        bj.insurance_wins(C("As"), C("Th"))
    with pytest.raises(InvalidCard, match="581.3"):
        bj.surrender(1000, 0, C("As"), C("Td"))
    with pytest.raises(InvalidCard, match="581.3"):
        bj.surrender(1000, 0, C("Ts"))


# ---- Bet and Double Attack Wagers ------------------------------------------------------

_CASES = [
    # (player, dealer, split, Bet result, Double Attack result); 581.7(o)(1) clause
    ("Ks Qh", "Ks 6h 9d", False, WIN, WIN),            # (i)(A)
    ("7s 4h 2d", "Ks 6h 9d", False, WIN, WIN),         # (i)(A): 13 beats a bust
    ("Ks Qh", "Ks 9h", False, WIN, WIN),               # (i)(B)
    ("9s 5h 4d", "Ks 7h", False, WIN, WIN),            # (i)(B): 18 beats 17
    ("As Kh", "7s 4h Kd", False, WIN, WIN),            # (i)(C): Blackjack beats 21 in 3
    ("As Kh", "Ks Qh", False, WIN, WIN),
    ("Ks Qh", "As Kh", False, LOSE, RETURNED),         # (ii)(A)
    ("7s 4h Kd", "As Kh", False, LOSE, RETURNED),      # (ii)(A): 21 in 3 loses to it
    ("As Kh", "As Kh", True, LOSE, RETURNED),          # a split A-K is no Blackjack
    ("Ks 6h 9d", "Ks 8h", False, LOSE, LOSE),          # (ii)(B)
    ("9s 7h", "Ks 9h", False, LOSE, LOSE),             # (ii)(C): 16 stood loses to 19
    ("9s 8h", "As 6h", False, PUSH, PUSH),             # (iii): 17 and soft 17
    ("Ks 9h", "9s 5h 5d", False, PUSH, PUSH),          # (iii)
    ("As Kh", "Qs Ah", False, PUSH, PUSH),             # (iii): both Blackjack
    ("7s 4h Kd", "7s 4h Kd", False, PUSH, PUSH),       # (iii): 21 and 21
    ("As Kh", "7s 4h Kd", True, PUSH, PUSH),           # split A-K is 21, ties 21 in 3
    ("As Kh", "Ks Qh", True, WIN, WIN),                # split A-K's 21 beats 20
]


@pytest.mark.reg("581.7(o)(1)")
@pytest.mark.parametrize("player, dealer, split, bet, double_attack", _CASES)
def test_bet_wager_wins_loses_or_ties(player, dealer, split, bet, double_attack):
    assert bj.bet_result(H(player), H(dealer), split) == bet


@pytest.mark.reg("581.7(o)(2)")
@pytest.mark.parametrize("player, dealer, split, bet, double_attack", _CASES)
def test_double_attack_wager_follows_the_bet_but_is_returned_on_dealer_blackjack(
        player, dealer, split, bet, double_attack):
    assert bj.double_attack_result(H(player), H(dealer), split) == double_attack


@pytest.mark.reg("581.7(o)(1)(ii)(B)")
@pytest.mark.parametrize("player, dealer", [("Ks 6h 9d", "Ks 6h 9d"), ("Ks 6h 8d", "Ks 5h 9d")])
def test_a_busted_player_loses_even_when_the_dealer_busts(player, dealer):
    assert bj.bet_result(H(player), H(dealer)) == LOSE
    assert bj.double_attack_result(H(player), H(dealer)) == LOSE


@pytest.mark.reg("581.12(a)")
@pytest.mark.parametrize("wager", ["bet", "double_attack"])
@pytest.mark.parametrize("player, dealer, net", [
    ("As Kh", "Ks 9h", 500),          # Blackjack pays even money (581.2(b)(3)(i))
    ("Ks Qh", "Ks 9h", 500), ("Ks 9h", "Ks Qh", -500)])
def test_bet_and_double_attack_pay_1_to_1(wager, player, dealer, net):
    table = paytables.get("double-attack-blackjack", wager)
    result = bj.bet_result(H(player), H(dealer))
    assert settle.settle(table, "win" if result == WIN else None, 500)[1] == net


@pytest.mark.reg("581.7(n)")
def test_an_unfinished_dealer_hand_settles_nothing():
    with pytest.raises(InvalidHand, match="must still draw"):
        bj.bet_result(H("Ks Qh"), H("Ks 6h"))


# ---- Insurance and surrender -------------------------------------------------------------

@pytest.mark.reg("581.8(b)")
@pytest.mark.parametrize("bet, unit, cap", [
    (1000, 1, 500), (1001, 1, 501), (500, 100, 300), (400, 100, 200), (2500, 500, 1500),
    (2000, 500, 1000), (0, 1, 0), (1, 1, 1)])
def test_insurance_is_at_most_half_the_bet_or_the_next_chip(bet, unit, cap):
    assert bj.insurance_max(bet, unit) == cap
    bj.check_insurance(cap, bet, unit)
    with pytest.raises(RulesError, match="581.8"):
        bj.check_insurance(cap + 1, bet, unit)


@pytest.mark.reg("581.8(a)")
@pytest.mark.parametrize("up, hole, wins", [
    ("As", "Kh", True), ("Ah", "Qd", True), ("Ad", "Jc", True), ("As", "9h", False),
    ("As", "Ah", False), ("Ac", "2c", False)])
def test_insurance_wins_on_a_king_queen_or_jack_under_an_ace(up, hole, wins):
    assert bj.insurance_wins(C(up), C(hole)) == wins


@pytest.mark.reg("581.12(b)")
@pytest.mark.parametrize("amount, hole, net", [
    (200, "Kh", 500), (201, "Qd", 502), (1000, "Jc", 2500), (200, "9h", -200)])
def test_insurance_pays_5_to_2(amount, hole, net):
    assert bj.insurance_net(amount, C("As"), C(hole)) == net
    table = paytables.get("double-attack-blackjack", "insurance")
    hand = "win" if net > 0 else None
    assert settle.settle(table, hand, amount)[1] == net


@pytest.mark.reg("581.8(a)")
@pytest.mark.parametrize("up", ["Ks", "9h"])
def test_insurance_is_only_under_an_ace(up):
    with pytest.raises(RulesError, match="ace"):
        bj.insurance_wins(C(up), C("Kh"))


@pytest.mark.reg("581.9(b)(1)")
@pytest.mark.parametrize("bet, da, up, net", [
    (1000, 500, "9s", (-500, -250)), (1001, 501, "2h", (-500, -250)), (1000, 0, "8d", (-500, 0))])
def test_surrender_under_a_low_card_takes_half(bet, da, up, net):
    assert bj.surrender(bet, da, C(up)) == net


@pytest.mark.reg("581.9(b)(2)(i)")
@pytest.mark.parametrize("up, hole", [("As", "Kh"), ("Ks", "Ad"), ("Jh", "Ac"), ("Ad", "Qd")])
def test_surrender_into_a_dealer_blackjack_loses_the_bet_and_returns_double_attack(up, hole):
    assert bj.surrender(1000, 500, C(up), C(hole)) == (-1000, 0)


@pytest.mark.reg("581.9(b)(2)(ii)")
@pytest.mark.parametrize("up, hole", [("As", "9h"), ("Ks", "Qd"), ("Qh", "7c"), ("Ad", "Ac")])
def test_surrender_with_a_face_or_ace_up_and_no_blackjack_takes_half(up, hole):
    assert bj.surrender(1000, 500, C(up), C(hole)) == (-500, -250)


@pytest.mark.reg("581.9(b)(2)")
def test_surrender_under_an_ace_or_face_needs_the_hole_card():
    with pytest.raises(RulesError, match="581.9"):
        bj.surrender(1000, 500, C("As"))


@pytest.mark.parametrize("bet", [-1, 1.5, "100", True])
def test_wagers_are_whole_cents(bet):
    with pytest.raises(RulesError):
        bj.surrender(bet, 0, C("9s"))
    with pytest.raises(RulesError):
        bj.insurance_max(bet)
