"""The journal's stores behind one declared interface (issue 32): controller/journal/
interface.py's JournalStore, which the sector log and the SQLite store of older versions both
implement; nothing outside them calls a store method the interface does not declare."""
import ast
import os

import pytest

from controller.journal.interface import JournalStore
from controller.journal.log import LogStore
from controller.journal.store import Store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# what each store sets when opened (JournalStore's docstring)
ATTRIBUTES = {"path", "key", "key_id", "lock", "last_seq", "last_hash"}
# the implementations themselves, and a `store` that is no journal's (the console's PINs)
NOT_CALLERS = ("controller/journal/store.py", "controller/journal/log.py",
               "controller/journal/log_index.py", "controller/cli_passwd.py")


def called_on_stores(root=ROOT):
    """{attribute: [file]} of every `store.X` / `self.store.X` in controller/ but NOT_CALLERS."""
    out = {}
    for folder, dirs, files in os.walk(os.path.join(root, "controller")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            path = os.path.join(folder, f)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if not f.endswith(".py") or rel in NOT_CALLERS:
                continue
            with open(path) as fh:
                tree = ast.parse(fh.read(), path)
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and (
                        isinstance(node.value, ast.Name) and node.value.id == "store" or
                        isinstance(node.value, ast.Attribute) and node.value.attr == "store"):
                    out.setdefault(node.attr, []).append(rel)
    return out


def test_both_stores_implement_the_one_declared_interface():
    assert issubclass(LogStore, JournalStore) and issubclass(Store, JournalStore)
    assert not LogStore.__abstractmethods__ and not Store.__abstractmethods__
    assert len(JournalStore.__abstractmethods__) >= 15


def test_nothing_calls_a_store_method_the_interface_does_not_declare():
    undeclared = {a: files for a, files in called_on_stores().items()
                  if a not in ATTRIBUTES and not hasattr(JournalStore, a)}
    assert not undeclared, "declare it in controller/journal/interface.py: %s" % undeclared
    assert {"append", "rows", "verify", "last"} <= set(called_on_stores())


def test_a_store_that_leaves_a_method_out_is_refused(tmp_path):
    class Partial(JournalStore):
        pass
    with pytest.raises(TypeError, match="abstract"):
        Partial()
    (tmp_path / "controller").mkdir()
    (tmp_path / "controller" / "x.py").write_text("def f(store):\n    return store.vacuum()\n")
    assert called_on_stores(str(tmp_path)) == {"vacuum": ["controller/x.py"]}
