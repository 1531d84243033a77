"""A journal written by the real simulator, copied for each test that tampers with it."""
import shutil

import pytest

from controller.sim import Simulation


def simulate(path, game="raise-it-up-stud", rounds=3, seed=1, faults=()):
    s = Simulation(game, seed, faults, journal=str(path))
    try:
        s.run(rounds)
    finally:
        s.close()
    return s


@pytest.fixture(scope="session")
def journal_master(tmp_path_factory):
    path = tmp_path_factory.mktemp("journal") / "riu.db"
    simulate(path)
    return path


@pytest.fixture
def journal_copy(journal_master, tmp_path):
    path = tmp_path / "table.db"
    shutil.copy(journal_master, path)
    return path
