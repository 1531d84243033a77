"""The layers (issue 12), enforced: `lint-imports` checks the contracts in .importlinter.

The rules core imports only itself and the one exception hierarchy; the games never import
drivers, the simulator, the journal or the console; the drivers only the bottom layer (events,
errors, units) and the rules core; nothing a table runs imports hal_sim; no cycles. A contract
not yet enforceable is said so in .importlinter, with why.
"""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def lint_imports():
    exe = shutil.which("lint-imports", path=os.path.dirname(sys.executable)) or \
        shutil.which("lint-imports")
    assert exe, "lint-imports (import-linter, in the test extra) is not installed"
    return subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_every_layer_contract_is_kept():
    r = lint_imports()
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "0 broken" in r.stdout and "6 kept" in r.stdout, r.stdout[-2000:]


def test_a_table_module_importing_the_simulator_breaks_the_contract(tmp_path):
    """The check can fail: a copy of the tree where the runtime imports hal_sim is refused."""
    copy = tmp_path / "tree"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__",
                                                              "*.egg-info", "tests"))
    runtime = copy / "controller" / "runtime.py"
    runtime.write_text(runtime.read_text() + "\nimport hal_sim.simulation  # noqa\n")
    exe = shutil.which("lint-imports", path=os.path.dirname(sys.executable))
    r = subprocess.run([exe, "--no-cache"], cwd=copy, capture_output=True, text=True,
                       timeout=300, env=dict(os.environ, PYTHONPATH=str(copy)))
    assert r.returncode != 0
    assert "controller.runtime is not allowed to import hal_sim" in r.stdout, r.stdout[-2000:]


def test_every_module_of_ours_is_placed_in_the_contracts():
    """A new module must be placed: the contracts list modules by name, so one missing from a
    list would be a hole nobody sees. Each contract names every sibling it forbids or covers."""
    import configparser
    import pkgutil

    import controller
    import drivers
    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(ROOT, ".importlinter"))

    def listed(contract, key):
        return set(cfg["importlinter:contract:%s" % contract][key].split())
    ours = {"controller." + m.name for m in pkgutil.iter_modules(controller.__path__)}
    bottom = {"controller.errors", "controller.events", "controller.units"}
    assert listed("rules-core", "forbidden_modules") >= \
        ours - {"controller.rules", "controller.errors"}
    assert listed("drivers", "forbidden_modules") >= ours - bottom - {"controller.rules"}
    assert listed("bottom-layer", "forbidden_modules") >= ours - bottom - {"controller.rules"}
    table_side = listed("no-simulator-in-the-table", "source_modules")
    assert "controller.floor.uplink" in table_side        # the table's part of the floor
    assert table_side >= ours - {"controller.cli", "controller.sim", "controller.cli_docs",
                                 "controller.floor"}, \
        "place the new module: does a table run it (then it may not import hal_sim)?"
    assert "drivers" in table_side and {m.name for m in pkgutil.iter_modules(drivers.__path__)}


def test_starting_the_cli_or_a_table_imports_no_simulator():
    """At run time too: `tablectl run`'s modules and the CLI (which offers `sim`) load no
    hal_sim until `sim` itself runs."""
    code = ("import sys, controller.cli, controller.run, controller.runtime, controller.sim; "
            "controller.cli.build_parser(); print(sorted(m for m in sys.modules if m.split('.')[0] == 'hal_sim'))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]", r.stdout
