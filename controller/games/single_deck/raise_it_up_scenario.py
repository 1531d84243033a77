"""A Raise It Up Stud (669a) round in a scenario: an automated shoe's stacks of three from the
scenario's `cards`, the stub count, and the output's community cards, meter and jackpots."""

from controller.errors import ScenarioError
from controller.games.single_deck.base_scenario import SingleDeckScenario


class RaiseItUpScenario(SingleDeckScenario):
    """Needs the model's `community`, `meter`, `jackpots`."""

    def answer(self, pending, doc):
        """An automated shoe's stacks from the scenario's `cards`; a stub count due in the first
        round (`stub_count_every` 1) finds the deck whole."""
        if pending["need"] == "stack":
            cards = doc.get("cards", [])
            start = len(self.model.shoe_out)
            if start + 3 > len(cards):
                raise ScenarioError("the shoe runs out: no stack of three left for %s"
                                    % pending["for"])
            return "card", {"cards": cards[start:start + 3]}
        if pending["need"] == "stub_count":
            return self.stub_count(doc)
        raise ScenarioError("%s does not ask for %r" % (self.model.GAME, pending["need"]))

    def summary(self):
        m = self.model
        out = {"community": list(m.community)}
        if m.meter is not None:
            out["meter"] = m.meter["value"]
        if m.jackpots:
            out["jackpots"] = list(m.jackpots)
        return out
