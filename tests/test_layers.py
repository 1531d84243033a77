"""The layers (issue 12) and the three wings (issue 32), enforced: `lint-imports` checks the
contracts in .importlinter. The firmware imports neither the floor server nor the lab; the lab
imports no floor server.

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
    """controller.lab.sim imports hal_sim (lazily, for `sim`); the way back is refused, though
    the no-cycles contract, sibling by sibling within a package, cannot see it."""
    r = lint_a_copy(tmp_path, "hal_sim/simulation.py",
                    "from controller.lab.sim import PLAYABLE  # noqa")
    assert r.returncode != 0
    assert "hal_sim is not allowed to import controller.lab:" in r.stdout, r.stdout[-2000:]
    assert "hal_sim.simulation -> controller.lab.sim" in r.stdout, r.stdout[-2000:]


def test_the_firmware_importing_the_lab_breaks_the_contract(tmp_path):
    """The wings can fail: a copy of the tree where the runtime imports a par module (the lab's)
    is refused, and so is one where the journal imports the floor server."""
    r = lint_a_copy(tmp_path, "controller/runtime.py", "import controller.lab.par.sheet  # noqa")
    assert r.returncode != 0
    assert "controller.runtime is not allowed to import controller.lab" in r.stdout, \
        r.stdout[-2000:]


def test_the_table_side_of_the_wire_importing_the_floor_server_breaks_the_contract(tmp_path):
    r = lint_a_copy(tmp_path, "controller/wire/uplink.py",
                    "import controller.floor.fold  # noqa")
    assert r.returncode != 0
    assert "controller.wire is not allowed to import controller.floor" in r.stdout, \
        r.stdout[-2000:]
    assert "controller.wire.uplink -> controller.floor.fold" in r.stdout, r.stdout[-2000:]


def test_the_lab_importing_the_floor_server_breaks_the_contract(tmp_path):
    r = lint_a_copy(tmp_path, "controller/lab/floor_demo.py",
                    "from controller.floor.service import serve_floor  # noqa")
    assert r.returncode != 0
    assert "controller.lab is not allowed to import controller.floor" in r.stdout, \
        r.stdout[-2000:]
    assert "controller.lab.floor_demo -> controller.floor.service" in r.stdout, r.stdout[-2000:]


def test_every_module_of_ours_is_placed_in_the_contracts():
    """A new module must be placed: the contracts list modules by name, so one missing from a
    list would be a hole nobody sees. Each contract names every sibling it forbids or covers,
    and every module of controller/ is in the firmware or in one of the two other wings."""
    import pkgutil

    import controller
    import drivers

    def listed(contract, key):
        return set(contracts()[contract][key].split())
    ours = {"controller." + m.name for m in pkgutil.iter_modules(controller.__path__)}
    wings = {"controller.floor", "controller.lab"}
    bottom = {"controller.errors", "controller.events", "controller.units",
              "controller.device_registry"}
    firmware = listed("firmware", "source_modules")
    assert firmware == (ours - wings) | {"drivers"}, \
        "place the new module: is it firmware (on every table, signed), the floor's or the lab's?"
    assert listed("firmware", "forbidden_modules") == wings
    assert listed("rules-core", "forbidden_modules") >= \
        ours - {"controller.rules", "controller.errors"}
    assert listed("drivers", "forbidden_modules") >= ours - bottom - {"controller.rules"}
    assert listed("bottom-layer", "forbidden_modules") >= ours - bottom - {"controller.rules"}
    table_side = listed("no-simulator-in-the-table", "source_modules")
    assert "controller.wire" in table_side        # the table's part of the floor
    assert table_side >= ours - wings, \
        "place the new module: does a table run it (then it may not import hal_sim)?"
    assert "drivers" in table_side and {m.name for m in pkgutil.iter_modules(drivers.__path__)}


def test_starting_the_cli_or_a_table_imports_no_simulator():
    """At run time too: `tablectl run`'s modules and the CLI (which offers `sim`) load no
    hal_sim until `sim` itself runs."""
    code = ("import sys, controller.cli, controller.run, controller.runtime, controller.lab.sim; "
            "controller.cli.build_parser(); print(sorted(m for m in sys.modules if m.split('.')[0] == 'hal_sim'))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]", r.stdout


def test_a_table_with_the_firmware_alone_runs_and_names_what_is_missing(tmp_path):
    """The firmware wing alone (what deploy/install.sh puts on a Pi: no controller.floor,
    controller.lab or hal_sim) builds its command line, offers `run`, and answers a verb of
    another wing with one line naming the extra that brings it."""
    copy = tmp_path / "firmware"
    for pkg in ("controller", "drivers"):
        shutil.copytree(os.path.join(ROOT, pkg), copy / pkg, ignore=shutil.ignore_patterns(
            "__pycache__", "lab", "floor") if pkg == "controller" else
            shutil.ignore_patterns("__pycache__"))
    assert not (copy / "controller" / "lab").exists()
    # a development install's editable finder would find the wings in this checkout: a table has
    # no such finder, so the copy runs without it
    boot = ("import runpy, sys; sys.meta_path[:] = [f for f in sys.meta_path "
            "if 'editable' not in repr(f).lower()]; sys.argv[0] = 'tablectl'; "
            "runpy.run_module('controller.cli', run_name='__main__')")

    def tablectl(*argv):
        return subprocess.run([sys.executable, "-c", boot] + list(argv), cwd=copy,
                              capture_output=True, text=True, timeout=60,
                              env=dict(os.environ, PYTHONPATH=str(copy)))
    run = tablectl("run", "--help")
    assert run.returncode == 0 and "--config" in run.stdout, run.stderr
    par = tablectl("par", "--all")
    assert par.returncode == 2, par.stdout[-500:]
    assert par.stderr.strip().splitlines() == [
        "tablectl par: the lab's tools are not installed on this machine (a workstation: "
        "pip install 'tablectl[lab]')"]
    floor = tablectl("floor", "--nats", "x")
    assert floor.returncode == 2 and "pip install 'tablectl[floor]'" in floor.stderr


def test_the_console_importing_a_policy_class_breaks_the_contract(tmp_path):
    """Issue 32: the console asks for what it shows by name (Policy.offers, through the
    controller's `offered`); a screen importing a policy's class again is refused."""
    r = lint_a_copy(tmp_path, "controller/console/money_screen.py",
                    "from controller.policies.devices import ReaderInspection  # noqa")
    assert r.returncode != 0
    assert "controller.console is not allowed to import controller.policies" in r.stdout, \
        r.stdout[-2000:]
