"""Exact par sheets (theoretical hold) of every wager whose outcome does not
depend on the player's decisions. The sheets use fractions and run on CPython;
three_card.py, which the rules-core tests share, stays MicroPython-clean."""
