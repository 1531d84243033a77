"""A floorperson's clear of a lock-out carries the failed device's self-test (engine.on_clear
refuses a clear without a passing one): the dealer panel's approval carries none, so the
controller runs the self-test of the device that caused the lock-out and adds its result.
A device covered as out of order (controller/games/out_of_order.py) is not tested: it is out of
service, and its driver's fault stays latched."""

from controller.games.engine import LOCKED_OUT
from controller.policies import Policy


class SelftestOnClear(Policy):
    """Adds the failed device's self-test to a floorperson's clear (engine.on_clear needs it;
    the dealer panel's approval carries none, docs/devices.md), and unlatches the driver's
    fault once the clear is applied."""

    def __init__(self, drivers):
        self.drivers = drivers
        self.results = []

    def _driver(self, ctl):
        """The driver of the locked-out device, by its name or by the kind of device a
        fault names ("dealing_shoe" for the driver named "shoe")."""
        device = (ctl.model.lockout or {}).get("device")
        if device == "progressive":
            device = "progressive_system"
        driver = self.drivers.get(device)
        if driver is None:
            driver = next((d for d in self.drivers.values()
                           if getattr(d, "device", None) == device), None)
        return device, driver

    def before(self, ctl, event):
        if event.kind == "clear" and "selftest" not in event.data and \
                ctl.model.state == LOCKED_OUT:
            device, driver = self._driver(ctl)
            if (ctl.model.lockout or {}).get("covered"):
                ctl.note("selftest", event.ts_ns, device=device, skipped="covered as out of order")
                return None
            ok = True if driver is None else bool(driver.selftest())
            event.data["selftest"] = ok
            self.results.append((device, ok))
            ctl.note("selftest", event.ts_ns, device=device, ok=ok)
            if ok and hasattr(driver, "clear_fault"):
                driver.clear_fault()
        return None
