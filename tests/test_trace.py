"""`tablectl trace`: the texts read into their subsections, the matrix built from the suite's
own markers, and the two conditions CI holds the suite to (an enforced subsection without a
test, a test naming a subsection the texts do not have)."""
import os
import subprocess
import sys

import pytest

from controller.lab.trace import matrix as mx
from controller.lab.trace.regs import find_regs, read_texts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def texts():
    """The texts, read once; only tests marked `regs` (skipped without the texts) ask."""
    return read_texts()


def letters(sec):
    return [p.labels[0] if p.labels else "" for p in sec.subsections]


@pytest.mark.regs
def test_the_regs_are_found_beside_the_repository():
    assert os.path.isdir(find_regs()), "../shared/regs must sit beside the repository"


@pytest.mark.regs
def test_every_section_of_the_seven_texts_is_read(texts):
    chapters = {}
    for n in texts:
        chapters.setdefault(n.split(".")[0], []).append(n)
    assert {c: len(v) for c, v in chapters.items()} == {
        "581": 14, "583": 14, "585": 5, "669a": 13, "670a": 13, "633a": 1, "637a": 1}
    assert texts["581.13"].title == "Irregularities"
    assert texts["670a.13"].title == "Irregularities; invalid roll of dice"


@pytest.mark.regs
def test_lettered_subsections_run_without_a_gap(texts):
    for sec in texts.values():
        got = [x for x in letters(sec) if x]
        assert got == [chr(97 + i) for i in range(len(got))], sec.number
    assert letters(texts["633a.7"])[-1] == "t" and letters(texts["581.13"])[-1] == "k"


@pytest.mark.regs
def test_a_paragraph_printed_straight_after_a_paytable_is_found(texts):
    # 669a.12(d) and (e) follow the Play and Blind paytables on the same line of the text
    assert letters(texts["669a.12"]) == ["a", "b", "c", "d", "e", "f"]
    assert texts["669a.12"].parts[3].text.startswith("A certificate holder shall pay each "
                                                     "winning Blind Wager")
    names = {p.name for p in texts["669a.12"].parts}
    assert {"669a.12(e)(1)", "669a.12(e)(2)", "669a.12(e)(5)"} <= names


@pytest.mark.regs
def test_roman_numerals_are_told_from_letters(texts):
    names = {p.name for p in texts["670a.2"].parts}
    assert {"670a.2(d)(1)(i)", "670a.2(d)(1)(ii)", "670a.2(d)(1)(iii)"} <= names
    assert letters(texts["581.13"])[8] == "i"                 # (i) after (h): a letter
    # "§ 603a.16(u) or (v) (relating to ...)" is a cross-reference, not a subsection (v)
    assert "v" not in letters(texts["581.3"])


@pytest.mark.regs
def test_a_cross_reference_at_a_sentence_end_is_not_a_heading(texts):
    assert list(n for n in texts if n.startswith("581."))[:3] == ["581.1", "581.2", "581.3"]


@pytest.mark.regs
def test_the_poker_text_wrapped_mid_sentence_is_joined(texts):
    assert letters(texts["637a"]) == ["a", "b", "c", "d", "e"]
    assert "637a(e)(4)(i)" in {p.name for p in texts["637a"].parts}


def markers(*pairs):
    return [(nodeid, list(secs)) for nodeid, *secs in pairs]


@pytest.mark.regs
def test_a_marker_naming_a_subsection_the_texts_do_not_have_is_a_problem():
    m = mx.build(markers=markers(("tests/x.py::test_a", "581.13(z)"),
                                 ("tests/x.py::test_b", "633a.13"),
                                 ("tests/x.py::test_c", "999.1")))
    assert "tests/x.py::test_a names 581.13(z), which the texts do not have" in m["problems"]
    assert "tests/x.py::test_c names 999.1, which the texts do not have" in m["problems"]
    assert not any("test_b" in p for p in m["problems"])   # 633a.13: cited by the texts


@pytest.mark.regs
def test_an_enforced_subsection_without_a_test_is_a_problem():
    m = mx.build(markers=[])
    problems = set(m["problems"])
    assert "581.13(k) is enforced but no test names it" in problems
    assert not any(p.startswith("581.14(a) ") for p in problems)     # outside: surveillance


@pytest.mark.regs
def test_classes_name_only_real_subsections_with_a_class_and_reason():
    doc = mx.load_classes()
    texts_ = read_texts()
    units = {u.name for sec in texts_.values() for u in sec.subsections}
    assert set(doc["units"]) <= units
    assert {e["class"] for e in doc["units"].values()} <= set(mx.CLASSES)


@pytest.mark.regs
def test_the_suite_passes_its_own_trace_check():
    """What CI holds the suite to: every enforced subsection has a test naming it, and every
    section a test names is in the texts (or cited by them)."""
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "trace", "--check"],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.regs
def test_the_page_and_json_are_written(tmp_path):
    out = tmp_path / "traceability.md"
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "trace", "--out", str(out)],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.returncode == 0, proc.stderr
    page = out.read_text()
    assert "| 581.13(k) | enforced |" in page and "| 581.14(a) | outside |" in page
    assert "## Defects of the texts" in page and "581.2(b)(4)" in page
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "trace", "--json"],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    import json
    doc = json.loads(proc.stdout)
    assert doc["summary"]["subsections"] == 353 and doc["problems"] == []
    unit = next(u for u in doc["units"] if u["subsection"] == "583.9(g)")
    assert unit["class"] == "enforced" and any("test_dealing_procedures" in t
                                               for t in unit["tests"])


def test_a_missing_regs_folder_is_one_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "trace", "--check",
                           "--regs", str(tmp_path / "none")],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "regulation texts not found" in proc.stderr
