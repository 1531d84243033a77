"""The optimal total-dependent strategy beside the printed chart (issue 36,
controller/lab/par/blackjack_optimal.py): its walk prices the chart as the sheet does, each
cell's gain is what changing that cell alone does to the figure, and the recorded optimum
replays: each change gained what is recorded and no cell of the result gains any more."""
import os

import pytest

from controller.lab.par import blackjack_exact as X
from controller.lab.par import blackjack_optimal as O
from controller.lab.par import blackjack_strategy as s

ACE = s.ACE


def _rules(game):
    return s.blackjack_rules() if game == "blackjack" else s.double_attack_rules()


@pytest.mark.reg("581.10(a)", "581.11", "633a.7(m)")
@pytest.mark.parametrize("game, up", [("double-attack-blackjack", 4),
                                      ("double-attack-blackjack", ACE),
                                      ("blackjack", 10)])
def test_the_walk_prices_the_chart_as_the_sheet_does(game, up):
    """UpCard's walk (its own hand walk, split hands included) gives each up card's play
    the value blackjack_exact.ExactEdge gives it, to 1e-12."""
    rules = _rules(game)
    chart, printed = s.solve(rules)
    ex = X.solved(rules)
    _, _, play = ex.parts[up]
    shoe = rules.shoe()
    after_up = s._without(shoe, up)
    wins = sum(pp * (1 - p_dbj) * float(rules.blackjack_pays)
               for _, _, pp, _, bj, p_dbj in s.initial_deals(rules, after_up, up) if bj)
    got = O.UpCard(rules, chart[up], up, X.DealerPricer(up, rules)).value()
    assert got + wins == pytest.approx(play, abs=1e-12)


# cells of each kind: a hard and a soft total, a pair split and not, a split ace, a total
# after doubling, a cell of split hands only
GAIN_CASES = [("double-attack-blackjack", 4, ("pair", 6), s.SPLIT),
              ("double-attack-blackjack", 4, ("pair", 8), O.NO_SPLIT),
              ("double-attack-blackjack", 4, ("soft", 17, False, False, False), s.DOUBLE),
              ("double-attack-blackjack", 10, ("split_ace", 16), s.STAND),
              ("double-attack-blackjack", 6, ("after_double", 12), s.SURRENDER),
              ("blackjack", 5, ("soft", 13, True, False, False), s.DOUBLE),
              ("blackjack", 10, ("hard", 16, False, False, False), s.STAND)]


@pytest.mark.reg("581.9(a)", "581.10(a)", "581.11", "633a.7(k)")
@pytest.mark.parametrize("game, up, key, alt", GAIN_CASES)
def test_each_cells_gain_is_what_changing_it_alone_does(game, up, key, alt):
    rules = _rules(game)
    chart, _ = s.solve(rules)
    pricer = X.DealerPricer(up, rules)
    assert chart[up].get(key, O.NO_SPLIT) != alt
    gain = O.UpCard(rules, chart[up], up, pricer).gains()[(key, alt)]
    changed = dict(chart[up])
    changed[key] = alt
    want = O.UpCard(rules, changed, up, pricer).value() - \
        O.UpCard(rules, chart[up], up, pricer).value()
    assert gain == pytest.approx(want, abs=1e-14)


@pytest.mark.reg("581.10(a)", "581.11", "633a.7(m)")
@pytest.mark.parametrize("game", ["double-attack-blackjack", "blackjack"])
def test_the_recorded_optimum_replays_and_no_cell_of_it_gains(game):
    """Each recorded change, made in order on its up card, gains what is recorded; after
    the last, no cell of that up card gains (the fixed point optimise() stops at)."""
    rules = _rules(game)
    chart, _ = s.solve(rules)
    changes = O.recorded(rules)
    assert changes
    for up in sorted({c[0] for c in changes}):
        pricer = X.DealerPricer(up, rules)
        here = dict(chart[up])
        for u, key, own, alt, gain in changes:
            if u != up:
                continue
            assert here.get(key, O.NO_SPLIT) == own
            gains = O.UpCard(rules, here, up, pricer).gains()
            assert gains[(key, alt)] == pytest.approx(gain, rel=1e-6)
            assert gains[(key, alt)] == max(gains.values())
            here[key] = alt
        left = O.UpCard(rules, here, up, pricer).gains()
        assert max(left.values()) <= O.GAIN_FLOOR


@pytest.mark.skipif(not os.environ.get("TABLECTL_SLOW"),
                    reason="every up card of both games, about a minute: TABLECTL_SLOW=1")
@pytest.mark.slow
@pytest.mark.parametrize("game", ["double-attack-blackjack", "blackjack"])
def test_optimise_finds_the_recorded_optimum(game):
    rules = _rules(game)
    chart, _ = s.solve(rules)
    _, changes = O.optimise(rules, chart)
    got = [(u,) + c for u in s.VALUES for c in changes[u]]
    recorded = O.recorded(rules)
    assert [c[:4] for c in got] == [c[:4] for c in recorded]
    assert [c[4] for c in got] == pytest.approx([c[4] for c in recorded], rel=1e-6)


def test_the_strategy_command_names_the_cells_and_the_optimum():
    text = O.strategy_text("double-attack-blackjack")
    assert "optimal total-dependent strategy" in text
    assert "a pair of 6s against 4: play as it is -> split" in text
    assert "hard 11 (any number of cards) against 10: hit -> double" in text
