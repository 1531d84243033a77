"""The table's own signature on what it sends about money (issue 31).

A table's NATS password says only "someone holding this table's password": a Pi stolen from
a table, a configuration copied off an SD card. A jackpot is paid on evidence, never on a
message, so every message a table sends its linked progressive (contribution, withdraw, hit)
is signed with an Ed25519 key of the table's own, a file beside its journal key that never
leaves the table. The link's controller holds only the public keys (a file of lines
"TABLE ed25519:BASE64"): whoever holds the floor's copy can check a table's signature but
cannot make one.

Ed25519 through `cryptography` (pyca): the signature NATS nkeys use, from the library that
also backs the TLS the floor already runs on; kept by a team that ships fixes for its
OpenSSL/Rust core within days, and with wheels for the Pi (aarch64) and MicroPython-free
CPython alike. Nothing of it is in the rules core.

What is signed is the canonical JSON of the message without its "sig" (keys sorted, no
spaces): the link, the table, the round, the seat, the hand, the share, the acknowledged
contribution's stream sequence and the table's journal position (`jseq`). Changing any of
them, or sending the message of one link on another, breaks the signature; sending the same
signed hit again is refused by the controller (an id it has answered, a journal position
before the table's last hit).

The key also makes the message ids the table sends under (`message_id`): an id anyone
could compute ("contribution:L1:T1:7:3") let someone holding only the table's password
store a forgery under it first, and the stream then dropped the table's own message as a
duplicate of the forgery (h31b's finding). Ed25519 is deterministic (RFC 8032: the nonce
is a hash of the key and the message), so the same id signed again after a reconnect or a
restart gives the same tag and the duplicate window still stores the message once.
"""

import base64
import binascii
import hashlib
import json
import os

from controller.errors import ConfigError

PREFIX = "ed25519:"


def canonical(doc):
    """The bytes a signature covers: the message without "sig", keys sorted, compact."""
    return json.dumps({k: v for k, v in doc.items() if k != "sig"}, sort_keys=True,
                      separators=(",", ":")).encode()


def _ed25519():
    from cryptography.hazmat.primitives.asymmetric import ed25519
    return ed25519


def new_key(path):
    """A new private key written to `path` (created, never over a file that is there; mode
    0600 from the start). Returns the public key's text."""
    from cryptography.hazmat.primitives import serialization
    key = _ed25519().Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise ConfigError("signing key %s is there already: a table keeps its key" % path)
    except OSError as e:
        raise ConfigError("signing key %s: %s" % (path, e.strerror or e))
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    return public_text(key)


def load_key(path):
    """The table's private key from its file (PEM, PKCS8): one-line ConfigError if not."""
    from cryptography.hazmat.primitives import serialization
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ConfigError("signing key %s: %s" % (path, e.strerror or e))
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise ConfigError("signing key %s: not an Ed25519 private key in PEM" % path)
    if not isinstance(key, _ed25519().Ed25519PrivateKey):
        raise ConfigError("signing key %s: not an Ed25519 key" % path)
    return key


def public_text(key):
    """"ed25519:BASE64" of a private or public key's public half."""
    from cryptography.hazmat.primitives import serialization
    pub = key.public_key() if hasattr(key, "public_key") else key
    raw = pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return PREFIX + base64.b64encode(raw).decode()


def parse_public(text):
    if not isinstance(text, str) or not text.startswith(PREFIX):
        raise ConfigError("public key %r: ed25519:BASE64" % (text,))
    try:
        raw = base64.b64decode(text[len(PREFIX):], validate=True)
        return _ed25519().Ed25519PublicKey.from_public_bytes(raw)
    except (binascii.Error, ValueError):
        raise ConfigError("public key %r: not 32 bytes of Ed25519 in base64" % (text,))


def load_public_keys(path):
    """{table: public key} from a file of lines "TABLE ed25519:BASE64" (# comments)."""
    from controller.wire.subjects import TABLE_ID
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ConfigError("table keys %s: %s" % (path, e.strerror or e))
    keys = {}
    for n, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or not TABLE_ID.match(parts[0]):
            raise ConfigError("table keys %s line %d: TABLE ed25519:BASE64" % (path, n))
        if parts[0] in keys:
            raise ConfigError("table keys %s line %d: %s is named twice" % (path, n, parts[0]))
        try:
            keys[parts[0]] = parse_public(parts[1])
        except ConfigError as e:
            raise ConfigError("table keys %s line %d: %s" % (path, n, e))
    return keys


def sign(key, doc):
    """`doc` with its "sig": the table's signature over canonical(doc)."""
    sig = key.sign(canonical(doc))
    return dict(doc, sig=base64.b64encode(sig).decode())


TAG_DOMAIN = b"tablectl message id\0"


def message_tag(key, text):
    """The part of a message id only the table's key makes: the first 128 bits of
    SHA-256 over its Ed25519 signature of `text` (domain-separated from the signatures on
    messages), in unpadded base64url (NATS header-safe). The same `text` always gives the
    same tag; without the key it cannot be guessed (2^128)."""
    sig = key.sign(TAG_DOMAIN + text.encode())
    return base64.urlsafe_b64encode(hashlib.sha256(sig).digest()[:16]).rstrip(b"=").decode()


def message_id(key, base):
    """The Nats-Msg-Id a table sends `base` (subjects.link_msg_id) under: "<base>:<tag>",
    or `base` itself without a key."""
    return base if key is None else "%s:%s" % (base, message_tag(key, base))


def secret_message_id(secret, base):
    """`base` with a tag only its sender makes: "<base>:<tag>", the tag an HMAC of `base`
    under `secret`, the sender's NATS password (the floor's for what the floor writes on the
    LINKS stream: a link's version, the controller's records, a supervisor's confirmation;
    a table's own for its journal rows). A stream's duplicate window spans all its subjects,
    so with `base` alone anyone able to publish on the stream (another table's password)
    could store junk under the sender's next id on a subject of its own and the sender's
    message was dropped as its duplicate (h31c). Deterministic: a controller restarted, a
    define run again, a row sent again store their message once. Without a secret (no
    password), `base` itself."""
    if not secret:
        return base
    import hmac
    tag = hmac.new(b"tablectl secret message id\0" + secret.encode(), base.encode(),
                   hashlib.sha256).digest()[:16]
    return "%s:%s" % (base, base64.urlsafe_b64encode(tag).rstrip(b"=").decode())


def verify(public, doc):
    """True if `doc`'s "sig" is `public`'s signature over the rest of it."""
    from cryptography.exceptions import InvalidSignature
    sig = doc.get("sig") if isinstance(doc, dict) else None
    if not isinstance(sig, str) or public is None:
        return False
    try:
        public.verify(base64.b64decode(sig, validate=True), canonical(doc))
        return True
    except (InvalidSignature, binascii.Error, ValueError):
        return False
