"""docs/interpretations.md prints, for each reading that moves money, the holds the par
machinery computes under it and under its alternative, flagged where they cross the line
(issue 19)."""
import os
import re

import pytest

from controller.par import readings

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "interpretations.md")


def _section():
    text = open(DOC).read()
    m = re.search(r"<!-- readings: begin -->\n(.*?)<!-- readings: end -->", text, re.S)
    assert m, "docs/interpretations.md has no readings section"
    return m.group(1).strip().splitlines()


@pytest.mark.reg("581.9(b)")
def test_the_document_prints_what_the_par_machinery_computes():
    assert _section() == readings.render()


def test_every_reading_named_in_the_document_is_priced_or_pending():
    text = open(DOC).read()
    named = set(re.findall(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`", text))
    keys = {r.key for r in readings.READINGS}
    assert {k for k in named if k in keys or "-" in k and k.split("-")[0] in
            ("dab", "bj", "three", "flop", "riu", "scf")} <= keys
    for r in readings.READINGS:
        assert "`%s`" % r.key in text


@pytest.mark.reg("581.9(b)")
def test_the_double_down_reading_is_flagged_negative():
    r = readings.by_key("dab-surrender-double-down")
    taken, alternative = r.figures()
    assert taken > 0 > alternative and r.flagged()
    assert "FLAGGED: a negative hold" in r.line()


def test_a_small_move_is_not_flagged():
    r = readings.Reading("x", "t", "w", "a", "b", holds=lambda: (0.01, 0.0105))
    assert not r.flagged() and "FLAGGED" not in r.line()
    r = readings.Reading("x", "t", "w", "a", "b", holds=lambda: (0.01, 0.0112))
    assert r.flagged() and "moves the hold by 0.12%" in r.line()


@pytest.mark.reg("669a.6(c)")
def test_three_card_counts_add_to_every_hand_and_match_the_sheet():
    counts = readings.three_card_counts()
    assert sum(counts.values()) + 16440 == 22100       # the rest: high cards, paid nothing
    assert counts["straight"] == 720 and counts["straight_flush"] == 48
    alt = readings.three_card_counts(a23=False)
    assert alt["straight"] == 660 and alt["flush"] == 1096 + 4 and counts["flush"] == 1096
