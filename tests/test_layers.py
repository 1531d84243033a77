"""The layers (issue 12), enforced: `lint-imports` checks the contracts in .importlinter.

The rules core imports only itself and the one exception hierarchy; the games never import
drivers, the simulator, the journal or the console; the drivers only the bottom layer (events,
errors, units) and the rules core; nothing a table runs imports hal_sim, and hal_sim nothing of
the command line; no cycles. No contract ignores an import: import-linter sees the real graph,
imports inside functions included.
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


def contracts():
    import configparser
    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(ROOT, ".importlinter"))
    return {name.split(":", 2)[2]: cfg[name] for name in cfg.sections()
            if name.startswith("importlinter:contract:")}


def test_every_layer_contract_is_kept():
    r = lint_imports()
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "0 broken" in r.stdout and "%d kept" % len(contracts()) in r.stdout, \
        r.stdout[-2000:]


def test_no_contract_ignores_an_import():
    """Issue 12: the cycles the merges brought are untangled, not ignored. An ignore_imports
    put back (for a cycle, or any contract) fails here, naming the contract."""
    ignoring = {name: [line.strip() for line in c["ignore_imports"].splitlines() if line.strip()]
                for name, c in contracts().items()
                if c.get("ignore_imports", "").strip()}
    assert not ignoring, "contracts that ignore imports (move the code instead): %s" % ignoring
    assert contracts()["no-cycles"]["type"] == "acyclic_siblings"
    assert set(contracts()["no-cycles"]["ancestors"].split()) == {"controller", "drivers",
                                                                 "hal_sim"}


def lint_a_copy(tmp_path, module, line):
    """lint-imports on a copy of the tree where `module` (a path) has `line` added."""
    copy = tmp_path / "tree"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__",
                                                              "*.egg-info", "tests"))
    changed = copy / module
    changed.write_text(changed.read_text() + "\n" + line + "\n")
    exe = shutil.which("lint-imports", path=os.path.dirname(sys.executable))
    return subprocess.run([exe, "--no-cache"], cwd=copy, capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, PYTHONPATH=str(copy)))


def test_a_table_module_importing_the_simulator_breaks_the_contract(tmp_path):
    """The check can fail: a copy of the tree where the runtime imports hal_sim is refused."""
    r = lint_a_copy(tmp_path, "controller/runtime.py", "import hal_sim.simulation  # noqa")
    assert r.returncode != 0
    assert "controller.runtime is not allowed to import hal_sim" in r.stdout, r.stdout[-2000:]


def test_an_import_inside_a_function_that_closes_a_cycle_breaks_the_contract(tmp_path):
    """The way the ignored cycles came (an import inside a function, back to the module that
    registers this one) is seen: cli_args importing cli's parser is a cycle, and refused."""
    r = lint_a_copy(tmp_path, "controller/cli_args.py",
                    "def _parser():\n    from controller.cli import build_parser\n"
                    "    return build_parser()")
    assert r.returncode != 0
    assert "No cycles are allowed in controller." in r.stdout, r.stdout[-2000:]
    assert ".cli_args -> .cli" in r.stdout, r.stdout[-2000:]


def test_the_simulator_importing_the_command_line_breaks_the_contract(tmp_path):
    """controller.sim imports hal_sim (lazily, for `sim`); the way back is refused, though
    the no-cycles contract, sibling by sibling within a package, cannot see it."""
    r = lint_a_copy(tmp_path, "hal_sim/simulation.py",
                    "from controller.sim import PLAYABLE  # noqa")
    assert r.returncode != 0
    assert "hal_sim is not allowed to import controller.sim" in r.stdout, r.stdout[-2000:]
    assert "hal_sim.simulation -> controller.sim" in r.stdout, r.stdout[-2000:]


def test_every_module_of_ours_is_placed_in_the_contracts():
    """A new module must be placed: the contracts list modules by name, so one missing from a
    list would be a hole nobody sees. Each contract names every sibling it forbids or covers."""
    import pkgutil

    import controller
    import drivers

    def listed(contract, key):
        return set(contracts()[contract][key].split())
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
