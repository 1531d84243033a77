"""`tablectl manifest [--check] [--out FILE] [--root DIR]`: the software manifest a lab signs
(controller/console/manifest.py holds the hashing; this is its verb)."""

import os

from controller.cli_args import EXIT_FAILED, EXIT_OK


# The dependencies that decide outcomes (the game machines, the poker hands, what the devices
# say): their files and their versions (the dist-info folder's name) go into the manifest.
# distribution name -> import package
OUTCOME_DEPENDENCIES = {"transitions": "transitions", "pokerkit": "pokerkit",
                        "pyserial": "serial"}


def outcome_packages(root):
    """[(distribution, version, [top-level folders])] of OUTCOME_DEPENDENCIES installed under
    `root`; ManifestError naming one that is not (an editable install keeps tablectl
    outside site-packages: give --root the folder that holds all of them)."""
    import glob

    from controller.errors import ManifestError
    out = []
    for dist, package in OUTCOME_DEPENDENCIES.items():
        infos = sorted(glob.glob(os.path.join(root, "%s-*.dist-info" % dist)))
        if not os.path.isdir(os.path.join(root, package)) or not infos:
            raise ManifestError("%s (%s) is not installed under %s: the manifest holds the "
                                "software and the dependencies that decide outcomes "
                                "together; give --root the site-packages that holds them"
                                % (dist, package, root))
        info = os.path.basename(infos[-1])
        version = info[len(dist) + 1:-len(".dist-info")]
        out.append((dist, version, [package, info]))
    return out


def cmd_manifest(args, out):
    """`tablectl manifest [--check] [--out FILE] [--root DIR]`: the software manifest of
    controller/console/manifest.py (the file the console's `verify` checks), holding the
    project's files and those of transitions, pokerkit and pyserial with their versions."""
    from controller.console import manifest
    root = args.root or manifest.install_root()
    if args.check:
        r = manifest.verify(args.out, root)
        for what in ("changed", "missing", "unlisted"):
            for rel in getattr(r, what):
                out.write("%s: %s\n" % (what, rel))
        out.write("%s %d files, signature %s\n" % ("PASS" if r.ok else "FAIL", len(r.expected),
                                                    r.signature))
        return EXIT_OK if r.ok else EXIT_FAILED
    deps = outcome_packages(root)
    packages = manifest.PACKAGES + tuple(f for _, _, folders in deps for f in folders)
    path, sig = manifest.write(args.out, root, packages)
    out.write("wrote %s, signature %s\n" % (path, sig))
    out.write("with %s\n" % ", ".join("%s %s" % (d, v) for d, v, _ in deps))
    return EXIT_OK


def add_parser(sub):
    man = sub.add_parser("manifest", help="write the software manifest (SHA-256 of every "
                         "installed file), or --check it")
    man.add_argument("--check", action="store_true", help="verify instead of writing; exit 1 "
                     "naming every changed, missing or unlisted file")
    man.add_argument("--out", metavar="FILE", help="the manifest (default $TABLECTL_MANIFEST "
                     "or ROOT/tablectl.manifest)")
    man.add_argument("--root", metavar="DIR", help="install root (default: where controller/ "
                     "is installed)")
    man.set_defaults(func=cmd_manifest)
    return man
