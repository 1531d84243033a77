"""Raise It Up Stud's optimal strategy (669a.11(b), (d), (f)) as a printout.

Written from the exact solution (controller/lab/par/raise_it_up_optimal.py), street
by street, so the printout and the par sheet cannot disagree:

* before 4th Street (three cards), the hands that Play 3x, listed by ranks and
  how their suits fall; every other hand checks;
* before 5th and 6th Street (four and five cards), a table over what a player
  sees on the layout -- his made hand, cards to a flush, cards to a straight,
  unpaired 10s or better -- with the decision for each line; where one line
  holds hands that decide differently, the hands are listed under it.
"""

from controller.lab.par import raise_it_up_optimal as RO
from controller.rules import cards as C

_WINDOWS = [set(range(top - 4, top + 1)) for top in range(4, 13)] + [{12, 0, 1, 2, 3}]
_MADE = ("trips_or_better", "two_pair", "pair_10s_or_better", "pair_below_10s", "no_pair")
_MADE_TEXT = {"trips_or_better": "three of a kind or better", "two_pair": "two pair",
              "pair_10s_or_better": "a pair of 10s or better",
              "pair_below_10s": "a pair below 10s", "no_pair": "no pair"}
_DECISION_TEXT = {3: "PLAY 3x", 2: "PLAY 2x", 1: "PLAY 1x", "check": "check", RO.FOLD: "FOLD"}


def features(key):
    """(made hand, cards to a flush, most cards in one straight run, ranks completing a
    four-card straight, unpaired 10s or better) of a state of the solver."""
    counts, live = key
    distinct = set(r for r in range(13) if counts[r])
    pairs = [r for r in range(13) if counts[r] == 2]
    if any(counts[r] >= 3 for r in range(13)) or len(distinct) >= 5 and _straight(distinct):
        made = "trips_or_better"
    elif len(pairs) >= 2:
        made = "two_pair"
    elif pairs:
        made = "pair_10s_or_better" if pairs[0] >= C.TEN else "pair_below_10s"
    else:
        made = "no_pair"
    run = max(len(w & distinct) for w in _WINDOWS)
    outs = 0
    if run == 4:
        outs = sum(1 for r in range(13) if r not in distinct
                   and any(len(w & (distinct | {r})) == 5 for w in _WINDOWS))
    high = sum(1 for r in distinct if r >= C.TEN and counts[r] == 1)
    return made, len(live), run, outs, high


def _straight(distinct):
    return any(w <= distinct for w in _WINDOWS)


def _hand_text(key):
    counts, live = key
    ranks = "".join(C.RANK_CHARS[r] * counts[r] for r in range(12, -1, -1))
    if live:
        return "%s (%s suited)" % (ranks, "".join(C.RANK_CHARS[r] for r in reversed(live)))
    return ranks


def _feature_text(f):
    made, flush, run, outs, high = f
    parts = [_MADE_TEXT[made]]
    parts.append("%d to a flush" % flush if flush else "no flush draw")
    if run == 4:
        parts.append("4 to a straight (%d rank%s complete it)" % (outs, "" if outs == 1 else "s"))
    elif run >= 5:
        parts.append("a straight made")
    else:
        parts.append("%d to a straight" % run)
    parts.append("%d unpaired 10s or better" % high)
    return ", ".join(parts)


def street_table(solver, level):
    """[(features, {decision: [states]})] for the decision point of `level` seen cards."""
    table = {}
    for key, (_, decision) in solver._best[level].items():
        table.setdefault(features(key), {}).setdefault(decision, []).append(key)
    order = lambda f: (_MADE.index(f[0]), -f[1], -f[2], -f[3], -f[4])   # noqa: E731
    return [(f, table[f]) for f in sorted(table, key=order)]


def first_street(solver):
    """{ranks text: [suit patterns]} of the three-card hands that Play 3x."""
    out = {}
    for key, (_, decision) in solver._best[3].items():
        if decision != 3:
            continue
        counts, live = key
        ranks = "".join(C.RANK_CHARS[r] * counts[r] for r in range(12, -1, -1))
        if len(live) == 3:
            pattern = "suited"
        elif live:
            pattern = "%s suited" % "".join(C.RANK_CHARS[r] for r in reversed(live))
        else:
            pattern = "offsuit"
        out.setdefault(ranks, []).append(pattern)
    return out


def text():
    rows, deals, solver = RO.full_rows()
    edge = -sum(r[3] * r[2] for r in rows) / deals
    lines = ["Raise It Up Stud (669a): the decision of greatest expected return at each street",
             "",
             "One Play Wager at most. Before 4th Street: Play 3x or check (669a.11(b)); before",
             "5th: Play 2x or check (669a.11(d)); before 6th: Play 1x or fold (669a.11(f)).",
             "The player's cards and the community cards count alike: 'cards' below are all",
             "the cards the player has seen.",
             "",
             "Before 4th Street (3 cards): PLAY 3x with"]
    first = first_street(solver)
    pairs = [r for r in first if len(set(r)) < 3]
    lines.append("  any pair or three of a kind (all %d rank combinations)" % len(pairs))
    key_order = lambda s: [C.RANK_CHARS.index(ch) for ch in s]   # noqa: E731
    singles = sorted((r for r in first if len(set(r)) == 3), key=key_order, reverse=True)
    for r in singles:
        pats = first[r]
        every = len(pats) == 5            # suited, three ways two suited, offsuit
        lines.append("  %s  %s" % (r, "any suits" if every else ", ".join(sorted(pats))))
    lines.append("  and check with every other hand.")
    for level, street in ((4, "Before 5th Street (4 cards)"), (5, "Before 6th Street (5 cards)")):
        lines += ["", "%s, for a player who has not yet made a Play Wager:" % street]
        for f, by_decision in street_table(solver, level):
            if len(by_decision) == 1:
                (d, _), = by_decision.items()
                lines.append("  %-8s %s" % (_DECISION_TEXT[d], _feature_text(f)))
                continue
            lines.append("  %-8s %s, as follows:" % ("depends", _feature_text(f)))
            for d in sorted(by_decision, key=str):
                hands = sorted(_hand_text(k) for k in by_decision[d])
                lines.append("      %s: %s" % (_DECISION_TEXT[d], "; ".join(hands)))
    lines += ["",
              "Ties between choices go to the Play Wager. Under this strategy Ante, Blind and",
              "Play together hold %.4f%% of the Ante (tablectl par raise-it-up-stud, base_game)."
              % (100 * float(edge))]
    return "\n".join(lines) + "\n"
