"""Finish a scenario in a fresh Python process from a mid-round checkpoint: the proof that a
snapshot restores exactly (add_model with the saved state, no pickling, nothing left in
memory)."""
import json
import os
import subprocess
import sys

from controller.lab.scenario import Runner

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FINISH = ("import json, sys\n"
          "from controller.lab.scenario import Runner\n"
          "print(json.dumps(Runner.resume(json.load(sys.stdin)).finish()))\n")


def runner_after(doc, answers):
    """A runner that has started the scenario and answered `answers` of its questions."""
    r = Runner(doc)
    r.start()
    for _ in range(answers):
        r.answer(r.model.pending)
    return r


def finish_elsewhere(runner):
    """The scenario's output, finished from the runner's checkpoint in a new process."""
    payload = json.dumps(runner.checkpoint())
    p = subprocess.run([sys.executable, "-c", FINISH], input=payload, capture_output=True,
                       text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)
