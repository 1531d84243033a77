"""`tablectl floor demo` stops whole (issue 34): run in a real terminal (tmux), stopped by
Ctrl-C typed in it, by SIGTERM, and by the terminal closing (SIGHUP), it stops every part it
started (tables, the link's controller, the floor service, nats-server) and the process table
holds none of them afterwards: not running, not re-parented to PID 1, nothing left in the
parts' process group. The stop prints no error.

Each case starts a two-table demo (the linked Raise It Up table and one other: every kind of
part), the smallest floor with all of them; the three are a process start each, so they are
one parametrized test.
"""

import json
import os
import re
import signal
import shutil
import sys
import time

import pytest

from tests.floor.conftest import ROOT, logged_in, wait_for

TMUX = shutil.which("tmux")


def processes():
    """{pid: (ppid, pgid, command line)} of every process now, from /proc."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
            with open("/proc/%s/cmdline" % name, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] == "Z":
            continue                            # a zombie is gone, waiting to be reaped
        out[int(name)] = (int(fields[1]), int(fields[2]), cmd)
    return out


def parts_of(workdir):
    """The demo and its parts now: every process whose command line names its folder (but
    the test's terminal, whose command line holds the demo's)."""
    return {pid: p for pid, p in processes().items()
            if workdir in p[2] and "tmux" not in p[2]}


@pytest.mark.skipif(TMUX is None, reason="tmux (README's test set-up)")
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "terminal-closed"])
def test_the_demo_stops_every_part_it_started_by_each_signal(tmp_path, how):
    from tests.console.test_top import Tmux
    workdir = str(tmp_path / "demo")
    err = str(tmp_path / "stderr")
    term = Tmux("cd %s && exec %s -m controller.cli floor demo --tables 2 --port 0 "
                "--pause 0.2 --dir %s 2>%s" % (ROOT, sys.executable, workdir, err))
    try:
        # the pane stays when the demo ends: its last lines can be read
        term._tmux("set-option", "-w", "-t", "t", "remain-on-exit", "on")
        screen = term.wait_for("Ctrl-C stops everything", timeout=120)
        page = re.search(r"floor page: (http://\S+/)", screen).group(1)
        with open(os.path.join(workdir, "supervisor.password")) as f:
            person = logged_in(page, "supervisor", f.read().strip())    # the page's login

        def playing():                  # both tables well into play: a stop mid-round
            with person.open(page + "api/tables", timeout=5) as r:
                docs = json.load(r)
            return len(docs) == 2 and all(d.get("rows", 0) > 50 for d in docs)
        wait_for(playing, timeout=120, step=0.5, what="both tables playing")
        demo = next(pid for pid, (_, _, cmd) in parts_of(workdir).items()
                    if "floor demo" in cmd)
        # every part started is running, all in the parts' one group, children of the demo
        started = wait_for(lambda: (lambda p: p if len(p) >= 5 else None)(
            {pid: v for pid, v in parts_of(workdir).items() if pid != demo}),
            timeout=60, what="the server, the floor, the link's controller and two tables")
        pgid = next(v[1] for v in started.values() if "nats-server" in v[2])
        assert {v[1] for v in started.values()} == {pgid}, started     # one group
        assert pgid != os.getpgid(demo)         # not the terminal's: Ctrl-C reaches the demo
        assert {v[0] for v in started.values()} == {demo}
        kinds = " ".join(v[2] for v in started.values())
        for part in ("nats-server", " floor --nats", "floor link run", "sim --game"):
            assert part in kinds
        t0 = time.monotonic()
        if how == "ctrl-c":
            term.keys("C-c")
        elif how == "sigterm":
            os.kill(demo, signal.SIGTERM)
        else:
            term.close()                        # the terminal goes: SIGHUP to the demo
        wait_for(lambda: demo not in processes() and not parts_of(workdir), timeout=60,
                 step=0.05, what="the demo and every part to stop")
        took = time.monotonic() - t0
        with open(os.path.join(workdir, "stop.log")) as f:
            steps = f.read().strip()
        # (how long each step took is printed, not asserted: timing belongs to bench/)
        print("the demo stopped by %s in %.2f s (%s)" % (how, took, steps))
        left = [pid for pid, v in processes().items() if v[1] == pgid]
        assert left == [], "left in the parts' group: %s" % left
        if how == "ctrl-c":
            assert "stopped: 2 tables, the link's controller, the floor service and " \
                   "nats-server" in term.wait_for("stopped:")
        with open(err) as f:
            assert f.read() == ""               # no error printed
        for name in ("floor", "link-controller", "T01", "T02"):
            with open(os.path.join(workdir, "%s.log" % name)) as f:
                log = f.read()
            assert "Traceback" not in log and "timeout" not in log.lower(), (name, log[-800:])
    finally:
        term.close()
        for pid in parts_of(workdir):           # a failed case leaves nothing behind
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
