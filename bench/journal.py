"""Journal SD-card wear per game, then verification and replay as the journal grows.

    python bench/journal.py [--sizes 2000,20000,200000] [--seed S] [--keyed] [--keep DIR]
                            [--wear-rounds N] [--wear-game GAME ...] [--sector-log DIR]
                            [--sqlite]

SD wear (issue 16), per game, `tablectl sim --journal` (the real drivers and controller) in
a child process, over --wear-rounds rounds:
    disk    bytes the process caused to be written (/proc/self/io write_bytes less
            cancelled_write_bytes) per round, against the journal's payload per round (the
            bytes of the rows it wrote): the goal is <= 3x. The kernel counts a page each
            time an fsync'd commit dirties it again, so 4 KiB per fsync is the floor
            whatever SQLite does: the floor (4096 x fsyncs per round) is printed beside
            it, as a ratio to the payload, and the measured bytes as a ratio to the floor.
            A checkpoint (SQLite's, every journal.store.WAL_AUTOCHECKPOINT pages of -wal)
            copies the pages into the file: run enough rounds to hold some (the count is
            printed) or the figure leaves them out.
    frames  then FRAME_ROUNDS more rounds with the checkpoints held off, and the -wal read
            frame by frame: per commit, the frames by b-tree (journal leaf, meta, the
            header page, journal interior and overflow pages, meters) and the 4 KiB pages
            of the -wal it dirtied; the difference to the measured bytes per fsync is what
            the checkpoints, the anchor and the -shm cost
    fsyncs  fsync + fdatasync calls per round, counted by strace between two markers the
            child makes, against the inputs per round (events and input records): keep
            <= 1.1x; split by file: the -wal's (one per commit; those above the inputs are
            commits no input made), the anchor's (one per round's end) and the database
            file's (the checkpoints). The rounds are played in one run, as `tablectl sim
            --rounds N` plays them. Printed as n/a without strace.
    sector  with --sector-log DIR: the same commits written again, in the child, to a new
            SQLite journal and to the sector-log spike (bench/sector_log.py) in DIR, each
            counted by write_bytes and by the device's own sectors written; DIR on a
            scratch file system of its own (a loop device) is counted alone. Its last line
            per game: `sector log: X.XXx payload, Y us/input` (docs/performance.md).
    cpu     the child's CPU time per round (process time, every thread), not wall time
    rss     the child's resident set at the end (VmRSS), not tracemalloc's view

Each journal is written by the real controller and its DurableJournal
(controller/journal/live.py) on a Props & Hops table, in process, on an injected clock: per
round, wagers at random seats, "no more bets", a past-post attempt inside the press's window
(refused, and journaled), the window closed by the timer's tick, the roll; dice that outlive
their 24 hours are removed by the game and new ones brought. So the rows are what a table
writes (inputs, records, ticks, a snapshot and the meters at each round's end), one
transaction each.
`--keyed` writes keyed journals (HMAC-SHA256); `--keep DIR` keeps the journals there and
reuses them on the next run.

Measured per size, on the same file:
    verify   `tablectl journal verify` (cli.verify_path): the chain, then the replay from
             the genesis checking every snapshot and the meters
    show     `tablectl journal show --round N` of the middle round (cli.show_round): the
             chain, then the replay from the last snapshot before round N
Times are CPU times (process time), the best of --repeat runs; peak memory is the
resident set's peak (VmHWM, reset through /proc/self/clear_refs before each run; tracemalloc
does not see SQLite's memory). Each is printed as a ratio against the smallest size of the same run:
verify's time grows with the rows and its memory should not; show's replay does not grow.
"""
import argparse
import gc
import os
import random
import shutil
import sys
import tempfile
import json
import re
import subprocess
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from controller import config  # noqa: E402
from controller.games import model_class  # noqa: E402
from controller.games.engine import DECK_REMOVED, GameMachine  # noqa: E402
from controller.games.events import Event  # noqa: E402
from controller.journal import boot  # noqa: E402
from controller.journal.cli import show_round, verify_path  # noqa: E402
from controller.policies import default_policies  # noqa: E402
from controller.rules import dice  # noqa: E402
import sector_log  # noqa: E402 - bench/, beside this file
from sector_log import io_written  # noqa: E402

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


def older_sqlite():
    """With --sqlite ($TABLECTL_BENCH_SQLITE in the wear children): a new journal made as an
    older version's SQLite file (tests/journal/legacy.py; the production path makes sector
    logs only), else as every new journal is."""
    import contextlib
    if os.environ.get("TABLECTL_BENCH_SQLITE"):
        from tests.journal.legacy import new_journals_as_sqlite
        return new_journals_as_sqlite()
    return contextlib.nullcontext()


def build(path, rows, seed, key=None, fast=False):
    """A journal of at least `rows` rows written by the real controller and its DurableJournal; its
    rounds.
    `fast`: without fsync (the same rows, for a journal built only to be read)."""
    rng = random.Random(seed)
    clock = Clock()
    cls = model_class(GAME)
    model = cls(config.validate({}, cls))
    policies = default_policies(GAME, no_more_bets={"window_ns": WINDOW_NS})
    with older_sqlite():
        ctl = boot(path, GameMachine(model), policies, clock=clock, key=key)
    witnesses = ctl.journal.witnesses
    if fast:                             # no fsync: neither the rows' nor the anchor's
        if hasattr(ctl.store, "db"):
            ctl.store.db.execute("PRAGMA synchronous=OFF")
        else:                            # the sector log
            ctl.store.sync = False
        ctl.journal.witnesses = []
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
        ctl.journal.witnesses = witnesses        # the anchor at the end, as at any clean stop
        ctl.close()


def timed(fn, repeat):
    best = None
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        dt = time.process_time() - t0
        best = dt if best is None else min(best, dt)
    return best


def status(field):
    """A VmRSS/VmHWM line of /proc/self/status, in bytes (0 where there is none)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def peak(fn):
    """The resident set's peak while `fn` runs, above the resident set before it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")                    # resets VmHWM to the current VmRSS
    except OSError:
        pass
    before = status("VmRSS")
    fn()
    return max(0, status("VmHWM") - before)


MARK = "/nonexistent-tablectl-bench-%s"


def wear_child(game, rounds, where, log_dir=None):
    """In the child: one game's sim on a journal; prints its figures as JSON. With `log_dir`
    its commits are then written again, timed, to SQLite and to the sector log there."""
    from controller.journal.formats import open_journal
    from controller.lab.sim import Simulation
    path = os.path.join(where, "%s.db" % game)
    with older_sqlite():
        s = Simulation(game, 1, (), journal=path)
    is_log = not hasattr(s.ctl.store, "db")           # else an older version's (--sqlite)
    stat = sector_log.device_stat(where)
    try:
        s.run(2)                                     # warm: the first rounds' imports
        first = s.ctl.store.last_seq + 1
        groups = capture_commits(s.ctl.store) if log_dir else None
        if stat:
            sector_log._syncfs(where)
            d0 = sector_log.sectors_written(stat)
        z0 = getattr(s.ctl.store, "zeroed_bytes", 0)
        full0 = getattr(s.ctl.store, "_full", 0)
        os.access(MARK % "start", os.F_OK)
        w0, c0 = io_written(), time.process_time()
        # one run of all the rounds, as `tablectl sim --rounds N` plays them: a run's end
        # commits what the last round derived on its own (Simulation.commit), so a run per
        # round would add a commit per round that no input makes (the round's snapshot
        # rides with the next round's first input, or a second of idle later)
        played, stuck = 0, None
        try:
            played = s.run(rounds)
            if s.stuck:
                stuck = "stuck: %s" % str(s.stuck.get("why"))[:120]
        except Exception as e:                   # noqa: BLE001 - the autoplay (issue 11)
            stuck = "%s: %s" % (type(e).__name__, str(e)[:120])
        getattr(s.ctl.journal, "flush", lambda: None)()   # what the last step derived
        c1, w1 = time.process_time(), io_written()
        os.access(MARK % "end", os.F_OK)
        device = None
        if stat:
            sector_log._syncfs(where)
            device = 512 * (sector_log.sectors_written(stat) - d0)
        # the log's segments are zeroed once, ahead: what fell in this window is taken out
        # and the zeros of the sectors these rounds filled put in, as their share
        zeroed = getattr(s.ctl.store, "zeroed_bytes", 0) - z0
        filled = 512 * (getattr(s.ctl.store, "_full", 0) - full0)
        rss = status("VmRSS")
        last = s.ctl.store.last_seq
        if groups is not None:
            del s.ctl.store._append                  # the captured commits end here
        frames = wal_frames(s, path, max(1, min(rounds, FRAME_ROUNDS))) \
            if not stuck and not is_log else None
    finally:
        s.close()
    log = None
    if groups:
        log = sector_log.compare(groups, log_dir)
    store = open_journal(path)
    try:
        payload = inputs = rows = 0
        for r in store.rows(first, last + 1):
            rows += 1
            payload += sum(len(str(r[c]).encode("utf-8")) for c in r)
            if r["entry"] == "event" or r["kind"] in ("rng", "selftest", "output_failure",
                                                        "tick", "resume_void", "clock"):
                inputs += 1
    finally:
        store.close()
    print(json.dumps({"game": game, "rounds": max(1, played), "stuck": stuck,
                      "written": w1 - w0, "payload": payload,
                      "rows": rows, "inputs": inputs, "cpu_s": c1 - c0, "rss": rss,
                      "frames": frames, "log": log, "commits": len(groups or ()),
                      "format": "log" if is_log else "sqlite", "device": device,
                      "zeroed": zeroed, "filled": filled}))


def capture_commits(store):
    """The store's commits from now on, as they are made: [(entries, meters, meters_after)]
    (the same for the sector log's pass; bench/sector_log.py)."""
    groups, append = [], store._append

    def captured(entries, meters, meters_after=None):
        groups.append((list(entries), None if meters is None else dict(meters),
                       meters_after))
        return append(entries, meters, meters_after)
    store._append = captured
    return groups


FRAME_ROUNDS = 5
WAL_HEADER, FRAME_HEADER = 32, 24


def wal_frames(s, path, rounds):
    """What each commit writes, read from the -wal itself: `rounds` more rounds with the
    checkpoints held off, then every frame's page named by its b-tree (SQLite's dbstat) and
    the 4 KiB pages of the -wal each commit dirties (what the kernel counts for it)."""
    import collections
    import struct
    db = s.ctl.store.db
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA wal_autocheckpoint=0")
    try:
        s.run(rounds)
        s.ctl.journal.flush()
        with open(path + "-wal", "rb") as f:
            wal = f.read()
        try:
            owner = {pageno: "%s %s" % (name, kind) for name, pageno, kind in
                     db.execute("SELECT name, pageno, pagetype FROM dbstat")}
        except Exception:                        # noqa: BLE001 - SQLite built without dbstat
            owner = {}
    finally:
        from controller.journal.store import WAL_AUTOCHECKPOINT
        db.execute("PRAGMA wal_autocheckpoint=%d" % WAL_AUTOCHECKPOINT)
    page_size = struct.unpack(">I", wal[8:12])[0]
    size = page_size + FRAME_HEADER
    commits, frames, pages4k, by = 0, 0, 0, collections.Counter()
    off = start = WAL_HEADER
    while off + size <= len(wal):
        pgno, commit = struct.unpack(">II", wal[off:off + 8])
        frames += 1
        by["header" if pgno == 1 else owner.get(pgno, "other")] += 1
        off += size
        if commit:                               # the commit's last frame
            commits += 1
            pages4k += (off - 1) // 4096 - start // 4096 + 1
            start = off
    return {"page_size": page_size, "commits": commits, "rounds": rounds, "frames": frames,
            "pages4k": pages4k, "by": dict(by)}


def wear(game, rounds, where, log_dir=None, trace_syncs=True):
    """One game's figures, from a child process (under strace, when there is one and
    `trace_syncs`: the tracer slows the child several times, and the file system's journal
    commits every few seconds of wall time while it writes, so the device's count per round
    is higher under it; --no-strace measures the bytes without it, the fsyncs n/a)."""
    cmd = [sys.executable, os.path.abspath(__file__), "--wear-child", game, str(rounds), where]
    if log_dir:
        cmd.append(log_dir)
    trace = os.path.join(where, "%s.strace" % game)
    strace = shutil.which("strace") if trace_syncs else None
    if strace:
        cmd = [strace, "-f", "-qq", "-y", "--seccomp-bpf", "-o", trace, "-e",
               "trace=fsync,fdatasync,access"] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    if r.returncode != 0 and strace:             # strace not allowed here (no ptrace)
        strace = None
        r = subprocess.run(cmd[cmd.index(sys.executable):], capture_output=True, text=True,
                           timeout=1800)
    if r.returncode != 0:
        raise RuntimeError("%s: %s" % (game, r.stderr[-1500:]))
    out = json.loads(r.stdout.strip().splitlines()[-1])
    out["fsyncs"] = out["checkpoints"] = out["wal_syncs"] = out["anchor_syncs"] = None
    if strace and os.path.exists(trace):
        counting, n, db, wal, anchor = False, 0, 0, 0, 0
        with open(trace) as f:
            for line in f:
                if MARK % "start" in line:
                    counting = True
                elif MARK % "end" in line:
                    counting = False
                elif counting and re.search(r"\b(fsync|fdatasync)\(", line):
                    n += 1
                    db += bool(re.search(r"\(\d+<[^>]*\.db>", line))   # the file: a checkpoint
                    wal += bool(re.search(r"\(\d+<[^>]*\.db-wal>", line))     # a commit
                    anchor += bool(re.search(r"\(\d+<[^>]*\.db\.anchor>", line))
        if out.get("format") == "log":           # the log's file: its commits, no checkpoint
            db, wal = 0, db
        out.update(fsyncs=n, checkpoints=db, wal_syncs=wal, anchor_syncs=anchor)
    return out


def sync_split(m):
    """Which file each fsync was for, per round: the -wal's (one a commit; those above the
    inputs are commits without an input: what a step derived, committed on its own), the
    anchor's (one per round's end) and the database file's (checkpoints)."""
    if m["fsyncs"] is None:
        return "n/a"
    n = m["rounds"]
    return ("commits %.2f/round, %.2f of them without an input; anchor %.2f/round; other %.2f"
            "/round" % (m["wal_syncs"] / n, (m["wal_syncs"] - m["inputs"]) / n,
                        m["anchor_syncs"] / n,
                        (m["fsyncs"] - m["wal_syncs"] - m["anchor_syncs"]) / n))


def print_wear(games, rounds, where, log_dir=None, trace_syncs=True):
    for game in games:
        m = wear(game, rounds, where, log_dir, trace_syncs)
        n = m["rounds"]
        floor = 4096 * (m["fsyncs"] or 0)
        fs = "n/a" if m["fsyncs"] is None else "%.1f" % (m["fsyncs"] / n)
        fr = "n/a" if m["fsyncs"] is None else "%.2f" % (m["fsyncs"] / max(1, m["inputs"]))
        print("wear %-24s disk %7.0f B/round for %6.0f B payload: %5.2fx (4 KiB/fsync floor "
              "%s B/round: %s the payload; measured/floor %s)  fsyncs %s/round for %.1f "
              "inputs: %sx (%s)  checkpoints %s  cpu %.1f ms/round  rss %.1f MiB"
              % (game, m["written"] / n, m["payload"] / n, m["written"] / max(1, m["payload"]),
                 "n/a" if m["fsyncs"] is None else "%.0f" % (floor / n),
                 "n/a" if m["fsyncs"] is None else "%.2fx" % (floor / max(1, m["payload"])),
                 "n/a" if not floor else "%.2fx" % (m["written"] / floor),
                 fs, m["inputs"] / n, fr, sync_split(m),
                 "n/a" if m["checkpoints"] is None else m["checkpoints"],
                 1000 * m["cpu_s"] / n, m["rss"] / 2 ** 20)
              + ("" if not m.get("stuck") else "  (%d rounds: the autoplay stopped, %s)"
                 % (n, m["stuck"])))
        pay = max(1, m["payload"])
        amortized = m["written"] - m.get("zeroed", 0) + m.get("filled", 0)
        print("     journal format %s: write_bytes %.2fx payload, with the zeroing as its share "
              "(%d B zeroed in these rounds out, %d B of sectors filled in) %.2fx; the "
              "device's own count %s"
              % (m.get("format"), m["written"] / pay, m.get("zeroed", 0), m.get("filled", 0),
                 amortized / pay, "n/a (not a block device of its own)" if m.get("device")
                 is None else "%.2fx (%.0f B/round), with the zeroing as its share %.2fx"
                 % (m["device"] / pay, m["device"] / n,
                    (m["device"] - m.get("zeroed", 0) + m.get("filled", 0)) / pay)))
        f = m.get("frames")
        if f and f["commits"]:
            c = f["commits"]
            wal = 4096 * f["pages4k"] / c
            per = m["written"] / m["fsyncs"] if m["fsyncs"] else None
            print("     per commit (%d commits over %d more rounds, checkpoints held off): %.2f "
                  "frames of %d B (%s): %.2f 4 KiB pages of -wal (floor 1.00), %.0f B; measured "
                  "%s B per fsync, so checkpoints into the file, the anchor and the -shm add "
                  "%s B"
                  % (c, f["rounds"], f["frames"] / c, f["page_size"] + FRAME_HEADER,
                     ", ".join("%s %.2f" % (k, v / c) for k, v in
                               sorted(f["by"].items(), key=lambda kv: -kv[1])),
                     f["pages4k"] / c, wal, "n/a" if per is None else "%.0f" % per,
                     "n/a" if per is None else "%.0f" % (per - wal)))
        if m.get("log"):
            for line in sector_log.report(m["log"], m["inputs"], m["rounds"]):
                print(line)


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
    ap.add_argument("--wear-rounds", type=int, default=50, metavar="N",
                    help="rounds per game for the SD-wear figures (0: none; default "
                    "%(default)s)")
    ap.add_argument("--wear-game", action="append", metavar="GAME",
                    help="games for the SD-wear figures (default: all seven)")
    ap.add_argument("--sector-log", metavar="DIR", help="also write each game's commits again "
                    "to SQLite and to the sector log spike (bench/sector_log.py) in DIR, on a "
                    "file system whose device stat counts it (a scratch loop device is "
                    "counted alone)")
    ap.add_argument("--no-strace", action="store_true", help="the wear children not under "
                    "strace (no fsync count): the bytes at the pace the table runs alone")
    ap.add_argument("--sqlite", action="store_true", help="on SQLite journals of an older "
                    "version, resumed (a new journal is a sector log): the -wal frame by frame")
    ap.add_argument("--wear-child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.sqlite:                      # the wear children inherit it
        os.environ["TABLECTL_BENCH_SQLITE"] = "1"
    if args.wear_child:
        game, rounds, where, *log_dir = args.wear_child
        wear_child(game, int(rounds), where, *log_dir)
        return 0
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
        if args.wear_rounds:
            from controller.games import ALL_GAMES
            print_wear(args.wear_game or ALL_GAMES, args.wear_rounds, where, args.sector_log,
                       not args.no_strace)
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
                  % (base["rows"], m["rows"] / base["rows"], m["verify_s"] / max(1e-9, base["verify_s"]),
                     m["verify_peak"] / max(1, base["verify_peak"]),
                     m["show_s"] / max(1e-9, base["show_s"]),
                     m["show_peak"] / max(1, base["show_peak"])))
    finally:
        if not args.keep:
            shutil.rmtree(where)
    return 0


def size_of(path):
    """(rows, rounds) of a journal, read from the file (a kept one too)."""
    from controller.journal.formats import open_journal
    store = open_journal(path)
    try:            # round numbers never go down: the last row's is the highest
        return store.last_seq, next(store.rows(store.last_seq))["round_no"]
    finally:
        store.close()


if __name__ == "__main__":
    sys.exit(main())
