"""`tablectl passwd ROLE`: set a role's console PIN (controller/console/auth.py keeps them).

The PIN is read from the terminal without echo, checked at its first entry (a weak PIN is
refused before it is asked again), then asked a second time. With no terminal to read from
(a pipe, a service, `</dev/null`) it refuses rather than read a PIN that would be echoed or
logged. A PIN file that cannot be read (damaged, not ours) is replaced only after the person
confirms, and the damaged file is kept beside it (`FILE.damaged-N`) for whoever looks into
it: nothing is lost, and every other role then needs its PIN set again, which is said.
"""

import getpass
import os
import sys
import warnings

from controller.console.auth import (PIN_DEFAULT_TEXT, ROLES, PinStore, check_pin,
                                     default_pin_store)
from controller.errors import PinStoreError, TablectlError


class NoTerminal(TablectlError):
    """A PIN asked for where no person can type it unseen."""


def _ask(prompt, text):
    """One answer from the terminal, not echoed; NoTerminal when there is none."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", getpass.GetPassWarning)
        try:
            return prompt(text)
        except getpass.GetPassWarning:
            raise NoTerminal("no terminal to read the PIN from (it would be echoed); run it "
                             "in a terminal")
        except EOFError:
            raise NoTerminal("no PIN was typed (no terminal input)")
        except KeyboardInterrupt:
            sys.stderr.write("\n")         # off the prompt's line: the message is one line
            raise


def _ask_yes(text, stream=None):
    stream = stream or sys.stdin
    if not stream.isatty():
        raise NoTerminal("no terminal to confirm on")
    sys.stderr.write(text)
    sys.stderr.flush()
    answer = stream.readline()
    if not answer:
        raise NoTerminal("no answer was typed")
    return answer.strip().lower() in ("y", "yes")


def _set_aside(path):
    n = 1
    while os.path.lexists("%s.damaged-%d" % (path, n)):
        n += 1
    aside = "%s.damaged-%d" % (path, n)
    try:
        os.replace(path, aside)
    except OSError as e:
        raise PinStoreError("cannot move the damaged PIN file %s aside: %s" % (path, e.strerror))
    return aside


def cmd_passwd(args, out, prompt=None, confirm=None):
    """Exit 0 when the PIN is set; 1 when the two entries differ; 2 for anything refused."""
    prompt = prompt or getpass.getpass
    store = PinStore(args.file or default_pin_store())
    damaged = None
    try:
        store.load()
    except PinStoreError as e:
        damaged = e
        if not args.replace_damaged:
            ask = confirm or _ask_yes
            if not ask("%s\nReplace it with a new PIN file (the old one is kept as %s."
                       "damaged-N; every other role's PIN must be set again)? [y/N] "
                       % (e, store.path)):
                raise PinStoreError("%s; nothing changed" % e)
    first = check_pin(_ask(prompt, "New PIN for %s: " % args.role))
    second = _ask(prompt, "Repeat the PIN: ")
    if first != second:
        sys.stderr.write("tablectl passwd: the two PINs differ; nothing changed\n")
        return 1
    if damaged is not None:
        aside = _set_aside(store.path)
        out.write("the damaged PIN file was moved to %s\n" % aside)
    store.set(args.role, first)
    out.write("PIN set for %s in %s\n" % (args.role, store.path))
    if damaged is not None:
        others = [r for r in ROLES if r != args.role]
        out.write("set the other roles' PINs again: %s\n"
                  % ", ".join("tablectl passwd %s" % r for r in others))
    return 0


def add_parser(sub):
    p = sub.add_parser("passwd", help="set a role's console PIN (asked twice, not echoed)")
    p.add_argument("role", choices=ROLES)
    p.add_argument("--file", help="the PIN file (default: %s)" % PIN_DEFAULT_TEXT)
    p.add_argument("--replace-damaged", action="store_true", help="replace a PIN file that "
                   "cannot be read without asking (it is kept as FILE.damaged-N)")
    p.set_defaults(func=cmd_passwd)
    return p
