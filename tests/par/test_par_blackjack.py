"""Basic strategy, its house edge and the optional wagers' sheets of the blackjack games.

The strategy engine (controller/lab/par/blackjack_strategy.py) is checked three ways: the dealer's
outcomes against a brute-force walk of every ordered draw through the rules core's own
dealer rule; the house edge of standard Blackjack against published figures for the same
rules; and Double Attack's two readings of 581.9(b) against issue 19's independent figures.
The optional wagers are checked against counts written here from their definitions.
"""
from fractions import Fraction
from itertools import product

import pytest

from controller.lab.par import blackjack as par
from controller.lab.par import blackjack_strategy as s
from controller.lab.par import double_attack as da_par
from controller.rules import blackjack as bj
from controller.rules import blackjack_side_payouts as P
from controller.rules import cards


# ---- the dealer, by brute force through the rules core ------------------------------------

def _brute_dealer(shoe_cards, up):
    """{17..21, 22: probability} walking every ordered draw of real cards, the rules core
    deciding when the dealer stands (bj.dealer_must_draw)."""
    out = dict.fromkeys((17, 18, 19, 20, 21, 22), Fraction(0))

    def walk(hand, left, p):
        if not bj.dealer_must_draw(hand):
            t = bj.total(hand)
            out[22 if t > 21 else t] += p
            return
        for i, c in enumerate(left):
            walk(hand + [c], left[:i] + left[i + 1:], p / len(left))
    walk([up], shoe_cards, Fraction(1))
    return out


def _value_counts(shoe_cards):
    counts = [0] * 11
    for c in shoe_cards:
        counts[min(bj.card_value(c), 10) if bj.card_value(c) != 11 else 1] += 1
    return counts


@pytest.mark.reg("581.7(n)")
@pytest.mark.parametrize("up_code", ["6h", "As", "Kd"])
def test_dealer_outcomes_match_a_brute_force_walk_through_the_rules_core(up_code):
    up = cards.parse(up_code)
    # a small shoe: the ranks 2..6, A and K of two suits (14 cards less the up card)
    shoe_cards = [cards.parse(r + su) for r in "23456AK" for su in "sh"]
    shoe_cards.remove(up) if up in shoe_cards else None
    brute = _brute_dealer(shoe_cards, up)
    v = 1 if up_code[0] == "A" else min(bj.card_value(up), 10)
    fast = s.dealer_outcomes(_value_counts(shoe_cards), v)
    for total in brute:
        assert fast[total] == pytest.approx(float(brute[total]), abs=1e-12)


def test_the_peek_conditions_the_hole_card():
    counts = s.Rules("x", 1, 16, (), 1).shoe()
    counts[1] -= 1
    peeked = s.dealer_outcomes(counts, 1, peek_ups=(1, 10))
    assert sum(peeked.values()) == pytest.approx(1.0)
    # with the tens gone from the hole the dealer's 21 comes only from drawing
    unpeeked = s.dealer_outcomes(counts, 1)
    assert peeked[21] < unpeeked[21]


# ---- Blackjack against published figures ---------------------------------------------------
# Rule effects of thecolorofblackjack.com ("Solution one"): single deck, double on any two,
# one card on split aces, S17, no surrender: 0.02%; six decks +0.53%, eight +0.55%; DAS
# -0.13%; late surrender -0.06%. Six decks, S17, DAS, late surrender: 0.36%.

@pytest.mark.reg("633a.7(m)")
@pytest.mark.parametrize("options, published", [
    ({"decks": 1, "late_surrender": False, "double_after_split": False}, 0.0002),
    ({"decks": 6, "late_surrender": False}, 0.0042),
    ({"decks": 6}, 0.0036),
])
def test_blackjack_house_edge_matches_published_figures(options, published):
    _, edge = s.solve(s.blackjack_rules(options))
    assert edge.house_edge() == pytest.approx(published, abs=0.0005)


def test_the_blackjack_chart_is_the_textbook_six_deck_chart():
    strategy, _ = s.solve(s.blackjack_rules())
    sections = s.chart_rows(s.blackjack_rules(), strategy)
    rows = dict(r for title, rows in sections if "after a hit" not in title for r in rows)
    after_hit = dict(r for title, rows in sections if "after a hit" in title for r in rows)
    assert after_hit["hard 16"] == ["S"] * 5 + ["H"] * 5     # no surrender after a hit
    ups = list(s.UPS)
    assert rows["hard 16"][ups.index(10)] == "R" and rows["hard 15"][ups.index(10)] == "R"
    assert rows["hard 11"][ups.index(1)] == "H"          # S17, six decks
    assert rows["hard 12"][ups.index(3)] == "H" and rows["hard 12"][ups.index(4)] == "S"
    assert rows["8-8"] == ["P"] * 10 and rows["10-10"] == ["-"] * 10
    assert rows["9-9"][ups.index(7)] == "-" and rows["soft 18"][ups.index(9)] == "H"


# ---- Double Attack: the readings of 581.9(b) (issue 19) ------------------------------------

@pytest.mark.reg("581.9(b)")
def test_double_attack_house_edge_under_each_reading_of_the_double_down_on_a_surrender():
    half = s.solve(s.double_attack_rules({"surrender_double_down": "half"}))[1].house_edge()
    returned = s.solve(s.double_attack_rules({"surrender_double_down": "returned"}))[1]
    # issue 19's independent calculation: about +0.5% and about -2.3%
    assert half == pytest.approx(0.005, abs=0.001)
    assert returned.house_edge() == pytest.approx(-0.023, abs=0.001)


@pytest.mark.reg("581.7(e)")
def test_double_attack_is_placed_against_two_to_eight():
    _, edge = s.solve(s.double_attack_rules())
    assert [u for u in s.UPS if edge.double_attack[u]] == [2, 3, 4, 5, 6, 7, 8]


def test_the_double_attack_chart_prints_the_after_double_rows():
    text = s.strategy_text("double-attack-blackjack")
    assert "Double Attack Wager (581.7(e)): place it against 2, 3, 4, 5, 6, 7, 8 up" in text
    assert "after doubling down" in text and "house edge under this chart: 0.51" in text


def test_the_base_game_entry_carries_strategy_and_method():
    j = da_par.sheets()[0].to_json()
    assert j["wager"] == "base_game" and j["strategy"] == "basic"
    assert set(j) >= {"house_edge", "method", "precision"}


# ---- the optional wagers, counted here from their definitions ------------------------------

def _ordered_pairs(decks, test):
    """Ordered draws of the player's two cards, times the up and hole cards' ways, for which
    test(a, b) holds, from `decks` standard decks: counted by class, independently."""
    n = 52 * decks
    deck = cards.standard_deck()
    ways = 0
    for a, b in product(deck, repeat=2):
        if test(a, b):
            ways += decks * (decks - (a == b))
    return ways * (n - 2) * (n - 3)


@pytest.mark.reg("633a.7(g)(5)")
def test_bet_the_set_counts_pairs_and_suited_pairs():
    counts, combos = par.initial_cards_counts("bet_the_set_21", 6)
    same = lambda a, b: cards.rank(a) == cards.rank(b)  # noqa: E731
    suited = _ordered_pairs(6, lambda a, b: same(a, b) and cards.suit(a) == cards.suit(b))
    assert counts[("suited_pair",)] == suited
    assert counts[("pair",)] == _ordered_pairs(6, same) - suited
    assert combos == 312 * 311 * 310 * 309
    # 6 decks, 25 and 8 to 1: return (26 * 5/311 + 9 * 18/311) = 292/311
    sheet = [x for x in par.side_sheets() if x.wager == "bet_the_set_21"][0]
    assert sheet.house_edge() == Fraction(19, 311)


@pytest.mark.reg("633a.7(g)(1)")
def test_lucky_ladies_on_its_well_known_paytable():
    # 1000/125/19/9/4, six decks: the published 24.71%
    sheet = [x for x in par.side_sheets() if x.wager == "lucky_ladies"][0]
    assert float(sheet.house_edge()) == pytest.approx(0.2471, abs=0.0001)


@pytest.mark.reg("633a.7(g)")
def test_a_configured_paytable_and_deck_count_move_the_hold():
    config = {"options": {"decks": 8, "side_paytables": {"bet_the_set_21": {
        "suited_pair": "30 to 1", "pair": "8 to 1"}}}, "offered": {"bet_the_set_21": True}}
    (sheet,) = par.side_sheets(config)
    n = 8 * 52 - 1
    suited, pair = Fraction(7, n), Fraction(24, n)
    assert sheet.house_edge() == 1 - 31 * suited - 9 * pair
    assert sheet.to_json()["section"] == "633a.13 (Rules Submission)"


@pytest.mark.reg("633a.7(o)(2)(i)")
def test_hit_and_run_probabilities_add_to_one_and_carry_the_meter_share():
    sheet = [x for x in par.side_sheets() if x.wager == "hit_and_run_progressive"][0]
    assert sum(sheet.counts.values()) == sheet.combinations
    # a dealer Blackjack: an ace and a ten-value in the first two cards of six decks
    p_bj = Fraction(2 * 24 * 96, 312 * 311)
    assert Fraction(sheet.counts[("dealer_blackjack",)], sheet.combinations) == p_bj
    assert sheet.to_json()["meter_share"] > 0


def test_every_offered_wager_is_on_the_sheet():
    names = [x.wager for x in par.sheets()]
    assert names[0] == "base_game"
    assert set(names[1:]) == set(P.DEFAULT_PAYTABLES) - {"super_match"}


@pytest.mark.reg("633a.7(o)(3)(i)")
def test_straight_jack_under_basic_strategy_adds_up_and_starts_from_every_two_card_straight():
    pr = par.straight_jack_probabilities()
    assert sum(pr.values()) == 1
    # 13 adjacent rank pairs (A-2 .. K-A), either order, from six decks of 24 per rank
    straights = Fraction(13 * 2 * 24 * 24, 312 * 311)
    assert sum(p for hands, p in pr.items() if hands) == straights
    # a longer straight needs the chart to hit: rare, and rarer with each card
    lengths = ["two", "three", "four", "five", "six"]
    ps = [pr[("%s_card_straight" % n,)] for n in lengths]
    assert all(a > b > 0 for a, b in zip(ps, ps[1:]))
    sheet = [x for x in par.side_sheets() if x.wager == "straight_jack_progressive"][0]
    assert sheet.to_json()["meter_share"] > 0


@pytest.mark.reg("633a.7(o)(1)(i)")
def test_bad_beat_under_basic_strategy():
    pr = par.bad_beat_probabilities()
    assert sum(pr.values()) == 1
    vs_bj = float(pr[("twenty_vs_blackjack",)])
    # the initial 20 (two ten-values, or A-9) against an ace or ten up with a Blackjack under
    # it, counted here: six decks, 24 cards per rank, 96 ten-values
    n = 312
    p = 0.0
    for up, hole in ((1, 10), (10, 1)):
        for a, b, ways in ((10, 10, 96 * 95), (1, 9, 2 * 24 * 24)):
            left = {1: 24, 9: 24, 10: 96}
            w = (24 if up == 1 else 96) / n
            left[up] -= 1
            first = left[a] / (n - 1)
            left[a] -= 1
            second = left[b] / (n - 2) * (1 if a == b else 2)
            left[b] -= 1
            p += w * first * second * left[hole] / (n - 3)
    assert vs_bj == pytest.approx(p, rel=1e-9)
    assert 0.005 < float(pr[("twenty_vs_21",)]) < 0.02
    with_twenty = par.bad_beat_probabilities(any_twenty=True)
    assert ("twenty",) in with_twenty and sum(with_twenty.values()) == 1
