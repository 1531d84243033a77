"""`tablectl run` on a journal that cannot be resumed, and on one in use (issue 11)."""
import os

from tests.test_run import (env_with, read_until, run_and_stop, sim_table,  # noqa: F401
                            tablectl, write_config)


def test_run_on_an_emptied_journal_boots_locked_out_and_serves_its_console(tmp_path,
                                                                          sim_table):
    config = write_config(tmp_path / "table.toml", devices=sim_table.config())
    journal = tmp_path / "journal.db"
    journal.write_bytes(b"")
    env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
    code, err, _, _ = run_and_stop(tmp_path, config, journal, env)
    assert code == 0, err                                # the console ran; a clean stop
    assert "the boot checks failed; the table is locked out: journal %s: journal %s is " \
           "empty (0 bytes)" % (journal, journal) in err, err
    assert os.path.getsize(journal) == 0


def test_a_second_run_on_a_journal_in_use_exits_2_naming_it_and_the_pid(tmp_path, sim_table):
    config = write_config(tmp_path / "table.toml", devices=sim_table.config())
    journal = tmp_path / "journal.db"
    env = env_with(TABLECTL_HAL="sim", TABLECTL_PINS=str(tmp_path / "pins.json"))
    first = tablectl("run", "--config", str(config), "--journal", str(journal), env=env)
    try:
        read_until(first, "console: ")
        second = tablectl("run", "--config", str(config), "--journal", str(journal), env=env)
        out, err = second.communicate(timeout=60)
        assert second.returncode == 2, err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and str(journal) in lines[0], err
        assert "in use by process %d" % first.pid in lines[0], err
    finally:
        first.terminate()
        first.communicate(timeout=30)
    assert first.returncode == 0
