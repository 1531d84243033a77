"""`tablectl`: the command line of the table controller.

Every error a person sees is one line that starts with the verb (`tablectl play: FILE: ...`)
and exits 2 when the input or the usage was wrong; no traceback reaches a person (`main`
turns an unforeseen exception into one line too, exit 1, and $TABLECTL_DEBUG=1 shows the
traceback for a developer). Ctrl-C ends a command with "interrupted", exit 2: it was not done.
"""

import json
import os
import sys

from controller.cli_args import EXIT_FAILED, EXIT_OK, EXIT_USAGE, Parser, UsageError, version
from controller.errors import TablectlError

def _pct(fraction):
    return "%.4f%%" % (100 * float(fraction))


def _print_sheet(game, sheets, out):
    out.write("%s\n%s\n" % (game, "=" * len(game)))
    for s in sheets:
        j = s.to_json()
        title = j["wager"] + ("" if not j.get("paytable") else " (paytable %s)" % j["paytable"])
        out.write("\n%s  [%s]\n" % (title, j["section"]))
        if j.get("strategy_dependent"):
            out.write("  strategy-dependent: %s\n" % j["reason"])
            continue
        if j.get("strategy") is not None and "unit" in j:
            _print_strategy_sheet(s, j, out)          # Raise It Up, Flop Poker, Six-Card Fortune
            continue
        if j.get("strategy") is not None:
            out.write("  house edge %s under %s strategy (per unit of the %s)\n"
                      % (_pct(j["house_edge"]), j["strategy"], j["wagers"][0]))
            _print_method(j, out)
            if j.get("double_attack_on"):
                out.write("  Double Attack Wager placed against %s up\n"
                          % ", ".join(j["double_attack_on"]))
            continue
        if j.get("banked") is False:
            out.write("  no house edge: %s\n" % j["reason"])
            continue
        out.write("  house edge %s   (exact %s, over %s combinations)\n"
                  % (_pct(s.house_edge()), j["house_edge_exact"], format(j["combinations"], ",")))
        if j.get("meter_share"):
            out.write("  plus %.8f of the meter per unit wagered (meter-share payouts)\n"
                      % j["meter_share"])
        _print_method(j, out)
        width = max(len(o["hand"]) for o in j["outcomes"])
        for o in j["outcomes"]:
            p = o["count"] / j["combinations"]
            out.write("  %-*s %14s  %.10f  %s\n" % (width, o["hand"], format(o["count"], ","),
                                                    p, o["pays"]))
    out.write("\n")


def _print_method(j, out):
    """The sheet's note, method and precision as its JSON and the lab report give them, one
    line each: a lab reads how each figure was reached beside the figure. A counted sheet
    that names no method is the plain count, as the lab report says of it."""
    from controller.par.sheet import counted_method
    shown = dict(j)
    if not shown.get("method") and "combinations" in shown:
        shown["method"] = counted_method(shown["combinations"])
    for key in ("note", "method", "precision"):
        if shown.get(key):
            out.write("  %s: %s\n" % (key, shown[key]))


def _print_strategy_sheet(sheet, j, out):
    """A base game priced under a strategy: exact rows, or a simulated estimate."""
    out.write("  %s strategy, wagers %s, per unit of %s\n"
              % (j["strategy"], " + ".join(j["wagers"]), j["unit"]))
    if "ci95" in j:
        out.write("  house edge %s   (95%% CI %s to %s; simulated)\n"
                  % (_pct(j["house_edge"]), _pct(j["ci95"][0]), _pct(j["ci95"][1])))
    else:
        out.write("  house edge %s   (exact %s, over %s deals)\n"
                  % (_pct(sheet.house_edge()), j["house_edge_exact"],
                     format(j["combinations"], ",")))
    _print_method(j, out)
    rows = j.get("outcomes", [])
    if rows:
        wd = max(len(o["decision"]) for o in rows)
        wh = max(len(o["hand"]) for o in rows)
        for o in rows:
            out.write("  %-*s %-*s %16s  %.10f  net %s\n"
                      % (wd, o["decision"], wh, o["hand"], format(o["count"], ","),
                         o["count"] / j["combinations"], o["net"]))


def cmd_par(args, out):
    from controller.human import Progress
    from controller.par import registry, spread
    if args.all and args.game is not None:
        raise UsageError("give a game or --all, not both")
    config = None
    if getattr(args, "config", None):
        from controller import config as configuration
        from controller.games import model_class
        config = configuration.load(args.config, model_class)     # ConfigError: one line
        if args.game is None and not args.all:
            args.game = config["game"]
        if args.all or args.game != config["game"]:
            raise UsageError("%s configures a %s table, not %s"
                             % (args.config, config["game"], "every game" if args.all
                                else args.game))
    if not args.all and args.game is None:
        raise UsageError("name a game (%s) or give --all" % ", ".join(registry.GAMES))
    if not args.all and args.game not in registry.GAMES:
        raise UsageError("unknown game %r; one of: %s" % (args.game, ", ".join(registry.GAMES)))
    html = getattr(args, "html", None)
    if html and not os.path.isdir(os.path.dirname(os.path.abspath(html))):
        raise UsageError("cannot write the report %s: no folder %s"
                         % (html, os.path.dirname(os.path.abspath(html))))
    games = list(registry.GAMES) if args.all else [args.game]
    link = _link_par_args(args, games)
    jobs = getattr(args, "jobs", None)
    if jobs is not None and jobs < 1:
        raise UsageError("--jobs takes a whole number of at least 1, not %d" % jobs)
    docs = []
    computed = []
    with spread.pool(jobs), Progress(sys.stderr, tty=None if args.all else False) as progress:
        # the games that spread their own pieces (registry.spreads) are computed here, their
        # pieces queued behind the other games' sheets, each of which a worker computes whole
        progress.update("par --all: 1/%d %s" % (len(games), games[0]), force=True)
        spreading = [game for game in games if registry.spreads(game)]
        pending = {game: spread.submit(registry.sheets, game, config) for game in games
                   if game not in spreading}
        ready = {game: registry.sheets(game, config) for game in spreading}
        for i, game in enumerate(games, 1):
            progress.update("par --all: %d/%d %s" % (i, len(games), game), force=True)
            sheets = ready[game] if game in ready else pending[game].get()
            computed.append((game, sheets))
            if html:
                continue
            if args.json:
                wagers = [s.to_json() for s in sheets]
                if link:
                    for s, j in zip(_link_priced(game, sheets), wagers):
                        if _meter_priced(s):
                            j["linked"] = _linked(s, game, link)
                docs.append({"game": game, "wagers": wagers})
            else:
                _print_sheet(game, sheets, out)
                if link:
                    _print_linked(game, sheets, link, out)
    if html:
        from controller.par import report
        try:
            report.write(html, computed)
        except OSError as e:
            raise TablectlError("cannot write the report %s: %s" % (html, e.strerror or e))
        out.write("wrote %s\n" % html)
        return EXIT_OK
    if args.json:
        doc = {"games": docs} if args.all else docs[0]
        json.dump(doc, out, indent=1)
        out.write("\n")
    return EXIT_OK


def _link_par_args(args, games):
    """--link-tables N and its parameters, checked (UsageError: one line, exit 2)."""
    n = getattr(args, "link_tables", None)
    if n is None:
        for opt in ("link_wager", "link_reset", "link_rate"):
            if getattr(args, opt, None) is not None:
                raise UsageError("--%s goes with --link-tables N" % opt.replace("_", "-"))
        return None
    if n < 1:
        raise UsageError("--link-tables %d: one table or more" % n)
    if args.link_wager is not None and args.link_wager < 1:
        raise UsageError("--link-wager %d: whole cents > 0" % args.link_wager)
    rate = None
    if args.link_rate is not None:
        from controller.errors import ConfigError
        from controller.floor.links import parse_rate
        try:
            rate = parse_rate(args.link_rate)
        except ConfigError as e:
            raise UsageError("--link-%s" % e)
    if args.link_reset is not None and args.link_reset < 1:
        raise UsageError("--link-reset %d: whole cents > 0" % args.link_reset)
    if args.hands_per_hour < 1:
        raise UsageError("--hands-per-hour %d: one or more" % args.hands_per_hour)
    from controller.floor.links import LINKABLE
    from controller.rules import paytables as pt
    for game in games:                  # before any sheet is printed
        if game not in LINKABLE:
            continue
        mins = pt.PROGRESSIVE_MINIMUMS.get(game, {})
        if args.link_reset is None and mins.get("reset") is None:
            raise UsageError("%s: the texts set no reset amount: give --link-reset CENTS"
                             % game)
        if rate is None and mins.get("rate") is None:
            raise UsageError("%s: the texts set no rate of progression: give --link-rate R"
                             % game)
    return {"tables": n, "wager": args.link_wager or 100, "reset": args.link_reset,
            "rate": rate, "hands_per_hour": args.hands_per_hour}


def _meter_priced(sheet):
    if getattr(sheet, "linked_priced", False):
        return True
    return hasattr(sheet, "meter_share") and hasattr(sheet, "outcomes") and \
        bool(sheet.meter_share())


def _link_priced(game, sheets):
    """The sheets a linked par is stated for: Raise It Up's Progressive Payout Wager is
    strategy-dependent, priced for the link under the optimal base-game strategy
    (its declaration's linked_par); the others' own sheets."""
    from controller.games import declaration
    from controller.games.declarations import load
    linked = declaration(game).linked_par
    out = []
    for s in sheets:
        if linked is not None and getattr(s, "wager", None) == linked[0] and \
                not _meter_priced(s):
            s = load(linked[1])()
        out.append(s)
    return out


def _linked(sheet, game, link):
    from fractions import Fraction

    from controller.par.linked import linked
    from controller.rules import paytables as pt
    mins = pt.PROGRESSIVE_MINIMUMS.get(game, {})
    reset = link["reset"] if link["reset"] is not None else mins.get("reset")
    rate = link["rate"] if link["rate"] is not None else (
        Fraction(*mins["rate"]) if mins.get("rate") else None)
    if reset is None or rate is None:
        raise UsageError("%s %s: the texts set no %s: give --link-%s" % (
            game, sheet.wager, "reset amount" if reset is None else "rate of progression",
            "reset CENTS" if reset is None else "rate R"))
    return linked(sheet, link["tables"], link["wager"], reset, rate, link["hands_per_hour"])


def _print_linked(game, sheets, link, out):
    from controller.par.linked import text
    priced = [s for s in _link_priced(game, sheets) if _meter_priced(s)]
    if not priced:
        out.write("linked: %s has no meter-share wager priced here (a strategy-dependent "
                  "progressive is listed above)\n\n" % game)
        return
    for s in priced:
        out.write("%s on a linked meter\n" % s.wager)
        out.write(text(_linked(s, game, link)) + "\n")


def cmd_play(args, out):
    from controller import scenario
    try:
        result = scenario.play(scenario.load(args.file))
    except TablectlError as e:
        raise TablectlError("%s: %s" % (args.file, e))
    json.dump(result, out, indent=1)
    out.write("\n")
    return EXIT_OK


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


# The dependencies that decide outcomes (the game machines, the poker hands, what the devices
# say): their files and their versions (the dist-info folder's name) go into the manifest.
# distribution name -> import package
OUTCOME_DEPENDENCIES = {"transitions": "transitions", "pokerkit": "pokerkit",
                        "pyserial": "serial"}


def outcome_packages(root):
    """[(distribution, version, [top-level folders])] of OUTCOME_DEPENDENCIES installed under
    `root`; ManifestError naming one that is not (an editable install keeps tablectl
    outside site-packages: give --root the folder that holds all of them)."""
    import glob

    from controller.errors import ManifestError
    out = []
    for dist, package in OUTCOME_DEPENDENCIES.items():
        infos = sorted(glob.glob(os.path.join(root, "%s-*.dist-info" % dist)))
        if not os.path.isdir(os.path.join(root, package)) or not infos:
            raise ManifestError("%s (%s) is not installed under %s: the manifest holds the "
                                "software and the dependencies that decide outcomes "
                                "together; give --root the site-packages that holds them"
                                % (dist, package, root))
        info = os.path.basename(infos[-1])
        version = info[len(dist) + 1:-len(".dist-info")]
        out.append((dist, version, [package, info]))
    return out


def cmd_manifest(args, out):
    """`tablectl manifest [--check] [--out FILE] [--root DIR]`: the software manifest of
    controller/console/manifest.py (the file the console's `verify` checks), holding the
    project's files and those of transitions, pokerkit and pyserial with their versions."""
    from controller.console import manifest
    root = args.root or manifest.install_root()
    if args.check:
        r = manifest.verify(args.out, root)
        for what in ("changed", "missing", "unlisted"):
            for rel in getattr(r, what):
                out.write("%s: %s\n" % (what, rel))
        out.write("%s %d files, signature %s\n" % ("PASS" if r.ok else "FAIL", len(r.expected),
                                                    r.signature))
        return EXIT_OK if r.ok else EXIT_FAILED
    deps = outcome_packages(root)
    packages = manifest.PACKAGES + tuple(f for _, _, folders in deps for f in folders)
    path, sig = manifest.write(args.out, root, packages)
    out.write("wrote %s, signature %s\n" % (path, sig))
    out.write("with %s\n" % ", ".join("%s %s" % (d, v) for d, v, _ in deps))
    return EXIT_OK


def build_parser():
    ap = Parser(prog="tablectl", description="Table controller for Pennsylvania table games.")
    ap.add_argument("--version", action="version", version="tablectl %s" % version())
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    par = sub.add_parser("par", help="exact par sheet (theoretical hold) of a game's wagers")
    par.add_argument("game", nargs="?", help="game name, e.g. raise-it-up-stud")
    par.add_argument("--all", action="store_true", help="every game (no game named)")
    par.add_argument("--json", action="store_true", help="machine-readable output")
    par.add_argument("--config", metavar="TABLE.toml",
                     help="price the table as this configuration sets it up (its game, "
                          "options and paytables)")
    par.add_argument("--html", metavar="FILE", help="write the lab report (HTML, inline SVG "
                     "charts, software version and manifest signature) to FILE")
    par.add_argument("--link-tables", type=int, metavar="N", help="the progressive wager "
                     "on a meter linked over N tables: the fixed part of its hold and the part "
                     "that depends on the meter and N (1: the standalone meter)")
    par.add_argument("--link-wager", type=int, metavar="CENTS", help="with --link-tables: "
                     "the wager (default 100)")
    par.add_argument("--link-reset", type=int, metavar="CENTS", help="with --link-tables: "
                     "the reset amount (default the text's minimum)")
    par.add_argument("--link-rate", metavar="R", help="with --link-tables: the rate of "
                     "progression, 0.14, 14%% or 7/50 (default the text's minimum)")
    par.add_argument("--jobs", type=int, metavar="N", help="worker processes the sums are "
                     "spread over (default: the CPUs tablectl may run on; 1: none, all in "
                     "this process); the figures are the same integers either way")
    par.add_argument("--hands-per-hour", type=int, default=60, metavar="N",
                     help="with --link-tables: hands per hour per table (default 60)")
    par.set_defaults(func=cmd_par)
    play = sub.add_parser("play", help="play one stacked-shoe scenario (JSON) and print "
                          "the outcome; exit 2 for an invalid scenario")
    play.add_argument("file", metavar="FILE.json")
    play.set_defaults(func=cmd_play)
    dia = sub.add_parser("diagram", help="draw each game's state machine (Mermaid)")
    dia.add_argument("game", nargs="?")
    dia.add_argument("--out", metavar="DIR", help="folder to write GAME.md files into "
                     "(docs/machines)")
    dia.add_argument("--force", action="store_true", help="overwrite files in --out that are "
                     "not drawings of ours")
    dia.set_defaults(func=cmd_diagram)
    from controller.par.strategy import add_parser as add_strategy_parser
    add_strategy_parser(sub)
    from controller.sim import add_parser as add_sim_parser
    add_sim_parser(sub)
    from controller.run import add_parser as add_run_parser
    add_run_parser(sub)
    from controller.journal.cli import add_parser as add_journal_parser
    add_journal_parser(sub)
    from controller.cli_passwd import add_parser as add_passwd_parser
    add_passwd_parser(sub)
    man = sub.add_parser("manifest", help="write the software manifest (SHA-256 of every "
                         "installed file), or --check it")
    man.add_argument("--check", action="store_true", help="verify instead of writing; exit 1 "
                     "naming every changed, missing or unlisted file")
    man.add_argument("--out", metavar="FILE", help="the manifest (default $TABLECTL_MANIFEST "
                     "or ROOT/tablectl.manifest)")
    man.add_argument("--root", metavar="DIR", help="install root (default: where controller/ "
                     "is installed)")
    man.set_defaults(func=cmd_manifest)
    from controller.floor.cli import add_parser as add_floor_parser
    add_floor_parser(sub)
    from controller.top import add_parser as add_top_parser
    add_top_parser(sub)
    from controller.trace.cli import add_parser as add_trace_parser
    add_trace_parser(sub)
    from controller.cli_docs import add_parser as add_docs_parser
    add_docs_parser(sub, ap)
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
