"""The console's bench commands (issue 35): `inject DEVICE KIND`, `repair DEVICE`,
`autoplay on|off`, for a technician practising the clear procedure on the controller they
will service.

They act only on a table whose devices are ALL simulated (a bench configuration,
deploy/tables/GAME-bench.toml): a serial device whose port is a simulator (`sim://`) and GPIO
devices on the simulated pin factory. On any table with a real device they are refused, with
the device named, before anything of the simulator is loaded; and they are a technician's
(or above). What they do to the simulated devices is hal_sim/practice.py's, loaded by its
dotted name (PRACTICE), so the firmware imports nothing of hal_sim (.importlinter), as
drivers/hal.py loads the simulated pin factory. Every use is journaled like any command
(Commands.run); the fault, the lock-out and the clear are the table's own, as on a real one.
"""

import importlib

from controller.console.tree import Command
from controller.errors import ConsoleError

PRACTICE = "hal_sim.practice"          # loaded by name, only on an all-simulated table


def real_device(name, driver):
    """Why `driver` is not a simulated device (its port, its pin factory), or None."""
    if getattr(driver, "factory", None) is not None:
        backend = getattr(driver.factory, "name", None)
        return None if backend == "sim" else "%s is on the %s pin factory" % (name, backend)
    port = getattr(getattr(driver, "link", None), "port", None)
    if getattr(port, "simulator", None) is not None:
        return None
    return "%s is not a bench's simulated device (its port is %s, not sim://)" % (
        name, getattr(driver, "url", None) or "not a simulator's")


class PracticeCommands:
    """The bench commands of one console (`owner`: its Commands, for the table, the devices
    and `say`, which announces a line on the console)."""

    def __init__(self, owner):
        self.owner = owner
        self._practice = None

    def nodes(self):
        """The bench's commands, for the console's tree."""
        return (
            Command("inject", "technician", "inject DEVICE KIND", "bench only (every device "
                    "simulated): make DEVICE fail as KIND (`inject DEVICE` lists them)",
                    self.c_inject, args="DEVICE KIND", words=self.words),
            Command("repair", "technician", "repair DEVICE", "bench only: the simulated "
                    "DEVICE works again, so its self-test passes", self.c_repair,
                    args="DEVICE", words=self.owner.device_names),
            Command("autoplay", "technician", "autoplay on|off", "bench only: the simulated "
                    "dealer and players play rounds", children=(
                        Command("on", "technician", "autoplay on", "bench only: the simulated "
                                "dealer and players play rounds until `autoplay off`",
                                self.c_autoplay_on),
                        Command("off", "technician", "autoplay off", "bench only: the autoplay "
                                "stops after the round it plays", self.c_autoplay_off))),
        )

    def practice(self):
        """hal_sim.practice.Practice over this table; ConsoleError naming a real device."""
        devices = self.owner.devices
        if not devices:
            raise ConsoleError("this table has no devices to practise on")
        for name, driver in sorted(devices.items()):
            why = real_device(name, driver)
            if why is not None:
                raise ConsoleError("refused on a table with real devices: %s; faults are "
                                   "injected only on a bench whose devices are all simulated "
                                   "(tablectl run --config deploy/tables/GAME-bench.toml; "
                                   "tablectl sim injects them with --fault)" % why)
        if self._practice is None:
            module = importlib.import_module(PRACTICE)
            self._practice = module.Practice(self.owner.ctl, devices, say=self.owner.say)
        return self._practice

    def words(self):
        return self.owner.device_names()

    def c_inject(self, role, args):
        practice = self.practice()
        args = [self.owner.name_of(args[0])] + list(args[1:]) if args else args
        if len(args) == 1 and args[0] in self.owner.devices:     # what it takes
            return "%s takes: %s" % (args[0], ", ".join(practice.kinds(args[0])) or "none")
        if len(args) != 2:
            raise ConsoleError("usage: inject DEVICE KIND (inject DEVICE lists the kinds)")
        name, kind = args
        if name not in self.owner.devices:
            raise ConsoleError("no device %r; devices: %s" % (name[:40], ", ".join(
                sorted(self.owner.devices))))
        kinds = practice.kinds(name)
        if kind not in kinds:
            raise ConsoleError("%s takes no fault %r; it takes %s" % (
                name, kind[:40], ", ".join(kinds) or "none"))
        return practice.inject(name, kind)

    def c_repair(self, role, args):
        practice = self.practice()
        name = self.owner.name_of(args[0]) if len(args) == 1 else None
        if name not in self.owner.devices:
            raise ConsoleError("usage: repair DEVICE; devices: %s"
                               % ", ".join(sorted(self.owner.devices)))
        return practice.repair(name)

    def c_autoplay_on(self, role, args):
        return self.practice().start_autoplay()

    def c_autoplay_off(self, role, args):
        return self.practice().stop_autoplay()

    def close(self):
        if self._practice is not None:
            self._practice.close()


__all__ = ["PracticeCommands", "real_device", "PRACTICE"]
