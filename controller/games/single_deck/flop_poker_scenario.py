"""A Flop Poker (583) round in a scenario: the stub count a round may wait for, and the output's
community cards and burn card."""

from controller.games.single_deck.base_scenario import SingleDeckScenario


class FlopPokerScenario(SingleDeckScenario):
    """Needs the model's `community` and `burn`."""

    def answer(self, pending, doc):
        if pending.get("need") == "stub_count":
            return self.stub_count(doc)
        return super().answer(pending, doc)

    def summary(self):
        return {"community": list(self.model.community), "burn": self.model.burn}
