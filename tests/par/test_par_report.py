"""The lab report (`tablectl par --all --html FILE`) rendered in Debian's headless
Chromium and read back: what a lab sees, not the HTML source."""
import os
import re
import subprocess
import sys

import pytest

from controller.console import manifest
from controller.lab.par import registry, report
from controller.lab.par.sheet import StrategyPar, WagerPar

CHROME_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run")


@pytest.fixture
def browser(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for f in CHROME_FLAGS:
        opts.add_argument(f)
    opts.add_argument("--user-data-dir=%s" % (tmp_path / "profile"))
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def all_sheets():
    return [(g, registry.sheets(g)) for g in registry.GAMES]


@pytest.mark.reg("669a.12(b)", "669a.12(c)", "669a.12(d)", "583.12(a)", "583.12(b)",
                 "670a.12(a)", "581.12(c)", "585.4")
def test_report_renders_every_game_wager_and_chart_in_chromium(browser, tmp_path, all_sheets):
    from selenium.webdriver.common.by import By
    path = str(tmp_path / "par.html")
    report.write(path, all_sheets)
    browser.get("file://" + path)
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("Par sheets")
    assert browser.find_element(By.ID, "version").text.startswith("tablectl ")
    sig = browser.find_element(By.ID, "firmware").text
    assert re.fullmatch(r"[0-9a-f]{64}", sig)
    assert sig == manifest.firmware_signature()         # what `tablectl manifest` gives
    heads = browser.find_elements(By.TAG_NAME, "h2")
    assert [h.text for h in heads if h.get_attribute("id") != "readings"] == list(registry.GAMES)
    sections = browser.find_elements(By.CSS_SELECTOR, "section.wager")
    assert len(sections) == sum(len(s) for _, s in all_sheets)
    ours = [(g, s) for g, sheets in all_sheets for s in sheets
            if isinstance(s, (WagerPar, StrategyPar))]
    tabled = [x for x in sections if x.find_elements(By.CSS_SELECTOR, "table.par")]
    assert len(tabled) >= len(ours)
    for sec in tabled:
        rows = len(sec.find_elements(By.CSS_SELECTOR, "table.par tr")) - 2   # header, total
        chart = sec.find_element(By.CSS_SELECTOR, "svg.chart")
        bars = chart.find_elements(By.CSS_SELECTOR, "rect.bar")
        assert len(bars) == rows > 0, sec.get_attribute("data-wager")
        assert chart.size["width"] > 300 and chart.size["height"] > 16 * rows
    for game, sheet in ours:
        sec = browser.find_element(By.CSS_SELECTOR, 'section[data-game="%s"][data-wager="%s"]'
                                   % (game, sheet.wager)) if sheet.wager == "base_game" else None
        if sec is not None:
            assert sec.find_elements(By.CSS_SELECTOR, "table.par")
    riu = browser.find_element(By.CSS_SELECTOR,
                               'section[data-game="raise-it-up-stud"][data-wager="base_game"]')
    assert "3.5022%" in riu.find_element(By.CSS_SELECTOR, "b.hold").text
    assert "optimal strategy" in riu.find_element(By.CSS_SELECTOR, "p.method").text
    assert "Ante 1 to 1, Blind push, Play 3 to 2 on 3x" in riu.text      # 669a.12(b)-(d)
    cells = [td.text for td in riu.find_elements(By.CSS_SELECTOR, "table.par tr:last-child th")]
    assert cells[0] == "total" and cells[1] == "2,443,022,400"
    assert cells[-1] == "%+.8f" % -float(sheet_edge(all_sheets, "raise-it-up-stud"))
    scf = browser.find_element(By.CSS_SELECTOR, 'section[data-game="six-card-fortune-pai-gow"]'
                                                '[data-wager="base_game"]')
    assert "95% confidence interval" in scf.text and "seed 670" in scf.text
    bust = browser.find_element(By.CSS_SELECTOR, 'section[data-game="double-attack-blackjack"]'
                                                 '[data-wager="bust_it"]')
    assert "581.12(c)" in bust.text and "third_card_face" in bust.text and "3 to 1" in bust.text
    assert "8.0064%" in bust.text


def sheet_edge(all_sheets, game):
    for g, sheets in all_sheets:
        for s in sheets:
            if g == game and isinstance(s, StrategyPar):
                return s.house_edge()
    raise AssertionError(game)


def test_par_html_on_the_command_line(tmp_path):
    path = str(tmp_path / "flop.html")
    p = subprocess.run([sys.executable, "-m", "controller.cli", "par", "flop-poker", "--html",
                        path], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "wrote %s" % path
    text = open(path, encoding="utf-8").read()
    assert "<svg" in text and "base_game" in text and "583.12(b)" in text
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    bad = subprocess.run([sys.executable, "-m", "controller.cli", "par", "flop-poker", "--html",
                          os.path.join(str(tmp_path), "no", "such", "x.html")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "cannot write the report" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.reg("669a.12(a)", "581.12(c)", "669a.12(e)")
def test_report_carries_the_lab_fields_in_chromium_and_in_json(browser, tmp_path, all_sheets):
    """Issue 36: per wager its standard deviation and hit frequency; the date, the
    configuration and paytable hashes per game, the firmware signature (what `tablectl
    manifest` gives), the readings table; the Raise It Up progressive priced, not
    "strategy-dependent"; the same fields in `tablectl par --json`."""
    from selenium.webdriver.common.by import By
    from controller.lab.par import readings
    info = dict(report.software(clock=lambda: 1764932400 * 10 ** 9))
    path = str(tmp_path / "par.html")
    report.write(path, all_sheets, info=info)
    browser.get("file://" + path)
    assert re.fullmatch(r"2025-12-05T\d\d:\d\d:00[+-]\d\d:\d\d",
                        browser.find_element(By.ID, "date").text)
    firmware = browser.find_element(By.ID, "firmware").text
    assert re.fullmatch(r"[0-9a-f]{64}", firmware)
    hashes = browser.find_elements(By.CSS_SELECTOR, "tr.hashes")
    assert [h.get_attribute("data-game") for h in hashes] == list(registry.GAMES)
    for h in hashes:
        for cls in ("config-hash", "paytable-hash"):
            assert re.fullmatch(r"[0-9a-f]{64}", h.find_element(By.CSS_SELECTOR, "." + cls).text)
    rows = browser.find_elements(By.CSS_SELECTOR, "table.readings tr[data-key]")
    assert [r.get_attribute("data-key") for r in rows] == [r.key for r in readings.READINGS]
    # Pair Plus A: 5,660 of the 22,100 hands pay (pair or better); its deviation from the
    # counts and nets written here
    pp = browser.find_element(By.CSS_SELECTOR, 'section[data-game="raise-it-up-stud"]'
                                               '[data-wager="pair_plus"]')
    assert pp.find_element(By.CSS_SELECTOR, "b.hit").text == "%.4f%%" % (100 * 5660 / 22100)
    counts = {40: 48, 30: 52, 6: 720, 4: 1096, 1: 3744, -1: 22100 - 5660}
    mean = sum(n * c for n, c in counts.items()) / 22100
    sd = (sum(n * n * c for n, c in counts.items()) / 22100 - mean * mean) ** 0.5
    assert pp.find_element(By.CSS_SELECTOR, "b.sd").text == "%.4f" % sd
    progressive = browser.find_element(By.CSS_SELECTOR, 'section[data-game="raise-it-up-stud"]'
                                                        '[data-wager="progressive"]')
    assert "strategy-dependent" not in progressive.text and "optimal" in progressive.text
    assert "of the progressive meter" in progressive.text
    dd = browser.find_element(By.CSS_SELECTOR, 'section[data-game="six-card-fortune-pai-gow"]'
                                               '[data-wager="double_down"]')
    assert "strategy-dependent" not in dd.text and "95% confidence interval" in dd.text
    assert "15.2950%" in dd.find_element(By.CSS_SELECTOR, "b.hold").text
    blackjack = browser.find_element(By.CSS_SELECTOR, 'section[data-game="blackjack"]'
                                                      '[data-wager="base_game"]')
    # the base game's spread simulated and said so; the optimal total-dependent strategy
    from controller.lab.par import blackjack_optimal as O
    from controller.lab.par import blackjack_simulated as B
    from controller.lab.par import blackjack_strategy as bs
    rec = B.RECORDED[bs.rules_key(bs.blackjack_rules())]
    assert blackjack.find_element(By.CSS_SELECTOR, "b.sd").text == "%.4f" % rec["sd"]
    assert "simulated: 4,000,000 rounds" in blackjack.text
    best = O.solved(bs.blackjack_rules())
    assert blackjack.find_element(By.CSS_SELECTOR, "b.optimal-hold").text == \
        "%.4f%%" % (100 * best.house_edge())
    riu = browser.find_element(By.CSS_SELECTOR, 'section[data-game="raise-it-up-stud"]'
                                                '[data-wager="progressive"]')
    assert riu.find_element(By.CSS_SELECTOR, "b.hit").text == "%.4f%%" % (100 * 667 / 20825)
    assert report.NO_SPREAD not in browser.page_source   # every wager's spread is given
    p = subprocess.run([sys.executable, "-m", "controller.cli", "par", "raise-it-up-stud",
                        "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    import json
    doc = json.loads(p.stdout)
    meta = doc["report"]
    assert set(meta) >= {"date", "firmware_signature", "games", "readings"}
    (game,) = meta["games"]
    want = [h for h in hashes if h.get_attribute("data-game") == "raise-it-up-stud"][0]
    assert game["paytable_hash"] == want.find_element(By.CSS_SELECTOR, ".paytable-hash").text
    assert game["configuration_hash"] == want.find_element(By.CSS_SELECTOR,
                                                           ".config-hash").text
    ppj = [w for w in doc["wagers"] if w["wager"] == "pair_plus" and w["paytable"] == "A"][0]
    assert ppj["hit_frequency"] == round(5660 / 22100, 7) and ppj["standard_deviation"] == \
        round(sd, 7)
