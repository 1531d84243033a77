"""`tablectl floor` (the floor service and its page), `tablectl floor anchor TABLE`,
`tablectl floor demo --tables N`; linked progressives' `floor link define|show|run`,
`floor meters`, `floor reconcile` (linkcli.py)."""

import asyncio
import json
import os
import sys

from controller.errors import ConfigError

EXIT_CONFIG = 2


def parse_http(text):
    host, _, port = (text or "").rpartition(":")
    try:
        port = int(port)
    except ValueError:
        raise ConfigError("--http %r: HOST:PORT, e.g. 127.0.0.1:8080" % text)
    if not host or not 0 <= port < 65536:
        raise ConfigError("--http %r: HOST:PORT, e.g. 127.0.0.1:8080" % text)
    return host, port


def _password(args):
    from controller.wire.uplink import read_password
    return read_password(args.password_file) if args.password_file else None


def _user(args, out, err):
    """`tablectl floor user add NAME --role ROLE --users-file F`: the password from the
    terminal (asked twice, not echoed) or, with --password-stdin, one line of stdin."""
    import getpass

    from controller.floor.auth import add_user, check_name
    try:
        check_name(args.name)                   # before a password is asked for
        if args.password_stdin:
            password = sys.stdin.readline().rstrip("\n")
        else:
            password = getpass.getpass("password for %s: " % args.name)
            if getpass.getpass("again: ") != password:
                raise ConfigError("the two passwords differ")
        add_user(args.users_file, args.name, args.role, password)
    except (ConfigError, EOFError) as e:
        err.write("tablectl floor user: %s\n" % (e or "no password typed"))
        return EXIT_CONFIG
    out.write("user %s (%s) written to %s\n" % (args.name, args.role, args.users_file))
    return 0


def cmd_floor(args, out, err=None):
    err = err or sys.stderr
    if getattr(args, "floor_cmd", None) == "demo":
        from controller.lab.floor_demo import cmd_demo
        return cmd_demo(args, out, err)
    if getattr(args, "floor_cmd", None) in ("link", "meters", "reconcile"):
        from controller.floor.linkcli import cmd_link
        return cmd_link(args, out, err)
    parser = getattr(args, "floor_parser", None)
    if getattr(args, "floor_cmd", None) is None and parser is not None and all(
            getattr(args, a.dest) == a.default for a in parser._actions if a.dest != "help"):
        # bare `tablectl floor`: what it does and its verbs, not an error (issue 35)
        out.write(args.floor_parser.format_help())
        return 0
    if getattr(args, "floor_cmd", None) == "user":
        return _user(args, out, err)
    try:
        password = _password(args)
        users = confirm_key = None
        if getattr(args, "users_file", None):
            from controller.floor.auth import Users
            users = Users(args.users_file)
        if getattr(args, "confirm_key", None):
            from controller.wire.signing import load_key
            confirm_key = load_key(args.confirm_key)
        if not args.nats:
            raise ConfigError("--nats URL is required (the floor's NATS JetStream)")
        if getattr(args, "floor_cmd", None) == "anchor":
            return _anchor(args, password, out, err)
        host, port = parse_http(args.http)
        from controller.floor.pit import parse_day_start, parse_pits
        try:
            day_start_s = parse_day_start(args.gaming_day_start)
            pits = parse_pits(args.pit)
        except ValueError as e:
            raise ConfigError(str(e))
    except ConfigError as e:
        err.write("tablectl floor: %s\n" % e)
        return EXIT_CONFIG

    def announce(line):
        out.write(line + "\n")
        out.flush()
    if os.environ.get("TABLECTL_FLOOR_DEBUG"):
        import logging
        logging.basicConfig(level=logging.DEBUG, stream=err)
        logging.getLogger("nats").setLevel(logging.INFO)
    # not at import: every tablectl command builds this parser; the service's fold reads journals
    from controller.floor.service import serve_floor
    try:
        asyncio.run(serve_floor(args.nats, password, host, port, args.replicas, announce,
                                user=args.user, ca_file=args.ca_file,
                                day_start_s=day_start_s, pits=pits, users=users,
                                confirm_key=confirm_key))
    except OSError as e:
        err.write("tablectl floor: %s\n" % e)
        return 1
    except Exception as e:                      # noqa: BLE001 - one line, not a traceback
        err.write("tablectl floor: %s: %s\n" % (type(e).__name__, e))
        return 1
    return 0


def _anchor(args, password, out, err):
    """The floor's copy of a table's journal head, SEQ:HASH, as `journal verify --head`
    takes it."""
    import nats

    from controller.wire import subjects as S

    async def get():
        from controller.wire.connection import servers, tls_context
        nc = await nats.connect(servers(args.nats), user=args.user, password=password,
                                tls=tls_context(args.nats, args.ca_file),
                                inbox_prefix=S.inbox_prefix(args.user),
                                connect_timeout=2, max_reconnect_attempts=0)
        try:
            kv = await nc.jetstream().key_value(S.KV_BUCKET)
            return (await kv.get("anchor.%s" % S.check_table_id(args.table))).value.decode()
        finally:
            await nc.close()
    try:
        out.write(asyncio.run(get()) + "\n")
    except ValueError as e:
        err.write("tablectl floor anchor: %s\n" % e)
        return EXIT_CONFIG
    except Exception as e:                      # noqa: BLE001 - one line
        err.write("tablectl floor anchor: table %s: %s\n" % (args.table, type(e).__name__))
        return 1
    return 0


def add_parser(sub):
    fl = sub.add_parser("floor", help="the floor service: every table's journal from NATS "
                        "JetStream, the tables' state in a KV bucket, the floor page")
    fl.add_argument("--nats", metavar="URL", help="the floor's NATS (nats://HOST:PORT)")
    fl.add_argument("--user", default="floor", help="the floor service's NATS user")
    fl.add_argument("--password-file", metavar="FILE", help="its password (first line)")
    fl.add_argument("--ca-file", metavar="PEM", help="the CA the servers' certificates are "
                    "checked against (tls:// URLs)")
    fl.add_argument("--http", default="127.0.0.1:8080", metavar="HOST:PORT",
                    help="where the floor page is served (default 127.0.0.1:8080; port 0: any)")
    fl.add_argument("--replicas", type=int, default=1, help="replicas of the stream and the "
                    "bucket when the floor creates them (3 on a three-node cluster)")
    fl.add_argument("--gaming-day-start", default="06:00", metavar="HH:MM",
                    help="the casino's gaming day begins at this local time (default 06:00)")
    fl.add_argument("--pit", action="append", metavar="NAME=TABLES",
                    help="a pit of the floor page, e.g. MAIN=T01,T02 (repeat for each; tables "
                    "in no pit are grouped by their game)")
    fl.add_argument("--users-file", metavar="FILE", help="the floor page's logins (tablectl "
                    "floor user add): a supervisor confirms a linked jackpot there")
    fl.add_argument("--confirm-key", metavar="FILE", help="the floor page's own signing key "
                    "(tablectl signing-key FILE --table floor-page): a supervisor's "
                    "confirmation is signed with it; the links' controllers take no other")
    fsub = fl.add_subparsers(dest="floor_cmd")
    us = fsub.add_parser("user", help="the floor page's logins")
    usub = us.add_subparsers(dest="user_cmd", required=True)
    ua = usub.add_parser("add", help="add a login, or change its role or password")
    ua.add_argument("name")
    ua.add_argument("--role", required=True, choices=("viewer", "supervisor"))
    ua.add_argument("--users-file", required=True, metavar="FILE", help="the logins' file "
                    "(written 0600; salted scrypt hashes)")
    ua.add_argument("--password-stdin", action="store_true", help="read the password from "
                    "one line of standard input (a script), not the terminal")
    an = fsub.add_parser("anchor", help="print the floor's copy of a table's journal head "
                         "(SEQ:HASH, for `tablectl journal verify --head`)")
    an.add_argument("table")
    demo = fsub.add_parser("demo", help="a nats-server, the floor service and its page, and N "
                           "simulated tables of mixed games; Ctrl-C stops everything")
    demo.add_argument("--tables", type=int, default=8)
    demo.add_argument("--port", type=int, default=8080, help="the page's port (0: any free)")
    demo.add_argument("--pause", type=float, default=1.0, help="seconds between rounds")
    demo.add_argument("--dir", help="where journals and logs go (default: a new temp dir)")
    demo.add_argument("--fault-rate", type=float, default=0.05,
                      help="each table's chance per round of a device fault")
    from controller.floor.linkcli import add_parsers as add_link_parsers
    add_link_parsers(fsub)
    fl.set_defaults(func=cmd_floor, floor_parser=fl)
    return fl


def dumps(obj):
    return json.dumps(obj, sort_keys=True)
