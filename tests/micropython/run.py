"""Run the rules-core tests (tests/rules/test_*.py) under MicroPython.

    micropython tests/micropython/run.py          (from the repository root)

The same files run under pytest on CPython; here a small pytest shim stands in.
Ends with the line "N passed, N failed" and exits 1 when anything failed.
"""
import os
import sys

sys.path.insert(0, "tests/micropython/shim")
sys.path.insert(1, "tests/rules")
sys.path.insert(2, ".")

import pytest  # noqa: E402  (the shim)


def _modules():
    names = [n[:-3] for n in os.listdir("tests/rules") if n.startswith("test_") and n.endswith(".py")]
    names.sort()
    return names


def _describe(exc):
    return "%s: %s" % (type(exc).__name__, exc)


def main(argv):
    only = argv[1] if len(argv) > 1 else None
    passed = failed = 0
    for modname in _modules():
        if only and only not in modname:
            continue
        try:
            mod = __import__(modname)
        except Exception as e:  # a module that does not import is one failure, named
            failed += 1
            print("FAIL import %s: %s" % (modname, _describe(e)))
            sys.print_exception(e) if hasattr(sys, "print_exception") else None
            continue
        for name in sorted(dir(mod)):
            if not name.startswith("test"):
                continue
            obj = getattr(mod, name)
            if isinstance(obj, pytest.Parametrized):
                runs = [(name + str(list(case)), obj.func, case) for case in obj.cases]
            elif callable(obj):
                runs = [(name, obj, ())]
            else:
                continue
            for label, func, args in runs:
                try:
                    func(*args)
                    passed += 1
                except Exception as e:
                    failed += 1
                    print("FAIL %s.%s: %s" % (modname, label, _describe(e)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


sys.exit(main(sys.argv))
