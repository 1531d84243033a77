"""Evaluator benchmark: the rules core against treys, with phevaluator (C) as the
ceiling, on the same random hands.

    python bench/evaluator.py [--hands N] [--seed S] [--repeat R]

For five, seven and six cards (six is `best_value`, the path Raise It Up settles
on, 669a.11(i)) it times ours, treys and phevaluator interleaved: each repeat runs
all three back to back, so a burst of load on a shared machine falls on all of
them, and each figure is the best of R repeats of CPU time (time.process_time:
what this process used, not what other processes took from it). The values are
checked equal in order (ours, treys and phevaluator rank every hand alike) so the
race is over the same answers. The last line stays
    ratio vs treys: 5-card X.XX, 7-card Y.YY, 6-card Z.ZZ
(ours divided by treys' rate; above 1.00 ours is faster); the line before it gives
ours against phevaluator, a C extension and the ceiling a Python evaluator will
not reach.
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller.rules import cards as C  # noqa: E402
from controller.rules import poker as P  # noqa: E402

SIZES = (5, 7, 6)


def _cpu(fn, items):
    t0 = time.process_time()
    for it in items:
        fn(it)
    return time.process_time() - t0


def interleaved(runners, repeat):
    """{name: best CPU seconds} over `repeat` rounds, each round running every
    (name, fn, items) once, in an order that alternates between rounds."""
    best = {}
    for i in range(repeat):
        order = runners if i % 2 == 0 else list(reversed(runners))
        for name, fn, items in order:
            dt = _cpu(fn, items)
            if name not in best or dt < best[name]:
                best[name] = dt
    return best


def _check_same_order(ours, theirs, what):
    """Both evaluators must order the hands alike (ours higher-better, theirs lower)."""
    pairs = sorted(zip(ours, theirs))
    for (a, x), (b, y) in zip(pairs, pairs[1:]):
        if (a < b and x <= y) or (a == b and x != y):
            raise AssertionError("%s disagrees with ours on the order of two hands" % what)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    if args.hands < 2 or args.repeat < 1:
        ap.error("--hands must be at least 2 and --repeat at least 1")
    import treys
    from phevaluator import _pheval
    from phevaluator.card import Card as PhCard

    rng = random.Random(args.seed)
    deck = C.standard_deck()
    evaluator = treys.Evaluator()
    ph = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}
    ours_fn = {5: P.evaluate5, 6: P.best_value, 7: P.evaluate7}
    P.evaluate7(deck[:7])              # build the lookup tables outside the timing
    P.best_value(deck[:6])
    vs_treys, vs_ph = {}, {}
    for size in SIZES:
        hands = [rng.sample(deck, size) for _ in range(args.hands)]
        codes = [[C.code(c) for c in h] for h in hands]
        split = [([treys.Card.new(s) for s in cs[:2]], [treys.Card.new(s) for s in cs[2:]])
                 for cs in codes]
        ids = [tuple(PhCard(s).id_ for s in cs) for cs in codes]
        f = ph[size]
        sample = slice(0, min(args.hands, 5000))
        mine = [ours_fn[size](h) for h in hands[sample]]
        _check_same_order(mine, [evaluator.evaluate(a, b) for a, b in split[sample]], "treys")
        _check_same_order(mine, [f(*i) for i in ids[sample]], "phevaluator")
        best = interleaved([("ours", ours_fn[size], hands),
                            ("treys", lambda hb: evaluator.evaluate(hb[0], hb[1]), split),
                            ("phevaluator", lambda i: f(*i), ids)], args.repeat)
        rate = dict((k, args.hands / max(v, 1e-9)) for k, v in best.items())
        vs_treys[size] = rate["ours"] / rate["treys"]
        vs_ph[size] = rate["ours"] / rate["phevaluator"]
        print("%d-card: tablectl %11.0f evals/s   treys %11.0f   phevaluator (C) %11.0f   "
              "(%d hands, best of %d CPU, interleaved)"
              % (size, rate["ours"], rate["treys"], rate["phevaluator"], args.hands, args.repeat))
    print("ratio vs phevaluator (C ceiling): 5-card %.2f, 7-card %.2f, 6-card %.2f"
          % (vs_ph[5], vs_ph[7], vs_ph[6]))
    print("ratio vs treys: 5-card %.2f, 7-card %.2f, 6-card %.2f"
          % (vs_treys[5], vs_treys[7], vs_treys[6]))


if __name__ == "__main__":
    main()
