"""The link layer every serial device driver uses: tablectl-serial over any pyserial port.

The link is split as pyserial's serial.threaded splits Protocol from ReaderThread:
drivers/link_protocol.py is the protocol object (every rule of docs/protocols.md, no I/O:
bytes and time in, frames and actions out) and drivers/link_transport.py the transport (the
port, the reader thread, the callbacks). This module keeps the names the drivers and the
simulator import.
"""

from drivers.link_protocol import (BABBLING, FAULTS, HANDSHAKE, MS, NO_ACK, PORT, RESTARTED,
                                   SILENT, LinkProtocol, Message)
from drivers.link_transport import LINK_OPTIONS, MAX_SLEEP_S, Link, check_url

__all__ = ["Link", "LinkProtocol", "Message", "LINK_OPTIONS", "MAX_SLEEP_S", "check_url", "MS",
           "FAULTS", "SILENT", "BABBLING", "NO_ACK", "RESTARTED", "HANDSHAKE", "PORT"]
