"""The GPIO hardware abstraction the drivers use, and the one place a backend is chosen.

Drivers ask a `PinFactory` for `InputPin`s and `OutputPin`s and never import a
backend: `open_factory()` loads `hal_sim.gpio` (simulated table) or
`drivers.gpio_real` (RPi.GPIO) by name, so the controller runs the same driver
code on a bench and on a Pi. Selection rule (`choose_backend`): the value the
controller's configuration gives wins, then the TABLECTL_HAL environment
variable; with neither the factory refuses to start -- a table controller must
never fall back to a simulated table, nor drive real lines by accident.

Every output declares its safe value. `safe_all(targets)` is the one safe path
(the controller's faults, a locked table, shutdown, `PinFactory.close()`): each
target to its safe value in its own try/except so one failed line cannot keep
the others live, as Klipper's shutdown handlers do. Pins are BCM GPIO numbers.
"""

import enum
import importlib
import logging
import os
import threading

from drivers.errors import DeviceError

log = logging.getLogger(__name__)

ENV_VAR = "TABLECTL_HAL"
CONFIG_KEY = "hal"
BACKENDS = {"sim": ("hal_sim.gpio", "SimFactory"),
            "real": ("drivers.gpio_real", "RealFactory")}
MAX_BCM = 27  # GPIO0..GPIO27 reach the 40-pin header on every Pi with one


class HalError(DeviceError):
    """A GPIO backend that cannot be chosen or opened, or a pin used as it may not be."""


class SafeStateError(HalError):
    """The safe path ran to the end but some outputs (or the release) failed.

    `failures` is a list of (what, exception); every other output was made safe.
    """

    def __init__(self, failures):
        self.failures = list(failures)
        super().__init__("safe path incomplete: " + "; ".join(
            "%s: %r" % (what, exc) for what, exc in self.failures))


class Pull(enum.StrEnum):
    """The input's bias resistor; NONE leaves it to the board's own resistors."""
    UP = "up"
    DOWN = "down"
    NONE = "none"


class Edge(enum.StrEnum):
    """Which level changes of an input call its callback."""
    RISING = "rising"
    FALLING = "falling"
    BOTH = "both"


def choose_backend(configured=None, environ=None):
    """The backend name: `configured` if given, else TABLECTL_HAL, else HalError.

    The configuration wins so that the audited table configuration decides, and a
    stray environment variable on a production controller cannot switch it.
    """
    environ = os.environ if environ is None else environ
    from_env = environ.get(ENV_VAR) or None
    if configured is not None:
        if configured not in BACKENDS:
            raise HalError("configuration %s = %r is not a GPIO backend; choose %s"
                           % (CONFIG_KEY, configured, " or ".join(BACKENDS)))
        if from_env is not None and from_env != configured:
            log.warning("%s=%s ignored: the configuration says %s = %r",
                        ENV_VAR, from_env, CONFIG_KEY, configured)
        return configured
    if from_env is None:
        raise HalError("no GPIO backend chosen: set %s = \"sim\" or \"real\" in the "
                       "configuration, or the environment variable %s=sim|real"
                       % (CONFIG_KEY, ENV_VAR))
    if from_env not in BACKENDS:
        raise HalError("environment variable %s=%r is not a GPIO backend; choose %s"
                       % (ENV_VAR, from_env, " or ".join(BACKENDS)))
    return from_env


def check_backend(name):
    """HalError now if the backend `name` cannot be opened on this machine (the real one
    without RPi.GPIO): `tablectl run` asks before it creates or opens the journal, so a
    machine that can never run the table leaves no journal behind. A backend module says so
    with an `available()` that raises HalError; one without it is always available."""
    module = importlib.import_module(BACKENDS[name][0])
    available = getattr(module, "available", None)
    if available is not None:
        available()


def open_factory(configured=None, environ=None, **options):
    """A new pin factory of the chosen backend (see `choose_backend`)."""
    module, cls = BACKENDS[choose_backend(configured, environ)]
    return getattr(importlib.import_module(module), cls)(**options)


def safe_all(targets):
    """Every target (an OutputPin, or anything with `to_safe()`: the meter display) to its
    safe value; never raises for one of them. THE safe path: the factory's, the controller's
    outputs' and so the fault path's and the shutdown's all run this loop.

    Returns the failures as [(repr(target), exception)], each also logged. A KeyboardInterrupt
    or SystemExit is held until every target was tried, then re-raised.
    """
    failures, held = [], None
    for target in targets:
        try:
            target.to_safe()
        except Exception as e:
            safe = getattr(target, "safe", None)
            log.exception("%r: could not apply safe value%s", target,
                          "" if safe is None else " %d" % safe)
            failures.append((repr(target), e))
        except BaseException as e:
            held = held or e
    if held is not None:
        raise held
    return failures


class _Pin:
    def __init__(self, factory, bcm, name):
        self.factory = factory
        self.bcm = bcm
        self.name = name

    def __repr__(self):
        return "GPIO%d %r" % (self.bcm, self.name) if self.name else "GPIO%d" % self.bcm


class InputPin(_Pin):
    """An input line; with an `edge`, `callback(timestamp_ns)` runs on each accepted edge.

    The timestamp is the factory's clock (monotonic ns; the controller's table clock when
    it opened the factory) taken when the backend saw the edge, so a
    driver measures durations from the edges, not from when its code got to run.
    Edges closer than `debounce_ms` to the last accepted one are dropped.
    """

    def __init__(self, factory, bcm, name, pull, edge, debounce_ms, callback):
        super().__init__(factory, bcm, name)
        self.pull = pull
        self.edge = edge
        self.debounce_ms = debounce_ms
        self.callback = callback

    @property
    def value(self):
        """The line's level now (True = high)."""
        return bool(self.factory._call(self, "read", self.factory._read, self.bcm))

    def _deliver(self, timestamp_ns):
        callback = self.callback
        if callback is not None:
            callback(timestamp_ns)


class OutputPin(_Pin):
    """An output line with a declared safe value, which it starts at unless told otherwise."""

    def __init__(self, factory, bcm, name, safe, level):
        super().__init__(factory, bcm, name)
        self.safe = safe
        self._level = level

    @property
    def value(self):
        """The level last written (True = high)."""
        return self._level

    @property
    def is_safe(self):
        return self._level == self.safe

    def write(self, level):
        level = _level(level, "%r: level" % self)
        if self.factory.closed:
            raise HalError("%r: the GPIO factory is closed" % self)
        self.factory._call(self, "write", self.factory._write, self.bcm, level)
        self._level = level

    def on(self):
        self.write(True)

    def off(self):
        self.write(False)

    def to_safe(self):
        """Write the safe value; idempotent, and a no-op once the factory has released the line."""
        if not self.factory.closed:
            self.write(self.safe)


def _level(value, what):
    if value in (0, 1) and not isinstance(value, float):
        return bool(value)
    raise HalError("%s must be True/False or 1/0, not %r" % (what, value))


class PinFactory:
    """Claims pins, hands out InputPin/OutputPin, owns the one safe path.

    A backend subclasses this and implements `_setup_input(pin)`,
    `_setup_output(bcm, level)`, `_read(bcm)`, `_write(bcm, level)` and
    `_release()`; backend exceptions reach callers as HalError naming the pin.
    """

    name = None

    def __init__(self):
        self._pins = {}
        self._lock = threading.Lock()
        self._closing = False
        self.closed = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def input(self, bcm, *, pull=Pull.NONE, edge=None, debounce_ms=0, callback=None, name=None):
        """Claim `bcm` as an input; `edge` (with an optional debounce) turns on edge callbacks."""
        try:
            pull = Pull(pull)
            edge = None if edge is None else Edge(edge)
        except ValueError as e:
            raise HalError("GPIO%s: %s" % (bcm, e)) from None
        if not isinstance(debounce_ms, int) or isinstance(debounce_ms, bool) or debounce_ms < 0:
            raise HalError("GPIO%s: debounce_ms must be whole milliseconds >= 0, not %r"
                           % (bcm, debounce_ms))
        if edge is None and (debounce_ms or callback is not None):
            raise HalError("GPIO%s: a callback or debounce needs an edge to detect" % bcm)
        pin = InputPin(self, self._claim(bcm, name), name, pull, edge, debounce_ms, callback)
        return self._setup(pin, "setup as input", self._setup_input, pin)

    def output(self, bcm, *, safe, initial=None, name=None):
        """Claim `bcm` as an output declared safe at `safe`; it starts at `initial` or safe."""
        safe = _level(safe, "GPIO%s: safe" % bcm)
        level = safe if initial is None else _level(initial, "GPIO%s: initial" % bcm)
        pin = OutputPin(self, self._claim(bcm, name), name, safe, level)
        return self._setup(pin, "setup as output", self._setup_output, bcm, level)

    def outputs(self):
        return tuple(p for p in list(self._pins.values()) if isinstance(p, OutputPin))

    def safe_all(self):
        """Put every output at its safe value; never raises for one line.

        Returns the failures as a list of (pin description, exception), each also
        logged. A KeyboardInterrupt/SystemExit is held until every output was tried.
        """
        return safe_all(self.outputs())

    def close(self):
        """Safe every output, then release the backend; a second call does nothing.

        Raises SafeStateError after the whole path ran if any step failed.
        """
        with self._lock:
            if self._closing:
                return
            self._closing = True
        failures = []
        try:
            failures = self.safe_all()
        finally:
            self.closed = True
            try:
                self._release()
            except Exception as e:
                log.exception("%s GPIO backend: release failed", self.name)
                failures.append(("release", e))
        if failures:
            raise SafeStateError(failures)

    def _claim(self, bcm, name):
        if not isinstance(bcm, int) or isinstance(bcm, bool) or not 0 <= bcm <= MAX_BCM:
            raise HalError("%r is not a BCM GPIO number (0..%d)" % (bcm, MAX_BCM))
        with self._lock:
            if self._closing:
                raise HalError("GPIO%d: the GPIO factory is closed" % bcm)
            if bcm in self._pins:
                raise HalError("GPIO%d is already claimed as %r" % (bcm, self._pins[bcm]))
            self._pins[bcm] = None
        return bcm

    def _setup(self, pin, what, fn, *args):
        try:
            self._call(pin, what, fn, *args)
        except BaseException:
            del self._pins[pin.bcm]
            raise
        self._pins[pin.bcm] = pin
        return pin

    @staticmethod
    def _call(pin, what, fn, *args):
        try:
            return fn(*args)
        except HalError:
            raise
        except Exception as e:
            raise HalError("%r: %s failed: %s" % (pin, what, e)) from e

    def _setup_input(self, pin):
        raise NotImplementedError

    def _setup_output(self, bcm, level):
        raise NotImplementedError

    def _read(self, bcm):
        raise NotImplementedError

    def _write(self, bcm, level):
        raise NotImplementedError

    def _release(self):
        raise NotImplementedError
