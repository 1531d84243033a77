"""What a par sheet holds, and its exact arithmetic.

A wager's sheet is a list of outcomes with exact combination counts over the
real deck (cards dealt without replacement) and the payout each earns; the
house edge is an exact Fraction of the wager (positive favours the house).
Meter-share payouts (a progressive's "100% of meter") cannot be priced
without the meter: the sheet prices the fixed part, counting the wager as
lost on a meter hit, and gives `meter_share`, the expected fraction of the
meter paid per wager, so that the full return is
    1 - house_edge + meter_share * meter / wager.
"""

from fractions import Fraction

from controller.rules import paytables as pt

LOSES = "loses"


def counted_method(combinations):
    """How a sheet that names no method of its own was reached: the plain count (the text
    output and the lab report say it alike)."""
    return ("exact count of the %s combinations, cards dealt without replacement"
            % format(combinations, ","))


class Outcome:
    __slots__ = ("hand", "count", "pay")

    def __init__(self, hand, count, pay):
        self.hand = hand
        self.count = count
        self.pay = pay          # a paytables.Pay, or None: the wager loses

    def net_per_unit(self):
        """Exact net per unit wagered, the meter share left out."""
        p = self.pay
        if p is None or p.kind == pt.METER:
            return Fraction(-1)
        if p.kind == pt.TO:
            return Fraction(p.num, p.den)
        if p.kind == pt.FOR:
            return Fraction(p.num - 1)
        if p.kind == pt.PUSH:
            return Fraction(0)
        raise ValueError("a fixed amount has no per-unit net: %r" % (p,))


class WagerPar:
    """The exact par of one wager on one paytable."""

    def __init__(self, game, wager, section, outcomes, combinations, paytable=None, note=None):
        self.game = game
        self.wager = wager
        self.section = section
        self.paytable = paytable
        self.outcomes = outcomes
        self.combinations = combinations
        self.note = note
        total = sum(o.count for o in outcomes)
        if total != combinations:
            raise AssertionError("%s %s: outcome counts add to %d, not %d combinations"
                                 % (game, wager, total, combinations))

    def expected_net(self):
        return sum((o.net_per_unit() * o.count for o in self.outcomes), Fraction(0)) / self.combinations

    def house_edge(self):
        return -self.expected_net()

    def meter_share(self):
        s = Fraction(0)
        for o in self.outcomes:
            if o.pay is not None and o.pay.kind == pt.METER:
                s += Fraction(o.pay.num, 100) * o.count
        return s / self.combinations

    def to_json(self):
        edge = self.house_edge()
        out = {
            "wager": self.wager,
            "paytable": self.paytable,
            "section": self.section,
            "house_edge": round(float(edge), 7),
            "house_edge_exact": "%d/%d" % (edge.numerator, edge.denominator),
            "combinations": self.combinations,
            "outcomes": [{"hand": o.hand, "count": o.count,
                          "pays": LOSES if o.pay is None else o.pay.text()}
                         for o in self.outcomes],
        }
        share = self.meter_share()
        if share:
            out["meter_share"] = float(share)
            out["meter_share_exact"] = "%d/%d" % (share.numerator, share.denominator)
        if self.note:
            out["note"] = self.note
        return out


class Unpriced:
    """A wager listed on the sheet without a price, and why."""

    def __init__(self, game, wager, section, reason):
        self.game = game
        self.wager = wager
        self.section = section
        self.reason = reason

    def to_json(self):
        out = {"wager": self.wager, "section": self.section, "reason": self.reason}
        out.update(self.FLAGS)
        return out


class StrategyDependent(Unpriced):
    """A wager whose return depends on the player's decisions."""
    FLAGS = {"strategy_dependent": True}


class NoHouseEdge(Unpriced):
    """A wager paid between players (Flop Poker's Pot, 583.11(e)): the house keeps nothing."""
    FLAGS = {"house_edge": 0.0, "banked": False}


def from_paytable(table, counts, combinations, note=None):
    """Build a WagerPar from {hand: count}; combinations whose hand is not on `table`
    lose. Every hand on the table must be counted: a name that does not match is a
    mistake, not a hand that never happens."""
    missing = [h for h in table.hands() if h not in counts]
    if missing:
        raise AssertionError("no count for %s on %r" % (missing, table))
    outcomes = []
    paid = 0
    for hand, pay in table.rows:
        n = counts.get(hand, 0)
        outcomes.append(Outcome(hand, n, pay))
        paid += n
    outcomes.append(Outcome(LOSES, combinations - paid, None))
    return WagerPar(table.game, table.wager, table.section, outcomes, combinations,
                    paytable=table.letter, note=note)


class StrategyPar:
    """The hold of a game's base wagers together under a stated strategy: the rows are
    (decision, final hand) with the deals that reach them and their net per unit of
    the base wager (the Ante), exact Fractions; or, for a simulated figure, the
    estimate and its 95% confidence interval with no rows.

    `wagers` names the wagers the figure covers (Raise It Up's Ante, Blind and Play
    together), `strategy` is "optimal", "basic" or "house_way", `method` says how the
    figure was reached in words a lab can check.
    """

    def __init__(self, game, section, strategy, method, wagers, rows=None, combinations=None,
                 estimate=None, note=None, unit="ante", pays=None):
        self.game = game
        self.wager = "base_game"
        self.section = section
        self.strategy = strategy
        self.method = method
        self.wagers = list(wagers)
        self.rows = rows or []              # [(decision, hand, count, net Fraction)]
        self.combinations = combinations
        self.estimate = estimate            # {'house_edge', 'ci95', ...} when simulated
        self.note = note
        self.unit = unit
        self.pays = pays or {}              # {(decision, hand): how the wagers are paid}
        if self.rows:
            total = sum(r[2] for r in self.rows)
            if total != combinations:
                raise AssertionError("%s base game: rows add to %d, not %d deals"
                                     % (game, total, combinations))

    @property
    def exact(self):
        return self.estimate is None

    def house_edge(self):
        if not self.exact:
            return self.estimate["house_edge"]
        net = sum((Fraction(r[3]) * r[2] for r in self.rows), Fraction(0))
        return -net / self.combinations

    def to_json(self):
        edge = self.house_edge()
        out = {"wager": self.wager, "strategy": self.strategy, "section": self.section,
               "wagers": self.wagers, "unit": self.unit, "method": self.method}
        if self.exact:
            out["house_edge"] = round(float(edge), 7)
            out["house_edge_exact"] = "%d/%d" % (edge.numerator, edge.denominator)
            out["combinations"] = self.combinations
            out["outcomes"] = []
            for d, h, n, v in self.rows:
                v = Fraction(v)
                row = {"decision": str(d), "hand": h, "count": n,
                       "net": str(v.numerator) if v.denominator == 1
                       else "%d/%d" % (v.numerator, v.denominator)}
                if (d, h) in self.pays:
                    row["pays"] = self.pays[(d, h)]
                out["outcomes"].append(row)
        else:
            e = self.estimate
            out["house_edge"] = round(e["house_edge"], 7)
            out["ci95"] = [round(e["ci95"][0], 7), round(e["ci95"][1], 7)]
            for k in ("stderr", "shuffles", "rounds", "seed", "wins", "pushes", "losses"):
                if k in e:
                    out[k] = round(e[k], 9) if isinstance(e[k], float) else e[k]
        if self.note:
            out["note"] = self.note
        return out
