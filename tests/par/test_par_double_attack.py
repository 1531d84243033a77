"""Exact par of Double Attack Blackjack's Bust It and Insurance (581.12).

The sheet counts by classes of identical cards through the rules core; these
tests check it two ways: against brute force over every ordered triple of
small decks with the same counting code, and against an independent count by
rank written here from 581.3(d), 581.7(m) and 581.12(c) alone.
"""
from fractions import Fraction
from itertools import permutations, product

import pytest

from controller.lab.par import double_attack as da
from controller.lab.par.sheet import LOSES, StrategyDependent, WagerPar
from controller.rules import blackjack, cards

SPANISH_RANKS = [r for r in range(13) if r != cards.TEN]
BUST_IT_ODDS = {"eight_eight_eight_suited": 200, "eight_eight_eight_same_color": 50,
                "third_card_6": 15, "third_card_7": 10, "third_card_8": 8,
                "third_card_9": 6, "third_card_face": 3, LOSES: -1}


# ---- an independent count, by rank ---------------------------------------------------

def _value(r):
    return 11 if r == cards.ACE else 10 if r >= cards.TEN else r + 2


def _points(ranks):
    hard = sum(1 if r == cards.ACE else _value(r) for r in ranks)
    return hard + 10 if cards.ACE in ranks and hard + 10 <= 21 else hard


def independent_bust_it(decks, ranks=SPANISH_RANKS):
    """Ordered (up, hole, third) counts for `decks` decks holding `ranks` in four suits."""
    per_rank = 4 * decks
    out = dict((h, 0) for h in BUST_IT_ODDS)
    for r1, r2, r3 in product(ranks, repeat=3):
        ways = per_rank * (per_rank - (r2 == r1)) * (per_rank - (r3 == r1) - (r3 == r2))
        if ways <= 0:
            continue
        if _points([r1, r2]) >= 17 or _points([r1, r2, r3]) <= 21:
            out[LOSES] += ways
        elif r3 >= cards.JACK:
            out["third_card_face"] += ways
        else:
            out["third_card_%d" % _value(r3)] += ways
    if 6 in ranks:      # split three 8s by suit: `decks` copies of each 8 per suit
        e = decks
        suited = 4 * e * (e - 1) * (e - 2)
        one_colour = 2 * (2 * e) * (2 * e - 1) * (2 * e - 2) - suited
        out["eight_eight_eight_suited"] = suited
        out["eight_eight_eight_same_color"] = one_colour
        out["third_card_8"] -= suited + one_colour
    return out


def brute_force_bust_it(deck):
    """Every ordered triple of positions in `deck`, one by one."""
    memo = {}
    out = {}
    for i, j, k in permutations(range(len(deck)), 3):
        key = (deck[i], deck[j], deck[k])
        if key not in memo:
            two = [deck[i], deck[j]]
            hand = blackjack.bust_it(two) if blackjack.total(two) >= 17 else blackjack.bust_it(list(key))
            memo[key] = hand or LOSES
        h = memo[key]
        out[h] = out.get(h, 0) + 1
    return out


def _nonzero(d):
    return dict((h, n) for h, n in d.items() if n)


def _small_batch(decks, ranks):
    return [cards.make(r, s) for _ in range(decks) for r in ranks for s in range(4)]


# ---- Bust It --------------------------------------------------------------------------

@pytest.mark.reg("581.12(c)")
def test_bust_it_exact_counts_over_the_384_card_batch():
    counts, combos = da.bust_it_counts()
    assert combos == 384 * 383 * 382 == 56181504
    assert counts == {
        "eight_eight_eight_suited": 1344,          # 4 suits x 8*7*6
        "eight_eight_eight_same_color": 5376,      # 2 colours x 16*15*14, less the suited
        "third_card_6": 287744,
        "third_card_7": 617472,
        "third_card_8": 968192,
        "third_card_9": 1366016,
        "third_card_face": 5366784,
        LOSES: 47568576,
    }
    assert sum(counts.values()) == combos


@pytest.mark.reg("581.7(m)(2)(i)")
@pytest.mark.parametrize("decks", [1, 2, 3, 8])
def test_bust_it_counts_agree_with_an_independent_count_by_rank(decks):
    counts, combos = da.bust_it_counts(cards.batch(cards.spanish_deck(), decks))
    n = 48 * decks
    assert combos == n * (n - 1) * (n - 2)
    assert _nonzero(counts) == _nonzero(independent_bust_it(decks))


@pytest.mark.reg("581.7(m)(2)(i)")
@pytest.mark.parametrize("deck", [
    cards.spanish_deck(),                                         # 48 cards, 103,776 triples
    _small_batch(3, [1, 4, 6, cards.KING, cards.ACE]),            # 60 cards: 8-8-8 of a suit occurs
    _small_batch(2, [0, 5, 6, 7, cards.QUEEN]),                   # 40 cards: 8-8-8 of a colour only
])
def test_bust_it_counts_agree_with_brute_force_on_small_decks(deck):
    counts, combos = da.bust_it_counts(deck)
    brute = brute_force_bust_it(deck)
    assert sum(brute.values()) == combos
    assert _nonzero(counts) == brute


@pytest.mark.reg("581.7(m)(2)(i)")
def test_small_deck_brute_force_reaches_every_eight_eight_eight_case():
    brute = brute_force_bust_it(_small_batch(3, [1, 4, 6, cards.KING, cards.ACE]))
    assert brute["eight_eight_eight_suited"] == 4 * 3 * 2 * 1
    assert brute["eight_eight_eight_same_color"] == 2 * 6 * 5 * 4 - 24
    assert brute["third_card_8"] > 0 and brute["third_card_6"] > 0


@pytest.mark.reg("581.12(c)")
def test_bust_it_house_edge_is_exact():
    sheet = da.bust_it_sheet()
    counts = independent_bust_it(8)
    combos = 384 * 383 * 382
    expected = -Fraction(sum(BUST_IT_ODDS[h] * n for h, n in counts.items()), combos)
    assert sheet.house_edge() == expected == Fraction(70283, 877836)
    assert abs(float(expected) - 0.0800639) < 1e-7
    assert [o.count for o in sheet.outcomes] == [
        1344, 5376, 287744, 617472, 968192, 1366016, 5366784, 47568576]


@pytest.mark.reg("581.12(c)")
def test_bust_it_sheet_of_one_deck_counts_the_eight_eight_eights_it_cannot_hold_as_zero():
    sheet = da.bust_it_sheet(cards.spanish_deck())
    counts = dict((o.hand, o.count) for o in sheet.outcomes)
    assert sheet.combinations == 48 * 47 * 46
    assert counts["eight_eight_eight_suited"] == counts["eight_eight_eight_same_color"] == 0
    assert counts == independent_bust_it(1)


# ---- Insurance ------------------------------------------------------------------------

@pytest.mark.reg("581.8(a)")
def test_insurance_wins_on_96_of_383_hole_cards_under_an_ace():
    assert da.insurance_counts() == (3 * 32, 383)


@pytest.mark.reg("581.12(b)")
def test_insurance_house_edge_is_exact():
    sheet = da.insurance_sheet()
    assert sheet.combinations == 383
    # 96 wins at 5 to 2, 287 losses
    assert sheet.house_edge() == -(Fraction(96 * 5, 2) - 287) / 383 == Fraction(47, 383)


@pytest.mark.reg("581.8(a)")
@pytest.mark.parametrize("decks", [1, 2, 8])
def test_insurance_counts_follow_the_deck(decks):
    # 12 faces per deck are all left under the ace; the ace up is gone from the hole cards
    assert da.insurance_counts(cards.batch(cards.spanish_deck(), decks)) == (12 * decks, 48 * decks - 1)


# ---- the sheet ---------------------------------------------------------------------------

@pytest.mark.reg("581.12")
def test_sheets_price_the_base_game_insurance_and_bust_it():
    sheets = da.sheets()
    assert [s.wager for s in sheets] == ["base_game", "insurance", "bust_it"]
    assert not any(isinstance(s, StrategyDependent) for s in sheets)
    assert isinstance(sheets[1], WagerPar) and isinstance(sheets[2], WagerPar)
    for s in sheets:
        j = s.to_json()
        assert j["wager"] == s.wager and j["section"].startswith("581.12")
    base = sheets[0].to_json()
    assert base["strategy"] == "basic" and base["wagers"] == ["bet", "double_attack", "double_down"]
    assert 0.004 < base["house_edge"] < 0.006 and "every card he" in base["method"]
    assert base["double_attack_on"] == ["2", "3", "4", "5", "6", "7", "8"]
    assert sheets[2].to_json()["house_edge_exact"] == "70283/877836"
