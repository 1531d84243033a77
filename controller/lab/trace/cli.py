"""`tablectl trace`: the traceability matrix, written to docs/traceability.md or as JSON."""

import json
import os
import sys

from controller.lab.trace import matrix as mx


def cmd_trace(args, out):
    m = mx.build(regs_dir=args.regs)
    if args.json:
        json.dump(mx.to_json(m), out, indent=1)
        out.write("\n")
    elif not args.check:
        path = args.out or os.path.join(mx.repo_root(), "docs", "traceability.md")
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(mx.to_markdown(m))
        except OSError as e:
            sys.stderr.write("tablectl trace: %s: cannot write (%s)\n" % (path, e.strerror))
            return 2
        s = mx.summary(m)
        out.write("tablectl trace: %s: %d subsections (%s)\n"
                  % (path, s["subsections"], ", ".join("%d %s" % (n, c) for c, n in
                                                       sorted(s["by_class"].items()))))
    for p in m["problems"]:
        sys.stderr.write("tablectl trace: %s\n" % p)
    return 1 if m["problems"] else 0


def add_parser(sub):
    p = sub.add_parser("trace", help="traceability matrix: every subsection of the texts, how "
                       "the firmware stands to it, its tests and modules")
    p.add_argument("--out", help="where to write the page (default docs/traceability.md)")
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument("--check", action="store_true",
                   help="only check: exit 1 naming each enforced subsection without a test and "
                        "each test naming a subsection the texts do not have")
    p.add_argument("--regs", help="folder of the regulation texts (default ../shared/regs "
                   "beside the repository, or $TABLECTL_REGS)")
    p.set_defaults(func=cmd_trace)
