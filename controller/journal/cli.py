"""`tablectl journal verify PATH` and `tablectl journal show PATH --round N`."""

import json
import sys

from controller.errors import JournalError


def _open(path):
    from controller.games import model_class
    from controller.journal.store import Store, load
    store = Store(path)
    first = next(store.rows(1, 2), None)
    if first is None or first["entry"] != "genesis":
        store.close()
        raise JournalError("journal %s: row 1 is not the genesis row" % path)
    return store, model_class(load(first)["data"]["game"])


def verify_path(path):
    """(ok, message, replay): the chain, every snapshot against the replay from the genesis,
    and the meters table against the replay."""
    from controller.journal.live import check
    store, model_cls = _open(path)
    try:
        replay, problem = check(store, model_cls, full=True)
        rows = store.last_seq
    finally:
        store.close()
    if problem is not None:
        return False, "journal %s: first bad row %d: %s" % (path, problem.seq, problem.reason), \
            replay
    c = replay.counters
    return True, ("journal %s: %d rows, the chain holds, every snapshot equals its replay, "
                  "the meters equal their replay (rounds %d, voids %d)"
                  % (path, rows, c["rounds"], c["voids"])), replay


def cmd_verify(args, out):
    try:
        ok, message, _ = verify_path(args.path)
    except JournalError as e:
        sys.stderr.write("tablectl journal verify: %s\n" % e)
        return 1
    out.write(message + "\n")
    return 0 if ok else 1


def show_round(path, round_no):
    """The reconstruction of round `round_no` (see show.reconstruct), replayed from the
    genesis; raises JournalError when the journal does not verify or has no such round."""
    from controller.journal.live import check
    from controller.journal.show import reconstruct
    from controller.journal.store import load
    store, model_cls = _open(path)
    try:
        replay, problem = check(store, model_cls, full=True)
        rows = [load(r) for r in store.rows()]
    finally:
        store.close()
    if replay is None:
        raise JournalError("journal %s: %s" % (path, problem))
    doc = reconstruct(rows, replay, round_no)
    if doc is None:
        raise JournalError("journal %s has no round %d (rounds 1..%d)"
                           % (path, round_no, max(replay.rounds)))
    if problem is not None:
        doc["warning"] = "the journal does not verify: first bad row %d: %s" % (
            problem.seq, problem.reason)
    return doc


def cmd_show(args, out):
    from controller.journal.show import render
    try:
        doc = show_round(args.path, args.round)
    except JournalError as e:
        sys.stderr.write("tablectl journal show: %s\n" % e)
        return 1
    if args.json:
        json.dump(doc, out, indent=1)
        out.write("\n")
    else:
        if doc.get("warning"):
            out.write("WARNING: %s\n" % doc["warning"])
        render(doc, out)
    return 0


def add_parser(sub):
    j = sub.add_parser("journal", help="verify a table's journal or reconstruct a round from it")
    jsub = j.add_subparsers(dest="journal_command", required=True)
    v = jsub.add_parser("verify", help="exit 0 when the hash chain, the snapshots and the "
                        "meters hold; 1 naming the first bad row")
    v.add_argument("path")
    v.set_defaults(func=cmd_verify)
    s = jsub.add_parser("show", help="reconstruct a round hand by hand (581.7(q)); cards not "
                        "yet revealed in a round in progress are hidden")
    s.add_argument("path")
    s.add_argument("--round", type=int, required=True, metavar="N")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(func=cmd_show)
    return j
