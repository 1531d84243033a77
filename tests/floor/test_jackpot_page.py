"""A genuine jackpot through the crashes, confirmed by a supervisor logged in on the floor page
in Debian's headless Chromium (issue 31): a real simulated Raise It Up table (its own
process, tests/floor/link_table_proc.py) wins the whole meter and sends its signed hit; the
link's real controller (`tablectl floor link run`, a process) locks the award and is
SIGKILLed right after; the table is SIGKILLed with the award owed. Both restart; the award
waits, pending on the page, until the supervisor logs in and confirms having seen the cards;
the table is paid exactly once, and `floor reconcile` accounts for the hit, its lock, its
confirmation and its payment."""

import json
import os
import signal

import pytest

from controller.floor.auth import Users
from tests.floor.conftest import ServiceThread, journal_rows, signing_key, wait_for
from tests.floor.test_jackpot_lock import PASSWORDS, users_file
from tests.floor.test_link_controller import cli, kv_json, meter
from tests.floor.test_link_table_e2e import controller, stop
from tests.floor.test_link_table_restart import kill, resume, start, until_sent
from tests.floor.test_page import CHROMIUM, DRIVER, browser, save_screenshot, text_of


def login(driver, page, name, role="supervisor", then="/"):
    """Log in through the page's form, as a person does (the pit screen after it)."""
    driver.get(page + "/login?next=" + then)
    driver.find_element("id", "user").send_keys(name)
    driver.find_element("id", "password").send_keys(PASSWORDS[name])
    driver.find_element("id", "login-button").click()
    wait_for(lambda: "%s (%s)" % (name, role) in text_of(driver, "#who"), timeout=15,
             what="logged in on the floor page")


@pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
                    reason="Debian's chromium and chromium-driver (README's test set-up)")
@pytest.mark.reg("669a.12(e)(4)", "669a.11(i)(3)(i)(D)", "605a.7")
def test_a_jackpot_through_sigkills_is_paid_once_after_a_supervisor_confirms_in_the_page(
        floor, tmp_path, monkeypatch):
    rc, out, err = cli("floor", "link", "define", "L1", "--game", "raise-it-up-stud",
                       "--wager", "progressive", "--tables", "T1,T2", "--reset", "100000",
                       "--rate", "0.14", "--confirm-above", "0", "--nats", floor.url,
                       "--password-file", floor.floor_password_file())
    assert rc == 0, out + err
    monkeypatch.setenv("TABLECTL_TEST_UPLINK", "1")     # the table's journal on the floor
    ctl = controller(floor, crash="after_lock:1")
    service = driver = None
    journal = str(tmp_path / "t1.db")
    try:
        proc = start(journal, floor, "hit")
        try:
            hits = until_sent(proc)
            assert len(hits) == 1, hits
        finally:
            kill(proc)                          # the table dies with its award owed
        ident = "T1:" + hits[0]
        ctl.wait(30)                            # the controller died right after the lock
        assert ctl.returncode == -signal.SIGKILL
        ctl.communicate()
        locked = meter(floor.url)
        assert [a["id"] for a in locked["pending"]] == [ident]
        assert locked["value"] == 100000        # reset at the hit for every table
        ctl = controller(floor)                 # restarted: the award still waits
        service = ServiceThread(floor.url, users=Users(users_file(tmp_path)),
                                confirm_key=signing_key("floor-page"))
        driver = browser(tmp_path)
        login(driver, service.page, "view", "viewer")      # a viewer sees it, cannot confirm
        row = "#jackpots tr.pending"
        wait_for(lambda: "PENDING" in text_of(driver, row), timeout=60,
                 what="the award pending on the page")
        assert "As Ks Qs" in text_of(driver, row) and "0 of 1" in text_of(driver, row)
        assert text_of(driver, row + " button.confirm") == ""   # a viewer: no button
        assert asyncio_award(floor.url, hits[0]) is None        # nothing paid
        # the floor's password alone tries to confirm it: refused, the alarm on the page
        import asyncio
        from tests.floor.test_jackpot_lock import _forged_confirm
        asyncio.run(_forged_confirm(floor.url, ident))
        wait_for(lambda: "not signed by a floor page's key" in text_of(driver, "#alarms"),
                 timeout=15, what="the alarm on the page")
        assert asyncio_award(floor.url, hits[0]) is None and "0 of 1" in text_of(driver, row)
        login(driver, service.page, "sup1")
        wait_for(lambda: text_of(driver, row + " button.confirm"), timeout=60,
                 what="the confirm button for a supervisor")
        save_screenshot(driver, tmp_path, "floor-jackpot-pending.png")
        driver.find_element("css selector", row + " button.confirm").click()
        award = wait_for(lambda: asyncio_award(floor.url, hits[0]), timeout=60,
                         what="the award paid after the confirmation")
        assert award["confirmations"][0]["by"] == "sup1"
        wait_for(lambda: text_of(driver, row) == "", timeout=60, what="the row gone")
        out = resume(journal, floor)            # the table restarted: paid once
        assert out["done"] and out["meter"]["hits"] == 1, out
        paid = [json.loads(r["data"]) for r in journal_rows(journal)
                if r["kind"] == "link_award"]
        assert [p["id"] for p in paid] == [ident] and paid[0]["amount"] == award["amount"]
        rc, out, err = cli("floor", "reconcile", "L1", "--json", "--nats", floor.url,
                           "--password-file", floor.floor_password_file())
        report = json.loads(out)
        assert rc == 0, report["problems"]
        assert [(j["id"], j["state"], [c["by"] for c in j["confirmations"]])
                for j in report["jackpots"]] == [(ident, "paid", ["sup1"])]
    finally:
        if driver is not None:
            driver.quit()
        if service is not None:
            service.stop()
        stop(ctl)


def asyncio_award(url, key):
    import asyncio
    round_no, seat = key.split(":")
    return asyncio.run(kv_json(url, "award.L1.T1.%s-%s" % (round_no, seat)))[0]
