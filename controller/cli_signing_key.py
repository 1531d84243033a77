"""`tablectl signing-key PATH --table ID`: the table's own signing key (issue 31).

Made at the table, never over a key that is there (mode 0600 from its creation), kept beside
the journal key and never copied off the table: what the table sends a linked progressive is
signed with it (controller/wire/signing.py), and the link pays nothing else. It prints the
line the floor's table-keys file takes (`tablectl floor link run --table-keys FILE`):
"ID ed25519:BASE64", the public half only. `--show` prints that line for a key already there.
"""

import sys

from controller.cli_args import EXIT_OK, EXIT_USAGE


def cmd_signing_key(args, out):
    from controller.errors import ConfigError
    from controller.wire import signing
    from controller.wire.subjects import TABLE_ID
    try:
        if not TABLE_ID.match(args.table):
            raise ConfigError("--table %r: 1 to 64 letters, digits, '-' or '_'" % args.table)
        if args.show:
            public = signing.public_text(signing.load_key(args.path))
        else:
            public = signing.new_key(args.path)
    except ConfigError as e:
        sys.stderr.write("tablectl signing-key: %s\n" % e)
        return EXIT_USAGE
    out.write("%s %s\n" % (args.table, public))
    return EXIT_OK


def add_parser(sub):
    k = sub.add_parser("signing-key", help="make the table's own signing key at PATH (mode "
                       "0600, refused if a file is there): what it sends a linked progressive "
                       "is signed with it; prints its public line for the floor")
    k.add_argument("path")
    k.add_argument("--table", required=True, help="the table's id on the floor")
    k.add_argument("--show", action="store_true", help="print the public line of the key at "
                   "PATH, make none")
    k.set_defaults(func=cmd_signing_key)
    return k
