"""Flop Poker's optimal Flop decision (583.11(b)) as a rule a dealer course reads.

The rule is written out by hand below and the tests hold it to the exact
solution (controller/lab/par/flop_poker_optimal.py) for every three-card hand; the
printout lists the hands it folds, computed from the solution.
"""

from controller.lab.par import flop_poker_optimal as FO
from controller.rules import cards as C

_WINDOWS = [set(range(top - 4, top + 1)) for top in range(4, 13)] + [{12, 0, 1, 2, 3}]


def folds(ranks, suited):
    """The rule: fold three unsuited cards of three ranks, all below a jack, that no
    two more cards can turn into a straight; make the Flop Wager with anything else."""
    if suited or len(set(ranks)) < 3:
        return False
    if max(ranks) >= C.JACK:
        return False
    return not any(set(ranks) <= w for w in _WINDOWS)


def text():
    rows, deals, decisions = FO.full_rows()
    folded = [d for d in decisions if d[3] == FO.FOLD]
    edge = -sum(r[3] * r[2] for r in rows) / deals
    lines = [
        "Flop Poker (583): the Flop decision of greatest expected return",
        "",
        "After seeing his three cards the player folds (losing the Ante) or makes a Flop",
        "Wager equal to the Ante (583.11(b)). Make the Flop Wager with:",
        "  - any pair or three of a kind;",
        "  - any three cards of one suit;",
        "  - any hand holding a jack, queen, king or ace;",
        "  - any three ranks that two more cards can complete to a straight (all three",
        "    within one five-rank run, A-2-3-4-5 included).",
        "Fold everything else: three unsuited ranks, all 10 or lower, spread too far for a",
        "straight. Those are %d of the 22,100 hands (%d rank combinations):"
        % (sum(d[2] for d in folded), len(folded)),
    ]
    names = sorted(("".join(C.RANK_CHARS[r] for r in sorted(d[0], reverse=True)) for d in folded),
                   key=lambda s: [C.RANK_CHARS.index(ch) for ch in s], reverse=True)
    for i in range(0, len(names), 10):
        lines.append("  " + " ".join(names[i:i + 10]))
    lines += ["",
              "Under this rule Ante and Flop together hold %.4f%% of the Ante (tablectl par "
              "flop-poker, base_game)." % (100 * float(edge))]
    return "\n".join(lines) + "\n"
