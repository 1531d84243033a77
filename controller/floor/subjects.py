"""Every name the floor puts on the wire, in one place.

    stream   JOURNAL        subjects tablectl.journal.<table>; one message per journal row,
                            message id "<table>:<seq>", published with the expected last
                            sequence on its subject, so a row is stored once and in order
    subject  tablectl.status.<table>   the table's live status (core NATS, no cards), twice a
                            second: what the page shows between rounds' rows, and "last heard"
    KV       FLOOR          key table.<table>  the floor's latest state of the table (JSON)
                            key anchor.<table> the floor's copy of the table's journal head
                            key floor.position the stream seq the floor has folded to
Reserved for linked progressives (issue 14), beside these and under the same permissions
scheme: stream LINKS on tablectl.link.<link>.<table> (a table's contributions and hits),
subject tablectl.award.<link>.<table> (the controller's answers), KV key link.<link>.meter
(written by compare-and-set by the link's single controller).
"""

import re

STREAM = "JOURNAL"
PREFIX = "tablectl"
KV_BUCKET = "FLOOR"
LINK_STREAM = "LINKS"

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def check_table_id(table_id):
    """A table id is one NATS subject token: letters, digits, '-' and '_'."""
    if not isinstance(table_id, str) or not TABLE_ID.match(table_id):
        raise ValueError("table id %r: 1 to 64 letters, digits, '-' or '_'" % (table_id,))
    return table_id


def journal_subject(table_id):
    return "%s.journal.%s" % (PREFIX, check_table_id(table_id))


def status_subject(table_id):
    return "%s.status.%s" % (PREFIX, check_table_id(table_id))


def link_subject(link_id, table_id):
    return "%s.link.%s.%s" % (PREFIX, check_table_id(link_id), check_table_id(table_id))


def award_subject(link_id, table_id):
    return "%s.award.%s.%s" % (PREFIX, check_table_id(link_id), check_table_id(table_id))


JOURNAL_SUBJECTS = "%s.journal.>" % PREFIX
STATUS_SUBJECTS = "%s.status.*" % PREFIX


def msg_id(table_id, seq):
    return "%s:%d" % (table_id, seq)


def parse_msg_id(text):
    table, _, seq = (text or "").rpartition(":")
    return table, int(seq)


def table_of(subject):
    return subject.rsplit(".", 1)[-1]


def table_permissions(table_id):
    """What a table's credential may do: publish its own rows and status, read back the last
    row stored on its own subject (direct get, the subject in the API subject itself, so no
    other table's), and receive its replies. Nothing else: not another table's subject, not
    the stream's configuration, not the KV bucket."""
    subj = journal_subject(table_id)
    return {
        "publish": {"allow": [subj, status_subject(table_id),
                              "$JS.API.DIRECT.GET.%s.%s" % (STREAM, subj)]},
        "subscribe": {"allow": ["_INBOX.>"]},
    }
