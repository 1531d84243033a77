"""Every device kind, registered once (issue 32): what each list of devices derives from
(the bottom layer: the drivers, the events, the configuration and hal_sim all read it).

One `Device` per kind names its driver, and its simulator, by dotted name ("module:Class"),
so this module imports nothing and the firmware never imports hal_sim. What derives from it:

    drivers.devices.TYPES / SERIAL / GPIO       the configuration's device types
    controller.config                           the keys a [controller.devices.NAME] takes
                                                (with the driver's constructor), and the
                                                sim://NAME devices a bench configuration names
    controller.events.KINDS                     a device's own event kinds
    hal_sim.devices.SIMULATORS, TABLE_DEVICES   the simulated table's serial devices
    hal_sim.devices.GPIO_SIMULATORS             the simulated table's GPIO wires and pins
    hal_sim.autoplay.DEVICE_KINDS               the faults `tablectl sim --fault` injects
    deploy/99-tablectl.rules                    the udev names (`tablectl udev-rules`)

A new device (serial or GPIO): its driver in drivers/devices/, its simulator in
hal_sim/devices/, one `Device` below; then `tablectl udev-rules > deploy/99-tablectl.rules`.
"""

from collections import namedtuple
from functools import lru_cache

_FIELDS = ("kind", "wire", "driver", "simulator", "short", "aliases", "keys", "events",
           "faults", "udev", "simulated_on")

Device = namedtuple("Device", _FIELDS, defaults=(None, None, (), None, {}, (), None, None))
Device.__doc__ = """One device kind.

kind          the configuration's `type` (and a device's default name)
wire          "serial" (tablectl-serial over a pyserial URL) or "gpio" (pins of the factory)
driver        "module:Class" of its driver (drivers/devices/)
simulator     "module:Class" of its simulator (hal_sim/devices/), for a serial device: the
              simulated table runs it on a pty and a bench configuration names it sim://SHORT;
              for a GPIO device: its wire on the simulated pin factory, whose PINS the
              simulated table configures it with (hal_sim/devices/gpio_side.py)
short         the name the simulated table, sim:// and `--fault` know it by (default: kind)
aliases       other `type` names the configuration takes for it
keys          "module:NAME" of the configuration keys it takes beyond its driver's
              constructor's (its pin names, for a GPIO device that takes pins by name)
events        {event kind: what it carries} of the kinds only this device sends
faults        the device faults its simulator injects (`tablectl sim --fault SHORT:FAULT`)
udev          its port's stable name, /dev/tablectl/UDEV (deploy/99-tablectl.rules)
simulated_on  which simulated tables have it: "every" table, or those with a "progressive"
"""

DEVICES = (
    Device("card_reader", "serial", "drivers.devices.card_reader:CardReader",
           "hal_sim.devices.card_reader:SimCardReader",
           events={"reader": "{'blackjack': bool}: the card reader's answer"},
           faults=("fail",), udev="card_reader", simulated_on="every"),
    Device("shuffler", "serial", "drivers.devices.shuffler:Shuffler",
           "hal_sim.devices.shuffler:SimShuffler", faults=("jam", "miscount"),
           udev="shuffler", simulated_on="every"),
    Device("dealing_shoe", "serial", "drivers.devices.dealing_shoe:DealingShoe",
           "hal_sim.devices.dealing_shoe:SimDealingShoe", short="shoe", aliases=("shoe",),
           faults=("jam",), udev="dealing_shoe", simulated_on="every"),
    Device("dice_reader", "serial", "drivers.devices.dice_reader:DiceReader",
           "hal_sim.devices.dice_reader:SimDiceReader",
           events={"dice": "{'dice': [a, b]}: the dice in the uncovered shaker; "
                           "{'no_roll': why} (585.3(f), (g))"},
           faults=("no_roll",), udev="dice_reader", simulated_on="every"),
    Device("dealer_panel", "serial", "drivers.devices.dealer_panel:DealerPanel",
           "hal_sim.devices.dealer_panel:SimDealerPanel", udev="dealer_panel",
           simulated_on="every"),
    Device("meter_display", "serial", "drivers.devices.meter_display:MeterDisplay",
           "hal_sim.devices.meter_display:SimMeterDisplay", faults=("stuck", "segment"),
           udev="meter_display", simulated_on="progressive"),
    Device("progressive_system", "gpio",
           "drivers.devices.progressive_system:ProgressiveSystem",
           "hal_sim.devices.gpio_side:SimProgressiveWire", short="progressive",
           faults=("bounce", "past_post")),
    Device("buttons", "gpio", "drivers.devices.buttons:Buttons",
           "hal_sim.devices.gpio_side:SimButtonsWire", keys="drivers.devices.buttons:BUTTONS"),
    Device("tower_light", "gpio", "drivers.devices.tower_light:TowerLight",
           "hal_sim.devices.gpio_side:SimTowerWire", keys="drivers.devices.tower_light:SAFE"),
)


def short_name(device):
    return device.short or device.kind


def types():
    """{configuration type: Device}, aliases included, in registration order."""
    out = {}
    for d in DEVICES:
        for name in (d.kind,) + tuple(d.aliases):
            out[name] = d
    return out


def simulated():
    """The simulated serial devices by short name (what sim://NAME may name)."""
    return tuple(short_name(d) for d in DEVICES if d.simulator and d.wire == "serial")


def event_kinds():
    """{event kind: what it carries} of every device's own kinds."""
    out = {}
    for d in DEVICES:
        out.update(d.events)
    return out


def faults():
    """{short name: device faults its simulator injects}."""
    return {short_name(d): tuple(d.faults) for d in DEVICES if d.faults}


# ---- one name per device (issue 35) -------------------------------------------------------
# The games name a device by its kind ("dealing_shoe": a lock-out's reason is "device
# dealing_shoe: jam"), and the journal keeps what they wrote (a replay compares it); a
# technician knows the name the configuration gives it ("shoe": [controller.devices.shoe]),
# which the console's `devices`, `selftest`, `config show` and the events' sources use.
# Wherever a person reads a device's name (the console, `journal show`, `top`, the floor's
# sentences, the sim's summary) it is the configured one: what the runtime's `table` record
# journals at start ({name: kind}) or the running table's drivers give, through these two.

def configured_names(devices):
    """{kind: configured name} from {configured name: kind} (the runtime's `table` record;
    a table's drivers' names and kinds): each kind the configuration names once, under
    another name than its kind."""
    by_kind = {}
    for name, kind in (devices.items() if isinstance(devices, dict) else ()):
        if isinstance(kind, str):
            by_kind.setdefault(kind, []).append(str(name))
    return {kind: named[0] for kind, named in by_kind.items()
            if len(named) == 1 and named[0] != kind}


def say_names(value, names):
    """`value` (a text, or a row's data: a dict or list of texts) as a person reads it:
    every device kind it names (a whole word: "device dealing_shoe: jam") given its
    configured name (`names`, configured_names()) ("device shoe: jam"). Keys, numbers and
    what names no device are kept; the journal itself is never rewritten."""
    if not names:
        return value
    if isinstance(value, str):
        pattern, behind = _kinds_pattern(tuple(names))
        if behind is None:
            return pattern.sub(lambda m: names[m.group(1)], value)

        def said(m):
            at = m.start()
            return m.group(0) if at and behind.match(value, at - 1) else names[m.group(1)]
        return pattern.sub(said, value)
    if isinstance(value, dict):
        return {k: say_names(v, names) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(say_names(v, names) for v in value)
    return value


@lru_cache(maxsize=32)
def _kinds_pattern(kinds):
    """say_names' search for the kinds, built once for each set of them (the console says
    every lock-out's reason and every `events` line by it, after every card of a soak, issue
    33), and what to look behind a match for: a kind is said only as a whole word, no word
    character (\\w) before or after it. When every kind is word characters only, the
    expression looks ahead alone and `say_names` looks behind each match (the returned
    \\w): an expression beginning with the look-behind keeps the engine from skipping to
    where a kind can begin, three times slower on an `events` line; a match after a word
    character is inside a longer word, and skipping past it loses none, every position
    inside it being after a word character too. Otherwise (None) the expression looks
    behind itself, as it always did."""
    import re
    alternatives = "|".join(re.escape(k) for k in sorted(kinds, key=len, reverse=True))
    if all(re.fullmatch(r"\w+", k) for k in kinds):
        return re.compile(r"(%s)(?![\w])" % alternatives), re.compile(r"\w")
    return re.compile(r"(?<![\w])(%s)(?![\w])" % alternatives), None


# the records that quote what was written or typed: the `table` record's {name: kind} (the
# mapping itself), a console line as the person typed it (either spelling is taken)
AS_WRITTEN = ("table", "console", "console_refused")


def say_row(kind, value, names):
    """A journal row's data or its text (say_names), but a row of AS_WRITTEN as written."""
    return value if kind in AS_WRITTEN else say_names(value, names)


def resolve(dotted):
    """The object "module:NAME" names (imported now: the caller decides when)."""
    import importlib
    module, _, name = dotted.partition(":")
    return getattr(importlib.import_module(module), name)
