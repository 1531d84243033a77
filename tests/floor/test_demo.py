"""`tablectl floor demo`: the server, the floor and N tables start, the page serves them,
Ctrl-C stops every process."""

import json
import os
import re
import signal
import stat
import time
import urllib.error
import urllib.request

import pytest

from tests.floor.conftest import logged_in, tablectl, wait_for


@pytest.mark.reg("669a.2(c)")
def test_the_demo_starts_a_floor_of_tables_and_ctrl_c_stops_it(tmp_path):
    p = tablectl("floor", "demo", "--tables", "3", "--port", "0", "--pause", "0.2",
                 "--dir", str(tmp_path))
    try:
        first = p.stdout.readline()
        second = p.stdout.readline()
        m = re.match(r"floor page: (http://127\.0\.0\.1:\d+/)$", first.strip())
        assert m, first + p.stderr.read()[-2000:]
        pid = int(re.search(r"pid (\d+)", second).group(1))
        # the page wants the login the demo prints (issue 34): nothing without it
        pw_file = re.search(r"login: user supervisor, password in (\S+)\)", second).group(1)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(m.group(1) + "api/tables", timeout=5)
        assert refused.value.code == 401
        with open(pw_file) as f:
            page = logged_in(m.group(1), "supervisor", f.read().strip())

        def tables():
            with page.open(m.group(1) + "api/tables", timeout=5) as r:
                docs = json.load(r)
            return docs if len(docs) == 3 and all(
                d.get("rows", 0) > 20 and d["link"]["reachable"] for d in docs) else None
        docs = wait_for(tables, timeout=60, step=0.5, what="three tables on the page")
        assert len({d["game"] for d in docs}) == 3          # mixed games
        assert "linked progressive RIU-LINK: T01" in second + p.stdout.readline()

        def links():                # the Raise It Up table's wagers on the demo's link
            with page.open(m.group(1) + "api/links", timeout=5) as r:
                got = {d["link"]: d for d in json.load(r)}
            lk = got.get("RIU-LINK")
            return lk if lk and lk["contributions"] >= 2 else None
        lk = wait_for(links, timeout=60, step=0.5, what="the link's meter on the page")
        assert lk["tables"] == ["T01"] and lk["game"] == "raise-it-up-stud"
        assert lk["value"] >= 100000 and lk["operable"]
        with page.open(m.group(1), timeout=5) as r:
            assert b"supervisor (supervisor)" in r.read()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 0, err[-2000:]
    assert "stopped: 3 tables" in out
    assert "Traceback" not in err, err[-2000:]
    # TLS with the CA it made; every secret it wrote its owner's only, no password in clear
    assert "nats-server tls://127.0.0.1:" in second and "with TLS" in second
    secrets = [os.path.join(tmp_path, f) for f in os.listdir(tmp_path)
               if f.endswith((".password", ".signing.pem", ".conf")) or
               f in ("floor-users.json", "table-keys")] + \
        [os.path.join(tmp_path, "tls", f) for f in ("ca-key.pem", "node-key.pem")]
    assert len(secrets) >= 3 + 1 + 1 + 1 + 1 + 2
    for path in secrets:
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, path
    conf = open(os.path.join(tmp_path, "nats-n1.conf")).read()
    for path in secrets:
        if path.endswith(".password"):
            assert open(path).read().strip() not in conf, path
    time.sleep(0.2)
    assert not os.path.exists("/proc/%d" % pid) or \
        open("/proc/%d/stat" % pid).read().split()[2] == "Z"


def test_the_demo_plays_every_game_sim_plays_through_sims_own_command_line(tmp_path):
    """The demo knows `tablectl sim` only by its command line (it imports nothing of
    controller.lab.sim): its games are the ones sim plays, each once, and every table's command is
    one sim's parser takes as it is."""
    from controller.cli import build_parser
    from controller.lab.floor_demo import LINKED_GAME, demo_games, table_command
    from controller.lab.sim import PLAYABLE, cmd_sim
    games = demo_games()
    assert games[0] == LINKED_GAME and sorted(games) == sorted(PLAYABLE)
    parser = build_parser()
    for i, game in enumerate(games):
        argv = table_command(str(tmp_path), "nats://127.0.0.1:4222", "T%02d" % (i + 1), game,
                             i, 0.2, 0.05)
        assert argv[1:4] == ["-m", "controller.cli", "sim"]
        args = parser.parse_args(argv[3:])
        assert args.func is cmd_sim and args.game == game and args.table_id == "T%02d" % (i + 1)
        assert (args.link == "RIU-LINK") == (game == LINKED_GAME)
