"""A device kind registers once (issue 32): controller/device_registry.py. Every other list of
devices derives from it: the drivers' types, the configuration's keys and sim:// names, the
event kinds, the simulated table, the faults `tablectl sim --fault` injects, the udev rules."""
import os
import subprocess
import sys

from controller import config, device_registry, events
from controller.lab.cli_docs import UDEV_FILE, udev_rules
from drivers import devices

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_every_registration_resolves_in_its_wing():
    """The driver in drivers.devices (the firmware); the simulator in hal_sim.devices, named
    by a string the firmware never imports."""
    for d in device_registry.DEVICES:
        assert d.wire in ("serial", "gpio"), d
        assert d.driver.startswith("drivers.devices.") and device_registry.resolve(d.driver)
        if d.simulator:
            assert d.wire == "serial" and d.simulator.startswith("hal_sim.devices.")
            assert device_registry.resolve(d.simulator).__name__.startswith("Sim")
        assert d.simulated_on in (None, "every", "progressive")
        if d.keys:
            assert set(device_registry.resolve(d.keys)), d.keys


def test_the_lists_derive_from_the_registrations():
    from hal_sim.autoplay import DEVICE_KINDS
    from hal_sim.devices import PROGRESSIVE_DEVICES, SIMULATORS, TABLE_DEVICES
    assert set(devices.TYPES) == set(device_registry.types())
    assert sorted(config.SIMULATED_DEVICES) == sorted(SIMULATORS) == \
        sorted(TABLE_DEVICES + PROGRESSIVE_DEVICES)
    assert DEVICE_KINDS == device_registry.faults()
    assert device_registry.event_kinds().items() <= events.KINDS.items()
    assert config.device_keys("buttons", devices.TYPES["buttons"], False) >= \
        {"no_more_bets", "round_complete", "floor_call"}


def test_the_shipped_udev_rules_are_the_registrations():
    """Regenerate with `tablectl udev-rules > deploy/99-tablectl.rules`."""
    with open(UDEV_FILE) as f:
        assert f.read() == udev_rules()
    names = [d.udev for d in device_registry.DEVICES if d.udev]
    assert names and all('SYMLINK+="tablectl/%s"' % n in udev_rules() for n in names)


NEW_KIND = """
from controller import device_registry as r
r.DEVICES += (r.Device("chip_tray", "serial", "drivers.devices.card_reader:CardReader",
                       "hal_sim.devices.card_reader:SimCardReader",
                       events={"chips": "{'rack': [...]}: the chip tray's count"},
                       faults=("jammed",), udev="chip_tray", simulated_on="every"),)
from controller import config, events
from controller.lab.cli_docs import udev_rules
from drivers.devices import TYPES
from hal_sim.autoplay import DEVICE_KINDS
from hal_sim.devices import SIMULATORS, TABLE_DEVICES
from hal_sim.simulation import parse_fault
config.check_url("k", "sim://chip_tray", "sim")
print("chip_tray" in TYPES, "chip_tray" in config.SIMULATED_DEVICES, "chip_tray" in SIMULATORS,
      TABLE_DEVICES[-1], DEVICE_KINDS["chip_tray"], "chips" in events.KINDS,
      'SYMLINK+="tablectl/chip_tray"' in udev_rules(), parse_fault("chip_tray:jammed"),
      parse_fault("chip_tray:junk")[1], "url" in config.device_keys("chip_tray",
                                                                    TYPES["chip_tray"], True))
"""


def test_a_new_device_kind_is_one_registration():
    """A registration added (here a chip tray, on an existing driver and simulator) reaches
    every list: the configuration's types, keys and sim:// names, the simulated table, the
    faults and line faults `--fault` takes, its event kind, its udev line."""
    r = subprocess.run([sys.executable, "-c", NEW_KIND], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[0] == ("True True True chip_tray ('jammed',) True True "
                                       "('chip_tray', 'jammed', 1.0) junk True")
