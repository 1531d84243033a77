"""`tablectl`: the command line of the table controller."""

import argparse
import json
import os
import sys

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
            for key in ("note", "method", "precision"):
                out.write("  %s: %s\n" % (key, j[key]))
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
        if j.get("note"):
            out.write("  note: %s\n" % j["note"])
        width = max(len(o["hand"]) for o in j["outcomes"])
        for o in j["outcomes"]:
            p = o["count"] / j["combinations"]
            out.write("  %-*s %14s  %.10f  %s\n" % (width, o["hand"], format(o["count"], ","),
                                                    p, o["pays"]))
    out.write("\n")


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
    out.write("  method: %s\n" % j["method"])
    if j.get("note"):
        out.write("  note: %s\n" % j["note"])
    rows = j.get("outcomes", [])
    if rows:
        wd = max(len(o["decision"]) for o in rows)
        wh = max(len(o["hand"]) for o in rows)
        for o in rows:
            out.write("  %-*s %-*s %16s  %.10f  net %s\n"
                      % (wd, o["decision"], wh, o["hand"], format(o["count"], ","),
                         o["count"] / j["combinations"], o["net"]))


def cmd_par(args, out):
    from controller.par import registry
    config = None
    if getattr(args, "config", None):
        from controller import config as configuration
        from controller.games import model_class
        try:
            config = configuration.load(args.config, model_class)
        except TablectlError as e:
            sys.stderr.write("tablectl par: %s\n" % str(e).replace("\n", " "))
            return 2
        if args.game is None and not args.all:
            args.game = config["game"]
        if args.all or args.game != config["game"]:
            sys.stderr.write("tablectl par: %s configures a %s table, not %s\n"
                             % (args.config, config["game"], "every game" if args.all
                                else args.game))
            return 2
    games = list(registry.GAMES) if args.all else [args.game]
    if not args.all and args.game is None:
        raise SystemExit("tablectl par: name a game (%s) or give --all" % ", ".join(registry.GAMES))
    if getattr(args, "html", None):
        folder = os.path.dirname(os.path.abspath(args.html))
        if not os.path.isdir(folder):
            sys.stderr.write("tablectl par: cannot write the report %s: no folder %s\n"
                             % (args.html, folder))
            return 2
    docs = []
    computed = []
    for game in games:
        try:
            sheets = registry.sheets(game, config) if config else registry.sheets(game)
        except KeyError:
            sys.stderr.write("tablectl par: unknown game %r; one of: %s\n"
                             % (game, ", ".join(registry.GAMES)))
            return 2
        computed.append((game, sheets))
        if getattr(args, "html", None):
            continue
        if args.json:
            docs.append({"game": game, "wagers": [s.to_json() for s in sheets]})
        else:
            _print_sheet(game, sheets, out)
    if getattr(args, "html", None):
        from controller.par import report
        try:
            report.write(args.html, computed)
        except OSError as e:
            sys.stderr.write("tablectl par: cannot write the report %s: %s\n"
                             % (args.html, e.strerror or e))
            return 2
        out.write("wrote %s\n" % args.html)
        return 0
    if args.json:
        doc = {"games": docs} if args.all else docs[0]
        json.dump(doc, out, indent=1)
        out.write("\n")
    return 0


def cmd_play(args, out):
    from controller import scenario
    try:
        result = scenario.play(scenario.load(args.file))
    except TablectlError as e:
        sys.stderr.write("%s\n" % str(e).replace("\n", " "))
        return 2
    json.dump(result, out, indent=1)
    out.write("\n")
    return 0


def cmd_diagram(args, out):
    import os

    from controller.games import GAMES, model_class
    from controller.games.engine import mermaid
    games = sorted(GAMES) if args.game is None else [args.game]
    for game in games:
        text = diagram_markdown(game, mermaid(model_class(game)))
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            path = os.path.join(args.out, game + ".md")
            with open(path, "w") as f:
                f.write(text)
            out.write("wrote %s\n" % path)
        else:
            out.write(text)
    return 0


def diagram_markdown(game, chart):
    return ("# %s: state machine\n\nDrawn by `tablectl diagram --out docs/machines` from the "
            "machine's own definition; do not edit by hand.\n\n```mermaid\n%s\n```\n"
            % (game, chart.strip()))


def build_parser():
    ap = argparse.ArgumentParser(prog="tablectl", description="Table controller for "
                                 "Pennsylvania table games.")
    sub = ap.add_subparsers(dest="command", required=True)
    par = sub.add_parser("par", help="exact par sheet (theoretical hold) of a game's wagers")
    par.add_argument("game", nargs="?", help="game name, e.g. raise-it-up-stud")
    par.add_argument("--all", action="store_true", help="every game")
    par.add_argument("--json", action="store_true", help="machine-readable output")
    par.add_argument("--html", metavar="FILE", help="write the lab report (HTML, inline SVG "
                     "charts, software version and manifest signature) to FILE")
    par.add_argument("--config", metavar="TABLE.toml",
                     help="price the table as this configuration sets it up (its game, "
                          "options and paytables)")
    par.set_defaults(func=cmd_par)
    play = sub.add_parser("play", help="play one stacked-shoe scenario (JSON) and print "
                          "the outcome; exit 2 for an invalid scenario")
    play.add_argument("file")
    play.set_defaults(func=cmd_play)
    dia = sub.add_parser("diagram", help="draw each game's state machine (Mermaid)")
    dia.add_argument("game", nargs="?")
    dia.add_argument("--out", help="folder to write GAME.md files into (docs/machines)")
    dia.set_defaults(func=cmd_diagram)
    from controller.par.strategy import add_parser as add_strategy_parser
    add_strategy_parser(sub)
    from controller.sim import add_parser as add_sim_parser
    add_sim_parser(sub)
    from controller.run import add_parser as add_run_parser
    add_run_parser(sub)
    from controller.journal.cli import add_parser as add_journal_parser
    add_journal_parser(sub)
    from controller.console.auth import add_parser as add_passwd_parser
    add_passwd_parser(sub)
    from controller.top import add_parser as add_top_parser
    add_top_parser(sub)
    from controller.trace.cli import add_parser as add_trace_parser
    add_trace_parser(sub)
    return ap


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.func(args, sys.stdout)
    except TablectlError as e:
        sys.stderr.write("tablectl: %s\n" % e)
        return 2
    except BrokenPipeError:
        # the reader went away (`tablectl journal show ... | head`): not an error of ours;
        # stdout is pointed at /dev/null so the interpreter's last flush raises nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
