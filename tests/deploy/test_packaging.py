"""Packaging follows the wings (issue 32): the wheel deploy/install.sh puts on a table
(`TABLECTL_WINGS=firmware`, setup.py) holds the firmware alone, needs neither the floor's
aiohttp nor the lab's numpy, runs `tablectl run` and answers a missing wing's verb with one
line; and its files are exactly what `tablectl manifest` signs, with the same signature as
this checkout gives."""
import os
import shutil
import subprocess
import sys
import zipfile

from controller.console import manifest
from tests.site_packages import link_dependencies

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# What a table's python runs: this checkout's editable finder dropped, so only what the wheel
# installed (and the dependencies beside it) can be imported.
BOOT = ("import runpy, sys; sys.meta_path[:] = [f for f in sys.meta_path "
        "if 'editable' not in repr(f).lower()]; sys.argv[0] = 'tablectl'; "
        "runpy.run_module('controller.cli', run_name='__main__')")


def build_wheel(tmp_path, wings):
    """The wheel pip builds from a copy of the checkout (so no build/ is left in it)."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("setup.py", "setup.cfg", "pyproject.toml", "README.md"):
        shutil.copy(os.path.join(REPO, name), src / name)
    for pkg in ("controller", "drivers", "hal_sim"):
        shutil.copytree(os.path.join(REPO, pkg), src / pkg,
                        ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path / "wheel"
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out),
                        str(src)], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, TABLECTL_WINGS=wings))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    (wheel,) = out.glob("tablectl-*.whl")
    return wheel


def test_the_firmware_wheel_is_what_the_manifest_signs_and_runs_alone(tmp_path):
    wheel = build_wheel(tmp_path, "firmware")
    site = tmp_path / "site-packages"
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        z.extractall(site)
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    software = sorted(n for n in names if ".dist-info/" not in n)
    # the firmware alone: exactly the files the manifest signs from this checkout
    signed = [f for f in manifest.files() if f.startswith(manifest.FIRMWARE)]
    assert software == signed
    assert not [n for n in software if n.startswith(("controller/floor/", "controller/lab/",
                                                     "hal_sim/"))]
    assert "controller/wire/uplink.py" in software and "drivers/hal.py" in software
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    plain = [line for line in requires if "; extra" not in line]
    assert not [line for line in plain if "aiohttp" in line or "numpy" in line], plain
    assert 'Requires-Dist: aiohttp>=3.9; extra == "floor"' in requires
    assert 'Requires-Dist: numpy>=1.24; extra == "lab"' in requires

    link_dependencies(site)

    def tablectl(*argv):
        return subprocess.run([sys.executable, "-c", BOOT] + list(argv), cwd=site,
                              capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, PYTHONPATH=str(site)))
    run = tablectl("run", "--help")
    assert run.returncode == 0 and "--config" in run.stdout, run.stderr
    sim = tablectl("sim", "--game", "poker")
    assert sim.returncode == 2 and sim.stderr.strip().splitlines() == [
        "tablectl sim: the lab's tools are not installed on this machine (a workstation: "
        "pip install 'tablectl[lab]')"]
    # the table's manifest: the same files and signature as this development checkout's
    p = tablectl("manifest")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("wrote %s, signature %s\n" % (
        site / manifest.NAME, manifest.firmware_signature())), p.stdout
    p = tablectl("manifest", "--check")
    assert p.returncode == 0 and p.stdout.startswith("PASS"), p.stdout + p.stderr


def test_a_wing_switch_that_is_not_one_is_refused_in_one_line():
    r = subprocess.run([sys.executable, "setup.py", "--name"], cwd=REPO, capture_output=True,
                       text=True, timeout=60, env=dict(os.environ, TABLECTL_WINGS="firmwear"))
    assert r.returncode != 0
    assert r.stderr.strip().splitlines() == [
        "setup.py: TABLECTL_WINGS='firmwear': expected 'firmware' (the table's firmware "
        "alone) or 'all'"]
