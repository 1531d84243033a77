"""Lock-out latency: the dealer's button edge to the lock-out output and the last recognized wager.

    python bench/lockout.py [--presses N] [--window-us W] [--seed S] [--load P]

Six seats of simulated wager sensors and the dealer's button on the simulated GPIO
(hal_sim.gpio.SimFactory on the real monotonic clock), the real TableController running
its own thread on a Props & Hops table (one dice event per round, so the rounds are cheap
and the figures are the controller's). Each round: sensor edges at random seats, one of
them delivered late (stamped before the press, queued after it, as a slow driver thread
would), the press, then sensor edges after the press (past-post attempts), the dice.

Measured per press, from the edge's own timestamp:
    lock-out   to the lock-out output's write (the simulated line's write time)
    last wager to the journaling of the last wager that was recognized (negative: it was
               already in before the loop saw the press)
and the count of wagers stamped after a press that were recognized (must be 0: the only
failing exit). A wager stamped before the press but delivered after `--window-us` is refused
as late, as the rule says; it is counted and printed, never asserted (how late a thread is
depends on the machine).

The reference is measured concurrently, under the same load: a pair of threads keeps doing
one put/get round trip through two queues (the least a hand-off to the loop thread can cost)
for as long as the presses run, so both figures see the same machine at the same moments.
`--load P` adds P processes burning CPU (a loaded machine, as a Pi busy with its journal).
The controller's lock-out press takes its priority lane (controller/table.py), so it does not
wait behind the wagers queued before it.
"""
import argparse
import multiprocessing
import os
import queue
import random
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller import config  # noqa: E402
from controller.games import model_class  # noqa: E402
from controller.games.engine import GameMachine  # noqa: E402
from controller.games.events import Event  # noqa: E402
from controller.policies import default_policies  # noqa: E402
from controller.outputs import Outputs  # noqa: E402
from controller.table import MemoryJournal, TableController  # noqa: E402
from hal_sim.gpio import SimFactory  # noqa: E402

BUTTON, LOCKOUT, SENSORS, LIGHTS = 4, 5, range(12, 18), range(18, 24)


class TimedJournal(MemoryJournal):
    """Remembers when each wager reached the loop (the journal is written before applying)."""

    def __init__(self):
        super().__init__()
        self.seen = {}

    def __call__(self, entry):
        if getattr(entry, "kind", None) == "wager" and isinstance(entry, Event):
            self.seen[id(entry)] = time.monotonic_ns()
        super().__call__(entry)


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


class QueueRoundTrip:
    """The reference, running beside the bench: put on one queue, a thread puts it back on
    another, get it; one sample every `pause_s`, until stopped."""

    def __init__(self, pause_s=0.0005):
        self.pause_s = pause_s
        self.samples = []
        self._stop = threading.Event()
        self._threads = []

    def start(self):
        a, b = queue.SimpleQueue(), queue.SimpleQueue()

        def echo():
            while True:
                x = a.get()
                b.put(x)
                if x is None:
                    return

        def measure():
            while not self._stop.is_set():
                t0 = time.monotonic_ns()
                a.put(1)
                b.get()
                self.samples.append(time.monotonic_ns() - t0)
                time.sleep(self.pause_s)
            a.put(None)
            b.get()
        self._threads = [threading.Thread(target=echo, name="bench-echo"),
                         threading.Thread(target=measure, name="bench-reference")]
        for t in self._threads:
            t.start()
        return self

    def stop(self):
        self._stop.set()
        for t in self._threads:
            t.join()
        return self.samples


def wait_for(pred, what, timeout=60.0):
    """Wait (generously: the machine may be loaded) for the table; a table that never gets
    there is a broken bench, said as such."""
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise SystemExit("bench: the table never reached %s" % what)
        time.sleep(0.00005)


def burn():
    while True:
        pass


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=10000)
    ap.add_argument("--window-us", type=int, default=1000,
                    help="how long after a press wagers stamped before it are still taken")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--load", type=int, default=0, help="processes burning CPU meanwhile")
    args = ap.parse_args(argv)
    burners = [multiprocessing.Process(target=burn, daemon=True) for _ in range(args.load)]
    for p in burners:
        p.start()
    try:
        return bench(args)
    finally:
        for p in burners:
            p.kill()
            p.join()


def bench(args):
    rng = random.Random(args.seed)
    gpio = SimFactory(clock=time.monotonic_ns)
    outputs = Outputs(lockout=gpio.output(LOCKOUT, safe=True, name="lockout"),
                      seat_lights={s: gpio.output(b, safe=False)
                                   for s, b in zip(range(1, 7), LIGHTS)})
    cls = model_class("props-and-hops")
    journal = TimedJournal()
    ctl = TableController(GameMachine(cls(config.validate({}, cls))), journal=journal,
                          outputs=outputs, policies=default_policies(
                              cls.GAME, no_more_bets={"window_ns": args.window_us * 1000}))
    gpio.input(BUTTON, pull="up", edge="falling", name="no_more_bets",
               callback=lambda ts: ctl.submit(Event("no_more_bets", None, "button", ts)))
    held = []                    # sensor events a slow driver delivers after the press

    def sensor(seat):
        def edge(ts):
            ev = Event("wager", {"seat": seat, "wager": "two_hardway", "amount": 500},
                       "sensor", ts)
            (held.append if hold[0] else ctl.submit)(ev)
            phase[0].append(ev)
        return edge
    hold, phase = [False], [[]]
    for seat, bcm in zip(range(1, 7), SENSORS):
        gpio.input(bcm, pull="down", edge="rising", callback=sensor(seat), name="seat%d" % seat)
    nmb = ctl.policies[-1]

    reference = QueueRoundTrip().start()
    ctl.start()
    try:
        ctl.submit(ctl.event("open_table"))
        ctl.submit(ctl.event("shuffle"))
        to_lockout, to_last, recognized_after, late, refused_late = [], [], 0, 0, 0
        for _ in range(args.presses):
            # what the dealer sees: wagering open and the lock-out line off
            wait_for(lambda: ctl.accepting() and gpio.level(LOCKOUT) is False, "wagering open")
            before, after = [], []
            phase[0], r0 = before, len(ctl.refusals)
            for seat in rng.sample(range(1, 7), rng.randint(1, 6)):
                gpio.pulse(SENSORS[seat - 1], 1)
            hold[0] = True
            gpio.pulse(SENSORS[rng.randrange(6)], 1)
            hold[0] = False
            phase[0] = after
            gpio.pulse(BUTTON, 1)
            press_ns = gpio._last_accepted[BUTTON]
            for ev in held:                    # delivered late, stamped before the press
                ctl.submit(ev)
            late += len(held)
            held.clear()
            hold[0] = True
            for seat in rng.sample(range(1, 7), rng.randint(1, 2)):
                gpio.pulse(SENSORS[seat - 1], 1)
            hold[0] = False
            for ev in held:
                ctl.submit(ev)
            held.clear()
            wait_for(lambda: ctl.model.state == "rolling" and ctl.idle(), "rolling")
            wait_for(lambda: nmb.press is None, "wagers closed")
            write = min(t for t, level in gpio.history(LOCKOUT) if level and t >= press_ns)
            to_lockout.append(write - press_ns)
            refused = {id(e) for e, _ in ctl.refusals[r0:]}
            taken = [journal.seen[id(e)] for e in before if id(e) not in refused]
            refused_late += len(before) - len(taken)     # delivered after the window: the rule
            recognized_after += sum(1 for e in after if id(e) not in refused
                                    and id(e) in journal.seen)
            if taken:
                to_last.append(max(taken) - press_ns)
            ctl.submit(ctl.event("dice", {"dice": [rng.randint(1, 6), rng.randint(1, 6)]}))
            wait_for(lambda: ctl.model.state == "settled", "settled")
            ctl.submit(ctl.event("shuffle", {"shake": True}))      # after each round, 585.3(i)
            wait_for(lambda: ctl.model.state == "shuffled" and ctl.idle(), "shaken")
            journal.clear()
            journal.seen.clear()
    finally:
        ctl.stop()
        ref = reference.stop()
    us = 1000.0
    print("presses %d, seats 6, window %d us, load %d processes; attempts after the press %d "
          "(journaled), recognized after the press %d; stamped before but delivered after the "
          "window (refused as late) %d"
          % (args.presses, args.window_us, args.load, nmb.stats["attempted"], recognized_after,
             refused_late))
    print("edge -> lock-out output:      p50 %8.1f us  p99 %8.1f us  max %8.1f us"
          % (pct(to_lockout, 50) / us, pct(to_lockout, 99) / us, max(to_lockout) / us))
    print("edge -> last recognized wager: p50 %8.1f us  p99 %8.1f us  max %8.1f us  "
          "(%d queued after the press)"
          % (pct(to_last, 50) / us, pct(to_last, 99) / us, max(to_last) / us, late))
    print("reference queue round trip:   p50 %8.1f us  p99 %8.1f us  (%d samples, concurrent)"
          % (pct(ref, 50) / us, pct(ref, 99) / us, len(ref)))
    print("ratio vs queue round trip: lock-out p50 %.2f, p99 %.2f; goal p99 < 1000 us: %s"
          % (pct(to_lockout, 50) / pct(ref, 50), pct(to_lockout, 99) / pct(ref, 99),
             "met" if pct(to_lockout, 99) < 1_000_000 else "NOT met"))
    return 0 if recognized_after == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
