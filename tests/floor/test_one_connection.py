"""One NATS connection per table process (issue 32's item, built with issue 31): the uplink
and every link client of a table share it (controller/wire/connection.py). Counted by the
real nats-server's own monitoring (/connz), not by our code."""

import json
import urllib.request

from controller.lab.natsserver import free_port
from tests.floor.conftest import FLOOR_PW, Floor, ensure, public_keys, wait_for
from tests.floor.test_link_controller import define


def connections(port, user):
    with urllib.request.urlopen("http://127.0.0.1:%d/connz?auth=1" % port, timeout=5) as r:
        conns = json.load(r).get("connections") or []
    return [c for c in conns if c.get("authorized_user") == user]


def test_a_tables_uplink_and_link_client_share_one_connection(tmp_path):
    from controller.floor.linkctl import ControllerThread
    from tests.floor.test_link_table_e2e import Table
    floor = Floor(tmp_path)
    monitor = free_port()
    floor.server.conf["http"] = "127.0.0.1:%d" % monitor
    floor.server.start()
    ctl = t = None
    try:
        ensure(floor.url)
        assert define(floor)[0] == 0
        ctl = ControllerThread(floor.url, "L1", password=FLOOR_PW, listen_s=0.2,
                               keys=public_keys())
        t = Table(tmp_path, floor, floor.url)       # its uplink and its link client
        assert t.sim.run(1) == 1
        assert t.uplink.state == "up" and t.client.state == "up"
        assert t.uplink._shared is t.client._shared
        mine = wait_for(lambda: connections(monitor, "T1"), what="T1 connected")
        assert len(mine) == 1, mine                 # before: one per part, 2 here
        t.close()
        t = None
        wait_for(lambda: connections(monitor, "T1") == [], what="closed with the last part")
    finally:
        if t is not None:
            t.sim.close()
        if ctl is not None:
            ctl.stop()
        floor.server.stop()
