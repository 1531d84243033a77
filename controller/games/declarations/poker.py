"""What the table must know about a poker-room table (637a)."""

from controller.games.declarations import Declaration

GAME = "poker"

DECLARES = Declaration(
    game=GAME,
    model="controller.games.poker_room:PokerRoom",
    modules=("controller.games.poker_*",
             "controller.games.declarations.poker", "controller.lab.par.poker"),
    par_sheets="controller.lab.par.poker",
    scenario="controller.games.poker_scenario:PokerScenario",
    house_take="controller.games.poker_pot_award:round_money",
    fault_section="637a(e)(4)(ii)",      # the automated card shuffling device it may use
    simulator="hal_sim.games:POKER",  # the simulated players (the lab's: hal_sim)
)
