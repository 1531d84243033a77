"""What a policy says of its own time (`Policy.quiet_until`), which hal_sim/virtual.py's bulk
scheduler trusts to skip the loop's idle ticks (TableController.tick_is_quiet). The bulk and
stepwise schedulers' journals are compared byte for byte in tests/sim/test_virtual_bulk.py;
these hold each policy's answer to what its tick, accepting and attention do."""

import types

import pytest

from controller.policies import Policy
from controller.policies.devices import ReaderInspection
from controller.policies.intervals import ChangeIntervals
from controller.units import DAY_NS

HOUR = 3600 * 10 ** 9


def _ctl(now):
    return types.SimpleNamespace(clock=lambda: now)


def test_a_policy_that_acts_on_time_without_saying_when_is_never_quiet():
    class Ticking(Policy):
        def tick(self, ctl, now_ns):
            pass

    class Plain(Policy):
        def before(self, ctl, event):
            return None
    assert Ticking().quiet_until(_ctl(5)) == 5
    assert Plain().quiet_until(_ctl(5)) is None


@pytest.mark.reg("581.2(d)")
def test_the_reader_inspection_is_quiet_until_the_next_gaming_day():
    r = ReaderInspection(day_start_ns=6 * HOUR, wall_offset_ns=HOUR)
    for now in (0, 5 * HOUR - 1, 5 * HOUR, 3 * DAY_NS + 123):
        q = r.quiet_until(_ctl(now))
        assert q > now
        assert r.gaming_day(q) == r.gaming_day(now) + 1 == r.gaming_day(q - 1) + 1


@pytest.mark.reg("670a.3(c)")
def test_an_interval_is_quiet_until_its_warning_then_its_end():
    """Its tick warns `lead_ns` before the interval ends and marks it expired past its end
    (attention lights with either): a tick before each changes nothing, one at it does."""
    from controller.games.six_card_fortune.model import SixCardFortune as Model
    from hal_sim.simulation import game_config
    from controller import config as configuration
    cfg = configuration.validate(dict(game_config("six-card-fortune-pai-gow", [])[0],
                                      game="six-card-fortune-pai-gow"), Model)
    model = Model(cfg)
    notes = []
    ctl = types.SimpleNamespace(model=model, note=lambda *a, **k: notes.append(a))
    policy = ChangeIntervals(lead_ns=HOUR)
    policy.placed = {i.what: 0 for i in model.DECLARES.intervals}
    firsts = sorted((i.limit(model)[0] * HOUR, i.what) for i in model.DECLARES.intervals
                    if i.limit(model) is not None)
    limit, what = firsts[0]
    q = policy.quiet_until(ctl)
    assert q == limit - HOUR
    policy.tick(ctl, q - 1)
    assert not notes and not policy.attention(ctl)
    policy.tick(ctl, q)
    assert notes and policy.attention(ctl)
    assert policy.quiet_until(ctl) == limit + 1       # the deck's end, before the dice's
    policy.tick(ctl, limit)
    assert what not in policy.expired
    policy.tick(ctl, limit + 1)
    assert what in policy.expired
