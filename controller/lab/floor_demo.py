"""`tablectl floor demo --tables N`: a whole floor on this machine, for a newcomer.

A nats-server with JetStream on 127.0.0.1 (a free port, a store under the demo's folder, one
credential per table), the floor service with its page, and N `tablectl sim` processes of
mixed games, each journaling to its own file and forwarding it with its own credential,
a round a second, now and then a device fault that the floorperson clears. The Raise It Up
tables play their Progressive Payout Wager on one linked progressive (DEMO_LINK: defined
here, its controller a `tablectl floor link run` process, docs/linked-progressives.md), whose
meter the floor page shows. The page is behind a login (the demo's one user, a supervisor,
whose password it writes to a 0600 file and names). The floor service and the link's
controller are `tablectl floor` processes, not imports: the lab never imports the floor
server. It prints the page's address; Ctrl-C, SIGTERM or SIGHUP (its terminal closed) stop
the tables, the link's controller, the floor and the server, in that order, within 5 s;
every part is in one process group of its own and dies with the demo (`Parts`).
"""

import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time

from controller.lab.natsserver import NatsServer, make_certs, users_block
from controller.games import ALL_GAMES, declaration
from controller.wire.links import LINKABLE
from hal_sim.games import sim_game

DEMO_LINK = "RIU-LINK"
# the game whose tables share the demo's link: the simulator's registry says which
LINKED_GAME = next(g for g in ALL_GAMES if sim_game(g).demo_linked)


def demo_games():
    """The games in the order the tables take them: the linked game first and every seventh
    table after (so 8 tables put two Raise It Up tables on the link), the rest mixed: every
    game, as `tablectl sim` plays every one (controller/lab/sim.py PLAYABLE, which the demo knows
    only by its command line, table_command; tests/floor keep the two the same)."""
    return [LINKED_GAME] + [g for g in ALL_GAMES if g != LINKED_GAME]


def table_ids(n):
    return ["T%02d" % (i + 1) for i in range(n)]


def write_secret(path, text):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)                # a file there from before (--dir) narrowed too
    with os.fdopen(fd, "w") as f:
        f.write(text + "\n")
    return path


def table_command(workdir, url, table, game, seed, pause, fault_rate, ca=None):
    fault = sim_game(game).demo_fault
    return [sys.executable, "-m", "controller.cli", "sim", "--game", game, "--seed", str(seed),
            "--journal", os.path.join(workdir, "%s.journal" % table), "--floor", url,
            "--table-id", table, "--floor-password-file",
            os.path.join(workdir, "%s.password" % table), "--pause", str(pause)] + \
        (["--floor-ca", ca] if ca else []) + [
            "--fault", "%s:%s" % (fault, fault_rate), "--json"] + \
        (["--link", DEMO_LINK, "--floor-signing-key", signing_key_path(workdir, table)]
         if game == LINKED_GAME else [])


def signing_key_path(workdir, table):
    return os.path.join(workdir, "%s.signing.pem" % table)


def write_table_keys(workdir, tables, name="table-keys"):
    """Each linked table's own signing key (0600, made here as a table makes its own; or
    the floor page's, `tables` ["floor-page"]) and the file of their public halves, which the
    link's controller is given."""
    from controller.wire import signing
    lines = []
    for t in tables:
        path = signing_key_path(workdir, t)
        if os.path.exists(path):        # a --dir used again: the table keeps its key
            public = signing.public_text(signing.load_key(path))
        else:
            public = signing.new_key(path)
        lines.append("%s %s\n" % (t, public))
    return write_secret(os.path.join(workdir, name), "".join(lines).rstrip("\n"))


def tablectl(*argv):
    """A `tablectl` command line of this interpreter's (the demo's parts are processes of
    their own: the lab imports nothing of the floor server, .importlinter)."""
    return [sys.executable, "-m", "controller.cli"] + list(argv)


def write_supervisor(workdir):
    """The floor page's one login for the demo: a supervisor (who confirms a jackpot), its
    password a secret file beside the others; returns (users file, password file)."""
    users = os.path.join(workdir, "floor-users.json")
    pw_file = os.path.join(workdir, "supervisor.password")
    if not os.path.exists(users):
        password = secrets.token_urlsafe(12)
        write_secret(pw_file, password)
        add = subprocess.run(tablectl("floor", "user", "add", "supervisor", "--role",
                                      "supervisor", "--users-file", users,
                                      "--password-stdin"), input=password + "\n",
                             capture_output=True, text=True)
        if add.returncode != 0:
            raise OSError(add.stderr.strip())
    return users, pw_file


def demo_link_define(url, floor_pw_file, tables, ca=None):
    """`tablectl floor link define` of the demo's link across its linked game's tables, on the
    game's first linkable wager at the texts' minimums (Raise It Up: 669a.12(e)(3), $1,000
    reset, 14%)."""
    wager = declaration(LINKED_GAME).linkable[0][0]
    _section, reset, rate = LINKABLE[LINKED_GAME][wager]
    return tablectl("floor", "link", "define", DEMO_LINK, "--game", LINKED_GAME, "--wager", wager,
                    "--tables", ",".join(tables), "--reset", str(reset), "--rate", str(rate),
                    "--nats", url, "--password-file", floor_pw_file,
                    *(["--ca-file", ca] if ca else []))


class _Stop(Exception):
    """A signal that stops the demo (SIGINT, SIGTERM, SIGHUP)."""


def _raise_stop(signum, frame):
    raise _Stop(signum)


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# how long each step of the stop waits for its parts' own clean stop before SIGKILL: the
# whole stop within 5 s (issue 34), the tables' drain to the floor first
GRACE_S = {"tables": 2.5, "link": 1.0, "floor": 1.0, "server": 0.5}


class Parts:
    """The demo's processes, in one process group of their own: not the terminal's, so Ctrl-C
    and a closed terminal (SIGHUP) reach the demo alone, which stops them in the reverse order
    of their start (a nats-server that saw Ctrl-C with the demo went first, and the floor's
    last writes timed out); one group, so `kill -- -PGID` reaches every part and a test finds
    them all. Each part is bound to the demo's life (Linux PR_SET_PDEATHSIG): a demo killed
    outright takes them with it (SIGTERM, each part's own clean stop) rather than leaving them
    to PID 1."""

    def __init__(self):
        self.pgid = None
        self.parent = os.getpid()

    def popen(self):
        """Popen's arguments that put a new process in the group."""
        return {"process_group": self.pgid or 0, "preexec_fn": self._bound}

    def joined(self, proc):
        if self.pgid is None:
            self.pgid = proc.pid                # the first part leads the group
        return proc

    def _bound(self):
        """In the child, before exec: SIGTERM when the demo dies (and at once if it already
        has)."""
        import ctypes
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)      # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return                              # not Linux: the demo's own stop only
        if os.getppid() != self.parent:
            os.kill(os.getpid(), signal.SIGTERM)


def _stop(procs, grace):
    """SIGINT to each (their own clean stop, together), then SIGKILL to those still running
    after `grace` seconds; how many were killed."""
    procs = [p for p in procs if p is not None]
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
    end = time.monotonic() + grace
    killed = 0
    for p in procs:
        try:
            p.wait(max(0.0, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)
            killed += 1
    return killed


def _say(out, text):
    """A line to the demo's terminal, which may be gone (SIGHUP): then nothing is said."""
    try:
        out.write(text)
        out.flush()
    except (OSError, ValueError):
        pass


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
    floor_pw_file = write_secret(os.path.join(workdir, "floor.password"), floor_pw)
    # Ctrl-C too, set here: a demo started in the background by a script inherits SIGINT
    # ignored, and its Ctrl-C (or `kill -INT`) must stop it all the same
    old = {s: signal.signal(s, _raise_stop) for s in STOP_SIGNALS}
    parts = Parts()
    server = None
    # TLS with a CA the demo makes (openssl): every client checks the server against it
    certs = make_certs(workdir, ("127.0.0.1",))
    ca = certs["ca"]
    procs, floor, link_ctl = [], None, None
    users_file, supervisor_pw = write_supervisor(workdir)
    page_keys = write_table_keys(workdir, ["floor-page"], "page-keys")

    def start(argv, name):
        log = open(os.path.join(workdir, "%s.log" % name), "ab")
        try:
            return parts.joined(subprocess.Popen(argv, stdout=log, stderr=log,
                                                 stdin=subprocess.DEVNULL, **parts.popen()))
        finally:
            log.close()
    try:
        server = NatsServer(workdir, users_block(tables, floor_pw, passwords), tls=certs)
        server.start(**parts.popen())
        parts.joined(server.proc)
        floor = parts.joined(subprocess.Popen(
            tablectl("floor", "--nats", server.url, "--password-file", floor_pw_file,
                     "--ca-file", ca, "--users-file", users_file,
                     "--confirm-key", signing_key_path(workdir, "floor-page"),
                     "--http", "127.0.0.1:%d" % args.port),
            stdout=subprocess.PIPE, stderr=open(os.path.join(workdir, "floor.log"), "ab"),
            stdin=subprocess.DEVNULL, text=True, **parts.popen()))
        for line in floor.stdout:
            if line.startswith("floor page: "):
                break
        else:
            err.write("tablectl floor demo: the floor service stopped (%s)\n"
                      % os.path.join(workdir, "floor.log"))
            return 1
        _say(out, "%s(nats-server %s with TLS, pid %d; journals, logs and secrets (0600) in %s; "
             "process group %d; the page wants a login: user supervisor, password in %s)\n"
             % (line, server.url, server.pid, workdir, parts.pgid, supervisor_pw))
        games = demo_games()
        linked = [t for i, t in enumerate(tables) if games[i % len(games)] == LINKED_GAME]
        if linked:
            defined = subprocess.run(demo_link_define(server.url, floor_pw_file, linked, ca),
                                     capture_output=True, text=True, stdin=subprocess.DEVNULL,
                                     **parts.popen())
            if defined.returncode != 0:
                err.write("tablectl floor demo: %s\n" % (defined.stderr.strip() or
                                                         "the link was not defined"))
                return 1
            keys = write_table_keys(workdir, linked)
            link_ctl = start(tablectl("floor", "link", "run", DEMO_LINK, "--nats", server.url,
                                      "--password-file", floor_pw_file, "--table-keys", keys,
                                      "--page-keys", page_keys, "--ca-file", ca),
                             "link-controller")
            _say(out, "linked progressive %s: %s, its meter on the page\n"
                 % (DEMO_LINK, ", ".join(linked)))
        for i, t in enumerate(tables):
            procs.append(start(table_command(workdir, server.url, t, games[i % len(games)], i,
                                             args.pause, args.fault_rate, ca), t))
        _say(out, "%d tables playing: %s. Ctrl-C stops everything.\n"
             % (len(tables), ", ".join("%s %s" % (t, games[i % len(games)])
                                       for i, t in enumerate(tables))))
        for _ in floor.stdout:              # until the floor service ends or we are stopped
            pass
        floor.wait()
    except (KeyboardInterrupt, _Stop):
        pass
    finally:
        # one stop: a second Ctrl-C, SIGTERM or SIGHUP (a closing terminal sends more than
        # one) must not cut it short and leave parts running
        for s in STOP_SIGNALS:
            signal.signal(s, signal.SIG_IGN)
        # the reverse order of start: tables, the link's controller, the floor, nats-server;
        # each step's time in the demo's folder (stop.log), for a stop that is slow
        took, t0 = [], time.monotonic()
        for name, group in (("tables", procs), ("link", [link_ctl]), ("floor", [floor]),
                            ("server", [server.proc if server is not None else None])):
            t = time.monotonic()
            killed = _stop(group, GRACE_S[name])
            took.append("%s %.2f s%s" % (name, time.monotonic() - t,
                                         " (%d killed)" % killed if killed else ""))
        if server is not None:
            server.proc = None
        try:
            with open(os.path.join(workdir, "stop.log"), "a") as f:
                f.write("stop in %.2f s: %s\n" % (time.monotonic() - t0, ", ".join(took)))
        except OSError:
            pass
        for s, h in old.items():
            signal.signal(s, h)
        _say(out, "stopped: %d tables, %sthe floor service and nats-server\n"
             % (len(procs), "the link's controller, " if link_ctl is not None else ""))
    return 0
