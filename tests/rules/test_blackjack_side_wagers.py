"""The optional wagers of Blackjack, 633a.7(g) and (o): win conditions read off the
text (its own examples included), settlement timing and order, progressive rules
in cents, and the configurable paytables (633a.13 is table configuration)."""
import pytest

from controller.errors import ConfigError, InvalidCard, InvalidHand, SettlementError, TablectlError
from controller.rules import blackjack_side_payouts as sp
from controller.rules import blackjack_side_wagers as sw
from controller.rules import cards, paytables, settle

H = cards.parse_all
C = cards.parse
WIN, LOSE = settle.WIN, settle.LOSE


# ---- (g)(1) Lucky Ladies Twenty Point Bonus ----------------------------------------

@pytest.mark.reg("633a.7(g)(1)")
@pytest.mark.parametrize("player, up, hand", [
    ("Kh Qd", "5s", "any_20"),
    ("Ts Jc", "9h", "any_20"),
    ("As 9d", "2c", "any_20"),              # a soft 20 is a total point count of 20
    ("Ks Qs", "7h", "suited_20"),
    ("Ah 9h", "Kd", "suited_20"),
    ("Jd Jd", "4c", "matched_20"),          # two identical cards (a multi-deck shoe)
    ("Qh Qh", "6s", "queen_of_hearts_pair"),  # 2-9 up: no Blackjack possible, paid now
    ("Qh Qd", "6s", "any_20"),
    ("Kh 9d", "5s", None),                  # 19
    ("As Ad", "5s", None),                  # 12
    ("Kh Qd 5s", "5s", "invalid"),
])
def test_lucky_ladies_wins_on_a_two_card_twenty(player, up, hand):
    if hand == "invalid":
        with pytest.raises(InvalidHand, match=r"633a\.7\(g\)\(1\)"):
            sw.lucky_ladies(H(player), C(up))
        return
    assert sw.lucky_ladies(H(player), C(up)) == hand


@pytest.mark.reg("633a.7(g)(1)(ii)")
def test_two_queens_of_hearts_against_dealer_blackjack_win_the_top_row():
    assert sw.lucky_ladies(H("Qh Qh"), C("As"), dealer_blackjack=True) == \
        "queen_of_hearts_pair_dealer_blackjack"
    assert sp.settlement_time(sw.LUCKY_LADIES, H("Qh Qh"), C("As"), True) == \
        (sp.WITH_DEALER_BLACKJACK, "633a.7(g)(1)(ii)")


@pytest.mark.reg("633a.7(g)(1)(i)")
@pytest.mark.parametrize("up", ["Ts", "Jd", "Qc", "Kh", "Ah"])
def test_two_queens_of_hearts_against_a_ten_or_ace_wait_for_the_card_reader(up):
    assert sw.lucky_ladies_deferred(H("Qh Qh"), C(up))
    with pytest.raises(InvalidHand, match="dealer_blackjack"):
        sw.lucky_ladies(H("Qh Qh"), C(up))
    assert sw.lucky_ladies(H("Qh Qh"), C(up), dealer_blackjack=False) == "queen_of_hearts_pair"
    assert sp.settlement_time(sw.LUCKY_LADIES, H("Qh Qh"), C(up)) == (sp.AFTER_PEEK, "633a.7(g)(1)")
    assert sp.settlement_time(sw.LUCKY_LADIES, H("Qh Qh"), C(up), False) == \
        (sp.AFTER_PEEK, "633a.7(g)(1)(i)")


@pytest.mark.reg("633a.7(g)(1)")
@pytest.mark.parametrize("player, up, deferred", [
    ("Qh Qh", "9s", False), ("Qh Qd", "As", False), ("Kh Qh", "As", False), ("Qh Qh", "Td", True)])
def test_only_two_queens_of_hearts_against_ten_or_ace_settle_after_the_others(player, up, deferred):
    assert sw.lucky_ladies_deferred(H(player), C(up)) == deferred
    step = sp.settlement_time(sw.LUCKY_LADIES, H(player), C(up))[0]
    assert step == (sp.AFTER_PEEK if deferred else sp.AT_SECOND_CARDS)


@pytest.mark.reg("633a.7(h)")
def test_no_dealer_blackjack_under_a_two_to_nine_up_card():
    with pytest.raises(InvalidHand, match=r"633a\.7\(h\)"):
        sw.lucky_ladies(H("Qh Qh"), C("9s"), dealer_blackjack=True)


# ---- (g)(2) Match-the-Dealer -----------------------------------------------------------

@pytest.mark.reg("633a.7(g)(2)")
@pytest.mark.parametrize("player, up, hands", [
    ("7s 2d", "7h", ["unsuited_match"]),
    ("7h 2d", "7h", ["suited_match"]),
    ("7h 7c", "7h", ["suited_match", "unsuited_match"]),   # paid for each matching card
    ("7d 7c", "7h", ["unsuited_match", "unsuited_match"]),
    ("As 4d", "Ac", ["unsuited_match"]),
    ("8s 2d", "7h", []),
])
def test_match_the_dealer_pays_each_card_matching_the_up_cards_rank(player, up, hands):
    assert sw.match_the_dealer(H(player), C(up)) == hands


@pytest.mark.reg("633a.7(g)(2)")
@pytest.mark.parametrize("player, up, hands", [
    ("Qs 4d", "Kh", []),                    # a queen does not match a king
    ("Ts 4d", "Jh", []),                    # nor a 10 a jack: no match by value
    ("Ks 4d", "Kh", ["unsuited_match"]),
    ("Th Td", "Th", ["suited_match", "unsuited_match"]),
])
def test_ten_value_cards_match_only_an_identical_card(player, up, hands):
    assert sw.match_the_dealer(H(player), C(up)) == hands


@pytest.mark.reg("633a.7(g)(2)")
def test_match_the_dealer_settles_every_matching_card():
    table = sp.default_paytable(sw.MATCH_THE_DEALER)
    outcome = sw.match_the_dealer(H("7h 7c"), C("7h"))
    assert sw.settle_outcome(table, outcome, 500) == (WIN, 500 * 11 + 500 * 4)
    assert sw.settle_outcome(table, sw.match_the_dealer(H("8h 2c"), C("7h")), 500) == (LOSE, -500)


# ---- (g)(3) In Between ------------------------------------------------------------------

@pytest.mark.reg("633a.7(g)(3)(i)")
@pytest.mark.parametrize("player, up, hand", [
    ("7s 9d", "8h", "spread_1"),            # the text's example
    ("9d 7s", "8h", "spread_1"),
    ("2s Ad", "7h", "spread_11"),           # ace high: 3..K fall between
    ("2s Ad", "Kc", "spread_11"),
    ("5s Td", "9c", "spread_4"),
    ("Ts Qd", "Jc", "spread_1"),            # by rank: a jack falls between a 10 and a queen
    ("7s 9d", "9h", None),                  # on an end card: not between
    ("7s 8d", "8h", None),                  # no card can fall between consecutive ranks
    ("7s 9d", "Kh", None),
    ("7s 7d", "8h", None),
])
def test_in_between_pays_by_card_spread(player, up, hand):
    assert sw.in_between(H(player), C(up)) == hand


@pytest.mark.reg("633a.7(g)(3)(ii)")
@pytest.mark.parametrize("player, up, hand", [
    ("7s 7d", "7h", "triple_match"), ("Ks Kd", "Kh", "triple_match"), ("Ks Qd", "Kh", None),
    ("As Ah", "Ad", "triple_match")])
def test_triple_match_is_three_cards_of_one_rank(player, up, hand):
    assert sw.in_between(H(player), C(up)) == hand


# ---- (g)(4) Royal Match 21 --------------------------------------------------------------

@pytest.mark.reg("633a.7(g)(4)")
@pytest.mark.parametrize("player, up, hands", [
    ("Kh Qh", "5s", ["royal_match"]),
    ("Qd Kd", "As", ["royal_match"]),
    ("Kh 4h", "5s", ["suited_match"]),
    ("Kh Qd", "5s", []),
    ("Kh Qh", "Ks", "needs hole"),
])
def test_royal_match_21_suited_match_and_royal_match(player, up, hands):
    if hands == "needs hole":
        with pytest.raises(InvalidHand, match=r"hole card .*633a\.7\(g\)\(4\)"):
            sw.royal_match_21(H(player), C(up))
        return
    assert sw.royal_match_21(H(player), C(up)) == hands


@pytest.mark.reg("633a.7(g)(4)")
@pytest.mark.parametrize("player, up, hole, hands", [
    ("Kh Qh", "Ks", "Qs", ["royal_match", "crown_treasure_bonus"]),
    ("Kh Qh", "Qc", "Kc", ["royal_match", "crown_treasure_bonus"]),
    ("Kh Qh", "Ks", "Qd", ["royal_match"]),
    ("Kh Qh", "Qs", "5s", ["royal_match"]),
])
def test_crown_treasure_bonus_when_the_dealer_also_has_a_royal_match(player, up, hole, hands):
    assert sw.royal_match_21(H(player), C(up), C(hole)) == hands


@pytest.mark.reg("633a.7(g)(4)")
@pytest.mark.parametrize("player, up, deferred", [
    ("Kh Qh", "Ks", True), ("Kh Qh", "Qd", True), ("Kh Qh", "Js", False), ("Kh 5h", "Ks", False)])
def test_royal_match_against_king_or_queen_settles_after_the_hole_card(player, up, deferred):
    assert sw.royal_match_deferred(H(player), C(up)) == deferred
    step = sp.settlement_time(sw.ROYAL_MATCH_21, H(player), C(up))[0]
    assert step == (sp.AFTER_HOLE_CARD if deferred else sp.AT_SECOND_CARDS)


@pytest.mark.reg("633a.7(g)(4)")
def test_crown_treasure_is_paid_only_if_the_table_offers_it():
    outcome = sw.royal_match_21(H("Kh Qh"), C("Ks"), C("Qs"))
    default = sp.default_paytable(sw.ROYAL_MATCH_21)
    assert default.pay("crown_treasure_bonus") is None
    assert sw.settle_outcome(default, outcome, 1000) == (WIN, 25000)
    offered = sp.paytable_from_config(sw.ROYAL_MATCH_21, {
        "royal_match": "25 to 1", "suited_match": "5 to 2", "crown_treasure_bonus": "1,000 to 1"})
    assert sw.settle_outcome(offered, outcome, 1000) == (WIN, 25000 + 1000000)
    assert sw.settle_outcome(default, sw.royal_match_21(H("Kh 4h"), C("5s")), 101) == (WIN, 252)


# ---- (g)(5) Bet the Set 21 ----------------------------------------------------------------

@pytest.mark.reg("633a.7(g)(5)")
@pytest.mark.parametrize("player, hand", [
    ("8s 8d", "pair"), ("8d 8d", "suited_pair"), ("As Ac", "pair"), ("Ks Qs", None), ("8s 9s", None)])
def test_bet_the_set_pays_a_pair_or_a_suited_pair_of_one_rank(player, hand):
    assert sw.bet_the_set_21(H(player)) == hand


# ---- (g)(6) King's Bounty --------------------------------------------------------------------

@pytest.mark.reg("633a.7(g)(6)")
@pytest.mark.parametrize("player, up, hand", [
    ("Ks Ks", "7d", "two_kings_of_spades"),
    ("Kh Kh", "7d", "suited_kings"),
    ("Qd Qd", "7d", "suited_queens_jacks_or_tens"),
    ("Ts Ts", "7d", "suited_queens_jacks_or_tens"),
    ("Ks Js", "7d", "suited_20"),
    ("Ks Kh", "7d", "any_20"),
    ("9c Ad", "7d", "any_20"),
    ("Ks 9s", "7d", None),
])
def test_kings_bounty_wins_on_a_two_card_twenty(player, up, hand):
    assert sw.kings_bounty(H(player), C(up)) == hand


@pytest.mark.reg("633a.7(g)(6)(ii)")
def test_two_kings_of_spades_against_dealer_blackjack():
    assert sw.kings_bounty(H("Ks Ks"), C("Ah"), dealer_blackjack=True) == \
        "two_kings_of_spades_dealer_blackjack"
    assert sp.settlement_time(sw.KINGS_BOUNTY, H("Ks Ks"), C("Ah"), True) == \
        (sp.WITH_DEALER_BLACKJACK, "633a.7(g)(6)(ii)")


@pytest.mark.reg("633a.7(g)(6)(i)")
def test_two_kings_of_spades_without_dealer_blackjack_paid_before_other_cards():
    assert sw.kings_bounty_deferred(H("Ks Ks"), C("Th"))
    assert not sw.kings_bounty_deferred(H("Ks Ks"), C("9h"))
    with pytest.raises(InvalidHand, match=r"633a\.7\(g\)\(6\)"):
        sw.kings_bounty(H("Ks Ks"), C("Th"))
    assert sw.kings_bounty(H("Ks Ks"), C("Th"), dealer_blackjack=False) == "two_kings_of_spades"
    assert sp.settlement_time(sw.KINGS_BOUNTY, H("Ks Ks"), C("Th"), False) == \
        (sp.AFTER_PEEK, "633a.7(g)(6)(i)")


# ---- (g)(7) Super Match --------------------------------------------------------------------

@pytest.mark.reg("633a.7(g)(7)")
@pytest.mark.parametrize("player, hand", [
    ("9s 9d 9h 9c", "four_of_a_kind"), ("9s 9d 9h 2c", "three_of_a_kind"),
    ("9s 9d 2h 2c", "two_pair"), ("9s 9d 2h 3c", "pair"), ("Ks Qd Jh Tc", None),
])
def test_super_match_on_the_initial_four_cards(player, hand):
    assert sw.super_match(H(player)) == hand


@pytest.mark.reg("633a.7(g)(7)")
def test_super_match_needs_four_cards():
    with pytest.raises(InvalidHand, match=r"four cards.*633a\.7\(g\)\(7\)"):
        sw.super_match(H("9s 9d"))


# ---- (g)(8) Three Card Poker -------------------------------------------------------------

@pytest.mark.reg("633a.7(g)(8)")
@pytest.mark.parametrize("player, up, hand", [
    ("5h 6h", "7h", "straight_flush"),
    ("Kh Qh", "Ah", "straight_flush"),      # no royal row in (g)(8)
    ("7s 7d", "7h", "three_of_a_kind"),
    ("7s 7s", "7s", "three_of_a_kind"),
    ("2s 3d", "Ah", "straight"),
    ("Ks Qd", "Ah", "straight"),
    ("2h 9h", "Kh", "flush"),
    ("7s 7d", "4h", None),                  # a pair is not a winning hand
    ("7h 7h", "9h", "flush"),               # three of one suit whatever their ranks (6 decks)
    ("9h 7h", "7h", "flush"),               # the pair and the flush in either order
    ("Kd Kd", "2d", "flush"),
    ("Ah Ah", "Kh", "flush"),               # no straight in a pair: a flush only
    ("7h 7h", "7h", "three_of_a_kind"),     # suited trips rank as the higher hand of the list
    ("Ks 2d", "Ah", None),                  # no wrap-around
])
def test_three_card_poker_on_up_card_and_two_cards(player, up, hand):
    assert sw.three_card_poker(H(player), C(up)) == hand


# ---- (g)(9), (o)(3) Straight Jack Progressive ---------------------------------------------

@pytest.mark.reg("633a.7(g)(9)")
@pytest.mark.parametrize("player, straight", [
    ("4h 5s", True), ("5s 4h", True), ("As Kd", True), ("Kd As", True), ("As 2d", True),
    ("Ts Jd", True), ("9s Td", True), ("4h 6s", False), ("Ks 2d", False), ("5s 5d", False)])
def test_straight_jack_collected_without_a_two_card_straight(player, straight):
    assert sw.is_two_card_straight(H(player)) == straight
    step, section = sp.settlement_time(sw.STRAIGHT_JACK, H(player), C("7c"))
    if straight:
        assert (step, section) == (sp.AFTER_ALL_CARDS, "633a.7(o)(3)")
    else:
        assert (step, section) == (sp.AT_SECOND_CARDS, "633a.7(g)(9)")
        assert sw.straight_jack_progressive(H(player)) is None


@pytest.mark.reg("633a.7(o)(3)(i)(A)")
def test_straight_jack_example_a_a_six_makes_three_cards():
    assert sw.straight_jack_progressive(H("4h 5s"), H("6d")) == "three_card_straight"


@pytest.mark.reg("633a.7(o)(3)(i)(B)")
def test_straight_jack_example_b_three_then_six_make_four_cards():
    assert sw.straight_jack_progressive(H("4h 5s"), H("3d 6c")) == "four_card_straight"


@pytest.mark.reg("633a.7(o)(3)(i)(C)")
def test_straight_jack_example_c_the_two_breaks_the_sequence():
    assert sw.straight_jack_progressive(H("4h 5s"), H("2d 3c")) == "two_card_straight"


@pytest.mark.reg("633a.7(o)(3)(i)(D)")
def test_straight_jack_example_d_the_busting_card_does_not_count():
    assert sw.straight_jack_progressive(H("4h 5s"), H("6d 7c")) == "three_card_straight"


@pytest.mark.reg("633a.7(o)(3)(i)")
@pytest.mark.parametrize("player, drawn, hand", [
    ("As Kd", "", "two_card_straight"),          # ace-king is a two-card straight
    ("Kd Qs", "Ac", "three_card_straight"),      # K-Q-A: 21
    ("As 2d", "3c 4h 5s 6d", "six_card_straight"),  # A-2-3-4-5-6 is 21, the longest
    ("3c 2d", "Ah 4s", "four_card_straight"),    # the ace extends low
    ("2d 3c", "5h 4s", "two_card_straight"),     # a card that breaks ends it: 4 too late
    ("2d 3c", "3h 4s", "two_card_straight"),     # a repeated rank does not extend it
    ("7s 8d", "9c", "two_card_straight"),        # 24: the busting 9 does not count
    ("7s 8d", "", "two_card_straight"),
    ("4h 6s", "5d", None),                       # the initial two were not a straight
])
def test_straight_jack_extends_only_by_cards_that_keep_the_sequence(player, drawn, hand):
    assert sw.straight_jack_progressive(H(player), H(drawn)) == hand


@pytest.mark.reg("633a.7(k)(1)")
@pytest.mark.parametrize("player, drawn", [("As Kd", "2c"), ("7s 8d", "9c 3h"), ("Ts 5d", "6c 2h")])
def test_no_card_is_drawn_to_21_or_more(player, drawn):
    with pytest.raises(InvalidHand, match=r"may not draw.*633a\.7\(k\)"):
        sw.straight_jack_progressive(H(player), H(drawn))


# ---- (g)(10) House Money ------------------------------------------------------------------

@pytest.mark.reg("633a.7(g)(10)")
@pytest.mark.parametrize("player, hand", [
    ("As Ks", "ace_king_suited"), ("As Kd", "two_card_straight"), ("5h 6h", "two_card_straight_flush"),
    ("Ah 2h", "two_card_straight_flush"), ("5h 6d", "two_card_straight"), ("9s 9d", "pair"),
    ("9s 9s", "pair"), ("Ks Qh", "two_card_straight"), ("Ks Js", None), ("2s 9s", None)])
def test_house_money_win_conditions(player, hand):
    assert sw.house_money(H(player)) == hand


@pytest.mark.reg("633a.7(g)(10)(i)(A)")
def test_house_money_with_dealer_blackjack_is_paid_and_not_added_to_the_blackjack_wager():
    assert sp.settlement_time(sw.HOUSE_MONEY, H("9s 9d"), C("Ah"), True) == \
        (sp.WITH_DEALER_BLACKJACK, "633a.7(g)(10)(i)(A)")
    assert not sw.house_money_may_add_to_blackjack(H("9s 9d"), C("Ah"), True)
    table = sp.default_paytable(sw.HOUSE_MONEY)
    assert sw.settle_outcome(table, sw.house_money(H("9s 9d")), 1000) == (WIN, 3000)


@pytest.mark.reg("633a.7(g)(10)(i)(B)")
def test_house_money_against_ten_or_ace_without_blackjack_follows_ii():
    assert sp.settlement_time(sw.HOUSE_MONEY, H("9s 9d"), C("Kh")) == (sp.AFTER_PEEK, "633a.7(g)(10)(i)")
    assert sp.settlement_time(sw.HOUSE_MONEY, H("9s 9d"), C("Kh"), False) == \
        (sp.AFTER_PEEK, "633a.7(g)(10)(i)(B)")
    assert sw.house_money_may_add_to_blackjack(H("9s 9d"), C("Kh"), False)
    with pytest.raises(InvalidHand, match=r"dealer_blackjack"):
        sw.house_money_may_add_to_blackjack(H("9s 9d"), C("Kh"))


@pytest.mark.reg("633a.7(g)(10)(ii)")
def test_house_money_against_two_to_nine_is_paid_at_once_and_may_ride():
    assert sp.settlement_time(sw.HOUSE_MONEY, H("5h 6h"), C("9c")) == \
        (sp.AT_SECOND_CARDS, "633a.7(g)(10)(ii)")
    assert sw.house_money_may_add_to_blackjack(H("5h 6h"), C("9c"))


@pytest.mark.reg("633a.7(g)(10)")
def test_a_losing_house_money_wager_is_collected_at_once():
    assert sp.settlement_time(sw.HOUSE_MONEY, H("2s 9d"), C("Ah")) == (sp.AT_SECOND_CARDS, "633a.7(g)(10)")
    assert not sw.house_money_may_add_to_blackjack(H("2s 9d"), C("9c"))


# ---- (o)(1) Bad Beat Progressive ------------------------------------------------------------

@pytest.mark.reg("633a.7(o)(1)(i)")
@pytest.mark.parametrize("player, dealer, hand", [
    ("Ks Qd", "As Jh", "twenty_vs_blackjack"),
    ("Ks Qd", "9s 5h 7c", "twenty_vs_21"),
    ("5s 5d Tc", "6s Th 5c", "twenty_vs_21"),     # a 20 in three cards is a 20
    ("Ks Qd", "Ts 8h", None),
    ("Ks 9d", "As Jh", None),
    ("Ks Qd", "Ts 6h 8c", None),                  # dealer busts: no bad beat
])
def test_bad_beat_wins_on_a_20_against_blackjack_or_21(player, dealer, hand):
    assert sw.bad_beat_progressive(H(player), H(dealer)) == hand


@pytest.mark.reg("633a.7(o)(1)(i)")
@pytest.mark.parametrize("dealer, hand", [
    ("Ts 8h", "twenty"), ("Ts 6h 8c", "twenty"), ("As Jh", "twenty_vs_blackjack")])
def test_rules_submission_may_pay_bad_beat_on_any_20(dealer, hand):
    assert sw.bad_beat_progressive(H("Ks Qd"), H(dealer), any_twenty=True) == hand
    assert sw.bad_beat_progressive(H("Ks 8d"), H(dealer), any_twenty=True) is None


@pytest.mark.reg("633a.7(h)")
@pytest.mark.parametrize("wager", [sw.BAD_BEAT, sw.HIT_AND_RUN])
def test_bad_beat_and_hit_and_run_settle_with_dealer_blackjack(wager):
    assert sp.settlement_time(wager, H("Ks Qd"), C("As"), True) == (sp.WITH_DEALER_BLACKJACK, "633a.7(h)")
    step = sp.settlement_time(wager, H("Ks Qd"), C("As"), False)[0]
    assert step == sp.AFTER_ALL_CARDS


@pytest.mark.reg("633a.7(o)(1)(ii)(B)")
@pytest.mark.parametrize("pay, floor", [
    (paytables.for_one(100), True), (paytables.for_one(99), False), (paytables.to(99), True),
    (paytables.to(98), False), (paytables.meter(100), True)])
def test_bad_beat_floorperson_verifies_100_for_1_or_greater(pay, floor):
    assert sp.needs_floorperson(sw.BAD_BEAT, pay, 100, meter=10000) == floor


@pytest.mark.reg("633a.7(o)(1)(ii)(C)")
def test_bad_beat_is_credited_to_the_game_account_and_shared_by_wager():
    assert sp.payment_source(sw.BAD_BEAT, paytables.meter(100), 500, 100000) == sp.GAME_ACCOUNT
    # 1,000.00 shared by wagers of 1, 2 and 3 dollars
    assert sp.share_jackpot(sw.BAD_BEAT, 100000, {1: 100, 3: 200, 6: 300}) == \
        {1: 16666, 3: 33333, 6: 50001}
    shares = sp.share_jackpot(sw.BAD_BEAT, 100001, {2: 100, 5: 100, 4: 100})
    assert shares == {5: 33334, 4: 33334, 2: 33333}     # odd cents from the dealer's right
    assert sum(shares.values()) == 100001


# ---- (o)(2) Hit and Run Progressive -------------------------------------------------------

@pytest.mark.reg("633a.7(o)(2)(i)")
@pytest.mark.parametrize("dealer, hand", [
    ("As Kh", "dealer_blackjack"),
    ("2s 2h 3d 3c 4s 9h", "six_cards"),        # the text's example: 14 in five, then 23
    ("2s 2h 3d 3c 4s", "five_cards"),          # five cards at 14 count before the sixth
    ("2s 3h 4d 5c 6s", "five_cards"),
    ("2s 2h 2d 2c 3s 3h 4d", "seven_cards"),
    ("2s 2h 2d 2c 2s 2h 2d 2c 5s", "eight_or_more_cards"),
    ("Ts 6h 8c", None),
    ("Ts 7h", None),
    ("5s 6h 7c", None),
])
def test_hit_and_run_on_dealer_blackjack_or_five_or_more_cards(dealer, hand):
    assert sw.hit_and_run_progressive(H(dealer)) == hand


@pytest.mark.reg("633a.7(m)")
def test_a_dealer_hand_drawn_past_17_is_refused():
    with pytest.raises(InvalidHand, match=r"633a\.7\(m\)"):
        sw.hit_and_run_progressive(H("Ts 7h 2c 2d 2s"))


@pytest.mark.reg("633a.7(o)(2)(ii)(B)")
@pytest.mark.parametrize("pay, floor", [
    (paytables.for_one(200), True), (paytables.for_one(199), False), (paytables.to(199), True),
    (paytables.to(198), False)])
def test_hit_and_run_floorperson_verifies_200_for_1_or_greater(pay, floor):
    assert sp.needs_floorperson(sw.HIT_AND_RUN, pay, 500) == floor


@pytest.mark.reg("633a.7(o)(2)(ii)(C)")
def test_hit_and_run_100_percent_of_meter_is_not_paid_from_the_table_inventory():
    assert sp.payment_source(sw.HIT_AND_RUN, paytables.meter(100), 100, 2500000) == sp.NOT_TABLE_INVENTORY
    assert sp.payment_source(sw.HIT_AND_RUN, paytables.for_one(250), 100, 2500000) == sp.TABLE_INVENTORY
    assert sp.share_jackpot(sw.HIT_AND_RUN, 1000, {1: 100, 2: 500, 6: 2500}) == {6: 334, 2: 333, 1: 333}


# ---- (o)(3)(ii) Straight Jack payouts --------------------------------------------------------

@pytest.mark.reg("633a.7(o)(3)(ii)(B)")
@pytest.mark.parametrize("pay, wager, meter, floor", [
    (paytables.for_one(100), 100, None, True), (paytables.for_one(10), 100, None, False),
    (paytables.meter(10), 100, 100000, True),     # 10,000 cents on 100: 100 for 1
    (paytables.meter(10), 200, 100000, False)])
def test_straight_jack_floorperson_verifies_100_for_1_or_greater(pay, wager, meter, floor):
    assert sp.needs_floorperson(sw.STRAIGHT_JACK, pay, wager, meter) == floor


@pytest.mark.reg("633a.7(o)(3)(ii)(C)")
@pytest.mark.parametrize("pay, wager, meter, source", [
    (paytables.meter(10), 100, 100000, sp.NOT_TABLE_INVENTORY),
    (paytables.meter(100), 100, 100000, sp.NOT_TABLE_INVENTORY),
    (paytables.for_one(100), 100, 100000, sp.NOT_TABLE_INVENTORY),   # 10,000 is 10% of the meter
    (paytables.for_one(99), 100, 100000, sp.TABLE_INVENTORY),
    (paytables.for_one(10), 100, 100000, sp.TABLE_INVENTORY)])
def test_straight_jack_10_percent_of_meter_or_more_is_not_paid_from_inventory(pay, wager, meter, source):
    assert sp.payment_source(sw.STRAIGHT_JACK, pay, wager, meter) == source


@pytest.mark.reg("633a.7(o)(3)(ii)(C)")
def test_straight_jack_jackpot_is_shared_equally():
    assert sp.share_jackpot(sw.STRAIGHT_JACK, 100000, {3: 100, 4: 2500}) == {3: 50000, 4: 50000}
    with pytest.raises(SettlementError, match=r"meter"):
        sp.payment_source(sw.STRAIGHT_JACK, paytables.meter(10), 100)


@pytest.mark.reg("633a.7(o)(3)(ii)(C)")
def test_a_meter_share_nets_the_payout_less_the_wager():
    table = sp.default_paytable(sw.STRAIGHT_JACK)
    assert sw.settle_outcome(table, "six_card_straight", 500, meter=2000000) == (WIN, 2000000 - 500)
    assert sw.settle_outcome(table, "three_card_straight", 500, meter=2000000) == (WIN, 500 * 9)
    assert sp.payout_amount(paytables.for_one(10), 500) == 5000
    assert sp.payout_amount(paytables.to(10), 500) == 5000


# ---- settlement order (g), (o) -----------------------------------------------------------------

@pytest.mark.reg("633a.7(g)")
def test_optional_wagers_settle_from_the_dealers_right_counterclockwise():
    assert sp.settlement_order([1, 4, 6, 2]) == [6, 4, 2, 1]


@pytest.mark.reg("633a.7(g)")
@pytest.mark.parametrize("wager", [sw.MATCH_THE_DEALER, sw.IN_BETWEEN, sw.BET_THE_SET_21,
                                   sw.THREE_CARD_POKER])
def test_first_two_card_wagers_settle_at_the_second_card(wager):
    assert sp.settlement_time(wager, H("Qh Qh"), C("As")) == (sp.AT_SECOND_CARDS, sw.WIN_SECTION[wager])
    assert sp.SETTLES_AT[wager] == sp.AT_SECOND_CARDS


@pytest.mark.reg("633a.7(o)")
@pytest.mark.parametrize("wager", [sw.BAD_BEAT, sw.HIT_AND_RUN, sw.STRAIGHT_JACK])
def test_remaining_wagers_settle_after_all_cards(wager):
    assert sp.SETTLES_AT[wager] == sp.AFTER_ALL_CARDS


@pytest.mark.reg("633a.7(o)")
def test_every_wager_has_a_timing_a_section_and_a_default():
    for w in sw.WAGERS:
        assert sp.SETTLES_AT[w] in sp.STEPS
        assert sw.WIN_SECTION[w].startswith("633a.7(")
        assert sw.PAYOUT_SECTION[w].startswith("633a.13(")
        t = sp.default_paytable(w)
        assert t.section == "633a.13 (configuration default)" and t.wager == w
        for hand in t.hands():
            assert hand in sw.HANDS[w]
    with pytest.raises(SettlementError, match="not an optional wager"):
        sp.settlement_time("insurance", H("Ks Qd"), C("As"))


# ---- paytables: configuration (633a.13) ---------------------------------------------------------

@pytest.mark.reg("633a.13")
def test_default_lucky_ladies_paytable_is_configuration():
    t = sp.default_paytable(sw.LUCKY_LADIES)
    assert [(h, p.text()) for h, p in t.rows] == [
        ("queen_of_hearts_pair_dealer_blackjack", "1,000 to 1"), ("queen_of_hearts_pair", "125 to 1"),
        ("matched_20", "19 to 1"), ("suited_20", "9 to 1"), ("any_20", "4 to 1")]
    assert t not in paytables.all_tables()      # not a regulation table


@pytest.mark.reg("633a.13")
@pytest.mark.parametrize("text, pay", [
    ("9 to 1", paytables.to(9)), ("5 to 2", paytables.to(5, 2)), ("1,000 to 1", paytables.to(1000)),
    ("50 for 1", paytables.for_one(50)), ("2,500 for 1", paytables.for_one(2500)),
    ("100% of meter", paytables.meter(100)), ("10% of meter", paytables.meter(10))])
def test_payout_strings_parse(text, pay):
    assert sp.parse_payout(text) == pay


@pytest.mark.reg("633a.13")
@pytest.mark.parametrize("text", [
    "9:1", "9 to 0", "0 to 1", "9 to 1 ", " 9 to 1", "9  to 1", "9 To 1", "9 for 2", "-9 to 1",
    "09 to 1", "1,00 to 1", "1000, to 1", "9.5 to 1", "101% of meter", "0% of meter",
    "10 % of meter", "10% meter", "push", "", 9, None, "nine to one"])
def test_anything_else_is_refused_naming_wager_and_hand(text):
    with pytest.raises(ConfigError, match=r"paytables\.lucky_ladies\.any_20"):
        sp.paytable_from_config(sw.LUCKY_LADIES, {"any_20": text})


@pytest.mark.reg("633a.13")
def test_configured_paytable_replaces_the_default():
    t = sp.paytable_from_config(sw.LUCKY_LADIES, {
        "any_20": "4 to 1", "queen_of_hearts_pair_dealer_blackjack": "1,000 to 1",
        "queen_of_hearts_pair": "200 to 1", "suited_20": "10 to 1", "matched_20": "25 to 1"})
    assert t.hands() == list(sw.HANDS[sw.LUCKY_LADIES])      # highest first, whatever the order
    assert t.section == "633a.13 (Rules Submission)"
    assert sw.settle_outcome(t, sw.lucky_ladies(H("Qh Qh"), C("7s")), 500) == (WIN, 100000)
    partial = sp.paytable_for(sw.LUCKY_LADIES, {"suited_20": "10 to 1"})
    assert sw.settle_outcome(partial, "any_20", 500) == (LOSE, -500)     # a row left out loses
    assert sp.paytable_for(sw.LUCKY_LADIES) is sp.default_paytable(sw.LUCKY_LADIES)


@pytest.mark.reg("633a.13")
def test_bad_configuration_is_refused():
    with pytest.raises(ConfigError, match=r"paytables\.lucky_ladies: 'royal_match' is not a hand"):
        sp.paytable_from_config(sw.LUCKY_LADIES, {"royal_match": "25 to 1"})
    with pytest.raises(ConfigError, match=r"not an optional wager"):
        sp.paytable_from_config("insurance", {"win": "2 to 1"})
    with pytest.raises(ConfigError, match=r"at least one row"):
        sp.paytable_from_config(sw.HIT_AND_RUN, {})
    assert issubclass(ConfigError, TablectlError)


@pytest.mark.reg("633a.7(o)(1)(i)")
def test_the_any_twenty_option_is_a_configured_row():
    t = sp.paytable_from_config(sw.BAD_BEAT, {
        "twenty_vs_blackjack": "100% of meter", "twenty_vs_21": "50 for 1", "twenty": "2 for 1"})
    outcome = sw.bad_beat_progressive(H("Ks Qd"), H("Ts 9h"), any_twenty=True)
    assert sw.settle_outcome(t, outcome, 100) == (WIN, 100)
    assert sw.settle_outcome(t, "twenty_vs_blackjack", 100, meter=50000) == (WIN, 49900)


# ---- cards ----------------------------------------------------------------------------------------

@pytest.mark.reg("633a.7(g)")
def test_the_joker_and_non_cards_are_refused():
    with pytest.raises(InvalidCard, match=r"633a\.7\(g\)\(3\)"):
        sw.in_between([cards.JOKER, C("9s")], C("8h"))
    with pytest.raises(InvalidCard):
        sw.match_the_dealer(H("9s 8d"), 12345)
    with pytest.raises(InvalidHand):
        sw.bet_the_set_21("9s 9d")
