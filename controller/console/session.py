"""The console's line discipline, log-in and idle timeout: bytes in, bytes out, no I/O.

A raw serial line gives the console every key as it is typed, with no echo and no
editing, so both are done here (no readline, no termios): printable ASCII is echoed
(nothing is echoed while a PIN is typed); Backspace (0x08) and DEL (0x7f) erase one
character; Ctrl-U erases the line; Ctrl-C cancels it; CR, LF or CR LF ends it; ANSI
escape sequences (arrow keys) and other control bytes are ignored; a line longer than
MAX_LINE rings the bell. Output lines end in CR LF.

A session asks for a role and its PIN, then runs commands as that role until `logout`,
or until it has been idle `idle_s` on the injected clock (`tick()` checks). Failed
log-ins go to the LoginGuard, which locks the console for a while after several. Log-ins,
log-outs and lock-outs of the console are journaled through `note`; never a PIN.
"""

from controller.console import view
from controller.console.auth import ROLES
from controller.console.commands import Watch
from controller.errors import ConsoleError

BS, DEL, CR, LF, ESC = 0x08, 0x7F, 0x0D, 0x0A, 0x1B
CTRL_C, CTRL_U, BEL = 0x03, 0x15, 0x07
MAX_LINE = 200
ERASE = b"\b \b"
LOGOUT = ("logout", "exit", "quit")
CANCEL = object()            # the "line" Ctrl-C ends: nothing to run, no PIN to check


class LineEditor:
    """One line being typed. `key(byte)` returns (bytes to echo, finished line or None)."""

    def __init__(self, max_len=MAX_LINE):
        self.max_len = max_len
        self.buf = bytearray()
        self.echo = True
        self._esc = 0                # 0 none, 1 after ESC, 2 inside a CSI/SS3 sequence
        self._last_eol = None        # CR or LF if the previous byte ended a line

    def key(self, b):
        eol, self._last_eol = self._last_eol, None
        if self._esc:
            if self._esc == 1:
                self._esc = 2 if b in (0x5B, 0x4F) else 0      # "[" or "O"
            elif 0x40 <= b <= 0x7E:
                self._esc = 0
            return b"", None
        if b in (CR, LF):
            if eol is not None and eol != b:
                return b"", None                               # the LF of CR LF (or LF CR)
            self._last_eol = b
            line = self.buf.decode("ascii")
            self.buf.clear()
            return b"\r\n", line
        if b in (BS, DEL):
            if not self.buf:
                return b"", None
            self.buf.pop()
            return (ERASE if self.echo else b""), None
        if b == CTRL_U:
            n, self.buf = len(self.buf), bytearray()
            return (ERASE * n if self.echo else b""), None
        if b == CTRL_C:
            self.buf.clear()
            return b"^C\r\n", CANCEL
        if b == ESC:
            self._esc = 1
            return b"", None
        if 0x20 <= b < 0x7F:
            if len(self.buf) >= self.max_len:
                return bytes([BEL]), None
            self.buf.append(b)
            return (bytes([b]) if self.echo else b""), None
        return b"", None                                       # other control bytes, 8-bit

    def reset(self):
        self.buf.clear()
        self._esc = 0
        self.echo = True


def crlf(text):
    """Text with every line ending as CR LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n").encode(
        "ascii", "replace")


class Session:
    """Log-in, then commands, on one serial line. See the module docstring.

    `commands` runs a line for a role (commands.Commands); `authenticate(role, pin)` checks
    a PIN (auth.PinStore.verify); `guard` an auth.LoginGuard; `clock` monotonic ns;
    `note(kind, **data)` journals.
    """

    BANNER = "tablectl technician console"

    def __init__(self, commands, authenticate, guard, clock, note, *, idle_s=300,
                 name="tablectl"):
        self.commands = commands
        self.authenticate = authenticate
        self.guard = guard
        self.clock = clock
        self.note = note
        self.idle_ns = int(idle_s * 1e9)
        self.name = name
        self.editor = LineEditor()
        self.role = None             # logged in as
        self.pending_role = None     # typed, PIN not yet
        self.last = clock()
        self.sessions = 0
        self.watching = None         # the clock time `watch` last drew its screen
        self.watch_ns = 10 ** 9      # how often `watch` redraws

    # ---- bytes in, bytes out ---------------------------------------------------------------

    def start(self):
        """The banner and the first prompt."""
        self.last = self.clock()
        return crlf("\n%s\n" % self.BANNER) + self.prompt()

    def prompt(self):
        if self.role is not None:
            return ("%s[%s]> " % (self.name, self.role)).encode()
        if self.pending_role is not None:
            return b"PIN: "
        return b"role: "

    def feed(self, data):
        """Keys typed; returns what goes back down the line."""
        self.last = self.clock()
        out = bytearray()
        if self.watching is not None and data:
            self.watching = None                    # any key ends `watch`
            return crlf("\x1b[J\nwatch ended\n") + self.prompt()
        for b in data:
            echo, line = self.editor.key(b)
            out += echo
            if line is CANCEL:
                self.pending_role = None
                self.editor.echo = True
                out += self.prompt()
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
        self.editor.reset()

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
        typing goes on where it was."""
        if self.role is None:
            return b""
        body = b"\r\x1b[K" + crlf(view.printable(view.scrub(text)) + "\n")
        if self.watching is not None:
            return body
        partial = bytes(self.editor.buf) if self.editor.echo else b""
        return body + self.prompt() + partial

    def _draw(self):
        self.watching = self.clock()
        try:
            screen = self.commands.screen()
        except Exception as e:              # noqa: BLE001 - a broken view is shown as such
            screen = "watch: %s" % e
        screen = view.printable(view.scrub(screen))
        return b"\x1b[H\x1b[2J" + crlf(screen.replace("\n", "\x1b[K\n") +
                                       "\n(any key ends watch)\x1b[K")

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
        out = view.printable(view.scrub(out))
        return crlf(out + ("\n" if out and not out.endswith("\n") else "")) + self.prompt()
