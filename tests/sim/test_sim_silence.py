"""`tablectl sim --fault DEVICE:silence`: every serial device kind goes silent, the table
locks out, the line heals, the device handshakes again, passes its self-test, the
floorperson clears, and the rounds go on to the end (docs/protocols.md sections 6 and 9).
Before v2 the shoe and the dealer panel never recovered and the simulation spun for ever."""
import pytest

from controller import cli
from tests.sim.test_sim import run

KINDS = [("shoe", "blackjack", 2), ("dealer_panel", "blackjack", 1),
         ("shuffler", "double-attack-blackjack", 2), ("dice_reader", "props-and-hops", 2),
         ("card_reader", "double-attack-blackjack", 20),
         ("meter_display", "raise-it-up-stud", 100)]
# a mute device is declared silent, or its commands' ACKs never come (no_ack), whichever
# of the two timers ends first (1550 ms of retransmissions, 2000 ms of watchdog)
MUTE = ("silent", "no_ack")


@pytest.mark.parametrize("device,game,rounds", KINDS)
def test_a_silent_device_locks_out_heals_and_play_goes_on(device, game, rounds):
    s = run(game, rounds=rounds, faults=[(device, "silence", 1.0)])
    assert s["rounds_completed"] + s["rounds_void"] == rounds
    assert s["lockouts"] and all(lo["cleared"] for lo in s["lockouts"])
    assert all(any(m in lo["reason"] for m in MUTE) for lo in s["lockouts"]), s["lockouts"]


def test_the_shoe_silent_every_round_ends_in_a_summary(capsys):
    assert cli.main(["sim", "--game", "blackjack", "--rounds", "2",
                     "--fault", "shoe:silence:1"]) == 0
    out = capsys.readouterr().out
    assert "2 rounds completed" in out and "device shoe: silent" in out
