"""THE LAB'S TOOLS (a wing of its own, not firmware): what a gaming lab, a game designer or a
newcomer runs on a workstation, never on a table, and so never inside a table's signature.

    par/           par sheets, strategies and the lab report (`tablectl par`, `strategy`)
    trace/         the traceability matrix (`tablectl trace`)
    scenario.py    the stacked-shoe scenario format; play.py, `tablectl play`
    diagram.py     `tablectl diagram`: each game's state machine drawn
    sim.py         `tablectl sim`: the simulator's command line (hal_sim's devices)
    cli_docs.py    the generated bash completion and man page
    floor_demo.py  `tablectl floor demo`: a nats-server, the floor and N simulated tables,
                   each a process of its own (the lab never imports the floor server)
    natsserver.py  a real nats-server process for tests, the demo and the bench

Imports the firmware and hal_sim; never the floor server (.importlinter). Installed with the
`lab` extra (numpy).
"""
