"""A Props & Hops (585) round in a scenario (controller/games/scenario_answers.py): the roll
from the scenario's `dice`, and the output's dice and shooter. Not played with cards."""

from controller.errors import ScenarioError
from controller.games.scenario_answers import ScenarioAnswers


class PropsAndHopsScenario(ScenarioAnswers):
    """Needs the model's `roll` and `shooter`."""

    def answer(self, pending, doc):
        """The scenario's `dice`: [[a, b]] or ["no_roll"], one roll for its one round."""
        if pending.get("need") != "dice":
            return super().answer(pending, doc)
        if "dice" not in doc:
            raise ScenarioError("scenario has no 'dice': Props & Hops needs the roll as "
                                "[[a, b]] or [\"no_roll\"] (585.3(g))")
        roll = doc["dice"]
        if roll == ["no_roll"]:
            return "dice", {"no_roll": "called"}
        if (not isinstance(roll, list) or len(roll) != 1 or not isinstance(roll[0], list)
                or len(roll[0]) != 2):
            raise ScenarioError("dice must be [[a, b]] (one roll of two dice) or [\"no_roll\"], "
                                "not %s (585.3(a))" % (roll,))
        return "dice", {"dice": list(roll[0])}

    def summary(self):
        return {"dice": self.model.roll, "shooter": self.model.shooter}
