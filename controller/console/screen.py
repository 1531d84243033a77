"""The one live screen of a table, drawn from an info dict: what the console's `watch` and
`tablectl top` (controller/top.py) both show.

Why here, in the console: the console's `watch` draws it from the running table
(`Commands.live_info`) and `top` from the journal file (`JournalFollower.info`); both give the
same dict, so the screen is the console's view of it, and `top`, a reader of the journal
beside the console, imports it from here (the console imports nothing of `top`).
Every text that came from a device is made printable (view.printable).
"""

from controller.console import view
from controller.console.wager_meters import meter_text, round_text


def fault_line(reason, when):
    """A device's last fault as both screens say it: its reason and its local time."""
    return "last fault: %s at %s" % (reason, when)


def render(info, width=view.WIDTH):
    """The screen (text lines joined by "\\n") for an info dict (see Commands.live_info):
    `title` is what draws it (`tablectl top`, or the console's `tablectl watch`). Every line
    is folded to `width` columns (view.fit): the console's session passes its terminal's,
    `tablectl top` its --width; both 80 unless told, a serial terminal's."""
    lines = ["%s  %s  %s" % (info.get("title") or "tablectl top", info.get("game") or "-",
                             info.get("now") or "")]
    state = info.get("state") or "-"
    lines.append("state %s  round %s%s" % (
        state, info.get("round") if info.get("round") is not None else "-",
        "" if info.get("accepting") is None else "  wagers %s" % (
            "recognized" if info["accepting"] else "not recognized")))
    lo = info.get("lockout")
    if lo:
        lines.append("LOCKED OUT: %s" % lo.get("reason"))
        if lo.get("to_clear"):
            lines.append("  to clear: %s" % lo["to_clear"])
    lines.append("")
    lines.append("devices")
    for name, state, fault in info.get("devices") or []:
        lines.append("  %-20s %-10s %s" % (name, state, fault or ""))
    if not info.get("devices"):
        lines.append("  none known")
    lines.append("lock-outs (last 5)")
    for x in info.get("lockouts") or []:
        lines.append("  %s  %-12s %-9s %s%s" % (
            x.get("when"), x.get("device") or "-", "cleared" if x.get("cleared") else "IN FORCE",
            x.get("reason"), " (by %s)" % x["by"] if x.get("by") else ""))
    if not info.get("lockouts"):
        lines.append("  none")
    lines.append("meters, gaming day %s" % (info.get("day") or "-"))
    for wager, m in sorted((info.get("meters") or {}).items()):
        lines.append("  " + meter_text(wager, m))
    if not info.get("meters"):
        lines.append("  no settled rounds")
    lines.append("last rounds")
    for r in info.get("rounds") or []:
        lines.append("  " + round_text(r))
    if not info.get("rounds"):
        lines.append("  none yet")
    return view.fit(view.printable("\n".join(lines)), width)


__all__ = ["render"]
