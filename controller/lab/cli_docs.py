"""Bash completion and the man page, generated from the argument parser itself; the udev
rules, from the devices' registrations (controller/device_registry.py).

`tablectl completion` prints a bash completion script and `tablectl manpage` a man page in
roff (man(7)); their output is shipped as deploy/tablectl.bash-completion and
deploy/tablectl.1 (regenerate: `tablectl completion > deploy/tablectl.bash-completion`,
`tablectl manpage > deploy/tablectl.1`), which deploy/install.sh installs. Both walk the argparse parser (its
subcommands, options and choices), so they cannot fall out of step with the command line
and need no third-party tool. `tablectl udev-rules > deploy/99-tablectl.rules` writes one
line per registered serial device (its `udev` name) and the console's.
"""

import argparse
import functools
import os

from controller import cli_args

# The shipped copies install.sh installs (a test keeps them equal to what the parser gives)
DEPLOY = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "deploy")
COMPLETION_FILE = os.path.join(DEPLOY, "tablectl.bash-completion")
MAN_FILE = os.path.join(DEPLOY, "tablectl.1")
UDEV_FILE = os.path.join(DEPLOY, "99-tablectl.rules")

UDEV_HEADER = """\
# tablectl: stable names for the table's serial devices, /dev/tablectl/<name>.
# Installed by deploy/install.sh as /etc/udev/rules.d/99-tablectl.rules (only when absent:
# once edited it holds this table's serial numbers, and a reinstall keeps it).
# Generated from each device kind's registration: tablectl udev-rules > deploy/99-tablectl.rules
#
# /dev/ttyUSB0, /dev/ttyUSB1... are numbered in the order the adapters enumerate, which
# changes from one boot to the next; a shoe's frames sent to the shuffler's port is a
# malfunction. These rules name each port by its USB adapter instead.
#
# PLACEHOLDERS -- edit every line before use:
#   VVVV  the adapter's USB vendor id   (4 hex digits, e.g. 0403 for FTDI)
#   PPPP  the adapter's USB product id  (4 hex digits, e.g. 6001)
#   *_SERIAL  the adapter's USB serial number
# Read them with the device plugged in:  udevadm info --attribute-walk --name=/dev/ttyUSB0
# (the idVendor, idProduct and serial of the first parent that has them), or lsusb -v.
# An unedited line never matches: VVVV is not a USB id. Adapters without a serial number
# cannot be told apart this way; use ENV{ID_PATH}=="..." (the USB port) instead.
# Apply after editing:  udevadm control --reload && udevadm trigger --subsystem-match=tty
#
# The group and mode are those the unit's SupplementaryGroups=dialout relies on; the
# systemd tag gives each a device unit (dev-tablectl-card_reader.device) for diagnostics.

"""
UDEV_LINE = ('SUBSYSTEM=="tty", ATTRS{idVendor}=="VVVV", ATTRS{idProduct}=="PPPP", '
             'ATTRS{serial}=="%s_SERIAL", SYMLINK+="tablectl/%s", GROUP="dialout", '
             'MODE="0660", TAG+="systemd"\n')


def udev_rules():
    """deploy/99-tablectl.rules: a line per registered serial device, then the console's."""
    from controller import device_registry
    names = [d.udev for d in device_registry.DEVICES if d.udev]
    return (UDEV_HEADER + "".join(UDEV_LINE % (n.upper(), n) for n in names)
            + "# The technician's serial console, on an adapter of its own.\n"
            + UDEV_LINE % ("CONSOLE", "console"))


def _subparsers(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def commands(parser, path=()):
    """[(words, parser)] for the parser and every subcommand under it, depth first."""
    out = [(path, parser)]
    sub = _subparsers(parser)
    if sub is not None:
        for name, child in sub.choices.items():
            out.extend(commands(child, path + (name,)))
    return out


def _help_of(parser, name):
    sub = _subparsers(parser)
    for choice in (sub._choices_actions if sub else ()):
        if choice.dest == name:
            return choice.help or ""
    return ""


def options(parser):
    """[(option strings, action)] of a parser, --help included."""
    return [(a.option_strings, a) for a in parser._actions if a.option_strings]


def positional_choices(parser):
    out = []
    for a in parser._actions:
        if not a.option_strings and not isinstance(a, argparse._SubParsersAction) \
                and a.choices:
            out.extend(str(c) for c in a.choices)
    return out


# ---- bash completion -----------------------------------------------------------------------

def bash_completion(parser):
    """A bash script: `complete -F _tablectl tablectl`, words by the command typed so far."""
    cases = []
    for words, p in commands(parser):
        sub = _subparsers(p)
        nexts = list(sub.choices) if sub else []
        opts = [o for strings, _ in options(p) for o in strings]
        takes_value = [o for strings, a in options(p) for o in strings if a.nargs != 0]
        files = [o for o in takes_value]
        cases.append("        %s) words=%s; valued=%s;;"
                     % ("'%s'" % " ".join(words) if words else "''",
                        _q(" ".join(nexts + positional_choices(p) + opts)), _q(" ".join(files))))
    commands_known = " ".join(sorted({w for words, _ in commands(parser) for w in words}))
    return """# bash completion for tablectl, generated from its argument parser
# (tablectl completion > /usr/share/bash-completion/completions/tablectl)
_tablectl() {
    local cur prev path="" w words valued i
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        case " %s " in *" $w "*) path="${path:+$path }$w";; esac
    done
    case "$path" in
%s
        *) words=""; valued="";;
    esac
    case " $valued " in
        *" $prev "*) COMPREPLY=($(compgen -f -- "$cur")); return;;
    esac
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _tablectl tablectl
""" % (commands_known, "\n".join(cases))


def _q(text):
    return "'%s'" % text.replace("'", "'\\''")


# ---- man page ------------------------------------------------------------------------------

def _roff(text):
    text = (text or "").replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + line) if line.startswith((".", "'")) else line
                     for line in text.splitlines())


def manpage(parser, version=""):
    """tablectl(1) in roff: NAME, SYNOPSIS, one subsection per command with its options,
    EXIT STATUS, FILES. No date in it: the same parser gives the same page (the shipped
    deploy/tablectl.1 is compared with it by a test)."""
    lines = ['.TH TABLECTL 1 "" "tablectl %s" "User Commands"' % version,
             ".SH NAME", "tablectl \\- " + _roff(parser.description or "table controller"),
             ".SH SYNOPSIS", ".B tablectl", "[\\-\\-version] [\\-\\-help]",
             ".I COMMAND", "[options]", ".SH COMMANDS"]
    for words, p in commands(parser)[1:]:
        if _subparsers(p) is not None:
            continue
        parent = parser
        for w in words[:-1]:
            parent = _subparsers(parent).choices[w]
        usage = p.format_usage().replace("usage: ", "").strip()
        lines += [".SS " + _roff(" ".join(words)), ".B " + _roff(" ".join(usage.split())),
                  ".PP", _roff(_help_of(parent, words[-1]))]
        for strings, a in options(p):
            if "--help" in strings:
                continue
            metavar = "" if a.nargs == 0 else " " + (a.metavar or a.dest.upper())
            lines += [".TP", ".B " + _roff(", ".join(strings) + metavar),
                      _roff((a.help or "") % {"default": a.default}
                            if a.help and "%(" in a.help else (a.help or ""))]
    lines += [".SH EXIT STATUS", ".TP", ".B 0", "done", ".TP", ".B 1",
              "the check failed (a journal or manifest that does not verify, PINs that differ)",
              ".TP", ".B 2", "bad input or usage, or interrupted; one line on standard error "
              "names what was wrong, starting with the command",
              ".SH FILES", ".TP", ".I /etc/tablectl/table.toml", "the table's configuration",
              ".TP", ".I /etc/tablectl/console\\-pins.json", "the console's role PINs",
              ".TP", ".I /var/lib/tablectl/", "the journal",
              ".SH SEE ALSO", "docs/deploy.md, docs/console.md, docs/journal.md"]
    return "\n".join(lines) + "\n"


def cmd_completion(parser, args, out):
    out.write(bash_completion(parser))
    return 0


def cmd_manpage(parser, args, out):
    out.write(manpage(parser, cli_args.version()))
    return 0


def cmd_udev_rules(args, out):
    out.write(udev_rules())
    return 0


def add_parser(sub, parser):
    """`completion` and `manpage` under `sub`, each walking `parser`: the whole command line
    they belong to, handed in by the one who builds it (controller/cli.py), so that this
    module needs nothing of the command line's and cli.py can import it; `udev-rules`."""
    c = sub.add_parser("completion", help="print the bash completion script (install.sh puts "
                       "it in /usr/share/bash-completion/completions/tablectl)")
    c.set_defaults(func=functools.partial(cmd_completion, parser))
    m = sub.add_parser("manpage", help="print the man page tablectl(1) in roff (install.sh "
                       "puts it in /usr/local/share/man/man1/tablectl.1)")
    m.set_defaults(func=functools.partial(cmd_manpage, parser))
    u = sub.add_parser("udev-rules", help="print the udev rules naming each registered serial "
                       "device's port (deploy/99-tablectl.rules, which install.sh installs)")
    u.set_defaults(func=cmd_udev_rules)
    return c, m, u
