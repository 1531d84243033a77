"""Change intervals of cards and dice, on event timestamps (the injected clock), never the wall.

Each game declares its intervals (`Interval`s in controller/games/declarations/): what (the
deck or the dice), its limit and section as the table is configured, and whether the game
enforces it itself. Today: Double Attack Blackjack's decks every 24 hours (581.3(c)), the
single-deck games' 4 hours by hand, 8 from a shoe (583.3(c), 669a.3(c): enforced by the
game), Six-Card Fortune's deck (670a.3(c)) and, where the starting position is found by
dice, its dice in the shaker 24 hours (670a.2(d)(1)(i)), Props & Hops' dice by the table's
dice_max_hours (585.3(b)(1): enforced by the game).

Where the game enforces an interval (single_deck.py, props_and_hops.py) the controller only
warns, so nothing is counted or removed twice. Where no game does, the controller applies
the games' own rule: a shuffle, wager or "no more bets" once expired returns any wagers
still open, removes the deck (or dice) and is refused; a round already being played ends
first. The clock starts at open_table and again at new_deck (new cards, or new dice at a
dice game; an interval `renewed_with` a key, as Six-Card Fortune's dice, is renewed by a
new_deck only when its data says so: {"dice": true}).
A warning is journaled once per interval `lead_ns` before it ends, and lights the tower.
"""

from controller.errors import IntervalExpired
from controller.games.engine import OPENED, ROUND_OVER, SHUFFLED, WAGERS_OPEN
from controller.policies import Policy

HOUR_NS = 3600 * 10 ** 9
GOES_ON = ("shuffle", "wager", "no_more_bets")      # events that go on with the deck/dice
BETWEEN = (OPENED, SHUFFLED, WAGERS_OPEN) + ROUND_OVER


def declared(model):
    """The change intervals `model`'s game declares."""
    return model.DECLARES.intervals


class ChangeIntervals(Policy):
    def __init__(self, lead_ns=30 * 60 * 10 ** 9):
        self.lead_ns = lead_ns
        self.placed = {}             # what -> ts_ns the cards or dice went on the table
        self.warned = set()
        self.expired = set()
        self.warnings = []           # journaled warnings, also kept here for a summary

    def _limits(self, model):
        for interval in declared(model):
            if interval.what in self.placed:
                got = interval.limit(model)
                if got is not None:
                    yield interval.what, got[0] * HOUR_NS, got[1], interval.by_game

    def _instants(self, what, limit_ns):
        """(when its warning is due, when it has expired): `lead_ns` before its end, and
        past its end (the one place `_check` and `quiet_until` take them from)."""
        placed = self.placed[what]
        return placed + limit_ns - self.lead_ns, placed + limit_ns + 1

    def _check(self, ctl, now_ns):
        for what, limit_ns, section, by_game in self._limits(ctl.model):
            warn_at, expired_at = self._instants(what, limit_ns)
            age = now_ns - self.placed[what]
            if now_ns >= expired_at:
                self.expired.add(what)
            elif now_ns >= warn_at and what not in self.warned:
                self.warned.add(what)
                left = (limit_ns - age) // 10 ** 9
                self.warnings.append({"what": what, "seconds_left": left, "section": section})
                ctl.note("interval_warning", now_ns, what=what, seconds_left=left,
                         section=section, enforced_by="game" if by_game else "controller")
            if now_ns >= expired_at and not by_game:
                yield what, limit_ns // HOUR_NS, section

    def before(self, ctl, event):
        expired = list(self._check(ctl, event.ts_ns))
        if not expired or event.kind not in GOES_ON or ctl.model.state not in BETWEEN:
            return None
        what, hours, section = expired[0]
        reason = ("the %s has been on the table more than %d hours: it is changed before "
                  "another round (%s)" % ("dice" if what == "dice" else "deck", hours, section))
        model = ctl.model
        if model.state == WAGERS_OPEN and model.wagers:
            model.void_round(reason)
        model.remove_the_deck(reason)
        ctl.note("interval_expired", event.ts_ns, what=what, section=section)
        raise IntervalExpired(reason)

    def after(self, ctl, event):
        if event.kind == "open_table" or event.kind == "new_deck":
            if ctl.model.state != OPENED:
                return                       # refused by the game: nothing was changed
            whats = [i.what for i in declared(ctl.model)
                     if event.kind == "open_table" or i.renewed_with is None
                     or event.get(i.renewed_with) is True]
            for what in whats:
                self.placed[what] = event.ts_ns
                self.warned.discard(what)
                self.expired.discard(what)

    def tick(self, ctl, now_ns):
        for _ in self._check(ctl, now_ns):
            pass

    def attention(self, ctl):
        return bool(self.warned or self.expired)

    def quiet_until(self, ctl):
        """The next instant `_check` finds something new: an interval's warning
        (`lead_ns` before its end), its expiry (past its end); attention follows them."""
        due = None
        for what, limit_ns, _, _ in self._limits(ctl.model):
            warn_at, expired_at = self._instants(what, limit_ns)
            for when, done in ((warn_at, what in self.warned),
                               (expired_at, what in self.expired)):
                if not done and (due is None or when < due):
                    due = when
        return due

    def offers(self, ctl):
        """When the cards or dice went on the table, for the console's `inspections`."""
        return {"intervals": {"placed": dict(self.placed)}}
