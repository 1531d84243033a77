"""`tablectl manifest [--check] [--out FILE] [--root DIR]`: the software manifest a lab signs,
the one command that writes and checks it (controller/console/manifest.py holds the hashing:
the firmware and the dependencies that decide outcomes, the same set on a development install
as on a table)."""

from controller.cli_args import EXIT_FAILED, EXIT_OK


def cmd_manifest(args, out):
    """Write the manifest (default $TABLECTL_MANIFEST or tablectl.manifest beside the
    installed `controller`), or `--check` it: exit 1 naming each changed, missing or unlisted
    file."""
    from controller.console import manifest
    if args.check:
        r = manifest.verify(args.out, args.root)
        for what in ("changed", "missing", "unlisted"):
            for rel in getattr(r, what):
                out.write("%s: %s\n" % (what, rel))
        out.write("%s %d files, signature %s\n" % ("PASS" if r.ok else "FAIL", len(r.expected),
                                                    r.signature))
        return EXIT_OK if r.ok else EXIT_FAILED
    path, sig, sources = manifest.write(args.out, args.root)
    out.write("wrote %s, signature %s\n" % (path, sig))
    out.write("with %s\n" % ", ".join("%s %s" % dv for dv in sources.dependencies))
    return EXIT_OK


def add_parser(sub):
    man = sub.add_parser("manifest", help="write the software manifest (SHA-256 of every "
                         "file of the firmware and of the dependencies that decide outcomes), "
                         "or --check it")
    man.add_argument("--check", action="store_true", help="verify instead of writing; exit 1 "
                     "naming every changed, missing or unlisted file")
    man.add_argument("--out", metavar="FILE", help="the manifest (default $TABLECTL_MANIFEST "
                     "or tablectl.manifest beside the installed controller package)")
    man.add_argument("--root", metavar="DIR", help="a site-packages holding the firmware and "
                     "its dependencies (default: this installation, wherever each is)")
    man.set_defaults(func=cmd_manifest)
    return man
