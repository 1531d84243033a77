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
