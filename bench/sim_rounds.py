"""Full-stack simulated rounds per second per game: real drivers, ptys, controller, autoplay.

    python bench/sim_rounds.py [--rounds N] [--repeat R] [--seed S] [--game G]... [--journal]

For each game, `tablectl sim`'s Simulation plays N rounds (simulated devices on real ptys,
the real drivers, the TableController with its policies, the autoplay dealer and players;
with --journal, the SQLite journal too), then the reference replays the very Events that run
journaled into the game machine alone (a bare engine GameMachine, in-process: what `tablectl play`
runs). Both sides are the best of R repeats measured in this run, so the ratios hold across
machines while the rates do not:
    ratio    full stack rate / machine alone rate: the price of devices, protocol and loop
    cpu      the controller loop thread's CPU per round (journal, policies, game, outputs;
             the autoplay's own actions and the driver threads excluded) / the machine
             alone's CPU per round (goal <= 4x with the journal, issue 16). CPU time of the
             loop's thread (time.thread_time: user and system), never wall time: waiting
             for an fsync or an input is not counted, the kernel's work for them is. With
             --journal the same rounds are also played (interleaved, best of R each) with
             the journal's fsyncs turned off (PRAGMA synchronous=OFF, the same rows written:
             a bench-only split, never a mode of the controller) and with no journal, so the
             figure is split into the journal's own CPU and the fsyncs' share of it; `sys`
             is the system share of the loop's CPU (getrusage, sampled by the kernel)
    least    with --journal, the physical floor beside it (least_durable): the machine
             alone replaying the same events with one 512-byte sector written O_DIRECT and
             fdatasync'd before each is applied, the one durable commit per input the
             journal must make, and the same with each input handed over from another
             thread as the drivers hand theirs to the loop; no encoding, chain, policies or
             outputs. What the loop costs above it is what code can still take off
    drivers  the CPU per round of the drivers' reader threads (one per serial line: the
             controller's too, on the Pi as here), beside the loop's, from the kernel's
             per-thread counts (/proc/self/task/TID/stat, at its tick's resolution); and
             the simulated devices' threads, which a table does not run
    wire     the bytes both ways on every serial line per round, as the rounds per second
             115200 baud 8N1 allows: sent one after the other (the autoplay acts one device
             at a time; the heartbeats ride along), and on the busiest line direction alone
             (every line in parallel): the physical ceilings beside the measured rate, which
             ptys do not pace
"""
import argparse
import mmap
import os
import queue
import random
import resource
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller import config as configuration  # noqa: E402
from controller.errors import TablectlError  # noqa: E402
from controller.games import ALL_GAMES, model_class  # noqa: E402
from controller.games.engine import GameMachine  # noqa: E402
from hal_sim.simulation import Simulation, game_config  # noqa: E402

BAUD_BYTES_S = 115200 / 10          # 8 data bits, a start and a stop bit
RUSAGE_THREAD = getattr(resource, "RUSAGE_THREAD", resource.RUSAGE_SELF)


CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def threads_cpu():
    """{"drivers": CPU s, "devices": CPU s} of this process's link threads now: the
    controller's drivers (tablectl-link-table...) and the simulated devices (-SIM-)."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    out = {"drivers": 0.0, "devices": 0.0}
    for tid in os.listdir("/proc/self/task"):
        name = names.get(int(tid), "")
        if not name.startswith("tablectl-link-"):
            continue
        try:
            with open("/proc/self/task/%s/stat" % tid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:                  # the thread ended meanwhile
            continue
        side = "devices" if name.startswith("tablectl-link-SIM-") else "drivers"
        out[side] += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return out


class Events(list):
    """Every Event the controller journals (the reference's input)."""


def capture_events(ctl):
    """The list the controller's Events are added to as it takes them (each is journaled by
    its `process`, first; the reference replays them into the machine alone)."""
    events, process = Events(), ctl.process

    def tee(event):
        events.append(event)
        process(event)
    ctl.process = tee
    return events


def full_stack(game, rounds, seed, journal_dir=None, synchronous=None):
    """(rounds/s, loop CPU s per round, wire bytes per round, the events applied, loop
    system CPU s per round, {"drivers", "devices": their threads' CPU s per round}).
    `synchronous`: the journal's PRAGMA synchronous, for the split only (the controller's
    is FULL)."""
    path = os.path.join(journal_dir, "%s-%d.db" % (game, time.monotonic_ns())) \
        if journal_dir else None
    s = Simulation(game, seed, journal=path, keep=None)
    try:
        ctl = s.ctl
        if synchronous is not None:
            if hasattr(ctl.store, "db"):
                ctl.store.db.execute("PRAGMA synchronous=%s" % synchronous)
            else:                        # the sector log (TABLECTL_JOURNAL_FORMAT=log)
                ctl.store.sync = synchronous != "OFF"
        events = capture_events(ctl)
        cpu = [0.0, 0.0]
        run_once = ctl.run_once

        def timed(*a, **k):
            t0, r0 = time.thread_time(), resource.getrusage(RUSAGE_THREAD).ru_stime
            try:
                return run_once(*a, **k)
            finally:
                cpu[0] += time.thread_time() - t0
                cpu[1] += resource.getrusage(RUSAGE_THREAD).ru_stime - r0
        ctl.run_once = timed
        ports = [sim.port for sim in s.sim.serial.values()]
        wire0 = [(p.written.total, p.read_total) for p in ports]
        t0, threads0 = time.perf_counter(), threads_cpu()
        s.run(rounds)
        dt, threads1 = time.perf_counter() - t0, threads_cpu()
        wire = [(p.written.total - w, p.read_total - r) for p, (w, r) in zip(ports, wire0)]
        if s.stuck:
            raise SystemExit("bench: %s stuck at round %d: %s"
                             % (game, s.stuck["round"], s.stuck["why"]))
    finally:
        s.close()
    return (rounds / dt, cpu[0] / rounds, [(w / rounds, r / rounds) for w, r in wire], events,
            cpu[1] / rounds, {k: (threads1[k] - threads0[k]) / rounds for k in threads1})


def fresh_machine(game, seed):
    """A bare engine GameMachine of `game` as the simulation configures it (its draws seeded
    as the autoplay seeds them): the reference's machine."""
    cls = model_class(game)
    cfg, _counting = game_config(game, ())
    model = cls(configuration.validate(dict(cfg, game=game), cls))
    if hasattr(model, "use_rng"):
        rng = random.Random("start:%s" % seed)
        model.use_rng(lambda: rng.randint(1, 7))
    return GameMachine(model)


def _apply(table, event):
    try:
        table.handle(event)
    except TablectlError:
        pass                             # refused on the table too (e.g. a past-post)


def machine_alone(game, events, rounds, seed, repeat):
    """(rounds/s, CPU s per round), best of `repeat`."""
    best = None
    for _ in range(repeat):
        table = fresh_machine(game, seed)
        t0 = time.perf_counter()
        c0 = time.thread_time()
        for e in events:
            _apply(table, e)
        dt, cpu = time.perf_counter() - t0, time.thread_time() - c0
        best = (dt, cpu) if best is None else (min(best[0], dt), min(best[1], cpu))
    return rounds / best[0], best[1] / rounds


class _Sector:
    """A scratch file of a few sectors in `folder`, zeroed and flushed once, written a sector
    at a time through O_DIRECT (buffered where the file system refuses it, as tmpfs does) and
    flushed by fdatasync: what the sector log's commit does with its tail slot."""

    SECTOR = 512

    def __init__(self, folder):
        self.path = os.path.join(folder, "least-durable-%d.scratch" % time.monotonic_ns())
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.pwrite(fd, bytes(16 * self.SECTOR), 0)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            self.fd = os.open(self.path, os.O_RDWR | getattr(os, "O_DIRECT", 0))
        except OSError:
            self.fd = os.open(self.path, os.O_RDWR)
        self.buf = mmap.mmap(-1, 4096)               # page aligned, as O_DIRECT needs
        self.buf[:self.SECTOR] = b"\x5a" * self.SECTOR
        self.view = memoryview(self.buf)[:self.SECTOR]
        self.n = 0

    def commit(self):
        self.n += 1
        os.pwrite(self.fd, self.view, (1 + self.n % 2) * self.SECTOR)   # two slots, in turn
        os.fdatasync(self.fd)

    def close(self):
        self.view.release()
        self.buf.close()
        os.close(self.fd)
        os.unlink(self.path)


def least_durable(game, events, rounds, seed, repeat, folder, threaded=False):
    """CPU s per round of the least a controller that is durable before each input can cost
    here: the machine alone replaying `events` with, before each is applied, one 512-byte
    sector written (O_DIRECT) to a scratch file in `folder`, the journal's, and fdatasync'd,
    the one commit per input issue 16 keeps. No encoding, no hash chain, no policies, no
    outputs. `threaded`: each input is also handed over from another thread through a queue
    and waited for, as a driver's thread hands its inputs to the loop. The CPU is the
    applying thread's (time.thread_time), best of `repeat`: the physical floor the loop's
    ratio is read against."""
    best = None
    for _ in range(repeat):
        table, sector = fresh_machine(game, seed), _Sector(folder)
        try:
            if threaded:
                cpu = _least_threaded(table, sector, events)
            else:
                c0 = time.thread_time()
                for e in events:
                    sector.commit()
                    _apply(table, e)
                cpu = time.thread_time() - c0
        finally:
            sector.close()
        best = cpu if best is None else min(best, cpu)
    return best / rounds


def _least_threaded(table, sector, events):
    inputs, applied = queue.SimpleQueue(), threading.Semaphore(0)

    def feed():
        for e in events:
            inputs.put(e)
            applied.acquire()                    # the next input once this one is applied
    feeder = threading.Thread(target=feed, name="least-durable-feeder", daemon=True)
    feeder.start()
    c0 = time.thread_time()
    for _ in events:
        e = inputs.get()
        sector.commit()
        _apply(table, e)
        applied.release()
    cpu = time.thread_time() - c0
    feeder.join()
    return cpu


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many, both sides")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--game", action="append", help="default: every game")
    ap.add_argument("--journal", action="store_true", help="the full stack journals to SQLite")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.game or ALL_GAMES:
            # interleaved: one of each side per repeat, so load cannot favour one side
            sides = ("full", "nosync", "none") if args.journal else ("none",)
            runs = {side: [] for side in sides}
            for _ in range(args.repeat):
                for side in sides:
                    runs[side].append(full_stack(
                        game, args.rounds, args.seed, None if side == "none" else tmp,
                        "OFF" if side == "nosync" else None))
            main_side = runs[sides[0]]
            full = max(r[0] for r in main_side)
            best = {side: min(rs, key=lambda r: r[1]) for side, rs in runs.items()}
            cpu, sys_cpu = best[sides[0]][1], best[sides[0]][4]
            wire = main_side[0][2]
            alone, alone_cpu = machine_alone(game, main_side[0][3], args.rounds, args.seed,
                                             args.repeat)
            total = sum(w + r for w, r in wire)
            busiest = max(max(w, r) for w, r in wire)
            x = (lambda c: c / alone_cpu if alone_cpu else float("inf"))
            print("%-26s full stack %7.1f rounds/s   wire %5d B/round: ceiling %6.1f rounds/s "
                  "one byte at a time, %6.1f on the busiest line alone   machine alone %8.1f "
                  "rounds/s   cpu %6.2f ms (sys %.2f) vs %5.3f ms = %5.2fx   ratio %.4f"
                  % (game, full, total, BAUD_BYTES_S / total, BAUD_BYTES_S / busiest, alone,
                     cpu * 1e3, sys_cpu * 1e3, alone_cpu * 1e3, x(cpu), full / alone))
            threads = best[sides[0]][5]
            print("%-26s drivers' reader threads %.2f ms/round = %.2fx (loop and drivers "
                  "%.2fx); the simulated devices' threads %.2f ms/round"
                  % ("", threads["drivers"] * 1e3, x(threads["drivers"]),
                     x(cpu + threads["drivers"]), threads["devices"] * 1e3))
            if args.journal:
                none, nosync = best["none"][1], best["nosync"][1]
                print("%-26s cpu split: no journal %.2f ms = %.2fx; the journal without its "
                      "fsyncs %.2f ms = %.2fx; with them %.2f ms = %.2fx: the journal's own "
                      "%.2f ms/round, of which the fsyncs' %.2f ms"
                      % ("", none * 1e3, x(none), nosync * 1e3, x(nosync), cpu * 1e3, x(cpu),
                         (cpu - none) * 1e3, (cpu - nosync) * 1e3))
                least = least_durable(game, main_side[0][3], args.rounds, args.seed,
                                      args.repeat, tmp)
                handed = least_durable(game, main_side[0][3], args.rounds, args.seed,
                                       args.repeat, tmp, threaded=True)
                print("%-26s least durable: the machine with one durable sector write per "
                      "input %.2f ms = %.2fx, each input from a thread too %.2f ms = %.2fx; "
                      "the loop with the journal is %.2fx that floor"
                      % ("", least * 1e3, x(least), handed * 1e3, x(handed), cpu / handed))


if __name__ == "__main__":
    main()
