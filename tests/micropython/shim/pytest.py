"""The part of pytest the rules-core tests use, for running them under MicroPython.

Only what tests/rules/ may use: pytest.mark.reg, pytest.mark.parametrize and
pytest.raises. MicroPython functions take no attributes, so a parametrized
test becomes a Parametrized object the runner expands.
"""


class Parametrized:
    def __init__(self, func, names, cases):
        self.func = func
        self.names = names
        self.cases = cases


def _names(argnames):
    if isinstance(argnames, str):
        return [n.strip() for n in argnames.split(",") if n.strip()]
    return list(argnames)


class _Mark:
    def reg(self, *sections):
        return lambda f: f

    def parametrize(self, argnames, argvalues, ids=None):
        names = _names(argnames)
        cases = []
        for v in argvalues:
            if len(names) == 1:
                v = (v,)
            cases.append(tuple(v))

        def deco(f):
            if isinstance(f, Parametrized):
                combined = []
                for outer in cases:
                    for inner in f.cases:
                        combined.append(outer + inner)
                return Parametrized(f.func, names + f.names, combined)
            return Parametrized(f, names, cases)
        return deco

    def __getattr__(self, name):
        return lambda *a, **k: (lambda f: f)


mark = _Mark()


class _ExcInfo:
    def __init__(self):
        self.value = None
        self.type = None


class raises:
    def __init__(self, exc, match=None):
        self.exc = exc
        self.match = match
        self.info = _ExcInfo()

    def __enter__(self):
        return self.info

    def __exit__(self, etype, value, tb):
        if etype is None:
            raise AssertionError("DID NOT RAISE %r" % (self.exc,))
        if not isinstance(value, self.exc):
            return False
        if self.match is not None:
            import re
            if not re.search(self.match, str(value)):
                raise AssertionError("%r does not match %r" % (str(value), self.match))
        self.info.value = value
        self.info.type = etype
        return True


def fail(msg=""):
    raise AssertionError(msg)
