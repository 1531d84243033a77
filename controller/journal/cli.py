"""`tablectl journal verify|show|head|init PATH`.

verify and show stream the journal (live.check): a journal of months is checked in the
memory of a few rounds, and `show --round N` replays from the last snapshot before round N,
not from the genesis. `--key FILE` is a keyed journal's key (keys.py); `head` prints the
anchor `SEQ:HASH` that `verify --head` checks the journal against; `init` makes a new empty
journal where none is (the one way besides a first boot on no file: a journal file that
exists is never adopted as new, live.py).
"""

import argparse
import json
import re
import sys

from controller.errors import JournalError
from controller.journal.opening import JournalPathError, _exists, _open


# SQLite's integers: a row or round number past this is not in any journal
MAX_NUMBER = 2 ** 63 - 1


def number(text):
    """--round N: a whole number from 1 to what SQLite can hold."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a round number" % text)
    if not 1 <= n <= MAX_NUMBER:
        raise argparse.ArgumentTypeError("round numbers run from 1 to %d, not %s"
                                         % (MAX_NUMBER, text))
    return n


def when(text):
    """--since/--until: ISO 8601 local time (controller/human.py parse_when) -> wall ns."""
    from controller.human import parse_when
    try:
        return parse_when(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def verify_path(path, key_file=None, anchor=None):
    """(ok, message, replay): the chain (against `anchor`, (seq, hash), if given), every
    snapshot against the replay from the genesis, and the meters table against the replay."""
    from controller.journal.live import check
    from controller.journal.anchor import FileWitness
    from controller.journal.anchor import check as check_anchor
    from controller.journal.chain import Break
    # the anchor first: it is written after the rows it names, so a table appending
    # meanwhile never makes it look ahead of the journal read after it
    witness = FileWitness(path)
    found = witness.read()
    store, model_cls = _open(path, key_file)
    try:
        replay, problem = check(store, model_cls, full=True, anchor=anchor)
        rows, key_id = store.last_seq, store.key_id
        if problem is None and store.head_authentic() is False:
            problem = Break(store.head()[0], "the journal's head in meta is not authenticated "
                                             "by the key (edited)")
        if problem is None:
            text = None if found is None else check_anchor(store, found, witness.name,
                                                           store.key)
            if found is None and store.meta("anchored") == "1":
                text = "%s is missing (deleted)" % witness.name
            if text:
                problem = Break(store.last_seq, text)
    finally:
        store.close()
    if problem is not None:
        return False, "journal %s: first bad row %d: %s" % (path, problem.seq, problem.reason), \
            replay
    c = replay.counters
    return True, ("journal %s: %d rows, the chain holds%s%s, every snapshot equals its replay, "
                  "the meters equal their replay (rounds %d, voids %d)"
                  % (path, rows, "" if key_id is None else " (keyed, key id %s)" % key_id,
                     "" if anchor is None else ", row %d is the anchor's" % anchor[0],
                     c["rounds"], c["voids"])), replay


def cmd_verify(args, out):
    from controller.human import Progress
    progress = Progress(sys.stderr)
    try:
        progress.update("journal verify %s: checking the chain, then replaying..." % args.path,
                        force=True)
        ok, message, _ = verify_path(args.path, args.key, args.head)
    except JournalError as e:
        progress.done()
        sys.stderr.write("tablectl journal verify: %s\n" % " ".join(str(e).split()))
        return 2 if isinstance(e, JournalPathError) else 1
    except KeyboardInterrupt:
        progress.done()
        sys.stderr.write("tablectl journal verify: interrupted; the journal was not verified\n")
        return 2
    progress.done()
    out.write(message + "\n")
    return 0 if ok else 1


def show_round(path, round_no, key_file=None):
    """The reconstruction of round `round_no` (see show.reconstruct), replayed from the last
    snapshot before it; raises JournalError when the journal does not verify or has no
    such round."""
    from controller.journal.live import check
    from controller.journal.show import reconstruct
    from controller.journal.store import load
    store, model_cls = _open(path, key_file)
    try:
        replay, problem = check(store, model_cls, round_no=round_no)
        if replay is None:
            raise JournalError("journal %s: %s" % (path, problem))
        info = replay.rounds.get(round_no)
        rows = () if info is None else (load(r) for r in store.rows(info["first"]))
        doc = reconstruct(rows, replay, round_no)
    finally:
        store.close()
    if doc is None:
        from controller.human import rounds_range
        raise JournalError("journal %s has no round %d (%s)"
                           % (path, round_no, rounds_range(1, replay.last_round)))
    if problem is not None:
        doc["warning"] = "the journal does not verify: first bad row %d: %s" % (
            problem.seq, problem.reason)
    return doc


def cmd_show(args, out):
    from controller.journal.show import render, show_rows
    if args.since is not None and args.until is not None and args.since > args.until:
        sys.stderr.write("tablectl journal show: --since is after --until\n")
        return 2
    try:
        if args.round is None:
            return show_rows(args.path, out, key_file=args.key, since=args.since,
                             until=args.until, as_json=args.json)
        doc = show_round(args.path, args.round, args.key)
    except JournalError as e:
        sys.stderr.write("tablectl journal show: %s\n" % " ".join(str(e).split()))
        return 2 if isinstance(e, JournalPathError) else 1
    except KeyboardInterrupt:
        sys.stderr.write("tablectl journal show: interrupted\n")
        return 2
    if args.json:
        json.dump(doc, out, indent=1)
        out.write("\n")
    else:
        if doc.get("warning"):
            out.write("WARNING: %s\n" % doc["warning"])
        render(doc, out, times=_times(args.path, doc), since=args.since, until=args.until,
               device_names=_names(args.path, doc))
    return 0


def _times(path, doc):
    """The casino's local wall clock for the round's rows (human.WallClock), from the clock
    record in force at the round's first row."""
    from controller.human import WallClock
    from controller.journal.formats import open_journal
    clock = WallClock()
    if not doc.get("rows"):
        return clock
    store = open_journal(path)
    try:
        clock.add(store.last_record("clock", upto=doc["rows"][0]["seq"]))
    finally:
        store.close()
    return clock


def _names(path, doc):
    """{kind: configured name} of the devices at the round's first row: the `table` record
    the runtime journals at start (device_registry.configured_names)."""
    from controller.device_registry import configured_names
    from controller.journal.formats import open_journal
    if not doc.get("rows"):
        return {}
    store = open_journal(path)
    try:
        table = store.last_record("table", upto=doc["rows"][0]["seq"])
    finally:
        store.close()
    return configured_names((table or {}).get("devices"))


def cmd_head(args, out):
    from controller.journal.formats import open_journal
    try:
        _exists(args.path)
        store = open_journal(args.path)
        try:
            seq, digest = store.last()
        finally:
            store.close()
        if seq == 0:
            raise JournalError("journal %s has no rows yet" % args.path)
    except JournalError as e:
        sys.stderr.write("tablectl journal head: %s\n" % " ".join(str(e).split()))
        return 2 if isinstance(e, JournalPathError) else 1
    out.write("%d:%s\n" % (seq, digest))
    return 0


def cmd_init(args, out):
    from controller.errors import JournalInUse
    from controller.journal import anchor as A
    from controller.journal.chain import GENESIS_HASH
    from controller.journal.keys import read_key
    from controller.journal.lock import JournalLock
    from controller.journal.formats import create_journal
    import os
    try:
        key = None if args.key is None else read_key(args.key)
        if os.path.lexists(args.path):
            raise JournalError("journal %s already exists: a journal is never replaced in "
                               "place; move it aside first (it is the evidence)" % args.path)
        lock = JournalLock(args.path)
        try:
            store = create_journal(args.path, key=key, meta={"initialized": "1",
                                                           "anchored": "1"})
            kid = store.key_id
            store.close()
            witness = A.FileWitness(args.path)
            old = witness.read() if os.path.exists(witness.path) else None
            try:
                witness.write(A.make(0, GENESIS_HASH, key, kid))
            finally:
                witness.close()                    # its descriptors (two, with O_DIRECT)
        finally:
            lock.release()
    except JournalInUse as e:
        sys.stderr.write("tablectl journal init: %s\n" % e)
        return 2
    except JournalError as e:
        sys.stderr.write("tablectl journal init: %s\n" % e)
        return 2
    out.write("journal %s: initialized%s, empty; its first boot writes the genesis%s\n"
              % (args.path, "" if kid is None else " (keyed, key id %s)" % kid,
                 "" if old is None else "; the old anchor (row %d, %s) was replaced"
                 % (old["seq"], old["hash"])))
    return 0


def anchor(text):
    """`SEQ:HASH` as `journal head` prints it -> (seq, hash)."""
    m = re.fullmatch(r"\s*([1-9][0-9]*):([0-9a-fA-F]{64})\s*", text)
    if not m:
        raise argparse.ArgumentTypeError("%r is not SEQ:HASH (a row number, a colon and 64 "
                                         "hex digits, as `tablectl journal head` prints)" % text)
    return int(m.group(1)), m.group(2).lower()


def add_parser(sub):
    j = sub.add_parser("journal", help="verify a table's journal or reconstruct a round from it")
    jsub = j.add_subparsers(dest="journal_command", required=True)
    key_help = "the journal's key file, for a keyed journal (mode 0600)"
    v = jsub.add_parser("verify", help="exit 0 when the hash chain, the snapshots and the "
                        "meters hold; 1 naming the first bad row")
    v.add_argument("path")
    v.add_argument("--key", metavar="FILE", help=key_help)
    v.add_argument("--head", type=anchor, metavar="SEQ:HASH", help="an anchor written down "
                   "before (`tablectl journal head`): row SEQ must still have hash HASH")
    v.set_defaults(func=cmd_verify)
    s = jsub.add_parser("show", help="reconstruct a round hand by hand (the game's section, e.g. 633a.7(s)), or list "
                        "the rows between two times, each with its local time; cards not "
                        "yet revealed in a round in progress are hidden")
    s.add_argument("path")
    s.add_argument("--round", type=number, metavar="N", help="the round to reconstruct")
    s.add_argument("--since", type=when, metavar="TIME", help="rows at or after this local "
                   "time (ISO 8601, e.g. 2026-12-01T14:30 or with its offset)")
    s.add_argument("--until", type=when, metavar="TIME", help="rows before this local time")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.add_argument("--key", metavar="FILE", help=key_help)
    s.set_defaults(func=cmd_show)
    h = jsub.add_parser("head", help="print SEQ:HASH of the last row: an anchor to write down "
                        "or store outside the table, for `verify --head`")
    h.add_argument("path")
    h.set_defaults(func=cmd_head)
    i = jsub.add_parser("init", help="make a new, empty journal at PATH (refused if a file is "
                        "there); the only way besides a first boot where no file is")
    i.add_argument("path")
    i.add_argument("--key", metavar="FILE", help="key the new journal with this key file")
    i.set_defaults(func=cmd_init)
    return j
