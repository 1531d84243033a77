"""The table clock across real power cycles: the monotonic clock restarts near zero, table time
goes on by the time the power was off, or, when that time is unknown, past every interval."""
import calendar
import random

import pytest

from controller import cli
from controller import config as configuration
from controller.games import ALL_GAMES, declaration, model_class
from controller.games.props_and_hops import PropsAndHops
from controller.journal import state as S
from controller.journal.clock import UNKNOWN_NS
from controller.journal.live import boot, check
from controller.journal.formats import open_journal
from controller.journal.store import load
from controller.policies import default_policies
from controller.policies.devices import DAY_NS, ReaderInspection
from controller.policies.intervals import HOUR_NS, ChangeIntervals
from controller.lab.sim import Simulation, game_config
from tests.journal.test_boot import fresh
from tests import builders

S_NS = 10 ** 9
WALL0 = 1_700_000_000 * S_NS          # the wall clock at the first boot


class Machine:
    """The clocks a boot reads: monotonic, wall and the kernel's boot id, all set by the test."""

    def __init__(self, mono, wall=WALL0, kernel="kernel-1", utc_offset_s=0):
        self.mono, self.wall, self.kernel = mono, wall, kernel
        self.utc_offset_s = utc_offset_s          # the casino's time zone

    def power_cycle(self, off_ns, mono=5 * S_NS, wall_error_ns=0):
        """The power goes for `off_ns`; the new kernel's monotonic clock starts at `mono`; the
        wall clock is `wall_error_ns` off (negative: behind, as a Pi without an RTC)."""
        self.wall += off_ns + wall_error_ns
        self.mono = mono
        self.kernel += "+"

    def run(self, ns):
        self.mono += ns
        self.wall += ns

    def boot(self, path, game):
        table, policies = fresh(game)
        return boot(str(path), table, policies, clock=lambda: self.mono,
                    wall=lambda: self.wall, boot_id=lambda: self.kernel,
                    utc_offset=lambda wall_ns: self.utc_offset_s)


def clock_records(path):
    store = open_journal(str(path))
    try:
        return [load(r)["data"] for r in store.rows() if r["kind"] == "clock"]
    finally:
        store.close()


def step(ctl, machine, what, **data):
    machine.run(S_NS)
    ctl.process(ctl.event(what, data))


def dab_table_at_100_hours(path):
    """A Double Attack table whose deck went on, was inspected and shuffled at ~100 h."""
    m = Machine(mono=100 * HOUR_NS)
    ctl = m.boot(path, "double-attack-blackjack")
    step(ctl, m, "open_table")
    placed = ctl.policy(ChangeIntervals).placed["deck"]
    step(ctl, m, "irregularity", kind="reader_inspected", role="floorperson", passed=True)
    step(ctl, m, "shuffle")
    assert ctl.policy(ReaderInspection).accepting(ctl)
    latest = ctl.store.latest_ts()
    ctl.close()                                   # the power goes
    return m, placed, latest


@pytest.mark.reg("581.3(c)")
@pytest.mark.reg("581.2(d)")
def test_a_deck_placed_before_a_25_hour_power_cut_has_expired_at_boot(tmp_path):
    path = tmp_path / "t.db"
    m, placed, latest = dab_table_at_100_hours(path)
    m.power_cycle(25 * HOUR_NS)                   # monotonic restarts at 5 s
    ctl = m.boot(path, "double-attack-blackjack")
    try:
        rec = clock_records(path)[-1]
        assert rec["by"] == "wall" and rec["reason"] is None
        assert rec["downtime_ns"] == 25 * HOUR_NS and rec["table_ns"] == latest + 25 * HOUR_NS
        assert ctl.clock() == latest + 25 * HOUR_NS
        ctl.run_once()                            # the loop's first iteration
        assert ctl.policy(ChangeIntervals).expired == {"deck"}
        assert not ctl.policy(ReaderInspection).accepting(ctl)     # a new gaming day
        step(ctl, m, "shuffle")
        assert ctl.model.state == "deck_removed"
        assert ctl.refusals[-1][1].endswith("more than 24 hours: it is changed before another "
                                            "round (581.3(c))")
        assert placed < ctl.clock() - 24 * HOUR_NS
    finally:
        ctl.close()


@pytest.mark.reg("581.3(c)")
@pytest.mark.reg("581.2(d)")
def test_after_a_1_hour_power_cut_the_deck_has_exactly_the_time_it_had_left(tmp_path):
    path = tmp_path / "t.db"
    m, placed, latest = dab_table_at_100_hours(path)
    m.power_cycle(HOUR_NS)
    ctl = m.boot(path, "double-attack-blackjack")
    try:
        assert ctl.clock() == latest + HOUR_NS
        ctl.run_once()
        assert not ctl.policy(ChangeIntervals).expired
        assert ctl.policy(ReaderInspection).accepting(ctl)   # the same gaming day
        left = placed + 24 * HOUR_NS - ctl.clock()
        assert left == 24 * HOUR_NS - (latest - placed) - HOUR_NS
        m.run(left)                               # exactly 24 hours on the table: allowed
        ctl.process(ctl.event("wager", {"seat": 1, "wager": "bet", "amount": 500}))
        assert ctl.model.state == "wagers_open"
        m.run(1)                                  # one ns more
        ctl.process(ctl.event("wager", {"seat": 2, "wager": "bet", "amount": 500}))
        assert ctl.model.state == "deck_removed" and "581.3(c)" in ctl.refusals[-1][1]
        assert ctl.model.results["1"]["bet"][0] == "returned"
    finally:
        ctl.close()


@pytest.mark.reg("585.3(b)(1)")
@pytest.mark.parametrize("off_h, expired", [(25, True), (1, False)])
def test_dice_in_the_shaker_count_the_time_the_power_was_off(tmp_path, off_h, expired):
    path = tmp_path / "t.db"
    m = Machine(mono=100 * HOUR_NS)
    ctl = m.boot(path, "props-and-hops")
    step(ctl, m, "open_table")
    ctl.close()
    m.power_cycle(off_h * HOUR_NS)
    ctl = m.boot(path, "props-and-hops")
    try:
        step(ctl, m, "shuffle")
        if expired:
            assert ctl.model.state == "deck_removed"
            assert "more than 24 hours: new dice are needed (585.3(b)(1))" in ctl.refusals[-1][1]
        else:
            assert ctl.model.state == "shuffled" and not ctl.refusals
    finally:
        ctl.close()


@pytest.mark.reg("581.3(c)")
@pytest.mark.reg("581.2(d)")
@pytest.mark.reg("585.3(b)(1)")
def test_a_wall_clock_behind_the_journal_expires_every_interval_with_the_reason(tmp_path):
    path = tmp_path / "t.db"
    m, placed, latest = dab_table_at_100_hours(path)
    m.power_cycle(10 * 60 * S_NS, wall_error_ns=-2 * HOUR_NS)   # no RTC: 110 min behind
    ctl = m.boot(path, "double-attack-blackjack")
    try:
        rec = clock_records(path)[-1]
        assert rec["by"] is None and rec["downtime_ns"] is None
        assert rec["reason"].startswith("the wall clock reads 6600 s before the journal's "
                                        "latest stamp")
        assert "treated as run out" in rec["reason"]
        assert ctl.clock() == latest + UNKNOWN_NS
        ctl.run_once()
        assert ctl.policy(ChangeIntervals).expired == {"deck"}
        assert not ctl.policy(ReaderInspection).accepting(ctl)
        step(ctl, m, "shuffle")
        assert ctl.model.state == "deck_removed" and "581.3(c)" in ctl.refusals[-1][1]
    finally:
        ctl.close()
    # the dice too, whoever enforces them
    path = tmp_path / "dice.db"
    m = Machine(mono=100 * HOUR_NS)
    ctl = m.boot(path, "props-and-hops")
    step(ctl, m, "open_table")
    ctl.close()
    m.power_cycle(60 * S_NS, wall_error_ns=-HOUR_NS)
    ctl = m.boot(path, "props-and-hops")
    try:
        step(ctl, m, "shuffle")
        assert ctl.model.state == "deck_removed" and "585.3(b)(1)" in ctl.refusals[-1][1]
    finally:
        ctl.close()


@pytest.mark.reg("581.3(c)")
@pytest.mark.reg("583.3(c)")
@pytest.mark.reg("669a.3(c)")
@pytest.mark.reg("670a.3(c)")
@pytest.mark.reg("670a.2(d)(1)(i)")
@pytest.mark.reg("585.3(b)(1)")
@pytest.mark.reg("581.2(d)")
def test_an_unknown_downtime_is_longer_than_every_interval_and_a_gaming_day():
    limits = []
    for game, cfg in [(g, {}) for g in ALL_GAMES] + [("six-card-fortune-pai-gow", {"options": {
            "start_method": "dice", "dealing": "hand", "shuffler": "automated"}})]:
        cls = model_class(game)
        model = cls(configuration.validate(dict(cfg, game=game), cls))
        limits += [i.limit(model)[0] for i in declaration(game).intervals if i.limit(model)]
    assert 24 in limits and PropsAndHops.DEFAULTS["options"]["dice_max_hours"] == 24
    assert UNKNOWN_NS > max(limits) * HOUR_NS and UNKNOWN_NS >= DAY_NS


def test_a_restart_on_the_same_kernel_keeps_the_offset_whatever_the_wall_clock_says(tmp_path):
    path = tmp_path / "t.db"
    m = Machine(mono=100 * HOUR_NS)
    ctl = m.boot(path, "props-and-hops")
    step(ctl, m, "open_table")
    offset = ctl.clock.offset_ns
    ctl.close()
    m.run(30 * S_NS)
    m.wall -= 5 * HOUR_NS                         # NTP stepped it back meanwhile
    ctl = m.boot(path, "props-and-hops")
    try:
        rec = clock_records(path)[-1]
        assert rec["by"] == "monotonic" and rec["downtime_ns"] == 30 * S_NS
        assert ctl.clock.offset_ns == offset and ctl.clock() == m.mono
    finally:
        ctl.close()


def test_table_time_never_goes_backwards_across_reboots_and_the_journal_verifies(tmp_path,
                                                                                  capsys):
    path = tmp_path / "t.db"
    rng = random.Random(7)
    m = Machine(mono=rng.randrange(10 ** 15))
    ctl = m.boot(path, "props-and-hops")
    step(ctl, m, "open_table")
    floor = ctl.store.latest_ts()
    for _ in range(40):
        ctl.close()
        how = rng.choice(("restart", "cycle", "cycle_behind", "no_rtc"))
        if how == "restart":
            m.run(rng.randrange(10 ** 11))
            m.wall += rng.randrange(-HOUR_NS, HOUR_NS)
        else:
            m.power_cycle(rng.randrange(30 * HOUR_NS), mono=rng.randrange(10 ** 10),
                          wall_error_ns={"cycle": 0, "cycle_behind": -rng.randrange(HOUR_NS),
                                         "no_rtc": -m.wall + rng.randrange(10 ** 15)}[how])
        ctl = m.boot(path, "props-and-hops")
        assert ctl.clock() >= floor
        for _ in range(rng.randrange(3)):
            step(ctl, m, rng.choice(("shuffle", "new_deck", "open_table")))
        floor = ctl.store.latest_ts()
        assert ctl.clock() >= floor
    live = S.digest(S.snapshot(ctl.table, ctl.policies, ctl.journal.counters))
    ctl.close()
    stamps = [r["table_ns"] for r in clock_records(path)]
    assert len(stamps) == 41 and stamps == sorted(stamps)
    assert cli.main(["journal", "verify", str(path)]) == 0
    assert "the chain holds" in capsys.readouterr().out
    store = open_journal(str(path))
    try:
        replay, problem = check(store, PropsAndHops, full=True)
    finally:
        store.close()
    assert problem is None and S.digest(replay.state()) == live


def test_the_drivers_stamp_frames_and_edges_in_table_time(tmp_path):
    """A journal whose time line is far beyond this machine's monotonic clock (another kernel,
    a long uptime): every device event the simulator's drivers deliver continues it."""
    path = tmp_path / "t.db"
    far = 10 ** 6 * HOUR_NS                       # more than any uptime
    cfg, _ = game_config("raise-it-up-stud", ())           # the simulated table's devices
    table = builders.table("raise-it-up-stud", cfg)
    ctl = boot(str(path), table, default_policies("raise-it-up-stud"), clock=lambda: far,
               boot_id=lambda: "another")
    ctl.close()
    s = Simulation("raise-it-up-stud", 1, journal=str(path))
    try:
        s.run(1)
    finally:
        s.close()
    store = open_journal(str(path))
    try:
        events = [r for r in store.rows() if r["entry"] == "event"]
    finally:
        store.close()
    sources = {r["source"] for r in events}
    assert {"progressive_system", "shoe"} <= sources, sources     # GPIO and serial
    assert all(r["ts_ns"] >= far for r in events)


@pytest.mark.reg("581.2(d)")
def test_the_gaming_day_turns_at_the_casinos_local_time_and_replays_the_same(tmp_path):
    """A gaming day begins at 06:00 on the casino's clock (ReaderInspection.day_start_ns),
    not at some hour of table time: the boot's clock record maps one to the other."""
    path = tmp_path / "t.db"
    est = -5 * 3600                                             # UTC-5
    five_am = calendar.timegm((2026, 11, 29, 10, 0, 0)) * S_NS  # 05:00 there
    m = Machine(mono=3 * HOUR_NS, wall=five_am, utc_offset_s=est)
    ctl = m.boot(path, "double-attack-blackjack")
    try:
        reader = ctl.policy(ReaderInspection)
        step(ctl, m, "open_table")
        step(ctl, m, "irregularity", kind="reader_inspected", role="floorperson", passed=True)
        assert reader.accepting(ctl)
        m.run(50 * 60 * S_NS)                                   # 05:50: the same gaming day
        assert reader.accepting(ctl)
        m.run(20 * 60 * S_NS)                                   # 06:10: a new one
        assert not reader.accepting(ctl)
        step(ctl, m, "irregularity", kind="reader_inspected", role="floorperson", passed=True)
        assert reader.accepting(ctl)
        live = S.policies_state(ctl.policies)
    finally:
        ctl.close()
    # the replay takes the same local time from the clock record: the same days, verified
    store = open_journal(str(path))
    try:
        replay, problem = check(store, model_class("double-attack-blackjack"), full=True)
    finally:
        store.close()
    assert problem is None
    assert S.policies_state(replay.ctl.policies) == live
    local_day = (five_am // S_NS + est) // 86400              # 2026-11-29 at the casino
    assert [i["day"] for i in reader.inspections] == [local_day - 1, local_day]
