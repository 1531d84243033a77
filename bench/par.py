"""Par-sheet benchmark: exact counting against brute force on the same evaluator.

    python bench/par.py [--sample N]

Times every game's par sheets (what `tablectl par --all` computes), then the
brute-force alternative measured in the same run: the rules core's six-card
evaluation of N random six-card hands, scaled to the 20,358,520 hands of Six
Card Bonus and the 22,957,480 of Six-Card Fortune. The last line is
    ratio vs brute force: six_card_bonus X, six-card-fortune Y
(estimated brute-force time divided by counting time; above 1 counting wins).
"""
import argparse
import os
import random
import sys
import time
from math import comb

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller.par import counting, registry, six_card_fortune  # noqa: E402
from controller.rules import cards as C  # noqa: E402
from controller.rules import paigow, poker  # noqa: E402


def _time(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    total = 0.0
    for game in registry.GAMES:
        dt = _time(lambda: registry.sheets(game))
        total += dt
        print("%-26s %7.3f s" % (game, dt))
    print("%-26s %7.3f s" % ("all games", total))

    rng = random.Random(args.seed)
    std = C.standard_deck()
    hands = [rng.sample(std, 6) for _ in range(args.sample)]
    per_hand = _time(lambda: [poker.best_value(h) for h in hands]) / args.sample
    brute_bonus = per_hand * comb(52, 6)
    count_bonus = _time(lambda: counting.best_category_counts(6))
    jd = C.joker_deck()
    hands = [rng.sample(jd, 6) for _ in range(args.sample)]
    per_hand = _time(lambda: [paigow.best_value(h) for h in hands]) / args.sample
    brute_scf = per_hand * comb(53, 6)
    count_scf = _time(six_card_fortune.sheets)
    print("six_card_bonus: counting %.3f s, brute force est. %.1f s" % (count_bonus, brute_bonus))
    print("six-card-fortune: counting %.3f s, brute force est. %.1f s" % (count_scf, brute_scf))
    print("ratio vs brute force: six_card_bonus %.0f, six-card-fortune %.0f"
          % (brute_bonus / count_bonus, brute_scf / count_scf))


if __name__ == "__main__":
    main()
