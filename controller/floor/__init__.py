"""The casino floor: every table streams its journal to NATS JetStream; a floor service
folds the streams into each table's latest state and serves the floor page.

    subjects.py    the names on the wire (stream, subjects, KV bucket, message ids) and a
                   table's permissions: one place, so the linked progressives fit beside them
    natsserver.py  a real nats-server process (one node or a three-node cluster) for tests,
                   the demo and the bench, started on loopback and stopped by PID
    outbox.py      the table side's reading of its own journal: what may go on the wire now
                   (cards stay home until the round is over), the acknowledged sequence
    uplink.py      the forwarder thread: journal rows in order, exactly once, and the link state
    fold.py        the floor side's fold of one table's rows: chain continuity, state, meters
    service.py     `tablectl floor`: consumes every table's stream, keeps the KV bucket;
                   `serve_floor`, the service and its page until stopped (cli.py, demo.py)
    web.py         the floor page (aiohttp, server-sent events)
    demo.py        `tablectl floor demo --tables N`
See docs/floor.md.
"""
