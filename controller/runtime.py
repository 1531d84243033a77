"""One table in one process: built from its configuration and a device set, one shutdown path.

In the spirit of Klipper's Printer object, `Runtime` is the only place a table is assembled.
`tablectl run` (controller/run.py) and `tablectl sim` (hal_sim/simulation.py) differ only in
the device set they hand it:

    runtime = Runtime(cfg, ConfiguredDevices(section["devices"], backend, environ), ...)
    runtime.register_part(floor_link)       # anything with start() and stop()
    runtime.start()                          # journal + boot checks, devices, console, parts, loop
    ...
    runtime.close()                          # THE shutdown path; returns [(step, exception)]

A device set has `open(clock, on_rejected) -> (pin factory, {name: driver})`, `close()`
(the factory closed: every line it gave out at its safe value), and may have
`connected(drivers)` to wait for the handshakes before the table plays. The runtime starts
the drivers with the controller's `submit` and derives the outputs from them.

Start order: the journal and its boot checks (before any device or the console starts; a
failed check starts the table locked out and says why, or with `refuse_locked_boot` is
refused), the devices and their drivers, the outputs, the console, the registered parts,
then the loop (with the systemd heartbeat: READY=1 on its first iteration). Each thing that
starts pushes its own stop step, so the shutdown runs exactly the steps of what started, in
reverse: STOPPING=1, the loop, the parts, the console, the outputs to their safe values
(`TableController.safe_state`, the one safe path, while the drivers can still reach a serial
output), the drivers, the devices (the pin factory), the journal. Each step runs in its own
try/except; every failure is logged, said and returned, never swallowed. A second `close()`
does nothing; an interrupt during the path is held until every step ran.
"""

import logging
import os
import sys

from controller.errors import ConfigError
from controller.games import model_class
from controller.games.engine import LOCKED_OUT, GameMachine
from controller.outputs import Outputs
from controller.policies import default_policies

log = logging.getLogger(__name__)


def make_outputs(drivers):
    """The controller's outputs from the configured GPIO devices and the meter display (none
    for an absent one)."""
    prog = next((d for d in drivers.values() if type(d).__name__ == "ProgressiveSystem"), None)
    tower = next((d for d in drivers.values() if type(d).__name__ == "TowerLight"), None)
    display = next((d for d in drivers.values() if type(d).__name__ == "MeterDisplay"), None)
    pouts = getattr(prog, "outputs", {}) or {}
    touts = getattr(tower, "outputs", {}) or {}
    return Outputs(lockout=pouts.get("lockout"), tower=touts.get("red"),
                   jackpot=pouts.get("jackpot_light"), meters=display,
                   seat_lights={s: pouts["light_%d" % s] for s in range(1, 7)
                                if "light_%d" % s in pouts})


class ConfiguredDevices:
    """The devices `[controller.devices]` names, on the configured GPIO backend."""

    def __init__(self, config, backend, environ=None):
        self.config, self.backend, self.environ = config or {}, backend, environ
        self.factory = None

    def open(self, clock, on_rejected):
        from controller.errors import ConfigError
        from drivers.devices import build_devices
        from drivers.errors import DeviceError
        from drivers.hal import open_factory
        # every stamp is table time: the edges' (the factory's clock) and the frames'
        self.factory = open_factory(self.backend, self.environ, clock=clock)
        try:
            drivers = build_devices(self.config, self.factory, clock=clock,
                                    on_rejected=on_rejected)
        except DeviceError as e:
            raise ConfigError("controller.devices: %s" % e)
        return self.factory, drivers

    def close(self):
        if self.factory is not None:
            factory, self.factory = self.factory, None
            factory.close()



def table_policies(game):
    """(the self-tests a clear runs, every policy in the order it sees an event): what a
    table of `game` runs, for Runtime and for what boots a journal the way it does (the
    benches)."""
    from controller.clearing import SelftestOnClear
    selftests = SelftestOnClear({})
    return selftests, [selftests] + default_policies(game)

class Runtime:
    """One table controller process; `start()`, then `close()` (always; idempotent).

    `journal`: a path (SQLite, booted with its checks) or None (in memory, keeping `keep`
    entries). `console`: the [controller.console] section, or None for no console.
    `loop`: run the controller loop on its own thread with the systemd heartbeat (False: the
    caller drives `ctl.run_once`, as the simulator's autoplay does).
    """

    def __init__(self, cfg, devices, *, journal=None, key_file=None, key=None, console=None,
                 loop=True, keep=None, environ=None, say=None, refuse_locked_boot=False,
                 journal_format=None, gaming_day_start=None, clocks=None):
        """`gaming_day_start`: [controller] gaming_day_start ("HH:MM"), or None for the
        default (controller/units.py)."""
        from controller.units import GAMING_DAY_START, day_start_ns
        self.cfg, self.devices = cfg, devices
        self.gaming_day_start = gaming_day_start or GAMING_DAY_START
        self.day_start_ns = day_start_ns(self.gaming_day_start)
        # the journal's boot clocks (journal.boot's clock, wall, boot_id, utc_offset): the
        # machine's by default; hal_sim/virtual.py's virtual ones for a table on virtual time
        self.clocks = dict(clocks or {})
        self.journal_path = journal
        self.key_file, self.key = key_file, key
        self.journal_format = journal_format
        self.console_section = console
        self.loop = loop
        self.keep = keep
        self.environ = environ
        self.say = say or (lambda text: None)
        self.refuse_locked_boot = refuse_locked_boot
        self.ctl = self.factory = self.console = self.heartbeat = self.selftests = None
        self.console_path = None
        self.drivers = {}
        self.parts = []              # registered parts not started yet, in order
        self.problem = None
        self.started = False
        self.closed = False
        self.failures = []
        self._stops = []             # (what, fn) of what started, in start order
        self._parts_at = 0           # where the parts' stops go in _stops (start_parts)
        self._readers_at = None      # where the journal readers' stops go (boot)

    # ---- parts ----------------------------------------------------------------------------

    def register_part(self, part, name=None):
        """A part (a floor link, ...): `start()` after the console and before the loop,
        `stop()` on the shutdown path after the loop stopped and what it derived was
        committed, before the console; a part with `reads_journal` (it forwards the journal
        file) stops last, after the journal's final commit. Registered once the table runs,
        it starts at once."""
        name = name or getattr(part, "name", None) or type(part).__name__
        if self.closed:
            raise RuntimeError("part %s: the runtime is closed" % name)
        if self.started:
            self._start_part(name, part)
        else:
            self.parts.append((name, part))
        return part

    def on_shutdown(self, what, fn):
        """Add a step to the shutdown path; it runs before every step pushed before it."""
        self._stops.append((what, fn))

    def _start_part(self, name, part):
        part.start()
        step = ("part %s" % name, part.stop)
        if getattr(part, "reads_journal", False) and self._readers_at is not None:
            # a reader of the journal file (the floor link forwards it) stops last, after
            # the journal's final commit: it sends every row the shutdown wrote as well
            self._stops.insert(self._readers_at, step)
            self._readers_at += 1
            if self._parts_at >= self._readers_at - 1:
                self._parts_at += 1
            return
        # any other part stops after the loop and the commit of what the loop derived last,
        # before the console; also when registered on a running table
        self._stops.insert(self._parts_at, step)
        self._parts_at += 1

    # ---- start ----------------------------------------------------------------------------

    def start(self, stop_requested=lambda: False):
        """Start in order; False if `stop_requested()` said to stop between two steps."""
        self.boot()
        for step in (self.start_devices, self.start_console, self.start_parts,
                     self.start_loop):
            if stop_requested():
                return False
            step()
        self.started = True
        return True

    def policies(self):
        from controller.policies.devices import ReaderInspection
        self.selftests, policies = table_policies(model_class(self.cfg["game"]).GAME)
        for policy in policies:                 # the configured gaming day, one place
            if isinstance(policy, ReaderInspection):
                policy.day_start_ns = self.day_start_ns
        return policies

    def model(self):
        cls = model_class(self.cfg["game"])
        return cls(self.cfg)

    def boot(self):
        """The journal and its boot checks: before any device or the console starts."""
        from controller.table import TableController
        if self.journal_path is None:
            self.ctl = TableController(GameMachine(self.model()), policies=self.policies(),
                                       keep=self.keep, **({"clock": self.clocks["clock"]}
                                                          if "clock" in self.clocks else {}))
            return
        from controller.errors import JournalError
        from controller.journal import boot
        from controller.journal.keys import read_key
        key = self.key if self.key is not None else \
            read_key(self.key_file) if self.key_file else None
        self.ctl = boot(self.journal_path, GameMachine(self.model()), self.policies(), key=key,
                        journal_format=self.journal_format, **self.clocks)
        self.on_shutdown("journal", self.ctl.close)
        self._readers_at = len(self._stops)     # the journal's readers stop here (_start_part)
        self.on_shutdown("the journal's last rows, before its readers stop",
                         self._commit_journal)
        report = self.ctl.boot_report
        self.problem = report["problem"]
        if self.problem and self.refuse_locked_boot:
            raise JournalError("journal %s: the table is locked out: %s"
                               % (self.journal_path, self.problem))
        if self.problem:
            self.say("journal %s: the boot checks failed; the table is locked out: %s"
                     % (self.journal_path, self.problem))
        elif report.get("created"):
            self.say("journal %s: created" % self.journal_path)
        else:
            self.say("journal %s: the boot checks passed (rows to %s, table %s, round %s)"
                     % (self.journal_path, report.get("replayed_to"), report.get("state"),
                        report.get("round_no")))
        if self.ctl.clock.boot.get("reason"):
            self.say("table clock: %s" % self.ctl.clock.boot["reason"])
        if self.ctl.model.state == LOCKED_OUT and not self.problem:
            reason = (self.ctl.model.lockout or {}).get("reason")
            self.say("the table is locked out: %s" % reason)
        self.ctl.capture_rng()

    def start_devices(self):
        self.on_shutdown("devices", self.devices.close)
        self.factory, self.drivers = self.devices.open(self.ctl.clock, self.ctl.frame_rejected)
        self.selftests.drivers = self.drivers
        for name, driver in self.drivers.items():
            try:
                driver.start(self.ctl.submit)
            except (OSError, ValueError) as e:      # serial.SerialException is an OSError
                url = getattr(driver, "url", None)
                why = os.strerror(e.errno) if getattr(e, "errno", None) else str(e)
                raise ConfigError("controller.devices.%s: cannot open %s: %s"
                                  % (name, url or "its lines", " ".join(why.split())))
            self.on_shutdown("driver %s" % getattr(driver, "name", name), driver.stop)
        self.ctl.outputs = make_outputs(self.drivers)
        # before the drivers stop: a serial output (the meter display) needs its link
        self.on_shutdown("outputs to their safe values", self._outputs_safe)
        self.ctl.sync_outputs()                       # the meter display's start-up amounts
        connected = getattr(self.devices, "connected", None)
        if connected is not None:
            connected(self.drivers)
        # the table's devices, by the names the console and the configuration give them (and
        # the kind a fault names), and when its gaming day begins: `tablectl top` reads them
        # from the journal, as `watch` reads the drivers, so the two screens agree (issue 35)
        self.ctl.day_start_ns = self.day_start_ns
        self.ctl.note("table", gaming_day_start=self.gaming_day_start,
                      devices={name: str(getattr(d, "device", name))
                               for name, d in sorted(self.drivers.items())})

    def _outputs_safe(self):
        failures = self.ctl.safe_state()
        if failures:
            raise RuntimeError("; ".join("%s: %s" % f for f in failures))

    def start_console(self):
        if self.console_section is None:
            return
        from controller.console import start_console
        from controller.console.auth import default_pin_store
        console = self.console_section
        self.pins_path = console.get("pins") or default_pin_store()
        self.console_path, self.console = start_console(
            self.ctl, self.drivers, clock=self.ctl.clock,
            pin_store_path=self.pins_path,
            tty=console.get("tty"), manifest_path=console.get("manifest"),
            config=self.console_config())
        self.on_shutdown("console", self.console.stop)

    def console_config(self):
        """What the console's `show config` shows: the game's and the devices' sections."""
        return dict(self.cfg, controller={"devices": getattr(self.devices, "config", {})})

    def start_parts(self):
        self._parts_at = len(self._stops)
        while self.parts:
            name, part = self.parts.pop(0)
            self._start_part(name, part)
        # runs once the loop stopped, before the parts stop: what the journal still holds
        # (the round's last snapshot, derived rows waiting for the next input) on the disk
        self.on_shutdown("the journal's last rows", self._commit_journal)

    def _commit_journal(self):
        commit = getattr(self.ctl, "commit_pending", None)
        if commit is not None:
            commit()

    def start_loop(self):
        if self.loop:
            from controller.watchdog import Heartbeat
            self.heartbeat = Heartbeat(environ=self.environ)
            self.ctl.policies.append(self.heartbeat)  # READY=1 on the loop's first iteration
            self.on_shutdown("controller loop", self.ctl.stop)
            self.ctl.start()
        # pushed after the loop, so run before it stops: the rejections a driver still holds
        # in its batch (docs/protocols.md) reach the journal
        self.on_shutdown("the drivers' batched rejections", self._flush_rejections)
        if self.loop:
            self.on_shutdown("heartbeat STOPPING=1", self.heartbeat.stopping)

    def _flush_rejections(self):
        for driver in self.drivers.values():
            if hasattr(driver, "stop_reporting"):
                driver.stop_reporting()
        if not self.loop:
            self.ctl.run_until_idle()         # no loop thread: the caller's loop, run it here

    @property
    def loop_alive(self):
        thread = getattr(self.ctl, "_thread", None)
        return thread is not None and thread.is_alive()

    # ---- stop -----------------------------------------------------------------------------

    def close(self):
        """The one shutdown path: every step pushed, last first, each on its own; a second
        call does nothing. Returns the failures [(step, exception)]."""
        if self.closed:
            return self.failures
        self.closed = True
        held = None
        while self._stops:
            what, fn = self._stops.pop()
            try:
                fn()
            except Exception as e:          # noqa: BLE001 - every other step still runs
                log.exception("shutdown: %s failed", what)
                self.failures.append((what, e))
                self.say("shutdown: %s failed: %s" % (what, e))
            except BaseException as e:      # an interrupt waits until every step ran
                held = held or e
        if held is not None:
            raise held
        return self.failures


def writer(stream, prefix):
    """A `say` that writes one line to `stream`."""
    stream = stream or sys.stderr

    def say(text):
        stream.write("%s%s\n" % (prefix, text))
        stream.flush()
    return say
