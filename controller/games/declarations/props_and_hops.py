"""What the table must know about Props & Hops (ch. 585)."""

from controller.games.declarations import Declaration, Interval

GAME = "props-and-hops"


def _dice(model):
    """The dice in the shaker 24 hours or fewer, by the table's dice_max_hours (585.3(b)(1))."""
    return model.config["options"]["dice_max_hours"], "585.3(b)(1)"


DECLARES = Declaration(
    game=GAME,
    model="controller.games.props_and_hops:PropsAndHops",
    modules=("controller.games.props_and_hops", "controller.games.props_and_hops_scenario",
             "controller.games.declarations.props_and_hops", "controller.lab.par.props_and_hops"),
    intervals=(Interval("dice", _dice, by_game=True),),
    no_more_bets_section="585.3(e)",
    par_sheets="controller.lab.par.props_and_hops",
    scenario="controller.games.props_and_hops_scenario:PropsAndHopsScenario",
    fault_section="585.3(b)",      # the approved dice shaker and its reader
    simulator="hal_sim.games:PROPS_AND_HOPS",  # the simulated players (the lab's: hal_sim)
)
