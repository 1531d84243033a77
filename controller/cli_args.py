"""What every verb's parser shares: the usage error, the parser whose errors are one line,
the argument types, the exit codes and the version.

Why a module of its own: the command line (controller/cli.py) registers the verbs of other
modules (`sim`, the completion and man page of cli_docs.py, ...), and those verbs raise the
same UsageError and take the same argument types; borrowing them from cli.py would make each
verb's module and cli.py import each other. They import this instead, which imports nothing
of the command line.
"""

import argparse
import sys

from controller.errors import TablectlError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class UsageError(TablectlError):
    """Arguments that do not make a command (`par GAME --all`, `--rounds 0`)."""


class Parser(argparse.ArgumentParser):
    """argparse with its errors as one line naming the verb, exit 2 (argparse prints the
    usage first, which breaks "one line" and buries the message)."""

    def error(self, message):
        sys.stderr.write("%s: %s (see %s --help)\n" % (self.prog, message, self.prog))
        sys.exit(EXIT_USAGE)


def positive_int(text):
    """--rounds and the like: a whole number of at least 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1, not %d" % n)
    return n


def version():
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version
    try:
        return dist_version("tablectl")
    except PackageNotFoundError:
        return "unknown (not installed)"


class interrupted_by_signals:
    """`with interrupted_by_signals():` SIGTERM (systemd, `kill`) and SIGHUP (the terminal
    closed) end a long-running verb (`sim`, `top`) as Ctrl-C does: a KeyboardInterrupt where
    it is, so its own clean stop runs, and no error is printed. Once the first has been taken,
    the next ones are ignored until the block ends (a stop is not cut short by a second
    signal). The handlers before are put back at the end. Main thread only."""

    SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")

    def __enter__(self):
        import signal
        self.old = {}
        for name in self.SIGNALS:
            s = getattr(signal, name)
            self.old[s] = signal.signal(s, self._interrupt)
        return self

    def _interrupt(self, signum, frame):
        import signal
        for s in self.old:
            signal.signal(s, signal.SIG_IGN)     # the stop under way is not interrupted
        raise KeyboardInterrupt

    def __exit__(self, *exc):
        import signal
        for s, handler in self.old.items():
            signal.signal(s, handler)
        return False
