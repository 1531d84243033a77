"""The link's controller under faults, real processes: SIGKILLed mid-hit (also between its two
writes, by the crash hook) and restarted; the JetStream leader of a three-node cluster
killed mid-play. After each: no double award, no lost contribution, reconcile holds."""

import asyncio
import json
import os
import shutil
import signal
import time

import pytest

from controller.wire import subjects as S
from controller.floor.linkctl import ControllerThread
from tests.floor.conftest import CA_FILES, FLOOR_PW, ROOT, public_keys, tablectl, wait_for
from tests.floor.linkpub import LinkTable
from tests.floor.test_link_controller import cli, kv_json


class Play:
    """T1 and T2 playing on L1 in the background (an asyncio task on a thread of the test):
    each round a contribution per seat and, every `hit_every` rounds, a hit it waits the
    award of. Counts what it sent."""

    def __init__(self, url, passwords, rounds, hit_every=3, pause=0.02):
        import threading
        self.url, self.passwords = url, passwords
        self.rounds, self.hit_every, self.pause = rounds, hit_every, pause
        self.contributions = 0
        self.hits = []                  # (table, round, seat)
        self.awards = {}
        self.done_rounds = 0
        self.error = None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)
        self.thread.start()

    async def _main(self):
        tables = [await LinkTable(self.url, "L1", t, self.passwords[t], journal=True).start()
                  for t in ("T1", "T2")]
        try:
            for r in range(1, self.rounds + 1):
                for i, t in enumerate(tables):
                    await t.contribute(r, i + 1, 500 + 100 * i)
                    self.contributions += 1
                if r % self.hit_every == 0:
                    t = tables[r % 2]
                    seat = r % 2 + 1
                    await t.hit(r, seat)
                    self.hits.append((t.table, r, seat))
                    a = await t.award(r, seat, timeout=60)
                    self.awards[t.ident(r, seat)] = a
                self.done_rounds = r
                await asyncio.sleep(self.pause)
        except BaseException as e:              # noqa: BLE001 - the test reads it
            self.error = e
        finally:
            for t in tables:
                await t.close()

    def join(self, timeout=120):
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "play did not finish"
        if self.error:
            raise self.error


def floor_args(url, pwfile):
    return ["--nats", url, "--password-file", pwfile]


def check_after(url, pwfile, play):
    """No double award, no lost contribution, reconcile holds."""
    m = wait_for(lambda: (lambda x: x if x and x["contributions"] == play.contributions
                          and x["hits"] == len(play.hits) else None)(
        asyncio.run(kv_json(url, S.meter_key("L1")))[0]), timeout=60,
        what="every contribution and hit applied once")
    assert m["awarded"] == sum(a["amount"] for a in play.awards.values())
    assert len({a["seq"] for a in play.awards.values()}) == len(play.hits)
    rc, out, err = cli("floor", "reconcile", "L1", *floor_args(url, pwfile))
    assert rc == 0, out + err
    return m


def run_controller(floor, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return tablectl("floor", "link", "run", "L1", *floor_args(floor.url,
                                                             floor.floor_password_file()),
                    "--table-keys", floor.table_keys_file(), env=e)


@pytest.mark.reg("669a.2(c)")
def test_the_controller_sigkilled_mid_hit_and_between_its_writes_restarts_clean(floor):
    pw = floor.floor_password_file()
    assert cli("floor", "link", "define", "L1", "--game", "raise-it-up-stud", "--wager",
               "progressive", "--tables", "T1,T2", "--reset", "100000", "--rate", "0.14",
               "--confirm-above", "100000000000", *floor_args(floor.url, pw))[0] == 0
    # killed by itself between the meter's CAS (last_award) and the award entry, at the 2nd hit
    proc = run_controller(floor, {"TABLECTL_LINKCTL_CRASH": "after_meter_cas:2"})
    procs = [proc]
    try:
        play = Play(floor.url, floor.passwords, rounds=45, hit_every=3)
        proc.wait(60)
        assert proc.returncode == -signal.SIGKILL
        m, _ = asyncio.run(kv_json(floor.url, S.meter_key("L1")))
        assert m["hits"] == 2 and m["last_award"]
        assert asyncio.run(kv_json(floor.url, m["last_award"]["key"]))[0] is None
        proc = run_controller(floor)                # restarted: it finishes that award first
        procs.append(proc)
        wait_for(lambda: asyncio.run(kv_json(floor.url, m["last_award"]["key"]))[0],
                 timeout=60, what="the award left half-written")
        # and a plain SIGKILL mid-play, restarted again
        wait_for(lambda: play.done_rounds >= 24, timeout=60, what="play going on")
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        time.sleep(0.5)
        proc = run_controller(floor)
        procs.append(proc)
        play.join()
        check_after(floor.url, pw, play)
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                p.wait(15)


@pytest.mark.skipif(not shutil.which("openssl"), reason="openssl makes the test's certificates")
@pytest.mark.reg("669a.2(c)")
def test_the_links_stream_leader_killed_mid_play_on_a_three_node_cluster(tmp_path):
    from tests.floor.test_cluster import ClusterFloor, stream_leader
    fl = ClusterFloor(tmp_path)
    ctl = None
    pwfile = str(tmp_path / "floor.pw")
    with open(pwfile, "w") as f:
        f.write(FLOOR_PW + "\n")
    try:
        fl.start()
        args = ["--nats", fl.url, "--password-file", pwfile, "--ca-file", fl.tls["ca"],
                "--replicas", "3"]
        rc, out, err = cli("floor", "link", "define", "L1", "--game", "raise-it-up-stud",
                           "--wager", "progressive", "--tables", "T1,T2", "--reset", "100000",
                           "--rate", "0.14", "--confirm-above", "100000000000", *args)
        assert rc == 0, err
        ctl = ControllerThread(fl.url, "L1", password=FLOOR_PW, ca_file=fl.tls["ca"],
                               replicas=3, listen_s=0.2, keys=public_keys())
        play = Play(fl.url, fl.passwords, rounds=60, hit_every=4, pause=0.05)
        wait_for(lambda: play.done_rounds >= 12, timeout=60, what="play on the cluster")

        name, replicas = stream_leader(fl.url, S.LINK_STREAM)
        assert replicas == 3
        next(n for n in fl.nodes if n.name == name).kill()
        at = play.done_rounds
        wait_for(lambda: play.done_rounds >= at + 12, timeout=90, what="play after the kill")
        assert stream_leader(fl.url, S.LINK_STREAM)[0] != name
        play.join(180)
        assert ctl.alive and ctl.error is None
        rc, out, err = cli("floor", "reconcile", "L1", *args)
        assert rc == 0, out + err
        m, _ = asyncio.run(kv_json(fl.url, S.meter_key("L1")))
        assert m["contributions"] == play.contributions and m["hits"] == len(play.hits)
    finally:
        if ctl is not None:
            ctl.stop()
        fl.stop()
