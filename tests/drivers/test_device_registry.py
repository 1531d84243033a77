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
            assert d.simulator.startswith("hal_sim.devices.")
            sim = device_registry.resolve(d.simulator)
            assert sim.__name__.startswith("Sim")
            if d.wire == "gpio":        # the simulated table's pins, a wire over a driver's
                assert sim.PINS and callable(sim.from_driver), d.simulator
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


# A throwaway GPIO kind outside the tree: its driver and its simulated wire, two modules (as
# drivers/devices/ and hal_sim/devices/ would hold them).
GPIO_KIND_DRIVER = """
from drivers.devices.buttons import Buttons


class ChipSensor(Buttons):
    pass
"""
GPIO_KIND_WIRE = """
from hal_sim.devices.gpio_side import SimButtonsWire


class SimChipWire(SimButtonsWire):
    PINS = {"no_more_bets": 2, "round_complete": 3, "floor_call": 11}
"""
NEW_GPIO_KIND = """
import sys
from controller import device_registry as r
if sys.argv[1] == "register":
    r.DEVICES += (r.Device("chip_sensor", "gpio", "chip_sensor:ChipSensor",
                           "sim_chip_sensor:SimChipWire", keys="drivers.devices.buttons:BUTTONS"),)
from drivers.devices import TYPES, build_devices
from hal_sim.bench import bench_devices
from hal_sim.devices import SimHardware
from hal_sim.practice import Hardware
hw = SimHardware(devices=())
try:
    drivers = build_devices(hw.config(), hw.factory)
    sent = []
    for driver in drivers.values():
        driver.start(sent.append)
    practice = Hardware(drivers)
    practice.wires["chip_sensor"].press("no_more_bets")
    print(any(e.source == "chip_sensor" for e in sent),
          "chip_sensor" in TYPES, type(hw.wires["chip_sensor"]).__name__,
          hw.config()["chip_sensor"], bench_devices("blackjack")["chip_sensor"] ==
          hw.config()["chip_sensor"], type(practice.wires["chip_sensor"]).__name__,
          practice.wires["chip_sensor"].pins == hw.wires["chip_sensor"].pins,
          type(practice.progressive).__name__, type(practice.buttons).__name__)
finally:
    hw.stop()
"""


def test_a_new_gpio_device_kind_is_one_registration(tmp_path):
    """A GPIO kind's simulated wire is named by its registration, as a serial simulator is:
    the registration alone puts the wire on the simulated table at its PINS, in the table's
    and the bench's configuration, and over the running driver in the console's practice
    (a finger on its wire reaches its driver).
    Unregistered, it is in none of them (the check can fail)."""
    (tmp_path / "chip_sensor.py").write_text(GPIO_KIND_DRIVER)
    (tmp_path / "sim_chip_sensor.py").write_text(GPIO_KIND_WIRE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), ROOT]))
    r = subprocess.run([sys.executable, "-c", NEW_GPIO_KIND, "register"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ("True True SimChipWire {'no_more_bets': 2, 'round_complete': 3, "
                                "'floor_call': 11} True SimChipWire True SimProgressiveWire "
                                "SimButtonsWire")
    r = subprocess.run([sys.executable, "-c", NEW_GPIO_KIND, "no"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "KeyError: 'chip_sensor'" in r.stderr, r.stderr
