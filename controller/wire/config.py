"""The table configuration's `[controller.floor]` section: the table's floor link.

    [controller.floor]
    url            the floor's NATS, "nats://HOST:PORT" (several comma-separated: a cluster;
                   "tls://..." with TLS)
    table_id       the table's id on the floor, which is its NATS user
    password_file  the table's credential (first line; mode 0600 as the journal key's)
    ca_file        optional: the CA the servers' certificates are checked against (tls://)
    link           optional: the linked progressive this table's Progressive Payout Wager
                   is on (docs/linked-progressives.md); the table's meter is then the link's
    links          optional: a table of {progressive wager = "LINK"}, for a game with several
                   progressives (Blackjack's three, 633a.7(o)), each on a link of its own
    signing_key_file  the table's own Ed25519 key (PEM, mode 0600; controller/wire/signing.py):
                   every message to a link is signed with it, and the link pays nothing
                   unsigned; required with link or links
Keys not listed are refused, as every section's are.
"""

from controller.errors import ConfigError
from controller.wire.subjects import TABLE_ID

FLOOR_KEYS = ("url", "table_id", "password_file", "ca_file", "link", "links",
              "signing_key_file")
REQUIRED = ("url", "table_id", "password_file")


def check_floor(section):
    if not isinstance(section, dict):
        raise ConfigError("controller.floor must be a table")
    for key in section:
        if key not in FLOOR_KEYS:
            raise ConfigError("controller.floor.%s: unknown key; the keys are %s"
                              % (key, ", ".join(FLOOR_KEYS)))
    for key in REQUIRED:
        value = section.get(key)
        if not isinstance(value, str) or not value:
            raise ConfigError("controller.floor.%s is required (a string)" % key)
    if "ca_file" in section and (not isinstance(section["ca_file"], str) or
                                 not section["ca_file"]):
        raise ConfigError("controller.floor.ca_file must be a path")
    if not section["url"].startswith(("nats://", "tls://")):
        raise ConfigError("controller.floor.url must be nats://HOST:PORT or tls://HOST:PORT, "
                          "not %r" % section["url"])
    if not TABLE_ID.match(section["table_id"]):
        raise ConfigError("controller.floor.table_id %r: 1 to 64 letters, digits, '-' or '_'"
                          % section["table_id"])
    if "link" in section and (not isinstance(section["link"], str) or
                              not TABLE_ID.match(section["link"])):
        raise ConfigError("controller.floor.link %r: 1 to 64 letters, digits, '-' or '_'"
                          % (section["link"],))
    links = section.get("links", {})
    if not isinstance(links, dict) or "links" in section and "link" in section:
        raise ConfigError("controller.wire.links is a table {wager = \"LINK\"} (and not "
                          "beside link)")
    for wager, link in links.items():
        if not isinstance(link, str) or not TABLE_ID.match(link):
            raise ConfigError("controller.wire.links.%s %r: 1 to 64 letters, digits, '-' or "
                              "'_'" % (wager, link))
    key = section.get("signing_key_file")
    if key is not None and (not isinstance(key, str) or not key):
        raise ConfigError("controller.floor.signing_key_file must be a path")
    if (section.get("link") or links) and key is None:
        raise ConfigError("controller.floor.signing_key_file is required on a link: the link "
                          "pays nothing the table did not sign (tablectl signing-key)")
    return dict(section)
