"""A pytest plugin that lists every collected test with the sections its `reg` markers name.

`tablectl trace` runs ``pytest --collect-only -p controller.lab.trace.collect`` in a subprocess:
markers are often attached at collection time (a scenario's section comes from its
.expect.json), so only pytest's own collection sees all of them. The list is written to the
file named by $TABLECTL_TRACE_OUT as JSON: [[nodeid, [section, ...]], ...].
"""

import json
import os


def pytest_collection_finish(session):
    out = os.environ.get("TABLECTL_TRACE_OUT")
    if not out:
        return
    rows = []
    for item in session.items:
        secs = []
        for mark in item.iter_markers("reg"):
            secs.extend(str(a) for a in mark.args)
        if secs:
            rows.append([item.nodeid, sorted(set(secs))])
    with open(out, "w", encoding="utf-8") as f:
        json.dump(rows, f)
