"""The real GPIO backend, over the RPi.GPIO API (BCM numbering).

RPi.GPIO is imported when the factory is built, not when this module is, so the
package imports on a bench machine; on a Pi 5 the rpi-lgpio package provides the
same `RPi.GPIO` module. Debounce is RPi.GPIO's own `bouncetime`. Edge callbacks
run on RPi.GPIO's callback thread; the timestamp (the factory's `clock`: the controller
gives it the table clock, controller/journal/clock.py) is taken first thing there,
before the driver's callback, and an exception in a callback is logged rather
than left to kill that thread.

`close()` ends with GPIO.cleanup(), which returns every line it used to an
input: after shutdown the board's pull resistors must hold each output at its
safe level (see docs/hal.md).
"""

import importlib
import logging
import time

from drivers.hal import Edge, HalError, PinFactory, Pull

log = logging.getLogger(__name__)


def _load_gpio():
    try:
        return importlib.import_module("RPi.GPIO")
    except (ImportError, RuntimeError) as e:
        raise HalError("the real GPIO backend needs RPi.GPIO on a Raspberry Pi (rpi-lgpio on "
                       "a Pi 5): %s" % e) from e


def available():
    """HalError if RPi.GPIO cannot be loaded here (drivers/hal.py check_backend)."""
    _load_gpio()


class RealFactory(PinFactory):
    """Pins on this Pi's GPIO header through RPi.GPIO."""

    name = "real"

    def __init__(self, clock=time.monotonic_ns):
        super().__init__()
        self.clock = clock
        self._gpio = gpio = _load_gpio()
        gpio.setmode(gpio.BCM)
        self._pulls = {Pull.UP: gpio.PUD_UP, Pull.DOWN: gpio.PUD_DOWN, Pull.NONE: gpio.PUD_OFF}
        self._edges = {Edge.RISING: gpio.RISING, Edge.FALLING: gpio.FALLING,
                       Edge.BOTH: gpio.BOTH}

    def _setup_input(self, pin):
        gpio = self._gpio
        gpio.setup(pin.bcm, gpio.IN, pull_up_down=self._pulls[pin.pull])
        if pin.edge is None:
            return

        def on_edge(_channel):
            timestamp_ns = self.clock()
            try:
                pin._deliver(timestamp_ns)
            except Exception:
                log.exception("%r: edge callback failed", pin)

        # RPi.GPIO refuses bouncetime=0; leaving it out means no debounce.
        extra = {"bouncetime": pin.debounce_ms} if pin.debounce_ms else {}
        gpio.add_event_detect(pin.bcm, self._edges[pin.edge], callback=on_edge, **extra)

    def _setup_output(self, bcm, level):
        gpio = self._gpio
        gpio.setup(bcm, gpio.OUT, initial=gpio.HIGH if level else gpio.LOW)

    def _read(self, bcm):
        return self._gpio.input(bcm)

    def _write(self, bcm, level):
        self._gpio.output(bcm, self._gpio.HIGH if level else self._gpio.LOW)

    def _release(self):
        self._gpio.cleanup()
