"""The journal: every input on disk before it is applied, hash-chained, with snapshots at
round boundaries and the regulation meters beside it (issue 7, "Journal and recovery").

    store.py   the SQLite file (WAL, synchronous=FULL) and its schema
    chain.py   the SHA-256 (or, keyed, HMAC-SHA256) chain and its verification
    keys.py    a keyed journal's key file and key id
    anchor.py  the head written down outside the database (PATH.anchor): rollbacks show
    lock.py    one controller per journal (an flock on PATH.lock)
    state.py   what a snapshot holds (table, policies, round counters)
    meters.py  the regulation meters as a function of the state
    replay.py  a table rebuilt from a snapshot and the steps after it
    live.py    the durable journal part a controller holds, and the boot checks
    show.py    a round reconstructed hand by hand; unrevealed cards redacted
    cli.py     `tablectl journal verify|show|head|init`
"""

from controller.journal.live import DurableJournal, boot, journaled_controller  # noqa: F401
