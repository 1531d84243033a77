"""The software manifest and its check: SHA-256 of every installed file, like a lab's.

`write(path)` records, for every file of the installed packages (controller, drivers,
hal_sim; no __pycache__), its SHA-256 in `sha256sum` format ("<hex>  <path>", paths
relative to the install root), so `sha256sum -c` checks it too. `verify(path)` hashes
the files again and names every changed, missing and unlisted file; `signature` is the
SHA-256 of the manifest's sorted lines: one value to compare with the lab's approved
one. `seeded(seed)` is the HMAC-SHA-256 under the lab's seed of every listed file in
order, the way a lab's verification tool proves the files are read now, not recalled.

    python3 -m controller.console.manifest [--root DIR] [--out FILE] [--check]
"""

import argparse
import hashlib
import hmac
import os
import sys

from controller.errors import ManifestError

PACKAGES = ("controller", "drivers", "hal_sim")
NAME = "tablectl.manifest"
SKIP_DIRS = ("__pycache__",)
SKIP_SUFFIXES = (".pyc", ".pyo", ".swp", "~")


def install_root():
    """The folder that holds the installed `controller` package."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def default_path(root=None):
    """$TABLECTL_MANIFEST, else tablectl.manifest in the install root."""
    return os.environ.get("TABLECTL_MANIFEST") or os.path.join(root or install_root(), NAME)


def files(root, packages=PACKAGES):
    """Relative paths of the software files under `root`, sorted."""
    out = []
    for pkg in packages:
        top = os.path.join(root, pkg)
        for folder, dirs, names in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
            for name in names:
                if name.endswith(SKIP_SUFFIXES) or name.startswith("."):
                    continue
                out.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return sorted(out)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def build(root=None, packages=PACKAGES):
    """{relative path: sha256 hex} of the installed software."""
    root = root or install_root()
    return {rel: sha256(os.path.join(root, rel)) for rel in files(root, packages)}


def text(digests):
    return "".join("%s  %s\n" % (digests[p], p) for p in sorted(digests))


def signature(digests):
    """One SHA-256 over the manifest's sorted lines."""
    return hashlib.sha256(text(digests).encode()).hexdigest()


def write(path=None, root=None, packages=PACKAGES):
    """Write the manifest of the software under `root`; returns (path, signature)."""
    root = root or install_root()
    path = path or default_path(root)
    digests = build(root, packages)
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(text(digests))
        os.replace(tmp, path)
    except OSError as e:
        raise ManifestError("cannot write the manifest %s: %s" % (path, e.strerror))
    return path, signature(digests)


def read(path):
    """{relative path: sha256 hex} from a manifest file."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        raise ManifestError("no manifest at %s: write one at installation "
                            "(python3 -m controller.console.manifest)" % path)
    except OSError as e:
        raise ManifestError("cannot read the manifest %s: %s" % (path, e.strerror))
    out = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        digest, sep, rel = line.partition("  ")
        if not sep or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest) \
                or not rel or rel.startswith("/") or ".." in rel.split("/"):
            raise ManifestError("manifest %s line %d is not '<sha256>  <path>'" % (path, n))
        out[rel] = digest
    if not out:
        raise ManifestError("manifest %s lists no files" % path)
    return out


class Result:
    """What `verify` found: ok only when nothing changed, went missing or was added."""

    def __init__(self, expected, actual):
        self.expected, self.actual = expected, actual
        self.changed = sorted(p for p in expected if p in actual and actual[p] != expected[p])
        self.missing = sorted(p for p in expected if p not in actual)
        self.unlisted = sorted(p for p in actual if p not in expected)
        self.ok = not (self.changed or self.missing or self.unlisted)
        self.expected_signature = signature(expected)
        self.signature = signature(actual)


def verify(path=None, root=None, packages=PACKAGES):
    """Hash the installed files again and compare them with the manifest at `path`."""
    root = root or install_root()
    expected = read(path or default_path(root))
    actual = build(root, packages)
    for rel in expected:                     # a listed file outside the packages still counts
        full = os.path.join(root, rel)
        if rel not in actual and os.path.isfile(full):
            actual[rel] = sha256(full)
    return Result(expected, actual)


def seeded(seed, path=None, root=None):
    """HMAC-SHA-256 keyed by the lab's `seed` (hex or text) over every listed file in order."""
    root = root or install_root()
    try:
        key = bytes.fromhex(seed)
    except ValueError:
        key = seed.encode()
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for rel in sorted(read(path or default_path(root))):
        full = os.path.join(root, rel)
        mac.update(rel.encode() + b"\0")
        try:
            with open(full, "rb") as f:
                for block in iter(lambda: f.read(1 << 16), b""):
                    mac.update(block)
        except OSError:
            mac.update(b"\0missing\0")
    return mac.hexdigest()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m controller.console.manifest",
                                 description="write (or check) the software manifest")
    ap.add_argument("--root", help="install root (default: where controller/ is installed)")
    ap.add_argument("--out", help="manifest file (default $TABLECTL_MANIFEST or "
                    "ROOT/tablectl.manifest)")
    ap.add_argument("--check", action="store_true", help="verify instead of writing")
    args = ap.parse_args(argv)
    try:
        if args.check:
            r = verify(args.out, args.root)
            for what in ("changed", "missing", "unlisted"):
                for rel in getattr(r, what):
                    print("%s: %s" % (what, rel))
            print("%s %d files, signature %s" % ("PASS" if r.ok else "FAIL", len(r.expected),
                                                  r.signature))
            return 0 if r.ok else 1
        path, sig = write(args.out, args.root)
        print("wrote %s, signature %s" % (path, sig))
        return 0
    except ManifestError as e:
        print("manifest: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
