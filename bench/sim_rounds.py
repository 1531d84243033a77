"""Full-stack simulated rounds per second per game: real drivers, ptys, controller, autoplay.

    python bench/sim_rounds.py [--rounds N] [--seed S] [--game G]...

For each game, `tablectl sim`'s Simulation plays N rounds (simulated devices on real ptys,
the real drivers, the TableController with its policies, the autoplay dealer and players),
then the reference replays the very Events that run journaled into the game machine alone
(a bare engine Table, in-process: what `tablectl play` runs). Both are measured in this run,
so the last column, full stack divided by machine alone, holds across machines while the
rates do not; it is the price of the devices, the serial protocol and the loop.
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller import config as configuration  # noqa: E402
from controller.errors import TablectlError  # noqa: E402
from controller.games import ALL_GAMES, model_class  # noqa: E402
from controller.games.engine import Table  # noqa: E402
from controller.games.events import Event  # noqa: E402
from controller.sim import Simulation, game_config  # noqa: E402


def full_stack(game, rounds, seed):
    s = Simulation(game, seed)
    try:
        t0 = time.perf_counter()
        s.run(rounds)
        dt = time.perf_counter() - t0
    finally:
        s.close()
    events = [e for e in s.ctl.journal if isinstance(e, Event)]
    return rounds / dt, events


def machine_alone(game, events, rounds, seed, repeat=3):
    best = None
    for _ in range(repeat):
        cls = model_class(game)
        cfg, _counting = game_config(game, ())
        model = cls(configuration.validate(dict(cfg, game=game), cls))
        if hasattr(model, "use_rng"):
            rng = random.Random("start:%s" % seed)
            model.use_rng(lambda: rng.randint(1, 7))
        table = Table(model)
        t0 = time.perf_counter()
        for e in events:
            try:
                table.handle(e)
            except TablectlError:
                pass                     # refused on the table too (e.g. a past-post)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return rounds / best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--game", action="append", help="default: every game")
    args = ap.parse_args(argv)
    for game in args.game or ALL_GAMES:
        full, events = full_stack(game, args.rounds, args.seed)
        alone = machine_alone(game, events, args.rounds, args.seed)
        print("%-26s full stack %8.1f rounds/s   machine alone %9.1f rounds/s   ratio %.4f"
              % (game, full, alone, full / alone))


if __name__ == "__main__":
    main()
