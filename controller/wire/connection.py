"""One NATS connection per table process (issue 32's item of issue 31's helper): the uplink
and every link client of a table share it, on one asyncio loop of their own.

Before, each part had its own thread, loop and connection: a Blackjack table on three links
held four connections to the floor with the same credential. Now `wire_loop()` is one
thread running one asyncio loop for every floor part of the process, and `shared(url, user,
password, ca_file)` the one connection of that credential: each part's session asks it for
the connection (`get`, which connects when there is none, one connect at a time) and, when
its session ends, `release`s it; the connection is closed and made again only when it is
broken (not connected), never because one part's own request failed, so one part's error
does not cut the others off. Every part still finds a lost connection at once (the same
`is_connected`) and keeps its own subscriptions, which it takes off when its session ends.
"""

import asyncio
import threading

_LOCK = threading.Lock()
_LOOP = None
_LOOP_USERS = 0
_SHARED = {}


def servers(url):
    """A URL, or several comma-separated (a cluster's nodes): the client tries each."""
    return [u.strip() for u in url.split(",") if u.strip()] if isinstance(url, str) else url


def tls_context(url, ca_file=None):
    """For tls:// URLs: the server's certificate verified against `ca_file` (the casino's
    CA), or the system's CAs; None for nats:// (loopback in tests)."""
    if not any(u.startswith("tls://") for u in servers(url)):
        return None
    import ssl
    ctx = ssl.create_default_context(cafile=ca_file)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    return ctx


class WireLoop:
    """One thread running one asyncio loop: every floor part of this process on it."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            ready.set()
            self.loop.run_forever()
        self.thread = threading.Thread(target=run, name="floor-wire", daemon=True)
        self.thread.start()
        ready.wait(5)

    def submit(self, coro):
        """Run `coro` on the loop: its concurrent.futures.Future."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def close(self):
        async def drain():              # what its parts left (a closing connection's tasks)
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        try:
            self.submit(drain()).result(5)
        except Exception:                       # noqa: BLE001 - stopping anyway
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        if not self.thread.is_alive():
            self.loop.close()


def wire_loop():
    """The floor loop, taken by a part (each `wire_loop()` is given back by `done_with()`):
    it runs while a part of the process uses it, and stops with the last."""
    global _LOOP, _LOOP_USERS
    with _LOCK:
        if _LOOP is None or not _LOOP.thread.is_alive():
            _LOOP = WireLoop()
        _LOOP_USERS += 1
        return _LOOP


def done_with():
    """A part stopped: the floor loop stops when no part uses it any more."""
    global _LOOP, _LOOP_USERS
    with _LOCK:
        _LOOP_USERS -= 1
        loop = _LOOP if _LOOP_USERS <= 0 else None
        if loop is not None:
            _LOOP, _LOOP_USERS = None, 0
    if loop is not None:
        loop.close()


class Shared:
    """The one connection of a credential, made on the wire loop when a part asks for it."""

    def __init__(self, url, user, password, ca_file):
        self.url, self.user, self.password, self.ca_file = url, user, password, ca_file
        self.nc = None
        self.users = 0
        self.connects = 0               # how many times it was made (tests, the console)
        self._lock = None
        self.error_cbs = []

    async def get(self, timeout=3.0):
        """The connection, made if there is none or it broke. Raises ConnectionError."""
        import nats
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self.nc is not None and self.nc.is_connected:
                return self.nc
            await self._drop()
            try:
                self.nc = await asyncio.wait_for(nats.connect(
                    servers(self.url), user=self.user, password=self.password,
                    tls=tls_context(self.url, self.ca_file), connect_timeout=1,
                    inbox_prefix="_INBOX_%s" % self.user, allow_reconnect=False,
                    max_reconnect_attempts=0, name=self.user, error_cb=self._on_error),
                    timeout)
            except asyncio.TimeoutError:
                raise ConnectionError("no answer from %s" % self.url)
            self.connects += 1
            return self.nc

    async def _on_error(self, e):
        for cb in list(self.error_cbs):
            try:
                await cb(e)
            except Exception:                   # noqa: BLE001 - a part's own report
                pass

    async def release(self, nc):
        """A part's session ended: the connection is closed only if it is broken."""
        if nc is not None and nc is self.nc and not nc.is_connected:
            await self._drop()

    async def _drop(self):
        nc, self.nc = self.nc, None
        if nc is not None:
            try:
                await asyncio.wait_for(nc.close(), 2)
            except Exception:                   # noqa: BLE001 - closing a dead link
                pass

    async def close_if_unused(self):
        if self.users <= 0:
            await self._drop()


def join(part):
    """A part's start on the floor loop: its shared connection (its errors reported to its
    `_on_error`), its loop; returns the loop to submit its coroutine to."""
    wire = wire_loop()
    part._shared = shared(part.url, part.user, part.password, part.ca_file)
    part._shared.error_cbs.append(part._on_error)
    part._loop = wire.loop
    return wire


def leave(part, what, log):
    """A part's stop: its coroutine told to stop and waited for (10 s at most), then its
    share of the connection and of the loop given back (the last part closes both)."""
    if part._loop is not None and part._stop is not None:
        part._loop.call_soon_threadsafe(part._stop.set)
    try:
        part._task.result(10)
    except Exception as e:                      # noqa: BLE001 - stopping: said, not raised
        log.warning("%s: stopping: %s: %s", what, type(e).__name__, e)
    part._task = None
    if part._on_error in part._shared.error_cbs:
        part._shared.error_cbs.remove(part._on_error)
    unshare(part._shared)
    done_with()


def shared(url, user, password, ca_file=None):
    """The process's one connection of this credential (made on first use)."""
    key = (url, user, password, ca_file)
    with _LOCK:
        s = _SHARED.get(key)
        if s is None:
            s = _SHARED[key] = Shared(url, user, password, ca_file)
        s.users += 1
        return s


def unshare(s):
    """A part stopped: the connection closed when no part uses it any more."""
    with _LOCK:
        s.users -= 1
        last = s.users <= 0
        if last:
            _SHARED.pop((s.url, s.user, s.password, s.ca_file), None)
    if last and _LOOP is not None:
        try:
            _LOOP.submit(s.close_if_unused()).result(5)
        except Exception:                       # noqa: BLE001 - the process ends anyway
            pass
