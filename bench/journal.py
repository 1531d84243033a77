"""Journal verification and replay as the journal grows: time and peak memory per size.

    python bench/journal.py [--sizes 2000,20000,200000] [--seed S] [--keyed] [--keep DIR]

Each journal is written by the real JournaledController (controller/journal/live.py) on a
Props & Hops table, in process, on an injected clock: per round, wagers at random seats,
"no more bets", a past-post attempt inside the press's window (refused, and journaled),
the window closed by the timer's tick, the roll; dice that outlive their 24 hours are
removed by the game and new ones brought. So the rows are what a table writes (inputs,
records, ticks, a snapshot and the meters at each round's end), one transaction each.
`--keyed` writes keyed journals (HMAC-SHA256); `--keep DIR` keeps the journals there and
reuses them on the next run.

Measured per size, on the same file:
    verify   `tablectl journal verify` (cli.verify_path): the chain, then the replay from
             the genesis checking every snapshot and the meters
    show     `tablectl journal show --round N` of the middle round (cli.show_round): the
             chain, then the replay from the last snapshot before round N
Times are the best of --repeat runs without tracemalloc; peak memory is tracemalloc's peak
over one more run. Each is printed as a ratio against the smallest size of the same run:
verify's time grows with the rows and its memory should not; show's replay does not grow.
"""
import argparse
import gc
import os
import random
import shutil
import sys
import tempfile
import time
import tracemalloc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller import config  # noqa: E402
from controller.games import model_class  # noqa: E402
from controller.games.engine import DECK_REMOVED, Table  # noqa: E402
from controller.games.events import Event  # noqa: E402
from controller.journal import boot  # noqa: E402
from controller.journal.cli import show_round, verify_path  # noqa: E402
from controller.policies import default_policies  # noqa: E402
from controller.rules import dice  # noqa: E402

GAME = "props-and-hops"
MS = 10 ** 6
WINDOW_NS = 200 * MS
KEY = b"bench journal key, not a secret"


class Clock:
    def __init__(self, start_ns=10 ** 12):
        self.now = start_ns

    def __call__(self):
        return self.now

    def advance(self, ns):
        self.now += ns
        return self.now


def build(path, rows, seed, key=None):
    """A journal of at least `rows` rows written by the JournaledController; its rounds."""
    rng = random.Random(seed)
    clock = Clock()
    cls = model_class(GAME)
    model = cls(config.validate({}, cls))
    policies = default_policies(GAME, no_more_bets={"window_ns": WINDOW_NS})
    ctl = boot(path, Table(model), policies, clock=clock, key=key)
    lo, hi = model.config["table_min"], min(model.config["table_max"], 50 * 100)

    def feed(kind, data=None, source="dealer_panel", after_ns=2 * MS):
        ctl.process(Event(kind, data, source, clock.advance(after_ns)))

    try:
        feed("open_table")
        feed("shuffle")
        while ctl.store.last_seq < rows:
            if ctl.model.state == DECK_REMOVED:            # the dice's 24 hours were up
                feed("new_deck", after_ns=60 * 10 ** 9)
                feed("shuffle")
            seats = rng.sample(range(1, 7), rng.randint(1, 6))
            for seat in seats:
                for name in rng.sample(dice.WAGERS, rng.randint(1, 2)):
                    feed("wager", {"seat": str(seat), "wager": name,
                                   "amount": rng.randrange(lo, hi + 1, 100)}, "sensor",
                         after_ns=rng.randint(50, 2000) * MS)
            feed("no_more_bets", {}, "button", after_ns=3 * 10 ** 9)
            feed("wager", {"seat": str(rng.choice(seats)), "wager": "field", "amount": lo},
                 "sensor", after_ns=WINDOW_NS // 4)               # a past-post attempt
            clock.advance(WINDOW_NS)
            ctl.tick()
            feed("dice", {"dice": [rng.randint(1, 6), rng.randint(1, 6)]}, "dice_reader",
                 after_ns=rng.randint(5, 15) * 10 ** 9)
            feed("shuffle", {"shake": True})                   # after each round, 585.3(i)
        return ctl.model.round_no
    finally:
        ctl.close()


def timed(fn, repeat):
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best


def peak(fn):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(path, rounds, key_file, repeat):
    def verify():
        ok, message, _ = verify_path(path, key_file)
        assert ok, message

    def show():
        doc = show_round(path, max(1, rounds // 2), key_file)
        assert doc["status"] != "in progress", doc["status"]
    return {"verify_s": timed(verify, repeat), "verify_peak": peak(verify),
            "show_s": timed(show, repeat), "show_peak": peak(show)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="2000,20000,200000",
                    help="journal sizes in rows, comma-separated (default %(default)s)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per size, the best kept "
                    "(default %(default)s)")
    ap.add_argument("--keyed", action="store_true", help="keyed journals (HMAC-SHA256)")
    ap.add_argument("--keep", metavar="DIR", help="keep the journals in DIR, and reuse them")
    args = ap.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    where = args.keep or tempfile.mkdtemp(prefix="tablectl-bench-journal-")
    os.makedirs(where, exist_ok=True)
    key_file = None
    if args.keyed:
        key_file = os.path.join(where, "journal.key")
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(KEY)
    try:
        journals = []
        for size in sizes:
            path = os.path.join(where, "%s-%d%s.db" % (GAME, size, "-keyed" if args.keyed
                                                       else ""))
            if not os.path.exists(path):
                t0 = time.perf_counter()
                build(path, size, args.seed, KEY if args.keyed else None)
                journals.append((path, "built in %.1f s" % (time.perf_counter() - t0)))
            else:
                journals.append((path, "kept"))
        gc.collect()                    # the builds' garbage is not the measurements' cost
        verify_path(journals[0][0], key_file)              # imports and first-use costs
        base = None
        for path, built in journals:
            rows, rounds = size_of(path)
            m = dict(measure(path, rounds, key_file, args.repeat), rows=rows)
            base = base or m
            print("%7d rows %5d rounds (%s)  verify %7.2f s %7.1f MiB peak  show %6.2f s "
                  "%6.1f MiB peak" % (m["rows"], rounds, built, m["verify_s"],
                                      m["verify_peak"] / 2 ** 20, m["show_s"],
                                      m["show_peak"] / 2 ** 20))
            print("    ratios to %d rows: rows %.1f  verify time %.2f  verify memory %.2f  "
                  "show time %.2f  show memory %.2f"
                  % (base["rows"], m["rows"] / base["rows"], m["verify_s"] / base["verify_s"],
                     m["verify_peak"] / base["verify_peak"], m["show_s"] / base["show_s"],
                     m["show_peak"] / base["show_peak"]))
    finally:
        if not args.keep:
            shutil.rmtree(where)
    return 0


def size_of(path):
    """(rows, rounds) of a journal, read from the file (a kept one too)."""
    from controller.journal.store import Store
    store = Store(path)
    try:
        return store.last_seq, store.db.execute("SELECT MAX(round_no) FROM journal").fetchone()[0]
    finally:
        store.close()


if __name__ == "__main__":
    sys.exit(main())
