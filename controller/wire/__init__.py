"""The table's side of the floor wire (firmware: on every table, inside its signature).

    subjects.py    the names on the wire (stream, subjects, KV bucket, message ids) and a
                   table's permissions: the wire contract, one place
    config.py      the table configuration's [controller.floor] section
    outbox.py      the table's reading of its own journal: what may go on the wire now
                   (cards stay home until the round is over), the acknowledged sequence
    uplink.py      the forwarder thread: journal rows in order, exactly once, and the link state
    link_client.py a linked progressive's table side: contributions and hits out, awards in
    links.py       a linked progressive's definition (pure): what the floor configures and the
                   table applies
    aio.py         the small asyncio helpers both ends of the wire share

The floor server (controller/floor/) imports this package; nothing here imports it.
See docs/floor.md and docs/linked-progressives.md.
"""
