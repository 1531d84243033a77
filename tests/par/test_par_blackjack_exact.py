"""The optional wagers that read drawn cards, priced exactly over the shoe, checked against a
brute-force deal-out on reduced shoes.

The deal-out is the table's procedure card by card, in its order: the player's first card,
the up card, his second card, the hole card (633a.7(f)); the reader's peek (h); the seat's
hands one after the other, a split hand getting its second card when its turn comes and a
resplit hand inserted after it (633a.11 as configured); then the dealer to 17 (m). Every
branch carries its exact chance (Fractions), the rules core decides totals, Blackjacks,
splits and the wagers' outcomes. Nothing of the pricing's counting tricks (the hole card
priced last, multisets, inclusion-exclusion) is used here, so equal Fractions check them.
"""
from fractions import Fraction

import pytest

from controller.lab.par import blackjack_bad_beat as bad_beat
from controller.lab.par import blackjack as par
from controller.lab.par import blackjack_strategy as s
from controller.rules import blackjack as bj
from controller.rules import blackjack_side_wagers as W
from controller.rules import cards

RULES = s.blackjack_rules()
CHART, _ = s.solve(RULES)        # the six-deck chart, played on the reduced shoes below


def _card(v):
    """A real card of value v (1 the ace, 10 a king) for the rules core."""
    return cards.make(cards.ACE if v == 1 else cards.KING if v == 10 else v - 2, 0)


def _value(card):
    v = bj.card_value(card)
    return 1 if v == 11 else min(v, 10)


def _draws(counts):
    n = sum(counts)
    assert n, "the reduced shoe ran out: choose another"
    for v in s.VALUES:
        if counts[v]:
            rest = list(counts)
            rest[v] -= 1
            yield v, Fraction(counts[v], n), rest


def _chart_action(rules, up, hand, two_cards, split):
    h = s.Hand(rules, [0.0] * 11, dict.fromkeys((17, 18, 19, 20, 21, 22), 0.0), chart=CHART[up])
    total, soft = bj.total(hand), bj.is_soft(hand)
    options = {s.STAND: 0, s.HIT: 0}
    if h.may_double(total, soft, two_cards, split):
        options[s.DOUBLE] = 0
    if h.may_surrender(two_cards, split):
        options[s.SURRENDER] = 0
    return h.chart_action(h.decision_key(total, soft, two_cards, split), options)


def _copy(hands):
    return [dict(h, cards=list(h["cards"])) for h in hands]


def _play(rules, up, hands, i, counts, p):
    """Yield (hands, counts, p) for every way the seat's hands i.. play out in table order.
    A hand: {"cards", "split", "aces", "surrendered"}."""
    if i == len(hands):
        yield hands, counts, p
        return
    hand = hands[i]
    if len(hand["cards"]) < 2:                      # a split hand's turn: its second card
        for v, q, rest in _draws(counts):
            hs = _copy(hands)
            h = hs[i]
            h["cards"].append(_card(v))
            if _value(h["cards"][0]) == v and not h["aces"] and \
                    bj.can_split(h["cards"], len(hs)) and len(hs) < rules.split_hands:
                second = h["cards"].pop()          # resplit: a new hand after this one
                hs.insert(i + 1, {"cards": [second], "split": True, "aces": False,
                                  "surrendered": False})
            yield from _play(rules, up, hs, i, rest, p * q)
        return
    if hand["aces"] or bj.total(hand["cards"]) >= 21:
        yield from _play(rules, up, hands, i + 1, counts, p)
        return
    two = len(hand["cards"]) == 2
    if two and not hand["split"] and bj.can_split(hand["cards"], 1) and \
            CHART[up].get(("pair", _value(hand["cards"][0]))) == s.SPLIT:
        aces = _value(hand["cards"][0]) == 1
        hs = [{"cards": [c], "split": True, "aces": aces, "surrendered": False}
              for c in hand["cards"]]
        yield from _play(rules, up, hs, 0, counts, p)
        return
    act = _chart_action(rules, up, hand["cards"], two, hand["split"])
    if act == s.STAND:
        yield from _play(rules, up, hands, i + 1, counts, p)
    elif act == s.SURRENDER:
        hs = _copy(hands)
        hs[i]["surrendered"] = True
        yield from _play(rules, up, hs, i + 1, counts, p)
    else:
        for v, q, rest in _draws(counts):
            hs = _copy(hands)
            hs[i]["cards"].append(_card(v))
            if act == s.DOUBLE:
                yield from _play(rules, up, hs, i + 1, rest, p * q)
            else:
                yield from _play(rules, up, hs, i, rest, p * q)


def _dealer(dealer, counts, p):
    if not bj.dealer_must_draw(dealer):
        yield dealer, p
        return
    for v, q, rest in _draws(counts):
        yield from _dealer(dealer + [_card(v)], rest, p * q)


def deal_out(rules, shoe, settle):
    """{outcome: probability}: settle(player's initial two, hands or None at the reader's
    Blackjack, dealer's cards) for every deal of `shoe` (11 counts by value)."""
    out = {}

    def add(key, p):
        out[key] = out.get(key, 0) + p
    for p1, q1, c1 in _draws(shoe):
        for up, q2, c2 in _draws(c1):
            for p2, q3, c3 in _draws(c2):
                for hole, q4, c4 in _draws(c3):
                    p = q1 * q2 * q3 * q4
                    two = [_card(p1), _card(p2)]
                    dealer = [_card(up), _card(hole)]
                    if up in rules.peek_ups and bj.is_blackjack(dealer):
                        add(settle(two, None, dealer), p)
                        continue
                    if bj.is_blackjack(two):
                        for final, pd in _dealer(dealer, c4, p):
                            add(settle(two, [], final), pd)
                        continue
                    start = [{"cards": two, "split": False, "aces": False,
                              "surrendered": False}]
                    for hands, counts, ph in _play(rules, up, start, 0, c4, p):
                        for final, pd in _dealer(dealer, counts, ph):
                            add(settle(two, hands, final), pd)
    return out


def _bad_beat(any_twenty):
    rows = W.HANDS[W.BAD_BEAT]

    def settle(two, hands, dealer):
        if hands is None:
            return W.bad_beat_progressive(two, dealer, any_twenty)
        best = None
        for h in hands:
            if h["surrendered"]:
                continue
            got = W.bad_beat_progressive(h["cards"], dealer, any_twenty)
            if got is not None and (best is None or rows.index(got) < rows.index(best)):
                best = got
        return best
    return settle


def _keyed(probabilities):
    return {(k[0] if k else None): v for k, v in probabilities.items() if v}


# A reduced shoe by value (index 1 the ace, 10 the ten-values), small enough for the deal-out
# and never run out: 2-2 split and resplit to three hands against 2..7, 8-8 resplit to four,
# split aces, 20s of two and of more cards, the dealer's 21 of three and more cards, the
# reader's Blackjack under an ace and a ten.
SHOE = [0, 2, 3, 0, 0, 0, 0, 0, 4, 1, 6]


@pytest.mark.reg("633a.7(o)(1)(i)")
def test_bad_beat_exactly_as_a_brute_force_deal_out_with_and_without_any_twenty():
    plain, any_twenty = _bad_beat(False), _bad_beat(True)
    both = deal_out(RULES, SHOE, lambda *deal: (plain(*deal), any_twenty(*deal)))
    for i, option in enumerate((False, True)):
        brute = {}
        for key, p in both.items():
            brute[key[i]] = brute.get(key[i], 0) + p
        exact = bad_beat.probabilities(RULES, CHART, SHOE, any_twenty=option,
                                       most_tracked=None)
        assert _keyed(exact) == {k: v for k, v in brute.items() if v}
        assert sum(exact.values()) == 1


@pytest.mark.reg("633a.7(o)(1)(i)")
def test_bad_beat_split_rounds_tracked_hand_by_hand_agree_with_inclusion_exclusion():
    """The third way: every card of every hand tracked (blackjack_play.ChartPlay.finals)."""
    from controller.lab.par import blackjack_play as bp
    shoe = SHOE
    for up in (2, 8):
        rest = list(shoe)
        rest[up] -= 1
        play = bp.ChartPlay(RULES, CHART[up])
        f20 = {m: n for (m, flag), n in play.finals(rest).items() if flag}
        pr = bad_beat._Pricer(rest)
        pr.add_pairs(f20, {bp.multiset_of([h]): 1 for h in s.VALUES}, 1)
        got = bad_beat.up_card_probabilities(RULES, CHART[up], up, rest)
        assert pr.total() == got["twenty_vs_21"] + got["twenty"]


@pytest.mark.reg("633a.7(o)(1)(i)")
def test_bad_beat_taken_to_pairs_of_hands_is_exact_where_a_seat_splits_to_two_hands():
    """Taken to pairs of hands the sum misses only the rounds where three or more split hands
    end on 20: none on a table that splits to two hands, where it is exact."""
    two = s.blackjack_rules({"split_hands": 2})
    full = bad_beat.probabilities(two, CHART, SHOE, most_tracked=None)
    assert bad_beat.probabilities(two, CHART, SHOE, most_tracked=2) == full
    four = bad_beat.probabilities(RULES, CHART, SHOE, most_tracked=None)
    assert four != full                      # resplits to four hands move the figure


@pytest.mark.reg("633a.7(o)(1)(i)")
@pytest.mark.parametrize("split_hands", [3, 4])
def test_bad_beat_exact_polynomial_equals_the_term_by_term_sum(split_hands):
    """blackjack_split_exact's one polynomial (Horner's rule, packed multisets, the dealer
    paired through marginals) against every inclusion-exclusion term summed one by one."""
    rules = s.blackjack_rules({"split_hands": split_hands})
    for option in (False, True):
        assert bad_beat.probabilities(rules, CHART, SHOE, any_twenty=option, most_tracked=None) \
            == bad_beat.probabilities(rules, CHART, SHOE, any_twenty=option, most_tracked=4)


def _split_rounds(rules):
    """(shoe less the up card, v, the chart's play, cap, (the dealer's 21s, the hole cards))
    for every up card and split pair the reduced shoe can deal."""
    from controller.lab.par import blackjack_play as bp
    for up in s.VALUES:
        if not SHOE[up]:
            continue
        rest = list(SHOE)
        rest[up] -= 1
        play = bp.ChartPlay(rules, CHART[up])
        cap = tuple(rest[v] for v in s.VALUES)
        excluded = bad_beat.hole_excluded(rules, up)
        d21 = {}
        for (m, t), n in bp.dealer_sequences(up, excluded, rules.hit_soft_17, cap).items():
            if t == 21:
                d21[m] = d21.get(m, 0) + n
        holes = {bp.multiset_of([h]): 1 for h in s.VALUES if h not in excluded}
        for v in s.VALUES:
            if play.splits(v) and rest[v] >= 2:
                yield rest, v, play, cap, (d21, holes)


@pytest.mark.reg("633a.7(o)(1)(i)")
@pytest.mark.parametrize("split_hands", [2, 3, 4])
def test_bad_beat_pairing_by_support_equals_the_pairing_by_covers(split_hands):
    """add_split_round_by_support (each dealer multiset against the hands' marginal on its own
    values) against add_split_round (against a cover of up to five values), numerator for
    numerator, for every up card and split pair of the reduced shoe, with the dealer's 21s
    and with the hole cards (the any-20 row), then the whole figure both ways."""
    from controller.lab.par import blackjack_split_exact as exact
    rules = s.blackjack_rules({"split_hands": split_hands})
    paired = 0
    for rest, v, play, cap, dealer_sets in _split_rounds(rules):
        y = exact.split_polynomial(play, v, rules.split_hands, cap)
        for ds in dealer_sets:
            old, new = {}, {}
            exact.add_split_round(old, rest, v, y, ds)
            exact.add_split_round_by_support(new, rest, v, y, ds)
            assert new == old
            paired += bool(old)
    assert paired >= 4                       # the reduced shoe's split rounds were priced
    for option in (False, True):
        assert bad_beat.probabilities(rules, CHART, SHOE, any_twenty=option) == \
            bad_beat.probabilities(rules, CHART, SHOE, any_twenty=option,
                                   pairing=exact.add_split_round)


@pytest.mark.reg("633a.7(o)(1)(i)")
def test_the_bad_beat_sheet_states_its_method_and_precision():
    (sheet,) = par.side_sheets({"offered": {"bad_beat_progressive": True}})
    j = sheet.to_json()
    assert "inclusion-exclusion" in j["method"] and "deplete" in j["method"]
    assert "every term (three and four hands included)" in j["method"]
    assert j["precision"].startswith("exact: every inclusion-exclusion term")
    p21 = Fraction(sheet.counts[("twenty_vs_21",)], sheet.combinations)
    # every term: 0.011467216633, the term-by-term sum's figure (469.9 s of CPU at stop 23,
    # docs/par-sheets.md); taken to pairs of hands it was 0.0114670870, and the former
    # approximation (a split pair's hands independent, no resplits) 0.0114464
    assert abs(p21 - Fraction("0.011467216633")) < Fraction(1, 10 ** 12)
    pairs = par.bad_beat_probabilities(most_tracked=2)[("twenty_vs_21",)]
    assert abs(pairs - Fraction("0.0114670870")) < Fraction(1, 10 ** 10)


def _straight_jack(two, hands, dealer):
    if hands is None or not hands:
        return W.straight_jack_progressive(two)
    first = hands[0]
    drawn = [] if first["split"] else first["cards"][2:]
    return W.straight_jack_progressive(two, drawn)


@pytest.mark.reg("633a.7(o)(3)(i)")
def test_straight_jack_exactly_as_a_brute_force_deal_out():
    # by rank: a straight of 7-8 (or 8-9, 9-T...) drawing on, tens of two ranks, an ace
    ranks = [0] * 13
    for r, n in ((5, 2), (6, 2), (7, 1), (8, 2), (11, 2), (cards.ACE, 2), (0, 1)):
        ranks[r] = n
    got = par.straight_jack_probabilities(rank_counts=ranks, chart=CHART)
    brute = _deal_out_by_rank(ranks, _straight_jack)
    assert _keyed(got) == {k: v for k, v in brute.items() if v}


def _deal_out_by_rank(ranks, settle):
    """deal_out with cards of real ranks (Straight Jack reads ranks), by rank counts."""
    out = {}

    def draws(counts):
        n = sum(counts)
        assert n, "the reduced shoe ran out"
        for r in range(13):
            if counts[r]:
                rest = list(counts)
                rest[r] -= 1
                yield cards.make(r, 0), Fraction(counts[r], n), rest

    def play(hand, counts, p):
        two = len(hand) == 2
        if bj.total(hand) >= 21:
            yield hand, p
            return
        act = _chart_action(RULES, up_value[0], hand, two, False)
        if act in (s.STAND, s.SURRENDER):
            yield hand, p
            return
        for c, q, rest in draws(counts):
            if act == s.DOUBLE:
                yield hand + [c], p * q
            else:
                yield from play(hand + [c], rest, p * q)
    up_value = [None]
    for a, q1, c1 in draws(ranks):
        for u, q2, c2 in draws(c1):
            for b, q3, c3 in draws(c2):
                for h, q4, c4 in draws(c3):
                    p = q1 * q2 * q3 * q4
                    two = [a, b]
                    up_value[0] = _value(u)
                    if up_value[0] in RULES.peek_ups and bj.is_blackjack([u, h]):
                        key = settle(two, None, None)
                    elif bj.can_split(two, 1) and \
                            CHART[up_value[0]].get(("pair", _value(a))) == s.SPLIT:
                        key = settle(two, [{"cards": [a], "split": True}], None)
                    else:
                        for hand, ph in play(two, c4, p):
                            k = settle(two, [{"cards": hand, "split": False}], None)
                            out[k] = out.get(k, 0) + ph
                        continue
                    out[key] = out.get(key, 0) + p
    return out


def _hit_and_run(two, hands, dealer):
    return W.hit_and_run_progressive(dealer)


@pytest.mark.reg("633a.7(o)(2)(i)")
def test_hit_and_run_exactly_as_a_deal_out_where_the_player_draws_first():
    """The dealer's hand priced from the whole shoe equals the deal-out in which the player
    draws (and splits) by the chart before him: his draws do not move it."""
    shoe = [0, 2, 2, 1, 0, 0, 1, 0, 1, 0, 4]        # the dealer reaches seven cards
    brute = deal_out(RULES, shoe, _hit_and_run)
    got = par.hit_and_run_counts(None, shoe)
    assert {k[0] if k else None: v for k, v in got.items() if v} == \
        {k: v for k, v in brute.items() if v}


@pytest.mark.reg("633a.7(o)(1)(i)")
@pytest.mark.parametrize("split_hands", [2, 3, 4])
@pytest.mark.parametrize("band_keys", [None, 4])
def test_bad_beat_vector_pairing_equals_the_dict_pairing(split_hands, band_keys, monkeypatch):
    """blackjack_split_vector (numpy arrays, the pricing modulo 31-bit primes put back by the
    Chinese remainder theorem) against blackjack_split_exact's dict pairing by support, for
    every up card and split pair of the reduced shoe, with the dealer's 21s and the hole cards,
    then the whole figure both ways. band_keys 4: the hands' lengths in up to six bands, each
    over its own longest pair's falling factorial and its own primes (on the default table
    only the largest polynomials are banded)."""
    from controller.lab.par import blackjack_play as bp
    from controller.lab.par import blackjack_split_exact as exact
    from controller.lab.par import blackjack_split_vector as vector
    if band_keys:
        monkeypatch.setattr(vector, "BAND_KEYS", band_keys)
    rules = s.blackjack_rules({"split_hands": split_hands})
    paired = 0
    for rest, v, play, cap, dealer_sets in _split_rounds(rules):
        y = exact.split_polynomial(play, v, rules.split_hands, cap)
        yv = vector.split_polynomial(play, v, rules.split_hands, cap)
        for ds in dealer_sets:
            old, new = {}, {}
            exact.add_split_round_by_support(old, rest, v, y, ds)
            vector.add_split_round(new, rest, v, yv, ds)
            total = [sum((Fraction(x, bp.falling(sum(rest), k)) for k, x in got.items()),
                         Fraction(0)) for got in (old, new)]
            assert total[0] == total[1]
            paired += bool(old)
    assert paired >= 4
    for option in (False, True):
        assert bad_beat.probabilities(rules, CHART, SHOE, any_twenty=option,
                                      pairing=vector.add_split_round) == \
            bad_beat.probabilities(rules, CHART, SHOE, any_twenty=option,
                                   pairing=exact.add_split_round_by_support)


def test_bands_cover_every_length_once():
    import numpy as np

    from controller.lab.par import blackjack_split_vector as vector
    lengths = np.array([5, 9, 9, 9, 12, 12, 30, 31, 31, 48] * 30_000)
    bands = vector._bands(lengths)
    assert len(bands) == 3                          # 300,000 multisets: three bands
    assert bands[0][0] == 5 and bands[-1][1] == 48
    assert all(a[1] + 1 == b[0] for a, b in zip(bands, bands[1:]))
    assert all(((lengths >= lo) & (lengths <= hi)).any() for lo, hi in bands)
    assert vector._bands(np.array([7] * 500_000)) == [(7, 7)]


def test_crt_names_the_integer_of_least_magnitude():
    from controller.lab.par import blackjack_split_vector as vector
    for x in (0, 1, -1, 10 ** 40 + 7, -(3 ** 70)):
        primes = vector.primes_over(abs(x))
        assert vector.crt([x % p for p in primes], primes) == x
