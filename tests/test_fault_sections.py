"""Every fault with its section, each game's own chapter (issue 35): a Blackjack shoe fault
cites 633a.7(a) (every card dealt from a dealing shoe), not "[-]"; a reconstructed round
cites its own game's "permits the reconstruction of each hand" section, not Double Attack's
581.7(q)."""
import re

import pytest

from controller import cli
from controller.games import ALL_GAMES, declaration
from controller.console.commands import Commands
from controller.lab.sim import Simulation

REGS = "/work/shared/regs"


@pytest.mark.reg("633a.7(a)")
def test_a_blackjack_shoe_fault_cites_blackjacks_section():
    sim = Simulation("blackjack", seed=2)
    try:
        sim.ctl.submit(sim.ctl.event("fault", {"device": "dealing_shoe", "reason": "jam"},
                                     source="shoe"))
        sim.ctl.run_until_idle()
        model = sim.ctl.model
        assert model.state == "locked_out"
        assert model.lockout_section(model.lockout) == "633a.7(a)", model.lockout
        commands = Commands(sim.ctl, sim.drivers)
        shown = [commands.run("technician", "status"), commands.run("technician", "lockouts"),
                 commands.announcement("lock_out", sim.ctl.lockouts[-1])]
        for text in shown:
            assert "jam [633a.7(a)]" in text and "[-]" not in text, text
        assert sim.summary()["lockouts"][-1]["section"] == "633a.7(a)"
    finally:
        sim.close()


@pytest.mark.parametrize("game", ALL_GAMES)
def test_each_reconstruction_section_is_its_own_chapters_and_says_so(game):
    section = declaration(game).reconstruction
    if section is None:
        return                               # a dice game, the poker room: no such text
    chapter = declaration(game).no_more_bets_section.split(".")[0]
    assert section.startswith(chapter + "."), (game, section)        # its own chapter
    import glob
    texts = "\n".join(open(p).read() for p in glob.glob("%s/*.txt" % REGS))
    head, letter = section.split("(", 1)
    # from its heading ("§ 581.7. ...", or the file's first line "... § 633a.7 - ...") on
    part = re.split(r"§ %s(?:\.| -) " % re.escape(head), texts, maxsplit=1)[1]
    part = part.split("\n§ ", 1)[0]
    line = next(ln for ln in part.splitlines() if ln.startswith("(" + letter))
    assert "permits the reconstruction" in line, (game, section)


@pytest.mark.reg("633a.7(s)")
def test_journal_show_of_a_blackjack_round_cites_633a7s(tmp_path, capsys):
    path = tmp_path / "j.log"
    sim = Simulation("blackjack", seed=3, journal=str(path))
    try:
        sim.run(1)
    finally:
        sim.close()
    assert cli.main(["journal", "show", str(path), "--round", "1"]) == 0
    out = capsys.readouterr().out
    assert "the round as it happened (633a.7(s)):" in out and "581.7(q)" not in out


@pytest.mark.parametrize("game", ALL_GAMES)
def test_every_game_names_the_section_a_device_fault_cites(game):
    """No lock-out shows "[-]": where a game's own handler names no section, its
    declaration's fault_section is cited, a section of its own chapter."""
    section = declaration(game).fault_section
    chapter = (declaration(game).no_more_bets_section or "637a").split(".")[0].split("(")[0]
    assert section and section.startswith(chapter), (game, section)   # the poker room: 637a
