"""`tablectl journal show --round N` (581.7(q)) and the redaction of unrevealed cards."""
import json

import pytest

from controller import cli
from controller.games import declaration
from controller.journal.show import HIDDEN, redact, redact_row
from controller.lab.sim import Simulation
from tests.journal.conftest import simulate


class Model:
    """What redaction reads of a model: its game, what the game declares secret, its status."""

    def __init__(self, game, status=None):
        self.GAME, self.DECLARES, self.status = game, declaration(game), status


def show(path, n, capsys):
    assert cli.main(["journal", "show", str(path), "--round", str(n), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.reg("581.7(q)")
def test_a_settled_round_is_reconstructed_hand_by_hand(journal_copy, capsys):
    doc = show(journal_copy, 2, capsys)
    assert doc["round"] == 2 and doc["status"] == "settled"
    kinds = [what for what, _ in doc["record"]]
    for needed in ("wager", "no_more_bets", "card", "reveal", "settled_seat"):
        assert needed in kinds
    assert set(doc["wagers"]) == set(doc["results"]) == {"1", "2", "3", "4"}
    events = [r["kind"] for r in doc["rows"] if r["entry"] == "event"]
    assert events[0] == "wager" and "card" in events and "decision" in events
    assert all(HIDDEN not in json.dumps(r) for r in doc["rows"])   # over: nothing hidden
    assert cli.main(["journal", "show", str(journal_copy), "--round", "2"]) == 0
    text = capsys.readouterr().out
    assert "raise-it-up-stud round 2: settled" in text and "settlement:" in text


def test_a_round_the_journal_does_not_hold_exits_1(journal_copy, capsys):
    assert cli.main(["journal", "show", str(journal_copy), "--round", "99"]) == 1
    assert "no round 99" in capsys.readouterr().err


def show_raw(path):
    from controller.journal.formats import open_journal
    store = open_journal(str(path))
    try:
        return [json.loads(r["data"]) for r in store.rows() if r["kind"] == "card"]
    finally:
        store.close()


def _cards_in(obj):
    from controller.journal.show import is_card
    if isinstance(obj, dict):
        return [c for v in obj.values() for c in _cards_in(v)]
    if isinstance(obj, list):
        return [c for v in obj for c in _cards_in(v)]
    return [obj] if is_card(obj) else []


def test_the_hole_card_of_a_round_in_progress_is_not_shown(tmp_path, capsys):
    path = tmp_path / "da.db"
    simulate(path, "double-attack-blackjack", rounds=1)
    s = Simulation("double-attack-blackjack", 2, journal=str(path))
    try:                                    # the next round, dealt up to the hole card
        ap, model = s.autoplay, s.ctl.model
        ap.ready()
        ap.place_wagers()
        ap.no_more_bets()
        while sum(1 for what, d in model.record if what == "card" and d["to"] == "dealer") < 2:
            ap.answer(model.pending)
        hole = model.dealer[1]
    finally:
        s.close()
    doc = show(path, 2, capsys)
    assert doc["status"] == "in progress"
    dealer = [d for what, d in doc["record"] if what == "card" and d["to"] == "dealer"]
    assert dealer[1]["card"] == HIDDEN and dealer[0]["card"] != HIDDEN
    seats = [d["card"] for what, d in doc["record"] if what == "card" and d["to"] != "dealer"]
    assert seats and HIDDEN not in seats              # the players' cards are face up
    assert _cards_in(doc["rows"]) == []               # no input row shows a card
    assert hole in _cards_in(show_raw(path))          # while the journal holds it
    assert cli.main(["journal", "show", str(path), "--round", "2"]) == 0
    assert "cards not yet revealed are shown as ??" in capsys.readouterr().out


BJ = [["wager", {"seat": "1", "wager": "bet", "amount": 1000}], ["no_more_bets", {}],
      ["card", {"to": "dealer", "card": "2d"}], ["card", {"to": "1", "card": "Qc"}],
      ["card", {"to": "1", "card": "7s"}], ["card", {"to": "dealer", "card": "8d"}]]


def test_redact_hides_the_hole_card_until_it_is_turned_up():
    out = redact(BJ, Model("double-attack-blackjack"))
    assert out[5] == ["card", {"to": "dealer", "card": HIDDEN}]
    assert out[:5] == BJ[:5] and BJ[5][1]["card"] == "8d"            # a copy: BJ unchanged
    turned = BJ + [["hole_card", {"card": "8d"}]]
    assert redact(turned, Model("blackjack")) == turned
    assert redact(BJ, Model("blackjack", "settled")) == BJ


def test_redact_hides_face_down_and_community_cards_until_revealed():
    record = [["deal", {"seat": "1", "card": "3h"}], ["community", {"card": "6h"}],
              ["flop_turned_up", {"cards": ["6h", "Kh", "4d"]}], ["burn", {"card": "Th"}],
              ["board", {"card": "Tc"}], ["pot", {"amount": 400, "to": ["1"]}]]
    out = redact(record, Model("flop-poker"))
    assert out[0][1]["card"] == out[1][1]["card"] == out[3][1]["card"] == HIDDEN
    assert out[2] == record[2] and out[4] == record[4] and out[5] == record[5]
    assert redact(record, Model("flop-poker", "void")) == record


def test_redact_leaves_dice_and_amounts_alone():
    record = [["roll", {"dice": [5, 4], "shooter": "1"}], ["pay", {"seat": "1", "amount": 500}]]
    assert redact(record, Model("props-and-hops")) == record


def test_a_journal_row_of_a_round_in_progress_hides_every_card():
    row = {"seq": 9, "kind": "card", "data": {"card": "As", "cards": ["Kd", "JK"], "n": 3}}
    assert redact_row(row, Model("raise-it-up-stud"))["data"] == {
        "card": HIDDEN, "cards": [HIDDEN, HIDDEN], "n": 3}
    assert row["data"]["card"] == "As"
    assert redact_row(row, Model("raise-it-up-stud", "settled")) == row
