"""The part every GPIO device driver shares: pins from a factory, a sink, counters.

Drivers get the pin factory from whoever chose the backend (drivers/hal.py) and
never import one. An edge callback stamps its Event with the edge's time as the
backend reports it, so a press and a wager are ordered by when they happened.
"""

from collections import Counter

from controller.events import Event
from drivers.errors import DeviceError


class GpioDevice:
    """Base of the GPIO drivers; a subclass claims its pins in `_claim()`."""

    device = None

    def __init__(self, name=None, factory=None):
        if factory is None:
            raise DeviceError("%s: a GPIO device needs a pin factory" % (name or self.device))
        self.name = name or self.device
        self.factory = factory
        self.sink = None
        self.inputs, self.outputs = {}, {}
        self.counters = Counter()
        self.last_fault = None
        self._running = False

    def start(self, sink):
        """Claim the pins (outputs start at their safe values) and start delivering edges."""
        if self._running:
            raise DeviceError("%s: already started" % self.name)
        self.sink = sink
        if not self.inputs and not self.outputs:
            self._claim()
        self._running = True
        return self

    def stop(self):
        """Stop delivering edges and leave every output safe; the factory owner releases pins."""
        self._running = False
        for pin in self.inputs.values():
            pin.callback = None
        self.to_safe()

    def to_safe(self):
        """Every output of this device to its declared safe value; returns the failures."""
        failures = []
        for name, pin in self.outputs.items():
            try:
                pin.to_safe()
            except DeviceError as exc:
                failures.append((name, str(exc)))
                self.last_fault = {"reason": "output", "detail": str(exc)}
        return failures

    def selftest(self):
        """True if every line reads and every output takes its current level again."""
        try:
            for pin in self.inputs.values():
                pin.value
            for pin in self.outputs.values():
                pin.write(pin.value)
        except DeviceError as exc:
            self.last_fault = {"reason": "selftest", "detail": str(exc)}
            return False
        return not self.factory.closed

    def status(self):
        return {"device": self.name, "type": self.device,
                "state": "stopped" if not self._running else
                         "fault" if self.last_fault else "ready",
                "counters": dict(self.counters), "rejected": {},
                "outputs": {name: pin.value for name, pin in self.outputs.items()},
                "last_fault": self.last_fault}

    def _input(self, key, bcm, callback, *, debounce_ms, pull="up", edge="falling"):
        self.inputs[key] = self.factory.input(bcm, pull=pull, edge=edge, debounce_ms=debounce_ms,
                                              callback=callback, name="%s %s" % (self.name, key))

    def _output(self, key, bcm, safe):
        self.outputs[key] = self.factory.output(bcm, safe=safe, name="%s %s" % (self.name, key))

    def _emit(self, kind, data, ts_ns):
        if not self._running:
            return
        self.counters[kind] += 1
        if self.sink is not None:
            self.sink(Event(kind, data, source=self.name, ts_ns=ts_ns))

    def _claim(self):
        raise NotImplementedError
