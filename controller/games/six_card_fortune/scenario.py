"""A Six-Card Fortune Pai Gow round in a scenario (controller/games/scenario_answers.py): the
deck with its joker, the dice of `start_position`, the dealer setting by the house way, and the
output's start position, dealer's hands and meter."""

from controller.errors import ScenarioError
from controller.games.scenario_answers import ScenarioAnswers
from controller.games.six_card_fortune.players import DEALER
from controller.rules import cards as C


class SixCardFortuneScenario(ScenarioAnswers):
    """Needs the model's `hands`, `dealer_setting`, `start`, `wagers`, `meter`, `meter_paid`."""

    def deck(self):
        """The whole deck a scenario's listed cards are the top of."""
        return [C.code(c) for c in C.joker_deck()]

    def answer(self, pending, doc):
        """The dice of `start_position`; the dealer sets by the house way."""
        need = pending.get("need")
        if need == "dice":
            return "dice", {"dice": list(doc["start_position"]["dice"])}
        if need == "dealer_setting":
            return "decision", {"seat": DEALER, "action": "set",
                                "low": pending["house_way"]["low"]}
        raise ScenarioError("%s does not ask a scenario for %r" % (self.model.GAME, need))

    def summary(self):
        m = self.model
        dealer = {"cards": list(m.hands[DEALER])}
        if m.dealer_setting:
            dealer.update(m.dealer_setting)
        out = {"start_position": m.start, "dealer": dealer}
        if any("progressive" in placed for placed in m.wagers.values()):
            out["meter"] = {"value": m.meter["value"], "paid_from_meter": dict(m.meter_paid)}
        return out
