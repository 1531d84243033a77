"""Time to READY=1 of `tablectl run` against the size of its journal (issue 16, Boot).

    python bench/boot.py [--sizes 20000,200000,2000000] [--repeat 3] [--cache DIR]

`tablectl run` is started as systemd starts it: a subprocess with NOTIFY_SOCKET naming a
datagram socket this bench binds (as tests/deploy does), TABLECTL_HAL=sim and no serial
devices, so what it waits for before READY=1 is the journal's boot checks. The time is from
the start of the process to the READY=1 datagram. Each size is a Props & Hops journal written
by the real controller and its DurableJournal (bench/journal.py `build`, fsync off while
building: the rows are the same), cached in --cache (default /tmp/tablectl-bench-boot) and
reused; a run appends its boot's few rows to it, as a table's restart does. The reference
is a new journal (no file) measured in the same run, interleaved with the others (one run of
each size per repeat), the best of --repeat kept. Printed per size: the best time and its
ratio to the new journal's; the goal is <= 1.5x at 200k and 2M rows.

With --kill each run is stopped by SIGKILL once it said READY=1, not SIGTERM, and each
journal is booted and killed once before the timed runs: every timed boot follows an unclean
stop, as after a power cut (the sector log's index then is what it kept while running,
not the one a clean stop completes).
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

GAME = "props-and-hops"


class Notify:
    """The receiving end of NOTIFY_SOCKET."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="tb")          # AF_UNIX paths are short
        self.path = os.path.join(self.dir, "notify")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)

    def wait_ready(self, timeout):
        end = time.monotonic() + timeout
        while True:
            self.sock.settimeout(max(0.01, end - time.monotonic()))
            msg = self.sock.recv(4096).decode()
            if "READY=1" in msg.splitlines():
                return time.perf_counter()

    def close(self):
        self.sock.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def ensure(cache, rows, seed=2026):
    """The cached journal of at least `rows` rows (built once)."""
    from journal import build
    path = os.path.join(cache, "%s-%d.db" % (GAME, rows))
    if not os.path.exists(path):
        tmp = os.path.join(cache, "building-%d" % rows)
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        t0 = time.perf_counter()
        build(os.path.join(tmp, "j.db"), rows, seed, fast=True)
        for name in os.listdir(tmp):                     # the journal and its anchor file
            os.replace(os.path.join(tmp, name),
                       os.path.join(cache, name.replace("j.db", os.path.basename(path))))
        os.rmdir(tmp)
        print("built %d rows in %.0f s" % (rows, time.perf_counter() - t0), flush=True)
    return path


def time_to_ready(config, journal, timeout=600, kill=False):
    notify = Notify()
    env = dict(os.environ, NOTIFY_SOCKET=notify.path, TABLECTL_HAL="sim",
               TABLECTL_PINS=os.path.join(notify.dir, "pins.json"))
    for key in ("WATCHDOG_USEC", "WATCHDOG_PID"):
        env.pop(key, None)
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", config,
                             "--journal", journal], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        ready = notify.wait_ready(timeout)
    except OSError:
        proc.kill()
        raise RuntimeError("no READY=1 from tablectl run on %s: %s"
                           % (journal, proc.communicate()[1][-1500:]))
    finally:
        notify.close()
    if kill:
        proc.kill()
    else:
        proc.terminate()
    _, err = proc.communicate(timeout=60)
    if (proc.returncode != (-9 if kill else 0)) or "locked out" in err:
        raise RuntimeError("tablectl run on %s: exit %s: %s" % (journal, proc.returncode,
                                                                err[-1500:]))
    return ready - t0


def rows_of(path):
    from controller.journal.formats import open_journal
    store = open_journal(path)
    try:
        return store.last_seq
    finally:
        store.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="20000,200000,2000000",
                    help="journal sizes in rows, comma-separated (default %(default)s)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kill", action="store_true", help="stop each run with SIGKILL: every "
                    "timed boot after an unclean stop")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(),
                                                    "tablectl-bench-boot"))
    args = ap.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    os.makedirs(args.cache, exist_ok=True)
    journals = [(size, ensure(args.cache, size)) for size in sizes]
    work = tempfile.mkdtemp(prefix="tablectl-bench-boot-")
    try:
        config = os.path.join(work, "table.toml")
        with open(config, "w") as f:
            f.write('game = "%s"\n\n[controller]\n' % GAME)
        best = {}
        if args.kill:                                      # each journal's last stop unclean
            for _, path in journals:
                time_to_ready(config, path, kill=True)
        for i in range(args.repeat):
            new = os.path.join(work, "new-%d.db" % i)
            runs = [("new", new)] + [(size, path) for size, path in journals]
            for name, path in runs:                        # interleaved: one of each a repeat
                t = time_to_ready(config, path, kill=args.kill)
                best[name] = min(best.get(name, t), t)
        base = best["new"]
        print("new journal: READY=1 in %.3f s" % base)
        for size, path in journals:
            print("%8d rows (%d now): READY=1 in %.3f s  ratio to new %.2f"
                  % (size, rows_of(path), best[size], best[size] / base))
        print("ratios to new: " + "  ".join("%d rows %.2fx" % (size, best[size] / base)
                                            for size, _ in journals))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
