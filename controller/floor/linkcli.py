"""`tablectl floor link define|show|run LINK`, `tablectl floor meters [LINK]`,
`tablectl floor reconcile LINK`: the floor's commands for linked progressives.

Exit codes: 0 done (reconcile: it holds), 1 refused or failed (reconcile: a mismatch), 2 bad
input (one line naming what was wrong).

A definition is versioned: each change is published on the LINKS stream
(`tablectl.linkcfg.<link>`, message id "config:<link>:<version>", so an interrupted define
run again stores it once) and then written to `config.<link>` in the PROGRESSIVE bucket by
compare-and-set (two floor clerks defining at once: the second is refused). A change of rate
or reset is refused while any of the link's tables is on the link: heard on
`tablectl.linkstatus.<link>.<table>` within LIVE_LISTEN_S (no parameter change while the
link is live: New York's rule, 9 NYCRR 5321.18, kept here; Pennsylvania's 58 Pa. Code 605a.7
keeps the meters locked against change).
"""

import argparse
import asyncio
import json

from controller.errors import ConfigError
from controller.wire import links as L
from controller.wire import subjects as S

from controller.floor.linkcfg import (Refused, _password, open_floor as _open,  # noqa: F401
                                      read_config, write_version)

EXIT_OK, EXIT_FAIL, EXIT_CONFIG = 0, 1, 2


def _params(args):
    params = {"link": args.link, "game": args.game, "wager": args.wager,
              "tables": args.tables, "reset": args.reset, "rate": args.rate}
    if args.cap is not None:
        params["cap"] = args.cap
    if args.confirm_above is not None:
        params["confirm_above"] = args.confirm_above
    if args.second_above is not None:
        params["second_above"] = args.second_above
    if args.paytable is not None:
        try:
            params["paytable"] = json.loads(args.paytable)
        except ValueError:
            raise ConfigError("paytable %r: a JSON object {hand: payout}, e.g. "
                              "'{\"twenty_vs_21\": \"100%% of meter\"}'" % args.paytable)
    return params


async def _define(args, out):
    params = _params(args)
    L.check(params)                             # bad input before any connection
    nc, js, kv = await _open(args)
    try:
        old, rev = await read_config(kv, args.link)
        new = L.next_version(old, params)
        got, changes = await write_version(nc, js, kv, old, rev, new, secret=_password(args))
    finally:
        await nc.close()
    if not changes:
        out.write("link %s: unchanged (version %d)\n" % (args.link, got["version"]))
    else:
        out.write("link %s: version %d recorded (%s)\n%s\n" % (
            args.link, got["version"], ", ".join(changes), L.describe(got)))
    return EXIT_OK


async def _restore(args, out):
    """An inoperable link put back in play: a new version with operable true, its reason
    recorded (a floor decision after a mismatch has been investigated)."""
    if not (args.reason or "").strip():
        raise ConfigError("--reason is required: why the link may be played again")
    nc, js, kv = await _open(args)
    try:
        old, rev = await read_config(kv, args.link)
        if old is None:
            raise Refused("link %s is not defined" % args.link)
        if old.get("operable", True):
            out.write("link %s: already operable (version %d)\n" % (args.link, old["version"]))
            return EXIT_OK
        new = L.next_version(old, dict(old, operable=True, why=None))
        new = L.check(dict(new, restored=args.reason.strip()))
        got, _ = await write_version(nc, js, kv, old, rev, new, secret=_password(args))
    finally:
        await nc.close()
    out.write("link %s: operable again, version %d (was: %s)\n" % (args.link, got["version"],
                                                                  old.get("why")))
    return EXIT_OK


async def _show(args, out):
    nc, js, kv = await _open(args)
    try:
        cfg, _ = await read_config(kv, args.link)
        versions = []
        if getattr(args, "versions", False):
            from controller.floor.linkctl import history
            versions = [(seq, d) for seq, d, _ in await history(js, args.link)
                        if d.get("type") == "config"]
    finally:
        await nc.close()
    if cfg is None:
        raise Refused("link %s is not defined" % args.link)
    if args.json:
        out.write(json.dumps(cfg if not versions else dict(cfg, versions=[
            dict(d, stream_seq=s) for s, d in versions]), sort_keys=True) + "\n")
    else:
        out.write(L.describe(cfg) + "\n")
        for seq, d in versions:
            out.write("  v%d at stream seq %d: reset $%s rate %d/%d cap %s tables %s%s\n" % (
                d["version"], seq, L.dollars(d["reset"]), d["rate"][0], d["rate"][1],
                "none" if d.get("cap") is None else "$" + L.dollars(d["cap"]),
                ",".join(d["tables"]), "" if d.get("operable", True) else
                " INOPERABLE: %s" % d.get("why")))
    return EXIT_OK


async def read_meters(js, kv, link=None):
    """{link: meter entry} of one link or of every link in the bucket."""
    from controller.floor.linkctl import kv_entry
    if link:
        keys = [S.meter_key(link)]
    else:
        try:
            keys = [k for k in await kv.keys() if k.startswith("meter.")]
        except Exception:                       # noqa: BLE001 - an empty bucket
            keys = []
    out = {}
    for key in sorted(keys):
        raw, _ = await kv_entry(kv, key)
        if raw is not None:
            out[key[len("meter."):]] = json.loads(raw)
    return out


def meters_text(meters):
    """Each link's meters, for people: 58 Pa. Code 605a.7's (the meter rising with the wagers,
    the awards paid, the cumulative payouts), with the base, the limit and the last hits that
    New York's 9 NYCRR 5320.8 lists."""
    lines = []
    for link, m in sorted(meters.items()):
        lines.append("link %s  %s %s  version %d  %s" % (
            link, m.get("game"), m.get("wager"), m.get("version", 0),
            "operable" if m.get("operable", True) else "INOPERABLE: %s" % m.get("why")))
        lines.append("  current value  $%s" % L.dollars(m["value"]))
        lines.append("  base (reset)   $%s" % L.dollars(m["reset"]))
        lines.append("  limit (cap)    %s" % ("none" if m.get("cap") is None
                                              else "$" + L.dollars(m["cap"])))
        lines.append("  hits           %d  (awarded $%s)" % (m["hits"], L.dollars(m["awarded"])))
        lines.append("  contributed    $%s over %d wagers, withdrawn $%s, over cap $%s" % (
            L.dollars(m["contributed"]), m.get("contributions", 0), L.dollars(m["withdrawn"]),
            L.dollars(m.get("over_cap", 0))))
        lines.append("  last %d hits (newest first):" % len(m.get("last_hits", [])))
        for h in m.get("last_hits", []):
            lines.append("    seq %-6d table %-8s seat %-3s round %-6s %s  $%s  %s" % (
                h["seq"], h["table"], h["seat"], h["round"], _when(h.get("ts_ns")),
                L.dollars(h["amount"]), " ".join(h.get("hand") or [])))
    return "\n".join(lines) if lines else "no linked progressive on this floor"


def _when(ts_ns):
    import time
    if not ts_ns:
        return "-"
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ts_ns / 1e9)) + "Z"


async def _meters(args, out):
    nc, js, kv = await _open(args)
    try:
        meters = await read_meters(js, kv, args.link)
    finally:
        await nc.close()
    if args.link and args.link not in meters:
        raise Refused("link %s has no meter yet (is its controller running?)" % args.link)
    out.write((json.dumps(meters, sort_keys=True) if args.json else meters_text(meters)) + "\n")
    return EXIT_OK


async def _reconcile(args, out):
    from controller.floor.reconcile import reconcile
    nc, js, kv = await _open(args)
    try:
        report = await reconcile(nc, js, kv, args.link, closed=args.closed,
                                 secret=_password(args))
    finally:
        await nc.close()
    if args.json:
        out.write(json.dumps(report, sort_keys=True) + "\n")
    elif report["holds"]:
        out.write("link %s: reconcile holds: meter %s at seq %d, %d hits, %d contributions; "
                  "%s agree\n" % (args.link, "$" + L.dollars(report["value"]), report["applied_seq"],
                                  report["hits"], report["contributions"],
                                  ", ".join("%s's journal" % t for t in report["tables"])))
    else:
        out.write("link %s: MISMATCH%s\n" % (args.link, " (the link is now inoperable)"
                                              if report["taken_down"] else ""))
        for p in report["problems"]:
            out.write("  %s\n" % p)
    if not args.json:
        for j in report["jackpots"]:
            out.write("  hit %s (seq %d): %s\n" % (j["id"], j["hit_seq"], jackpot_text(j)))
    return 0 if report["holds"] else 1


def jackpot_text(j):
    """One hit's fate, for people: refused and why, or its amount and who confirmed it."""
    if j["state"] == "refused":
        return "REFUSED: %s" % j.get("why")
    who = ", ".join("%s at %s" % (c["by"], human_time(c.get("ts_ns")))
                    for c in j["confirmations"])
    amount = "$" + L.dollars(j["amount"]) if isinstance(j.get("amount"), int) else "?"
    if j["state"] == "paid":
        return "paid %s%s" % (amount, ", confirmed by " + who if who else "")
    if j["state"] == "locked":
        return "LOCKED %s, waiting for %d supervisor(s)%s" % (
            amount, j.get("needs") or 1, "; confirmed by " + who if who else "")
    return j["state"]


def human_time(ts_ns):
    from controller.human import wall_iso
    return wall_iso(ts_ns) if isinstance(ts_ns, int) else "?"


def _run(args, out, err):
    from controller.floor.linkctl import crash_from_env, run_link
    from controller.wire.signing import load_public_keys
    keys = load_public_keys(args.table_keys)        # before anything starts: exit 2 if bad
    pages = load_public_keys(args.page_keys) if args.page_keys else {}

    async def go():
        return await run_link(args.nats, args.link, password=_password(args),
                              user=args.user or "floor", ca_file=args.ca_file,
                              replicas=args.replicas or 1, crash=crash_from_env(), keys=keys,
                              page_keys=pages)
    out.write("link %s: controller starting\n" % args.link)
    out.flush()
    asyncio.run(go())
    return EXIT_OK


def cmd_link(args, out, err):
    """`floor link ...`, `floor meters`, `floor reconcile`: one line and an exit code."""
    from controller.floor.linkctl import LinkError
    name = "tablectl floor %s" % args.floor_cmd
    try:
        if not getattr(args, "nats", None):
            raise ConfigError("--nats URL is required (the floor's NATS JetStream)")
        if getattr(args, "link", None):
            S.check_table_id(args.link)
        if args.floor_cmd == "link":
            name += " " + args.link_cmd
            if args.link_cmd == "run":
                return _run(args, out, err)
            fn = {"define": _define, "show": _show, "restore": _restore}[args.link_cmd]
        elif args.floor_cmd == "meters":
            fn = _meters
        else:
            fn = _reconcile
        return asyncio.run(fn(args, out))
    except (ConfigError, ValueError) as e:
        err.write("%s: %s\n" % (name, e))
        return EXIT_CONFIG
    except (Refused, LinkError) as e:
        err.write("%s: %s\n" % (name, e))
        return EXIT_FAIL
    except Exception as e:                      # noqa: BLE001 - one line, not a traceback
        err.write("%s: %s: %s\n" % (name, type(e).__name__, e))
        return EXIT_FAIL


def _connection(p):
    """The connection options, accepted after the sub-command too."""
    q = argparse.SUPPRESS
    p.add_argument("--nats", metavar="URL", default=q, help="the floor's NATS")
    p.add_argument("--user", default=q, help="the NATS user (default floor)")
    p.add_argument("--password-file", metavar="FILE", default=q, help="its password")
    p.add_argument("--ca-file", metavar="PEM", default=q, help="the CA (tls:// URLs)")
    p.add_argument("--replicas", type=int, default=q, help="replicas of LINKS and "
                   "PROGRESSIVE when created (3 on a three-node cluster)")


def add_parsers(fsub):
    link = fsub.add_parser("link", help="a linked progressive: define, show, run its "
                           "controller")
    lsub = link.add_subparsers(dest="link_cmd", required=True)
    d = lsub.add_parser("define", help="define a link or record a new version of it")
    d.add_argument("link")
    d.add_argument("--game", required=True, help="raise-it-up-stud, six-card-fortune-pai-gow "
                   "or blackjack")
    d.add_argument("--wager", required=True, help="its progressive wager (progressive; "
                   "blackjack: bad_beat_progressive, hit_and_run_progressive, "
                   "straight_jack_progressive)")
    d.add_argument("--tables", required=True, help="T1,T2,...")
    d.add_argument("--reset", required=True, help="initial and reset amount, cents")
    d.add_argument("--rate", required=True, help="rate of progression: 0.14, 14%%, 7/50")
    d.add_argument("--cap", help="the meter's limit, cents")
    d.add_argument("--confirm-above", metavar="CENTS", help="an award of at least this much "
                   "is locked until a floor supervisor confirms it on the floor page (default "
                   "0: every award)")
    d.add_argument("--second-above", metavar="CENTS", help="an award above this needs a "
                   "second, different supervisor too")
    d.add_argument("--paytable", metavar="JSON", help="the wager's paytable {hand: payout} "
                   "where a Rules Submission sets it (Blackjack's progressives): every hit's "
                   "hand is checked under it")
    _connection(d)
    s = lsub.add_parser("show", help="the link's current definition")
    s.add_argument("link")
    s.add_argument("--json", action="store_true")
    s.add_argument("--versions", action="store_true", help="every version on the stream")
    _connection(s)
    rs = lsub.add_parser("restore", help="put an inoperable link back in play (a new "
                         "version, the reason recorded)")
    rs.add_argument("link")
    rs.add_argument("--reason", required=True, help="why it may be played again")
    _connection(rs)
    r = lsub.add_parser("run", help="the link's progressive controller (its meter's single "
                        "writer) until stopped")
    r.add_argument("link")
    r.add_argument("--table-keys", metavar="FILE", required=True, help="the tables' public "
                   "signing keys, a line \"TABLE ed25519:BASE64\" each: a message about money "
                   "is taken only signed by its table")
    r.add_argument("--page-keys", metavar="FILE", help="the floor pages' public keys (the "
                   "same format): a supervisor's confirmation of a jackpot is taken only "
                   "signed by one (without it, no award that needs one is ever paid)")
    _connection(r)
    m = fsub.add_parser("meters", help="the linked progressives' meters (58 Pa. Code 605a.7)")
    m.add_argument("link", nargs="?")
    m.add_argument("--json", action="store_true")
    _connection(m)
    rc = fsub.add_parser("reconcile", help="the meter against the link's stream history and "
                         "each table's journal; a mismatch takes the link down")
    rc.add_argument("link")
    rc.add_argument("--json", action="store_true")
    rc.add_argument("--closed", action="store_true", help="the link's tables are closed: "
                    "every record is due in their journals (without it, during play, a "
                    "record newer than a table's journal on the floor is in flight)")
    _connection(rc)
