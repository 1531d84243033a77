"""`tablectl top --journal PATH`: the table live, read from its journal file, refreshing in
place; the screen is the one the console's `watch` draws (controller/console/screen.py).

Why the journal and not the running controller: the journal is already the one record every
part writes before anything is applied, a read-only reader follows it (the sector log, or an
older journal's SQLite file in WAL mode) without ever blocking the controller's writer, and it needs no new port, socket or privilege on
a table (nothing to secure, nothing that can stop the loop). `top` therefore opens the file
read-only (mode=ro), reads only the rows after those it has seen, and shows:
    the table's state (the last snapshot's, or LOCKED OUT while a lock-out is in force),
    each device's health (its last fault, whether a clear followed, frames rejected),
    the last lock-outs (casino local time), the money meters per wager for the gaming day,
    and the last rounds.
Every text that came from a device is made printable first (console/view.py printable).
"""

import datetime
import json
import os
import time
from collections import deque

from controller.clearing import rule_for
from controller.console.screen import fault_line, render
from controller.console.view import WIDTH
from controller.device_registry import configured_names, say_names
from controller.console.wager_meters import add_ended, house_take, round_line
from controller.errors import JournalError
from controller.human import gaming_day
from controller.units import GAMING_DAY_START, day_start_ns, gaming_day_of

CLEAR = "\x1b[H\x1b[2J"          # cursor home, clear the screen: the refresh in place


class JournalFollower:
    """The journal file read-only, row by row after the last one seen: what `top` shows."""

    def __init__(self, path):
        if not os.path.isfile(path):
            raise JournalError("journal %s: no such file" % path)
        self.path = path
        self.day_start_ns = day_start_ns()       # until the journal's `table` record says
        self.seq = 0
        self.game = None
        self.state = None
        self.round = None
        self.lockout = None
        self.lockouts = deque(maxlen=5)
        self.devices = {}            # name -> {"state", "fault", "rejected"}
        self.rounds = deque(maxlen=5)
        self.days = {}
        self.offset_ns = 0           # table time + this = local wall clock (clock records)
        self.last_round = 0
        self.last_ts = None
        self._fault_device = None
        self.names = {}              # {kind: configured name}: the `table` record's devices

    def local(self, ts_ns):
        if not isinstance(ts_ns, int):
            return "-"
        wall = ts_ns + self.offset_ns
        return datetime.datetime.fromtimestamp(wall / 1e9, datetime.timezone.utc).replace(
            tzinfo=None).isoformat(timespec="seconds") + self.zone(wall)

    def zone(self, wall_local_ns):
        off = time.localtime(wall_local_ns // 10 ** 9).tm_gmtoff
        sign = "+" if off >= 0 else "-"
        return "%s%02d:%02d" % (sign, abs(off) // 3600, abs(off) % 3600 // 60)

    def day(self, ts_ns):
        return gaming_day_of(ts_ns, self.offset_ns, self.day_start_ns)

    def read(self):
        """Take the rows added since the last read."""
        from controller.journal.formats import READ_ERRORS, open_journal
        try:
            store = open_journal(self.path, readonly=True)
        except JournalError as e:
            raise JournalError("journal %s cannot be opened read-only: %s" % (self.path, e))
        try:
            for row in store.rows(self.seq + 1):
                seq, ts, source, entry, kind, round_no, data = (
                    row["seq"], row["ts_ns"], row["source"], row["entry"], row["kind"],
                    row["round_no"], row["data"])
                self.seq = seq
                self.last_ts = ts
                try:
                    data = json.loads(data)
                except (TypeError, ValueError):
                    data = {}
                self._row(ts, source, entry, kind, round_no, data if isinstance(data, dict)
                          else {})
        except READ_ERRORS as e:
            raise JournalError("journal %s cannot be read: %s" % (self.path, e))
        finally:
            store.close()
        return self

    def _row(self, ts, source, entry, kind, round_no, data):
        if not (entry == "record" and kind in ("lock_out", "integrity_lock")) and \
                not (entry == "event" and kind == "fault"):
            if entry == "event":
                self._fault_device = None      # a lock-out names the fault of its own step
        if round_no is not None:
            self.round = round_no
        if entry == "genesis":
            self.game = data.get("game")
        elif entry == "record" and kind == "clock":
            try:
                self.offset_ns = data["wall_ns"] - data["table_ns"] + \
                    data.get("utc_offset_s", 0) * 10 ** 9
            except (KeyError, TypeError):
                pass
        elif entry == "snapshot":
            table = data.get("table") or {}
            model = table.get("model") or {}
            self.state = table.get("state") or self.state
            self.game = table.get("game") or self.game
            n = model.get("round_no") or 0
            if n > self.last_round and model.get("status") in ("settled", "void"):
                self.last_round = n
                take = house_take(self.game)
                self.rounds.append(round_line(n, model["status"], model, take))
                if model["status"] == "settled":
                    add_ended(self.days.setdefault(self.day(ts), {}), model, take)
        elif entry == "record" and kind in ("lock_out", "integrity_lock"):
            if self.lockout is None:
                device = data.get("device") or ("journal" if kind == "integrity_lock" else
                                                self._fault_device)
                # the configured names a person knows, not the kinds the games journal
                device, reason = say_names([device, data.get("reason")], self.names)
                self.lockout = {"reason": reason, "ts": ts, "device": device}
                self.lockouts.append({"when": self.local(ts), "device": device,
                                      "reason": reason, "cleared": False})
        elif entry == "record" and kind == "table":
            # the runtime's at start: every device known, healthy until it says otherwise, and
            # when the gaming day begins
            try:
                self.day_start_ns = day_start_ns(data.get("gaming_day_start",
                                                          GAMING_DAY_START))
            except ValueError:
                pass
            self.names = configured_names(data.get("devices") or {})
            for name in data.get("devices") or {}:
                self.devices.setdefault(str(name), {"state": "ready", "fault": "",
                                                    "rejected": 0})
        elif entry == "event" and kind == "fault":
            # the driver's name (the event's source) is the device a technician knows
            dev = str(source if source not in (None, "console", "controller", "test")
                      else data.get("device"))
            self.devices.setdefault(dev, {"state": "ready", "fault": "", "rejected": 0}).update(
                state="fault", fault=fault_line(say_names(data.get("reason"), self.names),
                                                self.local(ts)))
            self._fault_device = dev           # its name, as `watch` and the console say
        elif entry == "event" and kind == "frame_rejected":
            dev = str(data.get("device") or source)
            self.devices.setdefault(dev, {"state": "ready", "fault": "", "rejected": 0})
            self.devices[dev]["rejected"] += 1
        elif entry == "event" and kind == "clear" and self.lockout is not None and \
                data.get("selftest") is not False:
            self._cleared(data)
        elif entry == "event":
            dev = str(source)
            if dev not in ("console", "controller", "test") and dev not in self.devices:
                self.devices[dev] = {"state": "ready", "fault": "", "rejected": 0}

    def _cleared(self, data):
        # a clear the game refused is followed by a `refused` record; a lock-out is cleared
        # once a snapshot or another input shows play again: here, optimistically, at the clear
        # the clear service submitted with a passed check
        if data.get("selftest") is True or "selftest" not in data:
            self.lockout = None
            if self.lockouts:
                self.lockouts[-1].update(cleared=True, by=data.get("role"))
            for d in self.devices.values():
                if d["state"] == "fault":
                    d["state"] = "ready"

    def info(self):
        today = self.day(self.last_ts) if self.last_ts is not None else None
        state = "locked_out" if self.lockout else (self.state or "-")
        return {"title": "tablectl top", "now": self.local(self.last_ts), "game": self.game,
                "state": state,
                "round": self.round, "accepting": None,
                "lockout": None if self.lockout is None else {
                    "reason": self.lockout["reason"],
                    # the clear service's own rule, as `watch` and the console's status say it
                    "to_clear": rule_for({"device": self.lockout["device"]}).describe()},
                "devices": [(n, d["state"], (d["fault"] + ("  %d frames rejected"
                                                           % d["rejected"] if d["rejected"]
                                                           else "")).strip())
                            for n, d in sorted(self.devices.items())],
                "lockouts": list(self.lockouts),
                "day": None if today is None else gaming_day(int(today)),
                "meters": self.days.get(today, {}), "rounds": list(self.rounds)}


def cmd_top(args, out):
    follower = JournalFollower(args.journal)
    from controller.cli_args import interrupted_by_signals
    try:
        with interrupted_by_signals():      # SIGTERM, SIGHUP: as Ctrl-C
            return _refresh(args, out, follower)
    except KeyboardInterrupt:
        out.write("\n")
        return 0


def _refresh(args, out, follower):
    """Draw the screen every interval, `--count` times or until interrupted."""
    n = 0
    while True:
        screen = render(follower.read().info(), args.width)
        if out.isatty() if hasattr(out, "isatty") else False:
            out.write(CLEAR + screen.replace("\n", "\x1b[K\n") + "\x1b[K\x1b[J")
        else:
            out.write(screen + "\n\n")
        out.flush()
        n += 1
        if args.count and n >= args.count:
            return 0
        time.sleep(args.interval)


def add_parser(sub):
    p = sub.add_parser("top", help="the table live from its journal file (read-only), "
                                   "refreshing in place; Ctrl-C ends it")
    p.add_argument("--journal", required=True, help="the table's journal file")
    p.add_argument("--interval", type=_interval, default=1.0,
                   help="seconds between refreshes (default 1)")
    p.add_argument("--width", type=_width, default=WIDTH,
                   help="the terminal's columns: every line is folded to them, as the "
                        "console's are (default %d, a serial terminal's)" % WIDTH)
    p.add_argument("--count", type=int, default=0, help="refresh this many times, then exit "
                                                        "(default: until Ctrl-C)")
    p.set_defaults(func=cmd_top)
    return p


def _width(text):
    import argparse
    from controller.console.commands import TERMINAL
    low, high = TERMINAL["width"]
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number of columns: %r" % text)
    if not low <= v <= high:
        raise argparse.ArgumentTypeError("the width is %d to %d columns" % (low, high))
    return v


def _interval(text):
    import argparse
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number of seconds: %r" % text)
    if not 0.1 <= v <= 3600:
        raise argparse.ArgumentTypeError("the interval is 0.1 to 3600 seconds")
    return v


__all__ = ["JournalFollower", "cmd_top", "add_parser"]
