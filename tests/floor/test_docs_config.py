"""docs/floor.md's three-node cluster configuration works as written: the block is started
as three nodes on loopback (hosts, ports, paths and the two passwords put in), and a table
publishes through it with TLS, its rows stored with three replicas."""

import asyncio
import os
import re
import shutil

import pytest

from controller.wire import subjects as S
from controller.lab.natsserver import NatsServer, free_port, make_certs
from controller.wire.connection import tls_context
from tests.floor.conftest import ROOT, wait_for


def doc_block():
    with open(os.path.join(ROOT, "docs", "floor.md")) as f:
        text = f.read()
    blocks, current = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append("".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return next(b for b in blocks if "server_name: floor-nats-1" in b)


def node_conf(block, k, ports, cports, tls, store):
    others = [j for j in (1, 2, 3) if j != k]
    out = block.replace("host: 0.0.0.0", "host: 127.0.0.1")
    out = out.replace("port: 4222", "port: %d" % ports[k]).replace("port: 6222",
                                                                  "port: %d" % cports[k])
    out = re.sub(r"routes: \[.*?\]", "routes: [%s]" % ", ".join(
        '"nats-route://127.0.0.1:%d"' % cports[j] for j in others), out, flags=re.S)
    out = out.replace("/etc/nats/floor-nats-1-key.pem", tls["key"])
    out = out.replace("/etc/nats/floor-nats-1.pem", tls["cert"])
    out = out.replace("/etc/nats/casino-ca.pem", tls["ca"])
    out = out.replace("/var/lib/nats/jetstream", store)
    out = out.replace("server_name: floor-nats-1", "server_name: floor-nats-%d" % k)
    from controller.lab.natsserver import hashed
    return out.replace("$FLOOR_BCRYPT", hashed("floor-pw", 4)).replace(
        "$T17_BCRYPT", hashed("t17-pw", 4))


@pytest.mark.skipif(not shutil.which("openssl"), reason="openssl makes the test's certificates")
def test_the_documented_cluster_configuration_runs(tmp_path):
    import nats
    block = doc_block()
    assert "sync_interval: always" in block and "verify: true" in block
    tls = make_certs(str(tmp_path))
    ports = {k: free_port() for k in (1, 2, 3)}
    cports = {k: free_port() for k in (1, 2, 3)}
    nodes = [NatsServer(str(tmp_path), [], port=ports[k], name="floor-nats-%d" % k,
                        text=node_conf(block, k, ports, cports, tls,
                                       str(tmp_path / ("store-%d" % k))))
             for k in (1, 2, 3)]
    urls = ["tls://127.0.0.1:%d" % ports[k] for k in (1, 2, 3)]
    ctx = tls_context(urls[0], tls["ca"])

    async def go():
        from nats.js import api
        floor = await nats.connect(urls, user="floor", password="floor-pw", tls=ctx,
                                   connect_timeout=2, inbox_prefix=S.inbox_prefix("floor"))
        js = floor.jetstream(timeout=10)
        for _ in range(40):                     # the meta leader is being elected
            try:
                await js.add_stream(api.StreamConfig(
                    name=S.STREAM, subjects=[S.JOURNAL_SUBJECTS], num_replicas=3,
                    allow_direct=True))
                break
            except Exception:                   # noqa: BLE001 - not yet
                await asyncio.sleep(0.5)
        table = await nats.connect(urls, user="T17", password="t17-pw", tls=ctx,
                                   inbox_prefix=S.inbox_prefix("T17"))
        ack = await table.jetstream(timeout=10).publish(
            S.journal_subject("T17"), b"{}", headers={"Nats-Msg-Id": "T17:1",
                                                     "Nats-Expected-Last-Subject-Sequence": "0"})
        info = await js.stream_info(S.STREAM)
        await table.close()
        with pytest.raises(Exception):          # a wrong password: refused
            await nats.connect(urls, user="T17", password="wrong", tls=ctx,
                               max_reconnect_attempts=0, allow_reconnect=False,
                               connect_timeout=2)
        await floor.close()
        return ack, info
    try:
        for n in nodes:
            n.start(wait=False)
        for n in nodes:
            n.wait_ready()
        ack, info = asyncio.run(go())
    finally:
        for n in nodes:
            n.stop()
    assert ack.seq == 1 and not ack.duplicate
    assert info.config.num_replicas == 3 and len(info.cluster.replicas) == 2
    assert wait_for
