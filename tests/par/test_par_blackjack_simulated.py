"""The blackjack games' round simulated in table order (issue 36,
controller/lab/par/blackjack_simulated.py): the standard deviation and hit frequency the lab
report prints for the base game, and an independent check of the exact figure."""
import os

import pytest

from controller.lab.par import blackjack_exact as X
from controller.lab.par import blackjack_play as bp
from controller.lab.par import blackjack_simulated as B
from controller.lab.par import blackjack_strategy as s

SHORT = 100000


def _rules(game, **alt):
    return s.blackjack_rules(**alt) if game == "blackjack" else s.double_attack_rules(**alt)


@pytest.mark.reg("581.9(b)", "581.12(a)", "633a.7(p)")
@pytest.mark.parametrize("ends, final, want, alt", [
    ([(1, 18, False)], 17, 1.0, {}),
    ([(1, 17, False)], 17, 0.0, {}),
    ([(2, 12, False)], 20, -2.0, {}),
    ([(1, s.BUST, False)], s.BUST, -1.0, {}),
    ([(1, s.BUST, False)], s.BUST, 0.0, {"bust_pushes_on_dealer_bust": True}),
    ([(2, bp.SURRENDER, False)], 20, -1.0, {}),          # half of Bet and Double Down
    ([(1, bp.SURRENDER, False), (1, 21, True)], 20, 0.5, {}),
    ([(1, 21, True)], 20, 1.5, {"split_blackjack": True}),
])
def test_a_round_is_settled_as_the_sheet_settles_it(ends, final, want, alt):
    rules = _rules("blackjack" if "split_blackjack" in alt else "double-attack-blackjack",
                   **alt)
    assert B._settle(rules, ends, final) == want


@pytest.mark.parametrize("game", ["double-attack-blackjack", "blackjack"])
def test_the_recorded_figures_agree_with_a_short_run_and_with_the_exact_hold(game):
    """The recorded run's standard deviation and hit frequency lie inside the 95% intervals
    of a short run of the same seed (its rounds are the recorded run's first), and the
    exact hold (blackjack_exact) inside the recorded rounds' own interval: the simulation,
    dealt card by card in table order, checks the hand-by-hand pricing."""
    rules = _rules(game)
    chart, printed = s.solve(rules)
    got = B.RECORDED[s.rules_key(rules)]
    assert got["rounds"] == B.RECORDED_ROUNDS and got["seed"] == B.SEED
    short = B.figures(rules, chart, printed.double_attack, SHORT)
    assert short["sd_ci95"][0] <= got["sd"] <= short["sd_ci95"][1]
    assert short["hit_ci95"][0] <= got["hit"] <= short["hit_ci95"][1]
    exact = X.solved(rules).expected_net
    assert got["mean_ci95"][0] <= exact <= got["mean_ci95"][1]


@pytest.mark.skipif(not os.environ.get("TABLECTL_SLOW"),
                    reason="four million rounds a game, about 40 s: TABLECTL_SLOW=1")
@pytest.mark.slow
@pytest.mark.parametrize("game", ["double-attack-blackjack", "blackjack"])
def test_the_recorded_run_is_what_the_seed_gives(game):
    rules = _rules(game)
    chart, printed = s.solve(rules)
    got = B.figures(rules, chart, printed.double_attack, B.RECORDED_ROUNDS)
    assert got == pytest.approx(B.RECORDED[s.rules_key(rules)], rel=1e-12)


def test_the_sheet_prints_the_spread_with_how_it_was_reached():
    from controller.lab.par import double_attack as da
    from controller.lab.par import report
    sheet = da.base_game()
    j = report.wager_json(sheet)
    rec = B.RECORDED[s.rules_key(sheet.rules)]
    assert j["standard_deviation"] == round(rec["sd"], 7)
    assert j["hit_frequency"] == round(rec["hit"], 7)
    assert "simulated: 4,000,000 rounds" in j["spread_method"]
