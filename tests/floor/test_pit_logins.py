"""The pit screen behind its logins (issue 34), with the jackpots waiting on it (issue 31).

Given a users file, the floor answers nothing without a session: a page sends the browser to
the login, every API route, the event stream and the gaming-day report are refused (401). A
viewer sees the pit; only a supervisor gets the confirm button of a jackpot waiting in the
pit screen's linked progressives, and confirms it there (the same /api/confirm as every
confirmation). Without a users file the floor stays open and says so in every page's header.

Real parts: a nats-server, the floor service with its page, the link's controller, a
simulated Raise It Up table whose rigged hand wins the link's meter, and Debian's headless
Chromium.
"""

import asyncio
import json
import os
import re
import shutil
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest

from controller.floor.auth import Users
from controller.floor.web import OPEN_FLOOR
from controller.human import dollars
from controller.wire.uplink import attach as attach_uplink
from hal_sim.simulation import Simulation
from tests.floor.conftest import ServiceThread, logged_in, signing_key, wait_for
from tests.floor.link_table_proc import rig
from tests.floor.test_jackpot_lock import PASSWORDS, users_file, waiting
from tests.floor.test_jackpot_page import login
from tests.floor.test_link_controller import controller, define, kv_json, meter
from tests.floor.test_link_table_e2e import Table
from tests.floor.test_page import CHROMIUM, DRIVER, browser, save_screenshot, text_of
from tests.floor.test_pit import SHOTS, far_day_start

DATA = ("/api/pit", "/api/pit?day=2026-01-01", "/api/tables", "/api/table/T1", "/api/links",
        "/api/me", "/events", "/report.csv", "/report.csv?day=2026-01-01")


def status_of(opener, url, data=None):
    """(status, final URL, body) of a request; an error status is returned, not raised."""
    try:
        with opener.open(url, data, timeout=10) as r:
            if r.headers.get("Content-Type", "").startswith("text/event-stream"):
                return r.status, r.geturl(), ""     # a stream: its headers came, it goes on
            return r.status, r.geturl(), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, url, e.read().decode()


def login_for(url, page):
    """The page a login at `url` goes back to, or None when `url` is not the login."""
    parts = urllib.parse.urlsplit(url)
    if url.split("?")[0] != page + "/login":
        return None
    return urllib.parse.parse_qs(parts.query).get("next", [None])[0]


def stranger():
    return urllib.request.build_opener()


def test_with_a_users_file_nothing_is_answered_without_a_session(floor, tmp_path):
    svc = ServiceThread(floor.url, users=Users(users_file(tmp_path)))
    page = svc.page
    try:
        for path in DATA:
            code, _, body = status_of(stranger(), page + path)
            assert code == 401, path
            assert json.loads(body) == {"error": "not logged in: log in at /login"}, path
        code, _, body = status_of(stranger(), page + "/api/confirm",
                                  json.dumps({"link": "L1", "id": "T1:1:1"}).encode())
        assert code == 401
        # a page: the login, which goes back to the page asked for
        for path in ("/", "/table/T1?day=2026-01-01"):
            code, url, body = status_of(stranger(), page + path)
            assert code == 200 and login_for(url, page) == path, (path, url)
            assert 'id="login"' in body and 'name="next" value="%s"' % path in body
            assert "Casino floor</h1>" not in body and OPEN_FLOOR not in body
        # the login page's own style is open (it holds no figure)
        assert status_of(stranger(), page + "/static/floor.css")[0] == 200
        # a made-up session cookie is no session
        forged = stranger()
        forged.addheaders = [("Cookie", "tablectl_floor_session=" + "A" * 43)]
        assert status_of(forged, page + "/api/tables")[0] == 401
        # a wrong password: no session
        with pytest.raises(urllib.error.HTTPError) as e:
            logged_in(page, "view", "not-the-password")
        assert e.value.code == 401
        # a viewer: every page and route, and who is logged in in the page's header
        viewer = logged_in(page, "view", PASSWORDS["view"])
        for path in DATA:
            code, _, body = status_of(viewer, page + path)
            assert code == (404 if path == "/api/table/T1" else 200), (path, body)  # no T1 yet
        assert json.loads(status_of(viewer, page + "/api/pit")[2])["floor"]["tables"] == 0
        assert status_of(viewer, page + "/report.csv")[2].startswith("gaming day,")
        code, _, body = status_of(viewer, page + "/")
        assert code == 200 and '<span id="who">view (viewer) ' in body and \
            'data-role="viewer"' in body and OPEN_FLOOR not in body
        assert status_of(viewer, page + "/api/confirm", json.dumps(
            {"link": "L1", "id": "T1:1:1"}).encode())[0] == 403      # a viewer confirms not
        # the login goes to the page asked for, of this floor only
        for asked, went in (("/table/T1", "/table/T1"), ("//elsewhere.example/", "/"),
                            ("http://elsewhere.example/", "/"), ("/api/tables", "/")):
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
            form = urllib.parse.urlencode({"user": "view", "password": PASSWORDS["view"],
                                           "next": asked}).encode()
            assert status_of(opener, page + "/login", form)[1] == page + went, asked
        # logged out: refused again, and the stream the viewer had open ends
        stream = viewer.open(page + "/events", timeout=20)
        assert stream.status == 200
        assert login_for(status_of(viewer, page + "/logout", b"")[1], page) == "/"
        assert status_of(viewer, page + "/api/pit")[0] == 401
        got = []                                # ended (no table here: nothing was sent)
        reader = threading.Thread(target=lambda: got.append(stream.read()), daemon=True)
        reader.start()
        reader.join(15)                         # a generous bound: it ends within ~1 s
        ended = not reader.is_alive()
        stream.close()
        assert ended and got == [b""], "the event stream went on after the log-out"
    finally:
        svc.stop()


def test_without_a_users_file_the_floor_is_open_and_says_so(floor):
    svc = ServiceThread(floor.url)
    try:
        for path in ("/", "/table/T1"):
            code, url, body = status_of(stranger(), svc.page + path)
            assert code == 200 and url == svc.page + path
            assert '<span id="who" class="warn">%s</span>' % OPEN_FLOOR in body
        assert OPEN_FLOOR == "no logins configured: anyone who reaches this port sees the floor"
        assert status_of(stranger(), svc.page + "/api/pit")[0] == 200
    finally:
        svc.stop()


def shot(driver, tmp_path, name, height=1300):
    driver.set_window_size(1400, height)
    os.makedirs(SHOTS, exist_ok=True)
    shutil.copy(save_screenshot(driver, tmp_path, name), os.path.join(SHOTS, name))


@pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
                    reason="Debian's chromium and chromium-driver (README's test set-up)")
@pytest.mark.reg("669a.12(e)(4)", "669a.11(i)(3)(i)(D)")
def test_a_viewer_sees_the_pit_and_a_supervisor_confirms_a_waiting_jackpot_there(
        floor, tmp_path):
    assert define(floor, confirm_above="0")[0] == 0     # every award waits for a supervisor
    ctl = controller(floor)
    svc = ServiceThread(floor.url, users=Users(users_file(tmp_path)),
                        confirm_key=signing_key("floor-page"), day_start_s=far_day_start())
    t = other = driver = None
    try:
        t = Table(tmp_path, floor, floor.url)          # T1, Raise It Up on L1
        journal = str(tmp_path / "T3.journal")         # and a table of another game
        other = Simulation("props-and-hops", seed=2, journal=journal)
        attach_uplink(other, other.ctl, journal, "T3", floor.url, floor.passwords["T3"],
                      drain_s=5)
        other.run(3)
        other.commit()
        rig(t.sim.autoplay)                             # seat 1: the ace, king, queen of spades
        assert t.sim.run(1) == 1 and t.lk["hits"]
        wait_for(lambda: waiting(floor.url), what="the award locked")
        award = meter(floor.url)["pending"][0]
        assert award["table"] == "T1" and award["needs"] == 1 and t.paid() == []
        t.sim.commit()

        driver = browser(tmp_path)
        driver.get(svc.page + "/")                      # no session: the login
        wait_for(lambda: driver.find_elements("id", "login-button"), timeout=60,
                 what="the login page")
        assert login_for(driver.current_url, svc.page) == "/"
        assert text_of(driver, "#pit") == "" and text_of(driver, "h1") == "Casino floor: log in"
        shot(driver, tmp_path, "pit-login.png", 600)

        # a viewer: the pit, the jackpot waiting, no button to confirm it
        login(driver, svc.page, "view", "viewer")
        row = "#jackpots tr.pending"
        wait_for(lambda: "PENDING" in text_of(driver, row) and
                 text_of(driver, "#p-T1 td.rounds") not in ("", "0") and
                 text_of(driver, "#p-T3 td.rounds") == "3",
                 timeout=20, what="the pit and the waiting jackpot for the viewer")
        cells = {c: text_of(driver, "%s td.%s" % (row, c)) for c in
                 ("link", "amount", "table", "seat", "round", "hand", "since", "confirmations")}
        assert cells == {"link": "L1", "amount": dollars(award["amount"]), "table": "T1",
                         "seat": str(award["seat"]), "round": str(award["round"]),
                         "hand": " ".join(award["hand"]), "since": cells["since"],
                         "confirmations": "0 of 1"}
        assert "As Ks Qs" in cells["hand"]
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[+-]\d\d:\d\d", cells["since"])
        assert text_of(driver, "#l-L1 td.pending") == "1 waiting: " + dollars(award["amount"])
        assert "1 jackpot waiting for a supervisor" in text_of(driver, "#p-T1 td.links")
        assert driver.find_elements("css selector", "button.confirm") == []
        assert text_of(driver, "#who").startswith("view (viewer)")
        shot(driver, tmp_path, "pit-viewer.png")

        # the viewer's table page, in local time and dollars
        driver.get(svc.page + "/table/T1")
        wait_for(lambda: text_of(driver, "#title") == "Table T1: Raise It Up Stud" and
                 driver.find_elements("css selector", "#recent tbody tr"), timeout=15,
                 what="T1's page")
        assert text_of(driver, "#who").startswith("view (viewer)")
        wait_for(lambda: text_of(driver, "#progressives") == "L1: up at the table; 1 jackpot "
                 "waiting for a supervisor: %s (T1 seat %s round %s)" % (
                     dollars(award["amount"]), award["seat"], award["round"]), timeout=10,
                 what="the waiting jackpot on the table's page")
        shot(driver, tmp_path, "table-page-2.png", 2000)

        # the viewer logs out, a supervisor logs in: the button, in the pit screen
        driver.get(svc.page + "/")
        wait_for(lambda: driver.find_elements("id", "logout"), timeout=60, what="log out")
        driver.find_element("id", "logout").click()
        wait_for(lambda: driver.find_elements("id", "login-button"), timeout=60,
                 what="the login page again")
        login(driver, svc.page, "sup1")
        button = row + " button.confirm"
        wait_for(lambda: text_of(driver, button), timeout=60,
                 what="the confirm button for a supervisor")
        assert driver.find_element("css selector", "#progressives " + button)   # in the section
        shot(driver, tmp_path, "pit-pending-jackpot.png")
        assert t.paid() == []                          # nothing paid before the confirmation
        driver.find_element("css selector", button).click()
        shown = t.sim.sim.serial["meter_display"].shown
        assert t.pump(lambda: shown.get("progressive_jackpot_pending") == 0 and t.paid(), 30)
        paid = t.paid()[0]
        assert paid["amount"] == award["amount"] and paid["id"] == award["id"]
        stored = asyncio.run(kv_json(floor.url, award["key"]))[0]     # the link's award entry
        assert [c["by"] for c in stored["confirmations"]] == ["sup1"]
        wait_for(lambda: text_of(driver, row) == "" and
                 text_of(driver, "#jackpots tbody") == "no jackpot waiting" and
                 text_of(driver, "#l-L1 td.pending") == "none", timeout=15,
                 what="the jackpot off the pit screen once paid")
        assert waiting(floor.url) == []
    finally:
        if driver is not None:
            driver.quit()
        if t is not None:
            t.sim.close()
        if other is not None:
            other.close()
        svc.stop()
        ctl.stop()
