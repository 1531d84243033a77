"""The tablectl-serial link as a protocol object: bytes and time in, frames and actions out.

As pyserial's serial.threaded splits a Protocol from the ReaderThread that feeds it, this
module holds every rule of docs/protocols.md sections 4 to 9 (handshake, identity check,
stop-and-wait acknowledgements, retransmission with backoff, heartbeats, the watchdog, the
babble limit, giving up and retrying later) and no I/O at all: no port, no thread, no lock,
no clock of its own. `receive(data, now)` and `poll(now)` return a list of actions --
Write(raw) for the port, Deliver(message), Fault(kind, reason), Reject(reason, raw) for the
callbacks -- so a test drives it with byte strings and integers and reads exactly what it
would have written, and the fuzz bench runs a million frames through it without a pty.
drivers/link_transport.py owns the port and the thread and carries the actions out.
"""

import os
from collections import Counter, deque, namedtuple
from dataclasses import dataclass

from drivers.codec import (CRC_LEN, DUPLICATE, HEADER_LEN, HELLO_SEQ, PROTOCOL_NAME,
                           PROTOCOL_VERSION, Codec, Frame, MsgType, next_seq)
from drivers.errors import DeviceError, HandshakeTimeout, IdentityMismatch, VersionMismatch

MS = 1_000_000  # ns

# Fault kinds: each is reported once (a Fault action) until clear_fault().
SILENT, BABBLING, NO_ACK, RESTARTED, HANDSHAKE, PORT = (
    "silent", "babbling", "no_ack", "restarted", "handshake", "port")
FAULTS = (SILENT, BABBLING, NO_ACK, RESTARTED, HANDSHAKE, PORT)

ROLES = ("controller", "device")
MAX_BOOT = 2 ** 32 - 1

Write = namedtuple("Write", "raw")                 # bytes for the port, in order
Deliver = namedtuple("Deliver", "message")         # a new EVENT/COMMAND from the peer
Fault = namedtuple("Fault", "kind reason")         # a fault reported for the first time
Reject = namedtuple("Reject", "reason raw")        # bytes the decoder threw away


@dataclass(frozen=True)
class Message:
    """A sequenced message the peer sent, delivered once, stamped when its frame was read."""
    type: MsgType
    payload: dict
    seq: int
    ts_ns: int


@dataclass
class _Outgoing:
    type: MsgType
    payload: dict
    seq: int
    raw: bytes
    sent: int = 0          # transmissions so far
    due_ns: int = 0        # when to retransmit


def describe(who):
    """'shuffler SH-1' for a HELLO or an identity; 'unknown' for nothing."""
    if not who:
        return "unknown"
    return " ".join(str(who[k]) for k in ("device", "id") if k in who) or repr(who)


class LinkProtocol:
    """One end of a tablectl-serial link, without I/O. Not thread-safe: the transport locks.

    `identity` is what our HELLO says ({"device", "id"}); `expect` what the peer's HELLO
    must say (keys compared exactly, section 7). Timing is in ms, as in the page.
    """

    def __init__(self, identity, *, role="controller", expect=None, codec=None, now=0,
                 ack_timeout_ms=50, max_retries=4, heartbeat_interval_ms=500,
                 heartbeat_timeout_ms=2000, babble_limit=8, babble_window_ms=1000,
                 frame_gap_ms=100, hello_retry_ms=2000, boot_id=None):
        if role not in ROLES:
            raise DeviceError("link role must be 'controller' or 'device', not %r" % (role,))
        self.identity = dict(identity)
        self.role = role
        self.peer_role = ROLES[role == "controller"]
        self.expect = dict(expect or {})
        self.data_type = MsgType.COMMAND if role == "controller" else MsgType.EVENT
        self.codec = codec or Codec(receives=MsgType.EVENT if role == "controller"
                                    else MsgType.COMMAND)
        self.ack_timeout_ns = ack_timeout_ms * MS
        self.max_retries = max_retries
        self.heartbeat_interval_ns = heartbeat_interval_ms * MS
        self.heartbeat_timeout_ns = heartbeat_timeout_ms * MS
        self.babble_limit = babble_limit
        self.babble_window_ns = babble_window_ms * MS
        self.frame_gap_ns = frame_gap_ms * MS
        self.hello_retry_ns = hello_retry_ms * MS
        self.boot_id = boot_id if boot_id is not None else int.from_bytes(os.urandom(4), "big")
        self.stats = Counter()
        self.faults = {}                 # active fault kind -> reason
        self.peer = None                 # the last HELLO accepted (kept to see a new boot)
        self.handshake_error = None      # why the link is not connected, until it is
        self._peer_ok = False            # the peer's HELLO accepted and not refused since
        self._queue = deque()            # (type, payload, its body bytes) waiting to be sent
        self._inflight = None            # the one _Outgoing awaiting its ACK
        self._out_seq = HELLO_SEQ
        self._hello_acked = False
        self._retry_at = None            # when to send HELLO again after giving up
        self._silent = False             # the watchdog fired; nothing valid heard since
        self._last_heard = self._last_sent = self._last_rx = now
        self._rejections = deque()
        self._heartbeat = None           # heartbeat_frame's bytes

    # -- state ---------------------------------------------------------------------------

    @property
    def connected(self):
        """Our HELLO acknowledged and the peer's accepted (and not refused since)."""
        return self._hello_acked and self._peer_ok

    @property
    def fault(self):
        return next(iter(self.faults.values()), None)

    @property
    def idle(self):
        """Nothing queued and nothing awaiting an acknowledgement."""
        return not self._queue and self._inflight is None

    @property
    def pending_bytes(self):
        return self.codec.pending

    def clear_fault(self):
        """Forget the latched faults (after an authorized clear); new ones report again."""
        self.faults.clear()
        self._rejections.clear()

    def discard_queued(self):
        """Drop the messages not yet sent (the one awaiting its ACK still completes)."""
        dropped = len(self._queue)
        self._queue.clear()
        return dropped

    # -- inputs --------------------------------------------------------------------------

    def send(self, payload, msg_type=None):
        """Queue a message (FrameError now if it cannot be framed); poll() sends it."""
        msg_type = self.codec.frame_type(msg_type or self.data_type, 1)
        body = self.codec.body(msg_type, payload)     # checked once, framed when it goes
        self._queue.append((msg_type, dict(payload), body))
        return len(self._queue)

    def begin_handshake(self, now):
        """Send our HELLO, restarting our outbound session."""
        out = []
        self.handshake_error = None
        self.faults.pop(HANDSHAKE, None)
        self._send_hello(now, out)
        return out

    def receive(self, data, now):
        """Bytes read from the port at `now`."""
        out = []
        if data:
            self._last_rx = now
            self.stats["bytes_in"] += len(data)
            self._items(self.codec.feed(data), now, out)
        return out

    def poll(self, now):
        """The timers at `now`: the quiet line, retransmits, retries, heartbeat, watchdog."""
        out = []
        if self.codec.pending and now - self._last_rx >= self.frame_gap_ns:
            self._items(self.codec.expire(), now, out)
        self._timers(now, out)
        return out

    def next_due(self):
        """The earliest clock time at which poll() has work (a retransmit, a HELLO retry, a
        queued message, the quiet line's partial frame, the heartbeat, the watchdog), or None
        when only an input can make any: a transport sleeps until then rather than ticking
        (a tick costs a thread's wake-up, and on a Pi the loop's share of the GIL)."""
        # (no list: the virtual table's scheduler asks every end at every pass)
        due = self._last_rx + self.frame_gap_ns if self.codec.pending else None
        sent = self._inflight
        t = sent.due_ns if sent is not None else self._retry_at
        if t is not None and (due is None or t < due):
            due = t
        if self._hello_acked and self._peer_ok:  # connected
            if sent is None and self._queue:
                return 0                         # now: the next message goes out
            t = self._last_sent + self.heartbeat_interval_ns
            if not self._silent:                 # the watchdog fires once past its timeout
                t = min(t, self._last_heard + self.heartbeat_timeout_ns + 1)
            if due is None or t < due:
                due = t
        return due

    # -- an idle line in bulk ---------------------------------------------------------------

    @property
    def quiet(self):
        """Connected, nothing queued, nothing awaiting an ACK, no HELLO to retry, no bytes of
        a frame held, the watchdog not fired: until an input or a send, the only frames this
        end writes or reads are heartbeats (section 8), at times fixed by its timers."""
        # (connected and codec.idle spelled out: the virtual table asks at every idle span)
        codec = self.codec
        return (self._hello_acked and self._peer_ok and not self._silent
                and not self._queue and self._inflight is None and self._retry_at is None
                and not codec._buf and not codec._junk and codec._suspect is None)

    def heartbeats_until(self, until):
        """The clock times up to `until` at which a quiet end polled at each of its timers
        (next_due) writes a heartbeat, nothing else being sent: every interval from the
        last frame it wrote. A range (empty when none is due)."""
        step = self.heartbeat_interval_ns
        return range(self._last_sent + step, until + 1, step)

    def advance_idle(self, until, heard=()):
        """Leave this end as poll() at each of its timers up to `until` and receive() of
        one heartbeat at each time in `heard` (ascending, this end's clock, at most
        `until`) would: the scheduler of the whole table on virtual time (hal_sim/virtual.py)
        skips an idle line's heartbeats with it. Their wire bytes are the caller's to
        account for (heartbeat_frame, the number returned). ValueError, with nothing
        changed, when that is not what poll() would do: the end is not quiet, or the
        watchdog would fire before a heartbeat is heard or by `until`. Returns the number
        of heartbeats written.

        It is idle_timers() then idle_counts(), which add up: a caller may move the timers
        on now and count later, or count before it moves them (the virtual table carries
        an idle line so), as long as the counts are paid before a counter or the decoder
        is read (Link.before_look) and both before the link is used (Link.before_use)."""
        sent, heard_n = self.idle_timers(until, heard)
        self.idle_counts(sent, heard_n)
        return sent

    def idle_timers(self, until, heard=()):
        """advance_idle's timers: the times of the last heartbeat written and heard, and
        the link marked connected; returns (heartbeats written, heartbeats heard), for
        idle_counts(). Refuses as advance_idle does, changing nothing."""
        if not self.quiet:
            raise ValueError("advance_idle: the link is not quiet")
        timeout = self.heartbeat_timeout_ns
        last = self._last_heard
        if type(heard) is range and heard and heard[0] - last <= timeout and \
                (len(heard) == 1 or 0 < heard.step <= timeout) and heard[-1] <= until:
            last = heard[-1]                      # (what the loop finds: gaps all `step`)
        else:
            for t in heard:
                if t - last > timeout or t > until:
                    raise ValueError("advance_idle: the watchdog fires at %d, before the "
                                     "heartbeat heard at %d" % (last + timeout + 1, t))
                last = t
        if until - last > timeout:
            raise ValueError("advance_idle: the watchdog fires at %d, by %d"
                             % (last + timeout + 1, until))
        sent = self.heartbeats_until(until)
        n = len(sent)
        if n:
            self._last_sent = sent[-1]
        m = len(heard)
        if m:
            # receive(): _last_rx; _on_frame: _last_heard; _items: connected
            self._last_rx = self._last_heard = last
            self.handshake_error = None
        return n, m

    def idle_counts(self, sent, heard):
        """advance_idle's counts of `sent` heartbeats written and `heard` read (bytes,
        frames, the decoder's stream offset), for the beats idle_timers() moves the timers
        through: before it or after, at once or in parts (they add up)."""
        stats = self.stats
        if sent:
            stats["frames_out"] += sent
            stats["heartbeats_sent"] += sent
        if heard:
            size = len(self._heartbeat or self.heartbeat_frame)
            stats["bytes_in"] += heard * size
            self.codec.fed_intact(heard, size)

    @property
    def heartbeat_frame(self):
        """The bytes of one heartbeat (always the same: no payload, seq 0), encoded once."""
        if self._heartbeat is None:
            self._heartbeat = self.codec.encode(MsgType.HEARTBEAT, 0)
        return self._heartbeat

    def port_fault(self, reason):
        """The port failed; the session is left as it is (the port may recover)."""
        out = []
        self._raise(PORT, reason, out)
        return out

    def port_lost(self, reason, now):
        """The port failed (an unplugged adapter): the session ends; a reopened port
        starts a new handshake (begin_handshake)."""
        out = []
        self._raise(PORT, reason, out)
        self._requeue_inflight()
        self._hello_acked = False
        self._retry_at = None
        self.codec.reset()
        return out

    # -- frames --------------------------------------------------------------------------

    def _items(self, items, now, out):
        for item in items:
            if isinstance(item, Frame):
                self._on_frame(item, now, out)
            else:
                self._on_rejected(item, now, out)
        if self.connected:
            self.handshake_error = None

    def _on_frame(self, frame, now, out):
        self._last_heard = now
        self._silent = False
        if frame.type is MsgType.ACK:
            sent = self._inflight
            if sent is not None and frame.seq == sent.seq:
                self._inflight = None
                self.stats["acked"] += 1
                if sent.type is MsgType.HELLO:
                    self._hello_acked = True
                    self._retry_at = None
            else:
                self.stats["stale_acks"] += 1
        elif frame.type is MsgType.HELLO:
            self._on_hello(frame.payload, now, out)
        elif frame.type is not MsgType.HEARTBEAT:
            self._ack(frame.seq, now, out)
            message = Message(frame.type, frame.payload, frame.seq, now)
            self.stats["delivered"] += 1
            out.append(Deliver(message))

    def hello_problem(self, hello):
        """The HandshakeError a HELLO is refused with, or None (section 7's check)."""
        if hello.get("proto") != PROTOCOL_VERSION or hello.get("protocol") != PROTOCOL_NAME:
            return VersionMismatch(
                "protocol version mismatch: this end (%s) speaks %s v%s, the peer (%s) speaks "
                "%s v%s" % (describe(self.identity), PROTOCOL_NAME, PROTOCOL_VERSION,
                            describe(hello), hello.get("protocol"), hello.get("proto")))
        boot = hello.get("boot")
        if type(boot) is not int or not 0 <= boot <= MAX_BOOT:
            return IdentityMismatch("peer %s: boot %r is not an integer 0..2^32-1"
                                    % (describe(hello), boot))
        for key in ("device", "id"):
            if not isinstance(hello.get(key), str) or not hello[key]:
                return IdentityMismatch("peer %s: %s %r is not a name"
                                        % (describe(hello), key, hello.get(key)))
        expect = dict(self.expect, role=self.peer_role)
        wrong = sorted(k for k, v in expect.items() if hello.get(k) != v)
        if wrong:
            return IdentityMismatch("peer is %s (role %s), expected %s (role %s); differs in %s"
                                    % (describe(hello), hello.get("role"), describe(expect),
                                       self.peer_role, ", ".join(wrong)))
        return None

    def _on_hello(self, hello, now, out):
        error = self.hello_problem(hello)
        if error is not None:
            # refused: no ACK, no session; every data frame is out of sequence until a
            # HELLO passes, so nothing the refused peer sends is acknowledged
            self.stats["hellos_refused"] += 1
            self.codec.forget_session()
            self._peer_ok = False
            self.handshake_error = error
            self._raise(HANDSHAKE, str(error), out)
            return
        self._ack(HELLO_SEQ, now, out)          # the codec reset our inbound sequence
        known, self.peer, self._peer_ok = self.peer, dict(hello), True
        if known is not None and known.get("boot") != hello.get("boot"):
            self._raise(RESTARTED, "peer %s restarted (boot %s -> %s)" % (
                describe(hello), known.get("boot"), hello.get("boot")), out)
            self._send_hello(now, out)          # it lost our session with its old boot
        elif not self._hello_acked and not self._hello_in_flight:
            self._send_hello(now, out)          # a passive end, or one that gave up, answers

    def _on_rejected(self, rejected, now, out):
        self.stats["rejected"] += 1
        if rejected.reason == DUPLICATE:        # our ACK was lost: acknowledge again
            self._ack(rejected.seq, now, out)
        out.append(Reject(rejected.reason, rejected.raw))
        window = self._rejections
        window.append(now)
        while window and now - window[0] > self.babble_window_ns:
            window.popleft()
        if len(window) > self.babble_limit:
            self._raise(BABBLING, "babbling: %d rejected frames within %d ms (limit %d)"
                        % (len(window), self.babble_window_ns // MS, self.babble_limit), out)

    # -- sending -------------------------------------------------------------------------

    @property
    def _hello_in_flight(self):
        return self._inflight is not None and self._inflight.type is MsgType.HELLO

    def _write(self, raw, now, out):
        out.append(Write(raw))
        self._last_sent = now
        self.stats["frames_out"] += 1

    def _ack(self, seq, now, out):
        self._write(self.codec.frame(MsgType.ACK, seq, b""), now, out)
        self.stats["acks_sent"] += 1

    def _transmit(self, sent, now, out):
        if sent.sent:
            self.stats["retransmits"] += 1
        self._write(sent.raw, now, out)
        sent.due_ns = now + (self.ack_timeout_ns << sent.sent)   # at t, t+T, t+3T, t+7T ...
        sent.sent += 1

    def _requeue_inflight(self):
        if self._inflight is not None and self._inflight.type is not MsgType.HELLO:
            sent = self._inflight
            self._queue.appendleft((sent.type, sent.payload, sent.raw[HEADER_LEN:-CRC_LEN]))
        self._inflight = None

    def _send_hello(self, now, out):
        self._requeue_inflight()
        payload = dict(self.identity, proto=PROTOCOL_VERSION, protocol=PROTOCOL_NAME,
                       role=self.role, boot=self.boot_id)
        self._hello_acked = False
        self._retry_at = None
        self._out_seq = HELLO_SEQ
        self._inflight = _Outgoing(MsgType.HELLO, payload, HELLO_SEQ,
                                   self.codec.encode(MsgType.HELLO, HELLO_SEQ, payload))
        self.stats["hellos_sent"] += 1
        self._transmit(self._inflight, now, out)

    def _timers(self, now, out):
        sent = self._inflight
        if sent is not None and now >= sent.due_ns:
            if sent.sent <= self.max_retries:
                self._transmit(sent, now, out)
            elif sent.type is MsgType.HELLO:
                self._inflight = None
                self._retry_at = now + self.hello_retry_ns
                self.handshake_error = HandshakeTimeout(
                    "no ACK to HELLO from the peer of %s after %d transmissions; trying again "
                    "every %d ms" % (describe(self.identity), sent.sent,
                                     self.hello_retry_ns // MS))
                self._raise(HANDSHAKE, str(self.handshake_error), out)
            else:
                self._inflight = None
                self._raise(NO_ACK, "no ACK for seq %d %r after %d transmissions"
                            % (sent.seq, sent.payload, sent.sent), out)
                self._send_hello(now, out)      # restart our sequence; the queue goes on
        if self._retry_at is not None and now >= self._retry_at and self._inflight is None:
            self.stats["hello_retries"] += 1
            self._send_hello(now, out)
        if self._inflight is None and self._queue and self.connected:
            msg_type, payload, body = self._queue.popleft()
            self._out_seq = next_seq(self._out_seq)
            raw = self.codec.frame(msg_type, self._out_seq, body)
            self._inflight = _Outgoing(msg_type, payload, self._out_seq, raw)
            self._transmit(self._inflight, now, out)
        if not self.connected:
            return
        if now - self._last_sent >= self.heartbeat_interval_ns:
            self._write(self.heartbeat_frame, now, out)
            self.stats["heartbeats_sent"] += 1
        silent = now - self._last_heard
        if silent > self.heartbeat_timeout_ns and not self._silent:
            self._silent = True
            self._raise(SILENT, "silent: nothing from %s for %d ms (timeout %d ms)" % (
                describe(self.peer), silent // MS, self.heartbeat_timeout_ns // MS), out)
            # the session may be gone at the far end: start ours again; a peer that comes
            # back acknowledges it and the link is connected again (section 8)
            self._send_hello(now, out)

    def _raise(self, kind, reason, out):
        if kind not in self.faults:
            self.faults[kind] = reason
            self.stats["faults"] += 1
            out.append(Fault(kind, reason))
