"""Which packages the wheel holds: the three wings (issue 32).

Everything else is in setup.cfg. By default (`pip install .`, `pip install -e .`) the wheel
holds the three wings: the firmware (controller/ but for controller.floor and controller.lab,
and drivers/), the floor server (controller.floor) and the lab's tools (controller.lab, with
the simulator hal_sim they drive); their third-party needs come with the extras `floor`
(aiohttp) and `lab` (numpy), and the firmware's with no extra.

`TABLECTL_WINGS=firmware pip install .` builds the firmware alone, what deploy/install.sh
puts on a table: a Pi holds no par solver, floor server or simulator, so none of them is
inside the signature a lab approves (`tablectl manifest` signs the same set on any install).
Extras cannot leave packages out of a wheel, hence this switch at build time.
"""
import os
import shutil

from setuptools import find_packages, setup

# The firmware's packages; controller/console/manifest.py signs the same ones
# (tests/deploy/test_packaging.py keeps the two lists equal).
FIRMWARE = ("controller", "drivers")
WINGS = ("controller.floor", "controller.lab", "hal_sim")
PACKAGE_DATA = {"controller.lab.trace": ["classes.toml"], "controller.floor": ["static/*"]}


def packages(wings):
    """The packages of a build of `wings` ("all" or "firmware")."""
    found = find_packages(include=[p + s for p in FIRMWARE + WINGS for s in ("", ".*")])
    if wings == "all":
        return found
    return [p for p in found if not any(p == w or p.startswith(w + ".") for w in WINGS)]


def main():
    wings = os.environ.get("TABLECTL_WINGS", "").strip() or "all"
    if wings not in ("all", "firmware"):
        raise SystemExit("setup.py: TABLECTL_WINGS=%r: expected 'firmware' (the table's "
                         "firmware alone) or 'all'" % wings)
    options = {}
    if wings == "firmware":
        # its own build folder, emptied first: a module of an earlier build (a wing, a file
        # since deleted) left in build/lib would otherwise go into the wheel a lab signs
        base = os.path.join(os.path.dirname(os.path.abspath(__file__)), "build", "firmware")
        shutil.rmtree(base, ignore_errors=True)
        options = {"build": {"build_base": base}}
    data = {p: d for p, d in PACKAGE_DATA.items() if p in packages(wings)}
    setup(packages=packages(wings), package_data=data, options=options)


main()
