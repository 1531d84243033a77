"""One reading of docs/interpretations.md priced both ways, and the pricing the games'
readings share (issue 19; each game's readings are its own modules, named by its
declaration's `readings`, collected by controller/lab/par/readings.py).

Why a reading is priced: a reading of a silent or loose text is a choice the certificate
holder files. A choice that turns a wager's hold negative, or moves it by more than a tenth
of a percent, is one a lab and a regulator must see with its figure; one that does not can
be argued on the text alone.
"""

from fractions import Fraction

from controller.rules import paytables as pt

FLAG_MOVE = Fraction(1, 1000)       # a tenth of a percent of the wager


class Reading:
    def __init__(self, key, title, wager, taken, alternative, holds=None, pending=None):
        self.key = key
        self.title = title              # the reading, as docs/interpretations.md words it
        self.wager = wager              # what the hold is of
        self.taken = taken              # the reading the firmware takes
        self.alternative = alternative  # the reading priced against it
        self.holds = holds              # () -> (hold taken, hold alternative), fractions of 1
        self.pending = pending          # why there is no figure yet

    def figures(self):
        if self.holds is None:
            return None
        taken, alternative = self.holds()
        return float(taken), float(alternative)

    def flagged(self):
        f = self.figures()
        if f is None:
            return False
        taken, alternative = f
        return taken < 0 or alternative < 0 or abs(taken - alternative) > float(FLAG_MOVE)

    def line(self):
        """The line docs/interpretations.md carries for this reading."""
        f = self.figures()
        if f is None:
            return "- `%s` %s: hold pending (%s)." % (self.key, self.wager, self.pending)
        taken, alternative = f
        flag = ""
        if self.flagged():
            why = []
            if taken < 0 or alternative < 0:
                why.append("a negative hold")
            if abs(taken - alternative) > float(FLAG_MOVE):
                why.append("moves the hold by %.2f%%" % (100 * abs(taken - alternative)))
            flag = " **FLAGGED: %s.**" % " and ".join(why)
        return ("- `%s` %s: %.4f%% as read (%s); %.4f%% otherwise (%s).%s"
                % (self.key, self.wager, 100 * taken, self.taken, 100 * alternative,
                   self.alternative, flag))


class SlowReading(Reading):
    """An exact reading whose alternative takes seconds of numpy at full size (too slow
    for the default suite): `fast_taken` gives the hold as read by a quicker route, which
    the fast suite checks against the document's line; the whole line is checked under
    TABLECTL_SLOW=1, and the method on reduced decks against brute force."""

    def __init__(self, *args, **kw):
        self.fast_taken = kw.pop("fast_taken")
        Reading.__init__(self, *args, **kw)
        self._holds = None

    def figures(self):
        if self._holds is None:
            self._holds = Reading.figures(self)
        return self._holds


class MultiReading(Reading):
    """One reading that moves several wagers (the joker of 670a.6(a) is read once for
    the Fortune Bonus, Insurance and Progressive): `parts` is [(wager, holds)], each
    priced and flagged on its own by the rule above, on one line."""

    def __init__(self, key, title, wager, taken, alternative, parts, note=None):
        Reading.__init__(self, key, title, wager, taken, alternative)
        self.parts = parts
        self.note = note
        self._figures = None

    def part_figures(self):
        if self._figures is None:
            self._figures = [(w, tuple(float(x) for x in holds())) for w, holds in self.parts]
        return self._figures

    def figures(self):
        return [f for _, f in self.part_figures()]

    @staticmethod
    def _why(taken, alternative):
        why = []
        if taken < 0 or alternative < 0:
            why.append("a negative hold")
        if abs(taken - alternative) > float(FLAG_MOVE):
            why.append("moves the hold by %.2f%%" % (100 * abs(taken - alternative)))
        return why

    def flagged(self):
        return any(self._why(*f) for f in self.figures())

    def line(self):
        out = []
        for wager, (taken, alternative) in self.part_figures():
            why = self._why(taken, alternative)
            flag = " **FLAGGED: %s.**" % " and ".join(why) if why else ""
            out.append("%s: %.4f%% as read; %.4f%% otherwise.%s"
                       % (wager, 100 * taken, 100 * alternative, flag))
        return ("- `%s` %s, as read (%s) and otherwise (%s): %s%s"
                % (self.key, self.wager, self.taken, self.alternative, " ".join(out),
                   " " + self.note if self.note else ""))


class SimulatedReading(Reading):
    """A reading priced by a seeded simulation on common deals: each hold carries its 95%
    confidence interval, and so does the move between them (measured pair by pair).

    Flag logic, conservative because the flag is what a lab must look at: flagged unless
    the sample RULES OUT the line, i.e. flagged when a hold's interval reaches below zero
    or the move's interval reaches past a tenth of a percent either way. Not flagged only
    when both holds' intervals lie above zero and the move's inside (-0.1%, +0.1%)."""

    def __init__(self, *args, **kw):
        self.simulate = kw.pop("simulate")   # (shuffles=None) -> paired_simulation(...)
        Reading.__init__(self, *args, **kw)
        self._full = None

    def estimate(self, shuffles=None):
        if shuffles is not None:
            return self.simulate(shuffles)
        if self._full is None:
            self._full = self.simulate()
        return self._full

    def figures(self, shuffles=None):
        e = self.estimate(shuffles)
        return e["holds"][0][0], e["holds"][1][0]

    def reasons(self, shuffles=None):
        e = self.estimate(shuffles)
        why = []
        if any(ci[0] < 0 for _, ci in e["holds"]):
            why.append("a hold whose 95% CI reaches below zero")
        mean, (lo, hi) = e["moves"][1]
        if hi > float(FLAG_MOVE) or lo < -float(FLAG_MOVE):
            why.append("a move of %.2f%% whose 95%% CI reaches past 0.1%%" % (100 * abs(mean)))
        return why

    def flagged(self, shuffles=None):
        return bool(self.reasons(shuffles))

    def line(self, shuffles=None):
        e = self.estimate(shuffles)
        (t, tci), (a, aci) = e["holds"]
        mean, (lo, hi) = e["moves"][1]
        why = self.reasons(shuffles)
        flag = " **FLAGGED: %s.**" % " and ".join(why) if why else ""
        return ("- `%s` %s: %.4f%% as read (%s; 95%% CI %.4f%% to %.4f%%); %.4f%% otherwise "
                "(%s; 95%% CI %.4f%% to %.4f%%); move %+.4f%% (95%% CI %+.4f%% to %+.4f%%, "
                "paired); simulated, n = %s rounds (%s shuffles, seed %d).%s"
                % (self.key, self.wager, 100 * t, self.taken, 100 * tci[0], 100 * tci[1],
                   100 * a, self.alternative, 100 * aci[0], 100 * aci[1], 100 * mean,
                   100 * lo, 100 * hi, format(e["rounds"], ","), format(e["shuffles"], ","),
                   e["seed"], flag))


def paytable_return(table, counts, combinations, meter=None, wager=None):
    """Exact expected return per unit wagered of a paytable over {hand: count}: "to 1"
    returns the stake with the odds, "for 1" the amount; a meter share is priced with
    the meter at `meter` cents on a wager of `wager` cents (the reset amount, so a
    floor on the return a lab can check)."""
    back = Fraction(0)
    for hand, pay in table.rows:
        n = counts.get(hand, 0)
        if pay.kind == pt.TO:
            back += n * (1 + Fraction(pay.num, pay.den))
        elif pay.kind == pt.FOR:
            back += n * pay.num
        elif pay.kind == pt.METER:
            if meter is None:
                raise ValueError("%s pays a share of the meter: price it at a stated meter"
                                 % table.wager)
            back += n * Fraction(pay.num, 100) * Fraction(meter, wager)
        else:
            raise ValueError("%s: cannot price %r per unit" % (table.wager, pay))
    return back / combinations


# ---- three-card hands (583.6(d), 669a.6(c), 583.12(c), 669a.12(a)) -------------------------

def three_card_counts(a23=True, akq=True, royal=False):
    """{hand: count} of the 22,100 three-card hands, counted by ranks and suits here:
    `a23`/`akq` whether A-2-3 and A-K-Q are straights, `royal` A-K-Q suited apart."""
    from itertools import combinations
    out = {"three_of_a_kind": 13 * 4, "pair": 13 * 6 * 12 * 4}
    for ranks in combinations(range(13), 3):        # 0..12 for 2..A
        r = set(ranks)
        run = max(ranks) - min(ranks) == 2
        if r == {12, 0, 1}:
            run = a23
        if r == {10, 11, 12}:
            run = akq
        suited, unsuited = 4, 64 - 4
        if run:
            key = "royal" if royal and r == {10, 11, 12} else "straight_flush"
            out[key] = out.get(key, 0) + suited
            out["straight"] = out.get("straight", 0) + unsuited
        else:
            out["flush"] = out.get("flush", 0) + suited
    return out


def three_card_hold(game, wager, letter=None, **how):
    table = pt.get(game, wager, letter) if letter else pt.get(game, wager)
    counts = three_card_counts(**how)
    back = Fraction(0)
    for hand, pay in table.rows:
        back += counts.get(hand, 0) * (1 + Fraction(pay.num, pay.den))
    return 1 - back / 22100
