"""The par of a progressive wager on a linked meter (`tablectl par GAME --link-tables N`).

A sheet with meter-share payouts (sheet.py) gives the fixed part of the hold, `house_edge`
(the meter-share hands counted as losses), and `meter_share` s, the expected fraction of the
meter paid per wager. At a meter of M cents the return of a wager of w cents is
    1 - house_edge + s x M / w,
so the part of the hold that depends on the meter is s x M / w, and the meter at which the
wager returns 100% is M* = house_edge x w / s.

Over a link's cycles everything the meter pays is what was contributed plus the seeds
(the reset amount put back at each 100% hit; a cap's overflow left out): per wager it pays
rate x w + reset x p, p the chance of a 100% hit per wager. Hence the long-run hold
    house_edge - rate - reset x p / w
and the meter a wager meets on average, E[M] = (rate x w + reset x p) / s. Neither depends on
how many tables feed the meter: the number of tables N changes how fast the meter moves, so
the hours between 100% hits on the link (1 / (p x N x hands per hour per table)) and the
meter's growth per hour (rate x w x N x hands per hour), which is what a floor sees. N = 1 is
the standalone meter (controller/progressive.py). Exact fractions throughout.
"""

from fractions import Fraction

from controller.rules import paytables as pt

HANDS_PER_HOUR = 60


def whole_hit_chance(sheet):
    """p: the chance per wager of a 100%-of-meter payout (a strategy-priced sheet says it,
    controller/lab/par/raise_it_up_progressive.py LinkedSheet)."""
    if hasattr(sheet, "whole_hit_chance"):
        return sheet.whole_hit_chance()
    hits = sum(o.count for o in sheet.outcomes
               if o.pay is not None and o.pay.kind == pt.METER and o.pay.num >= 100)
    return Fraction(hits, sheet.combinations)


def linked(sheet, tables, wager, reset, rate, hands_per_hour=HANDS_PER_HOUR):
    """The linked par of `sheet` (a WagerPar with meter_share), wager/reset in cents, rate a
    Fraction."""
    s = sheet.meter_share()
    p = whole_hit_chance(sheet)
    edge = sheet.house_edge()
    w = Fraction(wager)
    long_run_hold = edge - rate - Fraction(reset) * p / w
    mean_meter = (rate * w + Fraction(reset) * p) / s
    out = {"tables": tables, "wager": wager, "reset": reset,
           "rate": [rate.numerator, rate.denominator], "hands_per_hour": hands_per_hour,
           "fixed_hold": float(edge), "fixed_hold_exact": _exact(edge),
           "meter_share": float(s), "meter_share_exact": _exact(s),
           "meter_part_per_cent_of_meter": float(s / w),
           "hold_at_reset": float(edge - s * reset / w),
           "break_even_meter": int(edge * w / s),
           "long_run_hold": float(long_run_hold), "long_run_hold_exact": _exact(long_run_hold),
           "mean_meter": int(mean_meter), "whole_hit_chance": float(p)}
    if getattr(sheet, "note", None):
        out["note"] = sheet.note
    if p:
        out["hours_between_whole_hits"] = float(1 / (p * tables * hands_per_hour))
    out["meter_growth_per_hour"] = int(rate * w * tables * hands_per_hour)
    return out


def _exact(f):
    return "%d/%d" % (f.numerator, f.denominator)


def text(j):
    """The linked block of `tablectl par`, for people."""
    d = lambda c: "$%s" % "{:,.2f}".format(c / 100)        # noqa: E731
    lines = ["  linked over %d table%s (wager %s, reset %s, rate %d/%d, %d hands/hour/table):"
             % (j["tables"], "" if j["tables"] == 1 else "s", d(j["wager"]), d(j["reset"]),
                j["rate"][0], j["rate"][1], j["hands_per_hour"]),
             "    fixed part of the hold  %.4f%%  (meter-share hands as losses)"
             % (100 * j["fixed_hold"]),
             ] + (["    priced %s" % j["note"]] if j.get("note") else []) + [
             "    meter part             - %.10f x meter in cents (hold %.4f%% at the reset, "
             "100%% return at a meter of %s)" % (j["meter_part_per_cent_of_meter"],
                                                 100 * j["hold_at_reset"],
                                                 d(j["break_even_meter"])),
             "    long-run hold          %.4f%%  (fixed - rate - reset x p(100%% hit) / wager; "
             "the same for any number of tables)" % (100 * j["long_run_hold"]),
             "    mean meter met         %s" % d(j["mean_meter"])]
    if "hours_between_whole_hits" in j:
        lines.append("    on %d tables: a 100%% hit every %.1f hours on average, the meter "
                     "growing %s an hour" % (j["tables"], j["hours_between_whole_hits"],
                                             d(j["meter_growth_per_hour"])))
    return "\n".join(lines) + "\n"
