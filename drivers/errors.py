"""Errors of the device drivers, rooted at the project's one TablectlError.

Decoders never raise (they count and report what they reject); these are
raised where a caller asked for something the link cannot do.
"""

from controller.errors import TablectlError


class DeviceError(TablectlError):
    """A table device or its link cannot do what was asked."""


class ProtocolError(DeviceError):
    """The serial protocol was broken or cannot express what was asked."""


class FrameError(ProtocolError):
    """A frame that cannot be encoded (payload too long, unknown type, bad sequence)."""


class HandshakeError(ProtocolError):
    """The two ends of a link did not agree on who they are or what they speak."""


class VersionMismatch(HandshakeError):
    """The peer speaks another protocol version; the message names both."""


class IdentityMismatch(HandshakeError):
    """The peer is not the device this link was configured to talk to."""


class HandshakeTimeout(HandshakeError):
    """The peer did not complete the handshake in time."""


class LinkClosed(DeviceError):
    """The link was closed; nothing more can be sent or received."""
