"""The sector log's layout (log.py): its sizes, magics and structs, and the functions that
make and check its sectors (the header, the tail slots, the stream's sectors, a commit's
items, the zeros ahead). Pure bytes in and out, no file: what log.py's LogStore writes and
reads, and what docs/journal.md describes byte for byte."""

import json
import os
import struct
import zlib

from controller.errors import JournalDamaged, JournalError
from controller.journal.chain import canonical
from controller.journal.store import COLUMNS

MAGIC = b"tablectl-log\0\0\0\n"         # a sector log's first 16 bytes (formats.py)
FORMAT = "log-1"
ZDICT_VERSION = 1
SECTOR = 512
STREAM = 488                     # stream bytes per sector of the log proper
FIRST = 3                        # the log proper's first sector
SLOT_HEAD = struct.Struct("<2sQQH")          # magic, slot seq, full sectors, tail length
SLOT_MAGIC = b"TS"
INDEX_MAGIC = b"tablectl-log-index-2\n"   # PATH.index's header sector begins so
IX_HEAD = struct.Struct("<4sQQII")          # magic, record number, stream end, length, CRC
IX_MAGIC = b"TLXR"
INDEX_EVERY = 2 ** 16            # stream bytes between two records of the index
INDEX_SEGMENT = 2 ** 18          # bytes of the index zeroed ahead at a time
CRC = struct.Struct("<I")
LEN = struct.Struct("<I")
ITEM = struct.Struct("<cI")
SEGMENT = 2 ** 20                # bytes zeroed ahead at a time
LEVEL = 6
assert SLOT_HEAD.size + STREAM - 1 + CRC.size <= SECTOR
assert COLUMNS[:7] == ("seq", "ts_ns", "source", "entry", "kind", "round_no", "data")  # _row's


def _crc(*parts):
    c = 0
    for p in parts:
        c = zlib.crc32(p, c)
    return c


def _sector_crc(index, data):
    return _crc(struct.pack("<Q", index), data)


def _slot_bytes(seq, full, tail):
    body = SLOT_HEAD.pack(SLOT_MAGIC, seq, full, len(tail)) + tail
    body += bytes(SECTOR - CRC.size - len(body))
    return body + CRC.pack(_crc(body))


def _parse_slot(raw):
    """(seq, full, tail) of a slot sector, or None when its CRC or its lengths do not hold."""
    if len(raw) != SECTOR or CRC.unpack_from(raw, SECTOR - CRC.size)[0] != \
            _crc(raw[:SECTOR - CRC.size]):
        return None
    magic, seq, full, n = SLOT_HEAD.unpack_from(raw)
    if magic != SLOT_MAGIC or n >= STREAM or seq == 0:
        return None
    return seq, full, bytes(raw[SLOT_HEAD.size:SLOT_HEAD.size + n])


def _header_bytes(info):
    text = canonical(info)
    body = MAGIC + LEN.pack(len(text)) + text
    if len(body) > SECTOR - CRC.size:
        raise JournalError("journal header too long (%d bytes)" % len(body))
    body += bytes(SECTOR - CRC.size - len(body))
    return body + CRC.pack(_crc(body))


def _index_header(log_crc):
    """PATH.index's first sector: its magic and the CRC of the log's own header sector, so
    an index is never read against another log's header."""
    body = INDEX_MAGIC + CRC.pack(log_crc)
    return body + bytes(SECTOR - len(body))


def _items(payload, where):
    """The (tag, bytes) items of a commit's inflated body; JournalDamaged if a length runs
    past it."""
    out, off = [], 0
    while off < len(payload):
        if off + ITEM.size > len(payload):
            raise JournalDamaged("%s: an item's header runs past the commit" % where)
        tag, n = ITEM.unpack_from(payload, off)
        off += ITEM.size
        if off + n > len(payload):
            raise JournalDamaged("%s: an item of %d bytes runs past the commit" % (where, n))
        out.append((tag, payload[off:off + n]))
        off += n
    return out


def _row(body, digest, prev, where):
    try:
        # json.loads of the bytes decodes them as it detects their encoding: a body the
        # writer made (chain.body_of) begins '{"' and is UTF-8, decoded so here at once
        # (issue 33: a soak reads its journal several times; json's own choice for a
        # body beginning so is the same, with the same error handler)
        f = json.loads(body.decode("utf-8", "surrogatepass") if body[:2] == b'{"'
                       else body)
        row = {"seq": f["seq"], "ts_ns": f["ts_ns"], "source": f["source"],
               "entry": f["entry"], "kind": f["kind"], "round_no": f["round_no"],
               "data": f["data"]}                     # COLUMNS[:7], in their order
    except (ValueError, KeyError, TypeError):
        raise JournalDamaged("%s: a row that is not a row's body" % where)
    row["prev_hash"], row["hash"] = prev, digest.hex()
    return row


def _zero(fd, offset, length):
    """Zeros written (not allocated: an unwritten extent would be converted, and journaled,
    by the first write into it) from `offset`, rounded up to whole sectors."""
    chunk = bytes(1 << 16)
    end = offset + (length + SECTOR - 1) // SECTOR * SECTOR
    while offset < end:
        n = min(len(chunk), end - offset)
        os.pwrite(fd, chunk[:n], offset)
        offset += n
