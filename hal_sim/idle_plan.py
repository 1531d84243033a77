"""An idle line's heartbeats in bulk (hal_sim/virtual.py `World.idle_span`): when a line is
quiet -- nothing on it or for it but heartbeats -- its two ends beat at instants fixed by their
last frames, so a plan of those instants carries the line through an idle span, or many, by
arithmetic, and applies them to the ends (LinkProtocol.advance_idle, idle_timers) when the
scheduler or anyone else needs the line as it is. tests/sim/test_virtual_bulk.py holds it to
the stepwise scheduler that services every beat."""


def line_quiet(line, dev, drv):
    """Nothing on or for the line but heartbeats (World.idle_span): no byte on the wire
    either way, no silence (it drops a heartbeat; a delay makes it late, a split sends it
    in two halves, a bad CRC is put on an EVENT frame only), both links quiet, no driver's
    rejections batched."""
    return (not line._pending and not line.to_driver and not line.to_device
            and not line.silent
            and dev.port is line and drv.port is line.driver_end
            and not dev._pending and not drv._pending and not dev._closed
            and not drv._closed and dev.protocol.quiet and drv.protocol.quiet
            and (dev.on_due is None or dev.on_due() is None)
            and (drv.on_due is None or drv.on_due() is None))


class Plan:
    """One quiet line in an idle span: its device end `a` (writes at fa, fa+ia, ... in
    universe time; they reach the driver `delay` later, in two halves `split` apart if the
    line splits, as PtyPort.write sends them) and its driver end `b` (at fb, fb+ib, ...,
    read by the device at once); `oa`, `ob` each end's clock minus universe time; `index`
    its device end's in World.ends. `ok`: a split shorter than a beat's interval and the
    driver's frame gap (a half is never left long enough to be given up on)."""

    __slots__ = ("line", "a", "b", "oa", "ob", "fa", "ia", "fb", "ib", "delay", "split",
                 "index", "ok", "na", "nb", "ha", "hb", "done", "paid")

    def __init__(self, line, a, b, oa, ob, index):
        self.line, self.a, self.b, self.oa, self.ob, self.index = line, a, b, oa, ob, index
        self.ia, self.ib = a.heartbeat_interval_ns, b.heartbeat_interval_ns
        self.fa, self.fb = a._last_sent + self.ia - oa, b._last_sent + self.ib - ob
        self.delay, self.split = line.delay_ns, line.split_ns
        self.ok = self.split < min(self.ia, b.frame_gap_ns)
        # where its beats stand after the spans it carried the line through (run_to): each
        # end's next beat and the last beat each heard, in universe time; `done` the last
        # instant it carried it to (None: not carried, its ends are as they are)
        self.na, self.nb = self.fa, self.fb
        self.ha, self.hb = a._last_heard - oa, b._last_heard - ob
        self.done = None
        self.paid = (0, 0)                # beats of each end whose counts were paid (pay)

    def run_to(self, until):
        """The line carried through the beats up to universe time `until` (no delay, no
        split: a beat is heard when it is written); its ends are not touched until
        World._touch applies the plan (apply, pay), nor counted until it or a look
        (World._look) pays them."""
        sent = range(self.na, until + 1, self.ia)
        if sent:
            self.hb = sent[-1]
            self.na = sent[-1] + self.ia
        sent = range(self.nb, until + 1, self.ib)
        if sent:
            self.ha = sent[-1]
            self.nb = sent[-1] + self.ib
        self.done = until

    def arrivals(self, horizon):
        """The instants before `horizon` at which the device's beats (or their halves)
        reach the driver, other than when they leave."""
        out = []
        if self.delay:
            out.append(range(self.na + self.delay, horizon, self.ia))
        if self.split:
            out.append(range(self.na + self.delay + self.split, horizon, self.ia))
        return out

    def advance(self, until):
        """Both ends past the heartbeats up to universe time `until`, and the line with
        them: the device's beats (or halves) that arrived went by on the wire (`written`, as
        PtyPort._put keeps it), the driver read them (a first half it holds, as receive()
        leaves it), those still on their way wait on the line (PtyPort's `_pending`, due
        when PtyPort.write made them); the driver's beats were read by the device."""
        a, b, line, oa, ob, ia = self.a, self.b, self.line, self.oa, self.ob, self.ia
        whole = range(self.fa + self.delay + self.split, until + 1, ia)   # read whole
        sent_a = a.advance_idle(until + oa, range(self.fb + oa, until + oa + 1, self.ib))
        sent_b = b.advance_idle(until + ob, range(whole.start + ob, until + ob + 1, ia))
        beat = a.heartbeat_frame
        if not self.split:
            if whole:
                line.written.add_repeated(beat, len(whole))
            for k in range(len(whole), sent_a):           # still on the wire
                line._pending.append((self.fa + k * ia + oa + self.delay, beat))
        else:
            first, second = beat[:len(beat) // 2], beat[len(beat) // 2:]
            for _ in whole:
                line.written += first
                line.written += second
            for k in range(len(whole), sent_a):
                t1 = self.fa + k * ia + self.delay
                if t1 <= until:                           # its first half arrived
                    line.written += first
                    assert not b.receive(first, t1 + ob)  # held: half a frame
                else:
                    line._pending.append((t1 + oa, first))
                line._pending.append((t1 + self.split + oa, second))
        if sent_b:
            line.read_total += sent_b * len(b.heartbeat_frame)

    def beats(self, until):
        """(the device end's beats, the driver end's) since the plan was made, up to universe
        time `until`: each one heard by the other end when it is written (no delay, no split)."""
        return len(range(self.fa, until + 1, self.ia)), len(range(self.fb, until + 1, self.ib))

    def apply(self, until):
        """The ends' timers moved through the beats up to `until` (LinkProtocol.idle_timers:
        the last beat written and heard); their counts are pay()'s."""
        a, b, oa, ob = self.a, self.b, self.oa, self.ob
        a.idle_timers(until + oa, range(self.fb + oa, until + oa + 1, self.ib))
        b.idle_timers(until + ob, range(self.fa + ob, until + ob + 1, self.ia))

    def pay(self, until):
        """The counts of the beats up to `until` not paid yet (`paid`): each end's frames
        written and heard, bytes and decoder (LinkProtocol.idle_counts), the line's bytes that
        went by and the driver's the device read. Before apply() or after, once or in parts:
        they add up."""
        sent_a, sent_b = self.beats(until)
        da, db = sent_a - self.paid[0], sent_b - self.paid[1]
        if da or db:
            self.a.idle_counts(da, db)
            self.b.idle_counts(db, da)
            line = self.line
            if da:
                line._written.add_repeated(self.a.heartbeat_frame, da)
            line._read_total += db * len(self.b.heartbeat_frame)
            self.paid = (sent_a, sent_b)
