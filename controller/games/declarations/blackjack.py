"""What the table must know about Blackjack (633a.7)."""

from controller.games.declarations import HOLE_CARD, Declaration

GAME = "blackjack"

DECLARES = Declaration(
    game=GAME,
    model="controller.games.blackjack.model:Blackjack",
    modules=("controller.games.blackjack", "controller.games.blackjack.model",
             "controller.games.blackjack.family", "controller.games.blackjack.decisions",
             "controller.games.blackjack.hands", "controller.games.blackjack.shoe",
             "controller.games.blackjack.side_wagers", "controller.games.blackjack.scenario",
             "controller.games.blackjack.family_scenario",
             "controller.games.declarations.blackjack", "controller.rules.blackjack*",
             "controller.lab.par.blackjack*", "controller.lab.par.counting"),
    no_more_bets_section="633a.7",
    secret=HOLE_CARD,
    par_sheets="controller.lab.par.blackjack",
    readings="controller.lab.par.blackjack_readings:BLACKJACK",
    par_configured=True,
    strategy=("controller.lab.par.blackjack_optimal", "strategy_text", (GAME,)),
    scenario="controller.games.blackjack.scenario:BlackjackScenario",
    jackpot_shares="controller.rules.blackjack_side_payouts:share_jackpot",   # 633a.7(o)
    # a link of these declares its paytable (the Rules Submission's, 633a.13): checked so
    link_paytable="controller.rules.blackjack_side_payouts:paytable_from_config",
    # 633a.7(o): the three progressives; the texts set no minimum reset or rate for them
    linkable=tuple((w, "633a.7(o)") for w in (
        "bad_beat_progressive", "hit_and_run_progressive", "straight_jack_progressive")),
    reconstruction="633a.7(s)",      # the discard rack permits reconstruction of each hand
    fault_section="633a.7(a)",      # every card dealt from a dealing shoe
    link_hits=(("bad_beat_progressive",
                "controller.rules.blackjack_side_payouts:bad_beat_meter_share"),
               ("hit_and_run_progressive",
                "controller.rules.blackjack_side_payouts:hit_and_run_meter_share"),
               ("straight_jack_progressive",
                "controller.rules.blackjack_side_payouts:straight_jack_meter_share")),
    simulator="hal_sim.games:BLACKJACK",  # the simulated players (the lab's: hal_sim)
)
