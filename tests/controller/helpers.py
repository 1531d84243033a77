"""A controller on simulated GPIO with a clock the test moves."""
from controller import config
from controller.games import model_class
from controller.games.engine import Table
from controller.games.events import Event
from controller.policies import default_policies
from controller.outputs import Outputs
from controller.table import TableController
from hal_sim.gpio import SimFactory

LOCKOUT, TOWER, JACKPOT = 5, 6, 7
LIGHTS = {str(s): 11 + s for s in range(1, 7)}
HOUR = 3600 * 10 ** 9


class Clock:
    def __init__(self, now=1_000):
        self.now = now

    def __call__(self):
        return self.now


def make(game="props-and-hops", cfg=None, clock=None, **options):
    clock = clock or Clock()
    gpio = SimFactory(clock=clock)
    outputs = Outputs(lockout=gpio.output(LOCKOUT, safe=True, name="lockout"),
                      tower=gpio.output(TOWER, safe=True, name="tower"),
                      jackpot=gpio.output(JACKPOT, safe=False, name="jackpot"),
                      seat_lights={s: gpio.output(b, safe=False) for s, b in LIGHTS.items()})
    cls = model_class(game)
    table = Table(cls(config.validate(dict(cfg or {}), cls)))
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
