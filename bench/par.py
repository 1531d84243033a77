"""Par-sheet benchmark: exact counting against brute force on the fastest evaluator.

    python bench/par.py [--sample N]

Times every game's par sheets (what `tablectl par --all` computes), then the
brute-force alternative measured in the same run on phevaluator, a C extension
and the fastest evaluator available here, so the ratio is the honest one and not
a Python evaluator's handicap: phevaluator's time for N random hands, scaled to
the hands brute force visits (the 20,358,520 six-card hands of Six Card Bonus;
the 22,957,480 of Six-Card Fortune, costed as if each were a joker-free six-card
hand, which phevaluator cannot rank and which only flatters brute force; the
22,100 x 18,424 six-card ends of Raise It Up's optimal play, each settled once;
the 22,100 x 18,424 x 3 five-card hands of Flop Poker's). Brute force's
bookkeeping is not costed either: every estimate is a lower bound. All times are
CPU time (time.process_time), not wall time, so other load on the machine does
not enter. The last line is
    ratio vs brute force: six_card_bonus X, six-card-fortune Y, raise-it-up base_game Z,
    flop-poker base_game W
(estimated brute-force time divided by counting time; above 1 counting wins).

Blackjack's Bad Beat is timed first, alone: the sheet's figure, every inclusion-exclusion
term of the split rounds (blackjack_split_vector's numpy pairing, in this process: the pool
that `tablectl par` spreads it over is not opened here, so the time is its whole CPU), charged
to blackjack's line below (its sheets reuse the figure). After the games it is printed with
that time, beside the sheet's former method (the inclusion-exclusion taken to pairs of hands)
and the former approximation (bad_beat_first_two_cards: split hands independent, no
resplits); with --bad-beat-exact also every term two more ways, the numpy-free dict path
(blackjack_split_exact) paired with the dealer by each dealer multiset's own values
(add_split_round_by_support) and by covers of up to five values (add_split_round), measured
in the same run, and the line
    bad_beat exact: dict by support X s CPU, vector Y s CPU, ratio X/Y
(a minute or more each at four hands, so not by default); --bad-beat-term-by-term adds the
term-by-term sum the polynomial replaced (ten minutes). Every exact way must give the same
Fractions (the bench stops if not); --split-hands N prices a table that splits to N hands.
`tablectl par --all`'s wall time on the machine's CPUs is /usr/bin/time's to measure.
"""
import argparse
import os
import random
import sys
import time
from math import comb

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller.lab.par import counting, flop_poker_optimal, raise_it_up_optimal  # noqa: E402
from controller.lab.par import registry, six_card_fortune  # noqa: E402
from controller.rules import cards as C  # noqa: E402


def _cpu(fn):
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--bad-beat-exact", action="store_true",
                    help="also the full inclusion-exclusion of Bad Beat (minutes)")
    ap.add_argument("--bad-beat-term-by-term", action="store_true",
                    help="with --bad-beat-exact, also the term-by-term sum (ten minutes)")
    ap.add_argument("--split-hands", type=int, default=None)
    args = ap.parse_args(argv)
    if args.sample < 1:
        ap.error("--sample must be at least 1")
    from phevaluator import _pheval
    from phevaluator.card import Card as PhCard

    # The strategy games' exact solutions, timed once: their sheets below reuse them
    # (solved once per process) and are charged the solving time.
    solved = {"raise-it-up-stud": _cpu(raise_it_up_optimal.full_rows),
              "flop-poker": _cpu(flop_poker_optimal.full_rows)}
    from controller.lab.par import blackjack as bj_par
    options = {} if args.split_hands is None else {"split_hands": args.split_hands}
    from controller.games.blackjack.model import Blackjack
    any_twenty = dict(Blackjack.DEFAULTS["options"], **options)["bad_beat_any_twenty"]
    bad_beat_cpu = _cpu(lambda: bj_par.bad_beat_probabilities(options, any_twenty))
    solved["blackjack"] = bad_beat_cpu
    total = 0.0
    for game in registry.GAMES:
        dt = _cpu(lambda: registry.sheets(game)) + solved.get(game, 0.0)
        total += dt
        print("%-26s %7.3f s CPU" % (game, dt))
    print("%-26s %7.3f s CPU" % ("all games", total))

    rng = random.Random(args.seed)
    std = C.standard_deck()
    ids = [PhCard(C.code(c)).id_ for c in std]
    six = [tuple(rng.sample(ids, 6)) for _ in range(args.sample)]
    five = [tuple(rng.sample(ids, 5)) for _ in range(args.sample)]
    e6, e5 = _pheval.evaluate_6cards, _pheval.evaluate_5cards
    per6 = _cpu(lambda: [e6(*h) for h in six]) / args.sample
    per5 = _cpu(lambda: [e5(*h) for h in five]) / args.sample

    brute = {
        "six_card_bonus": per6 * comb(52, 6),
        "six-card-fortune": per6 * comb(53, 6),
        "raise-it-up base_game": per6 * comb(52, 3) * comb(49, 3),
        "flop-poker base_game": per5 * comb(52, 3) * comb(49, 3) * 3,
    }
    counted = {
        "six_card_bonus": _cpu(lambda: counting.best_category_counts(6)),
        "six-card-fortune": _cpu(six_card_fortune.best_hand_counts),
        "raise-it-up base_game": solved["raise-it-up-stud"],
        "flop-poker base_game": solved["flop-poker"],
    }
    for k in brute:
        print("%s: counting %.3f s CPU, brute force on phevaluator (C) est. >= %.1f s CPU"
              % (k, counted[k], brute[k]))
    _bad_beat(args, options, bad_beat_cpu)
    print("ratio vs brute force: " + ", ".join("%s %.1f" % (k, brute[k] / counted[k])
                                                 for k in brute))


def _bad_beat(args, options, sheet_cpu):
    from controller.lab.par import blackjack as bj_par
    from controller.lab.par import blackjack_bad_beat as bad_beat
    sheet = bj_par.bad_beat_probabilities(options)              # the figure timed first
    got = {"sheet (every term, vector)": (sheet, sheet_cpu)}
    runs = [("pairs of hands (former sheet)",
             lambda: bj_par.bad_beat_probabilities(options, most_tracked=2)),
            ("former approximation", lambda: bj_par.bad_beat_first_two_cards(options))]
    if args.bad_beat_exact:
        from controller.lab.par import blackjack_split_exact as exact
        runs += [("exact, dict by support",
                  lambda: bj_par.bad_beat_probabilities(
                      options, pairing=exact.add_split_round_by_support)),
                 ("exact, dict by covers",
                  lambda: bj_par.bad_beat_probabilities(options,
                                                        pairing=exact.add_split_round))]
        if args.bad_beat_term_by_term:
            runs += [("exact, term by term",
                      lambda: bj_par.bad_beat_probabilities(options, most_tracked=4))]
    for name, fn in runs:
        bad_beat._CACHE.clear()                 # each way computed, none read from another
        t0 = time.process_time()
        pr = fn()
        got[name] = (pr, time.process_time() - t0)
    for name, (pr, dt) in got.items():
        print("bad_beat %-30s twenty_vs_21 %.12f twenty_vs_blackjack %.12f  %.2f s CPU"
              % (name, float(pr[("twenty_vs_21",)]), float(pr[("twenty_vs_blackjack",)]), dt))
    for name in ("exact, dict by support", "exact, dict by covers", "exact, term by term"):
        if name in got and got[name][0] != sheet:
            raise SystemExit("bad_beat: %s and the sheet differ" % name)
    if "exact, dict by support" in got:
        print("bad_beat exact: dict by support %.1f s CPU, vector %.1f s CPU, ratio %.2f"
              % (got["exact, dict by support"][1], sheet_cpu,
                 got["exact, dict by support"][1] / sheet_cpu))


if __name__ == "__main__":
    main()
