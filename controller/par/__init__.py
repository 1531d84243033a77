"""Exact par sheets (theoretical hold) of every wager whose outcome does not
depend on the player's decisions. CPython only: uses fractions."""
