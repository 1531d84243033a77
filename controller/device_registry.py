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
    hal_sim.autoplay.DEVICE_KINDS               the faults `tablectl sim --fault` injects
    deploy/99-tablectl.rules                    the udev names (`tablectl udev-rules`)

A new device: its driver in drivers/devices/, its simulator in hal_sim/devices/, one `Device`
below; then `tablectl udev-rules > deploy/99-tablectl.rules`.
"""

from collections import namedtuple

_FIELDS = ("kind", "wire", "driver", "simulator", "short", "aliases", "keys", "events",
           "faults", "udev", "simulated_on")

Device = namedtuple("Device", _FIELDS, defaults=(None, None, (), None, {}, (), None, None))
Device.__doc__ = """One device kind.

kind          the configuration's `type` (and a device's default name)
wire          "serial" (tablectl-serial over a pyserial URL) or "gpio" (pins of the factory)
driver        "module:Class" of its driver (drivers/devices/)
simulator     "module:Class" of its simulator (hal_sim/devices/), for a serial device: the
              simulated table runs it on a pty and a bench configuration names it sim://SHORT
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
           "drivers.devices.progressive_system:ProgressiveSystem", short="progressive",
           faults=("bounce", "past_post")),
    Device("buttons", "gpio", "drivers.devices.buttons:Buttons",
           keys="drivers.devices.buttons:BUTTONS"),
    Device("tower_light", "gpio", "drivers.devices.tower_light:TowerLight",
           keys="drivers.devices.tower_light:SAFE"),
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
    return tuple(short_name(d) for d in DEVICES if d.simulator)


def event_kinds():
    """{event kind: what it carries} of every device's own kinds."""
    out = {}
    for d in DEVICES:
        out.update(d.events)
    return out


def faults():
    """{short name: device faults its simulator injects}."""
    return {short_name(d): tuple(d.faults) for d in DEVICES if d.faults}


def resolve(dotted):
    """The object "module:NAME" names (imported now: the caller decides when)."""
    import importlib
    module, _, name = dotted.partition(":")
    return getattr(importlib.import_module(module), name)
