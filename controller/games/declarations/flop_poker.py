"""What the table must know about Flop Poker (ch. 583)."""

from controller.games.declarations import Declaration, Interval

GAME = "flop-poker"


def _deck(model):
    """4 hours dealt by hand, 8 from a shoe (583.3(c)): the game's own section for it."""
    return model.section("hours")


DECLARES = Declaration(
    game=GAME,
    model="controller.games.single_deck.flop_poker:FlopPoker",
    modules=("controller.games.single_deck.flop_poker",
             "controller.games.single_deck.flop_poker_scenario",
             "controller.games.declarations.flop_poker",
             "controller.rules.flop_poker", "controller.lab.par.flop_poker*"),
    intervals=(Interval("deck", _deck, by_game=True),),
    no_more_bets_section="583.7(c)",
    par_sheets="controller.lab.par.flop_poker",
    readings="controller.lab.par.flop_poker_readings:READINGS",
    strategy=("controller.lab.par.flop_poker_strategy", "text", ()),
    scenario="controller.games.single_deck.flop_poker_scenario:FlopPokerScenario",
    reconstruction="583.11(f)",      # the discard rack permits reconstruction of each hand
    fault_section="583.13",      # its irregularities, device malfunctions among them
    simulator="hal_sim.games:FLOP_POKER",  # the simulated players (the lab's: hal_sim)
)
