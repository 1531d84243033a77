"""The strategy games' base wagers under optimal play (669a, 583), checked against
brute force: every deal of a reduced deck, and sample hands of the real one, played
card by card through the rules core's own settlement."""
from fractions import Fraction
from itertools import combinations

import pytest

from controller.lab.par import flop_poker_optimal as FO
from controller.lab.par import raise_it_up_optimal as RO
from controller.rules import cards as C
from controller.rules import flop_poker as F
from controller.rules import raise_it_up as R


def _deck(ranks, suits):
    return [C.make(r, s) for r in ranks for s in range(suits)]


# ---- Raise It Up Stud --------------------------------------------------------------

class _RiuBrute:
    """Optimal play over real card sets, each six-card end settled by the rules core
    (Ante 2, Blind 2, Play 2 x multiple; a fold loses Ante and Blind, 669a.11(f))."""

    def __init__(self, deck):
        self.deck = deck
        self.six = {}
        self.five = {}
        self.four = {}

    def settle(self, cards):
        key = frozenset(cards)
        got = self.six.get(key)
        if got is None:
            cards = list(cards)
            r = R.settle_ante_blind_play(cards[:3], cards[3:], 2, 2, 2)
            got = (r["ante"][1] + r["blind"][1], r["play"][1])
            self.six[key] = got
        return got

    def rest(self, seen):
        return [c for c in self.deck if c not in seen]

    def mean_play(self, seen, multiple):
        """Expected net (Fraction, half-Ante units) of a Play of `multiple` made now."""
        need = 6 - len(seen)
        rest = self.rest(seen)
        total = Fraction(0)
        n = 0
        for more in combinations(rest, need):
            b, p = self.settle(seen + list(more))
            total += b + multiple * p
            n += 1
        return total / n

    def at5(self, seen):
        key = frozenset(seen)
        if key not in self.five:
            self.five[key] = max(self.mean_play(seen, 1), Fraction(-4))          # 669a.11(f)
        return self.five[key]

    def at4(self, seen):
        key = frozenset(seen)
        if key not in self.four:
            rest = self.rest(seen)
            check = sum((self.at5(seen + [c]) for c in rest), Fraction(0)) / len(rest)
            self.four[key] = max(self.mean_play(seen, 2), check)                  # 669a.11(d)
        return self.four[key]

    def at3(self, three):
        rest = self.rest(three)
        check = sum((self.at4(list(three) + [c]) for c in rest), Fraction(0)) / len(rest)
        return max(self.mean_play(list(three), 3), check)                         # 669a.11(b)


@pytest.mark.reg("669a.11(b)", "669a.11(d)", "669a.11(f)", "669a.11(i)", "669a.12(b)",
                 "669a.12(c)", "669a.12(d)")
def test_raise_it_up_reduced_deck_matches_brute_force():
    # 2, 3, 4, 5, 10 and ace in three suits: the wheel, a qualifying and a losing
    # pair, flushes and a straight flush all occur.
    ranks, suits = (0, 1, 2, 3, 8, 12), 3
    solver = RO.Solver(ranks, suits)
    total, deals, outcomes = solver.solve()
    brute = _RiuBrute(_deck(ranks, suits))
    threes = list(combinations(brute.deck, 3))
    expected = sum((brute.at3(list(t)) for t in threes), Fraction(0)) / len(threes)
    assert Fraction(total, deals) == expected
    assert sum(outcomes.values()) == deals
    # The outcomes account for the whole value: each row's net times its deals.
    from_rows = 0
    for (multiple, hand), n in outcomes.items():
        if multiple == RO.FOLD:
            from_rows += -4 * n
        else:
            b, p = _riu_nets(hand)
            from_rows += (b + multiple * p) * n
    assert from_rows == total


def _riu_nets(hand):
    """Half-Ante nets of Ante+Blind and of one Play unit for a final hand, by the tables."""
    from controller.rules import paytables as pt
    if hand == RO.LOSES:
        return -4, -2
    blind = pt.get(pt.RIU, "blind").pay(hand)
    play = pt.get(pt.RIU, "play").pay(hand)
    b = 2 + (0 if blind.kind == pt.PUSH else 2 * blind.num // blind.den)
    return b, 2 * play.num // play.den


@pytest.mark.reg("669a.11(b)", "669a.11(d)", "669a.11(f)", "669a.12(c)", "669a.12(d)")
@pytest.mark.parametrize("codes, first", [
    ("Qs Qh 4d", 3),          # a qualifying pair: Play 3x at once
    ("9s 8s 7s", 3),          # three suited connectors: raise at once
    ("7c 4h 2d", "check"),    # nothing: wait for the community cards
])
def test_raise_it_up_sample_hands_match_brute_force_on_the_real_deck(codes, first):
    three = C.parse_all(codes)
    solver = RO.Solver()
    value, decision = solver.hand_value(three)
    assert decision == first
    brute = _RiuBrute(C.standard_deck())
    assert value == brute.at3(three) / 2


@pytest.mark.reg("669a.11(b)", "669a.11(d)", "669a.11(f)", "669a.12(b)", "669a.12(c)",
                 "669a.12(d)")
def test_raise_it_up_full_deck_hold():
    rows, deals, _ = RO.full_rows()
    assert deals == 22100 * 49 * 48 * 47
    edge = -sum(r[3] * r[2] for r in rows) / deals
    assert edge == Fraction(7129937, 203585200)                 # 3.5022% of the Ante
    assert sum(r[2] for r in rows) == deals
    # A player who folds has seen five cards and lost Ante and Blind (669a.11(f)).
    assert [r[3] for r in rows if r[0] == RO.DECISION_NAMES[RO.FOLD]] == [-2]


# ---- Flop Poker ----------------------------------------------------------------------

def _flop_brute(deck):
    """Expected net per Ante over every deal, each player's hand folding or making the
    Flop Wager as its exact expectation says, settled by the rules core."""
    total = Fraction(0)
    threes = list(combinations(deck, 3))
    for three in threes:
        rest = [c for c in deck if c not in three]
        play = 0
        n = 0
        for comm in combinations(rest, 3):
            r = F.settle_ante_and_flop(list(three), list(comm), 1, 1)
            play += r["ante"][1] + r["flop"][1]
            n += 1
        total += max(Fraction(play, n), Fraction(-1))                          # 583.11(b)
    return total / len(threes)


@pytest.mark.reg("583.11(b)", "583.11(d)", "583.12(a)", "583.12(b)")
def test_flop_poker_reduced_deck_matches_brute_force():
    # Ace to five in three suits: the wheel and its straight flush, flushes, a pair of aces
    # that qualifies and pairs below jacks that do not.
    ranks, suits = (0, 1, 2, 3, 12), 3
    total, deals, outcomes, decisions = FO.Solver(ranks, suits).solve()
    assert Fraction(total, deals) == _flop_brute(_deck(ranks, suits))
    assert sum(outcomes.values()) == deals


@pytest.mark.reg("583.11(b)", "583.11(d)", "583.12(a)", "583.12(b)")
@pytest.mark.parametrize("codes", ["As Ks Qs", "Jh Jd 4c", "9d 5c 2h", "7h 5h 2h"])
def test_flop_poker_sample_hands_match_brute_force_on_the_real_deck(codes):
    three = C.parse_all(codes)
    solver = FO.Solver()
    ranks = tuple(sorted(C.rank(c) for c in three))
    suited = len(set(C.suit(c) for c in three)) == 1 and len(set(ranks)) == 3
    counts = solver.community_counts(ranks, suited)
    rest = [c for c in C.standard_deck() if c not in three]
    play = 0
    for comm in combinations(rest, 3):
        r = F.settle_ante_and_flop(three, list(comm), 1, 1)
        play += r["ante"][1] + r["flop"][1]
    assert sum(FO._net(h) * k for h, k in counts.items()) == play


@pytest.mark.reg("583.11(b)", "583.12(a)", "583.12(b)")
def test_flop_poker_full_deck_hold():
    rows, deals, decisions = FO.full_rows()
    assert deals == 22100 * 18424
    folded = sum(n for _, _, n, d, _ in decisions if d == FO.FOLD)
    assert [r[2] for r in rows if r[0] == FO.FOLD] == [folded * 18424]
    edge = -sum(r[3] * r[2] for r in rows) / deals
    assert edge == Fraction(3300677, 50896300)                  # 6.4851% of the Ante
    assert sum(r[2] for r in rows) == deals


# ---- Six-Card Fortune under the house way ----------------------------------------------

@pytest.mark.reg("670a.11(f)", "670a.6(c)")
def test_six_card_fortune_fast_result_is_the_rules_cores_wager_result():
    import random
    from controller.lab.par import six_card_fortune_house_way as HW
    from controller.rules import paigow as G
    rng = random.Random(5)
    deck = C.joker_deck()
    code = {"win": 1, "push": 0, "lose": -1}
    seen = set()
    for _ in range(3000):
        cards = rng.sample(deck, 12)
        # the player's setting as the par takes it (the joker low where it and an ace are
        # alike); the dealer's by the rules core's house way (the ace low, alike for him)
        p_high, p_low = HW.joker_low(*G.house_way(cards[:6]))
        d_high, d_low = G.house_way(cards[6:])
        want = code[G.wager_result(p_high, p_low, d_high, d_low)]
        assert HW.result(HW.set_hand(cards[:6]), HW.set_hand(cards[6:])) == want
        seen.add(want)
    assert seen == {1, 0, -1}


@pytest.mark.reg("670a.11(d)", "670a.11(f)", "670a.12(a)")
def test_six_card_fortune_simulation_is_reproducible_and_counts_every_round():
    from controller.lab.par import six_card_fortune_house_way as HW
    a = HW.simulate(shuffles=40, seed=11)
    b = HW.simulate(shuffles=40, seed=11)
    assert a == b
    assert a["rounds"] == 40 * 56 == a["wins"] + a["pushes"] + a["losses"]
    assert a["house_edge"] == pytest.approx((a["losses"] - a["wins"]) / a["rounds"])
    lo, hi = a["ci95"]
    assert lo < a["house_edge"] < hi
    with pytest.raises(ValueError):
        HW.simulate(shuffles=1)


@pytest.mark.reg("669a.12(b)", "583.12(a)", "670a.12(a)")
def test_par_json_carries_each_base_game_beside_the_other_entries():
    from controller.lab.par import registry
    for game, strategy, exact in (("raise-it-up-stud", "optimal", True),
                                  ("flop-poker", "optimal", True),
                                  ("six-card-fortune-pai-gow", "house_way", False)):
        entries = [s.to_json() for s in registry.sheets(game)]
        base = [e for e in entries if e["wager"] == "base_game"]
        assert len(base) == 1 and len(entries) > 1
        e = base[0]
        assert e["strategy"] == strategy and e["method"]
        assert 0 < e["house_edge"] < 0.1
        if exact:
            num, den = map(int, e["house_edge_exact"].split("/"))
            assert round(num / den, 7) == e["house_edge"]
            assert sum(o["count"] for o in e["outcomes"]) == e["combinations"]
        else:
            assert e["ci95"][0] < e["house_edge"] < e["ci95"][1]
            assert e["seed"] == 670 and e["rounds"] == e["shuffles"] * 56


# ---- tablectl strategy ----------------------------------------------------------------

@pytest.mark.reg("583.11(b)")
def test_flop_poker_written_rule_is_the_exact_optimum_for_every_hand():
    from controller.lab.par import flop_poker_strategy as FS
    _, _, decisions = FO.full_rows()
    assert sum(n for _, _, n, _, _ in decisions) == 22100
    for ranks, suited, n, decision, ev in decisions:
        assert FS.folds(ranks, suited) == (decision == FO.FOLD), (ranks, suited, ev)


@pytest.mark.reg("669a.11(b)", "669a.11(d)", "669a.11(f)")
def test_raise_it_up_printout_covers_every_state_with_the_solvers_decision():
    from controller.lab.par import raise_it_up_strategy as RS
    _, _, solver = RO.full_rows()
    for level in (4, 5):
        covered = 0
        for f, by_decision in RS.street_table(solver, level):
            for d, keys in by_decision.items():
                for k in keys:
                    assert RS.features(k) == f and solver.best(level, k)[1] == d
                covered += len(keys)
        assert covered == len(solver._best[level])
    first = RS.first_street(solver)
    assert "offsuit" in first["AKQ"] and "QQ4" in first          # pairs Play 3x
    assert "732" not in first
    text = RS.text()
    assert "Before 6th Street" in text and "FOLD" in text and "PLAY 3x" in text


def test_strategy_verb_prints_and_rejects_an_unknown_game():
    import subprocess
    import sys
    ok = subprocess.run([sys.executable, "-m", "controller.cli", "strategy", "flop-poker"],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "Make the Flop Wager" in ok.stdout and "T95" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "controller.cli", "strategy", "baccarat"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "baccarat" in bad.stderr
    assert "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
