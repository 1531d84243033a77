"""Evaluator benchmark: the rules core against treys on the same random hands.

    python bench/evaluator.py [--hands N] [--seed S] [--repeat R]

Prints evaluations per second for both, then a last line
    ratio vs treys: 5-card X.XX, 7-card Y.YY
(ours divided by treys; above 1.00 is faster). Both run in this process on the
same hands, so the ratio holds across machines while the rates do not. Each
figure is the best of R repeats, as the least disturbed by other load.
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller.rules import cards as C  # noqa: E402
from controller.rules import poker as P  # noqa: E402


def _rate(fn, items, repeat):
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        for it in items:
            fn(it)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return len(items) / best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    import treys

    rng = random.Random(args.seed)
    deck = C.standard_deck()
    evaluator = treys.Evaluator()
    _ = P.evaluate7(deck[:7])          # build the seven-card table outside the timing
    results = {}
    for size in (5, 7):
        hands = [rng.sample(deck, size) for _ in range(args.hands)]
        theirs = [[treys.Card.new(C.code(c)) for c in h] for h in hands]
        split = [(t[:2], t[2:]) for t in theirs]
        ours_fn = P.evaluate5 if size == 5 else P.evaluate7
        ours = _rate(ours_fn, hands, args.repeat)
        ref = _rate(lambda hb: evaluator.evaluate(hb[0], hb[1]), split, args.repeat)
        results[size] = ours / ref
        print("%d-card: tablectl %12.0f evals/s   treys %12.0f evals/s   (%d hands, best of %d)"
              % (size, ours, ref, args.hands, args.repeat))
    print("ratio vs treys: 5-card %.2f, 7-card %.2f" % (results[5], results[7]))


if __name__ == "__main__":
    main()
