"""The floor supervisor's page, served by the floor service (aiohttp, server-sent events).

    /                 every table at a glance: game, state, lock-out, faults, meters, link
    /table/ID         one table: recent events, lock-outs (who cleared them), devices, meters
    /events           text/event-stream: one `table` event (the table's summary, JSON) per
                      change; every table once when a page connects
    /api/tables       the summaries as JSON; /api/table/ID one of them
    /api/links        the linked progressives' meters as their controllers publish them
                      (58 Pa. Code 605a.7: the meter rising with the wagers, the hits and
                      awards paid; with the last 25 hits, base and limit); the page gets
                      each change as a `link` event
    /api/pit?day=D    the pit's figures for gaming day D (YYYY-MM-DD; default the current
                      one): per table, per pit and for the floor (pit.py); the page's pit
                      screen reads it every 2 s
    /report.csv?day=D the gaming-day report (report.py), a download
The page never reloads: static/floor.js applies each event to the DOM. Money is sent in
cents and shown in dollars.
"""

import asyncio
import json
import os

from aiohttp import web

STATIC = os.path.join(os.path.dirname(__file__), "static")
KEEPALIVE_S = 10.0


def make_app(service):
    app = web.Application()

    def page(name):
        async def handler(request):
            return web.FileResponse(os.path.join(STATIC, name))
        return handler

    async def tables(request):
        return web.json_response([service.summary(t) for t in service.tables()])

    async def table(request):
        t = request.match_info["table"]
        if t not in service.tables():
            raise web.HTTPNotFound(text="no table %s on this floor" % t)
        return web.json_response(service.summary(t))

    async def links(request):
        return web.json_response(service.links())

    async def events(request):
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-cache"})
        await resp.prepare(request)
        q = asyncio.Queue()
        service.listeners.add(q)
        try:
            for t in service.tables():
                q.put_nowait(service.summary(t))
            for doc in service.links():
                q.put_nowait(("link", doc))
            while True:
                try:
                    doc = await asyncio.wait_for(q.get(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    await resp.write(b": keep-alive\n\n")
                    continue
                kind, doc = doc if isinstance(doc, tuple) else ("table", doc)
                await resp.write(b"event: " + kind.encode() + b"\ndata: " +
                                 json.dumps(doc, sort_keys=True).encode() + b"\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            service.listeners.discard(q)
        return resp

    app.router.add_get("/", page("floor.html"))
    app.router.add_get("/table/{table}", page("table.html"))
    app.router.add_get("/events", events)
    app.router.add_get("/api/tables", tables)
    app.router.add_get("/api/table/{table}", table)
    app.router.add_get("/api/links", links)
    app.router.add_static("/static/", STATIC)
    add_pit_routes(app, service)
    return app


def add_pit_routes(app, service):
    """The pit screen's data and the gaming-day report (issue 34), from the service's `pit`
    consumer (pit.py); absent when the service runs without one."""
    import re

    def pit_and_day(request):
        pit = service.consumer("pit")
        if pit is None:
            raise web.HTTPNotFound(text="this floor service keeps no pit figures")
        day = request.query.get("day") or None
        if day is not None and not re.fullmatch(r"\d{4}-\d\d-\d\d", day):
            raise web.HTTPBadRequest(text="day %r: a gaming day as YYYY-MM-DD" % day)
        return pit, day

    async def pit_figures(request):
        pit, day = pit_and_day(request)
        doc = pit.figures(day)
        doc["days"] = pit.days()
        return web.json_response(doc)

    async def report(request):
        from controller.floor.report import csv_text
        from controller.human import wall_iso
        pit, day = pit_and_day(request)
        figures = pit.figures(day)
        text = csv_text(figures, wall_iso)
        return web.Response(text=text, content_type="text/csv", headers={
            "Content-Disposition": 'attachment; filename="gaming-day-%s.csv"' % figures["day"]})

    app.router.add_get("/api/pit", pit_figures)
    app.router.add_get("/report.csv", report)


async def serve(service, host="127.0.0.1", port=0):
    """Start the page; returns (runner, actual port)."""
    runner = web.AppRunner(make_app(service), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    return runner, port
