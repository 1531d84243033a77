"""The software manifest and its check: SHA-256 of every file a lab signs, like a lab's.

What is signed (issue 32): the firmware, the packages `controller` (but for the floor server,
controller/floor, and the lab's tools, controller/lab) and `drivers`, and the dependencies that
decide outcomes (`OUTCOME_DEPENDENCIES`: transitions runs the game machines, pokerkit the
poker room's hands, pyserial says what the devices say, cryptography checks the signature
on what a table sends a linked progressive), each its package's files and its
METADATA (name and version). Nothing else: not the simulator, the floor server, the par
solvers or another dependency, so a wording fix in a par sheet changes no table's signature.
The same files on a development install (the firmware in the checkout, the dependencies
where Python finds them) as on a table (all in one site-packages): one signature for both.

`write(path)` records, for every signed file, its SHA-256 in `sha256sum` format ("<hex>
<path>", each path relative to the folder that holds its package, so `sha256sum -c` checks
it from a table's site-packages). `verify(path)` hashes the files again and names every
changed, missing and unlisted file; `signature` is the SHA-256 of the manifest's sorted lines:
one value to compare with the lab's approved one (`firmware_signature()` is the one a table
shows). `seeded(seed)` is the HMAC-SHA-256 under the lab's seed of every listed file in
order, the way a lab's verification tool proves the files are read now, not recalled.

One command writes and checks it: `tablectl manifest [--check]` (controller/cli_manifest.py).
"""

import hashlib
import hmac
import os

from controller.errors import ManifestError

# The firmware: these packages but for the wings in NOT_FIRMWARE (setup.py builds the same set
# with TABLECTL_WINGS=firmware; tests/deploy/test_packaging.py keeps the two equal).
FIRMWARE = ("controller", "drivers")
NOT_FIRMWARE = ("controller/floor", "controller/lab")
# The dependencies that decide outcomes: distribution name -> import package.
# cryptography: the Ed25519 signature on what a table sends a linked progressive, which
# decides whether a jackpot is paid (issue 31, controller/wire/signing.py)
OUTCOME_DEPENDENCIES = {"transitions": "transitions", "pokerkit": "pokerkit",
                        "pyserial": "serial", "cryptography": "cryptography"}
COMMAND = "tablectl manifest"
NAME = "tablectl.manifest"
SKIP_DIRS = ("__pycache__",)
SKIP_SUFFIXES = (".pyc", ".pyo", ".swp", "~")


def install_root():
    """The folder that holds the installed `controller` package."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def default_path(root=None):
    """$TABLECTL_MANIFEST, else tablectl.manifest in the install root."""
    return os.environ.get("TABLECTL_MANIFEST") or os.path.join(root or install_root(), NAME)


class Sources:
    """Where each signed package lives: the firmware under `root` (default: where this
    `controller` is), each outcome dependency in the folder that holds it (under `root` only,
    when given: a table's site-packages holds all of them). ManifestError naming a dependency
    that is not installed there: the manifest holds the firmware and them together."""

    def __init__(self, root=None):
        import importlib.metadata as md
        self.root = root or install_root()
        self.base = {pkg: self.root for pkg in FIRMWARE}    # first path part -> its folder
        self.dependencies = []                              # (distribution, version)
        self.metadata = []                                  # the dist-info METADATA files
        for dist_name, package in OUTCOME_DEPENDENCIES.items():
            if root:
                dist = next(iter(md.distributions(name=dist_name, path=[root])), None)
            else:
                try:
                    dist = md.distribution(dist_name)
                except md.PackageNotFoundError:
                    dist = None
            info = dist and next((f for f in dist.files or () if f.name == "METADATA"
                                  and f.parent.name.endswith(".dist-info")), None)
            site = dist and str(dist.locate_file(""))
            if info is None or not os.path.isdir(os.path.join(site, package)):
                raise ManifestError(
                    "%s (%s) is not installed %s: the manifest holds the firmware and the "
                    "dependencies that decide outcomes together (%s)"
                    % (dist_name, package, "under %s" % root if root else "for this Python",
                       "give --root the site-packages that holds them" if root
                       else "pip install %s" % dist_name))
            self.base[package] = self.base[str(info.parent)] = site
            self.dependencies.append((dist_name, dist.version))
            self.metadata.append(str(info).replace(os.sep, "/"))

    def path(self, rel):
        """The file a manifest's relative path names."""
        return os.path.join(self.base.get(rel.split("/", 1)[0], self.root), rel)

    def files(self):
        """The signed files' relative paths, sorted."""
        out = list(self.metadata)
        for pkg in self.base:
            top = os.path.join(self.base[pkg], pkg)
            if pkg.endswith(".dist-info") or not os.path.isdir(top):
                continue
            for folder, dirs, names in os.walk(top):
                rel_folder = os.path.relpath(folder, self.base[pkg]).replace(os.sep, "/")
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")
                                 and "%s/%s" % (rel_folder, d) not in NOT_FIRMWARE)
                out.extend("%s/%s" % (rel_folder, name) for name in names
                           if not (name.endswith(SKIP_SUFFIXES) or name.startswith(".")))
        return sorted(out)


def files(root=None):
    """Relative paths of the signed files (the firmware under `root`), sorted."""
    return Sources(root).files()


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def build(root=None, sources=None):
    """{relative path: sha256 hex} of the signed software."""
    sources = sources or Sources(root)
    return {rel: sha256(sources.path(rel)) for rel in sources.files()}


def text(digests):
    return "".join("%s  %s\n" % (digests[p], p) for p in sorted(digests))


def signature(digests):
    """One SHA-256 over the manifest's sorted lines."""
    return hashlib.sha256(text(digests).encode()).hexdigest()


def firmware_signature(root=None):
    """The signature a table with this software shows (`tablectl manifest`, the console's
    `show version` on a table whose manifest was written at installation): the firmware under
    `root` (default: this one) with the outcome dependencies Python finds beside it."""
    return signature(build(root))


def write(path=None, root=None):
    """Write the manifest of the software under `root`; returns (path, signature, Sources)."""
    sources = Sources(root)
    path = path or default_path(sources.root)
    digests = build(sources=sources)
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(text(digests))
        os.replace(tmp, path)
    except OSError as e:
        raise ManifestError("cannot write the manifest %s: %s" % (path, e.strerror))
    return path, signature(digests), sources


def read(path):
    """{relative path: sha256 hex} from a manifest file."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        raise ManifestError("no manifest at %s: write one at installation (%s)"
                            % (path, COMMAND))
    except OSError as e:
        raise ManifestError("cannot read the manifest %s: %s" % (path, e.strerror))
    out = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        digest, sep, rel = line.partition("  ")
        if not sep or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest) \
                or not rel or rel.startswith("/") or ".." in rel.split("/"):
            raise ManifestError("manifest %s line %d is not '<sha256>  <path>' (write it "
                                "again: %s)" % (path, n, COMMAND))
        out[rel] = digest
    if not out:
        raise ManifestError("manifest %s lists no files (write it again: %s)"
                            % (path, COMMAND))
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


def verify(path=None, root=None):
    """Hash the signed files again and compare them with the manifest at `path`."""
    expected = read(path or default_path(root))        # no manifest: say so first
    sources = Sources(root)
    actual = build(sources=sources)
    for rel in expected:                     # a listed file outside the packages still counts
        full = sources.path(rel)
        if rel not in actual and os.path.isfile(full):
            actual[rel] = sha256(full)
    return Result(expected, actual)


def seeded(seed, path=None, root=None):
    """HMAC-SHA-256 keyed by the lab's `seed` (hex or text) over every listed file in order."""
    listed = sorted(read(path or default_path(root)))
    sources = Sources(root)
    try:
        key = bytes.fromhex(seed)
    except ValueError:
        key = seed.encode()
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for rel in listed:
        mac.update(rel.encode() + b"\0")
        try:
            with open(sources.path(rel), "rb") as f:
                for block in iter(lambda: f.read(1 << 16), b""):
                    mac.update(block)
        except OSError:
            mac.update(b"\0missing\0")
    return mac.hexdigest()
