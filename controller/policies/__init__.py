"""The enforcement policies the controller applies around every game.

A policy sees each event before the game does (`before`: return CONSUMED to keep it from
the game, raise a ControllerError to refuse it) and after it was applied (`after`); `tick`
runs its timers on the injected clock; `accepting` may hold wagering shut (the lock-out
output); `attention` lights the tower. What each policy leaves to the games, and why:
    no_more_bets.py  the press, the past-post rule, the chip reconciliation
    intervals.py     deck and dice change intervals (warn always; refuse where no game does)
    devices.py       the card reader's daily inspection (581.2(d)); the lock-out outputs for
                     counts and malfunctions are the games' lock-outs, shown by the controller
"""

# A policy returns it from `before`: it handled the event itself, the game does not see it.
# Defined here, where the policies live, so that the loop (controller/table.py) depends on the
# policies and never the other way round.
CONSUMED = object()


_ACTS_ON_TIME = {}       # policy class -> whether it overrides tick, accepting or attention


class Policy:
    """Does nothing; a policy overrides what it needs."""

    def before(self, ctl, event):
        return None

    def after(self, ctl, event):
        pass

    def tick(self, ctl, now_ns):
        pass

    def deadline(self):
        """The clock time (ns) at which `tick` has something to do, or None."""
        return None

    def accepting(self, ctl):
        return True

    def attention(self, ctl):
        return False

    def quiet_until(self, ctl):
        """The clock time (ns) before which `tick`, `accepting` and `attention` cannot change
        but by an input, or None: never on their own. A scheduler may skip the loop's idle
        ticks before it (hal_sim/virtual.py's bulk path; the real loop ticks every 50 ms).
        A policy that overrides any of the three and not this is never quiet."""
        cls = type(self)
        acts = _ACTS_ON_TIME.get(cls)
        if acts is None:                        # asked at every idle tick: once a class
            acts = _ACTS_ON_TIME[cls] = any(getattr(cls, m) is not getattr(Policy, m)
                                            for m in ("tick", "accepting", "attention"))
        return ctl.clock() if acts else None

    def offers(self, ctl):
        """{name: plain data} of what this policy lets a screen show (issue 32): the console
        asks the controller by name (`TableController.offered`), never for a policy's class,
        so a policy added, replaced or removed changes no screen's imports. Names offered
        today: "gaming_day" {"start_ns", "local_offset_ns"}, "reader_inspection" {"section",
        "inspected_today", "count", "recent"} (devices.py), "intervals" {"placed"}
        (intervals.py). Called from the console's thread: copies, never live state."""
        return {}


def default_policies(game, **options):
    """The policies every table runs, in the order they see an event; `game`'s declaration
    says which of them it needs (the card reader's daily inspection)."""
    from controller.games import declaration
    from controller.policies.devices import ReaderInspection
    from controller.policies.intervals import ChangeIntervals
    from controller.policies.no_more_bets import NoMoreBets
    out = [ChangeIntervals(**options.get("intervals", {}))]
    if declaration(game).reader_inspection:
        out.append(ReaderInspection(**options.get("reader", {})))
    out.append(NoMoreBets(**options.get("no_more_bets", {})))
    return out
