"""A real pty whose master end a simulated device owns, with line faults on command.

The driver opens the slave's path with serial.serial_for_url, exactly as it
opens /dev/ttyUSB0 on a table; the device's Link reads and writes the master
through this object, which is where the line's faults are injected: delay,
silence, split frames, bad checksums, junk bytes and a disconnect. Delayed and
split bytes leave on the device link's own service rounds (`in_waiting`), its thread woken
when they are due (`next_due`), so no extra thread is needed.
"""

import errno
import fcntl
import os
import struct
import termios
import threading
import time
import tty

from drivers.codec import SOF, MsgType
from hal_sim.recent import RecentBytes

MS = 1_000_000
WRITTEN_KEPT = 64 * 1024                        # bytes of the wire's recent past kept


class PtyPort:
    """The master end of a fresh pty as the little of a pyserial port a Link uses."""

    def __init__(self, clock=time.monotonic_ns):
        self.clock = clock
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)                 # no echo, no line discipline before pyserial
        self.path = os.ttyname(self._slave)
        os.set_blocking(self.master, False)
        self._lock = threading.Lock()
        self._pending = []                      # (due ns, bytes) not written yet
        self.closed = False
        self.silent = False
        self.delay_ns = 0
        self.split_ns = 0
        self.bad_crc = 0                        # corrupt the CRC of this many EVENT frames
        self.written = RecentBytes(WRITTEN_KEPT)   # the latest bytes on the wire, for tests
        self.read_total = 0                     # bytes the device read (the driver's)

    # -- the port a Link uses -------------------------------------------------------

    @property
    def in_waiting(self):
        with self._lock:
            self._check()
            self._flush(self.clock())
            return struct.unpack("I", fcntl.ioctl(self.master, termios.FIONREAD, b"\0" * 4))[0]

    def next_due(self):
        """When the next delayed or split bytes are due on the wire (the device link's
        on_due: its thread wakes then to write them), or None."""
        with self._lock:
            return min(due for due, _ in self._pending) if self._pending else None

    def fileno(self):
        """The master's fd, for the Link's select(); delayed bytes still wait for a tick."""
        with self._lock:
            self._check()
            return self.master

    def read(self, n):
        with self._lock:
            self._check()
            try:
                data = os.read(self.master, n)
            except BlockingIOError:
                return b""
            self.read_total += len(data)
            return data

    def write(self, data):
        data = bytes(data)
        with self._lock:
            self._check()
            if self.silent:
                return len(data)
            if self.bad_crc and len(data) > 6 and data[0] == SOF and data[3] == MsgType.EVENT:
                self.bad_crc -= 1
                data = data[:-1] + bytes([data[-1] ^ 0xFF])
            now = self.clock()
            if self.split_ns and len(data) > 1:
                half = len(data) // 2
                self._pending.append((now + self.delay_ns, data[:half]))
                self._pending.append((now + self.delay_ns + self.split_ns, data[half:]))
            else:
                self._pending.append((now + self.delay_ns, data))
            self._flush(now)
        return len(data)

    # -- faults ---------------------------------------------------------------------

    def junk(self, data):
        """Bytes straight onto the wire, outside any frame."""
        with self._lock:
            self._check()
            self._put(bytes(data))

    def disconnect(self):
        """The cable is pulled: the master closes; the driver's next write fails (EIO)."""
        with self._lock:
            if not self.closed:
                self.closed = True
                os.close(self.master)

    def close(self):
        """Close both ends this object holds (the driver closes its own slave port)."""
        self.disconnect()
        with self._lock:
            if self._slave is not None:
                os.close(self._slave)
                self._slave = None

    def _check(self):
        if self.closed:
            raise OSError(errno.EIO, "pty %s disconnected" % self.path)

    def _flush(self, now):
        while self._pending and self._pending[0][0] <= now:
            self._put(self._pending.pop(0)[1])

    def _put(self, data):
        self.written += data
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:
                time.sleep(0.0005)
