"""What the table must know about Six-Card Fortune Pai Gow Poker (ch. 670a)."""

import secrets

from controller.games.declarations import Declaration, Interval

GAME = "six-card-fortune-pai-gow"


def secrets_rng():
    """The random number generator of 670a.5(i)(2): 1..7 from the OS's CSPRNG."""
    return secrets.randbelow(7) + 1


def _deck(model):
    return (4, "670a.3(c)(1)") if model.option("dealing") == "hand" else (8, "670a.3(c)(2)")


def _dice(model):
    """The dice in the shaker, where the starting position is found by dice."""
    return (24, "670a.2(d)(1)(i)") if model.option("start_method") == "dice" else None


DECLARES = Declaration(
    game=GAME,
    model="controller.games.six_card_fortune.model:SixCardFortune",
    modules=("controller.games.six_card_fortune", "controller.games.six_card_fortune.*",
             "controller.games.declarations.six_card_fortune",
             "controller.rules.paigow", "controller.lab.par.six_card_fortune*"),
    intervals=(Interval("deck", _deck, by_game=False),
               # {"dice": true} on its new_deck says the dice were changed too
               Interval("dice", _dice, by_game=False, renewed_with="dice")),
    no_more_bets_section="670a.2(c)(2)",
    count_handed_as="progressive_accepted",   # it is handed the accepted seats (670a.8(b)(2))
    secure_rng=secrets_rng,
    dice_per_roll=3,                          # 670a.12: three dice
    par_sheets="controller.lab.par.six_card_fortune",
    readings="controller.lab.par.six_card_fortune_readings:READINGS",
    scenario="controller.games.six_card_fortune.scenario:SixCardFortuneScenario",
    linkable=(("progressive", "670a.12(d)(2)"),),
    reconstruction="670a.11(j)",      # the discard rack permits reconstruction of each hand
    fault_section="670a.13",      # its irregularities, device malfunctions among them
    link_hits=(("progressive", "controller.rules.paigow:progressive_meter_share"),),
    simulator="hal_sim.games:SIX_CARD_FORTUNE",  # the simulated players (the lab's: hal_sim)
)
