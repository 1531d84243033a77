"""A poker room hand (637a) in a scenario (controller/games/scenario_answers.py): the 52 cards
its listed cards are the top of, the losing hands' count found complete, and the output's
variant, board, burns, showdown, pots, rake and jackpot drop."""

from controller.games.poker_hand import STUD
from controller.games.scenario_answers import ScenarioAnswers, standard_deck


class PokerScenario(ScenarioAnswers):
    """Needs the model's `options`, `button`, `board`, `burns`, `showdown`, `pots`, `rake`,
    `jackpot_drop`."""

    def deck(self):
        """The cards a poker scenario does not list are the rest of the 52, after the listed
        ones, as in every other game."""
        return standard_deck()

    def answer(self, pending, doc):
        """The scenario's dealer counts the losing hands and finds each complete."""
        if pending.get("need") == "losing_hands_count":
            return "irregularity", {"kind": "losing_hands_count",
                                    "counts": dict(pending["expected"])}
        return super().answer(pending, doc)

    def summary(self):
        m = self.model
        out = {"variant": m.options["variant"], "betting": m.options["betting"]}
        if m.options["variant"] != STUD:
            out["button"] = m.button
            out["board"] = list(m.board)
        out.update({"burns": list(m.burns), "showdown": m.showdown, "pots": m.pots,
                    "rake": m.rake, "jackpot_drop": m.jackpot_drop})
        return out
