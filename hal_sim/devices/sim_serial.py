"""A simulated serial device: a device-role Link on a pty master, with faults on command.

Each simulated device answers the controller's HELLO (it does not initiate,
so nothing is lost when the driver's pyserial open flushes the line), handles
the common commands (selftest, status) and records the commands it received (the latest
COMMANDS_KEPT of them: a simulator runs for hours).
"""

import os
import time

from drivers.codec import Codec, MsgType
from drivers.link import MAX_SLEEP_S, Link
from hal_sim.devices.pty_port import MS, PtyPort
from hal_sim.recent import Recent

COMMANDS_KEPT = 1000                    # commands remembered (`commands.total` counts them all)

LINE_FAULTS = ("delay", "silence", "junk", "split", "bad_crc", "babble", "disconnect", "restart",
               "none")


class SimSerialDevice:
    """Subclasses set `device` and handle their commands in `on_command(cmd, payload)`."""

    device = None

    def __init__(self, ident=None, *, clock=time.monotonic_ns, boot_id=None, tick_s=0.001,
                 **link_options):
        self.ident = ident or "SIM-" + self.device
        self.clock = clock
        self.boot_id = boot_id
        self.tick_s = tick_s
        self.link_options = link_options
        self.commands = Recent(COMMANDS_KEPT)   # the latest COMMAND payloads, in order
        self.malfunction = None         # a detail string makes selftest fail
        self.port = self.link = None

    @property
    def path(self):
        """The pty slave the driver opens (serial.serial_for_url(path))."""
        return self.port.path

    def start(self, port=None):
        """On a fresh pty, or on `port` (hal_sim/virtual.py's in-memory line, which has the
        pty's faults); with `tick_s` None no thread runs: the caller services the link."""
        self.port = PtyPort(self.clock) if port is None else port
        self.link = Link(self.port, {"device": self.device, "id": self.ident}, role="device",
                         clock=self.clock, boot_id=self.boot_id, on_message=self._on_message,
                         on_fault=self.on_link_fault, on_due=self.port.next_due,
                         **self.link_options)
        if self.tick_s is not None:
            self.link.start(self.tick_s, MAX_SLEEP_S)
        return self

    def stop(self):
        if self.link is not None:
            self.link.close()
        if self.port is not None:
            self.port.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- what the device says --------------------------------------------------------

    def event(self, kind, **data):
        """Send an EVENT (acknowledged, retransmitted as the protocol says)."""
        self.link.send(dict(data, kind=kind))

    def fault(self, reason):
        self.event("fault", reason=reason)

    def _on_message(self, message):
        payload = dict(message.payload)
        self.commands.append(payload)
        cmd = payload.get("cmd")
        if cmd == "selftest":
            self.event("selftest", ok=self.malfunction is None,
                       detail=self.malfunction or "all good")
        elif cmd == "status":
            self.event("status", state="fault" if self.malfunction else "ready")
        else:
            self.on_command(cmd, payload)

    def on_command(self, cmd, payload):
        pass

    def on_link_fault(self, reason):
        """The controller went silent or the line broke (the device's own link says so)."""

    # -- line faults -----------------------------------------------------------------

    def inject(self, kind, value=None):
        """A line fault: delay (ms), silence (bool), junk (bytes or count), split (ms),
        bad_crc (frames), babble (rejected frames), disconnect, restart, none (heal)."""
        port = self.port
        if kind == "delay":
            port.delay_ns = int((value if value is not None else 20) * MS)
        elif kind == "silence":
            port.silent = True if value is None else bool(value)
        elif kind == "junk":
            port.junk(value if isinstance(value, (bytes, bytearray))
                      else bytes([0x55]) * (value or 16))
        elif kind == "split":
            port.split_ns = int((value if value is not None else 2) * MS)
        elif kind == "bad_crc":
            port.bad_crc = 1 if value is None else int(value)
        elif kind == "babble":
            bad = bytearray(Codec().encode(MsgType.HEARTBEAT, 0))
            bad[-1] ^= 0xFF                          # an intact frame with a wrong CRC
            port.junk(bytes(bad) * (9 if value is None else int(value)))
        elif kind == "disconnect":
            port.disconnect()
        elif kind == "restart":
            self.link.boot_id = int.from_bytes(os.urandom(4), "big") | 1
            self.link.begin_handshake()              # a new boot announces itself
        elif kind == "none":
            port.delay_ns = port.split_ns = port.bad_crc = 0
            port.silent = False
        else:
            raise ValueError("line fault %r: one of %s" % (kind, ", ".join(LINE_FAULTS)))
