"""`tablectl par` from the command line, as a gaming lab would run it."""
import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args):
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_par_json_of_one_game():
    p = run("par", "raise-it-up-stud", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["game"] == "raise-it-up-stud"
    pp = [w for w in doc["wagers"] if w["wager"] == "pair_plus" and w["paytable"] == "A"][0]
    assert pp["house_edge"] == 0.0231674 and pp["combinations"] == 22100
    assert pp["outcomes"][0] == {"hand": "straight_flush", "count": 48, "pays": "40 to 1"}


def test_par_all_covers_every_game():
    p = run("par", "--all", "--json")
    assert p.returncode == 0, p.stderr
    games = [g["game"] for g in json.loads(p.stdout)["games"]]
    assert games == ["double-attack-blackjack", "blackjack", "flop-poker", "props-and-hops",
                     "raise-it-up-stud", "six-card-fortune-pai-gow", "poker"]


def test_par_text_is_readable():
    p = run("par", "flop-poker")
    assert p.returncode == 0
    assert "three_card_bonus" in p.stdout and "5.3756%" in p.stdout
    assert "strategy-dependent" in p.stdout


def test_unknown_game_exits_2_naming_it():
    p = run("par", "baccarat")
    assert p.returncode == 2
    assert "baccarat" in p.stderr and "flop-poker" in p.stderr


def test_console_script_is_installed():
    exe = shutil.which("tablectl")
    assert exe, "the tablectl console script is not installed (pip install -e .)"
    p = subprocess.run([exe, "par", "props-and-hops", "--json"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr


def test_output_cut_short_by_its_reader_is_no_traceback():
    """`tablectl par --all | head -1`: the pipe closes early; tablectl exits quietly."""
    r = subprocess.run("%s -m controller.cli par --all | head -1" % sys.executable, shell=True,
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.stdout.count("\n") == 1
    assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr


# ---- the command line (issue 15) -----------------------------------------------------------

def test_version_and_bare_tablectl_prints_its_help():
    from controller.cli import version
    p = run("--version")
    assert p.returncode == 0 and p.stdout == "tablectl %s\n" % version()
    assert version() == "0.1.0"                     # setup.cfg's, as installed
    p = run()
    assert p.returncode == 2 and p.stdout.startswith("usage: tablectl")
    for verb in ("par", "play", "diagram", "sim", "run", "journal", "passwd", "manifest"):
        assert "\n    %s " % verb in p.stdout


@pytest.mark.parametrize("argv, verb, words", [
    (["par"], "tablectl par", "name a game"),
    (["par", "flop-poker", "--all"], "tablectl par", "give a game or --all, not both"),
    (["par", "baccarat"], "tablectl par", "unknown game 'baccarat'"),
    (["sim", "--game", "poker", "--rounds", "0"], "tablectl sim", "must be at least 1, not 0"),
    (["sim", "--game", "poker", "--rounds", "-3"], "tablectl sim", "must be at least 1"),
    (["sim"], "tablectl sim", "--game"),
    (["frobnicate"], "tablectl", "invalid choice: 'frobnicate'"),
    (["journal"], "tablectl journal", "required"),
    (["play"], "tablectl play", "FILE.json"),
    (["diagram", "baccarat"], "tablectl diagram", "unknown game 'baccarat'"),
])
def test_usage_errors_are_one_line_starting_with_the_verb_exit_2(argv, verb, words):
    p = run(*argv)
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(verb + ": ") and words in lines[0], p.stderr


def test_manifest_verb_writes_the_software_and_the_outcome_dependencies(tmp_path):
    """`tablectl manifest` over an installed layout (site-packages holding tablectl and its
    dependencies): the firmware's files, and transitions, pokerkit, pyserial and cryptography
    (the signature on a linked hit, issue 31) with their versions, nothing of the floor server, the lab or the simulator; `--check` then passes,
    and fails naming a changed file."""
    from tests.site_packages import link_dependencies
    root = tmp_path / "site-packages"
    root.mkdir()
    for pkg in ("controller", "drivers", "hal_sim"):
        shutil.copytree(os.path.join(ROOT, pkg), root / pkg,
                        ignore=shutil.ignore_patterns("__pycache__"))
    versions = link_dependencies(root)
    out = tmp_path / "tablectl.manifest"
    p = run("manifest", "--root", str(root), "--out", str(out))
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    assert list(versions) == ["transitions", "pokerkit", "pyserial", "cryptography"]
    for (dist, version), pkg in zip(versions.items(),
                                    ("transitions", "pokerkit", "serial", "cryptography")):
        assert "%s %s" % (dist, version) in p.stdout
        assert "  %s-%s.dist-info/METADATA\n" % (dist, version) in text
        assert "  %s/__init__.py\n" % pkg in text
    assert "  controller/cli.py\n" in text and "  drivers/hal.py\n" in text
    for wing in ("  controller/lab/", "  controller/floor/", "  hal_sim/"):
        assert wing not in text                 # the wings are not inside a table's signature
    p = run("manifest", "--check", "--root", str(root), "--out", str(out))
    assert p.returncode == 0 and p.stdout.startswith("PASS"), p.stdout + p.stderr
    (root / "controller" / "lab" / "diagram.py").write_text("# a lab tool changed\n")
    p = run("manifest", "--check", "--root", str(root), "--out", str(out))
    assert p.returncode == 0 and p.stdout.startswith("PASS"), p.stdout + p.stderr
    (root / "controller" / "cli.py").write_text("# changed\n")
    p = run("manifest", "--check", "--root", str(root), "--out", str(out))
    assert p.returncode == 1 and "changed: controller/cli.py" in p.stdout


def test_manifest_on_a_development_install_signs_what_a_table_would(tmp_path):
    """Issue 32: on a checkout (`pip install -e .`) `tablectl manifest` exited 2; it writes the
    firmware of the checkout and the dependencies Python finds, with the signature that
    `firmware_signature()` gives (what the lab report prints), and checks it."""
    from controller.console.manifest import firmware_signature
    out = tmp_path / "tablectl.manifest"
    p = run("manifest", "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("wrote %s, signature %s\n" % (out, firmware_signature()))
    listed = [line.split("  ", 1)[1] for line in out.read_text().splitlines()]
    assert "controller/console/manifest.py" in listed and "transitions/core.py" in listed
    assert not [f for f in listed if f.startswith(("controller/lab/", "controller/floor/",
                                                   "hal_sim/", "tests/", "bench/"))]
    p = run("manifest", "--check", "--out", str(out))
    assert p.returncode == 0 and p.stdout.startswith("PASS %d files" % len(listed)), p.stdout


def test_manifest_refuses_a_root_without_the_dependencies(tmp_path):
    p = run("manifest", "--root", str(tmp_path), "--out", str(tmp_path / "m"))
    assert p.returncode == 2 and p.stderr.startswith("tablectl manifest: transitions")
    assert not (tmp_path / "m").exists()


def test_the_shipped_completion_and_man_page_are_the_parsers():
    from controller.cli import build_parser, version
    from controller.lab.cli_docs import COMPLETION_FILE, MAN_FILE, bash_completion, manpage
    with open(COMPLETION_FILE) as f:
        assert f.read() == bash_completion(build_parser()), \
            "tablectl completion > deploy/tablectl.bash-completion"
    with open(MAN_FILE) as f:
        assert f.read() == manpage(build_parser(), version()), \
            "tablectl manpage > deploy/tablectl.1"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completion_offers_verbs_subverbs_and_options():
    from controller.lab.cli_docs import COMPLETION_FILE

    def offered(*words):
        cword = len(words)
        script = ('source %s; COMP_WORDS=(tablectl %s); COMP_CWORD=%d; _tablectl; '
                  'printf "%%s\\n" "${COMPREPLY[@]}"'
                  % (COMPLETION_FILE, " ".join("'%s'" % w for w in words), cword))
        p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
        assert p.returncode == 0, p.stderr
        return p.stdout.split()

    assert {"par", "play", "sim", "run", "journal", "passwd", "manifest"} <= set(offered(""))
    assert offered("jo") == ["journal"]
    assert set(offered("journal", "")) >= {"verify", "show", "head"}
    assert set(offered("journal", "show", "--")) >= {"--round", "--since", "--until", "--json"}
    assert offered("sim", "--man") == ["--manual-clear"]
    assert set(offered("passwd", "")) >= {"technician", "administrator"}


@pytest.mark.skipif(shutil.which("man") is None, reason="needs man(1)")
def test_the_man_page_renders_and_names_every_verb():
    from controller.lab.cli_docs import MAN_FILE
    p = subprocess.run(["man", "-l", MAN_FILE], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, MANPAGER="cat", PAGER="cat", MANWIDTH="100"))
    assert p.returncode == 0, p.stderr
    for verb in ("par", "play", "sim", "run", "journal verify", "journal show", "passwd",
                 "manifest"):
        assert "\n   %s\n" % verb in p.stdout, verb
    assert "EXIT STATUS" in p.stdout and "--manual-clear" in p.stdout
