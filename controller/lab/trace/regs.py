"""The regulation texts of ../shared/regs/, read into their numbered parts.

Why a parser of our own: the texts are the Pennsylvania Bulletin's and the Pa. Code's plain-text
renderings, with section headings in the middle of lines, a table of contents in front, and
(637a) lines wrapped mid-sentence. A traceability matrix is only honest if it lists every
lettered subsection the texts really have, so the parts are read from the texts themselves,
never typed in by hand.

A part is named as the tests name it: ``581.13(k)``, ``581.7(o)(1)``, ``637a(e)(4)(i)``. The
637a file holds one section whose number the file does not print; its parts are ``637a(a)``...
as the poker tests have always named them.
"""

import os
import re

from controller.errors import TablectlError


class RegsError(TablectlError):
    """The regulation texts cannot be found or read."""


# label at the start of a paragraph: (a) (12) (iv) (A), followed by text that starts a sentence
_LABEL = re.compile(r"\((?P<l>[a-z]{1,5}|\d{1,2}|[A-Z]{1,3})\)\s+(?=[A-Z\"'(\u201c]|[a-z])")
_HEADING = re.compile(r"§\s*(?P<n>\d{3}a?\.\d+)\.\s+(?P<title>[A-Z][^§]*?\.)(?=\s|$)")
_ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii",
          "xiv", "xv", "xvi", "xvii", "xviii", "xix", "xx"]

FILES = {
    "ch581-583-585_double-attack-blackjack_flop-poker_props-and-hops.txt": ("581", "583", "585"),
    "ch669a-670a_raise-it-up-stud_six-card-fortune-pai-gow.txt": ("669a", "670a"),
    "633a.7_blackjack-dealing-and-settlement.txt": ("633a",),
    "637a_poker-dealing-and-pot-award.txt": ("637a",),
}


class Part:
    """One numbered part of a section: its name, level (1 = lettered subsection) and text."""

    __slots__ = ("name", "section", "labels", "text")

    def __init__(self, section, labels, text):
        self.section = section
        self.labels = tuple(labels)
        self.name = section + "".join("(%s)" % x for x in labels)
        self.text = text

    @property
    def level(self):
        return len(self.labels)

    @property
    def subsection(self):
        """The lettered subsection this part belongs to (the section itself if it has none)."""
        return self.section + ("(%s)" % self.labels[0] if self.labels else "")

    def __repr__(self):
        return "Part(%s)" % self.name


class Section:
    __slots__ = ("number", "title", "parts", "text")

    def __init__(self, number, title, text):
        self.number = number
        self.title = title
        self.text = text
        self.parts = []

    @property
    def subsections(self):
        """The lettered subsections, or the section itself when it has none (definitions)."""
        subs = [p for p in self.parts if p.level == 1]
        return subs or [Part(self.number, (), self.text)]


def find_regs(start=None):
    """The regs folder: $TABLECTL_REGS, else ../shared/regs beside the repository."""
    env = os.environ.get("TABLECTL_REGS")
    if env:
        return env
    here = os.path.abspath(start or os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    return os.path.join(os.path.dirname(here), "shared", "regs")


def _kind(label):
    if label.isdigit():
        return "num"
    if label.isupper():
        return "cap"
    return "low"


def _succ_letter(x):
    return chr(ord(x) + 1) if len(x) == 1 else None


def _candidates(text):
    """Every label that may start a paragraph: (position, end, label, strong).

    Strong: at a line's start or after a sentence's end. Weak: in the middle of a line (a
    paragraph printed straight after a paytable, "... 1 to 1 (d) A certificate holder ...");
    a weak label counts only when it is the next one the structure expects.
    """
    out = []
    for m in _LABEL.finditer(text):
        i = m.start()
        if text.startswith("(relating", m.end()):
            continue
        before = text[:i].rstrip(" ")
        strong = i == 0 or before.endswith("\n") or before[-1:] in ".:;'\"\u201d"
        if not strong and not text[m.end():m.end() + 1].isupper():
            continue
        out.append((m.start(), m.end(), m.group("l"), strong))
    return out


def _next_roman(x):
    return _ROMAN[_ROMAN.index(x) + 1] if x in _ROMAN[:-1] else None


def _nest(section, text):
    """Assign each paragraph its full label path: (a) > (1) > (i) > (A)."""
    marks = _candidates(text)
    parts = []
    path = []  # labels by level: letter, number, roman, capital
    kept = []
    for k, (start, end, lab, strong) in enumerate(marks):
        kind = _kind(lab)
        level = None
        expected_letter = _succ_letter(path[0]) if path else "a"
        if kind == "num":
            if path:
                level = 1
                if not strong and lab != str(int(path[1]) + 1 if len(path) > 1
                                              and path[1].isdigit() else 1):
                    level = None
        elif kind == "cap":
            if len(path) >= 3:
                level = 3
        else:
            if len(path) >= 3 and path[2] in _ROMAN:
                expected_roman = _next_roman(path[2])
            elif len(path) >= 2:
                expected_roman = "i"
            else:
                expected_roman = None
            is_letter = lab == expected_letter
            is_roman = lab == expected_roman
            if is_letter and is_roman:
                # (i) after (h) with a numbered paragraph open: look ahead for (ii) vs (j)
                after = [m[2] for m in marks[k + 1:]
                         if m[2] in (_next_roman(lab), _succ_letter(lab))]
                is_letter = not after or after[0] == _succ_letter(lab)
                is_roman = not is_letter
            if is_letter:
                level = 0
            elif is_roman:
                level = 2
            elif strong and lab in _ROMAN and len(path) >= 2:
                level = 2
            elif strong and len(lab) == 1 and path:
                level = 0  # a letter the text skips: a defect of the text, kept as printed
        if level is None:
            continue
        path = path[:level] + [lab]
        kept.append((start, end, list(path)))
    for k, (start, end, labels) in enumerate(kept):
        nxt = kept[k + 1][0] if k + 1 < len(kept) else len(text)
        parts.append(Part(section, labels, text[end:nxt].strip()))
    return parts


def read_texts(regs_dir=None):
    """Every section of the seven texts, in order: {number: Section}."""
    regs_dir = regs_dir or find_regs()
    if not os.path.isdir(regs_dir):
        raise RegsError("regulation texts not found at %s (set TABLECTL_REGS)" % regs_dir)
    sections = {}
    for fname, chapters in FILES.items():
        path = os.path.join(regs_dir, fname)
        try:
            with open(path, encoding="utf-8") as f:
                raw = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise RegsError("%s: cannot read (%s)" % (path, e.__class__.__name__))
        for number, title, body in _sections_of(raw, chapters):
            sec = Section(number, title, body)
            sec.parts = _nest(number, body)
            sections[number] = sec
    return sections


def _join_wrapped(raw):
    """Join lines wrapped mid-paragraph (637a): a new paragraph starts with a label or a §."""
    out = []
    for line in raw.splitlines():
        s = line.strip()
        if not s:
            out.append("")
            continue
        if out and out[-1] and not re.match(r"\((?:[a-z]{1,5}|\d{1,2}|[A-Z]{1,3})\)\s", s) \
                and not s.startswith("§") and not out[-1].endswith((".", ":")):
            out[-1] += " " + s
        else:
            out.append(s)
    return "\n".join(out)


def _sections_of(raw, chapters):
    if chapters == ("637a",):
        text = _join_wrapped(raw)
        start = text.find("(a) ")
        yield "637a", "Poker: dealing and award of the pot", text[start:]
        return
    if chapters == ("633a",):
        first = raw.splitlines()[0]
        m = re.search(r"§\s*(633a\.\d+)\s*-\s*(.*)", first)
        yield m.group(1), m.group(2).strip(), "\n".join(raw.splitlines()[1:])
        return
    body = raw[raw.find("Annex A"):] if "Annex A" in raw else raw
    heads = []
    expected = {}
    for m in _HEADING.finditer(body):
        n = m.group("n")
        ch, num = n.split(".")
        if ch not in chapters:
            continue
        want = expected.get(ch, 1)
        if int(num) != want:
            continue  # a cross-reference at a sentence's end, not a heading
        expected[ch] = want + 1
        heads.append((m.start(), m.end(), n, m.group("title").rstrip(".")))
    for k, (s, e, n, title) in enumerate(heads):
        end = heads[k + 1][0] if k + 1 < len(heads) else len(body)
        chunk = body[e:end]
        # the next chapter's table of contents sits before its first heading
        cut = re.search(r"CHAPTER \d{3}a?\.", chunk)
        if cut:
            chunk = chunk[:cut.start()]
        yield n, title, chunk.strip()
