"""A single-deck poker game's round in a scenario (controller/games/scenario_answers.py): the
52-card deck its listed cards are the top of, and the dealer's stub count, which finds the
scenario's deck as it says it is. Flop Poker's and Raise It Up's answers build on these."""

from controller.games.scenario_answers import ScenarioAnswers, standard_deck


class SingleDeckScenario(ScenarioAnswers):
    """Needs the model's `shoe_out` (the cards out of the deck)."""

    def deck(self):
        """The whole deck a scenario's listed cards are the top of."""
        return standard_deck()

    def stub_count(self, doc):
        """The stub holds what the deal left of the scenario's deck: the listed cards, the rest
        of the deck, less `deck.missing`, plus `deck.extra` (583.8(e), 669a.8(f))."""
        return "irregularity", {"kind": "stub_count",
                                "stub": len(doc.get("cards", [])) - len(self.model.shoe_out),
                                "misdealt": False}
