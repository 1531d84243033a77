"""What the table must know about Double Attack Blackjack (ch. 581)."""

from controller.games.declarations import HOLE_CARD, Declaration, Interval

GAME = "double-attack-blackjack"

DECLARES = Declaration(
    game=GAME,
    model="controller.games.blackjack.double_attack:DoubleAttackBlackjack",
    modules=("controller.games.blackjack.double_attack",
             "controller.games.declarations.double_attack", "controller.games.blackjack.family",
             "controller.games.blackjack.decisions", "controller.games.blackjack.hands",
             "controller.games.blackjack.shoe", "controller.games.blackjack.family_scenario",
             "controller.rules.blackjack*",
             "controller.lab.par.double_attack", "controller.lab.par.blackjack*",
             "controller.lab.par.counting"),
    intervals=(Interval("deck", lambda model: (24, "581.3(c)"), by_game=False),),
    no_more_bets_section="581.6",
    secret=HOLE_CARD,
    reader_inspection=True,
    par_sheets="controller.lab.par.double_attack",
    readings="controller.lab.par.blackjack_readings:DOUBLE_ATTACK",
    par_configured=True,
    strategy=("controller.lab.par.blackjack_optimal", "strategy_text", (GAME,)),
    scenario="controller.games.blackjack.family_scenario:FamilyScenario",
    reconstruction="581.7(q)",      # the discard rack permits reconstruction of each hand
    fault_section="581.13",      # its irregularities, device malfunctions among them
    simulator="hal_sim.games:DOUBLE_ATTACK",  # the simulated players (the lab's: hal_sim)
)
