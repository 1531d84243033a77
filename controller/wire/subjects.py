"""Every name the floor puts on the wire, in one place.

    stream   JOURNAL        subjects tablectl.journal.<table>; one message per journal row,
                            message id "<table>:<seq>:<tag>" (the tag an HMAC under the
                            table's password: signing.secret_message_id), published with
                            the expected last sequence on its subject, so a row is stored
                            once and in order
    subject  tablectl.status.<table>   the table's live status (core NATS, no cards), twice a
                            second: what the page shows between rounds' rows, and "last heard"
    KV       FLOOR          key table.<table>  the floor's latest state of the table (JSON)
                            key anchor.<table> the floor's copy of the table's journal head
                            key floor.position the stream seq the floor has folded to
Linked progressives (issue 14, docs/linked-progressives.md, the wire contract):
    stream   LINKS          tablectl.link.<link>.<table>  a table's contributions, withdraws
                            and hits (message id "<type>:<link>:<id>:<tag>",
                            the tag the table key's: signing.message_id);
                            tablectl.linkcfg.<link>  the link's parameter versions and
                            operability changes (the floor's: ids tagged by its password)
    KV       PROGRESSIVE    meter.<link>  the meter, written by compare-and-set by the link's
                            single controller; award.<link>.<table>.<round>-<seat> one award;
                            config.<link> the link's current parameters
    subject  tablectl.meter.<link>  the meter now (core NATS), on change and every 100 ms
             tablectl.award.<link>.<table>  an award as it is made
             tablectl.linkstatus.<link>.<table>  "this table is on the link", every 100 ms
"""

import re

STREAM = "JOURNAL"
PREFIX = "tablectl"
KV_BUCKET = "FLOOR"
LINK_STREAM = "LINKS"
LINK_BUCKET = "PROGRESSIVE"
LINK_SUBJECTS = ("%s.link.>" % PREFIX, "%s.linkcfg.*" % PREFIX)

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


def linkcfg_subject(link_id):
    return "%s.linkcfg.%s" % (PREFIX, check_table_id(link_id))


def link_tables_subject(link_id):
    """Every table's messages of one link (a consumer's filter)."""
    return "%s.link.%s.*" % (PREFIX, check_table_id(link_id))


def meter_subject(link_id):
    return "%s.meter.%s" % (PREFIX, check_table_id(link_id))


def linkstatus_subject(link_id, table_id):
    return "%s.linkstatus.%s.%s" % (PREFIX, check_table_id(link_id), check_table_id(table_id))


def meter_key(link_id):
    return "meter.%s" % check_table_id(link_id)


def config_key(link_id):
    return "config.%s" % check_table_id(link_id)


def award_key(link_id, table_id, round_no, seat):
    return "award.%s.%s.%s-%s" % (check_table_id(link_id), check_table_id(table_id),
                                   check_table_id(str(round_no)), check_table_id(str(seat)))


def link_msg_id(kind, link_id, ident):
    """The base of a table's link message's Nats-Msg-Id, "<type>:<link>:<id>" (the link in it
    because the stream's duplicate window spans every link). A table sends it with the tag
    its signing key makes (signing.message_id: "<type>:<link>:<id>:<tag>"), so no one
    without the key can store a forgery under it first (issue 31); without a key it is the
    id itself (a table that signs nothing, whose messages the controller refuses anyway).
    Nothing reads the id back: the controller and reconcile key on the message's own "id",
    so streams with either form are read alike."""
    return "%s:%s:%s" % (kind, check_table_id(link_id), ident)


JOURNAL_SUBJECTS = "%s.journal.>" % PREFIX
STATUS_SUBJECTS = "%s.status.*" % PREFIX


def msg_id(table_id, seq):
    """A journal row's id before its tag: "<table>:<seq>" (the uplink sends it with the tag
    of the table's password, signing.secret_message_id)."""
    return "%s:%d" % (table_id, seq)


def parse_msg_id(text):
    """(table, seq) of a row's id, "<table>:<seq>" or "<table>:<seq>:<tag>" (a table id
    holds no ':'): rows stored before the tags are read alike."""
    parts = (text or "").split(":")
    return parts[0], int(parts[1] if len(parts) > 1 else "")


def table_of(subject):
    return subject.rsplit(".", 1)[-1]


FLOOR_USER = "floor"


def inbox_prefix(user):
    """The reply subjects of `user`'s connections, "_INBOX_<user>" (nats-py's `inbox_prefix`):
    each credential may subscribe to its own replies only, so none reads another's (a
    table's rows reach the floor's ordered consumer on the floor's inbox, issue 31)."""
    return "_INBOX_%s" % check_table_id(user)


def floor_permissions():
    """The floor's user (the floor service, the links' controllers, define, reconcile):
    least privilege. It may use the JetStream API (its streams, buckets and consumers) but
    not delete or purge a stream, nor update the two whose every message is evidence
    (JOURNAL, LINKS: created with deny_delete and deny_purge, which an update could lift);
    write its own buckets and the link messages only the floor writes (definitions,
    refusals, meters, awards); never publish as a table (a table's rows, status, link
    messages); receive the tables' status and link status and its own replies only."""
    return {
        "publish": {"allow": ["$JS.API.>", "$JS.ACK.>", "$JS.FC.>",
                              "$KV.%s.>" % KV_BUCKET, "$KV.%s.>" % LINK_BUCKET,
                              "%s.linkcfg.*" % PREFIX, "%s.meter.*" % PREFIX,
                              "%s.award.*.*" % PREFIX],
                    "deny": ["$JS.API.STREAM.DELETE.>", "$JS.API.STREAM.PURGE.>",
                             "$JS.API.STREAM.MSG.DELETE.>",
                             "$JS.API.STREAM.UPDATE.%s" % STREAM,
                             "$JS.API.STREAM.UPDATE.%s" % LINK_STREAM]},
        "subscribe": {"allow": ["%s.>" % inbox_prefix(FLOOR_USER), STATUS_SUBJECTS,
                                "%s.meter.*" % PREFIX, "%s.linkstatus.*.*" % PREFIX]},
    }


def table_permissions(table_id):
    """What a table's credential may do: publish its own rows and status, read back the last
    row stored on its own subject (direct get, the subject in the API subject itself, so no
    other table's), and receive its own replies (on its own inbox prefix, not `_INBOX.>`,
    where the floor's consumers deliver every table's rows). Nothing else: not another
    table's subject, not the stream's configuration, not the KV bucket."""
    subj = journal_subject(table_id)
    kv = "$JS.API.DIRECT.GET.KV_%s.$KV.%s." % (LINK_BUCKET, LINK_BUCKET)
    return {
        "publish": {"allow": [subj, status_subject(table_id),
                              "$JS.API.DIRECT.GET.%s.%s" % (STREAM, subj),
                              # linked progressives (docs/linked-progressives.md): its own
                              # link messages and link status, the meters, its own awards
                              "%s.link.*.%s" % (PREFIX, table_id),
                              "%s.linkstatus.*.%s" % (PREFIX, table_id),
                              kv + "meter.*", kv + "award.*.%s.>" % table_id]},
        "subscribe": {"allow": ["%s.>" % inbox_prefix(table_id), "%s.meter.*" % PREFIX,
                                "%s.award.*.%s" % (PREFIX, table_id)]},
    }
