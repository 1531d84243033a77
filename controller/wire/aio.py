"""asyncio steps every floor part takes the same way: a stop on SIGTERM/SIGINT, a pause a
stop cuts short, and closing a connection that may already be dead."""
import asyncio
import signal


def stop_on_signals(stop):
    """SIGTERM, SIGINT and SIGHUP (the terminal closed) set `stop` (on the main thread;
    elsewhere the caller stops it)."""
    loop = asyncio.get_running_loop()
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        try:
            loop.add_signal_handler(s, stop.set)
        except (RuntimeError, ValueError):     # not the main thread: the caller stops it
            pass


async def pause(stop, seconds):
    """Wait `seconds`, or less if `stop` is set meanwhile."""
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except asyncio.TimeoutError:
        pass


async def connection_or_stop(get, stop, url, timeout=3):
    """The connection `get()` gives (the table's one shared connection), waited on `timeout`
    seconds at most and no longer than `stop` stays clear: a client can wait on a server that
    refuses, and the caller's loop must see a stop. ConnectionError naming `url` when none came."""
    connecting = asyncio.ensure_future(get())
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait([connecting, stopping], timeout=timeout,
                       return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if not connecting.done():
        connecting.cancel()
        raise ConnectionError("no answer from %s" % url)
    return connecting.result()


async def close_quietly(nc, timeout=2):
    """Close a NATS connection that may be dead already (a link being given up)."""
    if nc is None:
        return
    try:
        await asyncio.wait_for(nc.close(), timeout)
    except Exception:                           # noqa: BLE001 - closing a dead link
        pass
