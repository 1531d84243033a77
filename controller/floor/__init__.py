"""THE FLOOR SERVER (a wing of its own, not firmware): what runs beside the tables, never on
one. Every table streams its journal to NATS JetStream (the table's side of that wire is the
firmware's controller/wire/); this package folds the streams into each table's latest state,
serves the floor page and runs the linked progressives' controllers.

    fold.py        the floor side's fold of one table's rows: chain continuity, state, meters
    service.py     `tablectl floor`: consumes every table's stream, keeps the KV bucket;
                   `serve_floor`, the service and its page until stopped
    web.py         the floor page (aiohttp, server-sent events)
    linkctl.py     a linked progressive's controller (its meter's single writer)
    linkmeter.py   the meter's arithmetic; linkcfg.py, the link's stored definitions
    reconcile.py   the meter against the link's stream and each table's journal
    cli.py, linkcli.py  `tablectl floor ...`

Imports the firmware (downward) and never the lab (.importlinter). Installed with the
`floor` extra (aiohttp). See docs/floor.md.
"""
