"""`tablectl config check FILE`: a table configuration checked exactly as `tablectl run`
checks it before it touches anything (controller/run.py load_config: every key, every
device's keys against its driver, every url, the GPIO backend named), without starting a
table. Why a verb of its own: a technician edits /etc/tablectl/table.toml on the table or
on a laptop, and must learn that it is wrong before the service restarts on it. The GPIO
library itself is not looked for (a laptop has none); `run` does that before its journal.
Exit 0 and one line saying what the file configures; exit 2 and one line naming what is
wrong."""

import sys

from controller.errors import ConfigError

EXIT_OK, EXIT_CONFIG = 0, 2


def cmd_config(args, out, err=None, environ=None):
    err = err or sys.stderr
    from controller.run import load_config
    try:
        cfg, section, backend = load_config(args.file, environ, check_gpio=False)
    except ConfigError as e:
        err.write("tablectl config check: %s\n" % " ".join(str(e).split()))
        return EXIT_CONFIG
    devices = sorted((section.get("devices") or {}))
    floor = section.get("floor")
    out.write("%s: valid: %s, GPIO backend %s, %d devices (%s)%s%s\n" % (
        args.file, cfg["game"], backend or "from $TABLECTL_HAL at run (the systemd unit sets "
        "it)", len(devices), ", ".join(devices) or "none",
        ", console on %s" % section["console"]["tty"] if (section.get("console") or {}).get(
            "tty") else ", console on a new pty",
        ", floor link as %s" % floor["table_id"] if floor else ""))
    return EXIT_OK


def add_parser(sub):
    p = sub.add_parser("config", help="check a table configuration as `tablectl run` would, "
                       "without starting the table")
    csub = p.add_subparsers(dest="config_cmd", metavar="check")
    check = csub.add_parser("check", help="check FILE: exit 0 and what it configures, or "
                            "exit 2 and one line naming what is wrong")
    check.add_argument("file", metavar="FILE", help="the table configuration (TOML)")
    p.set_defaults(func=_dispatch, config_parser=p)
    return p


def _dispatch(args, out, err=None):
    if getattr(args, "config_cmd", None) != "check":
        out.write(args.config_parser.format_help())
        return EXIT_OK
    return cmd_config(args, out, err)


__all__ = ["cmd_config", "add_parser"]
