"""A linked progressive's controller: the single writer of its meter (docs/linked-progressives.md).

`LinkController(url, link, ...)` reads `meter.<link>` from the PROGRESSIVE bucket (value,
applied_seq, and the entry's revision), reads the link's messages of the LINKS stream from
the first (the stream is the record: what was applied before is remembered from it, so a
message sent again is applied once and a withdraw takes back exactly its contribution) and
applies those after applied_seq, in stream order (linkmeter.apply). Every write of the meter
is an update at the last revision it read or wrote: compare-and-set. If another process wrote
meanwhile, this one raises WriterLost and never writes again.

A second controller started by mistake listens first, for START_LISTEN_S, to the meter's
core subject: the running one publishes there every PUBLISH_S, so the second stops at once,
saying so, without writing. (Two started in the same instant both listen and hear nothing:
then the compare-and-set decides, and the loser stops at its first write.)

A hit is written in three steps: the meter with `last_award` (one compare-and-set), then
`award.<link>.<table>.<round>-<seat>`, then the core publish on tablectl.award.<link>.<table>.
A controller killed between the first two finds `last_award` at its start and writes the
award entry before anything else, so every award is in the bucket exactly once.

`crash` (tests, the fault bench): a callable given a step name ("after_meter_cas") that may
kill the process there; the command line takes it as TABLECTL_LINKCTL_CRASH=STEP[:N], a
SIGKILL of itself at the Nth time the step is reached.
"""

import asyncio
import json
import logging
import os
import signal
import time
import uuid

from controller.wire.aio import stop_on_signals
from controller.errors import TablectlError
from controller.floor import linkmeter as M
from controller.wire import links as L
from controller.wire import signing
from controller.wire import subjects as S

log = logging.getLogger(__name__)

PUBLISH_S = 0.1                 # the meter is published on change and this often
START_LISTEN_S = 1.0            # a starting controller listens this long for another
BATCH = 512
DUPLICATE_WINDOW_S = 86400.0
# what a meter rebuilt from the stream must share with the entry it replaces
REBUILT = ("value", "carry", "contributed", "withdrawn", "awarded", "hits", "contributions",
           "withdraws")


class LinkError(TablectlError):
    """The link cannot be run as asked (not defined, bucket unreachable)."""


class WriterLost(LinkError):
    """Another controller wrote the meter: this one stops and never writes again."""


async def ensure_link_streams(js, replicas=1):
    """The LINKS stream and the PROGRESSIVE bucket, created when absent."""
    from nats.js import api
    from nats.js.errors import NotFoundError
    try:
        await js.stream_info(S.LINK_STREAM)
    except NotFoundError:
        await js.add_stream(api.StreamConfig(
            name=S.LINK_STREAM, subjects=list(S.LINK_SUBJECTS), storage=api.StorageType.FILE,
            retention=api.RetentionPolicy.LIMITS, num_replicas=replicas, allow_direct=True,
            duplicate_window=DUPLICATE_WINDOW_S, discard=api.DiscardPolicy.OLD,
            deny_delete=True, deny_purge=True))     # the link's record (issue 31)
    try:
        kv = await js.key_value(S.LINK_BUCKET)
    except Exception:                           # noqa: BLE001 - absent: make it
        kv = await js.create_key_value(api.KeyValueConfig(
            bucket=S.LINK_BUCKET, history=1, replicas=replicas,
            storage=api.StorageType.FILE, direct=True))   # tables read it by direct get
    return kv


async def connect(url, user="floor", password=None, ca_file=None, name="linkctl",
                  reconnect=True):
    import nats

    from controller.wire.connection import servers, tls_context

    async def quiet(e):
        log.info("%s: nats: %s: %s", name, type(e).__name__, e)
    coro = nats.connect(servers(url), user=user, password=password,
                        tls=tls_context(url, ca_file), connect_timeout=2,
                        inbox_prefix=S.inbox_prefix(user),
                        max_reconnect_attempts=-1 if reconnect else 0,
                        allow_reconnect=reconnect,
                        reconnect_time_wait=0.25, name=name, error_cb=quiet)
    if reconnect:
        return await coro
    try:        # a command: one attempt (the client library would retry a refused one)
        return await asyncio.wait_for(coro, 5)
    except asyncio.TimeoutError:
        raise LinkError("cannot reach the floor's NATS at %s" % url)


async def kv_entry(kv, key):
    """(value bytes, revision) or (None, None)."""
    from nats.js.errors import KeyNotFoundError
    try:
        e = await kv.get(key)
    except KeyNotFoundError:
        return None, None
    if e.value is None or e.operation in ("DEL", "PURGE"):
        return None, e.revision
    return e.value, e.revision


async def history(js, link, upto=None, idle_s=1.0):
    """Every message of the link in LINKS, in stream order: [(seq, doc, ts_ns)] (up to the
    stream's last message when read, or `upto`)."""
    return await read_stream(js, [S.link_tables_subject(link), S.linkcfg_subject(link)],
                             upto=upto, idle_s=idle_s)


async def read_stream(js, subjects, start=1, upto=None, idle_s=1.0):
    """The messages of LINKS on `subjects` from stream sequence `start` up to `upto` (or the
    stream's last when read), in stream order: [(seq, doc, ts_ns)]."""
    from nats.js import api
    out = []
    try:
        info = await js.stream_info(S.LINK_STREAM)
    except Exception as e:                      # noqa: BLE001
        raise LinkError("stream %s: %s" % (S.LINK_STREAM, type(e).__name__))
    last = info.state.last_seq if upto is None else min(upto, info.state.last_seq)
    if last == 0 or start > last:
        return out
    sub = await js.subscribe(
        subjects[0], stream=S.LINK_STREAM, ordered_consumer=True,
        config=api.ConsumerConfig(filter_subjects=list(subjects),
                                  deliver_policy=api.DeliverPolicy.BY_START_SEQUENCE,
                                  opt_start_seq=start))
    try:
        while True:
            try:
                msg = await sub.next_msg(timeout=idle_s)
            except asyncio.TimeoutError:
                break
            md = msg.metadata
            if md.sequence.stream > last:
                break
            out.append((md.sequence.stream, _json(msg.data), md.timestamp))
            if md.sequence.stream >= last or md.num_pending == 0:
                break
    finally:
        await sub.unsubscribe()
    return out


async def award_keys(js, link):
    """The keys of link `link`'s award entries in the bucket (one stream-info request: the
    bucket's subjects under award.<link>.>), not their values."""
    prefix = "$KV.%s." % S.LINK_BUCKET
    try:
        info = await js.stream_info("KV_" + S.LINK_BUCKET,
                                    subjects_filter=prefix + "award.%s.>" % link)
    except Exception as e:                      # noqa: BLE001
        raise LinkError("bucket %s: %s" % (S.LINK_BUCKET, type(e).__name__))
    return sorted(subj[len(prefix):] for subj in (info.state.subjects or {}))


def _json(data):
    try:
        doc = json.loads(data)
    except ValueError:
        return {"type": None, "error": "not JSON"}
    return doc if isinstance(doc, dict) else {"type": None, "error": "not an object"}


def _cards(hand):
    return " ".join(map(str, hand)) if isinstance(hand, list) else repr(hand)


def crash_from_env(env=None):
    """TABLECTL_LINKCTL_CRASH=STEP[:N]: SIGKILL this process the Nth time STEP is reached."""
    spec = (env if env is not None else os.environ).get("TABLECTL_LINKCTL_CRASH")
    if not spec:
        return None
    step, _, n = spec.partition(":")
    left = [int(n or 1)]

    def crash(at):
        if at == step:
            left[0] -= 1
            if left[0] <= 0:
                os.kill(os.getpid(), signal.SIGKILL)
    return crash


class LinkController:
    def __init__(self, url, link, user="floor", password=None, ca_file=None, replicas=1,
                 crash=None, clock=time.time_ns, listen_s=START_LISTEN_S, keys=None,
                 page_keys=None):
        self.url, self.link = url, S.check_table_id(link)
        # {table: Ed25519 public key (or its "ed25519:..." text)}: the tables' own keys,
        # the only ones a message about money is taken from (issue 31)
        self.keys = {t: (signing.parse_public(k) if isinstance(k, str) else k)
                     for t, k in (keys or {}).items()}
        # the floor pages' public keys: a supervisor's confirmation is taken signed by one
        self.page_keys = [signing.parse_public(k) if isinstance(k, str) else k
                          for k in (page_keys or {}).values()] if isinstance(
            page_keys, dict) else list(page_keys or [])
        self.user, self.password, self.ca_file = user, password, ca_file
        self.replicas = replicas
        self.crash = crash or (lambda at: None)
        self.clock = clock
        self.listen_s = listen_s
        self.writer = "%s-%d-%s" % (os.uname()[1], os.getpid(), uuid.uuid4().hex[:8])
        self.meter = None
        self.rev = None
        self.seen = M.Seen()
        self.nc = self.js = self.kv = None
        self.awards = []                # awards made by this instance (tests, the bench)
        self.start_read = None          # what the start read: stream messages, award keys
        self.on_award = None            # (award, now ns): the bench's probe
        self.ready = asyncio.Event()
        self.lost = None                # the WriterLost that stopped it
        self._dirty = False

    # ---- start ------------------------------------------------------------------------

    async def connect(self):
        self.nc = await connect(self.url, self.user, self.password, self.ca_file,
                                name="linkctl-%s" % self.link)
        self.js = self.nc.jetstream(timeout=5)
        self.kv = await ensure_link_streams(self.js, self.replicas)

    async def _listen_for_another(self):
        """Stop, without writing, if another controller publishes this link's meter."""
        heard = []

        async def on(msg):
            doc = _json(msg.data)
            if doc.get("writer") and doc.get("writer") != self.writer:
                heard.append(doc["writer"])
        sub = await self.nc.subscribe(S.meter_subject(self.link), cb=on)
        await asyncio.sleep(self.listen_s)
        await sub.unsubscribe()
        if heard:
            raise LinkError("link %s: another controller (%s) is running it; this one stops "
                            "without writing" % (self.link, heard[-1]))

    async def _load(self):
        raw, self.rev = await kv_entry(self.kv, S.meter_key(self.link))
        paid = []
        if raw is None:
            cfg_raw, _ = await kv_entry(self.kv, S.config_key(self.link))
            if cfg_raw is None:
                raise LinkError("link %s is not defined: tablectl floor link define %s ..."
                                % (self.link, self.link))
            # no entry (a link just defined, or its entry lost or deleted): the meter is
            # what the stream's messages make of it, under the same checks as live
            self.meter, self.seen, paid, n = await self._rebuild(
                M.new_meter(json.loads(cfg_raw), self.writer))
            self.meter["writer"] = self.writer
            self.start_read = {"stream_messages": n, "award_keys": 0}
            # the awards it made before the last, in the bucket before the meter that
            # counts them (the last is `last_award`: written after it, below, as after a
            # controller killed between the two writes)
            for award in paid[:-1]:
                await self._rebuilt_award(award)
            await self._create()
            if paid:
                self.crash("after_meter_cas")
        else:
            self.meter = json.loads(raw)
        if "open" in self.meter and raw is not None:
            # from the entry's applied_seq: what a table may still withdraw or send again is
            # in the entry, the hits are the award entries' keys
            keys = await award_keys(self.js, self.link)
            self.seen = M.seen_from(self.meter, keys)
            self.start_read = {"stream_messages": 0, "award_keys": len(keys)}
        elif raw is not None:
            # an entry of before `open`: what was applied is rebuilt from the stream, once,
            # under the same checks as live (a message refused then is refused again)
            scratch, self.seen, _, n = await self._rebuild(
                M.new_meter(dict(self.meter, version=0), None), upto=self.meter["applied_seq"])
            differ = [k for k in REBUILT if scratch.get(k) != self.meter.get(k)]
            if differ:
                log.warning("link %s: the stream rebuilt to seq %d differs from the meter "
                            "entry in %s: the entry is kept", self.link,
                            self.meter["applied_seq"], ", ".join(differ))
            self.meter["open"] = scratch["open"]
            self.start_read = {"stream_messages": n, "award_keys": 0}
        # the claim: this instance's name in the meter, by compare-and-set
        self.meter["writer"] = self.writer
        await self._write()
        # an award whose meter was written but not its entry (killed between the two)
        award = self.meter.get("last_award")
        if award:
            raw, _ = await kv_entry(self.kv, award["key"])
            if raw is None:
                log.warning("link %s: writing award %s left by a stopped controller",
                            self.link, award["key"])
                await self._award_entry(award)
            await self._publish_award(award)
            await self._record(M.PAID, award["seq"], {
                "id": award["id"], "table": award["table"], "amount": award["amount"],
                "confirmations": award.get("confirmations", [])})    # stored once
        for award in self.meter.get("pending") or []:                   # stored once
            await self._record(M.LOCKED, award["seq"], {
                "id": award["id"], "table": award["table"], "amount": award["amount"],
                "needs": award["needs"], "hand": award["hand"]})

    async def _rebuilt_award(self, award):
        """An award a rebuild made: written, published and recorded paid unless the bucket
        holds it already (paid before: not paid again)."""
        entry, _ = await kv_entry(self.kv, award["key"])
        if entry is None:
            log.warning("link %s: writing award %s the stream made and the bucket lacks",
                        self.link, award["key"])
            await self._award_entry(award)
            await self._publish_award(award)
            await self._record(M.PAID, award["seq"], {
                "id": award["id"], "table": award["table"], "amount": award["amount"],
                "confirmations": award.get("confirmations", [])})

    async def _rebuild(self, meter, upto=None):
        """The link's messages on the stream (up to `upto`, else its last) applied to
        `meter` as the live controller applied them: each table's and each supervisor's
        message through the same `_evidence` (its signature with the keys this controller
        holds, the link's operability at that point of the stream, the contribution, the
        hand, a replay), a refused one refused again (as an alarm, the money untouched).
        The controller's own refusal records on the stream are not what decides: anyone
        holding the floor's password can write one; they are compared, and a refusal the
        live controller did not live to record is recorded now. Returns (meter, seen, the
        awards paid in stream order, messages read); changes nothing else of this one."""
        msgs = await history(self.js, self.link, upto=upto)
        first = next((d for _, d, _ in msgs if d.get("type") == "config"), None)
        if first is not None and upto is None:
            meter = M.new_meter(first, meter.get("writer"))     # as defined, then each version
        recorded = {d.get("of") for _, d, _ in msgs if d.get("type") == M.REFUSAL}
        held = self.meter, self.seen
        self.meter, self.seen = meter, M.Seen()
        paid, refused = [], set()
        try:
            for seq, doc, _ in msgs:
                why = await self._evidence(seq, doc)
                if why is not None:
                    refused.add(seq)
                    M.alarm(self.meter, seq, doc, why, self.clock())
                    if seq not in recorded:
                        await self._record(M.REFUSAL, seq, {
                            "kind": doc.get("type"), "id": doc.get("id"),
                            "table": doc.get("table"), "why": why})
                    continue
                award = M.apply(self.meter, self.seen, seq, doc, self.clock())
                if award is not None and not award.get("needs"):
                    paid.append(award)
                released = M.release_one(self.meter)
                while released is not None:
                    paid.append(released)
                    released = M.release_one(self.meter)
            meter, seen = self.meter, self.seen
        finally:
            self.meter, self.seen = held
        for seq in sorted(recorded - refused):
            log.warning("link %s: seq %s was recorded refused but passes every check now "
                        "(a record not written by the controller, or a key changed)",
                        self.link, seq)
        return meter, seen, paid, len(msgs)

    async def _create(self):
        from nats.js.errors import KeyWrongLastSequenceError
        try:
            self.rev = await self.kv.create(S.meter_key(self.link), self._doc())
        except KeyWrongLastSequenceError:
            raise WriterLost("link %s: meter.%s was created by another controller meanwhile; "
                             "this one stops" % (self.link, self.link))

    def _doc(self):
        return json.dumps(self.meter, sort_keys=True).encode()

    async def _write(self):
        """The meter, by compare-and-set at the last revision. A write whose ack was lost
        (a leader elected again) is recognised as this one's own, not another's."""
        from nats.js.errors import KeyWrongLastSequenceError
        doc = self._doc()
        for attempt in range(100):
            try:
                self.rev = await self.kv.update(S.meter_key(self.link), doc, last=self.rev)
                self._dirty = False
                return
            except KeyWrongLastSequenceError:
                raw, rev = await kv_entry(self.kv, S.meter_key(self.link))
                if raw == doc:
                    self.rev, self._dirty = rev, False
                    return
                other = (_json(raw or b"{}")).get("writer")
                self.lost = WriterLost(
                    "link %s: meter.%s was written by another controller (%s, revision %s; "
                    "this one expected %s): this one stops and writes no more"
                    % (self.link, self.link, other, rev, self.rev))
                raise self.lost
            except Exception as e:              # noqa: BLE001 - the cluster electing: retry
                if attempt == 99:
                    raise LinkError("link %s: writing the meter: %s" % (self.link, e))
                log.info("link %s: meter write: %s: %s", self.link, type(e).__name__, e)
                await asyncio.sleep(0.1)

    async def _award_entry(self, award):
        for attempt in range(100):
            try:
                await self.kv.put(award["key"], json.dumps(award, sort_keys=True).encode())
                return
            except Exception as e:              # noqa: BLE001 - retry through an election
                if attempt == 99:
                    raise LinkError("link %s: writing %s: %s" % (self.link, award["key"], e))
                await asyncio.sleep(0.1)

    async def _publish_award(self, award):
        try:
            await self.nc.publish(S.award_subject(self.link, award["table"]),
                                  json.dumps(award, sort_keys=True).encode())
        except Exception as e:                  # noqa: BLE001 - the entry holds it
            log.info("link %s: award publish: %s", self.link, e)

    async def _publish_meter(self):
        doc = dict(self.meter, ts_ns=self.clock())
        try:
            await self.nc.publish(S.meter_subject(self.link),
                                  json.dumps(doc, sort_keys=True).encode())
        except Exception as e:                  # noqa: BLE001 - published again in 100 ms
            log.debug("link %s: meter publish: %s", self.link, e)

    # ---- the evidence (issue 31) ------------------------------------------------------

    async def _evidence(self, seq, doc):
        """None when a table's message may be applied, else why not. Every message a table
        sends about money must be signed by that table's own key (its NATS password alone
        signs nothing). A hit is paid on evidence only: the link operable, the hit not
        answered before nor from a journal position before the table's last hit, this
        seat's contribution of this round stored (at the stream sequence the table was
        acknowledged with) and not withdrawn, the paytable the hit announces (the table's
        configuration's) the one the link declares, and the hand winning the share claimed under
        the wager's paytable, checked by the game's own evaluator (the rules core)."""
        kind = doc.get("type")
        if kind == M.CONFIRM:
            if not any(signing.verify(k, doc) for k in self.page_keys):
                return "confirmation of %s by %r not signed by a floor page's key (the " \
                    "floor's NATS password alone confirms nothing)" % (doc.get("id"),
                                                                       doc.get("by"))
            return None
        if kind not in ("contribution", "withdraw", "hit"):
            return None
        table = doc.get("table")
        if table not in self.meter["tables"]:
            return None                         # refused by the meter's rules, not alarming
        key = self.keys.get(table)
        if key is None:
            return "table %s has no public key at this controller: its %s is not taken on " \
                "its NATS password alone" % (table, kind)
        if not signing.verify(key, doc):
            return "%s not signed by table %s's own key (a message sent with its NATS " \
                "password, not by the table)" % (kind, table)
        if doc.get("link") != self.link:
            return "%s signed for link %r, sent on link %s" % (kind, doc.get("link"), self.link)
        if kind != "hit":
            return None
        ident = doc.get("id")
        if not self.meter.get("operable", True):
            return "hit %s on link %s while it is inoperable (%s): an inoperable link pays " \
                "nothing" % (ident, self.link, self.meter.get("why"))
        if ident != "%s:%s:%s" % (table, doc.get("round"), doc.get("seat")):
            return "hit %r does not name its table, round and seat" % (ident,)
        if ident in self.seen.hits:
            return "hit %s was answered already (%s): sent again, a replay" % (
                ident, self.seen.hits[ident])
        jseq = doc.get("jseq")
        if not isinstance(jseq, int) or isinstance(jseq, bool) or jseq < 1:
            return "hit %s carries no journal position" % ident
        last = (self.meter.get("hit_jseq") or {}).get(table)
        if last is not None and jseq < last:
            return "hit %s at journal position %d, before table %s's last hit at %d: a " \
                "replay" % (ident, jseq, table, last)
        why = await self._contributed(ident, doc.get("cseq"), seq)
        if why is not None:
            return why
        differs = L.paytable_differs(self.meter["game"], self.meter["wager"],
                                     self.meter.get("paytable"), doc.get("paytable"))
        if differs is not None:
            return "hit %s: table %s plays another paytable than its link's: %s" % (
                ident, table, differs)
        try:
            won = L.hit_share(self.meter["game"], self.meter["wager"], doc.get("hand"),
                              doc.get("dealer"), self.meter.get("paytable"))
        except TablectlError as e:
            return "hit %s: %s" % (ident, e)
        if won is None:
            return "hit %s: hand %s wins no share of the meter at %s's %s" % (
                ident, _cards(doc.get("hand")), self.meter["game"], self.meter["wager"])
        if won != doc.get("share"):
            return "hit %s: hand %s wins %s of the meter at %s, not the %s claimed" % (
                ident, _cards(doc.get("hand")), "/".join(map(str, won)), self.meter["wager"],
                "/".join(map(str, doc.get("share") or [])))
        self.meter.setdefault("hit_jseq", {})[table] = jseq
        return None

    async def _contributed(self, ident, cseq, seq):
        """None when seat `ident`'s contribution of its round is on the link, stored at
        stream sequence `cseq` (the acknowledgement the table accepted the wager on) and not
        withdrawn before the hit (at stream sequence `seq`); else why not."""
        if not isinstance(cseq, int) or isinstance(cseq, bool):
            return "hit %s names no acknowledged contribution" % ident
        c = self.seen.contributions.get(ident)
        if c is not None:
            if c[3]:
                return "hit %s: its contribution was withdrawn" % ident
            if len(c) > 4 and c[4] != cseq:
                return "hit %s: its contribution is at stream seq %d, not %d" % (
                    ident, c[4], cseq)
            return None
        # not among the contributions this controller holds (it started after that round
        # left the meter's `open`): the stream's own message at cseq, and the table's
        # messages after it up to the hit, which hold its withdraw if the round was voided
        try:
            msg = await self.js.get_msg(S.LINK_STREAM, cseq)
            got = _json(msg.data)
        except Exception:                       # noqa: BLE001 - no such message
            got = {}
        table = ident.split(":", 1)[0]
        key = self.keys.get(table)
        if got.get("type") != "contribution" or got.get("id") != ident or \
                not signing.verify(key, got) or not cseq < seq:
            return "hit %s: no contribution of that seat in that round on link %s (stream " \
                "seq %s holds none)" % (ident, self.link, cseq)
        after = await read_stream(self.js, [S.link_subject(self.link, table)], start=cseq + 1,
                                  upto=seq - 1, idle_s=0.5)
        for wseq, doc, _ in after:
            # only the table's own withdraw: one forged with its password was refused
            if doc.get("type") == "withdraw" and doc.get("id") == ident and \
                    signing.verify(key, doc):
                return "hit %s: its contribution was withdrawn (stream seq %d)" % (
                    ident, wseq)
        return None

    async def _refuse(self, seq, doc, why):
        """A refused message: its refusal on the LINKS stream first (the record reconcile
        reads), then in the meter as an alarm; the meter's money untouched."""
        log.warning("link %s: refused seq %d: %s", self.link, seq, why)
        await self._record(M.REFUSAL, seq, {"kind": doc.get("type"), "id": doc.get("id"),
                                            "table": doc.get("table"), "why": why})
        M.alarm(self.meter, seq, doc, why, self.clock())
        self._dirty = True

    async def _record(self, kind, of, fields):
        """One of the controller's records on the LINKS stream (a refusal, a lock, a
        payment), stored once (message id "<kind>:<link>:<seq of what it records>") and
        before the meter that follows it, so reconcile finds it. The id carries the floor
        secret's tag (signing.secret_message_id): a table's password cannot take it first."""
        record = dict(fields, type=kind, link=self.link, of=of, ts_ns=self.clock())
        for attempt in range(100):
            try:
                await self.js.publish(S.linkcfg_subject(self.link),
                                      json.dumps(record, sort_keys=True).encode(),
                                      headers={"Nats-Msg-Id": signing.secret_message_id(
                                          self.password, "%s:%s:%d" % (kind, self.link, of))})
                return
            except Exception as e:              # noqa: BLE001 - through an election
                if attempt == 99:
                    raise LinkError("link %s: recording a %s: %s" % (self.link, kind, e))
                await asyncio.sleep(0.1)

    # ---- run --------------------------------------------------------------------------

    async def run(self, stop=None):
        """Until `stop` is set; raises WriterLost or LinkError when it must stop."""
        from nats.js import api
        stop = stop or asyncio.Event()
        if self.nc is None:
            await self.connect()
        try:
            await self._listen_for_another()
            await self._load()
            sub = await self.js.subscribe(
                S.link_tables_subject(self.link), stream=S.LINK_STREAM,
                ordered_consumer=True,
                config=api.ConsumerConfig(
                    filter_subjects=[S.link_tables_subject(self.link),
                                     S.linkcfg_subject(self.link)],
                    deliver_policy=api.DeliverPolicy.BY_START_SEQUENCE,
                    opt_start_seq=self.meter["applied_seq"] + 1))
            await self._publish_meter()
            self.ready.set()
            published = time.monotonic()
            while not stop.is_set():
                msgs = []
                try:
                    msgs.append(await sub.next_msg(timeout=PUBLISH_S))
                    while len(msgs) < BATCH and sub.pending_msgs:
                        msgs.append(await sub.next_msg(timeout=PUBLISH_S))
                except asyncio.TimeoutError:
                    pass
                except Exception as e:          # noqa: BLE001 - the server away: retry
                    if "timeout" not in type(e).__name__.lower():
                        log.info("link %s: next message: %s", self.link, e)
                        await asyncio.sleep(0.1)
                if msgs:
                    await self._apply(msgs)
                if msgs or time.monotonic() - published >= PUBLISH_S:
                    await self._publish_meter()
                    published = time.monotonic()
        finally:
            try:
                await self.nc.close()
            except Exception:                   # noqa: BLE001
                pass

    async def _apply(self, msgs):
        for msg in msgs:
            seq = msg.metadata.sequence.stream
            if seq <= self.meter["applied_seq"]:
                continue                        # a redelivery
            doc = _json(msg.data)
            why = await self._evidence(seq, doc)
            if why is not None:
                await self._refuse(seq, doc, why)
                continue
            if doc.get("type") == "hit" and doc.get("id") in self.seen.hits:
                # sent again after the duplicate window: answered with the award made
                raw, _ = await kv_entry(self.kv, self.seen.hits[doc["id"]])
                if raw is not None:
                    await self._publish_award(json.loads(raw))
            award = M.apply(self.meter, self.seen, seq, doc, self.clock())
            self._dirty = True
            if award is not None and award.get("needs"):
                # locked: the meter reset for every table now, the award waiting for its
                # supervisors (the meter entry holds it in `pending`)
                await self._write()
                self.crash("after_lock")
                await self._record(M.LOCKED, award["seq"], {
                    "id": award["id"], "table": award["table"], "amount": award["amount"],
                    "needs": award["needs"], "hand": award["hand"]})
            elif award is not None:
                await self._pay(award)
            released = M.release_one(self.meter)
            while released is not None:
                await self._pay(released)
                released = M.release_one(self.meter)
        if self._dirty:
            await self._write()

    async def _pay(self, award):
        """The award paid: the meter with last_award (one CAS), its entry, its publish, the
        payment's record on the stream (with who confirmed it, and when)."""
        await self._write()
        self.crash("after_meter_cas")
        await self._award_entry(award)
        self.crash("after_award_entry")
        await self._publish_award(award)
        await self._record(M.PAID, award["seq"], {
            "id": award["id"], "table": award["table"], "amount": award["amount"],
            "confirmations": award.get("confirmations", [])})
        self.awards.append(award)
        if self.on_award is not None:
            self.on_award(award, time.time_ns())


async def run_link(url, link, password=None, user="floor", ca_file=None, replicas=1,
                   stop=None, crash=None, on_controller=None, listen_s=START_LISTEN_S,
                   keys=None, page_keys=None):
    """The controller until `stop` is set (or the process is signalled)."""
    ctl = LinkController(url, link, user=user, password=password, ca_file=ca_file,
                         replicas=replicas, crash=crash, listen_s=listen_s, keys=keys,
                         page_keys=page_keys)
    if on_controller:
        on_controller(ctl)
    stop = stop or asyncio.Event()
    stop_on_signals(stop)
    await ctl.run(stop)
    return ctl


class ControllerThread:
    """The controller on a thread of this process (tests, the demo, the bench):
    `ControllerThread(url, link, password=...)`, `.ctl`, `.stop()`; `.error` holds what
    stopped it."""

    def __init__(self, url, link, wait=True, **kw):
        import threading
        self.loop = self.stop_event = self.ctl = None
        self.error = None
        started = threading.Event()

        def got(ctl):
            self.ctl = ctl

        async def main():
            self.loop = asyncio.get_running_loop()
            self.stop_event = asyncio.Event()
            started.set()
            await run_link(url, link, stop=self.stop_event, on_controller=got, **kw)

        def target():
            try:
                asyncio.run(main())
            except BaseException as e:          # noqa: BLE001 - kept for the caller
                self.error = e
            finally:
                started.set()
        self.thread = threading.Thread(target=target, name="linkctl-%s" % link, daemon=True)
        self.thread.start()
        started.wait(10)
        if wait:
            self.wait_ready()

    def wait_ready(self, timeout=20.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.error is not None:
                raise self.error
            if self.ctl is not None and self.ctl.ready.is_set():
                return self
            time.sleep(0.02)
        raise LinkError("the link controller did not start in %.0f s" % timeout)

    @property
    def alive(self):
        return self.thread.is_alive()

    def stop(self):
        if self.loop is not None and self.thread.is_alive():
            self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(15)
