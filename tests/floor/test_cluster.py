"""The production shape on loopback: a three-node JetStream cluster, TLS for clients and
routes (a CA made by openssl for the test), the stream and the bucket with three replicas
and every write synced; the stream's leader is SIGKILLed mid-play, and every row is still
there once and in order."""

import asyncio
import time

from controller.wire import subjects as S
import shutil

import pytest

from controller.lab.natsserver import cluster, make_certs, users_block
from tests.floor.conftest import (CA_FILES, FLOOR_PW, TABLES, ServiceThread, _connect, ensure,
                                  passwords)
from tests.floor.test_faults import Player, floor_doc, settle


class ClusterFloor:
    def __init__(self, tmp):
        self.passwords = passwords()
        self.tls = make_certs(str(tmp))
        self.nodes = cluster(str(tmp), users_block(TABLES, FLOOR_PW, self.passwords),
                             tls=self.tls)
        CA_FILES[self.url] = self.tls["ca"]

    @property
    def url(self):
        return ",".join(n.url for n in self.nodes)

    def start(self):
        """Every node started together (a route needs its peers), then the floor's stream and
        bucket with three replicas, asked again until the cluster has elected its meta
        leader (30 s). The caller stops the nodes (`stop`), also when this raises."""
        for n in self.nodes:
            n.start(wait=False)
        for n in self.nodes:
            n.wait_ready()
        deadline = time.monotonic() + 30
        while True:
            try:
                ensure(self.url, replicas=3)
                return
            except Exception:                   # noqa: BLE001 - not ready yet
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def stop(self):
        for n in self.nodes:
            n.stop()


def stream_leader(url, stream=S.STREAM):
    """(the stream's leader node, its replicas)."""
    async def go():
        nc = await _connect(url)
        try:
            info = await nc.jetstream(timeout=5).stream_info(stream)
            return info.cluster.leader, info.config.num_replicas
        finally:
            await nc.close()
    return asyncio.run(go())


@pytest.mark.skipif(not shutil.which("openssl"), reason="openssl makes the test's certificates")
def test_three_node_cluster_survives_its_leader_killed_mid_play(tmp_path):
    fl = ClusterFloor(tmp_path)
    players, svc = [], None
    try:
        fl.start()
        svc = ServiceThread(fl.url)
        tables = {"T1": str(tmp_path / "T1.journal"), "T2": str(tmp_path / "T2.journal")}
        players = [Player(fl, "T1", "blackjack", tables["T1"], seed=5, pause=0.25),
                   Player(fl, "T2", "flop-poker", tables["T2"], seed=6, pause=0.25)]
        from tests.floor.conftest import wait_for
        wait_for(lambda: all(floor_doc(fl, t)["head"]["seq"] > 60 for t in tables),
                 timeout=60, what="play reaching the floor")
        leader, replicas = stream_leader(fl.url)
        assert replicas == 3 and fl.url.startswith("tls://")
        victim = next(n for n in fl.nodes if n.name == leader)
        victim.kill()
        acked = [p.uplink.acked_seq for p in players]
        try:
            wait_for(lambda: all(p.uplink.acked_seq > a + 30 for p, a in zip(players, acked)),
                     timeout=120)
        except AssertionError:
            raise AssertionError("rows stored after the leader died: %r"
                                 % [p.uplink.link_status() for p in players])
        new_leader, _ = stream_leader(fl.url)
        assert new_leader != leader
        for p in players:
            p.stop()
        players = []
        settle(fl, tables)
    finally:
        try:
            for p in players:
                p.stop()
            if svc is not None:
                svc.stop()
        finally:
            fl.stop()
