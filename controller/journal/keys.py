"""The secret key of a keyed journal: read from its file, and named by a key id.

A keyed chain (chain.py) is an HMAC under this key, so whoever rewrites the file cannot
recompute it without the key. The key file is refused, as ssh refuses a private key, when
anyone but its owner may read or write it: a key others can read is no secret. The key is
the file's bytes less surrounding whitespace (so `openssl rand -hex 32 > FILE` and raw
random bytes both work), at least MIN_BYTES of them.

The key id written in the journal's meta is a hash of the key under its own prefix: it
tells a wrong key from the right one without the key being in the file.
"""

import hashlib
import os
import stat

from controller.errors import JournalError

MIN_BYTES = 16


def key_id(key):
    return hashlib.sha256(b"tablectl journal key id\0" + key).hexdigest()[:16]


def read_key(path):
    """The key in the file at `path`; JournalError naming the file when it cannot be one."""
    try:
        with open(path, "rb") as f:
            mode = os.fstat(f.fileno()).st_mode
            data = f.read()
    except OSError as e:
        raise JournalError("journal key %s: %s" % (path, e.strerror))
    if not stat.S_ISREG(mode):
        raise JournalError("journal key %s: not a regular file" % path)
    if mode & 0o077:
        raise JournalError("journal key %s is accessible by group or others (mode %04o): "
                           "a key others can read is no secret; chmod 600 %s"
                           % (path, stat.S_IMODE(mode), path))
    key = data.strip()
    if len(key) < MIN_BYTES:
        raise JournalError("journal key %s holds %d bytes; a key is at least %d (e.g. "
                           "openssl rand -hex 32)" % (path, len(key), MIN_BYTES))
    return key
