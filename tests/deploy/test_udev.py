"""deploy/99-tablectl.rules: every line a well-formed udev rule, every name once."""
import pathlib
import re
import shutil
import subprocess

import pytest

RULES = pathlib.Path(__file__).resolve().parents[2] / "deploy" / "99-tablectl.rules"
DEVICES = {"card_reader", "shuffler", "dealing_shoe", "dice_reader", "dealer_panel",
           "meter_display", "console"}
# KEY, KEY{attr}; operator; "value" (udev(7)).
PAIR = re.compile(r'\s*([A-Z_]+)(?:\{([^}]+)\})?\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(?:,|$)')
MATCH_KEYS = {"ACTION", "SUBSYSTEM", "SUBSYSTEMS", "KERNEL", "KERNELS", "ATTR", "ATTRS", "ENV",
              "DRIVERS", "TAG"}
ASSIGN_KEYS = {"SYMLINK", "GROUP", "MODE", "OWNER", "TAG", "ENV"}


def rules():
    out = []
    for n, line in enumerate(RULES.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pairs, pos = [], 0
        while pos < len(line):
            m = PAIR.match(line, pos)
            assert m, "line %d: not a udev key at %r" % (n, line[pos:])
            pairs.append(m.groups())
            pos = m.end()
        out.append((n, pairs))
    return out


def test_every_rule_is_well_formed():
    found = rules()
    assert len(found) == len(DEVICES)
    for n, pairs in found:
        for key, attr, op, value in pairs:
            if op in ("==", "!="):
                assert key in MATCH_KEYS, "line %d: %s is not a match key" % (n, key)
            else:
                assert key in ASSIGN_KEYS, "line %d: %s cannot be assigned" % (n, key)
            assert (attr is not None) == (key in ("ATTR", "ATTRS", "ENV")), (n, key)
        keys = {(k, a): (op, v) for k, a, op, v in pairs}
        assert keys[("SUBSYSTEM", None)] == ("==", "tty"), n
        for attr in ("idVendor", "idProduct", "serial"):       # one adapter, not any adapter
            assert keys[("ATTRS", attr)][0] == "==", (n, attr)
        assert keys[("GROUP", None)] == ("=", "dialout"), n
        assert keys[("MODE", None)] == ("=", "0660"), n


def test_names_are_the_devices_each_once():
    names = [v for _n, pairs in rules() for k, _a, op, v in pairs if k == "SYMLINK"]
    assert sorted(names) == sorted("tablectl/" + d for d in DEVICES)
    serials = [v for _n, pairs in rules() for k, a, _op, v in pairs if a == "serial"]
    assert len(set(serials)) == len(serials)


def test_placeholders_are_documented_and_cannot_match_a_real_adapter():
    text = RULES.read_text()
    comments = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    assert "PLACEHOLDERS" in comments
    for placeholder in ("VVVV", "PPPP", "_SERIAL"):
        assert placeholder in comments, placeholder
    for _n, pairs in rules():
        vid = next(v for k, a, _o, v in pairs if a == "idVendor")
        assert vid == "VVVV" and not re.fullmatch(r"[0-9a-f]{4}", vid)


@pytest.mark.skipif(shutil.which("udevadm") is None, reason="udevadm is not installed")
def test_udevadm_verify_when_available():
    r = subprocess.run(["udevadm", "verify", "--help"], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("udevadm verify needs systemd >= 254 (this one: %s)"
                    % subprocess.run(["udevadm", "--version"], capture_output=True,
                                     text=True).stdout.strip())
    r = subprocess.run(["udevadm", "verify", str(RULES)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
