"""The tests that read the regulation texts (marked `regs`) without the texts: skipped with one
line saying how to provide them, failed where they are required (TABLECTL_REGS_REQUIRED, set by
.ci/run), and .ci/run itself refuses to start without them, so CI never skips them silently."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ONE = "tests/test_trace.py::test_the_regs_are_found_beside_the_repository"


def _env(tmp_path, **more):
    env = dict(os.environ, TABLECTL_REGS=str(tmp_path / "no-regs"))
    env.pop("TABLECTL_REGS_REQUIRED", None)
    env.update(more)
    return env


def _pytest(env):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                           ONE], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def test_without_the_texts_a_regs_test_skips_saying_how_to_provide_them(tmp_path):
    proc = _pytest(_env(tmp_path))
    assert proc.returncode == 0, proc.stdout
    assert "1 skipped" in proc.stdout
    reason = [l for l in proc.stdout.splitlines() if l.startswith("SKIPPED")]
    assert len(reason) == 1 and "regulation texts not found at" in reason[0]
    assert "TABLECTL_REGS" in reason[0] and str(tmp_path / "no-regs") in reason[0]


def test_where_the_texts_are_required_a_regs_test_fails_instead(tmp_path):
    proc = _pytest(_env(tmp_path, TABLECTL_REGS_REQUIRED="1"))
    assert proc.returncode == 1 and "1 error" in proc.stdout          # failed in its setup
    assert "regulation texts not found at" in proc.stdout


def test_ci_refuses_to_run_without_the_texts(tmp_path):
    proc = subprocess.run([os.path.join(ROOT, ".ci", "run")], cwd=ROOT, env=_env(tmp_path),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "CI: regulation texts not found at" in proc.stderr
