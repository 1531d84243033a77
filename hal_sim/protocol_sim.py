"""pyserial's handler for `sim://DEVICE` urls: a simulated device, started when its port opens.

A bench configuration (deploy/tables/GAME-bench.toml) names its serial devices as

    [controller.devices.shoe]
    url = "sim://shoe"                      # sim://dice_reader?dice=3 passes options

and `tablectl run` then drives the real drivers against simulated devices on real ptys,
exactly as tests/test_run.py and `tablectl sim` do, with no process of its own to start
first. pyserial finds this module by the url's scheme (`serial.serial_for_url` looks for
`<package>.protocol_<scheme>` in `serial.protocol_handler_packages`); controller/config.py
adds "hal_sim" to that list only for a configuration with `hal = "sim"`, so the firmware
never imports hal_sim itself and a real table cannot name a simulated device.

Opening the port starts the simulator (hal_sim.devices.SIMULATORS) and opens its pty's slave
with pyserial's own Serial; closing the port stops the simulator, in the order SimHardware
needs (the driver's slave first, then the device).
"""

import urllib.parse

import serial

from hal_sim.devices import SIMULATORS


def parse(url):
    """`sim://NAME?key=value` -> (name, {key: int or str}); ValueError naming the problem."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() != "sim":
        raise ValueError("%r is not a sim:// url" % url)
    name = parts.netloc or parts.path.strip("/")
    if name not in SIMULATORS:
        raise ValueError("sim://%s: no simulated device of that name; one of %s"
                         % (name, ", ".join(sorted(SIMULATORS))))
    options = {}
    for key, value in urllib.parse.parse_qsl(parts.query, strict_parsing=bool(parts.query)):
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    return name, options


def serial_class_for_url(url):
    """pyserial's hook: start the simulator, answer its pty path and a Serial class whose
    close() also stops it."""
    name, options = parse(url)
    device = SIMULATORS[name](**options).start()

    class SimulatedPort(serial.Serial):
        simulator = device

        def close(self):
            try:
                super().close()
            finally:
                device.stop()

    return device.path, SimulatedPort
