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


def software():
    """{'version', 'signature', 'manifest'}: the installed version, the SHA-256
    signature of the files installed now, and what the installed manifest says."""
    from controller.console import manifest
    try:
        from importlib.metadata import version
        ver = version("tablectl")
    except Exception:                       # not installed as a distribution
        ver = "unknown (not installed)"
    sig = manifest.signature(manifest.build())
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
    return {"version": ver, "signature": sig, "manifest": state}


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
                   % (_e(label), format(n, ","), float(p), _e(pays), _e(net), float(contrib)))
    total = sum((r[5] for r in rows), Fraction(0))
    out.append('<tr><th class="h">total</th><th>%s</th><th>1</th><th></th><th></th>'
               "<th>%+.8f</th></tr></table>" % (format(sum(r[1] for r in rows), ","),
                                                 float(total)))
    out.append(_chart(rows, "%s %s" % (game, title)))
    out.append("</section>")
    return "".join(out)


def render(games, info=None):
    """The report for [(game, sheets)] as an HTML string."""
    info = info or software()
    out = ["<!DOCTYPE html><html><head><meta charset=\"utf-8\">",
           "<title>tablectl par sheets</title><style>%s</style></head><body>" % _CSS,
           "<h1>Par sheets: theoretical hold of every wager</h1>",
           '<table class="meta">',
           '<tr><th class="h">software</th><td id="version">tablectl %s</td></tr>'
           % _e(info["version"]),
           '<tr><th class="h">signature of the files installed</th><td id="signature">%s</td>'
           "</tr>" % _e(info["signature"]),
           '<tr><th class="h">installed manifest</th><td id="manifest">%s</td></tr>'
           % _e(info["manifest"]),
           "</table>",
           "<p>House edge is per unit of the wager named (positive favours the house); the "
           "strategy games' base_game entries are per unit of the Ante. Exact figures are "
           "counts over the real deck, cards dealt without replacement.</p>"]
    for game, sheets in games:
        out.append('<h2 id="%s">%s</h2>' % (_e(game), _e(game)))
        for s in sheets:
            out.append(_wager_html(game, s))
    out.append("</body></html>\n")
    return "\n".join(out)


def write(path, games, info=None):
    text = render(games, info)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    import os
    os.replace(tmp, path)
    return path
