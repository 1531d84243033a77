"""The floor page in a real browser: Debian's headless Chromium driven by selenium."""

import os
import shutil
import time

import pytest

from controller.wire.uplink import attach
from controller.lab.sim import Simulation
from tests.floor.conftest import ARTIFACTS, ServiceThread, wait_for
from tests.floor.proxy import Proxy

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def browser(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run",
              "--disable-dev-shm-usage", "--window-size=1400,900",
              "--user-data-dir=%s" % (tmp_path / "chromium-profile")):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


def save_screenshot(driver, tmp_path, name):
    path = str(tmp_path / name)
    driver.save_screenshot(path)
    os.makedirs(ARTIFACTS, exist_ok=True)
    shutil.copy(path, os.path.join(ARTIFACTS, name))
    return path


def text_of(driver, css):
    """The text of the element at `css` ("" while there is none). The page redraws a row
    when its table's summary or its link's meter changes (and each second), so an element
    found may be replaced before its text is read: it is looked up again, for up to 2 s."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    end = time.monotonic() + 2
    while True:
        try:
            return driver.find_element("css selector", css).text
        except NoSuchElementException:
            return ""
        except StaleElementReferenceException:
            if time.monotonic() > end:
                return ""
            time.sleep(0.01)


def cell(driver, table, cls):
    return text_of(driver, "#t-%s td.%s" % (table, cls.split()[0]))


@pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
                    reason="Debian's chromium and chromium-driver (README's test set-up)")
def test_the_floor_page_shows_a_fault_and_a_cut_link(floor, tmp_path):
    svc = ServiceThread(floor.url)
    proxy = Proxy(floor.server.port)
    sims, driver = [], None
    try:
        for table, game, url in (("T1", "flop-poker", floor.url),
                                 ("T2", "blackjack", proxy.url)):
            journal = str(tmp_path / ("%s.journal" % table))
            sim = Simulation(game, seed=1, journal=journal)
            sims.append(sim)
            attach(sim, sim.ctl, journal, table, url, floor.passwords[table], drain_s=5)
            sim.run(2)
        driver = browser(tmp_path)
        driver.get(svc.page + "/")
        wait_for(lambda: cell(driver, "T1", "link") == "up" and cell(driver, "T2", "link")
                 == "up", timeout=15, what="both tables on the page")
        assert cell(driver, "T1", "lockout") == ""
        # no users file: the page is open, and its header says so (issue 34)
        assert text_of(driver, "#who") == \
            "no logins configured: anyone who reaches this port sees the floor"
        # a shuffler jam at T1, the table's own device, through its real driver
        t1 = sims[0]
        # (how soon: bench/floor_page.py measures it against docs/floor.md's 1 s; a test
        # waits with a generous bound, issue 33: 1.19 s was seen here on a loaded machine)
        t1.sim.serial["shuffler"].jam_next()
        t1.autoplay.act(t1.drivers["shuffler"].shuffle, "shuffler")
        t1.commit()     # the lock-out's record: a running table's idle tick commits it in 1 s
        wait_for(lambda: "shuffler" in cell(driver, "T1", "lockout"), timeout=60, step=0.02,
                 what="the lock-out on the page")
        assert "locked" in driver.find_element("id", "t-T1").get_attribute("class")
        # T2's link cut: unreachable
        proxy.cut()
        wait_for(lambda: cell(driver, "T2", "link") == "UNREACHABLE", timeout=60,
                 what="T2 shown unreachable")
        save_screenshot(driver, tmp_path, "floor-page.png")
        # the table's own page: the lock-out not cleared, the device at fault, no reload
        driver.get(svc.page + "/table/T1")
        wait_for(lambda: "NOT CLEARED" in driver.find_element("id", "lockouts").text,
                 timeout=10, what="T1's lock-outs")
        assert "FAULT" in driver.find_element("id", "devices").text
        assert "Flop Poker" in driver.find_element("id", "title").text     # a name, not an id
        save_screenshot(driver, tmp_path, "table-page.png")
        # the unreachable table's page: every device it last reported, said to be so
        driver.get(svc.page + "/table/T2")
        wait_for(lambda: "UNREACHABLE" in text_of(driver, "#now-floor-link"), timeout=10,
                 what="T2's page")
        devices = [d.text for d in driver.find_elements("css selector", "#devices li")]
        assert len(devices) >= 8 and all(d.endswith("(as last reported)") for d in devices)
        proxy.restore()
        wait_for(lambda: svc.service.summary("T2")["link"]["reachable"], timeout=60,
                 what="T2 back")
    finally:
        if driver is not None:
            driver.quit()
        for sim in sims:
            sim.close()
        proxy.close()
        svc.stop()
