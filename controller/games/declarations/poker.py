"""What the table must know about a poker-room table (637a)."""

from controller.games.declarations import Declaration

GAME = "poker"

DECLARES = Declaration(
    game=GAME,
    modules=("controller.games.poker_*",
             "controller.games.declarations.poker", "controller.lab.par.poker"),
    par_sheets="controller.lab.par.poker",
    scenario="controller.games.poker_scenario:PokerScenario",
    fault_section="637a(e)(4)(ii)",      # the automated card shuffling device it may use
)
