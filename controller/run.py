"""`tablectl run --config TABLE.toml --journal PATH`: the controller on a real table.

This is what deploy/tablectl.service starts (docs/deploy.md). In order:

1. the table configuration is loaded and validated strictly (controller/config.py), and the
   GPIO backend is chosen (`[controller] hal`, else $TABLECTL_HAL, else refused): a bad
   configuration exits 2 with one line naming the problem, before anything is opened;
2. the journal is opened and the boot checks run (controller/journal: `boot()`) before any
   device or the console starts; a failed check starts the table locked out, as `boot()`
   does, and the reason is printed. With `[controller] journal_key` the journal is keyed:
   a key file others may read, a wrong key or a keyed journal without its key exits 1;
3. the pin factory is opened, the drivers are built from `[controller.devices]`
   (drivers.devices.build_devices) and started with the controller's `submit`; the outputs
   are the progressive system's and the tower light's lines and the meter display when those
   devices are configured;
4. the technician console is served on `[controller.console] tty`, or on a new pty whose
   path is printed (`console: PATH`);
5. the systemd heartbeat (controller/watchdog.py) joins the controller's policies, so READY=1
   goes out on the loop's first iteration, after the boot checks; then the loop runs on its
   own thread until SIGTERM or SIGINT.

Shutdown is one idempotent path, each step in its own try/except so that one failure stops no
other: STOPPING=1, the console, the controller loop, the drivers, the outputs to their safe
values (and the pin factory closed, which does the same for every line it gave out), the
journal closed. A clean stop exits 0.
"""

import logging
import signal
import sys
import threading

from controller import config as configuration
from controller.errors import ConfigError, TablectlError
from controller.games import model_class
from controller.games.engine import LOCKED_OUT, Table
from controller.outputs import Outputs
from controller.policies import default_policies

log = logging.getLogger(__name__)

EXIT_OK, EXIT_FAILED, EXIT_CONFIG = 0, 1, 2


def load_config(path, environ=None):
    """(game config, controller section, backend name); ConfigError for anything wrong."""
    from drivers.hal import HalError, choose_backend
    cfg = configuration.load(path, model_class)
    section = cfg.pop("controller", None) or {"devices": {}, "console": {}}
    try:
        backend = choose_backend(section.get("hal"), environ)
    except HalError as e:
        raise ConfigError(str(e))
    return cfg, section, backend


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


class Runner:
    """One table controller process: `start()`, then `close()` (always; idempotent)."""

    def __init__(self, cfg, section, backend, journal_path, *, environ=None, err=None):
        self.cfg, self.section, self.backend = cfg, section, backend
        self.journal_path = journal_path
        self.environ = environ
        self.err = err or sys.stderr
        self.ctl = self.factory = self.console = self.heartbeat = None
        self.console_path = None
        self.drivers = {}
        self.started = []
        self.problem = None
        self.closed = False
        self.failures = []

    def say(self, text):
        self.err.write("tablectl run: %s\n" % text)
        self.err.flush()

    # ---- start ----------------------------------------------------------------------------

    def boot(self):
        """The journal and its boot checks: before any device or the console starts."""
        from controller.journal import boot
        from controller.journal.keys import read_key
        from controller.policies.clear import SelftestOnClear
        key_file = self.section.get("journal_key")
        key = read_key(key_file) if key_file else None
        cls = model_class(self.cfg["game"])
        self.selftests = SelftestOnClear({})
        policies = [self.selftests] + default_policies(cls.GAME)
        self.ctl = boot(self.journal_path, Table(cls(self.cfg)), policies, key=key)
        report = self.ctl.boot_report
        self.problem = report["problem"]
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
        from drivers.devices import build_devices
        from drivers.errors import DeviceError
        from drivers.hal import open_factory
        devices = self.section.get("devices") or {}
        # every stamp is table time: the edges' (the factory's clock) and the frames'
        self.factory = open_factory(self.backend, self.environ, clock=self.ctl.clock)
        try:
            self.drivers = build_devices(devices, self.factory, clock=self.ctl.clock,
                                         on_rejected=self.ctl.frame_rejected)
        except DeviceError as e:
            raise ConfigError("controller.devices: %s" % e)
        self.selftests.drivers = self.drivers
        for driver in self.drivers.values():
            driver.start(self.ctl.submit)
            self.started.append(driver)
        self.ctl.outputs = make_outputs(self.drivers)
        self.ctl.sync_outputs()

    def start_console(self):
        from controller.console import start_console
        from controller.console.auth import default_pin_store
        console = self.section.get("console") or {}
        self.console_path, self.console = start_console(
            self.ctl, self.drivers, clock=self.ctl.clock,
            pin_store_path=console.get("pins") or default_pin_store(),
            tty=console.get("tty"), manifest_path=console.get("manifest"),
            config=dict(self.cfg, controller=self.section))     # `show config` shows both
        self.err.write("console: %s\n" % self.console_path)
        self.err.flush()

    def start_loop(self):
        from controller.watchdog import Heartbeat
        self.heartbeat = Heartbeat(environ=self.environ)
        self.ctl.policies.append(self.heartbeat)      # READY=1 on the loop's first iteration
        self.ctl.start()

    def start(self, stop_requested=lambda: False):
        self.boot()
        for step in (self.start_devices, self.start_console, self.start_loop):
            if stop_requested():
                return False
            step()
        return True

    @property
    def loop_alive(self):
        thread = getattr(self.ctl, "_thread", None)
        return thread is not None and thread.is_alive()

    # ---- stop -----------------------------------------------------------------------------

    def _step(self, what, fn):
        try:
            fn()
        except Exception as e:          # noqa: BLE001 - every other step still runs
            log.exception("shutdown: %s failed", what)
            self.failures.append((what, e))
            self.say("shutdown: %s failed: %s" % (what, e))

    def close(self):
        """The one shutdown path; a second call does nothing."""
        if self.closed:
            return self.failures
        self.closed = True
        if self.heartbeat is not None:
            self._step("heartbeat STOPPING=1", self.heartbeat.stopping)
        if self.console is not None:
            self._step("console", self.console.stop)
            self.console = None
        if self.ctl is not None:
            self._step("controller loop", self.ctl.stop)
        if self.ctl is not None:
            # before the drivers stop: a serial output (the meter display) needs its link
            def outputs_safe():
                failures = self.ctl.outputs.safe_all()
                if failures:
                    raise RuntimeError("; ".join("%s: %s" % f for f in failures))
            self._step("outputs to their safe values", outputs_safe)
        for driver in reversed(self.started):
            self._step("driver %s" % getattr(driver, "name", driver), driver.stop)
        self.started = []
        if self.factory is not None:
            self._step("pin factory", self.factory.close)
            self.factory = None
        if self.ctl is not None:
            self._step("journal", self.ctl.close)
        return self.failures


def cmd_run(args, out, err=None, environ=None):
    err = err or sys.stderr
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, stream=err,
                            format="%(levelname)s %(name)s: %(message)s")
    try:
        cfg, section, backend = load_config(args.config, environ)
    except ConfigError as e:
        err.write("tablectl run: %s\n" % str(e).replace("\n", " "))
        return EXIT_CONFIG

    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    runner = Runner(cfg, section, backend, args.journal, environ=environ, err=err)
    code = EXIT_OK
    try:
        try:
            runner.start(stop.is_set)
        except ConfigError as e:
            runner.say(str(e).replace("\n", " "))
            code = EXIT_CONFIG
        except TablectlError as e:
            runner.say(str(e).replace("\n", " "))
            code = EXIT_FAILED
        except Exception as e:          # noqa: BLE001 - the shutdown path still runs
            log.exception("start failed")
            runner.say("start failed: %s" % e)
            code = EXIT_FAILED
        if code == EXIT_OK and not stop.is_set():
            runner.say("running %s (HAL %s, %d devices)"
                       % (cfg["game"], backend, len(runner.drivers)))
            while not stop.wait(0.5):
                if not runner.loop_alive:
                    runner.say("the controller loop ended unexpectedly")
                    code = EXIT_FAILED
                    break
    finally:
        failures = runner.close()
        for s, handler in old.items():
            signal.signal(s, handler)
    if code == EXIT_OK:
        runner.say("stopped%s" % ("" if not failures else
                                  " (%d shutdown steps failed)" % len(failures)))
    return code


def add_parser(sub):
    run = sub.add_parser("run", help="run the table controller on its devices (the systemd "
                         "unit's entry point); exit 2 for a bad configuration")
    run.add_argument("--config", required=True, metavar="TABLE.toml",
                     help="the table configuration (e.g. /etc/tablectl/table.toml)")
    run.add_argument("--journal", required=True, metavar="PATH",
                     help="the journal (SQLite); created when absent, else resumed from after "
                     "the boot checks")
    run.set_defaults(func=cmd_run)
    return run
