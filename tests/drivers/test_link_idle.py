"""An idle link's heartbeats in bulk (LinkProtocol.advance_idle) against the same link polled
at each of its timers, frame by frame (docs/protocols.md section 8).

The virtual table's scheduler (hal_sim/virtual.py) skips the heartbeats of idle lines with
advance_idle; these tests hold it to what receive() and poll() leave, on two ends whose
clocks differ, whose heartbeat intervals differ and whose phases differ: the complete state
of both ends (every attribute, the decoder's included) compared after each span.
"""

import pytest

from drivers.codec import Codec, MsgType
from drivers.link_protocol import LinkProtocol, Write
from hal_sim.recent import RecentBytes

MS = 1_000_000
TABLE = {"device": "controller", "id": "table"}
SHOE = {"device": "dealing_shoe", "id": "DS-1"}


class Pair:
    """A controller end `a` and a device end `b` on a line without faults, each with its
    own clock (universe time + an offset), stepped as the virtual table steps them: at each
    instant every end with bytes waiting or a timer due is serviced (receive, then poll),
    device end first, until none is; then time jumps to the earliest timer."""

    def __init__(self, oa=5 * MS, ob=-3 * MS, ia=500, ib=500, t=0):
        self.t = t
        self.off = {"a": oa, "b": ob}
        self.a = LinkProtocol(TABLE, expect={"device": "dealing_shoe"}, boot_id=7, now=t + oa,
                              heartbeat_interval_ms=ia)
        self.b = LinkProtocol(SHOE, role="device", boot_id=9, now=t + ob,
                              heartbeat_interval_ms=ib)
        self.inbox = {"a": bytearray(), "b": bytearray()}
        self.written = {"a": 0, "b": 0}                 # bytes each end wrote
        self.write("a", self.a.begin_handshake(self.now("a")))
        self.settle()

    def now(self, who):
        return self.t + self.off[who]

    def write(self, who, actions):
        raw = b"".join(x.raw for x in actions if type(x) is Write)
        self.written[who] += len(raw)
        self.inbox["b" if who == "a" else "a"] += raw

    def end(self, who):
        return self.a if who == "a" else self.b

    def settle(self):
        while True:
            worked = False
            for who in ("b", "a"):
                end, now = self.end(who), self.now(who)
                due = end.next_due()
                if self.inbox[who] or (due is not None and due <= now):
                    data, self.inbox[who] = bytes(self.inbox[who]), bytearray()
                    out = end.receive(data, now) if data else []
                    self.write(who, out + end.poll(now))
                    worked = True
            if not worked:
                return

    def next_instant(self):
        dues = [self.t + max(0, d - self.now(w)) for w in ("a", "b")
                for d in [self.end(w).next_due()] if d is not None]
        return min(dues)

    def run_until(self, until):
        """Stepwise: every instant up to `until` (universe time) the timers bring."""
        self.settle()
        while self.next_instant() <= until:
            self.t = max(self.next_instant(), self.t + 1)
            self.settle()
        self.t = until

    def bulk_until(self, until):
        """advance_idle on both ends: each end's beats and the other's, heard at once."""
        a, b = self.a, self.b
        oa, ob = self.off["a"], self.off["b"]
        beats_a = [s - oa for s in a.heartbeats_until(until + oa)]
        beats_b = [s - ob for s in b.heartbeats_until(until + ob)]
        na = a.advance_idle(until + oa, [u + oa for u in beats_b])
        nb = b.advance_idle(until + ob, [u + ob for u in beats_a])
        self.written["a"] += na * len(a.heartbeat_frame)
        self.written["b"] += nb * len(b.heartbeat_frame)
        self.t = until


def state(end):
    """Everything a LinkProtocol holds, its decoder's state included."""
    out = {k: v for k, v in vars(end).items()      # (_heartbeat: heartbeat_frame's cache)
           if k not in ("codec", "handshake_error", "_queue", "_rejections", "stats",
                        "_heartbeat")}
    out["codec"] = {k: (dict(v) if k == "counts" else v) for k, v in vars(end.codec).items()}
    out["handshake_error"] = repr(end.handshake_error)
    out["_queue"], out["_rejections"] = list(end._queue), list(end._rejections)
    out["stats"] = dict(end.stats)
    return out


def both(pair):
    return state(pair.a), state(pair.b), dict(pair.written), pair.t


@pytest.mark.parametrize("ia, ib, oa, ob", [
    (500, 500, 5 * MS, -3 * MS),           # the figures of section 8, clocks apart
    (300, 500, 0, 123_456_789),            # intervals differ: beats interleave
    (700, 450, -42, 10 ** 12),             # and the other way round
])
def test_advance_idle_leaves_both_ends_as_their_heartbeats_one_by_one(ia, ib, oa, ob):
    stepwise, bulk = Pair(oa, ob, ia, ib), Pair(oa, ob, ia, ib)
    assert both(stepwise) == both(bulk) and stepwise.a.connected and stepwise.b.connected
    spans = [1, 499 * MS, 500 * MS, 1_000 * MS + 1, 7_777 * MS, 60_000 * MS]
    for i, span in enumerate(spans):
        # a command now and then shifts one end's phase (its frame resets its heartbeat)
        for p in (stepwise, bulk):
            if i % 2:
                p.a.send({"cmd": "status"})
                p.write("a", p.a.poll(p.now("a")))
                p.settle()
            assert p.a.quiet and p.b.quiet
        before = stepwise.b.stats["heartbeats_sent"] + stepwise.a.stats["heartbeats_sent"]
        until = stepwise.t + span
        stepwise.run_until(until)
        bulk.bulk_until(until)
        assert both(stepwise) == both(bulk), "span %d of %d ns" % (i, span)
        after = stepwise.b.stats["heartbeats_sent"] + stepwise.a.stats["heartbeats_sent"]
        if span >= 1_000 * MS:
            assert after > before               # beats did cross: the comparison can fail
    assert stepwise.a.stats["heartbeats_sent"] > 80 and not stepwise.a.faults


def test_advance_idle_refuses_what_poll_would_not_do_and_changes_nothing():
    p = Pair()
    a = p.a
    kept = state(a)
    # the watchdog would fire: nothing heard for more than the timeout by `until`
    with pytest.raises(ValueError, match="watchdog"):
        a.advance_idle(p.now("a") + a.heartbeat_timeout_ns + 1)
    # nor before a heartbeat heard late
    late = a._last_heard + a.heartbeat_timeout_ns + 1
    with pytest.raises(ValueError, match="watchdog"):
        a.advance_idle(late, [late])
    assert state(a) == kept
    a.advance_idle(a._last_heard + a.heartbeat_timeout_ns)      # exactly at it: not yet
    a.send({"cmd": "status"})                                    # something to send: not idle
    kept = state(a)
    with pytest.raises(ValueError, match="not quiet"):
        a.advance_idle(p.now("a"))
    assert state(a) == kept and not a.quiet


def test_a_stepwise_pair_whose_peer_beats_slower_than_the_timeout_goes_silent():
    """The state advance_idle refuses is real: a peer beating every 2.5 s against a 2 s
    watchdog is reported silent by poll() (the scheduler stops its bulk span before it)."""
    p = Pair(ib=2500)
    p.run_until(p.t + 3_000 * MS)
    assert "silent" in p.a.faults


def test_the_decoder_fed_heartbeats_in_bulk_is_the_decoder_fed_them_one_by_one():
    beat = Codec().encode(MsgType.HEARTBEAT, 0)
    one, bulk = Codec(receives=MsgType.EVENT), Codec(receives=MsgType.EVENT)
    for c in (one, bulk):
        c.feed(beat + b"\x55\x55")
        c.expire()                                   # a junk run reported, the line quiet
        assert c.idle
    for _ in range(37):
        one.feed(beat)
    bulk.fed_intact(37, len(beat))
    assert vars(one) == vars(bulk) and one.accepted == 38 and one.counts["junk"] == 1
    bulk.feed(b"\x7e")                               # a frame begun: no longer alone
    with pytest.raises(ValueError):
        bulk.fed_intact(1, len(beat))


@pytest.mark.parametrize("start, times", [(0, 3), (0, 20_000), (65_000, 3_000), (79_990, 1)])
def test_recent_bytes_added_in_bulk_trim_where_one_by_one_would(start, times):
    beat = Codec().encode(MsgType.HEARTBEAT, 0)
    one, bulk = RecentBytes(64 * 1024), RecentBytes(64 * 1024)
    for r in (one, bulk):
        r += bytes(range(256)) * (start // 256) + b"x" * (start % 256)
    for _ in range(times):
        one += beat
    bulk.add_repeated(beat, times)
    assert bytes(one) == bytes(bulk) and one.total == bulk.total


@pytest.mark.parametrize("first, step, count, until_after, outcome", [
    (0, 500 * MS, 3, 0, "ok"),                    # beats in time
    (0, 500 * MS, 1, 10, "ok"),
    (1, 2_000 * MS + 1, 2, 0, "refused"),         # the second beat comes too late
    (2_000 * MS + 1, 500 * MS, 2, 0, "refused"),  # the first one does
    (0, 500 * MS, 3, -1, "refused"),              # the last one is after `until`
    (0, 500 * MS, 0, 0, "ok"),                    # none heard
])
def test_heartbeats_heard_given_as_a_range_are_judged_as_the_list_of_them(first, step, count,
                                                                         until_after, outcome):
    """advance_idle takes the beats heard as any ascending sequence and judges a range by
    arithmetic (the virtual table passes ranges): the same end state, or the same refusal
    word for word, as the list of the same times."""
    results = []
    for kind in (list, range):
        a = Pair().a
        start = a._last_heard + first
        beats = range(start, start + count * step, step)
        until = (beats[-1] if count else a._last_heard + 1_000 * MS) + until_after
        try:
            n = a.advance_idle(until, list(beats) if kind is list else beats)
            results.append(("ok", n, state(a)))
        except ValueError as exc:
            results.append(("refused", str(exc)))
    assert results[0] == results[1] and results[0][0] == outcome
