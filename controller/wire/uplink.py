"""The table's uplink: its journal forwarded to the floor, row by row, exactly once, in order.

A part with start()/stop(), run on the process's floor loop (connection.py: one thread, one
asyncio loop and one NATS connection per credential, shared with the table's link clients)
with its own connections to the journal file (outbox.py): the game loop never waits for it,
and plays on through any outage; the journal is the outbox, so nothing is lost while the link
is down.

Exactly once and gap-free: each row is published to the table's subject with the message id
"<table>:<seq>:<tag>" (the stream drops a duplicate; the tag an HMAC under the table's own
password, so another table's password cannot take the id first: the stream's duplicate
window spans every table's subject) and the header
Nats-Expected-Last-Subject-Sequence naming the stream sequence of the row before it on that
subject (the stream refuses a row whose predecessor is not the last one stored). After any
error, and at every start, the uplink asks the stream for the last row stored on its subject
(a direct get, allowed to this table only) and resumes after it: a publish acknowledged but
whose acknowledgement was lost, a process killed between the stream's store and the local
write of the acknowledged sequence, or a stream that lost rows are all resolved from the
stream itself. The acknowledged sequence is then written to the journal database.

The stream holding a row the table did not write (issue 31: someone with the table's NATS
password published a row with its next message id first, so the table's own was dropped as
a duplicate) is found at the resynchronisation that follows: the last row stored on the
subject is compared with the journal's row of that seq, whole. A row that is not the table's
is an integrity alarm (`integrity`, `on_integrity`): journaled on the table
(`floor_integrity`, which the floor's fold turns into a problem naming that row), announced
at the console and sent in the status. It is no lock-out: the table's own journal, its
game and its meters are intact, and no section of the texts stops play for a copy held
elsewhere (docs/floor.md, "Threat model").

Rows with cards wait for the end of their round (outbox.releasable). Twice a second the
uplink also publishes the table's live status (no cards) on its status subject, from
`status()` (the runtime's provider): what the floor page shows between rounds, and how the
floor knows the table is there.
"""

import asyncio
import json
import logging
import threading
import time

from controller.wire.aio import connection_or_stop, pause
from controller.wire import subjects as S
from controller.wire.connection import join, leave
from controller.wire.outbox import Outbox, releasable
from controller.wire.signing import secret_message_id

log = logging.getLogger(__name__)

BATCH = 256
STATUS_EVERY_S = 0.5
RETRY_S = 0.25
POLL_S = 0.02                   # a new journal row is looked for this often


class Uplink:
    """Forwards the journal at `journal_path` as table `table_id` to the NATS at `url`."""

    def __init__(self, journal_path, table_id, url, user=None, password=None, status=None,
                 clock=time.time, ca_file=None):
        self.journal_path = journal_path
        self.table_id = S.check_table_id(table_id)
        self.subject = S.journal_subject(table_id)
        self.url, self.user, self.password = url, user or table_id, password
        self.status = status or (lambda: {})
        self.ca_file = ca_file
        self.clock = clock
        self.state, self.since = "down", clock()
        self.last_error = None
        self.acked_seq = self.stream_seq = 0
        self.head_seq = 0
        self.held = 0
        self.published = 0
        self.failed_attempt_at = None   # when the last failed connect attempt began
        self.integrity = []             # rows the stream holds that are not the table's
        self.on_integrity = []          # fn(alarm): the journal, the console
        self._alarmed = set()
        self._task = None               # its coroutine on the floor loop (a Future)
        self._shared = None             # the process's connection of this credential
        self._loop = None
        self._stop = None
        self._wake = None
        self.outbox = None

    # ---- the part's interface ----------------------------------------------------------

    def start(self):
        self.outbox = Outbox(self.journal_path)
        self.acked_seq, self.stream_seq = self.outbox.acked()
        self.head_seq = self.outbox.head()
        ready = threading.Event()
        self._task = join(self).submit(self._main(ready))
        ready.wait(5)
        return self

    drain_s = 0.0

    def stop(self, drain_s=None):
        """Stop; with `drain_s`, first wait that long at most for every row to be sent."""
        if self._task is None:
            return
        drain_s = self.drain_s if drain_s is None else drain_s
        end = time.monotonic() + drain_s
        # Drained while the floor can be reached: while up, and also while a session that
        # just broke is being re-established (a publish whose connection closed under it
        # waits out its timeout with the state still "up"; a link just restored is retried
        # within RETRY_S): a table stopped in that second lost the rows it had to send.
        # Given up early only when a connect attempt begun after the stop failed: the
        # floor is not there now.
        began = time.monotonic()
        while drain_s and time.monotonic() < end and self._sendable() and \
                not (self.state != "up" and self.failed_attempt_at is not None and
                     self.failed_attempt_at >= began):
            self.notify()
            time.sleep(0.05)
        leave(self, "uplink %s" % self.table_id, log)
        self.outbox.close()

    def _sendable(self):
        """Rows that may go now and have not (read on a connection of the caller's own)."""
        from controller.journal.formats import open_journal
        store = open_journal(self.journal_path, readonly=True)
        try:
            rows = list(store.rows(self.acked_seq + 1))
        finally:
            store.close()
        return releasable(rows)

    def notify(self):
        """A row was appended: look now rather than at the next poll (optional)."""
        if self._loop is not None and self._wake is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    def rows_waiting(self):
        return max(0, self.head_seq - self.acked_seq)

    def _head_now(self):
        """The journal's last seq, read now on a connection of the caller's own (the link
        status is asked from the console's and the summary's threads, and while the link is
        down the uplink's own loop may be waiting on a connect)."""
        from controller.journal.formats import READ_ERRORS, open_journal
        try:
            store = open_journal(self.journal_path, readonly=True)
        except READ_ERRORS:
            return self.head_seq
        try:
            return store.last_seq
        finally:
            store.close()

    def link_status(self):
        self.head_seq = max(self.head_seq, self._head_now())
        return {"state": self.state, "since": self.since, "rows_waiting": self.rows_waiting(),
                "acked_seq": self.acked_seq, "held_for_round": self.held,
                "error": self.last_error}

    # ---- the thread ----------------------------------------------------------------------

    def _set(self, state, error=None):
        if state != self.state:
            self.state, self.since = state, self.clock()
        if error is not None:
            self.last_error = error

    async def _main(self, ready):
        self._stop, self._wake = asyncio.Event(), asyncio.Event()
        ready.set()
        while not self._stop.is_set():
            nc = None
            connected, attempt_at = False, time.monotonic()
            try:
                # bounded: the loop must see a stop and note what waits meanwhile
                nc = await connection_or_stop(self._shared.get, self._stop, self.url)
                js = nc.jetstream(timeout=2)
                await self._resync(js)
                connected = True
                self._set("up")
                await self._forward(nc, js)
            except asyncio.CancelledError:
                raise
            except Exception as e:              # noqa: BLE001 - any failure: down, retry
                if not connected:
                    self.failed_attempt_at = attempt_at
                self._set("down", "%s: %s" % (type(e).__name__, e))
            finally:
                await self._shared.release(nc)      # closed only if it is broken
            if not self._stop.is_set():
                self._set("down")
                try:
                    self.head_seq = self.outbox.head()    # what waits, while down
                except Exception as e:          # noqa: BLE001 - the next try reads it
                    log.warning("uplink %s: reading the journal's head: %s", self.table_id, e)
                await pause(self._stop, RETRY_S)

    async def _on_error(self, e):
        self.last_error = "%s: %s" % (type(e).__name__, e)

    async def _resync(self, js):
        """Resume after the last row the stream holds on our subject."""
        from nats.js.errors import NotFoundError
        try:
            last = await js.get_last_msg(S.STREAM, self.subject, direct=True)
        except NotFoundError:
            seq, stream_seq = 0, 0
        else:
            _, seq = S.parse_msg_id((last.headers or {}).get("Nats-Msg-Id"))
            stream_seq = last.seq
            self._check_stored(seq, stream_seq, last.data)
        if seq != self.acked_seq:
            if seq < self.acked_seq:
                log.warning("uplink %s: the stream holds rows to %d, acknowledged were %d: "
                            "sending again from %d", self.table_id, seq, self.acked_seq,
                            seq + 1)
            self.outbox.set_acked(seq, stream_seq)
        self.acked_seq, self.stream_seq = seq, stream_seq

    def _check_stored(self, seq, stream_seq, data):
        """The row the stream holds as this table's `seq` must be the journal's, whole."""
        mine = self.outbox.rows_after(seq - 1, 1) if seq >= 1 else []
        try:
            stored = json.loads(data)
        except (TypeError, ValueError):
            stored = None
        if mine and mine[0]["seq"] == seq and stored == mine[0]:
            return
        if not mine or mine[0]["seq"] != seq:
            why = "the stream holds a row %d of this table at stream seq %d that its " \
                "journal does not have (the journal ends at %d)" % (seq, stream_seq,
                                                                    self.outbox.head())
        else:
            why = "the stream's row %d (stream seq %d) is not this table's: its hash %s, " \
                "the journal's %s; the table's own row was refused as a duplicate" % (
                    seq, stream_seq, str((stored or {}).get("hash"))[:16],
                    mine[0]["hash"][:16])
        self._alarm(seq, stream_seq, why)

    def _alarm(self, seq, stream_seq, why):
        if seq in self._alarmed:
            return
        self._alarmed.add(seq)
        alarm = {"seq": seq, "stream_seq": stream_seq, "why": why, "at": self.clock()}
        self.integrity = (self.integrity + [alarm])[-10:]
        log.error("uplink %s: integrity: %s", self.table_id, why)
        for fn in list(self.on_integrity):
            try:
                fn(alarm)
            except Exception as e:              # noqa: BLE001 - the others still told
                log.warning("uplink %s: telling an integrity alarm: %s", self.table_id, e)

    async def _forward(self, nc, js):
        next_status = 0.0
        more = True                     # the first look reads, whatever the file says
        while not self._stop.is_set():
            if not nc.is_connected:
                raise ConnectionError("connection lost")
            now = time.monotonic()
            if now >= next_status:
                await self._publish_status(nc)
                next_status = now + STATUS_EVERY_S
            # read on this thread (the loop serves this uplink alone, and reading a few rows
            # is shorter than a hand-over to a thread pool), and only when the file changed
            # or the last read was a full batch (rows may follow it that no change announces)
            if self.outbox.changed() or more:
                rows = self.outbox.rows_after(self.acked_seq, BATCH)
                more = len(rows) == BATCH
                n = releasable(rows)
                # Held to the batch's end: the snapshot that releases those rows lies beyond
                # it, so read on until it is found or the file ends. Waiting for the next
                # change instead left an idle table's last rounds unsent, and a round longer
                # than a batch could never be sent at all.
                while more and n < len(rows):
                    after = self.outbox.rows_after(rows[-1]["seq"], BATCH)
                    more = len(after) == BATCH
                    rows += after
                    n = releasable(rows)
                self.head_seq = max(self.head_seq, rows[-1]["seq"] if rows else self.acked_seq)
                if more:
                    self.head_seq = self.outbox.head()
                self.held = len(rows) - n
                if n:
                    await self._publish(js, rows[:n])
                    if more:
                        continue
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), POLL_S)
            except asyncio.TimeoutError:
                pass

    async def _publish(self, js, rows):
        try:
            for row in rows:
                headers = {"Nats-Msg-Id": secret_message_id(
                               self.password, S.msg_id(self.table_id, row["seq"])),
                           "Nats-Expected-Last-Subject-Sequence": str(self.stream_seq),
                           "Tablectl-Sent-Ns": str(time.time_ns())}
                ack = await js.publish(self.subject, json.dumps(row).encode(), headers=headers)
                if ack.duplicate:
                    raise RuntimeError("row %d was already stored" % row["seq"])
                self.stream_seq, self.acked_seq = ack.seq, row["seq"]
                self.published += 1
        finally:
            self.outbox.set_acked(self.acked_seq, self.stream_seq)

    async def _publish_status(self, nc):
        try:
            status = dict(self.status())
        except Exception as e:                  # noqa: BLE001 - a status is best effort
            status = {"error": str(e)}
        status.update(table=self.table_id, link=self.link_status(), sent=self.clock())
        if self.integrity:
            status["integrity"] = self.integrity
        await nc.publish(S.status_subject(self.table_id), json.dumps(status).encode())


def status_of(ctl, drivers=None):
    """The live status a table sends (no cards): what its console's `status` shows first,
    every device's state (`drivers`, the runtime's {name: driver}: the floor page lists each
    device of the table, not only those that failed) and each linked progressive as the table
    sees it (up and in step with its link's meter, or not: the table refuses its wagers)."""
    from controller.progressive import linked_meters

    def status():
        model = ctl.model
        lo = getattr(model, "lockout", None) or None
        links = {}
        for m in linked_meters(model).values():
            lk = m["link"]
            links[lk["id"]] = {"up": bool(lk.get("up")), "synced": bool(lk.get("synced"))}
        return {"game": model.GAME, "state": model.state,
                "round_no": getattr(model, "round_no", 0),
                "lockout": None if lo is None else {"reason": lo.get("reason"),
                                                    "section": lo.get("section"),
                                                    "device": lo.get("device")},
                "faults": ctl.stats.get("faults", 0),
                "devices": {name: _device_state(d) for name, d in sorted((drivers or {})
                                                                          .items())},
                "progressive_links": links}
    return status


def _device_state(driver):
    """A driver's state as its own status() says it ("ok", "FAULT", ...); one that cannot
    say is "unknown" (the status is best effort: it never stops the table's link)."""
    try:
        st = driver.status()
    except Exception:                           # noqa: BLE001 - best effort
        return "unknown"
    return str((st if isinstance(st, dict) else {"state": st}).get("state", "unknown"))


def read_password(path):
    """A credential file: its first line (mode 0600 advised, as the journal key's)."""
    from controller.errors import ConfigError
    try:
        with open(path) as f:
            text = f.readline().strip()
    except OSError as e:
        raise ConfigError("floor password file %s: %s" % (path, e.strerror))
    if not text:
        raise ConfigError("floor password file %s is empty" % path)
    return text


def console_link(uplink, ctl):
    """The console's `show link` / `status` provider (controller/console/commands.py):
    {up, since_ns (table time), waiting}."""
    def provider():
        st = uplink.link_status()
        since_ns = ctl.clock() - int(max(0.0, time.time() - st["since"]) * 1e9)
        return {"up": st["state"] == "up", "since_ns": since_ns, "waiting": st["rows_waiting"],
                "acked_seq": st["acked_seq"]}
    return provider


class FloorLink:
    """The floor uplink as one registered part of a Runtime (controller/runtime.py): built
    at start, when the runtime's controller and journal are there; stopped (drained for
    `drain_s` at most) on the shutdown path after the journal's last commit, just before
    the journal closes, so the rows the shutdown itself writes are sent too."""

    name = "floor link"
    reads_journal = True        # the runtime stops it after the journal's last commit

    def __init__(self, runtime, table_id, url, password, ca_file=None, drain_s=5.0):
        from controller.errors import ConfigError
        try:
            S.check_table_id(table_id)
        except ValueError as e:
            raise ConfigError(str(e))
        if runtime.journal_path is None:
            raise ConfigError("the floor link forwards the journal: give --journal PATH too")
        self.runtime = runtime
        self.args = (table_id, url, password, ca_file)
        self.drain_s = drain_s
        self.uplink = None

    def start(self):
        table_id, url, password, ca_file = self.args
        ctl = self.runtime.ctl
        self.uplink = Uplink(self.runtime.journal_path, table_id, url, password=password,
                             status=status_of(ctl, getattr(self.runtime, "drivers", None)),
                             ca_file=ca_file)
        self.uplink.drain_s = self.drain_s
        self.uplink.start()
        ctl.link_status = self.uplink.link_status
        self.uplink.on_integrity.append(lambda a: ctl.note(
            "floor_integrity", seq=a["seq"], stream_seq=a["stream_seq"], why=a["why"]))
        console = getattr(self.runtime, "console", None)
        if console is not None and hasattr(console, "announce"):
            self.uplink.on_integrity.append(lambda a: console.announce(
                "*** FLOOR INTEGRITY: %s (no lock-out: the table's journal is intact; "
                "tell the floor)" % a["why"]))
        commands = getattr(getattr(console, "session", None), "commands", None)
        if commands is not None:
            commands.link = console_link(self.uplink, ctl)

    def stop(self):
        if self.uplink is not None:
            self.uplink.stop()


def attach(host, ctl, journal_path, table_id, url, password, drain_s=5.0, ca_file=None):
    """A FloorLink registered with `host` (a Runtime, or a Simulation: its runtime); started
    at once when the host already runs. Returns the Uplink."""
    runtime = getattr(host, "runtime", host)
    part = FloorLink(runtime, table_id, url, password, ca_file=ca_file, drain_s=drain_s)
    runtime.register_part(part)
    return part.uplink
