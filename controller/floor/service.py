"""`tablectl floor`: the floor service.

It consumes every table's rows from the JOURNAL stream through one ordered consumer, folds
each table's rows (fold.py: chain continuity, state, meters), and at most every FLUSH_S
writes every table it folded to the FLOOR key-value bucket (`table.<id>`, and `anchor.<id>`
= SEQ:HASH of the last row received, the copy of the table's journal head that
`tablectl journal verify --head` takes), then `floor.position`, the stream sequence of the
last message folded. Killed at any point, it restarts from the bucket, after that position:
rows folded again (written to a table's entry but not yet to the position) are skipped as
redeliveries by the fold.

What is done with each row is a consumer's (DESIGN.md: "a floor consumer registers with the
service"): `register(consumer)` adds one, with `on_row(table, row, view)` (each row the fold
took, once, in the table's order; `view` the table's TableView, whose `slot(name)` is a
dict of the consumer's own saved with the table's entry, so a restarted floor goes on from
it exactly as the fold does) and `on_status(table, status)` (each live status). The fold is
the first consumer (`Fold`); the pit's figures (pit.py) the next; an alert feed or a report
is one more module and one `register`, not an edit of this one.

It also listens to the tables' live status (subjects.py) and serves the floor page (web.py):
`serve_floor` runs the service and its page, for `tablectl floor` (cli.py) and the demo.
A table not heard from for UNREACHABLE_S is shown unreachable. The floor never writes to a
table: it only reads what tables send.
"""

import asyncio
import json
import logging
import time

from controller.wire import subjects as S
from controller.wire.aio import stop_on_signals
from controller.floor.fold import TableView

log = logging.getLogger(__name__)

UNREACHABLE_S = 2.0
FETCH = 256
LAT_SAMPLES = 20000
FLUSH_S = 0.25                  # the bucket's writes, at most this often
HEARTBEAT_S = 0.5               # the ordered consumer's idle heartbeat (see run)
WRITE_AT_ONCE = 16              # bucket writes in flight together in one flush


async def ensure_streams(js, replicas=1):
    """The JOURNAL stream and the FLOOR bucket, created when absent (the floor's credential
    may; a table's may not)."""
    from nats.js import api
    from nats.js.errors import NotFoundError
    try:
        await js.stream_info(S.STREAM)
    except NotFoundError:
        await js.add_stream(api.StreamConfig(
            name=S.STREAM, subjects=[S.JOURNAL_SUBJECTS], storage=api.StorageType.FILE,
            retention=api.RetentionPolicy.LIMITS, num_replicas=replicas, allow_direct=True,
            duplicate_window=120.0, discard=api.DiscardPolicy.OLD,
            deny_delete=True, deny_purge=True))     # every row is evidence (issue 31)
    try:
        kv = await js.key_value(S.KV_BUCKET)
    except Exception:                           # noqa: BLE001 - absent: make it
        kv = await js.create_key_value(api.KeyValueConfig(
            bucket=S.KV_BUCKET, history=1, replicas=replicas,
            storage=api.StorageType.FILE))
    return kv


class Fold:
    """The first consumer: each table's rows folded into its TableView (fold.py). It says
    whether the row was new: the consumers after it see only those (a redelivery after a
    restart is skipped by the fold, and so by every consumer)."""

    name = "fold"

    def __init__(self, service):
        self.service = service

    def on_row(self, table, row):
        views = self.service.views
        view = views.get(table)
        if view is None:
            view = views[table] = TableView(table)
        return view.apply(row)


class FloorService:
    def __init__(self, url, user="floor", password=None, replicas=1, clock=time.time,
                 ca_file=None, consumers=(), confirm_key=None):
        self.url, self.user, self.password = url, user, password
        # the floor page's own signing key (Ed25519): a confirmation is signed with it, so
        # the floor's NATS password alone cannot confirm a jackpot (issue 31)
        self.confirm_key = confirm_key
        self.ca_file = ca_file
        self.replicas = replicas
        self.clock = clock
        self.views = {}                 # table id -> TableView
        self.live = {}                  # table id -> last status + "heard"
        self.listeners = set()          # asyncio.Queue of the page's event streams
        self.latencies = []             # ns from the table's send to the floor's fold
        self.ingested = 0
        self._dirty = set()             # tables folded but not yet written to the bucket
        self._unacked = None            # the stream seq of the last message folded, not yet
                                        # written as the position
        self._flushed = 0.0
        self._flushing = None           # the flush task writing the bucket, if one runs
        self.position = 0               # the stream seq of the last message in the bucket
        self.nc = self.js = self.kv = None
        self.fold = Fold(self)
        self.consumers = []             # after the fold, in the order registered
        for consumer in consumers:
            self.register(consumer)
        self.link_meters = {}           # link id -> its meter as last published (issue 14)
        self._link_shown = {}           # link id -> (what the page was last sent, when)
        self._stop = None
        self.ready = None

    def register(self, consumer):
        """A consumer after the fold: anything with `on_row(table, row, view)` and/or
        `on_status(table, status)` (a `name` names its slot in the table's entry)."""
        self.consumers.append(consumer)
        return consumer

    def _tell(self, method, table, *args):
        """Each consumer's `method` (on_row, on_status), where it has one. One that fails is
        logged and stops neither the fold nor the consumers after it."""
        for consumer in self.consumers:
            fn = getattr(consumer, method, None)
            if fn is None:
                continue
            try:
                fn(table, *args)
            except Exception as e:                  # noqa: BLE001 - see above
                log.warning("floor: consumer %s: %s of table %s: %s: %s",
                            getattr(consumer, "name", consumer), method, table,
                            type(e).__name__, e)

    def consumer(self, name):
        return next((c for c in self.consumers if getattr(c, "name", None) == name), None)

    # ---- what the page reads ----------------------------------------------------------------

    def summary(self, table_id):
        view = self.views.get(table_id)
        s = dict(view.s) if view else {"table": table_id}
        s.pop("consumers", None)        # the consumers' own state: theirs to show
        live = self.live.get(table_id)
        now = self.clock()
        heard = live.get("heard") if live else None
        reachable = heard is not None and now - heard < UNREACHABLE_S
        s["link"] = {"reachable": reachable, "last_heard": heard,
                     "table_link": (live or {}).get("link")}
        if live:
            # what the table last said of its devices and linked progressives, kept while
            # it is unreachable too (the page says "as last reported")
            s["reported"] = {k: live.get(k) for k in ("devices", "progressive_links")}
        if live and reachable:
            s["live"] = {k: live.get(k) for k in ("state", "round_no", "lockout", "game",
                                                  "faults", "devices", "progressive_links")}
            s["state"] = live.get("state") or s.get("state")
            s["game"] = s.get("game") or live.get("game")
        return s

    def tables(self):
        return sorted(set(self.views) | set(self.live))

    def _changed(self, table_id):
        if not self.listeners:
            return
        doc = self.summary(table_id)
        for q in list(self.listeners):
            if q.qsize() < 1000:
                q.put_nowait(doc)

    # ---- running ----------------------------------------------------------------------------

    async def connect(self):
        import nats
        from controller.wire.connection import servers, tls_context
        self.nc = await nats.connect(servers(self.url), user=self.user, password=self.password,
                                     tls=tls_context(self.url, self.ca_file),
                                     inbox_prefix=S.inbox_prefix(self.user),
                                     max_reconnect_attempts=-1, reconnect_time_wait=0.25,
                                     connect_timeout=2, name="floor",
                                     error_cb=self._on_error)
        self.js = self.nc.jetstream(timeout=5)
        self.kv = await ensure_streams(self.js, self.replicas)
        await self._load()

    async def _on_error(self, e):
        log.info("floor: nats: %s: %s", type(e).__name__, e)     # it reconnects by itself

    async def _load(self):
        try:
            keys = await self.kv.keys()
        except Exception:                       # noqa: BLE001 - an empty bucket
            keys = []
        for key in keys:
            if key == "floor.position":
                self.position = int((await self.kv.get(key)).value)
            elif key.startswith("table."):
                entry = await self.kv.get(key)
                t = key[len("table."):]
                self.views[t] = TableView.load(t, entry.value)

    async def run(self, stop=None):
        """Until `stop` (an asyncio.Event) is set.

        The rows come through an ordered consumer that starts right after the last message
        folded into the bucket (`floor.position`): in stream order, with no gap, after any
        restart. (A durable acknowledging consumer would give a restarted floor the new
        messages first and redeliver those in flight to the dead one only after its ack wait:
        rows out of order, and a gap once a later message is acknowledged.)"""
        from nats.js import api
        self._stop = stop or asyncio.Event()
        if self.nc is None:
            await self.connect()
        await self.nc.subscribe(S.STATUS_SUBJECTS, cb=self._on_status)
        await self.nc.subscribe("%s.meter.*" % S.PREFIX, cb=self._on_link_meter)
        start = self.position + 1
        sub = await self.js.subscribe(
            S.JOURNAL_SUBJECTS, stream=S.STREAM, ordered_consumer=True,
            # the client re-creates an ordered consumer after two missed heartbeats: with
            # the default 5 s, a floor caught up 14 s after the server came back, not 1 s
            idle_heartbeat=HEARTBEAT_S,
            config=api.ConsumerConfig(deliver_policy=api.DeliverPolicy.BY_START_SEQUENCE,
                                      opt_start_seq=start))
        watch = asyncio.ensure_future(self._watch_links())
        if self.ready is not None:
            self.ready.set()
        try:
            while not self._stop.is_set():
                msgs = []
                try:
                    msgs.append(await sub.next_msg(timeout=0.2))
                    while len(msgs) < FETCH and sub.pending_msgs:
                        msgs.append(await sub.next_msg(timeout=0.2))
                except asyncio.TimeoutError:
                    pass
                except Exception as e:          # noqa: BLE001 - the server away: retry
                    if "timeout" not in type(e).__name__.lower():
                        log.warning("floor: next message: %s", e)
                        await asyncio.sleep(0.2)
                if msgs or self._dirty:
                    await self._ingest(msgs)
        finally:
            watch.cancel()
            try:
                await self._finish_flush()
            except Exception as e:              # noqa: BLE001 - the next start folds again
                log.warning("floor: the last flush: %s: %s", type(e).__name__, e)
            try:
                await sub.unsubscribe()
                await self.nc.close()
            except Exception:                   # noqa: BLE001
                pass

    async def _ingest(self, msgs):
        """Fold a batch; at most every FLUSH_S (and when the stream is idle) start a flush
        of the bucket (_flush), which runs beside the fold."""
        now = time.time_ns()
        touched = set()
        for msg in msgs:
            table = S.table_of(msg.subject)
            try:
                row = json.loads(msg.data)
            except ValueError:
                log.warning("floor: table %s sent a row that is not JSON", table)
                continue
            if self.fold.on_row(table, row):
                self._dirty.add(table)
                touched.add(table)
                self.ingested += 1
                self._tell("on_row", table, row, self.views[table])
                sent = (msg.headers or {}).get("Tablectl-Sent-Ns")
                if sent and len(self.latencies) < LAT_SAMPLES:
                    self.latencies.append(now - int(sent))
        if msgs:
            self._unacked = msgs[-1].metadata.sequence.stream
        for table in touched:
            self._changed(table)        # the page sees the fold at once
        mono = time.monotonic()
        if msgs and mono - self._flushed < FLUSH_S:
            return                      # the bucket is written at most every FLUSH_S
        if self._flushing is not None and not self._flushing.done():
            return                      # the last flush still writes: the next one after it
        self._flushed = mono
        # the writes go on beside the fold: a flush of 64 tables is 128 synced writes, and
        # the rows that arrive meanwhile are folded (and on the page) without waiting for them
        self._flushing = asyncio.ensure_future(self._flush())

    async def _flush(self):
        """Every table folded since the last flush, then the position they cover. A write
        that fails (the bucket's leader being elected again) leaves them dirty and the
        position behind, for the next flush."""
        written, self._dirty = sorted(self._dirty), set()
        position, self._unacked = self._unacked, None
        try:
            for i in range(0, len(written), WRITE_AT_ONCE):
                await asyncio.gather(*[self._write(t) for t in written[i:i + WRITE_AT_ONCE]])
            if position is not None:
                # the position after every table it covers: a kill in between folds a few
                # rows again, and the fold skips them
                await self.kv.put("floor.position", str(position).encode())
                log.debug("floor: flush %s, position %s",
                          {t: self.views[t].head[0] for t in written}, position)
                self.position = position
        except Exception as e:                  # noqa: BLE001 - retried at the next flush
            log.warning("floor: writing the bucket: %s: %s", type(e).__name__, e)
            self._dirty.update(written)
            if self._unacked is None:
                self._unacked = position
            await asyncio.sleep(0.2)

    async def _finish_flush(self):
        """At stop: the flush under way, then one of what was folded after it."""
        for _ in range(2):
            if self._flushing is not None:
                await asyncio.gather(self._flushing, return_exceptions=True)
            if self._dirty or self._unacked is not None:
                self._flushing = asyncio.ensure_future(self._flush())
        if self._flushing is not None:
            await asyncio.gather(self._flushing, return_exceptions=True)

    async def _write(self, table):
        view = self.views[table]
        doc = dict(view.s)
        doc["link"] = self.summary(table)["link"]
        await self.kv.put("table.%s" % table, json.dumps(doc, sort_keys=True).encode())
        await self.kv.put("anchor.%s" % table, ("%d:%s" % view.head).encode())

    async def _on_status(self, msg):
        table = S.table_of(msg.subject)
        try:
            status = json.loads(msg.data)
        except ValueError:
            return
        was = self.live.get(table)
        status["heard"] = self.clock()
        self.live[table] = status
        self._tell("on_status", table, status)
        if was is None or any(was.get(k) != status.get(k) for k in
                              ("state", "lockout", "round_no", "faults", "devices",
                               "progressive_links")) or \
                (was.get("link") or {}).get("state") != (status.get("link") or {}).get("state") \
                or status["heard"] - was["heard"] > UNREACHABLE_S:
            self._changed(table)

    LINK_FIELDS = ("value", "hits", "operable", "version", "reset", "cap", "why")

    async def _on_link_meter(self, msg):
        """A linked progressive's meter (its controller publishes it every 100 ms): kept
        for the page, and sent to it on a change (at most every 0.1 s) or once a second."""
        try:
            doc = json.loads(msg.data)
        except ValueError:
            return
        link = msg.subject.rsplit(".", 1)[-1]
        doc["heard"] = self.clock()
        self.link_meters[link] = doc
        key = tuple(doc.get(k) for k in self.LINK_FIELDS)
        shown, when = self._link_shown.get(link, (None, 0.0))
        mono = time.monotonic()
        if key != shown or mono - when >= 1.0:
            self._link_shown[link] = (key, mono)
            for q in list(self.listeners):
                if q.qsize() < 1000:
                    q.put_nowait(("link", doc))

    def links(self):
        return [self.link_meters[k] for k in sorted(self.link_meters)]

    async def confirm(self, link, ident, by):
        """Supervisor `by` confirms having seen the cards of award `ident` on `link` (issue
        31): put on the link's stream, in its order, for its controller (which checks that
        the award waits and that a second confirmation is another person's). Stored once
        per person and award."""
        S.check_table_id(link)
        pending = [a["id"] for a in (self.link_meters.get(link) or {}).get("pending") or []]
        if ident not in pending:
            raise ValueError("no award %s waits on link %s" % (ident, link))
        if self.confirm_key is None:
            raise ValueError("this floor service has no confirmation key (tablectl floor "
                             "--confirm-key): the link's controller takes no unsigned "
                             "confirmation")
        from controller.wire import signing
        doc = signing.sign(self.confirm_key, {"type": "confirm", "link": link, "id": ident,
                                              "by": by, "ts_ns": time.time_ns()})
        await self.js.publish(S.linkcfg_subject(link), json.dumps(doc, sort_keys=True).encode(),
                              headers={"Nats-Msg-Id": signing.secret_message_id(
                                  self.password, "confirm:%s:%s:%s" % (link, ident, by))})

    async def _watch_links(self):
        """A table that falls silent is shown unreachable, and marked to be written so in
        the bucket."""
        shown = {}
        while True:
            await asyncio.sleep(0.2)
            for t in self.tables():
                reach = self.summary(t)["link"]["reachable"]
                if shown.get(t) != reach:
                    shown[t] = reach
                    self._changed(t)
                    if t in self.views:
                        # written by the run loop's next flush: one writer, in order (a
                        # write of its own here could land after a newer one)
                        self._dirty.add(t)


async def serve_floor(url, password, host, port, replicas=1, announce=None, stop=None,
                      user="floor", on_service=None, ca_file=None, day_start_s=None,
                      pits=None, users=None, confirm_key=None):
    """The floor service and its page until `stop` is set (or the process is signalled):
    what `tablectl floor` runs (cli.py) and the demo starts beside its tables (demo.py).
    The pit's figures are its consumer (pit.py: the gaming day starting `day_start_s` after
    local midnight, 06:00 by default; `pits` {table: pit})."""
    from controller.floor.pit import DAY_START_S, Pit
    from controller.floor.web import serve
    service = FloorService(url, user=user, password=password, replicas=replicas,
                           ca_file=ca_file, confirm_key=confirm_key)
    service.register(Pit(service, DAY_START_S if day_start_s is None else day_start_s, pits))
    if on_service:
        on_service(service)
    stop = stop or asyncio.Event()
    stop_on_signals(stop)
    # the NATS may come up after the floor (a restart of the floor's servers): wait for it,
    # say so, and still stop at once on a signal
    connecting = asyncio.ensure_future(service.connect())
    stopping = asyncio.ensure_future(stop.wait())
    done, _ = await asyncio.wait([connecting, stopping], timeout=5,
                                 return_when=asyncio.FIRST_COMPLETED)
    if not done and announce:
        announce("floor: waiting for NATS at %s" % url)
    if not done:
        done, _ = await asyncio.wait([connecting, stopping],
                                     return_when=asyncio.FIRST_COMPLETED)
    if connecting not in done:
        connecting.cancel()
        try:
            await connecting
        except BaseException:                   # noqa: BLE001 - cancelled on purpose
            pass
        return service
    stopping.cancel()
    connecting.result()
    runner, port = await serve(service, host, port, users=users)
    if announce:
        announce("floor page: http://%s:%d/" % (host, port))
    try:
        await service.run(stop)
    finally:
        await runner.cleanup()
    return service
