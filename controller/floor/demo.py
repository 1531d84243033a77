"""`tablectl floor demo --tables N`: a whole floor on this machine, for a newcomer.

A nats-server with JetStream on 127.0.0.1 (a free port, a store under the demo's folder, one
credential per table), the floor service with its page, and N `tablectl sim` processes of
mixed games, each journaling to its own file and forwarding it with its own credential,
a round a second, now and then a device fault that the floorperson clears. The Raise It Up
tables play their Progressive Payout Wager on one linked progressive (DEMO_LINK: defined
here, its controller on a thread of this process, docs/linked-progressives.md), whose meter
the floor page shows. It prints the page's address; Ctrl-C stops the tables, the link's
controller, the floor and the server, in that order.
"""

import asyncio
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading

from controller.floor.natsserver import NatsServer, users_block
from controller.games import ALL_GAMES, declaration
from hal_sim.games import sim_game

DEMO_LINK = "RIU-LINK"
# the game whose tables share the demo's link: the simulator's registry says which
LINKED_GAME = next(g for g in ALL_GAMES if sim_game(g).demo_linked)


def demo_games():
    """The games in the order the tables take them: the linked game first and every seventh
    table after (so 8 tables put two Raise It Up tables on the link), the rest mixed: every
    game, as `tablectl sim` plays every one (controller/sim.py PLAYABLE, which the demo knows
    only by its command line, table_command; tests/floor keep the two the same)."""
    return [LINKED_GAME] + [g for g in ALL_GAMES if g != LINKED_GAME]


async def define_demo_link(url, floor_pw, tables):
    """The demo's link across its linked game's tables, on the game's first linkable wager at
    the texts' minimums (Raise It Up: 669a.12(e)(3), $1,000 reset, 14%)."""
    from controller.floor import links as L
    from controller.floor.linkcfg import read_config, write_version
    from controller.floor.linkctl import connect, ensure_link_streams
    nc = await connect(url, "floor", floor_pw, name="tablectl-demo", reconnect=False)
    try:
        js = nc.jetstream(timeout=5)
        kv = await ensure_link_streams(js)
        old, rev = await read_config(kv, DEMO_LINK)
        wager = declaration(LINKED_GAME).linkable[0][0]
        _section, reset, rate = L.LINKABLE[LINKED_GAME][wager]
        new = L.next_version(old, {"link": DEMO_LINK, "game": LINKED_GAME,
                                   "wager": wager, "tables": tables,
                                   "reset": reset, "rate": str(rate)})
        await write_version(nc, js, kv, old, rev, new, listen_s=0)
    finally:
        await nc.close()


def table_ids(n):
    return ["T%02d" % (i + 1) for i in range(n)]


def write_secret(path, text):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text + "\n")
    return path


def table_command(workdir, url, table, game, seed, pause, fault_rate):
    fault = sim_game(game).demo_fault
    return [sys.executable, "-m", "controller.cli", "sim", "--game", game, "--seed", str(seed),
            "--journal", os.path.join(workdir, "%s.journal" % table), "--floor", url,
            "--table-id", table, "--floor-password-file",
            os.path.join(workdir, "%s.password" % table), "--pause", str(pause),
            "--fault", "%s:%s" % (fault, fault_rate), "--json"] + \
        (["--link", DEMO_LINK] if game == LINKED_GAME else [])


def cmd_demo(args, out, err):
    if not 1 <= args.tables <= 64:
        err.write("tablectl floor demo: --tables is 1 to 64\n")
        return 2
    workdir = args.dir or tempfile.mkdtemp(prefix="tablectl-floor-")
    os.makedirs(workdir, exist_ok=True)
    tables = table_ids(args.tables)
    passwords = {t: secrets.token_urlsafe(18) for t in tables}
    for t in tables:
        write_secret(os.path.join(workdir, "%s.password" % t), passwords[t])
    floor_pw = secrets.token_urlsafe(18)
    server = NatsServer(workdir, users_block(tables, floor_pw, passwords)).start()
    procs = []
    stop = None
    link_ctl = None
    loop_ready = threading.Event()
    try:
        from controller.floor.service import serve_floor

        def announce(line):
            if not line.startswith("floor page: "):
                return
            out.write("%s\n(nats-server %s, pid %d; journals and logs in %s)\n"
                      % (line, server.url, server.pid, workdir))
            out.flush()
            loop_ready.set()

        async def main():
            nonlocal stop, link_ctl
            stop = asyncio.Event()
            floor = asyncio.ensure_future(serve_floor(server.url, floor_pw, "127.0.0.1",
                                                      args.port, announce=announce, stop=stop))
            while not loop_ready.is_set() and not floor.done():
                await asyncio.sleep(0.05)
            if floor.done():
                return await floor
            games = demo_games()
            linked = [t for i, t in enumerate(tables) if games[i % len(games)] == LINKED_GAME]
            if linked:
                from controller.floor.linkctl import ControllerThread
                await define_demo_link(server.url, floor_pw, linked)
                link_ctl = await asyncio.get_running_loop().run_in_executor(
                    None, lambda: ControllerThread(server.url, DEMO_LINK, password=floor_pw,
                                                   listen_s=0.3))
                out.write("linked progressive %s: %s, its meter on the page\n"
                          % (DEMO_LINK, ", ".join(linked)))
            for i, t in enumerate(tables):
                log = open(os.path.join(workdir, "%s.log" % t), "ab")
                procs.append(subprocess.Popen(
                    table_command(workdir, server.url, t, games[i % len(games)], i,
                                  args.pause, args.fault_rate),
                    stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                    start_new_session=True))
                log.close()
            out.write("%d tables playing: %s. Ctrl-C stops everything.\n"
                      % (len(tables), ", ".join("%s %s" % (t, games[i % len(games)])
                                                for i, t in enumerate(tables))))
            out.flush()
            await floor
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)
        if link_ctl is not None:
            link_ctl.stop()
        server.stop()
        out.write("stopped: %d tables, %sthe floor service and nats-server\n"
                  % (len(procs), "the link's controller, " if link_ctl is not None else ""))
    return 0
