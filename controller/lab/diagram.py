"""`tablectl diagram [GAME] [--out DIR]`: each game's state machine drawn in Mermaid from the
machine's own definition (docs/machines/)."""

import os

from controller.cli_args import EXIT_OK, UsageError
from controller.errors import TablectlError


def cmd_diagram(args, out):
    from controller.games import GAMES, model_class
    from controller.games.engine import mermaid
    if args.game is not None and args.game not in GAMES:
        raise UsageError("unknown game %r; one of: %s" % (args.game, ", ".join(sorted(GAMES))))
    games = sorted(GAMES) if args.game is None else [args.game]
    if args.out:
        _check_out_folder(args.out, [g + ".md" for g in games], args.force)
    for game in games:
        text = diagram_markdown(game, mermaid(model_class(game)))
        if args.out:
            path = os.path.join(args.out, game + ".md")
            try:
                with open(path, "w") as f:
                    f.write(text)
            except OSError as e:
                raise TablectlError("cannot write %s: %s" % (path, e.strerror))
            out.write("wrote %s\n" % path)
        else:
            out.write(text)
    return EXIT_OK


def _check_out_folder(folder, names, force):
    """Before anything is written: the folder can be made and written, and no file there is
    overwritten unless it is a drawing of ours (or --force)."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise TablectlError("--out %s: exists and is not a folder" % folder)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise TablectlError("--out %s: cannot make the folder: %s" % (folder, e.strerror))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise TablectlError("--out %s: the folder is not writable" % folder)
    for name in names:
        path = os.path.join(folder, name)
        if os.path.lexists(path) and not force and not _is_our_drawing(path):
            raise TablectlError("%s exists and is not a drawing by `tablectl diagram`; "
                                "give --force to overwrite it" % path)


def _is_our_drawing(path):
    try:
        with open(path, encoding="utf-8") as f:
            head = f.read(400)
    except (OSError, UnicodeDecodeError):
        return False
    return "Drawn by `tablectl diagram" in head


def diagram_markdown(game, chart):
    return ("# %s: state machine\n\nDrawn by `tablectl diagram --out docs/machines` from the "
            "machine's own definition; do not edit by hand.\n\n```mermaid\n%s\n```\n"
            % (game, chart.strip()))


def add_parser(sub):
    dia = sub.add_parser("diagram", help="draw each game's state machine (Mermaid)")
    dia.add_argument("game", nargs="?")
    dia.add_argument("--out", metavar="DIR", help="folder to write GAME.md files into "
                     "(docs/machines)")
    dia.add_argument("--force", action="store_true", help="overwrite files in --out that are "
                     "not drawings of ours")
    dia.set_defaults(func=cmd_diagram)
    return dia
