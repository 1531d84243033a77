"""The technician console: log in with a role PIN on a serial line and inspect the table.

    path, handle = start_console(ctl, drivers, clock=time.monotonic_ns,
                                 pin_store_path="/etc/tablectl/console-pins.json")
    ...                      # a terminal program on `path` (a pty under simulation)
    handle.stop()            # joins the console thread, closes its fds

    session.py   line discipline (echo, Backspace/DEL, CR or LF), log-in, idle end
    auth.py      roles, salted scrypt PINs (`tablectl passwd ROLE`), the log-in lock-out
    commands.py  the command tree (prefixes, ?, Tab), who may run what; nothing edits a
                 meter or the journal; `clear` asks the one clear service (controller/clearing.py)
    tree.py      the tree's words (Command, Resolved, match) and Screen, the base of:
    table_screen.py, money_screen.py, journal_screen.py, software_screen.py, practice.py
                 the commands' bodies, one module per screen they serve (practice: the
                 bench's inject, repair, autoplay, on an all-simulated table only)
    view.py      card identities kept off the screen, device text made printable, casino
                 local time, dollars; journal entries in one shape
    screen.py    the one live screen, state to last rounds, that `watch` and `tablectl top` draw
    wager_meters.py  handle, paid, hold and rounds per wager, gaming day and since installation
    manifest.py  SHA-256 manifest of the installed software and its check (`verify`)
    server.py    the pty or tty (awaited when absent), hang-ups, announcements, the thread

`tablectl top` (controller/top.py) draws the same screen (screen.py) from the journal file.

The manual is docs/console.md.
"""

from controller.console.server import ConsoleHandle, start_console

__all__ = ["start_console", "ConsoleHandle"]
