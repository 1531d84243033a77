"""The floor page's login (issue 31): who may confirm a jackpot.

A linked progressive's award waits, locked, until a floor supervisor confirms on the floor
page having seen the cards (and a second, different one above the link's `second_above`).
The confirmation names the person, so the page needs logins:

    users file   a JSON object {name: {"role": "viewer"|"supervisor", "hash": "..."}}, mode
                 0600, given to the floor service (`tablectl floor --users-file F`), written
                 by `tablectl floor user add NAME --role ROLE --users-file F`. The hash is
                 salted scrypt (hashlib's: `scrypt$N$r$p$SALT$HASH`, base64), as the
                 console's PINs are kept: a copy of the file gives no one a password.
    session      a random token (secrets, 256 bits) in an HttpOnly, SameSite=Strict cookie,
                 held in the service's memory only (a restart logs everyone out), ended by
                 logging out or after SESSION_S.
    roles        viewer: the page; supervisor: the page and confirming an award.

HTTPS is out of scope here: the page is served on loopback in the tests and the demo; on a
casino floor it goes behind the casino's TLS terminator (the cookie then also wants Secure),
else a password and the session cookie cross the floor's network in clear.
"""

import base64
import hashlib
import hmac
import json
import os
import secrets
import time

from controller.errors import ConfigError

ROLES = ("viewer", "supervisor")
COOKIE = "tablectl_floor_session"
SESSION_S = 8 * 3600
SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}
MIN_PASSWORD = 10
NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def _b64(raw):
    return base64.b64encode(raw).decode()


def hash_password(password, salt=None):
    salt = salt or os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, maxmem=2 ** 26, dklen=32,
                            **SCRYPT)
    return "scrypt$%d$%d$%d$%s$%s" % (SCRYPT["n"], SCRYPT["r"], SCRYPT["p"], _b64(salt),
                                      _b64(digest))


def check_password(password, stored):
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), n=int(n),
                             r=int(r), p=int(p), maxmem=2 ** 26, dklen=32)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, base64.b64decode(digest))


def check_name(name):
    if not isinstance(name, str) or not 1 <= len(name) <= 64 or set(name) - NAME_CHARS:
        raise ConfigError("user %r: 1 to 64 letters, digits, '.', '_' or '-'" % (name,))
    return name


class Users:
    """The users file, read at start (and again when it changed)."""

    def __init__(self, path):
        self.path = path
        self.users = {}
        self._mtime = None
        self.reload()

    def reload(self):
        try:
            mtime = os.stat(self.path).st_mtime_ns
        except OSError as e:
            raise ConfigError("users file %s: %s" % (self.path, e.strerror))
        if mtime == self._mtime:
            return
        self.users = read_users(self.path)
        self._mtime = mtime

    def check(self, name, password):
        """The user's role if `password` is theirs, else None (the same time either way)."""
        try:
            self.reload()
        except ConfigError:
            return None
        user = self.users.get(name)
        stored = user["hash"] if user else hash_password("-", b"0" * 16)
        ok = check_password(password or "", stored)
        return user["role"] if user and ok else None


def read_users(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        raise ConfigError("users file %s: %s" % (path, e.strerror))
    except ValueError:
        raise ConfigError("users file %s: not JSON" % path)
    if not isinstance(doc, dict):
        raise ConfigError("users file %s: an object {name: {role, hash}}" % path)
    for name, user in doc.items():
        check_name(name)
        if not isinstance(user, dict) or user.get("role") not in ROLES or \
                not str(user.get("hash", "")).startswith("scrypt$"):
            raise ConfigError("users file %s: %s needs a role (%s) and a hash" % (
                path, name, " or ".join(ROLES)))
    return doc


def add_user(path, name, role, password):
    """Add or change a user in the users file (created 0600)."""
    check_name(name)
    if role not in ROLES:
        raise ConfigError("role %r: %s" % (role, " or ".join(ROLES)))
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise ConfigError("a password of at least %d characters" % MIN_PASSWORD)
    users = read_users(path) if os.path.exists(path) else {}
    users[name] = {"role": role, "hash": hash_password(password)}
    tmp = path + ".new"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(users, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


class Sessions:
    """Logged-in people: token -> {user, role, expires}; in memory only."""

    def __init__(self, clock=time.monotonic, ttl_s=SESSION_S):
        self.clock, self.ttl_s = clock, ttl_s
        self.by_token = {}

    def new(self, user, role):
        token = secrets.token_urlsafe(32)
        self.by_token[token] = {"user": user, "role": role,
                                "expires": self.clock() + self.ttl_s}
        return token

    def get(self, token):
        s = self.by_token.get(token or "")
        if s is None:
            return None
        if self.clock() >= s["expires"]:
            del self.by_token[token]
            return None
        return s

    def end(self, token):
        self.by_token.pop(token or "", None)
