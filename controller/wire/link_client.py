"""The table's link client: its side of a linked progressive (docs/linked-progressives.md).

A part of the one runtime (controller/runtime.py register_part), like the uplink: on the
process's floor loop, sharing the process's one NATS connection of the table's credential
with the uplink and the other link clients (connection.py), so the game loop never waits for
the link. It holds nothing the table would lose in a crash: what is owed to the link
(contributions asked, withdrawals, hits) lives in the game's linked meter
(controller/progressive.py), journaled with the table; after each step of the controller the
client is handed a copy of it and sends what it has not sent yet. Every message carries the
Nats-Msg-Id "<type>:<link>:<table>:<round>:<seat>:<tag>", the tag made by the table's own
signing key (signing.message_id), so one sent again (a lost acknowledgement, a reconnect, a
restart) is stored once by the link's stream, its acknowledgement naming the stream sequence
of the first copy, and no one holding only the table's NATS password can store a forgery
under it first (issue 31: with a guessable id the stream dropped the table's own message as a
duplicate of the forgery, and the wager was accepted on the forgery's acknowledgement).

A duplicate acknowledgement of a message this process never published, and the table did
not owe when the process started (so no earlier process of it can have sent it), means the
stream holds something else under the table's id: an integrity alarm (`integrity` in the
status, the console's announce, the log). A contribution's wager is not accepted on it: the
wager stays asked, unacknowledged, and is refused at the lock-out like any wager the link
did not take (669a.2(c)(1), 670a.2(c)(1): only a wager the system acknowledges is accepted).

What comes back from the link reaches the table only as INPUT events through `ctl.submit`,
journaled before they are applied:
    link_contribution  {link, id, seq, seat, wager}   the contribution stored: wager accepted
    link_withdraw      {link, id, seq, seat, wager}   the withdrawal stored
    link_award         {link, id, seq, seat, amount}  the award of a hit (seq: the hit's)
    link_meter         {link, value, applied_seq}     the link's meter changed
    link_state         {link, up, value?, applied_seq?}  lost; or back, with the meter
The floor's reconcile compares link_contribution, link_withdraw and link_award with the
link's records.

Link up means the connection is up and a meter message came within LIVE_S; the client looks
every TICK_S, so a lost link is told to the table within LIVE_S + TICK_S (under the 0.5 s the
contract asks). A hit's award is taken from the award subject as it is made, or read back
(direct get of its award entry) after every connect: a hit sent before a crash, a cut or a
restart is paid once, when the award is there.
"""

import asyncio
import copy
import json
import logging
import threading
import time

from controller.wire.aio import connection_or_stop, pause
from controller.wire import links as L
from controller.wire import signing
from controller.wire import subjects as S
from controller.wire.connection import join, leave

log = logging.getLogger(__name__)

LIVE_S = 0.3             # a meter message at least this often, or the link is down
TICK_S = 0.05            # how often the client looks
STATUS_EVERY_S = 0.1     # "this table is on the link"
METER_EVERY_S = 0.2      # a changed meter is told the table at most this often (< 1 s)
RETRY_S = 0.25
LOOKUP_EVERY_S = 1.0     # an owed hit's award entry is read back this often (and at each up)


# ---- the names of the contract: controller/wire/subjects.py ----------------------------

KV_BUCKET = S.LINK_BUCKET
KV_STREAM = "KV_" + KV_BUCKET
meter_subject, linkstatus_subject, award_key = S.meter_subject, S.linkstatus_subject, \
    S.award_key


def kv_subject(key):
    return "$KV.%s.%s" % (KV_BUCKET, key)


def journal_position(ctl):
    """The table's journal position now: the last row its store wrote (the count of its
    inputs for a table without a journal file)."""
    store = getattr(ctl, "store", None)
    seq = getattr(store, "last_seq", None)
    return seq if isinstance(seq, int) else ctl.seq


def outbox_of(model, link_id=None):
    """A copy of what the model's meter on link `link_id` owes the link (or None: no meter
    of the model is on it). Without `link_id`: the model's one linked meter."""
    from controller.progressive import linked_meters, meter_of_link
    if link_id is None:
        meters = list(linked_meters(model).values())
        meter = meters[0] if len(meters) == 1 else None
    else:
        meter = meter_of_link(model, link_id)[1]
    if meter is None:
        return None
    lk = meter["link"]
    return {"link": lk["id"], "asked": copy.deepcopy(lk["asked"]),
            "withdraw": copy.deepcopy(lk["withdraw"]), "hits": copy.deepcopy(lk["hits"]),
            "up": lk["up"] and lk["synced"], "value": meter["value"]}


def owed(box):
    """{(kind, key)} of what an outbox owes the link: what an earlier process of the table
    may have published already."""
    box = box or {}
    return {(kind, k) for kind, part in (("contribution", "asked"), ("withdraw", "withdraw"),
                                         ("hit", "hits")) for k in box.get(part, {})}


class LinkClient:
    """Table `table_id`'s client of link `link_id` at the NATS `url`, feeding `ctl`."""

    def __init__(self, ctl, table_id, link_id, url, user=None, password=None, ca_file=None,
                 signing_key=None):
        self.ctl = ctl
        # the table's own Ed25519 key (controller/wire/signing.py): the link takes nothing
        # about money on the NATS password alone (issue 31)
        self.signing_key = signing_key
        self.jseq = journal_position(ctl)
        self.table_id = S.check_table_id(table_id)
        self.link_id = S.check_table_id(link_id)
        self.subject = S.link_subject(link_id, table_id)
        self.url, self.user, self.password = url, user or table_id, password
        self.ca_file = ca_file
        self.state, self.since = "down", time.time()
        self.last_error = None
        self.meter = None                 # the link's meter entry as last heard
        self.heard = 0.0                  # monotonic time of the last meter message
        self.told = None                  # (up, (value, pending)) last submitted to the table
        self.told_at = 0.0
        self.outbox = None
        self.done = set()                 # msg ids acknowledged and submitted (this process)
        self.awarded = set()              # hit ids whose award was submitted
        self.before = set()               # (kind, key) owed when this process started
        self.tried = set()                # msg ids this process has published (answered
                                          # or not)
        self.integrity = []               # duplicate acknowledgements not of this table
        self.on_integrity = []            # fn(alarm): the console
        self.stats = {"published": 0, "acks": 0, "awards": 0, "meters": 0, "downs": 0}
        self.down_at = None               # monotonic time the link was found lost
        self.down_told_s = []             # loss found -> link_state submitted, seconds
        self.looked_up = 0.0
        # the paytable this table's configuration sets for its wager on the link, which it
        # announces with each hit, and why the link's declared one differs (None: the same)
        from controller.progressive import meter_of_link
        self.wager = meter_of_link(ctl.model, self.link_id)[0]
        self.paytable = L.table_paytable(ctl.model, self.wager)
        self.mismatch = None
        self._checked = None
        self._task = self._loop = self._stop = self._wake = None
        self._shared = None
        self._subs = []

    # ---- the part ------------------------------------------------------------------------

    name = "progressive link"

    def start(self):
        self.outbox = outbox_of(self.ctl.model, self.link_id)
        self.before = owed(self.outbox)
        if self.outbox is not None and not self.outbox["up"]:
            self.told = (False, None)     # the table knows already: nothing to journal
        self.ctl.step_watchers.append(self._on_step)
        ready = threading.Event()
        self._task = join(self).submit(self._main(ready))
        ready.wait(5)
        return self

    def stop(self):
        if self._on_step in self.ctl.step_watchers:
            self.ctl.step_watchers.remove(self._on_step)
        if self._task is None:
            return
        leave(self, "link %s" % self.link_id, log)

    def _on_step(self, ctl):
        """After each step of the controller (its loop's thread): what is owed, if it
        changed, handed to the client's loop."""
        self.jseq = journal_position(ctl)
        box = outbox_of(ctl.model, self.link_id)
        if box is None or box == self.outbox:
            return
        self.outbox = box
        if self._loop is not None and self._wake is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    def status(self):
        box = self.outbox or {}
        return {"link": self.link_id, "state": self.state, "since": self.since,
                "meter": (self.meter or {}).get("value"), "error": self.last_error,
                "pending_hits": sorted(box.get("hits", {})),
                "asked": sorted(box.get("asked", {})),
                "withdraw": sorted(box.get("withdraw", {})), "stats": dict(self.stats),
                "integrity": list(self.integrity)}

    def _alarm(self, kind, key, msg_id, seq):
        """The stream acknowledged `msg_id` as a duplicate of a message this table never
        stored: an integrity alarm, told once per id."""
        if any(a["msg_id"] == msg_id for a in self.integrity):
            return
        why = ("link %s's stream holds another message under this table's %s id %s (stream "
               "seq %s): the table never sent it%s" % (
                   self.link_id, kind, msg_id, seq,
                   "; the wager is not accepted on its acknowledgement"
                   if kind == "contribution" else ""))
        alarm = {"kind": kind, "key": key, "msg_id": msg_id, "stream_seq": seq, "why": why,
                 "at": self.ctl.clock()}
        self.integrity = (self.integrity + [alarm])[-10:]
        self.last_error = why
        log.error("link %s: integrity: %s", self.link_id, why)
        for fn in list(self.on_integrity):
            try:
                fn(alarm)
            except Exception as e:              # noqa: BLE001 - the others still told
                log.warning("link %s: telling an integrity alarm: %s", self.link_id, e)

    # ---- the thread ----------------------------------------------------------------------

    def _submit(self, kind, data):
        from controller.games.events import Event
        self.ctl.submit(Event(kind, dict(data, link=self.link_id), "link", self.ctl.clock()))

    def _set(self, state, error=None):
        if state != self.state:
            self.state, self.since = state, time.time()
        if error is not None:
            self.last_error = error

    def _tell_down(self):
        """The table told the link is lost (once per outage)."""
        if self.told is None or self.told[0]:
            self._submit("link_state", {"up": False})
            self.told, self.told_at = (False, None), time.monotonic()
            self.stats["downs"] += 1
            if self.down_at is not None:
                self.down_told_s.append(time.monotonic() - self.down_at)

    async def _main(self, ready):
        self._stop, self._wake = asyncio.Event(), asyncio.Event()
        ready.set()
        self._tell_down()                # until the link's meter is heard
        while not self._stop.is_set():
            nc = None
            try:
                nc = await connection_or_stop(self._shared.get, self._stop, self.url)
                await self._session(nc)
            except asyncio.CancelledError:
                raise
            except Exception as e:              # noqa: BLE001 - any failure: down, retry
                self._set("down", "%s: %s" % (type(e).__name__, e))
            finally:
                if self.down_at is None:
                    self.down_at = time.monotonic()
                self._tell_down()
                self.heard = 0.0
                for sub in self._subs:          # its own, off the shared connection
                    try:
                        await sub.unsubscribe()
                    except Exception:           # noqa: BLE001 - a connection already gone
                        pass
                self._subs = []
                await self._shared.release(nc)  # closed only if it is broken
            if not self._stop.is_set():
                await pause(self._stop, RETRY_S)

    async def _on_error(self, e):
        self.last_error = "%s: %s" % (type(e).__name__, e)

    async def _session(self, nc):
        js = nc.jetstream(timeout=2)
        self._subs = [await nc.subscribe(meter_subject(self.link_id), cb=self._on_meter),
                      await nc.subscribe(S.award_subject(self.link_id, self.table_id),
                                         cb=self._on_award)]
        await nc.flush(2)
        self.down_at = None
        self.looked_up = 0.0              # when the owed hits' award entries were last read
        next_status = 0.0
        while not self._stop.is_set():
            self._wake.clear()            # before the work: a step's wake-up is never lost
            now = time.monotonic()
            if not nc.is_connected:
                self.down_at = now
                raise ConnectionError("connection lost")
            live = self.heard and now - self.heard <= LIVE_S and \
                (self.meter or {}).get("operable", True) is not False and \
                self.mismatch is None
            if not live:
                if self.state == "up":
                    self.down_at = self.heard + LIVE_S if self.heard else now
                    self._set("down", self.mismatch or "no meter from link %s within %.1f s"
                              % (self.link_id, LIVE_S))
                    self._tell_down()
                    self.down_at = None
            else:
                self._set("up")
                self._tell_meter(now)
            if now >= next_status:
                await self._publish_status(nc)
                next_status = now + STATUS_EVERY_S
            if self.state == "up" and self.told and self.told[0]:
                await self._send_owed(js)
                # the award of a hit owed, read back: after a connect, when the link comes
                # back (a controller restarted), and every LOOKUP_EVERY_S while one is owed
                if (self.outbox or {}).get("hits") and \
                        now - self.looked_up >= LOOKUP_EVERY_S:
                    await self._look_up_awards(js)
                    self.looked_up = time.monotonic()
            try:
                await asyncio.wait_for(self._wake.wait(), TICK_S)
            except asyncio.TimeoutError:
                pass

    def _tell_meter(self, now):
        """The link's meter to the table: at once when the link comes back (with the meter
        it re-synchronises to), then each change at most every METER_EVERY_S."""
        m = self.meter or {}
        value = m.get("value")
        if not isinstance(value, int):
            return
        # the jackpots locked on the link, waiting for a supervisor (issue 31): shown as
        # pending on every table's meter display (a link that keeps none sends none)
        extra = {}
        if isinstance(m.get("pending"), list):
            extra["pending"] = sum(a.get("amount", 0) for a in m["pending"]
                                   if isinstance(a, dict) and isinstance(a.get("amount"), int))
        shown = (value, extra.get("pending"))
        if self.told is None or not self.told[0]:
            self._submit("link_state", dict(extra, up=True, value=value,
                                            applied_seq=m.get("applied_seq")))
            self.told, self.told_at = (True, shown), now
            self.looked_up = 0.0          # back: read the owed awards at once
        elif self.told[1] != shown and now - self.told_at >= METER_EVERY_S:
            self._submit("link_meter", dict(extra, value=value,
                                            applied_seq=m.get("applied_seq")))
            self.told, self.told_at = (True, shown), now
            self.stats["meters"] += 1

    async def _on_meter(self, msg):
        try:
            doc = json.loads(msg.data)
        except ValueError:
            return
        if isinstance(doc, dict) and doc.get("link", self.link_id) == self.link_id:
            self._check_paytable(doc)
            self.meter = doc
            self.heard = time.monotonic()

    def _check_paytable(self, doc):
        """The link's declared paytable (its meter carries its definition) against this
        table's configured one: while they differ the link is not up for this table, so its
        progressive wager is refused at the table (progressive.link_up), and says why."""
        declared = (doc.get("game"), doc.get("wager"), doc.get("paytable"))
        if declared == self._checked or doc.get("game") is None:
            return
        self._checked = declared
        why = L.paytable_differs(doc["game"], self.wager, doc.get("paytable"), self.paytable)
        self.mismatch = None if why is None else (
            "link %s's paytable is not this table's configuration (%s): its progressive is "
            "not played" % (self.link_id, why))
        if why is not None:
            log.warning("%s", self.mismatch)
            self.last_error = self.mismatch

    async def _on_award(self, msg):
        try:
            self._award(json.loads(msg.data))
        except (ValueError, TypeError):
            log.warning("link %s: an award that is not JSON", self.link_id)

    def _award(self, doc):
        if not isinstance(doc, dict) or doc.get("type", "award") != "award":
            return
        wire_id = doc.get("id")
        if doc.get("table") not in (None, self.table_id) or wire_id in self.awarded:
            return
        key = str(wire_id).split(":", 1)[-1]
        if key not in (self.outbox or {}).get("hits", {}):
            return                        # not a hit this table owes (paid already)
        self.awarded.add(wire_id)
        self.stats["awards"] += 1
        self._submit("link_award", {"id": wire_id, "seq": doc.get("seq"),
                                    "seat": str(doc.get("seat")), "amount": doc.get("amount")})

    def _wire_id(self, key):
        return "%s:%s" % (self.table_id, key)

    async def _send_owed(self, js):
        box = self.outbox or {}
        for kind, entries in (("contribution", box.get("asked", {})),
                              ("withdraw", box.get("withdraw", {})),
                              ("hit", box.get("hits", {}))):
            # hits in the order the table settled them (the seats from the dealer's right):
            # the link pays them in its stream's order (669a.12(e)(4), 670a.12(d)(3))
            for key, entry in sorted(entries.items(), key=lambda kv: (kv[1].get("n", 0),
                                                                      kv[0])):
                if kind == "withdraw":
                    # its contribution first, sent again (stored once): so the link has
                    # applied what is withdrawn, and the journal holds both (the floor's
                    # reconcile finds a withdraw only of a contribution it knows)
                    await self._send(js, "contribution", key, entry, again=True)
                await self._send(js, kind, key, entry)

    async def _send(self, js, kind, key, entry, again=False):
        """One message, unless this process sent it already; its acknowledgement (a
        duplicate's names the first copy's sequence) handed to the table as an input.
        `again`: a contribution sent once more before its withdraw, which an earlier process
        may have had acknowledged (its duplicate is expected, and accepts no wager: the
        wager is being withdrawn)."""
        wire_id = self._wire_id(key)
        msg_id = signing.message_id(self.signing_key,
                                    S.link_msg_id(kind, self.link_id, wire_id))
        if msg_id in self.done:
            return
        doc = {"type": kind, "id": wire_id, "link": self.link_id,
               "table": self.table_id, "round": entry["round"],
               "seat": entry["seat"], "ts_ns": time.time_ns()}
        if kind == "hit":
            doc.update(hand=entry["hand"], share=entry["share"], cseq=entry.get("cseq"),
                       paytable=self.paytable)   # announced: the link checks it is its own
            if "dealer" in entry:
                doc["dealer"] = entry["dealer"]
        else:
            doc["wager"] = entry["wager"]
        doc["jseq"] = self.jseq           # its journal position: a hit is not replayed
        if self.signing_key is not None:
            doc = signing.sign(self.signing_key, doc)
        ours = again or msg_id in self.tried or (kind, key) in self.before
        self.tried.add(msg_id)            # before the publish: its answer may be lost
        ack = await js.publish(self.subject, json.dumps(doc).encode(),
                               headers={"Nats-Msg-Id": msg_id})
        self.stats["published"] += 1
        self.done.add(msg_id)
        if ack.duplicate and not ours:
            # never published by this process, not owed at its start: not the table's
            self._alarm(kind, key, msg_id, ack.seq)
            if kind == "contribution":
                return            # not accepted: asked still, refused at the lock-out
        if kind == "hit":
            return                # its answer is the award
        self.stats["acks"] += 1
        self._submit("link_contribution" if kind == "contribution" else
                     "link_withdraw", {"id": wire_id, "seq": ack.seq,
                                       "seat": entry["seat"], "wager": entry["wager"]})

    async def _look_up_awards(self, js):
        """After a connect: each owed hit's award entry, if the link made it meanwhile."""
        from nats.js.errors import NotFoundError
        for key, hit in sorted(((self.outbox or {}).get("hits") or {}).items()):
            subject = kv_subject(award_key(self.link_id, self.table_id, hit["round"],
                                           hit["seat"]))
            try:
                raw = await js.get_last_msg(KV_STREAM, subject, direct=True)
            except NotFoundError:
                continue
            if raw.data:
                try:
                    self._award(json.loads(raw.data))
                except ValueError:
                    log.warning("link %s: award entry %s is not JSON", self.link_id, subject)

    async def _publish_status(self, nc):
        box = self.outbox or {}
        await nc.publish(linkstatus_subject(self.link_id, self.table_id), json.dumps(
            {"table": self.table_id, "link": self.link_id, "state": self.state,
             "pending_hits": sorted(box.get("hits", {})), "ts_ns": time.time_ns()}).encode())


class ProgressiveLink:
    """The link client as one registered part of a Runtime: built at start, when the
    controller (its journal replayed) is there; its status on the console's `meters`."""

    name = "progressive link"

    def __init__(self, runtime, table_id, link_id, url, password, ca_file=None,
                 signing_key=None):
        from controller.errors import ConfigError
        self.signing_key = signing_key
        try:
            S.check_table_id(table_id)
            S.check_table_id(link_id)
        except ValueError as e:
            raise ConfigError(str(e))
        self.runtime = runtime
        self.args = (table_id, link_id, url, password, ca_file)
        self.client = None

    def start(self):
        table_id, link_id, url, password, ca_file = self.args
        ctl = self.runtime.ctl
        from controller.progressive import meter_of_link
        if meter_of_link(ctl.model, link_id)[1] is None:
            from controller.errors import ConfigError
            raise ConfigError("controller.floor.link %s: %s has no Progressive Payout Wager "
                              "to link (none of its progressive wagers is on that link)"
                              % (link_id, ctl.model.GAME))
        self.client = LinkClient(ctl, table_id, link_id, url, password=password,
                                 ca_file=ca_file, signing_key=self.signing_key)
        console = getattr(self.runtime, "console", None)
        if console is not None and hasattr(console, "announce"):
            self.client.on_integrity.append(lambda a: console.announce(
                "*** LINK INTEGRITY: %s (tell the floor)" % a["why"]))
        self.client.start()
        # one status per link (a Blackjack table may be on three): the summary's and the
        # console's `progressive_link` gives the one link's, or all of them by link
        statuses = getattr(ctl, "progressive_links", None)
        if statuses is None:
            statuses = ctl.progressive_links = {}
        statuses[link_id] = self.client.status
        if len(statuses) == 1:
            ctl.progressive_link = self.client.status
        else:
            ctl.progressive_link = lambda: {k: f() for k, f in sorted(statuses.items())}

    def stop(self):
        if self.client is not None:
            self.client.stop()


def attach(host, table_id, link_id, url, password, ca_file=None, signing_key=None):
    """A ProgressiveLink registered with `host` (a Runtime or a Simulation); started at once
    when the host already runs. Returns the LinkClient (None until started)."""
    runtime = getattr(host, "runtime", host)
    part = ProgressiveLink(runtime, table_id, link_id, url, password, ca_file=ca_file,
                           signing_key=signing_key)
    runtime.register_part(part)
    return part.client
