"""The lab report: every game's par sheet as one self-contained HTML file
(`tablectl par --all --html FILE`).

Per game and wager: the hands, their combinations, probabilities, payouts, each
row's contribution to the return and the hold, with the method and the section
of the paytable; the software's version and manifest signature at the top, so the
figures are tied to the code that computed them; and a bar chart of each wager's
return by hand as inline SVG (no script, no network: a lab files it as it is).
"""

import html
from fractions import Fraction

from controller.lab.par.sheet import LOSES, StrategyPar, WagerPar, counted_method

_CSS = """
body{font-family:sans-serif;margin:2em;color:#111}
table{border-collapse:collapse;margin:.5em 0 1em}
td,th{border:1px solid #999;padding:2px 6px;text-align:right}
td.h,th.h{text-align:left}
h2{border-bottom:2px solid #333;margin-top:2em}
.meta td{text-align:left}
svg{display:block;margin-bottom:1em}
"""


def firmware_signature():
    """The signature a table with this software shows (`tablectl manifest`, the console's
    `show version`): the firmware wing and the dependencies that decide outcomes
    (controller/console/manifest.py); "unavailable: why" where this build cannot sign itself
    (a dependency that is not installed), never a made-up figure."""
    from controller.console import manifest
    try:
        return manifest.firmware_signature()
    except Exception as e:                  # noqa: BLE001 - the report says why, in its place
        return "unavailable: %s" % " ".join(str(e).split())


def software(clock=None):
    """{'version', 'manifest', 'firmware', 'date'}: the installed version, what the installed
    manifest says, the firmware's signature (what `tablectl manifest` gives) and the date the report was computed (local time with its offset;
    `clock` returns wall ns, injected)."""
    import time
    from controller.console import manifest
    from controller.human import wall_iso
    try:
        from importlib.metadata import version
        ver = version("tablectl")
    except Exception:                       # not installed as a distribution
        ver = "unknown (not installed)"
    path = manifest.default_path()
    try:
        res = manifest.verify(path)
        state = "%s: signature %s, %s" % (path, res.expected_signature,
                                         "matches the files" if res.ok else
                                         "DOES NOT match the files (%d changed, %d missing, "
                                         "%d unlisted)" % (len(res.changed), len(res.missing),
                                                           len(res.unlisted)))
    except Exception as e:                  # no manifest written at installation
        state = "none: %s" % e
    return {"version": ver, "manifest": state,
            "firmware": firmware_signature(), "date": wall_iso((clock or time.time_ns)())}


def _sha256_json(doc):
    import hashlib
    import json
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":"),
                                     default=str).encode()).hexdigest()


def configuration_hash(game, config=None):
    """SHA-256 of the configuration the sheets were priced on: the table's (`--config`) or the
    game's defaults, as canonical JSON (the same configuration gives the same hash)."""
    if config is None:
        from controller.games import model_class
        config = dict(model_class(game).DEFAULTS, game=game)
    return _sha256_json(config)


def paytable_hash(sheets):
    """SHA-256 of the paytables as priced: each sheet's wager, paytable letter, section and
    (hand, payout) rows, in the sheets' order (a changed payout changes it)."""
    doc = []
    for sheet in sheets:
        j = sheet.to_json()
        doc.append([j.get("wager"), j.get("paytable"), j.get("section"),
                    [[o.get("hand"), o.get("pays", o.get("net"))]
                     for o in j.get("outcomes", [])]])
    return _sha256_json(doc)


def spread(sheet):
    """(standard deviation of the net per unit wagered, hit frequency) from the sheet's rows
    by hand, exact fractions summed then rooted; None when the sheet has no rows (its method
    sums expectations only). A meter-share row counts as the loss the hold counts it as."""
    simulated = getattr(sheet, "simulated_spread", None)
    if callable(simulated):
        est = simulated()
        return est["sd"], est["hit"]
    rows = _rows(sheet)
    if not rows:
        return None
    total = sum((r[2] for r in rows), Fraction(0))
    mean = sum((r[2] * r[4] for r in rows), Fraction(0)) / total
    square = sum((r[2] * r[4] * r[4] for r in rows), Fraction(0)) / total
    hit = sum((r[2] for r in rows if r[4] > 0), Fraction(0)) / total
    return float(square - mean * mean) ** 0.5, hit


NO_SPREAD = "not computed: the method sums expectations, with no rows by hand"


def wager_json(sheet):
    """A sheet's JSON with its standard deviation and hit frequency per unit wagered (the
    same figures the HTML report prints)."""
    j = sheet.to_json()
    if "reason" in j:
        return j
    sp = spread(sheet)
    if sp is None:
        j["standard_deviation"] = j["hit_frequency"] = NO_SPREAD
    else:
        j["standard_deviation"] = round(sp[0], 7)
        j["hit_frequency"] = round(float(sp[1]), 7)
    note = spread_note(sheet)
    if note:
        j["spread_method"] = note
    return j


def spread_note(sheet):
    """How the standard deviation and hit frequency were reached, where not from exact rows:
    simulated rounds, with their intervals."""
    simulated = getattr(sheet, "simulated_spread", None)
    if callable(simulated):
        e = simulated()
        return ("simulated: %s rounds dealt in table order from a full shoe by the printed "
                "chart (controller/lab/par/blackjack_simulated.py, random.Random seed %d); 95%% "
                "intervals: standard deviation %.4f to %.4f, hit frequency %s to %s; the "
                "simulated hold %s (95%% %s to %s) against the exact %s"
                % (format(e["rounds"], ","), e["seed"], e["sd_ci95"][0], e["sd_ci95"][1],
                   _pct(e["hit_ci95"][0]), _pct(e["hit_ci95"][1]), _pct(-e["mean"]),
                   _pct(-e["mean_ci95"][1]), _pct(-e["mean_ci95"][0]),
                   _pct(sheet.house_edge())))
    if isinstance(sheet, StrategyPar) and not sheet.exact:
        return "over the simulated rounds"
    return None


def readings_table(compute=False):
    """[{'key', 'reading', 'as_read', 'otherwise', 'figures'}] of docs/interpretations.md's
    readings that move money. Their holds take about two minutes (simulations among them):
    with `compute` each reading's line is computed here; without, `figures` says so."""
    from controller.lab.par import readings
    out = []
    for r in readings.READINGS:
        out.append({"key": r.key, "reading": r.title, "wager": r.wager, "as_read": r.taken,
                    "otherwise": r.alternative,
                    "figures": r.line() if compute else
                    "priced in docs/interpretations.md; `tablectl par --all --html FILE "
                    "--readings` computes them here (about two minutes)"})
    return out


def report_json(games, info, config=None, readings=None):
    """The report's own fields, the same in `--json` as in the HTML: date, software, firmware
    signature, per game the configuration and paytable hashes, and the readings table."""
    return {"date": info["date"], "version": info["version"],
            "manifest": info["manifest"],
            "firmware_signature": info["firmware"],
            "games": [{"game": g, "configuration_hash": configuration_hash(g, config),
                       "paytable_hash": paytable_hash(sheets)} for g, sheets in games],
            "readings": readings if readings is not None else readings_table()}


def _e(x):
    return html.escape(str(x))


def _pct(x):
    return "%.4f%%" % (100 * float(x))


def _rows(sheet):
    """[(label, count, probability, payout text, net per unit, contribution)]."""
    out = []
    if isinstance(sheet, WagerPar):
        for o in sheet.outcomes:
            net = o.net_per_unit()
            p = Fraction(o.count, sheet.combinations)
            pays = LOSES if o.pay is None else o.pay.text()
            out.append((o.hand, o.count, p, pays, net, p * net))
    elif isinstance(sheet, StrategyPar) and sheet.exact:
        for decision, hand, n, net in sheet.rows:
            p = Fraction(n, sheet.combinations)
            pays = sheet.pays.get((decision, hand), "net %s" % net)
            out.append(("%s / %s" % (decision, hand), n, p, pays, Fraction(net),
                        p * Fraction(net)))
    elif callable(getattr(sheet, "outcomes", None)) and hasattr(sheet, "_net"):
        # A sheet whose outcome may pay several rows at once (blackjack's optional wagers,
        # controller/lab/par/blackjack.py): its own net of each set of rows paid.
        for j, (paid, n) in zip(sheet.to_json()["outcomes"], sheet.outcomes()):
            net = Fraction(sheet._net(paid)[0])
            p = Fraction(n, sheet.combinations)
            out.append((j["hand"], n, p, j["pays"], net, p * net))
    elif callable(getattr(sheet, "spread_rows", None)):
        # a sheet that counts its own deals by outcome (Raise It Up's progressive)
        for label, n, pays, net in sheet.spread_rows():
            p = Fraction(n) / sheet.deals
            out.append((label, n, p, pays, net, p * net))
    elif isinstance(sheet, StrategyPar):
        e = sheet.estimate
        rounds = e["rounds"]
        for label, n, net in (("win", e["wins"], 1), ("push", e["pushes"], 0),
                              ("lose", e["losses"], -1)):
            p = Fraction(n, rounds)
            out.append((label, n, p, {1: "1 to 1", 0: "push", -1: "loses"}[net],
                        Fraction(net), p * net))
    return out


def _chart(rows, title):
    """Horizontal bars of each row's contribution to the return (per unit wagered)."""
    if not rows:
        return ""
    bar_h, label_w, width = 16, 260, 420
    peak = max(abs(float(r[5])) for r in rows) or 1.0
    mid = label_w + width // 2
    h = bar_h * len(rows) + 30
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" '
             'aria-label="%s" class="chart">' % (label_w + width + 90, h, _e(title)),
             '<line x1="%d" y1="0" x2="%d" y2="%d" stroke="#333"/>' % (mid, mid, h - 20)]
    for i, r in enumerate(rows):
        v = float(r[5])
        w = int(round(abs(v) / peak * (width // 2 - 4)))
        y = i * bar_h + 2
        x = mid if v >= 0 else mid - w
        parts.append('<text x="%d" y="%d" font-size="11" text-anchor="end">%s</text>'
                     % (label_w - 4, y + 11, _e(r[0])))
        parts.append('<rect class="bar" x="%d" y="%d" width="%d" height="%d" fill="%s">'
                     '<title>%s: %+.6f</title></rect>'
                     % (x, y, max(w, 1), bar_h - 4, "#2a7" if v >= 0 else "#c33", _e(r[0]), v))
    parts.append('<text x="%d" y="%d" font-size="11" text-anchor="middle">contribution to '
                 'return per unit wagered (green pays the player, red the house)</text>'
                 % (mid, h - 6))
    parts.append("</svg>")
    return "".join(parts)


def _wager_html(game, sheet):
    j = sheet.to_json()
    title = j["wager"] + ("" if not j.get("paytable") else " (paytable %s)" % j["paytable"])
    out = ['<section class="wager" data-game="%s" data-wager="%s">' % (_e(game), _e(j["wager"])),
           "<h3>%s <small>[%s]</small></h3>" % (_e(title), _e(j["section"]))]
    if "reason" in j:
        kind = "no house edge" if j.get("banked") is False else "strategy-dependent"
        out.append('<p class="unpriced">%s: %s</p></section>' % (kind, _e(j["reason"])))
        return "".join(out)
    if j.get("strategy"):
        method = "%s strategy; %s" % (j["strategy"], j["method"])
    else:
        method = j.get("note") or counted_method(j["combinations"])
        if j.get("note") and j.get("method"):
            method = "%s; %s" % (j["note"], j["method"])
        if j.get("precision"):
            method = "%s; precision: %s" % (method, j["precision"])
    edge = sheet.house_edge()
    if isinstance(sheet, StrategyPar) and not sheet.exact:
        hold = "%s (95%% confidence interval %s to %s, %s rounds, seed %s)" % (
            _pct(edge), _pct(j["ci95"][0]), _pct(j["ci95"][1]), format(j["rounds"], ","),
            j["seed"])
    elif "house_edge_exact" in j:
        hold = "%s (exact %s)" % (_pct(edge), j["house_edge_exact"])
    else:
        hold = "%s (%s)" % (_pct(edge), j.get("precision", "computed"))
    out.append('<p>Hold: <b class="hold">%s</b></p>' % _e(hold))
    out.append('<p class="method">Method: %s</p>' % _e(method))
    if "house_edge_optimal_total_dependent" in j:
        out.append('<p class="optimal">Optimal total-dependent strategy: hold <b class='
                   '"optimal-hold">%s</b>; the printed chart loses to it in %d cells: %s '
                   '(%s)</p>' % (_pct(j["house_edge_optimal_total_dependent"]),
                                 len(j["chart_cells_losing"]),
                                 _e("; ".join(j["chart_cells_losing"])),
                                 _e(j["optimal_total_dependent"])))
    sp = spread(sheet)
    if sp is None:
        out.append('<p class="spread">Standard deviation and hit frequency: %s</p>'
                   % _e(NO_SPREAD))
    else:
        out.append('<p class="spread">Standard deviation per unit wagered: <b class="sd">'
                   '%.4f</b>; hit frequency: <b class="hit">%s</b>%s</p>'
                   % (sp[0], _pct(sp[1]), " (%s)" % _e(spread_note(sheet))
                      if spread_note(sheet) else ""))
    if j.get("meter_share"):
        out.append("<p>Plus %.8f of the progressive meter per unit wagered "
                   "(meter-share payouts, priced as losses above).</p>" % j["meter_share"])
    rows = _rows(sheet)
    if not rows:
        out.append("<p>No rows by hand: the figure is a strategy's expectation over every "
                   "deal (see the method).</p></section>")
        return "".join(out)
    out.append('<table class="par"><tr><th class="h">hand</th><th>combinations</th>'
               "<th>probability</th><th>payout</th><th>net per unit</th>"
               "<th>contribution to return</th></tr>")
    for label, n, p, pays, net, contrib in rows:
        out.append('<tr><td class="h">%s</td><td>%s</td><td>%.10f</td><td>%s</td>'
                   "<td>%s</td><td>%+.8f</td></tr>"
                   % (_e(label), format(n, ",") if isinstance(n, int) else _e(n), float(p),
                      _e(pays), _e(net), float(contrib)))
    total = sum((r[5] for r in rows), Fraction(0))
    out.append('<tr><th class="h">total</th><th>%s</th><th>1</th><th></th><th></th>'
               "<th>%+.8f</th></tr></table>" % (format(sum(r[1] for r in rows), ","),
                                                 float(total)))
    out.append(_chart(rows, "%s %s" % (game, title)))
    out.append("</section>")
    return "".join(out)


def _readings_html(readings):
    out = ['<h2 id="readings">Readings of the texts, priced both ways</h2>',
           '<table class="readings"><tr><th class="h">key</th><th class="h">reading</th>'
           '<th class="h">as read</th><th class="h">otherwise</th><th class="h">figures</th>'
           '</tr>']
    for r in readings:
        out.append('<tr data-key="%s"><td class="h">%s</td><td class="h">%s</td>'
                   '<td class="h">%s</td><td class="h">%s</td><td class="h">%s</td></tr>'
                   % (_e(r["key"]), _e(r["key"]), _e(r["reading"]), _e(r["as_read"]),
                      _e(r["otherwise"]), _e(r["figures"])))
    out.append("</table>")
    return "\n".join(out)


def render(games, info=None, config=None, readings=None):
    """The report for [(game, sheets)] as an HTML string; `config` the table configuration
    priced (None: each game's defaults), `readings` the readings table (readings_table())."""
    info = info or software()
    meta = report_json(games, info, config, readings)
    out = ["<!DOCTYPE html><html><head><meta charset=\"utf-8\">",
           "<title>tablectl par sheets</title><style>%s</style></head><body>" % _CSS,
           "<h1>Par sheets: theoretical hold of every wager</h1>",
           '<table class="meta">',
           '<tr><th class="h">software</th><td id="version">tablectl %s</td></tr>'
           % _e(info["version"]),
           '<tr><th class="h">installed manifest</th><td id="manifest">%s</td></tr>'
           % _e(info["manifest"]),
           '<tr><th class="h">firmware signature (<code>tablectl manifest</code>)</th>'
           '<td id="firmware">%s</td></tr>'
           % _e(info["firmware"]),
           '<tr><th class="h">computed</th><td id="date">%s</td></tr>' % _e(info["date"])]
    for g in meta["games"]:
        out.append('<tr class="hashes" data-game="%s"><th class="h">%s</th><td>configuration '
                   '<span class="config-hash">%s</span>; paytables <span class="paytable-hash">'
                   '%s</span></td></tr>' % (_e(g["game"]), _e(g["game"]),
                                            _e(g["configuration_hash"]),
                                            _e(g["paytable_hash"])))
    out += ["</table>",
           "<p>House edge is per unit of the wager named (positive favours the house); the "
           "strategy games' base_game entries are per unit of the Ante. Exact figures are "
           "counts over the real deck, cards dealt without replacement.</p>"]
    for game, sheets in games:
        out.append('<h2 id="%s">%s</h2>' % (_e(game), _e(game)))
        for s in sheets:
            out.append(_wager_html(game, s))
    out.append(_readings_html(meta["readings"]))
    out.append("</body></html>\n")
    return "\n".join(out)


def write(path, games, info=None, config=None, readings=None):
    text = render(games, info, config, readings)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    import os
    os.replace(tmp, path)
    return path
