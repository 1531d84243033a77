"""docs/console.md's command table is one table, and it lists exactly the commands the console
runs, each with the role it needs: the manual cannot drift from the code."""
import os
import re

from tests.console.support import Rig

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "console.md")


def command_table():
    """{usage: role} of the table under "## Commands", which must run unbroken."""
    text = open(DOC).read()
    section = text.split("\n## Commands\n", 1)[1]
    lines = section.splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("| command |"))
    rows = []
    for ln in lines[first + 2:]:
        if not ln.startswith("|"):
            break
        rows.append(ln)
    after = "\n".join(lines[first + 2 + len(rows):])
    # nothing that looks like a command row may follow the table outside it
    assert not re.search(r"^\| `[a-z]", after.split("\n### ", 1)[0], re.M), \
        "a paragraph breaks the command table"
    out = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        usage = re.fullmatch(r"`([^`]+)`", cells[0]).group(1)
        out[usage] = cells[1]
    return out


def test_the_command_table_lists_every_command_with_its_role_and_nothing_else(tmp_path):
    documented = command_table()
    code = {usage: minimum for usage, minimum, _ in Rig(tmp_path).commands.catalogue()}
    assert documented == code


def test_the_command_table_is_not_broken_by_a_paragraph():
    text = open(DOC).read()
    section = text.split("\n## Commands\n", 1)[1].split("\n### ", 1)[0]
    table = [ln for ln in section.splitlines() if ln.startswith("| `")]
    block = re.search(r"\| command \|.*?\n((?:\|.*\n)+)", section).group(1)
    assert len([ln for ln in block.splitlines() if ln.startswith("| `")]) == len(table)
    for usage in ("devices [DEVICE]", "verify [SEED]", "config show", "logout"):
        assert "| `%s` |" % usage in block
