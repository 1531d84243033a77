"""The virtual table's idle lines in bulk (World.idle_span) against the stepwise scheduler.

With `bulk` the scheduler moves an idle table through its heartbeats' instants without
servicing the lines, ticking the loop at each as before, and advances each line's ends in
one go (LinkProtocol.advance_idle); and each pass asks only the ends woken (bytes for them,
a send, a handshake begun) or due (a heap of their timers). These hold it to the stepwise
scheduler that asks every end at every pass and services every heartbeat (bulk=False, or
TABLECTL_VIRTUAL_STEPWISE=1): the complete state of every
line's two ends, the lines' bytes, what each driver reports, the controller's counters and
the journal, byte for byte, after the same play; and a soak with faults and power cuts
writing the same journal both ways.
"""

import os

import pytest

from controller.lab.soak import soak_game
from hal_sim.virtual import S, VirtualTable

from tests.drivers.test_link_idle import state as end_state


def _transport(link):
    return {k: getattr(link, k) for k in ("_pending", "_closed", "_reopen_at", "_started")}


def _complete(table, journal):
    """Everything of the table a heartbeat could touch, and the journal's bytes."""
    w = table.world
    out = {"t": w.universe.t, "steps": w.steps}
    w.touch_all()                           # the ends' state is read below, not via the Link
    for line, dev, _, drv, _ in w.pairs:
        out[line.path] = {
            "device": (end_state(dev.protocol), _transport(dev)),
            "driver": (end_state(drv.protocol), _transport(drv)),
            "written": (bytes(line.written), line.written.total), "read": line.read_total,
            "wire": (bytes(line.to_driver), bytes(line.to_device), list(line._pending))}
    for name, driver in table.runtime.drivers.items():
        if hasattr(driver, "status"):
            out["status:" + name] = driver.status()
    ctl = table.ctl
    out["ctl"] = (dict(ctl.stats), ctl.model.state, ctl.seq, list(ctl.lockouts))
    with open(journal, "rb") as f:
        out["journal"] = f.read()
    return out


def _play(tmp_path, name, bulk, game, slow_device=None):
    journal = str(tmp_path / ("%s.journal" % name))
    table = VirtualTable(game, 3, journal, bulk=bulk)
    table.boot()
    try:
        for _ in range(2):
            table.play_round()
        table.world.run_for(47.3)                       # a long idle table
        if slow_device:
            # the device's line delays it 1 s, then heals, and the device beats slower
            # than the driver's watchdog: its first beat comes in time (the last ones
            # were late), the next does not, and the driver finds it silent in the middle
            # of an idle span, and locks the table out
            sim = table.devices.sim.serial[slow_device]
            sim.inject("delay", 1000)
            table.world.run_for(3.3)
            sim.inject("none")
            sim.link.protocol.heartbeat_interval_ns = int(2.7 * S)
            table.world.run_for(9.1)
        else:
            # line faults that leave a heartbeat alone, late or in halves: a bad CRC waits
            # for the next EVENT frame, a delayed line's beats arrive 20 ms after they
            # leave, a split line's in two halves, a line both late and split
            sims = table.devices.sim.serial
            sims["card_reader"].inject("bad_crc", 2)
            sims["shoe"].inject("delay", 20)
            sims["dealer_panel"].inject("split", 2)
            sims["shuffler"].inject("delay", 30)
            sims["shuffler"].inject("split", 7)
            table.world.run_for(31.7)
            table.play_round()                          # the delay still on
        table.ctl.journal.flush()
        return _complete(table, journal), (table.world.spans, table.world.quiet_ticks)
    finally:
        table.close()


@pytest.mark.parametrize("game, slow", [("raise-it-up-stud", None),
                                        ("blackjack", "shoe")])
def test_an_idle_table_in_bulk_is_the_stepwise_table_to_the_byte(tmp_path, game, slow):
    stepwise, none = _play(tmp_path, "stepwise", False, game, slow)
    bulk, (spans, quiet) = _play(tmp_path, "bulk", True, game, slow)
    # the bulk path did run (idle spans, idle ticks skipped), the other not
    assert none == (0, 0) and spans > 20 and quiet > 20
    assert set(stepwise) == set(bulk)
    for key in stepwise:
        assert stepwise[key] == bulk[key], key
    beats = sum(v["device"][0]["stats"]["heartbeats_sent"] for k, v in bulk.items()
                if k.startswith("virtual://"))
    assert beats > 500                                # heartbeats did cross in bulk
    if slow:
        assert bulk["ctl"][1] == "locked_out"
        assert "silent" in bulk["status:" + slow]["last_fault"]["reason"]


@pytest.mark.reg("581.13(i)")
def test_a_device_going_silent_in_an_idle_span_locks_out_at_the_same_instant(tmp_path):
    """The watchdog is not skipped with the heartbeats: a device beating slower than its
    driver's timeout is found silent at the instant the stepwise table finds it, and the
    table locks out (a malfunction) with the same journal rows."""
    stepwise, _ = _play(tmp_path, "s", False, "flop-poker", "card_reader")
    bulk, _ = _play(tmp_path, "b", True, "flop-poker", "card_reader")
    assert bulk["ctl"][1] == stepwise["ctl"][1] == "locked_out"
    assert bulk["ctl"][3][-1]["ts_ns"] == stepwise["ctl"][3][-1]["ts_ns"]
    assert bulk["journal"] == stepwise["journal"]


@pytest.mark.parametrize("game, seed", [("raise-it-up-stud", 5),
                                        ("six-card-fortune-pai-gow", 9)])
def test_a_soak_with_faults_and_power_cuts_writes_the_same_journal_in_bulk(monkeypatch, game,
                                                                           seed):
    """The guard of the bulk path: a soak seed, device and line faults (junk, babble,
    delays, silence, a device replaced, restarts) and power cuts drawn from it, gives the
    same journal bytes and the same summary either way."""
    import shutil
    import tempfile
    runs = {}
    for mode in ("1", "0"):
        monkeypatch.setenv("TABLECTL_VIRTUAL_STEPWISE", mode)
        d = tempfile.mkdtemp(prefix="tablectl-test-",
                             dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
        try:
            s = soak_game(game, 14, seed, faults=1.0, power_cuts=0.3, directory=d)
            with open(os.path.join(d, "%s.journal" % game), "rb") as f:
                runs[mode] = f.read(), {k: v for k, v in s.items() if k != "cpu_s"}
        finally:
            shutil.rmtree(d, ignore_errors=True)
    (stepwise, s1), (bulk, s0) = runs["1"], runs["0"]
    assert s1["power_cuts"] >= 1 and sum(s1["faults"].values()) >= 5
    assert s0 == s1 and s0["violations"] == []
    assert bulk == stepwise


def _looked_at_while_idle(tmp_path, name, bulk):
    """Every driver's status (its link's counters through the Link), the line's bytes and
    reads, taken between rounds and at odd instants of a long idle table."""
    table = VirtualTable("blackjack", 8, str(tmp_path / ("%s.journal" % name)), bulk=bulk)
    table.boot()
    looks, lazy_seen = [], 0
    try:
        for step in range(8):
            if step % 3 == 0:
                table.play_round()
            else:
                table.world.run_for(1.7 + step)
            lazy_seen += len(table.world._lazy)
            for line, dev, _, drv, _ in table.world.pairs:
                looks.append((line.path, dict(drv.stats), dict(dev.stats),
                              bytes(line.written), line.read_total))
            looks.append({n: d.status() for n, d in table.runtime.drivers.items()
                          if hasattr(d, "status")})
    finally:
        table.close()
    return looks, lazy_seen


def test_a_line_carried_idle_is_the_stepwise_line_whenever_it_is_looked_at(tmp_path):
    """An idle line is carried span after span by its plan alone, its ends left as they
    were (World._lazy); whoever looks -- a status, a Link's counters, the line's bytes --
    finds it brought up to date first: what the stepwise table shows at the same instant."""
    stepwise, _ = _looked_at_while_idle(tmp_path, "s", False)
    bulk, lazy_seen = _looked_at_while_idle(tmp_path, "b", True)
    assert lazy_seen > 10                              # lines were carried when looked at
    assert len(bulk) == len(stepwise)
    for i, (want, got) in enumerate(zip(stepwise, bulk)):
        assert got == want, i


def _looked_at_by_ticks(tmp_path, name, bulk):
    """A part of the loop that reads every driver's status at each of its ticks: in bulk,
    at the heartbeats' instants inside idle spans, with the lines carried by their plans."""
    from controller.policies import Policy

    class Watcher(Policy):
        def __init__(self, table):
            self.table, self.seen = table, []

        def tick(self, ctl, now_ns):
            drivers = self.table.runtime.drivers
            # a status reads the links' counters (a look); a handshake error is read as a
            # use of the link (Link.before_use): the line brought up to date, then carried
            # on again from the span's last instant (World._carry_again)
            self.seen.append((now_ns, {n: d.status().get("link") for n, d in drivers.items()
                                       if hasattr(d, "status")},
                              [repr(d.link.handshake_error) for d in drivers.values()
                               if getattr(d, "link", None) is not None]))

    table = VirtualTable("props-and-hops", 4, str(tmp_path / ("%s.journal" % name)), bulk=bulk)
    table.boot()
    watcher = Watcher(table)
    table.ctl.policies.append(watcher)
    try:
        table.play_round()
        table.world.run_for(6.1)
        table.play_round()
    finally:
        table.close()
    return watcher.seen, table.world.spans


def test_a_line_looked_at_by_a_tick_inside_an_idle_span_is_the_stepwise_line(tmp_path):
    """A tick inside an idle span that reads a link's counters finds the line brought up
    to the span's last instant before it (World._span_done), as the stepwise table has
    serviced every beat before that tick."""
    stepwise, _ = _looked_at_by_ticks(tmp_path, "s", False)
    bulk, spans = _looked_at_by_ticks(tmp_path, "b", True)
    assert spans > 5 and len(bulk) > 20
    assert [look[0] for look in bulk] == [look[0] for look in stepwise]
    for want, got in zip(stepwise, bulk):
        assert got == want, want[0]
