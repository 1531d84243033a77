"""The round's waits are states of each game's machine (issue 12): what a round waits for
is the machine's state, not only `pending`; the machine refuses an answer no wait asks
for; a snapshot in a wait restores exactly; a snapshot of the format before the waits
(format 1: no "format", its state the round step) is migrated to the wait its `pending`
names."""
import json

import pytest

from controller.games import GAMES, model_class
from controller.games.engine import (SNAPSHOT_FORMAT, WAITING_SEP, IllegalEvent, GameMachine,
                                     migrate_snapshot, mermaid, step_of, wait_state)
from controller.games.events import Event
from tests import builders


def props_rolling():
    t = builders.table("props-and-hops")
    for e in (Event("open_table"), Event("shuffle"),
              Event("wager", {"seat": 1, "wager": "field", "amount": 500}),
              Event("no_more_bets")):
        t.handle(e)
    return t


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_declared_wait_is_a_state_of_the_machine_and_drawn(game):
    cls = model_class(game)
    drawing = mermaid(cls)
    for step, needs in cls.WAITS.items():
        assert step in cls.ROUND_STATES, (game, step)
        for need in needs:
            assert wait_state(step, need) in cls.states()
            assert 'state "%s"' % wait_state(step, need) in drawing
    for kind, needs in cls.ANSWERS.items():
        assert any(n in ns for ns in cls.WAITS.values() for n in needs), (game, kind)


def test_the_wait_is_the_machine_state_and_pending_its_data():
    t = props_rolling()
    assert t.machine_state == "rolling" + WAITING_SEP + "dice"
    assert t.state == "rolling" == step_of(t.machine_state)
    assert t.model.pending == {"need": "dice", "shooter": "1"}
    t.handle(Event("dice", {"dice": [3, 4]}))
    assert t.machine_state == t.state == "settled" and t.model.pending is None


@pytest.mark.reg("585.3(e)")
def test_the_machine_refuses_a_roll_no_wait_asks_for():
    t = builders.table("props-and-hops")
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    with pytest.raises(IllegalEvent, match="no roll is due while shuffled") as e:
        t.handle(Event("dice", {"dice": [3, 4]}))
    assert "\n" not in str(e.value)
    assert t.machine_state == "shuffled" and not t.model.may_take_dice()
    t.model.pending = {"need": "dice", "shooter": "1"}     # a wait the step does not have
    assert t.machine_state == "shuffled" and not t.model.may_take_dice()


def test_a_snapshot_in_a_wait_restores_exactly():
    t = props_rolling()
    snap = json.loads(json.dumps(t.snapshot()))
    assert snap["format"] == SNAPSHOT_FORMAT and snap["state"] == "rolling_waits_dice"
    again = GameMachine.restore(model_class("props-and-hops"), snap)
    assert again.machine_state == "rolling_waits_dice" and again.snapshot() == snap
    again.handle(Event("dice", {"dice": [1, 1]}))
    assert again.state == "settled"


def test_a_snapshot_before_the_waits_is_migrated_to_the_wait_its_pending_names():
    t = props_rolling()
    old = t.snapshot()
    del old["format"]
    old["state"] = "rolling"                 # what the code before the waits saved
    cls = model_class("props-and-hops")
    assert migrate_snapshot(cls, old) == t.snapshot()
    assert GameMachine.restore(cls, old).machine_state == "rolling_waits_dice"
    with pytest.raises(Exception, match="format 9"):
        migrate_snapshot(cls, dict(old, format=9))
