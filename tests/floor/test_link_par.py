"""`tablectl par GAME --link-tables N`: the fixed part of a linked progressive wager's hold
and the part that depends on the meter and the number of tables."""

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from controller.lab.par import registry
from controller.lab.par.linked import linked, text, whole_hit_chance
from tests.floor.conftest import ROOT

SCF = "six-card-fortune-pai-gow"


def par(*args):
    r = subprocess.run([sys.executable, "-m", "controller.cli", "par"] + list(args), cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


def scf_progressive():
    return next(s for s in registry.sheets(SCF) if s.wager == "progressive")


@pytest.mark.reg("670a.12(d)(1)")
def test_the_linked_par_is_the_sheet_s_fixed_hold_and_its_meter_part():
    s = scf_progressive()
    p = whole_hit_chance(s)
    assert p == Fraction(48, 22957480)              # five aces: 100% of the meter
    j1 = linked(s, 1, 500, 500000, Fraction(15, 100))
    j8 = linked(s, 8, 500, 500000, Fraction(15, 100))
    assert j1["fixed_hold_exact"] == "2647123/5739370"      # the sheet's house edge
    # the long-run hold: fixed - rate - reset x p / wager, exactly, whatever N
    want = Fraction(2647123, 5739370) - Fraction(15, 100) - 500000 * p / 500
    assert j1["long_run_hold_exact"] == j8["long_run_hold_exact"] == "%d/%d" % (
        want.numerator, want.denominator)
    # what N changes: the time between 100% hits and the meter's growth, in proportion
    assert j1["hours_between_whole_hits"] == pytest.approx(8 * j8["hours_between_whole_hits"])
    assert j8["meter_growth_per_hour"] == 8 * j1["meter_growth_per_hour"] == 8 * 60 * 75
    # at the break-even meter the wager returns 100%
    m = j1["break_even_meter"]
    edge, share = s.house_edge(), s.meter_share()
    assert edge - share * m / 500 >= 0 > edge - share * (m + 1) / 500


@pytest.mark.reg("669a.12(e)(3)")
def test_tablectl_par_link_tables_prints_it_and_refuses_what_the_texts_do_not_set():
    rc, out, err = par(SCF, "--link-tables", "8", "--link-rate", "0.15", "--link-wager", "500")
    assert rc == 0, err
    block = out[out.index("progressive on a linked meter"):]
    assert "linked over 8 tables (wager $5.00, reset $5,000.00, rate 3/20" in block
    assert "fixed part of the hold  46.1222%" in block and "long-run hold" in block
    assert "on 8 tables: a 100% hit every" in block
    rc, out, _ = par(SCF, "--link-tables", "2", "--link-rate", "7/50", "--json")
    doc = json.loads(out)
    j = next(w for w in doc["wagers"] if w["wager"] == "progressive")["linked"]
    assert j["tables"] == 2 and j["rate"] == [7, 50] and j["reset"] == 500000
    rc, out, err = par(SCF, "--link-tables", "8")       # 670a.12(d) sets no rate
    assert rc == 2 and out == "" and "give --link-rate R" in err
    rc, _, err = par(SCF, "--link-tables", "0")
    assert rc == 2 and "--link-tables 0" in err
    rc, _, err = par(SCF, "--link-rate", "0.1")
    assert rc == 2 and "--link-rate goes with --link-tables N" in err
    rc, out, _ = par("raise-it-up-stud", "--link-tables", "4")
    assert rc == 0 and "progressive on a linked meter" in out


@pytest.mark.reg("669a.12(e)(1)", "669a.12(e)(3)", "669a.11(g)", "669a.11(i)(3)(i)")
def test_raise_it_up_s_linked_wager_is_priced_under_the_optimal_strategy():
    """Strategy-dependent (a fold forfeits it), priced by raise_it_up_progressive's exact
    three-card reading: the fixed part, the meter part, and at the reset meter the hold
    that reading's own `holds` gives."""
    from controller.lab.par import raise_it_up_optimal as RO
    from controller.lab.par import raise_it_up_progressive as RP
    solver = RO.Solver()
    sheet = RP.LinkedSheet(solver)
    assert sheet.meter_share() == Fraction(1, 22100)    # the spade A-K-Q, never folded
    assert sheet.house_edge() == 1 - Fraction(1255008288, 2443022400)
    j = linked(sheet, 4, 100, 100000, Fraction(14, 100))
    total, deals, _ = RP.three_card_return(solver, RP.payouts())   # the meter at $1,000
    three = 1 - Fraction(total, deals)                  # the reading's hold, as `holds`
    assert Fraction(j["fixed_hold_exact"]) - Fraction(1, 22100) * 100000 / 100 == three
    assert j["long_run_hold_exact"] == "%d/%d" % (
        (sheet.house_edge() - Fraction(14, 100) - Fraction(100000, 22100 * 100)).numerator,
        (sheet.house_edge() - Fraction(14, 100) - Fraction(100000, 22100 * 100)).denominator)
    j1 = linked(sheet, 1, 100, 100000, Fraction(14, 100))
    assert j1["hours_between_whole_hits"] == pytest.approx(4 * j["hours_between_whole_hits"])
    block = text(j)                                     # what `tablectl par` prints of it
    assert "linked over 4 tables (wager $1.00, reset $1,000.00, rate 7/50" in block
    assert "fixed part of the hold  48.6289%" in block
    assert "hold 44.1040% at the reset" in block and "long-run hold          30.1040%" in block
    assert "under the optimal base-game strategy" in block
    rc, out, err = par("raise-it-up-stud", "--link-tables", "4", "--json")
    assert rc == 0, err
    prog = next(w for w in json.loads(out)["wagers"] if w["wager"] == "progressive")
    assert prog["linked"] == json.loads(json.dumps(j))
