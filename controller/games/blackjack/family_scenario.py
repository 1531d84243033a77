"""A blackjack-family round in a scenario (controller/games/scenario_answers.py): the batch of
the game's decks, the card reader's answer and why a declined surrender's hand could not have
taken the next action. Double Attack Blackjack's answers; Blackjack's build on them
(blackjack/scenario.py)."""

from controller.games.blackjack.hands import ACTIONS, parse
from controller.games.engine import IllegalEvent
from controller.games.scenario_answers import ScenarioAnswers
from controller.rules import blackjack as bj


class FamilyScenario(ScenarioAnswers):
    """Needs the family's model: its shoe (`batch_counts`), decisions (`refusal`), `dealer`."""

    def deck(self):
        """The whole batch a scenario's listed cards are the top of."""
        return [code for code, copies in self.model.shoe.batch_counts().items()
                for _ in range(copies)]

    def burn_section(self):
        """Each new batch's first card is burned (581.7(c), 633a.7(c)); a double shoe burns
        none (633a.7(d)), as the shoe's own check says."""
        try:
            self.model.shoe.check_burn()
        except IllegalEvent:
            return None
        return self.model.BURN_SECTION

    def reader_answer(self):
        return bj.is_blackjack(parse(self.model.dealer[:2]))

    def refusal(self, pending, action):
        if pending.get("offer") != "surrender" or "hand" not in pending or action not in ACTIONS:
            return None
        why = self.model.decisions.refusal(action, pending["seat"], pending["hand"] - 1)
        return why and "seat %s may not %s: %s" % (pending["seat"], action, why)

    def summary(self):
        return {"dealer": {"cards": list(self.model.dealer)}}
