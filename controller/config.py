"""Table configuration: one TOML file per table, validated strictly.

Every key is declared; an unknown key, a value of the wrong type, or a value
the rules forbid (a paytable letter the regulation does not offer, a minimum
above the maximum) is refused with a message naming the key. Defaults live in
each game's model (`DEFAULTS`); `deploy/tables/<game>.toml` are the shipped
templates and a test keeps them equal to the defaults.

Common keys:
    game         the game's name
    table_min    cents; bounds the wagers that take part in the round
    table_max    cents
    offered      {wager: bool}   optional wagers the Rules Submission offers
    limits       {wager: [min, max]} cents, for wagers the table limits do not bound
    paytables    {wager: letter}  where the regulation offers a choice
    progressive  {meter, reset, rate}: meter and reset in cents, rate a fraction
    options      the game's own settings (declared by the game as OPTIONS)

The controller's own section (optional; not part of any game's DEFAULTS, so an absent
section is valid and the templates stay equal to the defaults):
    [controller]
    hal          "real" | "sim": the GPIO backend (wins over $TABLECTL_HAL, drivers/hal.py)
    journal_key  the journal's key file (controller/journal/keys.py): the journal is keyed
                 with it (an HMAC-SHA256 chain); read, and its mode checked, at boot
    journal_format  "log": what a NEW journal is written as, the sector log and nothing
                 else (journal/formats.py); an existing journal is read as what its file is
                 (an older version's SQLite file too)
    [controller.devices.NAME]   one table per device, as drivers.devices.build_devices takes
                                it: type (default NAME), url for a serial device, its pins
                                for a GPIO device, its options; every key is checked against
                                what the driver takes (device_keys), so a misspelt key is
                                named here, before the journal is touched
    [controller.console]        tty (a serial device; default: a new pty), pins (the PIN
                                file), manifest (what `verify` checks)
    [controller.floor]          the floor link (controller/wire/config.py)
    gaming_day_start  "HH:MM", when the casino's gaming day begins, local time (default
                 "06:00", controller/units.py): the card reader's daily inspection and the
                 console's and `tablectl top`'s gaming-day meters count days from it
"""

import copy
import inspect
import tomllib

from controller.errors import ConfigError
from controller.rules import paytables as pt
from controller import device_registry as registry

COMMON_KEYS = ("game", "table_min", "table_max", "offered", "limits", "paytables",
               "progressive", "options", "controller")
CONTROLLER_KEYS = ("hal", "devices", "console", "journal_key", "journal_format", "floor",
                   "gaming_day_start")
CONTROLLER_HALS = ("real", "sim")
CONSOLE_KEYS = ("tty", "pins", "manifest")

# The largest amount of money any configuration or scenario may name: $1,000,000,000.00. A
# meter of 2**63 would overflow SQLite's integers and every sum made from it; no table
# limit, meter or wager comes near this.
MAX_CENTS = 10 ** 11

# the simulated serial devices a bench configuration may name as sim://NAME: each kind's one
# registration (controller/device_registry.py) names its simulator, so the firmware never
# loads hal_sim
SIMULATED_DEVICES = tuple(sorted(registry.simulated()))

# serial_for_url's schemes (pyserial) a device url may use; a url without a scheme is a port
URL_SCHEMES = ("loop", "socket", "rfc2217", "spy", "alt", "hwgrep", "cp2110")


def _int(key, value, minimum=None, maximum=MAX_CENTS):
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError("%s must be a whole number of cents, not %r" % (key, value))
    if minimum is not None and value < minimum:
        raise ConfigError("%s must be at least %d, not %d" % (key, minimum, value))
    if value > maximum:
        raise ConfigError("%s must be at most %d cents ($%s), not %d"
                          % (key, maximum, format(maximum // 100, ","), value))
    return value


def _table(key, value):
    if not isinstance(value, dict):
        raise ConfigError("%s must be a table of keys, not %r" % (key, value))
    return value


def merge(base, overrides):
    """Overrides onto a copy of base; nested tables merge key by key."""
    out = copy.deepcopy(base)
    for k, v in overrides.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def validate(doc, model_cls):
    """A complete, checked configuration for `model_cls`'s game, or ConfigError."""
    _table("configuration", doc)
    if "game" in doc and not isinstance(doc["game"], str):
        raise ConfigError("game must be a game's name, not %s" % _kind(doc["game"]))
    for key in doc:
        if key not in COMMON_KEYS:
            raise ConfigError("unknown configuration key %r; the keys are %s"
                              % (key, ", ".join(COMMON_KEYS)))
    game = doc.get("game", model_cls.GAME)
    if game != model_cls.GAME:
        raise ConfigError("game is %r but this table runs %s" % (game, model_cls.GAME))
    cfg = merge(model_cls.DEFAULTS, doc)
    cfg["game"] = model_cls.GAME
    if "controller" in cfg:
        cfg["controller"] = check_controller(cfg["controller"])
    lo = _int("table_min", cfg["table_min"], 1)
    hi = _int("table_max", cfg["table_max"], 1)
    if lo > hi:
        raise ConfigError("table_min %d is above table_max %d" % (lo, hi))

    offered = _table("offered", cfg.get("offered", {}))
    for wager, on in offered.items():
        if wager not in model_cls.OPTIONAL_WAGERS:
            raise ConfigError("offered.%s: not an optional wager of %s; the optional wagers "
                              "are %s" % (wager, game, ", ".join(model_cls.OPTIONAL_WAGERS)
                                          or "none"))
        if not isinstance(on, bool):
            raise ConfigError("offered.%s must be true or false, not %r" % (wager, on))

    for wager, pair in _table("limits", cfg.get("limits", {})).items():
        if wager not in model_cls.OPTIONAL_WAGERS and wager not in model_cls.PRE_DEAL_WAGERS:
            raise ConfigError("limits.%s: %s has no such wager" % (wager, game))
        if wager in model_cls.TABLE_LIMIT_WAGERS:
            raise ConfigError("limits.%s: this wager is bounded by table_min and table_max"
                              % wager)
        if not isinstance(pair, list) or len(pair) != 2:
            raise ConfigError("limits.%s must be [minimum, maximum] in cents, not %r"
                              % (wager, pair))
        a = _int("limits.%s minimum" % wager, pair[0], 1)
        b = _int("limits.%s maximum" % wager, pair[1], 1)
        if a > b:
            raise ConfigError("limits.%s: minimum %d is above maximum %d" % (wager, a, b))

    for wager, letter in _table("paytables", cfg.get("paytables", {})).items():
        choices = pt.letters(game, wager)
        if not choices:
            raise ConfigError("paytables.%s: the regulation offers no choice of paytable for "
                              "this wager of %s" % (wager, game))
        if letter not in choices:
            section = pt.get(game, wager, choices[0]).section
            raise ConfigError("paytables.%s = %r: the Rules Submission chooses one of %s (%s)"
                              % (wager, letter, ", ".join(choices), section))

    prog = cfg.get("progressive")
    if prog is not None:
        _check_progressive(game, _table("progressive", prog))

    options = _table("options", cfg.get("options", {}))
    for key, value in options.items():
        spec = model_cls.OPTIONS.get(key)
        if spec is None:
            raise ConfigError("options.%s: unknown option of %s; the options are %s"
                              % (key, game, ", ".join(sorted(model_cls.OPTIONS)) or "none"))
        kind, check = spec
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ConfigError("options.%s must be %s, not %r" % (key, kind.__name__, value))
        if kind is int and abs(value) > MAX_CENTS:
            raise ConfigError("options.%s = %d is out of range (at most %d)"
                              % (key, value, MAX_CENTS))
        if check is not None:
            problem = check(value)
            if problem:
                raise ConfigError("options.%s = %r: %s" % (key, value, problem))
    return cfg


def gaming_day_start_ns(section=None):
    """ns past local midnight when the gaming day begins: [controller] gaming_day_start of a
    checked section, else the default (units.GAMING_DAY_START)."""
    from controller.units import GAMING_DAY_START, day_start_ns
    return day_start_ns((section or {}).get("gaming_day_start", GAMING_DAY_START))


def _one_of(name, value, choices):
    """`value` if it is one of `choices`, else ConfigError naming them."""
    if value not in choices:
        raise ConfigError("%s must be %s, not %r"
                          % (name, " or ".join('"%s"' % c for c in choices), value))
    return value


def check_controller(section):
    """The [controller] section, checked: {"hal"?, "devices": {...}, "console": {...},
    "journal_key"?}."""
    _table("controller", section)
    for key in section:
        if key not in CONTROLLER_KEYS:
            raise ConfigError("controller.%s: unknown key; the keys are %s"
                              % (key, ", ".join(CONTROLLER_KEYS)))
    out = {}
    if "hal" in section:
        out["hal"] = _one_of("controller.hal", section["hal"], CONTROLLER_HALS)
    if "journal_key" in section:
        path = section["journal_key"]
        if not isinstance(path, str) or not path:
            raise ConfigError("controller.journal_key must be the path of the journal's key "
                              "file, not %r" % (path,))
        out["journal_key"] = path
    if "gaming_day_start" in section:
        from controller.units import day_start_ns
        try:
            day_start_ns(section["gaming_day_start"])
        except ValueError as e:
            raise ConfigError("controller.gaming_day_start: %s" % e)
        out["gaming_day_start"] = section["gaming_day_start"]
    if "journal_format" in section:
        from controller.journal.formats import NEW, new_format_refusal
        if section["journal_format"] != NEW:
            raise ConfigError("controller.journal_format: %s"
                              % new_format_refusal(section["journal_format"]))
        out["journal_format"] = NEW
    devices = _table("controller.devices", section.get("devices", {}))
    from drivers.devices import SERIAL, TYPES
    for name, entry in devices.items():
        _table("controller.devices.%s" % name, entry)
        kind = entry.get("type", name)
        if not isinstance(kind, str) or kind not in TYPES:
            raise ConfigError("controller.devices.%s: unknown device type %r; one of %s"
                              % (name, kind, ", ".join(sorted(TYPES))))
        if kind in SERIAL and (not isinstance(entry.get("url"), str) or not entry["url"]):
            raise ConfigError("controller.devices.%s.url: a serial device needs a url "
                              "(e.g. \"/dev/tablectl/%s\")" % (name, kind))
        allowed = device_keys(kind, TYPES[kind], kind in SERIAL)
        for key in entry:
            if key not in allowed:
                raise ConfigError("controller.devices.%s.%s: unknown key for a %s; the keys "
                                  "are %s" % (name, key, kind, ", ".join(sorted(allowed))))
        if kind in SERIAL:
            check_url("controller.devices.%s.url" % name, entry["url"], out.get("hal"))
    out["devices"] = copy.deepcopy(devices)
    console = _table("controller.console", section.get("console", {}))
    for key, value in console.items():
        if key not in CONSOLE_KEYS:
            raise ConfigError("controller.console.%s: unknown key; the keys are %s"
                              % (key, ", ".join(CONSOLE_KEYS)))
        if not isinstance(value, str) or not value:
            raise ConfigError("controller.console.%s must be a path, not %r" % (key, value))
    out["console"] = dict(console)
    if "floor" in section:
        from controller.wire.config import check_floor
        out["floor"] = check_floor(section["floor"])
    return out


# what the drivers take that is not the configuration's to give
_INTERNAL = {"self", "name", "factory", "port", "identity", "clock", "on_rejected", "on_message",
             "on_fault", "on_signal", "role", "codec", "boot_id", "own_port", "expect"}


def device_keys(kind, cls, serial):
    """The keys a [controller.devices.NAME] table may hold for a device of `kind`: "type",
    and what its driver's constructor takes by name (for a serial device also its link's
    settings and "baudrate"; for a GPIO device with pins as keywords, its pin names)."""
    keys = {"type"}
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None or klass is object:
            continue
        for p in inspect.signature(init).parameters.values():
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                keys.add(p.name)
    if serial:
        from drivers.link import LINK_OPTIONS, Link
        keys |= {p for p in inspect.signature(Link.__init__).parameters}
        keys |= set(LINK_OPTIONS) | {"url", "baudrate"}
    extra = registry.types()[kind].keys          # pin names, registered with the kind
    if extra:
        keys |= set(registry.resolve(extra))
    # a callback (`on_tick`, `on_due`, ...) is the code's to hand over, never a person's to set
    return {k for k in keys - _INTERNAL if not k.startswith("on_")}


def check_url(key, url, hal=None):
    """A device url pyserial can open: a port path, or one of its schemes (URL_SCHEMES).
    Whether the port exists is the driver's business: an adapter may be plugged in later.
    `sim://DEVICE` (a simulated device, hal_sim/protocol_sim.py) only with hal = "sim": a
    bench configuration; pyserial is then told where that scheme's handler lives."""
    if "://" in url:
        scheme = url.split("://", 1)[0]
        if scheme == "sim":
            if hal != "sim":
                raise ConfigError("%s = %r: a simulated device needs hal = \"sim\" in "
                                  "[controller] (a bench configuration)" % (key, url))
            name = url.split("://", 1)[1].split("?", 1)[0].strip("/")
            if name not in SIMULATED_DEVICES:
                raise ConfigError("%s = %r: no simulated device of that name; one of %s"
                                  % (key, url, ", ".join(SIMULATED_DEVICES)))
            use_simulated_devices()
            return
        if scheme not in URL_SCHEMES:
            raise ConfigError("%s = %r: unknown scheme %r; a port path such as "
                              "/dev/tablectl/shoe or one of %s"
                              % (key, url, scheme, ", ".join(s + "://" for s in URL_SCHEMES)))
    elif not url.startswith("/"):
        raise ConfigError("%s = %r: a port is an absolute path such as /dev/tablectl/shoe, "
                          "or a pyserial url (%s)"
                          % (key, url, ", ".join(s + "://" for s in URL_SCHEMES)))


def use_simulated_devices():
    """Let pyserial open sim:// urls (hal_sim/protocol_sim.py): by name, when a bench
    configuration asks for it, so nothing of hal_sim is imported on a real table."""
    import serial
    if "hal_sim" not in serial.protocol_handler_packages:
        serial.protocol_handler_packages.append("hal_sim")


def _kind(value):
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _check_progressive(game, prog):
    for key in prog:
        if key not in ("meter", "reset", "rate"):
            raise ConfigError("progressive.%s: unknown key; the keys are meter, reset, rate" % key)
    minimums = pt.PROGRESSIVE_MINIMUMS.get(game)
    if minimums is None:
        raise ConfigError("progressive: %s has no progressive wager" % game)
    reset = _int("progressive.reset", prog.get("reset", minimums["reset"]), 0)
    meter = _int("progressive.meter", prog.get("meter", reset), 0)
    if reset < minimums["reset"]:
        raise ConfigError("progressive.reset %d is below the minimum of %d cents (%s)"
                          % (reset, minimums["reset"], minimums["section"]))
    if meter < reset:
        raise ConfigError("progressive.meter %d is below its reset amount %d" % (meter, reset))
    rate = prog.get("rate")
    if rate is not None:
        if not isinstance(rate, (int, float)) or isinstance(rate, bool) or not 0 < rate < 1:
            raise ConfigError("progressive.rate must be a fraction between 0 and 1, not %r"
                              % (rate,))
        if minimums["rate"] is not None:
            num, den = minimums["rate"]
            if rate * den < num:
                raise ConfigError("progressive.rate %r is below %d%% (%s)"
                                  % (rate, 100 * num // den, minimums["section"]))


def check_journal_path(path):
    """Refuse, before the journal is touched, a journal path SQLite could not use, each with
    its own message: a folder, a folder that does not exist, a read-only file system, a
    folder or file this user may not write. (SQLite also writes PATH-wal and PATH-shm beside
    it, so the folder must be writable even when the file exists.)"""
    import os
    if not isinstance(path, str) or not path:
        raise ConfigError("journal: give the path of the journal file")
    if os.path.isdir(path):
        raise ConfigError("journal %s is a folder, not a journal file" % path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(folder):
        raise ConfigError("journal %s: the folder %s does not exist" % (path, folder))
    if not os.path.isdir(folder):
        raise ConfigError("journal %s: %s is not a folder" % (path, folder))
    try:
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        read_only = False
    if read_only:
        raise ConfigError("journal %s: %s is on a read-only file system (mounted ro?)"
                          % (path, folder))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError("journal %s: the folder %s is not writable by this user"
                          % (path, folder))
    if os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK):
        raise ConfigError("journal %s: the file is not readable and writable by this user"
                          % path)


def load(path, model_cls_for):
    """Read and validate one table's TOML file; `model_cls_for(game)` names the game's model."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except IsADirectoryError:
        raise ConfigError("cannot read table configuration %s: it is a folder" % path)
    except OSError as e:
        raise ConfigError("cannot read table configuration %s: %s" % (path, e.strerror))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError("%s is not UTF-8 text (byte %d)" % (path, e.start))
    try:
        doc = tomllib.loads(text)       # a key given twice is a TOMLDecodeError too
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("%s is not valid TOML: %s" % (path, e))
    if "game" not in doc:
        raise ConfigError("%s: the key 'game' is missing" % path)
    if not isinstance(doc["game"], str):
        raise ConfigError("%s: game must be a game's name, not %s" % (path, _kind(doc["game"])))
    try:
        cls = model_cls_for(doc["game"])
    except KeyError as e:
        raise ConfigError("%s: %s" % (path, e.args[0] if e.args else e))
    try:
        return validate(doc, cls)
    except ConfigError as e:
        raise ConfigError("%s: %s" % (path, e))
