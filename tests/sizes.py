"""The largest modules and classes of controller/, drivers/ and hal_sim/ (issue 12's closing
note and docs/architecture.md): `python tests/sizes.py [ROOT] [N]`.

A module's size is its lines; a class's is its lines and the methods it defines itself, and
(for a game model) every method it has through its bases, so a mixin tower shows.
"""
import ast
import os
import sys


def modules(root):
    for package in ("controller", "drivers", "hal_sim"):
        for folder, dirs, files in os.walk(os.path.join(root, package)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for f in sorted(files):
                if f.endswith(".py"):
                    yield os.path.join(folder, f)


def sizes(root):
    mods, classes = [], []
    for path in modules(root):
        with open(path) as f:
            text = f.read()
        rel = os.path.relpath(path, root)
        mods.append((text.count("\n"), rel))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                methods = [n for n in node.body if isinstance(n, (ast.FunctionDef,
                                                                   ast.AsyncFunctionDef))]
                classes.append((node.end_lineno - node.lineno + 1, len(methods),
                                "%s:%s" % (rel, node.name)))
    return sorted(mods, reverse=True), sorted(classes, reverse=True)


def game_methods():
    """{game: (methods through every base, of them defined at more than one level)}."""
    from controller.games import ALL_GAMES, model_class
    out = {}
    for game in ALL_GAMES:
        cls = model_class(game)
        seen = {}
        for base in cls.__mro__[:-1]:
            for name, value in vars(base).items():
                if callable(value) or isinstance(value, (classmethod, staticmethod)):
                    seen[name] = seen.get(name, 0) + 1
        out[game] = (len(seen), sum(1 for n in seen.values() if n > 1), len(cls.__mro__) - 2)
    return out


if __name__ == "__main__":
    root = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    mods, classes = sizes(root)
    print("modules: %d, %d lines" % (len(mods), sum(m[0] for m in mods)))
    for lines, rel in mods[:n]:
        print("  %5d  %s" % (lines, rel))
    print("classes (lines, own methods):")
    for lines, methods, name in classes[:n]:
        print("  %5d  %3d  %s" % (lines, methods, name))
    if root not in sys.path:
        sys.path.insert(0, root)
    print("game models (methods through the bases, defined at more than one level, bases):")
    for game, (total, again, bases) in game_methods().items():
        print("  %-26s %3d  %3d  %d" % (game, total, again, bases))
