"""The traceability matrix: every lettered subsection, how it stands, its tests and its code.

Built from three sources that nobody has to keep in step by hand: the regulation texts (what
subsections exist), the test suite's `reg` markers (which tests name them, collected by pytest
itself) and the source's own citations of the sections (which modules implement them). The one
hand-kept input is classes.toml: what is outside the firmware or a configuration choice, and why.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib

from controller.lab.trace.regs import RegsError, read_texts

CLASSES = ("enforced", "configuration", "outside", "gap")
_CITE = re.compile(r"(?<![\d.])(\d{3}a?\.\d+|637a(?=\())((?:\([a-zA-Z0-9]+\))*)")
_MARK = re.compile(r"^(\d{3}a?(?:\.\d+)?)((?:\([a-zA-Z0-9]+\))*)$")
SOURCE_DIRS = ("controller", "drivers", "hal_sim")


def repo_root():
    return os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def load_classes(path=None):
    path = path or os.path.join(os.path.dirname(__file__), "classes.toml")
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    for key in doc:
        if key not in ("units", "cited", "defects"):
            raise RegsError("%s: unknown table [%s]" % (path, key))
    for name, entry in doc.get("units", {}).items():
        if entry.get("class") not in CLASSES or not entry.get("reason"):
            raise RegsError("%s: %s needs class (one of %s) and reason"
                            % (path, name, ", ".join(CLASSES)))
    return doc


def collect_markers(root=None, tests="tests"):
    """[(nodeid, [section, ...])] from pytest's own collection of the suite."""
    root = root or repo_root()
    fd, out = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        env = dict(os.environ, TABLECTL_TRACE_OUT=out)
        proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                               "-p", "controller.lab.trace.collect", "-p", "no:cacheprovider", tests],
                              cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        if proc.returncode != 0:
            tail = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or ["?"]
            raise RegsError("collecting the tests failed: %s" % tail[0])
        with open(out, encoding="utf-8") as f:
            return [(n, s) for n, s in json.load(f)]
    finally:
        os.unlink(out)


def source_citations(root=None):
    """{part name: sorted modules} from the sections each source file cites."""
    root = root or repo_root()
    cites = {}
    for top in SOURCE_DIRS:
        for dirpath, dirnames, files in os.walk(os.path.join(root, top)):
            # the trace package names sections as data, not as rules it implements
            dirnames[:] = [d for d in dirnames if d not in ("__pycache__", "trace")]
            for fn in files:
                if not fn.endswith(".py"):
                    continue
                path = os.path.join(dirpath, fn)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for m in _CITE.finditer(text):
                    name = m.group(1) + m.group(2)
                    cites.setdefault(name, set()).add(rel)
    return cites


def _unit_of(name, units):
    """The lettered subsection a marker or citation names (or the bare section)."""
    m = _MARK.match(name)
    if not m:
        return None
    sec, labels = m.group(1), re.findall(r"\(([a-zA-Z0-9]+)\)", m.group(2))
    if labels and sec + "(%s)" % labels[0] in units:
        return sec + "(%s)" % labels[0]
    return sec if sec in units else None


def build(regs_dir=None, markers=None, root=None, classes=None):
    sections = read_texts(regs_dir)
    classes = classes or load_classes()
    markers = collect_markers(root) if markers is None else markers
    cites = source_citations(root)
    parts = set()
    units = {}
    for sec in sections.values():
        parts.add(sec.number)
        for p in sec.parts:
            parts.add(p.name)
        for u in sec.subsections:
            first = re.split(r"(?<=[.:])\s", u.text.strip(), maxsplit=1)[0]
            units[u.name] = {"section": sec.number, "title": sec.title, "subsection": u.name,
                             "class": "enforced", "reason": first[:160], "tests": [],
                             "modules": set(), "text": u.text}
    problems = []
    for name, entry in classes.get("units", {}).items():
        if name not in units:
            problems.append("classes.toml names %s, which is not a lettered subsection of the "
                            "texts" % name)
            continue
        units[name]["class"] = entry["class"]
        units[name]["reason"] = entry["reason"]
    cited = classes.get("cited", {})
    for nodeid, secs in markers:
        for s in secs:
            base = _MARK.match(s)
            if s in parts or (base and base.group(1) in cited):
                u = _unit_of(s, units)
                if u:
                    units[u]["tests"].append(nodeid)
                continue
            problems.append("%s names %s, which the texts do not have" % (nodeid, s))
    for name, mods in cites.items():
        u = _unit_of(name, units)
        if u and (name in parts):
            units[u]["modules"].update(mods)
    for u in units.values():
        u["modules"] = sorted(u["modules"])
        u["tests"] = sorted(set(u["tests"]))
        if u["class"] == "enforced" and not u["tests"]:
            problems.append("%s is enforced but no test names it" % u["subsection"])
    defects = classes.get("defects", {})
    for name in defects:
        if name not in parts:
            problems.append("classes.toml [defects] names %s, which the texts do not have" % name)
    return {"units": list(units.values()), "problems": problems, "defects": defects,
            "cited": cited}


def summary(matrix):
    out = {}
    for u in matrix["units"]:
        out[u["class"]] = out.get(u["class"], 0) + 1
    tested = sum(1 for u in matrix["units"] if u["class"] == "enforced" and u["tests"])
    return {"subsections": len(matrix["units"]), "by_class": out, "enforced_tested": tested}


def to_json(matrix):
    units = [{k: v for k, v in u.items() if k != "text"} for u in matrix["units"]]
    return {"summary": summary(matrix), "units": units, "defects": matrix["defects"],
            "cited_not_reproduced": matrix["cited"], "problems": matrix["problems"]}


def _tests_shown(nodeids, most=3):
    """Test functions, not their parameter cases: `file::test (5 cases)`."""
    funcs = {}
    for nodeid in nodeids:
        path, _, name = nodeid.partition("::")
        key = "%s::%s" % (os.path.basename(path), name.split("[", 1)[0])
        funcs[key] = funcs.get(key, 0) + 1
    shown = ["`%s`%s" % (k, " (%d cases)" % n if n > 1 else "")
             for k, n in sorted(funcs.items())[:most]]
    if len(funcs) > most:
        shown.append("and %d more" % (len(funcs) - most))
    return ", ".join(shown)


def to_markdown(matrix):
    s = summary(matrix)
    lines = ["# Traceability: every lettered subsection of the texts", "",
             "Written by `tablectl trace` from the texts in `../shared/regs/`, the suite's "
             "`@pytest.mark.reg` markers (as pytest collects them) and the sections the source "
             "cites; the classification is `controller/lab/trace/classes.toml`. Do not edit by hand: "
             "run `tablectl trace` again after changing tests or the classification. The test suite "
             "fails while an enforced subsection has no test or a test names a subsection the "
             "texts do not have (`tablectl trace --check`).", "",
             "- **enforced**: the controller makes it happen or refuses what breaks it.",
             "- **configuration**: the certificate holder's choice in its Rules Submission, a "
             "table option the firmware then enforces.",
             "- **outside**: layout, furniture, signage, surveillance, staffing, the dealer's "
             "hands: nothing a table controller can see.",
             "- **gap**: a rule the firmware could enforce and does not yet.", "",
             "%d subsections: %s. %d of the %d enforced subsections are named by a test."
             % (s["subsections"], ", ".join("%d %s" % (n, c) for c, n in
                                            sorted(s["by_class"].items())),
                s["enforced_tested"], s["by_class"].get("enforced", 0)), ""]
    gaps = [u for u in matrix["units"] if u["class"] == "gap"]
    if gaps:
        lines += ["Gaps, enforceable and not yet enforced: %s." % "; ".join(
            "%s (%s)" % (u["subsection"], u["reason"]) for u in gaps), ""]
    by_section = {}
    for u in matrix["units"]:
        by_section.setdefault((u["section"], u["title"]), []).append(u)
    for (sec, title), units in by_section.items():
        lines += ["## %s %s" % (sec, title), "",
                  "| subsection | class | reason | tests | modules |",
                  "|---|---|---|---|---|"]
        for u in units:
            shown = _tests_shown(u["tests"])
            mods = ", ".join("`%s`" % m for m in u["modules"][:4])
            if len(u["modules"]) > 4:
                mods += " and %d more" % (len(u["modules"]) - 4)
            reason = u["reason"].replace("|", "/").replace("\n", " ")
            lines.append("| %s | %s | %s | %s | %s |" % (u["subsection"], u["class"], reason,
                                                         shown or "—", mods or "—"))
        lines.append("")
    lines += ["## Defects of the texts", "",
              "| where | the defect, and the reading the firmware takes |", "|---|---|"]
    for name, text in matrix["defects"].items():
        lines.append("| %s | %s |" % (name, text.replace("|", "/")))
    lines += ["", "## Cited, not reproduced in ../shared/regs", "",
              "Tests may name these: the texts cite them.", ""]
    for name, text in matrix["cited"].items():
        lines.append("- %s: %s" % (name, text))
    lines.append("")
    return "\n".join(lines)
