"""A controller on simulated GPIO with a clock the test moves."""
from controller.games.events import Event
from controller.policies import default_policies
from controller.outputs import Outputs
from controller.table import TableController
from hal_sim.gpio import SimFactory
from tests import builders
from tests.builders import Clock

LOCKOUT, TOWER, JACKPOT = 5, 6, 7
LIGHTS = {str(s): 11 + s for s in range(1, 7)}
HOUR = 3600 * 10 ** 9


def make(game="props-and-hops", cfg=None, clock=None, **options):
    clock = clock or Clock(1_000)
    gpio = SimFactory(clock=clock)
    outputs = Outputs(lockout=gpio.output(LOCKOUT, safe=True, name="lockout"),
                      tower=gpio.output(TOWER, safe=True, name="tower"),
                      jackpot=gpio.output(JACKPOT, safe=False, name="jackpot"),
                      seat_lights={s: gpio.output(b, safe=False) for s, b in LIGHTS.items()})
    table = builders.table(game, cfg)
    ctl = TableController(table, clock=clock, outputs=outputs,
                          policies=default_policies(game, **options))
    return ctl, gpio, clock


def feed(ctl, *events):
    for e in events:
        ctl.submit(e)
    ctl.run_until_idle()


def ev(what, ts, **data):
    return Event(what, data, "test", ts)


def wager(seat, ts, wager="two_hardway", amount=500, source="sensor"):
    return Event("wager", {"seat": seat, "wager": wager, "amount": amount}, source, ts)
