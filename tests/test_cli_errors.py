"""No traceback reaches a person (issue 11): every case of bad input the issue lists, run as
a person runs it (a subprocess of the real command line), ends in ONE line on stderr that
starts with the verb, exit 2, and no "Traceback". Ctrl-C at each place it was seen to leave a
traceback is sent as a real SIGINT at a moment the process is known to be waiting there."""
import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import time

import pytest

from controller.lab.sim import Simulation
from hal_sim import bench
from tests.journal import tamper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def env_for(tmp_path, **extra):
    env = dict(os.environ, TABLECTL_PINS=str(tmp_path / "pins.json"), **extra)
    env.pop("TABLECTL_HAL", None)
    env.pop("TABLECTL_DEBUG", None)
    return env


def tablectl(tmp_path, *args, env=None, **kw):
    return subprocess.run([sys.executable, "-m", "controller.cli", *map(str, args)], cwd=ROOT,
                          env=env or env_for(tmp_path), capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL, **kw)


def one_line(p, verb, *words, code=2):
    """The contract: exit `code`, one line on stderr starting with `verb:`, no traceback."""
    assert "Traceback" not in p.stderr, p.stderr
    assert p.returncode == code, (p.returncode, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith(verb + ": "), lines[0]
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def bench_config(tmp_path, game="poker", **device_changes):
    """The shipped bench configuration of `game`, with devices changed: {name: {k: v}}."""
    text = open(bench.path_of(game)).read()
    for name, changes in device_changes.items():
        extra = "".join("%s = %s\n" % (k, json.dumps(v)) for k, v in changes.items())
        head = "[controller.devices.%s]\n" % name
        if "url" in changes:
            text = text.replace(head + 'url = "sim://%s"\n' % name, head)
        text = text.replace(head, head + extra)
    path = tmp_path / ("%s-bench.toml" % game)
    path.write_text(text)
    return path


# ---- configuration and scenario files ----------------------------------------------------

@pytest.mark.parametrize("content, words", [
    (b"game = \"poker\"\n\xff\xfe = 1\n", ["not UTF-8"]),
    (b"game = poker [[\n", ["not valid TOML"]),
    (b"game = \"poker\"\ntable_min = 100\ntable_min = 200\n", ["not valid TOML"]),   # twice
    (b"game = { name = \"poker\" }\n", ["game must be a game's name, not a table"]),
    (b"game = \"six-card-fortune-pai-gow\"\n[progressive]\nmeter = 9223372036854775807\n",
     ["progressive.meter must be at most"]),
    (b"game = \"poker\"\ntable_max = 9223372036854775807\n", ["table_max must be at most"]),
])
def test_a_bad_table_configuration(tmp_path, content, words):
    config = tmp_path / "table.toml"
    config.write_bytes(content)
    journal = tmp_path / "j.db"
    one_line(tablectl(tmp_path, "run", "--config", config, "--journal", journal),
             "tablectl run", str(config), *words)
    assert not journal.exists()


@pytest.mark.parametrize("content, words", [
    (b"{\"game\": \"poker\", \xff}", ["not UTF-8"]),
    (b"{\"game\": \"poker\",", ["not valid JSON"]),
    (b"[" * 100000 + b"]" * 100000, ["nested more than"]),
    (b"{\"game\": \"poker\", \"game\": \"blackjack\", \"seats\": {}}", ["given twice"]),
    (b"{\"game\": {\"name\": \"poker\"}, \"seats\": {}}", ["not a table"]),
    (b"{\"game\": \"blackjack\", \"seats\": {\"1\": {\"blackjack\": 9223372036854775808}}}",
     ["at most 100000000000 cents"]),
    (b"{\"game\": \"raise-it-up-stud\", \"config\": {\"progressive\": "
     b"{\"meter\": 9223372036854775808}}, \"seats\": {}}", ["progressive.meter"]),
    (b"{\"game\": \"blackjack\", \"seats\": {\"1\": {\"blackjack\": NaN}}}",
     ["NaN is not a JSON number"]),
])
def test_a_bad_scenario(tmp_path, content, words):
    path = tmp_path / "s.json"
    path.write_bytes(content)
    one_line(tablectl(tmp_path, "play", path), "tablectl play", "%s: " % path, *words)


# ---- device settings: checked before the journal is touched ---------------------------------

@pytest.mark.parametrize("changes, words", [
    ({"shoe": {"baud": 9600}}, ["controller.devices.shoe.baud: unknown key", "baudrate"]),
    ({"shoe": {"url": "nosuch://x"}}, ["unknown scheme 'nosuch'"]),
    ({"shoe": {"url": "ttyUSB0"}}, ["absolute path"]),
    ({"buttons": {"no_more_betz": 4}}, ["controller.devices.buttons.no_more_betz"]),
])
def test_bad_device_settings_are_refused_before_the_journal(tmp_path, changes, words):
    journal = tmp_path / "j.db"
    one_line(tablectl(tmp_path, "run", "--config", bench_config(tmp_path, **changes),
                      "--journal", journal), "tablectl run", *words)
    assert not journal.exists()


# ---- journal paths -----------------------------------------------------------------------

def needs_unshare():
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare(1) for a read-only mount")
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("user namespaces are not available here")


def read_only_mount(folder, argv):
    """argv run with `folder` a read-only tmpfs (a private mount namespace: nothing else
    sees it)."""
    folder.mkdir(exist_ok=True)
    script = 'mount -t tmpfs -o ro tablectl-test "$0" && exec "$@"'
    return ["unshare", "-rm", "sh", "-c", script, str(folder), sys.executable, "-m",
            "controller.cli"] + [str(a) for a in argv]


@pytest.mark.parametrize("verb", ["run", "sim"])
def test_a_journal_path_that_cannot_be_a_journal(tmp_path, verb):
    (tmp_path / "folder").mkdir()
    lead = (["run", "--config", bench.path_of("poker")] if verb == "run"
            else ["sim", "--game", "poker", "--rounds", "1"])
    cases = [(tmp_path / "folder", "is a folder, not a journal file"),
             (tmp_path / "missing" / "j.db", "the folder %s does not exist"
              % (tmp_path / "missing"))]
    for journal, words in cases:
        one_line(tablectl(tmp_path, *lead, "--journal", journal), "tablectl " + verb, words)
    needs_unshare()
    ro = tmp_path / "ro"
    p = subprocess.run(read_only_mount(ro, lead + ["--journal", ro / "j.db"]), cwd=ROOT,
                       env=env_for(tmp_path), capture_output=True, text=True, timeout=120)
    one_line(p, "tablectl " + verb, "read-only file system")


def test_journal_show_a_round_number_past_any_journal(tmp_path):
    one_line(tablectl(tmp_path, "journal", "show", tmp_path / "j.db", "--round",
                      "9" * 30), "tablectl journal show", "round numbers run from 1")
    one_line(tablectl(tmp_path, "journal", "show", tmp_path / "j.db", "--round", "2"),
             "tablectl journal show", "no journal at")


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    path = tmp_path_factory.mktemp("journal") / "table.db"
    s = Simulation("raise-it-up-stud", 1, journal=str(path))
    try:
        s.run(12)
    finally:
        s.close()
    return path


def test_journal_verify_on_a_row_that_is_not_json(journal, tmp_path):
    copy = tmp_path / "copy.db"
    shutil.copy(journal, copy)
    tamper.edit_rows(copy, lambda rows: [dict(r, data="not json {") if r["seq"] == 7 else r
                                         for r in rows])
    # exit 1 and the verdict on stdout: the journal was read and does not verify (exit 2
    # is for input that is wrong), as docs/journal.md says
    p = tablectl(tmp_path, "journal", "verify", copy)
    assert p.returncode == 1 and p.stderr == "" and "Traceback" not in p.stdout
    assert p.stdout == "journal %s: first bad row 7: its data is not JSON (edited)\n" % copy
    one_line(tablectl(tmp_path, "journal", "verify", tmp_path), "tablectl journal verify",
             "is a folder")


# ---- diagram --out -----------------------------------------------------------------------

def test_diagram_out_onto_a_file_that_is_not_ours(tmp_path):
    (tmp_path / "poker.md").write_text("my notes\n")
    one_line(tablectl(tmp_path, "diagram", "poker", "--out", tmp_path), "tablectl diagram",
             "poker.md exists and is not a drawing", "--force")
    assert (tmp_path / "poker.md").read_text() == "my notes\n"
    (tmp_path / "a-file").write_text("")
    one_line(tablectl(tmp_path, "diagram", "--out", tmp_path / "a-file"), "tablectl diagram",
             "is not a folder")


def test_diagram_out_onto_a_read_only_folder(tmp_path):
    needs_unshare()
    ro = tmp_path / "ro"
    p = subprocess.run(read_only_mount(ro, ["diagram", "--out", ro]), cwd=ROOT,
                       env=env_for(tmp_path), capture_output=True, text=True, timeout=120)
    one_line(p, "tablectl diagram", "not writable")


# ---- the PIN prompt ----------------------------------------------------------------------

def test_passwd_with_no_terminal_input(tmp_path):
    p = tablectl(tmp_path, "passwd", "technician", "--file", tmp_path / "pins.json",
                 start_new_session=True)               # no controlling terminal either
    one_line(p, "tablectl passwd", "no terminal")
    assert not (tmp_path / "pins.json").exists()


def _sigint_default():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """A process whose stdin and stderr are a pty (a person's terminal); `wait_for(text)`
    reads the terminal until the text appears."""

    def __init__(self, tmp_path, *args, env=None):
        master, slave = pty.openpty()
        self.master = master
        # Ctrl-C's default, as a person's shell gives it: a suite started as a background
        # job without job control (`(pytest &)`) hands its children SIGINT ignored, and a
        # Python started so never sees the Ctrl-C these tests send (four failed so, 12:34)
        self.proc = subprocess.Popen([sys.executable, "-m", "controller.cli", *map(str, args)],
                                     cwd=ROOT, env=env or env_for(tmp_path), stdin=slave,
                                     stdout=subprocess.PIPE, stderr=slave,
                                     start_new_session=True, preexec_fn=_sigint_default)
        os.close(slave)
        self.seen = b""

    def wait_for(self, text, timeout=60):
        end = time.monotonic() + timeout
        while text.encode() not in self.seen:
            left = end - time.monotonic()
            if left <= 0:
                self.proc.kill()                 # nothing left behind
                self.proc.wait()
                pytest.fail("no %r on the terminal: %r" % (text, self.seen))
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                assert chunk, "the process ended: %r" % self.seen
                self.seen += chunk

    def interrupt(self):
        """Ctrl-C, as the terminal sends it; (exit code, everything on the terminal)."""
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=60)
            while True:
                ready, _, _ = select.select([self.master], [], [], 0.5)
                if not ready:
                    break
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                self.seen += chunk
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdout.close()
            os.close(self.master)
        return self.proc.returncode, self.seen.decode(errors="replace")


def interrupted(code, screen, verb):
    assert "Traceback" not in screen and "KeyboardInterrupt" not in screen, screen
    assert code == 2, (code, screen)
    last = screen.replace("\r", "\n").strip().splitlines()[-1]
    assert last.startswith(verb + ": ") and "interrupted" in last, screen


def test_ctrl_c_at_the_pin_prompt(tmp_path):
    t = Terminal(tmp_path, "passwd", "technician", "--file", tmp_path / "pins.json")
    t.wait_for("New PIN for technician: ")
    interrupted(*t.interrupt(), "tablectl passwd")
    assert not (tmp_path / "pins.json").exists()


def wait_blocked(pid, where, timeout=60):
    """Until process `pid` sleeps in a kernel function naming `where` (/proc/PID/wchan);
    else the process is killed (nothing left behind) and the test fails."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open("/proc/%d/wchan" % pid) as f:
            if where in f.read():
                return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    pytest.fail("process %d never waited in %s" % (pid, where))


def test_ctrl_c_in_journal_verify(journal, tmp_path):
    # the key file is a FIFO: verify, begun (its progress line is up), waits to read it
    fifo = tmp_path / "key.fifo"
    os.mkfifo(fifo, 0o600)
    t = Terminal(tmp_path, "journal", "verify", journal, "--key", fifo)
    t.wait_for("checking the chain")
    wait_blocked(t.proc.pid, "wait_for_partner")          # open(2) of a FIFO, no writer yet
    interrupted(*t.interrupt(), "tablectl journal verify")


def test_ctrl_c_in_par_all(tmp_path):
    t = Terminal(tmp_path, "par", "--all")
    t.wait_for("par --all: 1/")
    interrupted(*t.interrupt(), "tablectl par")


def test_ctrl_c_in_journal_show(journal, tmp_path):
    # stdout is a pipe nobody reads: once it is full, show waits in a write, mid-journal
    t = Terminal(tmp_path, "journal", "show", journal, "--json")     # snapshots: > 64 KiB
    wait_blocked(t.proc.pid, "pipe")
    interrupted(*t.interrupt(), "tablectl journal show")


def test_ctrl_c_while_sim_starts(tmp_path):
    # the PIN file is a FIFO: sim's start-up check of it waits there for a writer
    fifo = tmp_path / "pins.fifo"
    os.mkfifo(fifo)
    t = Terminal(tmp_path, "sim", "--game", "poker", "--rounds", "1", "--pins", fifo)
    t.wait_for("console: ")
    wait_blocked(t.proc.pid, "wait_for_partner")
    interrupted(*t.interrupt(), "tablectl sim")
