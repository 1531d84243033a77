"""A poker table's stakes and house take as configuration (637a(c); the rake and jackpot
drop of 637a.15-637a.17 are not in our texts: they are the table's own settings)."""

from controller.errors import ConfigError
from controller.games.poker_hand import BETTINGS, STUD, VARIANTS

MONEY = ("small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet", "rake_cap",
         "jackpot_drop")


def _one_of(choices):
    return lambda v: None if v in choices else "one of %s" % ", ".join(choices)


def _cents(minimum=0):
    def check(v):
        return None if v >= minimum else "at least %d cents" % minimum
    check.cents = True              # an amount of money: the console shows it in dollars
    return check


def _between(lo, hi, why=""):
    return lambda v: None if lo <= v <= hi else "%d..%d%s" % (lo, hi, why)


OPTION_DEFAULTS = {
    "variant": "texas_holdem", "betting": "no_limit",
    "small_blind": 100, "big_blind": 200, "ante": 0, "bring_in": 100,
    "small_bet": 200, "big_bet": 400, "limit_bets": 4, "chip_unit": 100, "button": 0,
    "shuffler": "manual", "deck_count_every": 5,
    "rake_percent": 10, "rake_cap": 500, "rake_minimum_pot": 0, "no_flop_no_drop": True,
    "jackpot_drop": 0, "jackpot_minimum_pot": 0,
}

OPTIONS = {
    "variant": (str, _one_of(VARIANTS)),
    "betting": (str, _one_of(tuple(BETTINGS))),
    "small_blind": (int, _cents()), "big_blind": (int, _cents()), "ante": (int, _cents()),
    "bring_in": (int, _cents()), "small_bet": (int, _cents(1)), "big_bet": (int, _cents(1)),
    "limit_bets": (int, _between(1, 10, ": a bet and its raises in one limit round")),
    "chip_unit": (int, _cents(1)),
    "button": (int, _between(0, 6, ": a seat, or 0 for the highest seat in the hand")),
    "shuffler": (str, _one_of(("manual", "counting"))),
    "deck_count_every": (int, _between(1, 5, ": the deck is counted at least once every "
                                             "5 rounds (637a(e)(4)(i))")),
    "rake_percent": (int, _between(0, 100)), "rake_cap": (int, _cents()),
    "rake_minimum_pot": (int, _cents()), "no_flop_no_drop": (bool, None),
    "jackpot_drop": (int, _cents()), "jackpot_minimum_pot": (int, _cents()),
}

def check_stakes(o):
    """The stakes fit together and are whole chips."""
    unit = o["chip_unit"]
    for key in MONEY:
        if o[key] % unit:
            raise ConfigError("options.%s = %d is not whole chips of chip_unit %d cents"
                              % (key, o[key], unit))
    if o["variant"] == STUD:
        if not 0 < o["bring_in"] < o["small_bet"]:
            raise ConfigError("options.bring_in = %d: Seven Card Stud's bring-in is more than 0 "
                              "and less than small_bet %d" % (o["bring_in"], o["small_bet"]))
    elif not 0 < o["big_blind"] or o["small_blind"] > o["big_blind"]:
        raise ConfigError("options: the big blind (%d) is more than 0 and at least the small "
                          "blind (%d)" % (o["big_blind"], o["small_blind"]))
    if o["betting"] == "limit" and o["big_bet"] < o["small_bet"]:
        raise ConfigError("options.big_bet = %d is below small_bet %d"
                          % (o["big_bet"], o["small_bet"]))
