"""A link's definition on the wire: read it, record a new version of it (the LINKS stream,
then config.<link> by compare-and-set), and who is on the link now. Used by the commands
(linkcli.py), reconcile.py (which takes a link down) and the bench."""

import asyncio
import json

from controller.wire import links as L
from controller.wire import subjects as S

LIVE_LISTEN_S = 1.0


class Refused(Exception):
    """A command the link's state refuses (one line: why)."""


def _password(args):
    from controller.wire.uplink import read_password
    pw = getattr(args, "password_file", None)
    return read_password(pw) if pw else None


async def open_floor(args):
    from controller.floor.linkctl import connect, ensure_link_streams
    nc = await connect(args.nats, getattr(args, "user", None) or "floor", _password(args),
                       getattr(args, "ca_file", None), name="tablectl-floor", reconnect=False)
    js = nc.jetstream(timeout=5)
    kv = await ensure_link_streams(js, getattr(args, "replicas", None) or 1)
    return nc, js, kv


async def connected_tables(nc, link, tables, listen_s=LIVE_LISTEN_S):
    """The link's tables heard on their link status subject within `listen_s`."""
    heard = set()

    async def on(msg):
        t = S.table_of(msg.subject)
        if t in tables:
            heard.add(t)
    sub = await nc.subscribe("%s.linkstatus.%s.*" % (S.PREFIX, link), cb=on)
    await asyncio.sleep(listen_s)
    await sub.unsubscribe()
    return sorted(heard)


async def read_config(kv, link):
    from controller.floor.linkctl import kv_entry
    raw, rev = await kv_entry(kv, S.config_key(link))
    return (json.loads(raw) if raw is not None else None), rev


async def write_version(nc, js, kv, old, rev, new, listen_s=LIVE_LISTEN_S, secret=None):
    """Record `new` (checked, its version the next) on the stream, then in the bucket.
    Returns (the definition recorded, the keys changed). Raises Refused. `secret`: the
    floor's NATS password, which tags the message id (signing.secret_message_id) so a
    table's password cannot store something under the next version's id first."""
    from controller.wire.signing import secret_message_id
    from nats.js.errors import KeyWrongLastSequenceError
    changes = L.changed(old, new) + ([] if old is None or
                                     old.get("operable", True) == new["operable"]
                                     else ["operable"])
    if not changes:
        return old, []
    live = [k for k in L.LIVE_REFUSED if k in changes] if old is not None else []
    if live:
        on = await connected_tables(nc, new["link"], set(old["tables"]) | set(new["tables"]),
                                    listen_s)
        if on:
            raise Refused("link %s: %s not changed while its tables are on the link (%s "
                          "connected; New York's 9 NYCRR 5321.18, kept as practice): take them "
                          "off the link first"
                          % (new["link"], " and ".join(live), ", ".join(on)))
    doc = dict(new, type="config")
    msg_id = secret_message_id(secret, "config:%s:%d" % (new["link"], new["version"]))
    ack = await js.publish(S.linkcfg_subject(new["link"]), json.dumps(doc, sort_keys=True)
                           .encode(), headers={"Nats-Msg-Id": msg_id})
    if ack.duplicate:
        raise Refused("link %s: version %d is already on the stream (a define interrupted "
                      "or run at the same time); run `link show` and define again"
                      % (new["link"], new["version"]))
    value = json.dumps(new, sort_keys=True).encode()
    try:
        if rev is None:
            await kv.create(S.config_key(new["link"]), value)
        else:
            await kv.update(S.config_key(new["link"]), value, last=rev)
    except KeyWrongLastSequenceError:
        raise Refused("link %s: its definition was changed meanwhile by another define; "
                      "run `link show` and define again" % new["link"])
    return new, changes
