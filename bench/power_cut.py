"""Power cuts: SIGKILL `tablectl sim --journal` at random moments across all seven games,
restart, verify, resume; and damage what a kill left (SQLite: its `-wal` deleted, truncated,
a byte flipped; the sector log: its index deleted, the file cut, a byte flipped in what was
written last). Issue 11's campaign, on the format new journals are made as
(the sector log; with --sqlite an older version's SQLite journal, resumed).

    python bench/power_cut.py [--kills 1000] [--seed 7] [--damage-every 10] [--keep DIR]
                              [--game GAME ...]

The kills are tests/journal/power_loss.py's (a forked `cli.main(["sim", ...])` killed after
a random delay from its boot or from its start, or killing itself at a lock-out or inside a
round), with that harness's checks after every kill (the chain verifies, the meters and the
last snapshot equal their replay, the restart resumes in the exact prior state, a lock-out in
force stays in force) and at the end (`journal verify` from the genesis, every round ended
once, every void returned every wager once).

Beside them, an INDEPENDENT check that no settlement is lost or doubled, sharing no code with
the journal: `settled()` reads the file with plain sqlite3 and json (a sector log: with
`read_log()` here, written from docs/journal.md's layout, not from controller/journal/
log.py; only the deflate dictionary, which is data, is log_vocabulary's), takes the round number
and status of every snapshot row (written at each round's end), and checks that no round
number ends twice, that the counts equal the `meters` table's rounds and voids, and that the
rounds ended after one kill are a superset of those after the kill before (nothing lost).

Every --damage-every'th kill, copies of the journal and its `-wal` are damaged three ways and
booted (the real boot checks, on the copy): each must be caught (the table boots locked out)
or lose nothing (the independent reader finds every round ended before the damage).

Prints per game and in total: kills, kills in a round / at a lock-out / in the boot, restarts
checked, rounds and voids, and the damaged -wal outcomes (caught / lost nothing / LOST).
"""
import argparse
import json
import os
import shutil
import sqlite3
import struct
import sys
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from controller import config as configuration  # noqa: E402
from controller.games import ALL_GAMES, model_class  # noqa: E402
from controller.games.engine import LOCKED_OUT, GameMachine  # noqa: E402
from controller.runtime import table_policies  # noqa: E402
from tests.journal.power_loss import Series  # noqa: E402


class Lost(AssertionError):
    pass


LOG_MAGIC = b"tablectl-log\0\0\0\n"


class Unreadable(Exception):
    """The independent reader found the log damaged (the boot must then catch it too)."""


def is_log(path):
    """The file at `path` begins as a sector log does (docs/journal.md), not SQLite."""
    with open(path, "rb") as f:
        return f.read(len(LOG_MAGIC)) == LOG_MAGIC


def read_log(path):
    """([(entry, data text)] of every row, {meter: value}) of the sector log at `path`, read
    independently of log.py: sector 0 the header (magic, a 4-byte length, JSON, CRC-32 of
    the sector's first 508 bytes); sectors 1 and 2 the tail slots ("TS", slot seq u64, full
    sectors u64, tail length u16, the tail, CRC-32 at 508); from sector 3 the stream, 488
    bytes a sector with the CRC-32 of (its index as u64, its bytes) after them. The newest
    slot whose CRC holds and whose full sectors' CRCs hold is the journal. The stream is
    commits (u32 length, raw deflate with the header's dictionary), a commit's items a tag
    byte, a u32 length and the bytes: R a row's canonical body and its 32-byte hash, M the
    meters changed ({"set", "gone"}). Every integer little-endian."""
    from controller.journal.log_vocabulary import VERSIONS      # data: the dictionary
    with open(path, "rb") as f:
        raw = f.read()
    try:
        return _read_log(raw, VERSIONS)
    except (struct.error, zlib.error, ValueError, KeyError, TypeError) as e:
        raise Unreadable("%s: %s" % (type(e).__name__, e))


def _read_log(raw, versions):
    head = raw[:512]
    if len(head) < 512 or not head.startswith(LOG_MAGIC) or \
            struct.unpack_from("<I", head, 508)[0] != zlib.crc32(head[:508]):
        raise Unreadable("header sector")
    (n,) = struct.unpack_from("<I", head, 16)
    zdict = versions[json.loads(head[20:20 + n])["zdict"]]

    def sector_ok(i):
        s = raw[(3 + i) * 512:(4 + i) * 512]
        return len(s) == 512 and struct.unpack_from("<I", s, 488)[0] == \
            zlib.crc32(s[:488], zlib.crc32(struct.pack("<Q", i)))
    slots = []
    for k in (1, 2):
        s = raw[k * 512:(k + 1) * 512]
        if len(s) < 512 or struct.unpack_from("<I", s, 508)[0] != zlib.crc32(s[:508]):
            continue
        magic, seq, full, tail_n = struct.unpack_from("<2sQQH", s)
        if magic == b"TS" and seq and tail_n < 488:
            slots.append((seq, full, s[20:20 + tail_n]))
    for seq, full, tail in sorted(slots, reverse=True):
        if all(sector_ok(i) for i in range(full)):
            break
    else:
        raise Unreadable("no tail slot whose sectors hold")
    stream = b"".join(raw[(3 + i) * 512:(3 + i) * 512 + 488] for i in range(full)) + tail
    rows, meters, off = [], {}, 0
    while off < len(stream):
        (n,) = struct.unpack_from("<I", stream, off)
        if not n or off + 4 + n > len(stream):
            raise Unreadable("commit at stream byte %d: its length %d" % (off, n))
        d = zlib.decompressobj(-15, zdict=zdict)
        body = d.decompress(stream[off + 4:off + 4 + n])
        if not d.eof:
            raise Unreadable("commit at stream byte %d: not one deflate stream" % off)
        off += 4 + n
        i = 0
        while i < len(body):
            tag, m = struct.unpack_from("<cI", body, i)
            item = body[i + 5:i + 5 + m]
            i += 5 + m
            if tag == b"R":
                fields = json.loads(item[:-32])
                rows.append((fields["entry"], fields["data"]))
            elif tag == b"M":
                change = json.loads(item)
                meters.update(change["set"])
                for k in change["gone"]:
                    meters.pop(k, None)
    return rows, meters


def settled(path):
    """{round_no: status} of the rounds ended in the journal at `path`, and the meters'
    rounds and voids; plain sqlite3 on a copy (so the -wal is not checkpointed away), or
    read_log() on a sector log."""
    if is_log(path):
        rows, meters = read_log(path)
        return _ended((seq, data) for seq, (entry, data) in enumerate(rows, 1)
                      if entry == "snapshot"), meters
    scratch = tempfile.mkdtemp(prefix="pc-read-")
    try:
        for suffix in ("", "-wal"):
            if os.path.exists(path + suffix):
                shutil.copy(path + suffix, os.path.join(scratch, "j.db" + suffix))
        db = sqlite3.connect(os.path.join(scratch, "j.db"))
        try:
            ended = _ended(db.execute("SELECT seq, data FROM journal WHERE entry = "
                                      "'snapshot' ORDER BY seq"))
            meters = dict(db.execute("SELECT name, value FROM meters"))
        finally:
            db.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return ended, meters


def _ended(snapshots):
    """{round_no: status} of the rounds the (seq, data text) snapshot rows end; Lost if
    one ends twice."""
    ended = {}
    for seq, data in snapshots:
        model = json.loads(data)["table"]["model"]
        status, n = model.get("status"), model.get("round_no")
        if status not in ("settled", "void") or n in ended and ended[n][1] == seq:
            continue
        if n in ended:
            raise Lost("round %d ends twice (rows %d and %d)" % (n, ended[n][1], seq))
        ended[n] = (status, seq)
    return {n: s for n, (s, _) in ended.items()}


def independent_check(path, before):
    """The rounds ended now; Lost if one ended before is gone or the counts disagree."""
    ended, meters = settled(path)
    rounds = sum(1 for s in ended.values() if s == "settled")
    voids = len(ended) - rounds
    if (meters.get("rounds"), meters.get("voids")) != (rounds, voids):
        # the meters are written with the round's snapshot: equal whenever both are there
        raise Lost("meters say rounds %s voids %s, the snapshots %d and %d"
                   % (meters.get("rounds"), meters.get("voids"), rounds, voids))
    gone = set(before) - set(ended)
    if gone:
        raise Lost("rounds %s ended before and are no longer in the journal" % sorted(gone))
    changed = [n for n in before if before[n] != ended[n]]
    if changed:
        raise Lost("rounds %s ended otherwise than before" % changed)
    return ended


def damage(path, how, where):
    """A copy of the journal with its -wal (a sector log: the log itself) damaged `how`;
    the copy's path."""
    d = tempfile.mkdtemp(prefix="pc-wal-", dir=where)
    copy = os.path.join(d, "j.db")
    for suffix in ("", "-wal", ".anchor", ".index"):
        if os.path.exists(path + suffix):
            shutil.copy(path + suffix, copy + suffix)
    if is_log(copy):
        damage_log(copy, how)
        return copy
    wal = copy + "-wal"
    if os.path.exists(wal):
        size = os.path.getsize(wal)
        if how == "deleted":
            os.unlink(wal)
        elif how == "truncated":
            with open(wal, "r+b") as f:
                f.truncate(size // 2)
        elif size:
            with open(wal, "r+b") as f:
                f.seek(size // 2)
                b = f.read(1)
                f.seek(size // 2)
                f.write(bytes([b[0] ^ 0xFF]))
    return copy


def damage_log(copy, how):
    """The sector log's counterparts of a damaged -wal: its running index deleted (the
    boot scans instead), the file cut two sectors into what its newest slot says is
    written, or a byte flipped in the last full sector of the stream."""
    with open(copy, "rb") as f:
        raw = f.read(3 * 512)
    full = max([struct.unpack_from("<2sQQH", raw, k * 512)[2] for k in (1, 2)] + [0])
    end = (3 + full) * 512
    if how == "deleted":
        if os.path.exists(copy + ".index"):
            os.unlink(copy + ".index")
    elif how == "truncated":
        with open(copy, "r+b") as f:
            f.truncate(max(3 * 512, end - 2 * 512))
    elif full:
        with open(copy, "r+b") as f:
            f.seek(end - 512 + 100)
            b = f.read(1)
            f.seek(end - 512 + 100)
            f.write(bytes([b[0] ^ 0xFF]))


def boot_copy(copy, game):
    from controller.journal import boot
    cls = model_class(game)
    table = GameMachine(cls(configuration.validate({"game": game}, cls)))
    ctl = boot(copy, table, table_policies(game)[1])
    try:
        return ctl.model.state == LOCKED_OUT and bool(ctl.boot_report.get("problem"))
    finally:
        ctl.close()


def damaged_wal(series, game, before, where, outcome):
    for how in ("deleted", "truncated", "flipped"):
        copy = damage(series.path, how, where)
        try:
            caught = boot_copy(copy, game)
            if caught:
                outcome[how]["caught"] += 1
            else:
                try:
                    ended, _ = settled(copy)
                except Unreadable as e:
                    outcome[how]["LOST"] += 1
                    raise Lost("%s: the boot took a copy the independent reader finds "
                               "damaged (%s)" % (how, e))
                if set(before) - set(ended):
                    outcome[how]["LOST"] += 1
                    raise Lost("-wal %s: rounds %s lost and not caught"
                               % (how, sorted(set(before) - set(ended))))
                outcome[how]["lost nothing"] += 1
        finally:
            shutil.rmtree(os.path.dirname(copy), ignore_errors=True)


def campaign(game, kills, seed, where, damage_every, outcome, sqlite=False):
    d = os.path.join(where, game)
    os.makedirs(d, exist_ok=True)
    series = Series(game, os.path.join(d, "journal.db"), seed, os.path.join(d, "stderr.log"))
    if sqlite:          # an older version's journal: every restart resumes it as SQLite
        from tests.journal.legacy import sqlite_journal
        sqlite_journal(series.path, game, seed)
    ended = {}
    for i in range(kills):
        if i % 5 == 0 and game != "props-and-hops":
            series.run(300.0, at_lockout=True)
        elif i % 5 == 1:
            series.run(300.0, mid_round=series.rng.randint(1, 12))
        else:
            series.run(series.rng.uniform(0.02, 0.6), after_boot=i % 5 != 2)
        if damage_every and i % damage_every == damage_every - 1 and \
                os.path.exists(series.path):
            damaged_wal(series, game, ended, where, outcome)
        series.after_kill()
        if os.path.exists(series.path):
            ended = independent_check(series.path, ended)
    totals = series.finish()
    independent_check(series.path, ended)
    return series.stats, totals


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=1000, help="in all, spread over the seven "
                    "games (default %(default)s)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--damage-every", type=int, default=10, metavar="N",
                    help="damage a copy (its -wal, or the sector log) after every N-th kill "
                    "(0: never)")
    ap.add_argument("--keep", metavar="DIR", help="keep the journals in DIR")
    ap.add_argument("--sqlite", action="store_true", help="on an SQLite journal of an older "
                    "version (a new journal is a sector log), whose -wal is damaged")
    ap.add_argument("--game", action="append", metavar="GAME",
                    help="only these games (repeatable; default all seven), --kills spread "
                    "over them: a campaign can run as several processes")
    args = ap.parse_args(argv)
    games = args.game or ALL_GAMES
    where = args.keep or tempfile.mkdtemp(prefix="tablectl-bench-power-cut-")
    os.makedirs(where, exist_ok=True)
    per = [args.kills // len(games) + (1 if i < args.kills % len(games) else 0)
           for i in range(len(games))]
    outcome = {h: {"caught": 0, "lost nothing": 0, "LOST": 0}
               for h in ("deleted", "truncated", "flipped")}
    total = {"kills": 0, "mid_round": 0, "locked_out": 0, "in_boot": 0, "resumes_checked": 0,
             "rounds": 0, "voids": 0, "voided_at_resume": 0}
    t0 = time.perf_counter()
    try:
        for game, kills in zip(games, per):
            if not kills:
                continue
            stats, totals = campaign(game, kills, args.seed, where, args.damage_every, outcome,
                                     args.sqlite)
            row = dict(stats, **totals)
            for k in total:
                total[k] += row.get(k, 0)
            print("%-24s kills %4d  in a round %4d  at a lock-out %3d  in the boot %3d  "
                  "resumes checked %4d  rounds %5d  voids %4d (%d at resume)"
                  % (game, row["kills"], row["mid_round"], row["locked_out"], row["in_boot"],
                     row["resumes_checked"], row["rounds"], row["voids"],
                     row["voided_at_resume"]), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(where, ignore_errors=True)
    for how, o in outcome.items():
        print("%s %-9s caught %4d  lost nothing %4d  LOST %d"
              % ("-wal" if args.sqlite else "damaged", how, o["caught"],
                 o["lost nothing"], o["LOST"]))
    print("settlements: none lost, none doubled (independent reader) over %d kills, %d rounds "
          "and %d voids in %.0f s" % (total["kills"], total["rounds"], total["voids"],
                                      time.perf_counter() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
