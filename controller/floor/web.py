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

The logins (issues 31 and 34, `add_login`, controller/floor/auth.py). Given a users file, the
floor is behind them: every page, API route, the report and the event stream want a session
(a viewer's or a supervisor's): a page asked for without one is sent to the login, anything
else is refused (401). Only the login form and /static/ (the page's code and style, which hold
no figure) are open. Without a users file the floor stays open and every page says so in its
header (OPEN_FLOOR).
    /login            the form (GET; ?next=PAGE, where to go after), a login (POST: user,
                      password): a session cookie
    /logout           (POST) the session ended
    /api/me           who is logged in: {user, role}, or 401
    /api/confirm      (POST JSON {link, id}, a supervisor's session): "I have seen the cards
                      of award `id`": put on the link's stream for its controller, which
                      pays once the award has its confirmations (a second person's above
                      the link's second_above)
"""

import asyncio
import html
import json
import os
import re

from aiohttp import web

STATIC = os.path.join(os.path.dirname(__file__), "static")
KEEPALIVE_S = 10.0
SESSION_CHECK_S = 1.0
# every page's header on a floor given no users file (issue 34)
OPEN_FLOOR = "no logins configured: anyone who reaches this port sees the floor"


def make_app(service, users=None):
    app = web.Application()
    session_of = add_login(app, service, users)

    def page(name):
        async def handler(request):
            return html_page(name, session_of(request), users is not None)
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
        """The stream; on a floor with logins it ends within SESSION_CHECK_S of its
        session's end (logged out, expired): a session is checked on every request, and
        this one request lasts as long as the page is open."""
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-cache"})
        await resp.prepare(request)
        q = asyncio.Queue()
        service.listeners.add(q)
        quiet = 0.0
        try:
            for t in service.tables():
                q.put_nowait(service.summary(t))
            for doc in service.links():
                q.put_nowait(("link", doc))
            while True:
                if users is not None and session_of(request) is None:
                    break
                try:
                    doc = await asyncio.wait_for(q.get(), SESSION_CHECK_S)
                except asyncio.TimeoutError:
                    quiet += SESSION_CHECK_S
                    if quiet >= KEEPALIVE_S:
                        quiet = 0.0
                        await resp.write(b": keep-alive\n\n")
                    continue
                quiet = 0.0
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


async def serve(service, host="127.0.0.1", port=0, users=None):
    """Start the page; returns (runner, actual port)."""
    runner = web.AppRunner(make_app(service, users), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    return runner, port


# ---- the logins and the jackpot confirmation (issues 31, 34) ---------------------------------

def html_page(name, session, logins):
    """A page of static/ with its header's `<!--who-->` filled in on the server: who is
    logged in (and the log-out button), or, on a floor without logins, that anyone who
    reaches the port sees it. The body carries the user and role (`data-user`, `data-role`),
    all jackpots.js needs to show a supervisor the confirm buttons (the server checks the
    role again at /api/confirm)."""
    with open(os.path.join(STATIC, name)) as f:
        text = f.read()
    user = role = ""
    if not logins:
        who = '<span id="who" class="warn">%s</span>' % OPEN_FLOOR
    elif session is None:
        who = '<span id="who"></span>'
    else:
        who = ('<span id="who">%s (%s) <form class="inline" method="post" action="/logout">'
               '<button id="logout">Log out</button></form></span>' % (
                   html.escape(session["user"]), html.escape(session["role"])))
        user, role = session["user"], session["role"]
    text = text.replace("<!--who-->", who, 1)
    text = text.replace("<body ", '<body data-user="%s" data-role="%s" ' % (
        html.escape(user, quote=True), html.escape(role, quote=True)), 1)
    return web.Response(text=text, content_type="text/html",
                        headers={"Cache-Control": "no-store"})


def is_page(path):
    """A page a person opens (sent to the login without a session), not data (refused)."""
    return path == "/" or path.startswith("/table/")


def add_login(app, service, users):
    """The login's routes on `app`, and with `users` (an auth.Users) the session every other
    route wants; `users` None: no one can log in, the floor is open and says so, and a locked
    award waits. Returns session_of(request): the request's session or None."""
    from urllib.parse import quote
    from controller.floor import auth
    sessions = auth.Sessions()

    def session_of(request):
        return sessions.get(request.cookies.get(auth.COOKIE))

    @web.middleware
    async def logged_in(request, handler):
        """Every route but the login's and /static/ wants a session (issue 34)."""
        path = request.path
        if path in ("/login", "/logout") or path.startswith("/static/"):
            return await handler(request)
        if session_of(request) is None:
            if request.method == "GET" and is_page(path):
                raise web.HTTPSeeOther("/login?next=" + quote(request.path_qs, safe=""))
            return web.json_response({"error": "not logged in: log in at /login"},
                                     status=401)
        return await handler(request)

    if users is not None:
        app.middlewares.append(logged_in)

    def next_page(value):
        """Where a login goes: a page of this floor (never another site's address)."""
        value = str(value or "/")
        ok = re.fullmatch(r"/(table/[A-Za-z0-9._%-]+)?(\?[A-Za-z0-9._%=&-]*)?", value)
        return value if ok else "/"

    async def login_page(request):
        with open(os.path.join(STATIC, "login.html")) as f:
            text = f.read().replace("<!--next-->", html.escape(
                next_page(request.query.get("next")), quote=True), 1)
        return web.Response(text=text, content_type="text/html")

    async def login(request):
        form = await request.post()
        name, password = str(form.get("user", "")), str(form.get("password", ""))
        role = users.check(name, password) if users is not None else None
        if role is None:
            return web.Response(status=401, content_type="text/html", text=(
                "<!doctype html><p>Wrong user or password%s. <a href=\"/login\">Again</a>"
                % ("" if users is not None else " (no users file was given to the floor "
                   "service: tablectl floor --users-file)")))
        resp = web.HTTPSeeOther(next_page(form.get("next")))
        resp.set_cookie(auth.COOKIE, sessions.new(name, role), httponly=True,
                        samesite="Strict", max_age=auth.SESSION_S, path="/")
        raise resp

    async def logout(request):
        sessions.end(request.cookies.get(auth.COOKIE))
        resp = web.HTTPSeeOther("/")
        resp.del_cookie(auth.COOKIE, path="/")
        raise resp

    async def me(request):
        s = session_of(request)
        if s is None:
            return web.json_response({"error": "not logged in"}, status=401)
        return web.json_response({"user": s["user"], "role": s["role"]})

    async def confirm(request):
        s = session_of(request)
        if s is None or s["role"] != "supervisor":
            return web.json_response({"error": "a floor supervisor, logged in, confirms"},
                                     status=403)
        try:
            body = await request.json()
            link, ident = str(body["link"]), str(body["id"])
        except (ValueError, KeyError, TypeError):
            return web.json_response({"error": "JSON {link, id}"}, status=400)
        try:
            await service.confirm(link, ident, s["user"])
        except ValueError as e:
            return web.json_response({"error": str(e)}, status=400)
        return web.json_response({"confirmed": ident, "by": s["user"]})

    app.router.add_get("/login", login_page)
    app.router.add_post("/login", login)
    app.router.add_post("/logout", logout)
    app.router.add_get("/api/me", me)
    app.router.add_post("/api/confirm", confirm)
    return session_of
