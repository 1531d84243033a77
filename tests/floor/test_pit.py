"""The pit screen (issue 34; the floor's money, issue 31): the floor page's figures per table,
pit and floor for a gaming day, checked against each table's own journal, in Debian's
headless Chromium; the table page in local time and dollars; the gaming-day report (CSV).

Three real simulated tables stream to a real nats-server and the real floor service:
  T1 Props & Hops with no-rolls, whose rounds are void and every wager returned (585.3(f),(g))
  T2 Raise It Up with a shuffler that jams at every shuffle, each lock-out cleared by the
     simulated floorperson within milliseconds (669a.13(e)), on a linked progressive whose
     controller is not running (the table sees its link down)
  T3 a poker-room table: its pots and rake (637a(e)(6)(iii)), not its players' stacks
"""

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request

import pytest

from controller.floor.fold import TableView
from controller.floor.pit import Pit, day_of
from controller.floor.report import amount
from controller.floor.service import FloorService
from controller.human import dollars
from controller.lab.sim import Simulation
from controller.wire import link_client
from controller.wire.uplink import attach
from tests.floor.conftest import ROOT, ServiceThread, journal_meters, journal_rows, wait_for
from tests.floor.test_page import CHROMIUM, DRIVER, browser, save_screenshot, text_of

SHOTS = "/work/briefs/shots"
NS = 10 ** 9


# ---- what each table's own journal says ------------------------------------------------------

def _data(row):
    d = row["data"]
    return json.loads(d) if isinstance(d, str) else d


def wall_clock(rows):
    """table ns -> wall ns, by the journal's clock record (as `journal show` maps it)."""
    from controller.human import WallClock
    clock = WallClock()
    for r in rows:
        if r["kind"] == "clock":
            clock.add(_data(r))
    return clock


def own_money(path):
    """The table's own money meters from its journal: `tablectl top`'s (the console's wager
    meters read from the journal's snapshots), every gaming day together: (handle, win)."""
    from controller.console.wager_meters import merge
    from controller.top import JournalFollower
    follower = JournalFollower(path)
    follower.read()
    book = merge(*follower.days.values())
    return (sum(m.get("handle", 0) for m in book.values()),   # a poker room has none
            sum(m.get("hold", 0) for m in book.values()))


def own_room(rows):
    """A poker room's rake and pots as its round records say them (637a(e)(6))."""
    rake = pots = hands = 0
    seen = set()
    for r in rows:
        if r["kind"] != "snapshot":
            continue
        model = (_data(r).get("table") or {}).get("model") or {}
        n = model.get("round_no")
        if model.get("status") != "settled" or n in seen:
            continue
        seen.add(n)
        hands += 1
        for what, detail in model.get("record") or []:
            if what == "rake_collected":
                rake += detail["amount"]
            elif what in ("pot_pushed", "side_pot_awarded"):
                pots += detail["amount"]
            if what == "pot_pushed":        # pushed after the rake and the drop came out
                pots += model.get("rake", 0) + model.get("jackpot_drop", 0)
    return {"rake": rake, "pots": pots, "hands": hands}


def own_lockouts(rows):
    """[(wall ns of the lock-out, wall ns of its clear)] from the journal."""
    clock = wall_clock(rows)
    out = []
    for r in rows:
        if r["entry"] == "record" and r["kind"] == "lock_out":
            out.append([clock.wall_ns(r["ts_ns"]), None])
        elif r["kind"] == "clear" and r["entry"] == "event" and _data(r).get("selftest") \
                and out and out[-1][1] is None:
            out[-1][1] = clock.wall_ns(r["ts_ns"])
    return out


def local(wall_ns):
    """As the page writes a time (UTC offset of this machine, the tables' own)."""
    off = time.localtime(wall_ns // NS).tm_gmtoff
    t = time.gmtime(wall_ns // NS + off)
    sign = "-" if off < 0 else "+"
    return time.strftime("%Y-%m-%d %H:%M:%S", t) + "%s%02d:%02d" % (
        sign, abs(off) // 3600, abs(off) % 3600 // 60)


def far_day_start():
    """A gaming day start 12 hours from now (local): the whole test is in one gaming day."""
    now = time.localtime()
    return (now.tm_hour * 3600 + now.tm_min * 60 + 12 * 3600) % 86400 // 60 * 60


TABLES = (("T1", "props-and-hops", [("dice_reader", "no_roll", 0.5)], None, 8),
          ("T2", "raise-it-up-stud", [("shuffler", "jam", 1.0)], "L1", 4),
          ("T3", "poker", [], None, 3))


def fetch(page, path):
    with urllib.request.urlopen(page + path, timeout=10) as r:
        return r.read().decode()


@pytest.mark.reg("585.3(g)")
@pytest.mark.reg("669a.13(e)")
@pytest.mark.reg("637a(e)(6)(iii)")
@pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
                    reason="Debian's chromium and chromium-driver (README's test set-up)")
def test_the_pit_screen_shows_each_tables_own_money_voids_and_millisecond_lock_outs(
        floor, tmp_path):
    day_start = far_day_start()
    svc = ServiceThread(floor.url, day_start_s=day_start, pits={"T1": "MAIN", "T2": "MAIN"})
    sims, driver = {}, None
    try:
        for table, game, faults, link, rounds in TABLES:
            journal = str(tmp_path / ("%s.journal" % table))
            sim = Simulation(game, seed=3, faults=faults, journal=journal, link=link)
            sims[table] = (sim, journal, rounds)
            attach(sim, sim.ctl, journal, table, floor.url, floor.passwords[table], drain_s=5)
            if link:
                link_client.attach(sim, table, link, floor.url, floor.passwords[table])
        for sim, _, rounds in sims.values():
            sim.run(rounds)
        # what each journal says (the tables stay open: their status shows their devices)
        own = {}
        for table, (sim, journal, _) in sims.items():
            sim.commit()
            rows = journal_rows(journal)
            handle, win = own_money(journal)
            own[table] = {"meters": journal_meters(journal), "handle": handle, "win": win,
                          "rows": rows, "lockouts": own_lockouts(rows)}
        assert own["T1"]["meters"]["voids"] >= 1 and own["T1"]["meters"]["rounds"] >= 1
        assert len(own["T2"]["lockouts"]) >= 4
        room = own_room(own["T3"]["rows"])
        assert room["hands"] == 3 and room["pots"] > 0

        def pit():
            doc = json.loads(fetch(svc.page, "/api/pit"))
            got = {t["table"]: t for t in doc["tables"]}
            ok = len(got) == 3 and all(
                got[t]["rounds"] == own[t]["meters"]["rounds"] and
                got[t]["voids"] == own[t]["meters"]["voids"] for t in own) and \
                got["T2"]["lockouts"] == len(own["T2"]["lockouts"])
            return (doc, got) if ok else None
        doc, got = wait_for(pit, timeout=60, step=0.2, what="the pit's figures of every round")
        # the money to the cent: each table's own meters (voided rounds are no handle)
        for t in ("T1", "T2"):
            assert (got[t]["handle"], got[t]["win"]) == (own[t]["handle"], own[t]["win"]), t
        assert got["T1"]["hold_pct"] == round(100.0 * own["T1"]["win"] / own["T1"]["handle"], 2)
        assert got["T3"]["player_banked"] and got["T3"]["handle"] == 0
        assert (got["T3"]["rake"], got["T3"]["pots"], got["T3"]["win"]) == \
            (room["rake"], room["pots"], room["rake"])
        # every lock-out, each cleared within milliseconds, counted and listed with its times
        listed = got["T2"]["lockout_list"]
        assert [(lo["wall_ns"], lo["cleared"]["wall_ns"]) for lo in listed] == \
            [tuple(x) for x in own["T2"]["lockouts"]]
        assert all(c - w < NS for w, c in own["T2"]["lockouts"])
        assert all(lo["cleared"]["by"].startswith("FP-") for lo in listed)
        assert got["T2"]["open_lockouts"] == []
        # pits and the floor are the sums of their tables
        pits = {p["pit"]: p for p in doc["pits"]}
        assert pits["MAIN"]["handle"] == got["T1"]["handle"] + got["T2"]["handle"]
        assert pits["MAIN"]["lockouts"] == got["T1"]["lockouts"] + got["T2"]["lockouts"]
        assert doc["floor"]["win"] == sum(got[t]["win"] for t in got)
        assert doc["floor"]["voids"] == sum(own[t]["meters"]["voids"] for t in own)
        assert len(got["T2"]["devices"]) >= 8 and got["T2"]["devices"]["shuffler"] == "ok"
        assert got["T2"]["links"] == [{"link": "L1", "value": None, "operable": None,
                                       "pending": 0, "table_sees": "down"}]

        # the report a shift manager exports
        report = list(csv.reader(io.StringIO(fetch(svc.page, "/report.csv"))))
        lines = {r[2]: r for r in report[1:] if len(r) > 2}
        assert report[0][4] == "handle ($)" and lines["T1"][4] == amount(own["T1"]["handle"])
        assert lines["T1"][10] == str(own["T1"]["meters"]["voids"])
        assert lines["T2"][11] == str(len(own["T2"]["lockouts"]))
        assert lines["T3"][15] == amount(room["rake"])
        assert any("drop is not seen" in ",".join(r) for r in report)

        # the pit screen in a browser
        driver = browser(tmp_path)
        driver.get(svc.page + "/")

        def cell(table, cls):
            return text_of(driver, "#p-%s td.%s" % (table, cls))
        wait_for(lambda: cell("T1", "handle") == dollars(own["T1"]["handle"]), timeout=60,
                 what="T1's handle on the pit screen")
        assert cell("T1", "win") == dollars(own["T1"]["win"])
        assert cell("T1", "voids") == str(own["T1"]["meters"]["voids"])
        assert cell("T2", "lockouts") == str(len(own["T2"]["lockouts"]))
        last = own["T2"]["lockouts"][-1]
        assert cell("T2", "last") == "%s device shuffler: jam, cleared after %d ms by %s" % (
            local(last[0]), round((last[1] - last[0]) / 1e6), listed[-1]["cleared"]["by"])
        assert cell("T1", "open") == "none"
        assert cell("T3", "handle") == "pots " + dollars(room["pots"])
        assert cell("T3", "win") == dollars(room["rake"]) + " rake"
        assert cell("T2", "drop") == "not seen here"
        assert "down at the table" in cell("T2", "links")
        note = driver.find_element("id", "pit-note").text
        assert "voided round returns every wager" in note and "drop box" in note
        assert "(current)" in driver.find_element("id", "pit-day").text
        assert "DOWN at the table" in text_of(driver, "#t-T2 td.link")
        assert "pots " + dollars(room["pots"]) in text_of(driver, "#t-T3")    # not stacks
        assert "bad" in driver.find_element("css selector", "#t-T2 td.link") \
            .get_attribute("class")
        os.makedirs(SHOTS, exist_ok=True)
        driver.set_window_size(1400, 1300)      # the whole screen in the picture
        shutil.copy(save_screenshot(driver, tmp_path, "pit-screen.png"),
                    os.path.join(SHOTS, "pit-screen.png"))

        # a table's page: local time, dollars, sentences, every device, its links
        driver.get(svc.page + "/table/T2")
        wait_for(lambda: len(driver.find_elements("css selector", "#day-lockouts tbody tr"))
                 == len(listed), timeout=15, what="T2's lock-outs of the day")
        assert text_of(driver, "#title") == "Table T2: Raise It Up Stud"
        assert "ok" in driver.find_element("id", "now-floor-link").get_attribute("class")
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[+-]\d\d:\d\d",
                            text_of(driver, "#now-last-heard"))
        day_rows = [r.text for r in driver.find_elements("css selector",
                                                         "#day-lockouts tbody tr")]
        assert day_rows[0].startswith(local(last[0])) and \
            "%s, after %d ms by" % (local(last[1]), round((last[1] - last[0]) / 1e6)) \
            in day_rows[0]
        devices = driver.find_elements("css selector", "#devices li")
        assert len(devices) >= 8 and "shuffler: ready" in [d.text for d in devices]
        assert text_of(driver, "#progressives") == \
            "L1: DOWN at the table: progressive wagers refused"
        meters = text_of(driver, "#meters")
        assert "Progressive: meter now $" in meters and "progressive.progressive" not in meters
        recent = text_of(driver, "#recent")
        assert "{" not in recent and re.search(r"Seat \d wagered \$\d", recent)
        assert text_of(driver, "#day-drop").startswith("not seen by this system")
        driver.set_window_size(1400, 2400)
        shutil.copy(save_screenshot(driver, tmp_path, "table-page-pit.png"),
                    os.path.join(SHOTS, "table-page.png"))
    finally:
        if driver is not None:
            driver.quit()
        for sim, _, _ in sims.values():
            sim.close()
        svc.stop()


@pytest.mark.reg("585.3(f)")
def test_a_chosen_gaming_day_holds_the_rounds_of_that_day_only(tmp_path):
    """The gaming day turns at its configured start: a journal whose rounds straddle it is
    split between two days, each equal to the table's own meters of that day's rounds."""
    from controller.console.wager_meters import add_round
    journal = str(tmp_path / "t.journal")
    sim = Simulation("props-and-hops", seed=5, faults=[("dice_reader", "no_roll", 0.3)],
                     journal=journal)
    try:
        sim.run(3)
        time.sleep(1.1)             # a whole second between the third round and the fourth
        sim.run(3)
    finally:
        sim.close()
    rows = journal_rows(journal)
    clock = wall_clock(rows)
    ends = []                                   # (wall ns, model) of each round's end
    for r in rows:
        model = (_data(r).get("table") or {}).get("model") or {} \
            if r["kind"] == "snapshot" else {}
        if model.get("status") in ("settled", "void") and \
                (not ends or ends[-1][1]["round_no"] != model["round_no"]):
            ends.append((clock.wall_ns(r["ts_ns"]), model))
    assert len(ends) == 6
    # the gaming day starts between the third round's end and the fourth's (a day's start
    # is a whole second)
    cut = (ends[2][0] // NS + 1) * NS
    assert ends[2][0] < cut <= ends[3][0]
    off = time.localtime(cut // NS).tm_gmtoff
    start_s = (cut // NS + off) % 86400
    service = FloorService("nats://127.0.0.1:1", clock=lambda: ends[-1][0] / NS)
    pit = service.register(Pit(service, day_start_s=start_s))
    for r in rows:
        if service.fold.on_row("T1", r):
            pit.on_row("T1", r, service.views["T1"])
    before, after = day_of(cut - 1, off, start_s), day_of(cut, off, start_s)
    assert before != after and pit.days() == [after, before]
    for day, part in ((before, ends[:3]), (after, ends[3:])):
        book = {}
        for _, model in part:
            if model["status"] == "settled":
                add_round(book, model["wagers"], model["results"])
        fig = pit.figures(day)["tables"][0]
        assert fig["handle"] == sum(m["handle"] for m in book.values())
        assert fig["win"] == sum(m["hold"] for m in book.values())
        assert fig["rounds"] + fig["voids"] == 3
        assert fig["voids"] == sum(1 for _, m in part if m["status"] == "void")
    assert isinstance(TableView.load("T1", service.views["T1"].dump().decode()).slot("pit")
                      ["days"][before], dict)   # the pit's state is saved with the table


@pytest.mark.reg("637a(e)(6)(iii)")
def test_a_poker_rooms_hand_is_its_pots_and_rake_never_the_players_stacks():
    """A poker room's hand (a stacked scenario of the library, played through the game's own
    machine) as its round-end snapshot reaches the floor: its pots and the rake the
    scenario's expectation states; the stacks are no handle; the pit's win is the rake."""
    from controller.journal.chain import GENESIS_HASH
    from controller.lab.scenario import Runner, load
    root = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scenarios", "poker")
    name = "holdem-showdown-aces-beat-kings"
    with open(os.path.join(root, name + ".expect.json")) as f:
        expect = json.load(f)["output"]
    runner = Runner(load(os.path.join(root, name + ".json")))
    runner.run()
    snapshot = {"table": runner.table.snapshot(), "policies": [],
                "counters": {"rounds": 1, "voids": 0, "last_round": runner.model.round_no}}
    row = {"seq": 1, "ts_ns": 1, "source": "controller", "entry": "snapshot",
           "kind": "snapshot", "round_no": runner.model.round_no, "prev_hash": GENESIS_HASH,
           "hash": "0" * 64, "data": json.dumps(snapshot)}
    service = FloorService("nats://127.0.0.1:1")
    pit = service.register(Pit(service))
    assert service.fold.on_row("P1", row)
    pit.on_row("P1", row, service.views["P1"])
    view = service.views["P1"]
    pots = sum(p["amount"] for p in expect["pots"])
    assert view.s["wagers"] == {}               # the stacks are not wagers on the house
    assert view.s["room"] == {"hands": 1, "pots": pots, "rake": expect["rake"],
                              "jackpot_drop": expect["jackpot_drop"]}
    fig = pit.figures()["tables"][0]
    assert fig["player_banked"] and (fig["handle"], fig["pots"], fig["rake"], fig["win"]) \
        == (0, pots, expect["rake"], expect["rake"]) and expect["rake"] > 0


@pytest.mark.reg("669a.13(e)")
def test_an_open_lock_out_is_on_the_pit_screen_with_its_age(floor, tmp_path):
    """A shuffler jam nobody has cleared yet: the pit lists it open, with its age, which
    grows while it stays open; the lock-out's time is the journal's."""
    svc = ServiceThread(floor.url, day_start_s=far_day_start())
    journal = str(tmp_path / "T1.journal")
    sim = Simulation("flop-poker", seed=1, journal=journal)
    try:
        attach(sim, sim.ctl, journal, "T1", floor.url, floor.passwords["T1"], drain_s=5)
        sim.run(1)
        sim.sim.serial["shuffler"].jam_next()
        sim.autoplay.act(sim.drivers["shuffler"].shuffle, "shuffler")
        sim.commit()

        def open_now():
            t = json.loads(fetch(svc.page, "/api/pit"))["tables"][0]
            return t if t["open_lockouts"] and t["open_lockouts"][0]["age_s"] is not None \
                else None
        first = wait_for(open_now, timeout=60, step=0.1, what="the open lock-out")
        lo = first["open_lockouts"][0]
        assert "shuffler" in lo["reason"] and first["lockouts"] == 1
        assert lo["since_ns"] == own_lockouts(journal_rows(journal))[0][0]
        assert first["last_lockout"]["cleared"] is None
        wait_for(lambda: open_now()["open_lockouts"][0]["age_s"] >= lo["age_s"] + 1,
                 timeout=10, step=0.2, what="its age to grow")
    finally:
        sim.close()
        svc.stop()


@pytest.mark.parametrize("option, named", [
    (["--gaming-day-start", "25:00"], "--gaming-day-start '25:00': a local time HH:MM"),
    (["--pit", "MAIN"], "--pit 'MAIN': NAME=TABLE,TABLE,..."),
    (["--pit", "A=T1", "--pit", "B=T1"], "--pit: table T1 is in two pits (A, B)")])
def test_a_bad_pit_option_is_one_line_naming_it(option, named):
    r = subprocess.run([sys.executable, "-m", "controller.cli", "floor", "--nats",
                        "nats://127.0.0.1:1"] + option, cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.startswith("tablectl floor: ") and named in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.reg("585.3(g)")
def test_the_pits_figures_survive_a_floor_restart_without_counting_a_round_twice(floor,
                                                                                tmp_path):
    """The pit's state is saved with each table's entry in the bucket: a floor service stopped
    in the middle of play and started again goes on from it; rounds folded again after the
    restart (between the entry's write and the position's) are not counted twice."""
    day_start = far_day_start()
    journal = str(tmp_path / "T1.journal")
    sim = Simulation("props-and-hops", seed=7, faults=[("dice_reader", "no_roll", 0.4)],
                     journal=journal)
    svc = ServiceThread(floor.url, day_start_s=day_start)
    try:
        attach(sim, sim.ctl, journal, "T1", floor.url, floor.passwords["T1"], drain_s=5)
        sim.run(4)
        wait_for(lambda: json.loads(fetch(svc.page, "/api/pit"))["tables"][0]["rounds"] +
                 json.loads(fetch(svc.page, "/api/pit"))["tables"][0]["voids"] == 4,
                 timeout=60, step=0.1, what="the first four rounds")
        svc.stop()
        sim.run(4)                              # played while the floor is down
        svc = ServiceThread(floor.url, day_start_s=day_start)
        sim.commit()
        meters = journal_meters(journal)
        handle, win = own_money(journal)

        def caught_up():
            t = json.loads(fetch(svc.page, "/api/pit"))["tables"][0]
            return t if t["rounds"] + t["voids"] == 8 else None
        t = wait_for(caught_up, timeout=60, step=0.1, what="the floor to catch up")
        assert (t["rounds"], t["voids"]) == (meters["rounds"], meters["voids"])
        assert (t["handle"], t["win"]) == (handle, win) and meters["voids"] >= 1
    finally:
        sim.close()
        svc.stop()


def test_the_report_never_hands_a_spreadsheet_a_formula_from_a_table():
    """A lock-out's reason is the table's words: one that begins like a formula is quoted in
    the CSV, while amounts stay numbers (a negative win included)."""
    from controller.floor.report import csv_text
    from controller.human import wall_iso
    row = {"table": "T1", "game": "poker", "pit": "=HYPERLINK(\"x\")", "handle": 100, "win": -5,
           "hold_pct": -5.0, "rounds": 1, "hours": 1.0, "rounds_per_hour": 1.0, "voids": 0,
           "lockouts": 1, "open_lockouts": [], "pots": 0, "rake": 0, "jackpot_drop": 0,
           "utc_offset_s": 0, "last_lockout": {"wall_ns": 0, "reason": "@SUM(A1)"}}
    fig = {"day": "2026-12-04", "day_start_s": 21600, "tables": [row],
           "pits": [dict(row, tables=1)], "floor": dict(row, tables=1)}
    lines = list(csv.reader(io.StringIO(csv_text(fig, wall_iso))))
    t1 = next(r for r in lines if len(r) > 2 and r[2] == "T1")
    assert t1[1] == "'=HYPERLINK(\"x\")" and t1[13].endswith("@SUM(A1)")
    assert t1[13].startswith("1970-01-01T00:00:00+00:00") and t1[5] == "-0.05"


def test_a_tables_entry_keeps_two_days_of_lock_out_lists_and_every_days_count():
    """The pit's state rides in the table's bucket entry (one NATS message, 1 MB at most):
    the lists of lock-outs are kept for the last two gaming days, 200 a day; every day keeps
    its count, and the page is told when a list is not whole."""
    from controller.floor import pit as P
    service = FloorService("nats://127.0.0.1:1")
    pit = service.register(Pit(service, day_start_s=0))
    view = service.views["T1"] = TableView("T1")
    seq = 0
    for day in range(3):
        view.s["clock"] = {"wall_ns": (20000 + day) * 86400 * NS, "table_ns": 0,
                           "utc_offset_s": 0}
        for i in range(P.KEEP_LOCKOUTS + 5 if day == 2 else 3):
            seq += 1
            pit.on_row("T1", {"seq": seq, "ts_ns": i * NS, "entry": "record",
                              "kind": "lock_out", "source": "controller", "round_no": 0,
                              "data": {"reason": "device shuffler: jam"}}, view)
    first, second, third = (pit.figures(day_of((20000 + i) * 86400 * NS, 0, 0))["tables"][0]
                            for i in range(3))
    assert (first["lockouts"], first["lockout_list"], first["lockouts_listed"]) == (3, [], False)
    assert (second["lockouts"], len(second["lockout_list"]), second["lockouts_listed"]) == \
        (3, 3, True)
    assert third["lockouts"] == P.KEEP_LOCKOUTS + 5 and not third["lockouts_listed"]
    assert len(third["lockout_list"]) == P.KEEP_LOCKOUTS
    assert third["lockout_list"][-1]["seq"] == seq          # the latest kept
    assert len(view.dump()) < 100 * 1024
