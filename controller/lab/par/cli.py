"""`tablectl par`: the par sheets printed, as JSON, or as the lab report (HTML), with the
linked-meter pricing of `--link-tables`. The sums are the sheets' own (registry.py); this module
only asks for them and prints them."""

import json
import os
import sys

from controller.cli_args import EXIT_OK, UsageError
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
            if j.get("meter_share"):
                out.write("  plus %.8f of the meter per unit wagered (meter-share payouts)\n"
                          % j["meter_share"])
            _print_method(j, out)
            if j.get("double_attack_on"):
                out.write("  Double Attack Wager placed against %s up\n"
                          % ", ".join(j["double_attack_on"]))
            if "house_edge_optimal_total_dependent" in j:
                out.write("  the optimal total-dependent strategy: house edge %s (the chart "
                          "with these cells corrected: %s)\n"
                          % (_pct(j["house_edge_optimal_total_dependent"]),
                             "; ".join(j["chart_cells_losing"])))
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
    from controller.lab.par.sheet import counted_method
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
    from controller.lab.par import registry, spread
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
                from controller.lab.par import report
                wagers = [report.wager_json(s) for s in sheets]
                if link:
                    for s, j in zip(_link_priced(game, sheets), wagers):
                        if _meter_priced(s):
                            j["linked"] = _linked(s, game, link)
                docs.append({"game": game, "wagers": wagers})
            else:
                _print_sheet(game, sheets, out)
                if link:
                    _print_linked(game, sheets, link, out)
    readings = None
    if html or args.json:
        from controller.lab.par import report
        readings = report.readings_table(compute=getattr(args, "readings", False))
    if html:
        try:
            report.write(html, computed, config=config, readings=readings)
        except OSError as e:
            raise TablectlError("cannot write the report %s: %s" % (html, e.strerror or e))
        out.write("wrote %s\n" % html)
        return EXIT_OK
    if args.json:
        doc = {"games": docs} if args.all else docs[0]
        # the lab report's own fields, as the HTML report carries them
        doc["report"] = report.report_json(computed, report.software(), config, readings)
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
        from controller.wire.links import parse_rate
        try:
            rate = parse_rate(args.link_rate)
        except ConfigError as e:
            raise UsageError("--link-%s" % e)
    if args.link_reset is not None and args.link_reset < 1:
        raise UsageError("--link-reset %d: whole cents > 0" % args.link_reset)
    if args.hands_per_hour < 1:
        raise UsageError("--hands-per-hour %d: one or more" % args.hands_per_hour)
    from controller.wire.links import LINKABLE
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

    from controller.lab.par.linked import linked
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
    from controller.lab.par.linked import text
    priced = [s for s in _link_priced(game, sheets) if _meter_priced(s)]
    if not priced:
        out.write("linked: %s has no meter-share wager priced here (a strategy-dependent "
                  "progressive is listed above)\n\n" % game)
        return
    for s in priced:
        out.write("%s on a linked meter\n" % s.wager)
        out.write(text(_linked(s, game, link)) + "\n")


def add_parser(sub):
    par = sub.add_parser("par", help="exact par sheet (theoretical hold) of a game's wagers")
    par.add_argument("game", nargs="?", help="game name, e.g. raise-it-up-stud")
    par.add_argument("--all", action="store_true", help="every game (no game named)")
    par.add_argument("--json", action="store_true", help="machine-readable output")
    par.add_argument("--config", metavar="TABLE.toml",
                     help="price the table as this configuration sets it up (its game, "
                          "options and paytables)")
    par.add_argument("--html", metavar="FILE", help="write the lab report (HTML, inline SVG "
                     "charts, software version and manifest signature) to FILE")
    par.add_argument("--readings", action="store_true", help="with --html or --json: "
                     "compute the hold under each reading of docs/interpretations.md for the "
                     "report's readings table (about two minutes)")
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
    return par
