"""`tablectl`: the command line of the table controller.

Every error a person sees is one line that starts with the verb (`tablectl play: FILE: ...`)
and exits 2 when the input or the usage was wrong; no traceback reaches a person (`main`
turns an unforeseen exception into one line too, exit 1, and $TABLECTL_DEBUG=1 shows the
traceback for a developer). Ctrl-C ends a command with "interrupted", exit 2: it was not done.
"""

import os
import sys

from controller.cli_args import EXIT_FAILED, EXIT_OK, EXIT_USAGE, Parser, UsageError, version
from controller.errors import TablectlError


# Every verb, in the order `tablectl --help` lists them: (verb, module, wing). Each module has
# `add_parser(sub)` and sets its own `func`. The firmware names the lab's and the floor's
# verbs by dotted name only (pyserial's URL handlers, gpiozero's pin factories): a table
# installed without those wings (deploy/install.sh) has no such module, and its verb answers
# with one line saying which extra brings it.
VERBS = (
    ("par", "controller.lab.par.cli", "lab"),
    ("play", "controller.lab.play", "lab"),
    ("diagram", "controller.lab.diagram", "lab"),
    ("strategy", "controller.lab.par.strategy", "lab"),
    ("sim", "controller.lab.sim", "lab"),
    ("soak", "controller.lab.soak", "lab"),
    ("run", "controller.run", "firmware"),
    ("config", "controller.cli_config", "firmware"),
    ("journal", "controller.journal.cli", "firmware"),
    ("passwd", "controller.cli_passwd", "firmware"),
    ("signing-key", "controller.cli_signing_key", "firmware"),
    ("manifest", "controller.cli_manifest", "firmware"),
    ("floor", "controller.floor.cli", "floor"),
    ("top", "controller.top", "firmware"),
    ("trace", "controller.lab.trace.cli", "lab"),
    ("completion, manpage, udev-rules", "controller.lab.cli_docs", "lab"),
)
WING_EXTRAS = {"lab": "the lab's tools are not installed on this machine (a workstation: "
                      "pip install 'tablectl[lab]')",
               "floor": "the floor server is not installed on this machine (the floor's "
                        "server: pip install 'tablectl[floor]')"}


def build_parser():
    import importlib
    ap = Parser(prog="tablectl", description="Table controller for Pennsylvania table games.")
    ap.add_argument("--version", action="version", version="tablectl %s" % version())
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    ap.absent = {}                      # verb -> the wing that brings it, not installed here
    for names, module, wing in VERBS:
        try:
            part = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if wing == "firmware" or not (e.name or "").startswith("controller." + wing):
                raise
            for name in names.split(", "):      # listed, and answered in main()
                sub.add_parser(name, help="(not installed here)", add_help=False)
                ap.absent[name] = wing
            continue
        if module == "controller.lab.cli_docs":
            part.add_parser(sub, ap)
        else:
            part.add_parser(sub)
    return ap


def verb(args):
    """"tablectl journal show", "tablectl play": what every error line starts with."""
    words = ["tablectl"]
    for attr in ("command", "journal_command"):
        word = getattr(args, attr, None)
        if word:
            words.append(word)
    return " ".join(words)


def one_line(text):
    return " ".join(str(text).split()) or "error"


def main(argv=None):
    parser = build_parser()
    words = sys.argv[1:] if argv is None else argv
    if words and words[0] in parser.absent:     # whatever follows: one line, exit 2
        sys.stderr.write("tablectl %s: %s\n" % (words[0], WING_EXTRAS[parser.absent[words[0]]]))
        return EXIT_USAGE
    try:
        args = parser.parse_args(argv)
    except KeyboardInterrupt:
        sys.stderr.write("tablectl: interrupted\n")
        return EXIT_USAGE
    if getattr(args, "func", None) is None:          # bare `tablectl`: what it can do
        parser.print_help(sys.stdout)
        return EXIT_USAGE
    name = verb(args)
    try:
        try:
            return args.func(args, sys.stdout)
        finally:
            from controller.human import end_progress_lines
            end_progress_lines()
    except TablectlError as e:
        message = one_line(e)
        if not message.startswith(name + ":"):
            message = "%s: %s" % (name, message)
        sys.stderr.write(message + "\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("%s: interrupted\n" % name)
        return EXIT_USAGE
    except BrokenPipeError:
        # the reader went away (`tablectl journal show ... | head`): not an error of ours;
        # stdout is pointed at /dev/null so the interpreter's last flush raises nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as e:
        where = " %s" % e.filename if getattr(e, "filename", None) else ""
        sys.stderr.write("%s:%s %s\n" % (name, where, one_line(e.strerror or e)))
        return EXIT_USAGE
    except Exception as e:                  # noqa: BLE001 - no traceback reaches a person
        if os.environ.get("TABLECTL_DEBUG"):
            raise
        sys.stderr.write("%s: internal error: %s: %s (TABLECTL_DEBUG=1 shows where)\n"
                         % (name, type(e).__name__, one_line(e)))
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
