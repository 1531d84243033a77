"""What a scenario (`tablectl play`, controller/lab/scenario.py) asks a game beyond its events: the
whole deck its listed cards are the top of, the answer to a wait only the game can give (the
dice, a stub count, the dealer's setting), the card reader's answer, why a declined offer's
hand could not have taken the next action, and the game's part of the output.

Scenario-only code, kept out of the models (issue 12): each game's answers are a class beside
its own modules (blackjack/scenario.py, six_card_fortune/scenario.py, ...), named by its
declaration (`Declaration.scenario`, "module:Class"); the runner asks `answers_for(model)` and
never a game's name. A game that declares none gets these defaults.
"""

from controller.errors import ScenarioError
from controller.games.declarations import load
from controller.rules import cards as C


class ScenarioAnswers:
    """A game's answers to a scenario runner. Needs the model (its GAME and round data, read
    only: an answer is turned into an event the runner feeds). Offers deck, burn_section,
    answer, reader_answer, refusal, summary."""

    def __init__(self, model):
        self.model = model

    def deck(self):
        """The whole batch a scenario's listed cards are the top of, as card codes in the deck's
        own order; None for a game not played with cards."""
        return None

    def burn_section(self):
        """The section by which the table burns the first card of a new shoe before the
        round (581.7(c), 633a.7(c)), or None for a game that burns none there (a burn inside
        the round, Flop Poker's before the flop, is a card the round asks for)."""
        return None

    def answer(self, pending, doc):
        """(event kind, data) answering the game's own wait `pending`; `doc` is the scenario
        with `cards` the whole shoe."""
        raise ScenarioError("%s does not ask for %r" % (self.model.GAME, pending.get("need")))

    def reader_answer(self):
        """The card reader's answer (the runner knows the stacked hole card; the game says)."""
        raise ScenarioError("%s does not ask for %r" % (self.model.GAME, "reader"))

    def refusal(self, pending, action):
        """Why the hand a declined offer was made to could not take `action`, or None."""
        return None

    def summary(self):
        """The game's part of the scenario's output."""
        return {}


def standard_deck():
    """The 52 cards in the deck's own order, as codes."""
    return [C.code(c) for c in C.standard_deck()]


def answers_for(model):
    """The scenario answers the model's game declares (ScenarioAnswers when it declares none)."""
    target = type(model).DECLARES.scenario
    return (load(target) if target else ScenarioAnswers)(model)
