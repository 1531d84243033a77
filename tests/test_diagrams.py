"""docs/machines/ holds each game's machine as drawn from its definition: regenerate with
`tablectl diagram --out docs/machines` whenever a machine changes."""
import os

import pytest

from controller.lab.diagram import diagram_markdown
from controller.games import GAMES, model_class
from controller.games.engine import mermaid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_committed_diagram_matches_the_machine(game):
    path = os.path.join(ROOT, "docs", "machines", game + ".md")
    assert os.path.exists(path), "run: tablectl diagram --out docs/machines"
    with open(path) as f:
        committed = f.read()
    assert committed == diagram_markdown(game, mermaid(model_class(game))), \
        "docs/machines/%s.md is stale: run tablectl diagram --out docs/machines" % game
