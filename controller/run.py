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

The table is assembled by controller/runtime.py, as `tablectl sim`'s is (only the device set
differs), and shut down by its one idempotent path, each step in its own try/except so that one
failure stops no other: STOPPING=1, the controller loop, the console, the outputs to their safe
values, the drivers, the pin factory (which does the same for every line it gave out), the
journal. A failed step is said (`shutdown: STEP failed: ...`). A clean stop exits 0.
"""

import logging
import signal
import sys
import threading

from controller import config as configuration
from controller.console.auth import PIN_DEFAULT_TEXT
from controller.errors import ConfigError, JournalInUse, TablectlError
from controller.games import model_class
from controller.runtime import ConfiguredDevices, Runtime, writer

log = logging.getLogger(__name__)

EXIT_OK, EXIT_FAILED, EXIT_CONFIG = 0, 1, 2


def load_config(path, environ=None, check_gpio=True):
    """(game config, controller section, backend name); ConfigError for anything wrong
    (`check_gpio`: also that the backend's library loads here, drivers/hal.py)."""
    from drivers.hal import HalError, check_backend, choose_backend
    cfg = configuration.load(path, model_class)
    section = cfg.pop("controller", None) or {"devices": {}, "console": {}}
    try:
        backend = choose_backend(section.get("hal"), environ)
        if check_gpio:
            check_backend(backend)          # the GPIO library, before the journal is made
    except HalError as e:
        if check_gpio or section.get("hal") is not None:
            raise ConfigError(str(e))
        backend = None                      # `config check`: the unit's environment says
    # the device settings and urls were checked by the configuration's loader (keys against
    # what each driver takes, urls against pyserial's schemes): before the journal is touched
    return cfg, section, backend


class Runner(Runtime):
    """`tablectl run`'s table: the runtime on the configured devices, saying what it does."""

    def __init__(self, cfg, section, backend, journal_path, *, environ=None, err=None):
        self.err = err or sys.stderr
        self.section, self.backend = section, backend
        link = (section.get("floor") or {}).get("link")
        if link:                    # the game's meter is the link's (controller/progressive.py)
            cfg = dict(cfg, link=link)
        links = (section.get("floor") or {}).get("links")
        if links:                   # a game's progressives each on a link (Blackjack's three)
            cfg = dict(cfg, links=dict(links))
        super().__init__(cfg, ConfiguredDevices(section.get("devices"), backend, environ),
                         journal=journal_path, key_file=section.get("journal_key"),
                         journal_format=section.get("journal_format"),
                         console=section.get("console") or {}, environ=environ,
                         gaming_day_start=section.get("gaming_day_start"),
                         say=writer(self.err, "tablectl run: "))
        floor = section.get("floor")
        if floor:                   # [controller.floor]: the floor uplink (docs/floor.md)
            from controller.wire.uplink import FloorLink, read_password
            self.register_part(FloorLink(self, floor["table_id"], floor["url"],
                                         read_password(floor["password_file"]),
                                         ca_file=floor.get("ca_file")))
        on = ([floor["link"]] if floor and floor.get("link") else []) + \
            sorted(set((floor or {}).get("links", {}).values()))
        key = None
        if on:                      # the table's own signature on what it sends a link
            from controller.wire.signing import load_key
            key = load_key(floor["signing_key_file"])
        for link_id in on:          # a linked progressive (docs/linked-progressives.md)
            from controller.wire.link_client import ProgressiveLink
            self.register_part(ProgressiveLink(self, floor["table_id"], link_id,
                                               floor["url"],
                                               read_password(floor["password_file"]),
                                               ca_file=floor.get("ca_file"),
                                               signing_key=key),
                               "progressive link %s" % link_id if len(on) > 1 else None)

    def console_config(self):
        return dict(self.cfg, controller=self.section)     # `show config` shows both

    def start_console(self):
        from controller.console.auth import pin_warning
        super().start_console()
        warning = pin_warning(self.pins_path)        # every log-in refused: say so now
        if warning:
            self.say(warning)
        self.err.write("console: %s\n" % self.console_path)
        self.err.flush()


def cmd_run(args, out, err=None, environ=None):
    err = err or sys.stderr
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, stream=err,
                            format="%(levelname)s %(name)s: %(message)s")
    try:
        cfg, section, backend = load_config(args.config, environ)
        configuration.check_journal_path(args.journal)     # before the journal is touched
    except ConfigError as e:
        err.write("tablectl run: %s\n" % str(e).replace("\n", " "))
        return EXIT_CONFIG

    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()

    pins = getattr(args, "pins", None)
    if pins:                            # --pins wins over [controller.console] pins
        section = dict(section, console=dict(section.get("console") or {}, pins=pins))
    try:
        runner = Runner(cfg, section, backend, args.journal, environ=environ, err=err)
    except ConfigError as e:            # e.g. the floor link's password file
        err.write("tablectl run: %s\n" % str(e).replace("\n", " "))
        return EXIT_CONFIG
    # SIGHUP too: the terminal `run` was started from closed (systemd sends SIGTERM)
    old = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT,
                                                    signal.SIGHUP)}
    code = EXIT_OK
    try:
        try:
            runner.start(stop.is_set)
        except (ConfigError, JournalInUse) as e:    # a second controller on the journal too
            runner.say(str(e).replace("\n", " "))
            code = EXIT_CONFIG
        except TablectlError as e:
            runner.say(str(e).replace("\n", " "))
            code = EXIT_FAILED
        except Exception as e:          # noqa: BLE001 - the shutdown path still runs
            log.debug("start failed", exc_info=True)     # one line for a person, not a trace
            runner.say("start failed: %s: %s" % (type(e).__name__, " ".join(str(e).split())))
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
                     help="the journal (a sector log, controller/journal); created only where "
                     "no file is, else resumed from after the boot checks (exit 2 if another "
                     "process holds it)")
    run.add_argument("--pins", metavar="FILE", help="the console's PIN file (default: "
                     "[controller.console] pins, else %s; `tablectl passwd ROLE --file FILE` "
                     "sets one); a warning at start when it holds no PIN" % PIN_DEFAULT_TEXT)
    run.set_defaults(func=cmd_run)
    return run
