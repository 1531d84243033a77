"""Roles, their PINs (salted scrypt hashes in a small JSON file) and the log-in guard.

The PIN file holds, per role, the scrypt parameters, a random 16-byte salt and the derived
key; never a PIN. It is rewritten atomically with mode 0600 by `tablectl passwd ROLE`,
and read again at every log-in, so a changed PIN takes effect without a restart.

    {"format": "tablectl-pins/1",
     "pins": {"technician": {"kdf": "scrypt", "n": 16384, "r": 8, "p": 1,
                             "salt": "<hex>", "hash": "<hex>"}}}

`LoginGuard` counts failed log-ins on the injected clock; `max_failures` in a row lock the
console for `lock_s` seconds, during which no PIN is even asked for.
"""

import getpass  # noqa: F401 - `tablectl passwd` (controller/cli_passwd.py) reads PINs through it
import hashlib
import hmac
import json
import os

from controller.errors import PinStoreError

ROLES = ("dealer", "floorperson", "technician", "administrator")   # lowest to highest
FORMAT = "tablectl-pins/1"
SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}
DKLEN = 32
PIN_DIGITS = (4, 16)
DEFAULT_PIN_STORE = "/etc/tablectl/console-pins.json"
# Where an installed table keeps its configuration (deploy/install.sh makes it): its PINs are
# DEFAULT_PIN_STORE. Anywhere else (a bench, a laptop) they are the user's own, no root needed.
INSTALLED_ETC = os.path.dirname(DEFAULT_PIN_STORE)
USER_PIN_STORE = os.path.join("~", ".tablectl", "console-pins.json")
# The one default every verb that reads or writes PINs (run, sim, passwd) names in its --help
# and docs/deploy.md repeats: one rule, so `passwd` writes where `run` and `sim` read.
PIN_DEFAULT_TEXT = ("$TABLECTL_PINS, else %s where %s exists (an installed table), else %s"
                    % (DEFAULT_PIN_STORE, INSTALLED_ETC, USER_PIN_STORE))


def default_pin_store(environ=None, etc=INSTALLED_ETC):
    """The PIN file when none is given (PIN_DEFAULT_TEXT): $TABLECTL_PINS, else the installed
    table's /etc/tablectl/console-pins.json when /etc/tablectl exists, else
    ~/.tablectl/console-pins.json. Why one rule: `tablectl passwd` used to write /etc while
    `sim` read ~/.tablectl, so a PIN set on a bench was never found."""
    environ = os.environ if environ is None else environ
    if environ.get("TABLECTL_PINS"):
        return environ["TABLECTL_PINS"]
    if os.path.isdir(etc):
        return os.path.join(etc, os.path.basename(DEFAULT_PIN_STORE))
    return os.path.expanduser(USER_PIN_STORE)


def pin_warning(path):
    """The line to say at start when no log-in can succeed (no PIN file, an unreadable one, or
    one without a PIN), naming how to set one; None when some role has a PIN."""
    from controller.errors import PinStoreError
    try:
        pins = PinStore(path).load()
    except PinStoreError as e:
        return "warning: %s: every console log-in will be refused" % e
    if pins:
        return None
    return ("warning: no console PINs are set in %s: every log-in will be refused; set one "
            "with `tablectl passwd technician --file %s` (or give --pins FILE)" % (path, path))


def rank(role):
    """0 for a dealer .. 3 for an administrator; -1 for anything else."""
    return ROLES.index(role) if role in ROLES else -1


def at_least(role, minimum):
    return rank(role) >= rank(minimum) >= 0


def check_pin(pin):
    """A PIN is 4 to 16 digits; PinStoreError says what is wrong otherwise."""
    lo, hi = PIN_DIGITS
    if not pin.isascii() or not pin.isdigit() or not lo <= len(pin) <= hi:
        raise PinStoreError("a PIN is %d to %d digits" % (lo, hi))
    if len(set(pin)) == 1:
        raise PinStoreError("a PIN of one repeated digit is refused")
    return pin


def hash_pin(pin, salt=None, **params):
    """A PIN file entry for `pin`: a fresh random salt unless one is given."""
    params = dict(SCRYPT, **params)
    salt = os.urandom(16) if salt is None else salt
    key = hashlib.scrypt(pin.encode(), salt=salt, dklen=DKLEN, maxmem=64 * 1024 * 1024,
                         **params)
    return {"kdf": "scrypt", **params, "salt": salt.hex(), "hash": key.hex()}


def verify_pin(entry, pin):
    """True if `pin` derives the entry's key (a constant-time comparison)."""
    try:
        params = {k: int(entry[k]) for k in ("n", "r", "p")}
        salt, want = bytes.fromhex(entry["salt"]), bytes.fromhex(entry["hash"])
        if entry.get("kdf") != "scrypt":
            return False
    except (KeyError, TypeError, ValueError):
        return False
    got = hashlib.scrypt(pin.encode(), salt=salt, dklen=len(want),
                         maxmem=64 * 1024 * 1024, **params)
    return hmac.compare_digest(got, want)


_DUMMIES = {}              # scrypt parameters -> an entry no PIN matches (PinStore.dummy)


class PinStore:
    """The PIN file at `path`; `params` override the scrypt cost (tests use a lower n)."""

    def __init__(self, path, **params):
        self.path = path
        self.params = params

    def load(self):
        """{role: entry}; an absent file is empty, an unreadable one is PinStoreError."""
        try:
            with open(self.path) as f:
                doc = json.load(f)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            raise PinStoreError("PIN file %s cannot be read: %s" % (self.path, e))
        if not isinstance(doc, dict) or doc.get("format") != FORMAT or \
                not isinstance(doc.get("pins"), dict):
            raise PinStoreError("PIN file %s is not a %s file" % (self.path, FORMAT))
        return doc["pins"]

    def set(self, role, pin):
        """Store a new PIN for `role` (fresh salt), atomically, mode 0600."""
        if role not in ROLES:
            raise PinStoreError("unknown role %r; one of %s" % (role, ", ".join(ROLES)))
        check_pin(pin)
        pins = self.load()
        pins[role] = hash_pin(pin, **self.params)
        folder = os.path.dirname(os.path.abspath(self.path))
        tmp = os.path.join(folder, ".%s.tmp" % os.path.basename(self.path))
        try:
            os.makedirs(folder, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                json.dump({"format": FORMAT, "pins": pins}, f, indent=1, sort_keys=True)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except OSError as e:
            raise PinStoreError("PIN file %s cannot be written: %s" % (self.path, e.strerror))

    def verify(self, role, pin):
        """True only for a known role whose stored PIN is `pin`. Costs one scrypt whatever
        the answer, so the time taken does not tell which roles have a PIN."""
        try:
            entry = self.load().get(role) if role in ROLES else None
        except PinStoreError:
            entry = None
        if not isinstance(entry, dict):
            verify_pin(self.dummy(), pin)
            return False
        return verify_pin(entry, pin)

    def dummy(self):
        """An entry no PIN matches, at the cost of the real ones (the file's own parameters,
        else this store's): an unknown role or a role without a PIN takes as long as a real
        one, so the time taken does not tell which roles exist."""
        try:
            entries = [e for e in self.load().values() if isinstance(e, dict)]
        except PinStoreError:
            entries = []
        params = dict(SCRYPT, **self.params)
        for e in entries:
            try:
                params = {k: int(e[k]) for k in ("n", "r", "p")}
                break
            except (KeyError, TypeError, ValueError):
                continue
        key = tuple(sorted(params.items()))
        if key not in _DUMMIES:
            _DUMMIES[key] = hash_pin("0000000", salt=b"\0" * 16, **params)
        return _DUMMIES[key]


class LoginGuard:
    """Failed log-ins in a row; `max_failures` of them lock the console for `lock_s`.

    With a `state_path` (the console uses the PIN file's path + ".lock"), the count and the
    lock survive a restart: they are written there (atomically, mode 0600) at every change,
    with the lock's end on the wall clock (`wall`, injectable), since the monotonic clock
    restarts with the machine. A state file that cannot be read locks the console for
    `lock_s` (nothing silent: the reason is `problem`); one that cannot be written is logged
    and the lock holds in memory."""

    def __init__(self, clock, max_failures=5, lock_s=300, state_path=None, wall=None):
        import time
        self.clock = clock
        self.max_failures = max_failures
        self.lock_ns = int(lock_s * 1e9)
        self.failures = 0
        self.locked_until = None
        self.state_path = state_path
        self.wall = wall or time.time_ns
        self.problem = None
        if state_path:
            self._load()

    def _load(self):
        try:
            with open(self.state_path) as f:
                doc = json.load(f)
            failures = int(doc.get("failures", 0))
            until = doc.get("locked_until_wall_ns")
            until = None if until is None else int(until)
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, AttributeError) as e:
            self.problem = "log-in lock file %s cannot be read (%s): locked" % (
                self.state_path, e)
            self.failures, self.locked_until = self.max_failures, self.clock() + self.lock_ns
            return
        self.failures = max(0, failures)
        if until is not None:
            left = min(until - self.wall(), self.lock_ns)
            if left > 0:
                self.locked_until = self.clock() + left

    def _save(self):
        if not self.state_path:
            return
        left = self.remaining_ns(save=False)
        doc = {"failures": self.failures,
               "locked_until_wall_ns": self.wall() + left if left else None}
        tmp = self.state_path + ".tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                json.dump(doc, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.state_path)
        except OSError as e:
            import logging
            logging.getLogger(__name__).warning("log-in lock file %s: %s", self.state_path, e)

    def remaining_ns(self, save=True):
        """ns until the console unlocks; 0 when it is not locked."""
        if self.locked_until is None:
            return 0
        left = self.locked_until - self.clock()
        if left > 0:
            return left
        self.locked_until, self.failures = None, 0
        if save:
            self._save()
        return 0

    def failed(self):
        """Count one failure; True if the console is now locked."""
        self.failures += 1
        locked = self.failures >= self.max_failures
        if locked:
            self.locked_until = self.clock() + self.lock_ns
        self._save()
        return locked

    def succeeded(self):
        if self.failures:
            self.failures = 0
            self._save()


# `tablectl passwd ROLE` is controller/cli_passwd.py (the command line's, not the console's).
