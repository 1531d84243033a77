"""The table's device drivers, and `build_devices()` to make them from a table configuration.

Serial devices speak tablectl-serial (docs/protocols.md) over any pyserial URL;
GPIO devices take their pins from the factory the caller chose (drivers/hal.py).
See docs/devices.md.
"""

import time

from controller import device_registry as registry
from drivers.errors import DeviceError
from drivers.link import check_url

# {type: driver class}, derived from the one registration of each kind
# (controller/device_registry.py)
TYPES = {name: registry.resolve(d.driver) for name, d in registry.types().items()}
SERIAL = {name: cls for name, cls in TYPES.items()
          if registry.types()[name].wire == "serial"}
GPIO = {name: cls for name, cls in TYPES.items() if name not in SERIAL}
globals().update({cls.__name__: cls for cls in TYPES.values()})   # drivers.devices.CardReader


def build_devices(config, factory=None, *, clock=time.monotonic_ns, on_rejected=None,
                  on_signal=None, link_options=None):
    """{name: driver} for a configuration {name: {"type"?, "url" | pins..., options...}}.

    The type defaults to the name. Serial drivers get `clock`, `on_rejected` and
    `link_options`; GPIO drivers get `factory` (required if any is configured).
    Nothing is started: the caller starts each with its sink.
    """
    devices = {}
    for name, entry in config.items():
        entry = dict(entry)
        kind = entry.pop("type", name)
        cls = TYPES.get(kind)
        if cls is None:
            raise DeviceError("device %r: unknown type %r; one of %s"
                              % (name, kind, ", ".join(sorted(TYPES))))
        if kind in SERIAL:
            url = entry.pop("url", None)
            if not url:
                raise DeviceError("device %r: a serial device needs a url" % name)
            try:
                check_url(url)
                devices[name] = cls(name, url, clock=clock, on_rejected=on_rejected,
                                    **dict(link_options or {}, **entry))
            except TypeError as e:           # a keyword the driver does not take
                raise DeviceError("device %r: unknown setting (%s)" % (name, e)) from None
            except DeviceError as e:
                raise DeviceError("device %r: %s" % (name, e)) from None
        else:
            if factory is None:
                raise DeviceError("device %r: a GPIO device needs a pin factory" % name)
            if kind == "buttons":
                entry.setdefault("on_signal", on_signal)
            devices[name] = cls(name, factory, **entry)
    return devices


__all__ = ["build_devices", "TYPES", "SERIAL", "GPIO"] + sorted(
    {c.__name__ for c in TYPES.values()})
