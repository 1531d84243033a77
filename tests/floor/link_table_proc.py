"""A simulated Raise It Up table on a link, in a process of its own, for the tests that
SIGKILL it (tests/floor/test_link_table_restart.py).

    python -m tests.floor.link_table_proc JOURNAL URL PASSWORD_FILE MODE

MODE "hit": plays rounds whose deck gives seat 1 the ace, king and queen of spades (the whole
meter) until a hit is sent, then waits (to be killed). "round": places the round's wagers,
waits for the link's acknowledgements and for "no more bets", then waits (to be killed
mid-round). "resume": boots from the journal (a settled round's hit owed, an interrupted
round voided), waits until the link owes nothing, prints the linked meter as JSON, exits.
TABLECTL_TEST_UPLINK=1: the table's uplink forwards its journal to the floor as well.
It prints "READY" and, in "hit" and "round", "SENT" once what the test waits for is sent.
"""

import json
import os
import sys
import time

from controller.wire.link_client import attach
from controller.wire.uplink import read_password
from hal_sim.simulation import Simulation

HIT = ["As", "Ks", "Qs"]


def rig(ap):
    """The autoplay's shuffle with seat 1's stack the ace, king and queen of spades, from
    now: a deck already shuffled before the rig is shuffled again, rigged. Returns `ap`."""
    shuffle = ap.shuffle

    def rigged():
        shuffle()
        for card in reversed(HIT):
            ap.deck.remove(card)
            ap.deck.insert(0, card)
    ap.shuffle = rigged
    if ap.deck:
        ap.shuffle()
    return ap


def wait(pred, ap, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        ap.pump(lambda: False, 0.05)
    return False


def main(journal, url, password_file, mode):
    sim = Simulation("raise-it-up-stud", seed=7, journal=journal, link="L1")
    if os.environ.get("TABLECTL_TEST_UPLINK"):      # its journal on the floor too (reconcile)
        from controller.wire.uplink import attach as attach_uplink
        attach_uplink(sim, sim.ctl, journal, "T1", url, read_password(password_file),
                      drain_s=15)
    from tests.floor.conftest import signing_key
    client = attach(sim, "T1", "L1", url, read_password(password_file),
                    signing_key=signing_key("T1"))
    ap, ctl = sim.autoplay, sim.ctl
    lk = lambda: ctl.model.meter["link"]       # noqa: E731
    up = wait(lambda: lk()["up"] and lk()["synced"], ap, 20)
    print("READY", json.dumps({"up": up}), flush=True)
    # a loaded machine: the acks may come late, wait for them; a hit's award is not waited
    # for here (the test kills the table with it owed)
    waits = ap.wait_for_link
    ap.wait_for_link = lambda what, timeout_s=None: waits(what, 20.0 if what == "asked" else 1.0)
    if mode == "hit":
        rig(ap)
        for _ in range(10):
            wait(lambda: lk()["up"] and lk()["synced"], ap, 20)
            sim.run(1)
            if lk()["hits"] and client.stats["published"] and \
                    any(m.startswith("hit:") for m in client.done):
                break
        print("SENT", json.dumps(sorted(lk()["hits"])), flush=True)
        while True:
            ap.pump(lambda: False, 0.1)
    if mode == "round":
        ap.draw_faults()
        ap.ready()
        ap.place_wagers()
        print("SENT", json.dumps(sorted(lk()["accepted"])), flush=True)
        while True:
            ap.pump(lambda: False, 0.1)
    done = wait(lambda: not lk()["hits"] and not lk()["withdraw"] and not lk()["asked"] and
                lk()["up"], ap, 30)
    sim.commit()
    print(json.dumps({"done": done, "meter": ctl.model.meter,
                      "integrity": client.status()["integrity"],
                      "kinds": {k: v for k, v in ctl.kinds.items() if k.startswith("link_")}}),
          flush=True)
    sim.close()


if __name__ == "__main__":
    main(*sys.argv[1:5])
