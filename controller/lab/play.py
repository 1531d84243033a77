"""`tablectl play FILE.json`: one stacked-shoe scenario (docs/scenarios.md) played through the
game's own machine, its outcome printed as JSON."""

import json

from controller.cli_args import EXIT_OK
from controller.errors import TablectlError


def cmd_play(args, out):
    from controller.lab import scenario
    try:
        result = scenario.play(scenario.load(args.file))
    except TablectlError as e:
        raise TablectlError("%s: %s" % (args.file, e))
    json.dump(result, out, indent=1)
    out.write("\n")
    return EXIT_OK


def add_parser(sub):
    play = sub.add_parser("play", help="play one stacked-shoe scenario (JSON) and print "
                          "the outcome; exit 2 for an invalid scenario")
    play.add_argument("file", metavar="FILE.json")
    play.set_defaults(func=cmd_play)
    return play
