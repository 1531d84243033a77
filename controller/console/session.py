"""The console's line discipline, log-in and idle timeout: bytes in, bytes out, no I/O.

A raw serial line gives the console every key as it is typed, with no echo and no
editing, so both are done here (no readline, no termios; why not prompt_toolkit: see
LineEditor): printable ASCII is echoed (nothing is echoed while a PIN is typed);
Backspace (0x08) and DEL (0x7f) erase the character before the cursor; Ctrl-U erases the
line; Ctrl-C cancels it; CR, LF or CR LF ends it; the arrow keys move in the line (left,
right) and through this session's earlier command lines (up, down; Ctrl-P, Ctrl-N), Home
and End (Ctrl-A, Ctrl-E) go to its ends; other escape sequences and control bytes are
ignored; a line that would run past the terminal's width rings the bell. Logged in, `?`
answers at once (what may follow the words typed so far) and the line is redrawn as it
was; Tab completes the word typed, or lists what it may become. Output lines end in CR LF.

What the console writes fits the session's terminal: every line is folded at its width
(80 columns unless `terminal width N` says otherwise; view.fit), and an answer longer
than a page (24 lines; `terminal length N`, 0 for none) stops at `-- more --` until a key:
Space the next page, Enter the next line, q (or any other key) the end of it.

A session asks for a role and its PIN, then runs commands as that role until `logout`,
or until it has been idle `idle_s` on the injected clock (`tick()` checks). Failed
log-ins go to the LoginGuard, which locks the console for a while after several. Log-ins,
log-outs and lock-outs of the console are journaled through `note`; never a PIN.
"""

from controller.console import view
from controller.console.auth import ROLES
from controller.console.commands import Setting, Watch
from controller.errors import ConsoleError

BS, DEL, CR, LF, ESC, TAB = 0x08, 0x7F, 0x0D, 0x0A, 0x1B, 0x09
CTRL_A, CTRL_C, CTRL_E, CTRL_N, CTRL_P, CTRL_U, BEL = 0x01, 0x03, 0x05, 0x0E, 0x10, 0x15, 0x07
MAX_LINE = 200
ERASE = b"\b \b"
LOGOUT = ("logout", "exit", "quit")
CANCEL = object()            # the "line" Ctrl-C ends: nothing to run, no PIN to check
HISTORY = 50                 # command lines a session keeps for the up arrow
WIDTH, LENGTH = view.WIDTH, 24      # a serial terminal's columns and lines unless told
MORE = b"-- more -- (Space: next page, Enter: next line, q: stop)"


class Ask(str):
    """The line so far when `?` was typed: answered at once, the line kept."""


class Complete(str):
    """The line so far when Tab was typed: its last word completed, or its choices listed."""


class LineEditor:
    """One line being typed. `key(byte)` returns (bytes to echo, finished line or None):
    the line is a str when Enter ends it, CANCEL for Ctrl-C, and, once `commands` is set
    (logged in), an Ask for `?` and a Complete for Tab (the line stays being typed).

    Written here rather than taken from prompt_toolkit (issue 35 asked to weigh it): the
    console is one select() thread serving the line, the announcements of lock-outs
    between keys, `watch`, hang-ups and a console adapter that comes and goes, with the
    session a pure bytes-in, bytes-out object the tests drive without a terminal.
    prompt_toolkit would take the fd into an asyncio application of its own, ask the
    terminal for its size and cursor position (a serial line answers neither), and add a
    package to the firmware every table's signature covers; what the console needs of it
    (cursor keys, history, an instant `?`, Tab) is this class."""

    def __init__(self, max_len=MAX_LINE):
        self.max_len = max_len
        self.buf = bytearray()
        self.pos = 0                 # the cursor, 0..len(buf)
        self.echo = True
        self.commands = False        # `?` and Tab are keys of their own (logged in)
        self.history = []            # earlier lines, oldest first (only while `commands`)
        self._back = 0               # how far up the history the line shown is
        self._draft = b""            # the line typed before the up arrow
        self.prompt = b""            # what redraw() puts before the line
        self._esc = 0                # 0 none, 1 after ESC, 2 inside a CSI/SS3 sequence
        self._seq = bytearray()      # a CSI sequence's bytes so far
        self._last_eol = None        # CR or LF if the previous byte ended a line

    def key(self, b):
        eol, self._last_eol = self._last_eol, None
        if self._esc:
            return self._escape(b)
        if b in (CR, LF):
            if eol is not None and eol != b:
                return b"", None                               # the LF of CR LF (or LF CR)
            self._last_eol = b
            line = self.buf.decode("ascii")
            if self.commands and line.strip() and (not self.history or
                                                   self.history[-1] != line):
                self.history = (self.history + [line])[-HISTORY:]
            self.buf.clear()
            self.pos, self._back = 0, 0
            return b"\r\n", line
        if b in (BS, DEL):
            if not self.pos:
                return b"", None
            del self.buf[self.pos - 1]
            self.pos -= 1
            if self.pos == len(self.buf):
                return (ERASE if self.echo else b""), None
            return self._shown(), None
        if b == CTRL_U:
            n, self.buf, self.pos = len(self.buf), bytearray(), 0
            return (b"\r" + self.prompt + b"\x1b[K" if self.echo and self.prompt else
                    ERASE * n if self.echo else b""), None
        if b == CTRL_C:
            self.buf.clear()
            self.pos, self._back = 0, 0
            return b"^C\r\n", CANCEL
        if b == ESC:
            self._esc = 1
            return b"", None
        if self.commands and self.echo:
            if b == ord("?"):
                return b"?\r\n", Ask(self.buf.decode("ascii"))
            if b == TAB:
                return b"", Complete(self.buf[:self.pos].decode("ascii"))
            if b in (CTRL_A, CTRL_E, CTRL_P, CTRL_N):
                return self._move({CTRL_A: "H", CTRL_E: "F", CTRL_P: "A", CTRL_N: "B"}[b]), None
        if 0x20 <= b < 0x7F:
            if len(self.buf) >= self.max_len:
                return bytes([BEL]), None
            self.buf.insert(self.pos, b)
            self.pos += 1
            if self.pos == len(self.buf):
                return (bytes([b]) if self.echo else b""), None
            return self._shown(), None
        return b"", None                                       # other control bytes, 8-bit

    def _escape(self, b):
        if self._esc == 1:
            self._esc = 2 if b in (0x5B, 0x4F) else 0          # "[" or "O"
            self._seq.clear()
            return b"", None
        if not 0x40 <= b <= 0x7E:
            self._seq.append(b)                                # parameters: "1;5", "3"
            return b"", None
        self._esc = 0
        params = self._seq.decode("ascii", "replace")
        final = chr(b)
        if not self.echo or (params and final != "~" and params != "1"):
            return b"", None                                   # Ctrl-arrows and the like
        if final == "~":
            final = {"1": "H", "7": "H", "4": "F", "8": "F", "3": "delete"}.get(params, "")
        return self._move(final), None

    def _move(self, what):
        if what == "D" and self.pos > 0:
            self.pos -= 1
            return b"\x1b[D"
        if what == "C" and self.pos < len(self.buf):
            self.pos += 1
            return b"\x1b[C"
        if what == "H" and self.pos:
            n, self.pos = self.pos, 0
            return b"\x1b[%dD" % n
        if what == "F" and self.pos < len(self.buf):
            n, self.pos = len(self.buf) - self.pos, len(self.buf)
            return b"\x1b[%dC" % n
        if what == "delete" and self.pos < len(self.buf):
            del self.buf[self.pos]
            return self._shown()
        if what in ("A", "B") and self.commands:
            back = self._back + (1 if what == "A" else -1)
            if not 0 <= back <= len(self.history):
                return bytes([BEL]) if what == "A" else b""
            if self._back == 0:
                self._draft = bytes(self.buf)
            self._back = back
            line = self._draft if back == 0 else self.history[-back].encode("ascii")
            self.set(line)
            return self.redraw()
        return b""

    def set(self, line):
        """Replace the line being typed (the cursor at its end)."""
        self.buf = bytearray(line[:self.max_len])
        self.pos = len(self.buf)

    def redraw(self):
        """The prompt and the line from the start of the screen line, the cursor in place."""
        text = bytes(self.buf) if self.echo else b""
        back = len(text) - self.pos if self.echo else 0
        return b"\r" + self.prompt + text + b"\x1b[K" + (b"\x1b[%dD" % back if back else b"")

    def _shown(self):
        """The line from the cursor on, shown again after an edit inside it."""
        return self.redraw() if self.echo else b""

    def reset(self):
        self.buf.clear()
        self.pos, self._back = 0, 0
        self._esc = 0
        self.echo = True
        self.commands = False
        self.history = []


def crlf(text):
    """Text with every line ending as CR LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n").encode(
        "ascii", "replace")


class Session:
    """Log-in, then commands, on one serial line. See the module docstring.

    `commands` runs a line for a role (commands.Commands); `authenticate(role, pin)` checks
    a PIN (auth.PinStore.verify); `guard` an auth.LoginGuard; `clock` monotonic ns;
    `note(kind, **data)` journals; `width` and `length` the terminal's columns and lines
    (a session may change its own with `terminal width N`, `terminal length N`).
    """

    BANNER = "tablectl technician console"

    def __init__(self, commands, authenticate, guard, clock, note, *, idle_s=300,
                 name="tablectl", width=WIDTH, length=LENGTH):
        self.commands = commands
        self.authenticate = authenticate
        self.guard = guard
        self.clock = clock
        self.note = note
        self.idle_ns = int(idle_s * 1e9)
        self.name = name
        self.default_size = (width, length)
        self.width, self.length = width, length
        self.editor = LineEditor()
        self.role = None             # logged in as
        self.pending_role = None     # typed, PIN not yet
        self.last = clock()
        self.sessions = 0
        self.watching = None         # the clock time `watch` last drew its screen
        self.watch_ns = 10 ** 9      # how often `watch` redraws
        self.more = None             # the lines of an answer not shown yet (`-- more --`)
        self._more_eol = None

    # ---- bytes in, bytes out ---------------------------------------------------------------

    def start(self):
        """The banner and the first prompt."""
        self.last = self.clock()
        return crlf("\n%s\n" % self.BANNER) + self.prompt()

    def prompt(self):
        if self.role is not None:
            text = ("%s[%s]> " % (self.name, self.role)).encode()
        elif self.pending_role is not None:
            text = b"PIN: "
        else:
            text = b"role: "
        self.editor.prompt = text
        # the line typed stays on one screen line: the redraws go back to its start
        self.editor.max_len = max(8, min(MAX_LINE, self.width - len(text) - 1))
        return text

    def _prompt_line(self):
        """The prompt and the line being typed, on a fresh line, the cursor where it was."""
        self.prompt()
        if not self.editor.buf or not self.editor.echo:
            return self.editor.prompt
        return self.editor.redraw()[1:]

    def feed(self, data):
        """Keys typed; returns what goes back down the line."""
        self.last = self.clock()
        out = bytearray()
        if self.watching is not None and data:
            self.watching = None                    # any key ends `watch`
            return crlf("\x1b[J\nwatch ended\n") + self.prompt()
        for b in data:
            if self.more is not None:
                out += self._more_key(b)
                continue
            echo, line = self.editor.key(b)
            out += echo
            if line is CANCEL:
                self.pending_role = None
                self.editor.echo = True
                out += self.prompt()
            elif isinstance(line, Ask):
                out += self._ask(line)
            elif isinstance(line, Complete):
                out += self._complete(line)
            elif line is not None:
                out += self.line(line)
        return bytes(out)

    def tick(self):
        """End an idle session (or an abandoned log-in), redraw `watch`; returns what to send."""
        if self.role is None and self.pending_role is None:
            return b""
        if self.watching is not None and self.role is not None and \
                self.clock() - self.watching >= self.watch_ns and \
                self.clock() - self.last < self.idle_ns:
            return self._draw()
        if self.clock() - self.last < self.idle_ns:
            return b""
        if self.role is not None:
            secs = self.idle_ns // 10 ** 9
            self.end("idle")
            return crlf("\nsession ended: idle for %d seconds\n" % secs) + self.prompt()
        self.pending_role = None
        self.editor.reset()
        return crlf("\nlog-in abandoned\n") + self.prompt()

    def end(self, reason):
        """Log out (logout, idle, hangup, console stopped)."""
        if self.role is not None:
            self.note("console_logout", role=self.role, reason=reason, session=self.sessions)
        self.role = None
        self.pending_role = None
        self.watching = None
        self.more = None
        self.width, self.length = self.default_size
        self.editor.reset()            # the next person sees none of this one's history

    def hangup(self):
        """The line dropped (the terminal program quit, DCD/HUP, EOF or EIO on read): the
        session ends, and whoever connects next finds the log-in prompt. Returns the banner
        and prompt to queue for them, or b"" if there was no session."""
        if self.role is None and self.pending_role is None:
            return b""
        self.end("hangup")
        return self.start()

    def announce(self, text):
        """An asynchronous line (a lock-out, its clearing) for the logged-in session: on a
        line of its own, then the prompt and the partial line typed so far, redrawn, so
        typing goes on where it was (or the `-- more --` it interrupted)."""
        if self.role is None:
            return b""
        body = b"\r\x1b[K" + crlf(view.fit(view.printable(view.scrub(text)), self.width) + "\n")
        if self.watching is not None:
            return body
        if self.more is not None:
            return body + MORE
        return body + self._prompt_line()

    def _draw(self):
        self.watching = self.clock()
        try:
            screen = self.commands.screen(self.width)
        except Exception as e:              # noqa: BLE001 - a broken view is shown as such
            screen = "watch: %s" % e
        screen = view.fit(view.printable(view.scrub(screen)), self.width)
        lines = screen.split("\n")[:max(1, self.length - 1)] if self.length else \
            screen.split("\n")
        return b"\x1b[H\x1b[2J" + crlf("\x1b[K\n".join(lines) +
                                       "\n(any key ends watch)\x1b[K")

    # ---- what a command answers, a page at a time -----------------------------------------

    def _emit(self, text):
        """An answer folded to the width, a page at a time, then the prompt line."""
        lines = view.fit(text, self.width).split("\n") if text else []
        page = self.length - 1 if self.length else 0
        if page > 0 and len(lines) > page:
            self.more = lines[page:]
            return crlf("\n".join(lines[:page]) + "\n") + MORE
        return crlf("".join(ln + "\n" for ln in lines)) + self._prompt_line()

    def _more_key(self, b):
        """A key at `-- more --`: Space a page, Enter a line, anything else the end."""
        eol, self._more_eol = self._more_eol, None
        if b in (CR, LF) and eol is not None and eol != b:
            return b""                                  # the LF of CR LF
        erase = b"\r\x1b[K"
        if b == 0x20:
            n = self.length - 1
        elif b in (CR, LF):
            self._more_eol = b
            n = 1
        else:
            self.more = None
            return erase + self._prompt_line()
        shown, self.more = self.more[:n], self.more[n:] or None
        out = erase + crlf("".join(ln + "\n" for ln in shown))
        return out + (MORE if self.more is not None else self._prompt_line())

    def _ask(self, text):
        """`?` typed: what may follow the line so far, at once; the line is kept."""
        try:
            out = self.commands.run(self.role, text + "?")
        except ConsoleError as e:
            out = "refused: %s" % e
        return self._emit(view.printable(view.scrub(out)))

    def _complete(self, text):
        """Tab: the last word completed as far as it is one command's, or its choices."""
        ed = self.editor
        partial = "" if not text or text.endswith(" ") else text.split()[-1]
        words = self.commands.complete(self.role, text)
        if not words:
            return bytes([BEL])
        common = words[0]
        for w in words[1:]:
            while not w.startswith(common):
                common = common[:-1]
        add = common[len(partial):] + (" " if len(words) == 1 else "")
        if add and len(ed.buf) + len(add) <= ed.max_len:
            ed.buf[ed.pos:ed.pos] = add.encode("ascii")
            ed.pos += len(add)
            return add.encode("ascii") if ed.pos == len(ed.buf) else ed.redraw()
        if len(words) == 1:
            return bytes([BEL])
        import textwrap
        listing = "\n".join(textwrap.wrap("  ".join(words), self.width,
                                          break_on_hyphens=False))
        return b"\r\n" + crlf(listing + "\n") + self._prompt_line()

    # ---- lines -----------------------------------------------------------------------------

    def line(self, text):
        if self.role is not None:
            return self._command(text)
        if self.pending_role is not None:
            return self._pin(text)
        return self._role(text)

    def _role(self, text):
        role = text.strip().lower()
        if not role:
            return self.prompt()
        left = self.guard.remaining_ns()
        if left:
            return self._locked(role, left)
        self.pending_role = role
        self.editor.echo = False
        return self.prompt()

    def _pin(self, pin):
        role, self.pending_role = self.pending_role, None
        self.editor.echo = True
        left = self.guard.remaining_ns()
        if left:
            return self._locked(role, left)
        # authenticate() is asked for every role name, known or not: an unknown one costs the
        # same scrypt (auth.PinStore.dummy), so the time taken tells nothing
        ok = self.authenticate(role, pin)
        if ok and role in ROLES:
            self.guard.succeeded()
            self.role = role
            self.editor.commands = True          # `?`, Tab and the history from now on
            self.sessions += 1
            self.note("console_login", role=role, ok=True, session=self.sessions)
            return crlf("logged in as %s; idle sessions end after %d seconds; type help\n"
                        % (role, self.idle_ns // 10 ** 9)) + self.prompt()
        locked = self.guard.failed()
        self.note("console_login", role=role if role in ROLES else "(unknown)", ok=False,
                  failures=self.guard.failures)
        msg = "login incorrect\n"
        if locked:
            secs = self.guard.lock_ns // 10 ** 9
            self.note("console_locked", failures=self.guard.failures, seconds=secs)
            msg += "too many failed log-ins: the console is locked for %d seconds\n" % secs
        return crlf(msg) + self.prompt()

    def _locked(self, role, left):
        """An attempt while the console is locked: refused without a PIN, and journaled."""
        self.pending_role = None
        self.editor.echo = True
        self.note("console_login", role=role if role in ROLES else "(unknown)", ok=False,
                  locked=True, failures=self.guard.failures)
        return crlf("console locked after failed log-ins: try again in %d seconds\n"
                    % -(-left // 10 ** 9)) + self.prompt()

    def _command(self, text):
        word = text.strip().lower()
        if not word:
            return self.prompt()
        if word in LOGOUT or self.commands.is_logout(word):
            role = self.role
            self.end("logout")
            return crlf("%s logged out\n\n%s\n" % (role, self.BANNER)) + self.prompt()
        try:
            out = self.commands.run(self.role, text)
        except ConsoleError as e:
            out = "refused: %s" % e
        if isinstance(out, Watch):
            return self._draw()
        if isinstance(out, Setting):
            self.width = out.changes.get("width", self.width)
            self.length = out.changes.get("length", self.length)
            out = "terminal width %d columns, length %s" % (
                self.width, "%d lines" % self.length if self.length else "unlimited (no paging)")
        return self._emit(view.printable(view.scrub(out)))
