"""What the table must know about Raise It Up Stud Poker (ch. 669a)."""

from controller.games.declarations import Declaration, Interval

GAME = "raise-it-up-stud"


def _deck(model):
    """4 hours dealt by hand, 8 from a shoe (669a.3(c)): the game's own section for it."""
    return model.section("hours")


DECLARES = Declaration(
    game=GAME,
    model="controller.games.single_deck.raise_it_up:RaiseItUpStud",
    modules=("controller.games.single_deck.raise_it_up",
             "controller.games.single_deck.raise_it_up_scenario",
             "controller.games.declarations.raise_it_up",
             "controller.rules.raise_it_up", "controller.lab.par.raise_it_up*"),
    intervals=(Interval("deck", _deck, by_game=True),),
    no_more_bets_section="669a.2(c)(2)",
    count_handed_as="progressive_chips",      # it reconciles the count itself (669a.8(b))
    par_sheets="controller.lab.par.raise_it_up",
    readings="controller.lab.par.raise_it_up_readings:READINGS",
    strategy=("controller.lab.par.raise_it_up_strategy", "text", ()),
    # its Progressive Payout Wager's hold depends on the strategy: a link prices it so
    linked_par=("progressive", "controller.lab.par.raise_it_up_progressive:LinkedSheet"),
    scenario="controller.games.single_deck.raise_it_up_scenario:RaiseItUpScenario",
    linkable=(("progressive", "669a.12(e)(3)"),),
    reconstruction="669a.11(j)",      # the discard rack permits reconstruction of each hand
    fault_section="669a.13",      # its irregularities, device malfunctions among them
    link_hits=(("progressive", "controller.rules.raise_it_up:progressive_meter_share"),),
    simulator="hal_sim.games:RAISE_IT_UP",  # the simulated players (the lab's: hal_sim)
)
