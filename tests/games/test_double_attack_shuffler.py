"""Double Attack Blackjack's shuffle: by an automated shuffler or by hand (581.5(a)), a shuffler
that fails a shuffle (581.13(j)) and one that cannot be used, covered before the cards are
shuffled any other way (581.13(k)); the covered shuffler through a snapshot, the journal, and
the real drivers of the shuffler and the dealer panel."""
import json

import pytest

from controller import config as configuration
from controller.errors import ConfigError
from controller.games.blackjack.double_attack import DoubleAttackBlackjack as DAB
from controller.games.engine import IllegalEvent, GameMachine
from controller.games.events import Event
from controller.journal import boot
from controller.policies import default_policies
from controller.clearing import SelftestOnClear, service_for
from controller.table import TableController
from drivers.devices import DealerPanel, Shuffler
from hal_sim.devices.dealer_panel import SimDealerPanel
from hal_sim.devices.shuffler import SimShuffler
from tests.drivers.devices.support import wait_for
from tests.games.events import act, cards, wagers
from tests.games.test_double_attack import irregular, table

BY_HAND = Event("shuffle", {"by": "hand"})
BY_SHUFFLER = Event("shuffle", {"by": "shuffler", "count": 384}, source="shuffler")
COVERED = {"device": "shuffler", "covered": True}
FLOOR = {"role": "floorperson"}


def opened(**options):
    t = table(**options)
    t.handle(Event("open_table"))
    return t


def play_a_round(t):
    """Seat 1 stands on 19 against the dealer's 9 up and 17: settled."""
    wagers(t, {"1": {"bet": 1000}})
    t.handle(Event("no_more_bets"))
    cards(t, "9h")
    act(t, "1", "decline")
    cards(t, "Ks", "9d", "8c")
    act(t, "1", "stand")
    assert t.state == "settled"


# ---- the configuration (581.5(a)) ----------------------------------------------------------

@pytest.mark.reg("581.5(a)")
def test_how_the_table_shuffles_is_configured_strictly():
    assert configuration.validate({}, DAB)["options"]["shuffler"] == "automated"
    assert configuration.validate({"options": {"shuffler": "manual"}}, DAB)
    with pytest.raises(ConfigError, match=r"options.shuffler = 'by hand': one of automated, "
                                          r"manual \(581.5\(a\)\)"):
        configuration.validate({"options": {"shuffler": "by hand"}}, DAB)
    with pytest.raises(ConfigError, match="options.shuffler must be str, not True"):
        configuration.validate({"options": {"shuffler": True}}, DAB)


@pytest.mark.reg("581.5(a)")
def test_a_table_that_shuffles_by_hand_has_no_shuffler_to_cover_or_shuffle():
    t = opened(shuffler="manual")
    with pytest.raises(IllegalEvent, match=r"this table has none in use \(581.5\(a\)\)"):
        t.handle(BY_SHUFFLER)
    with pytest.raises(IllegalEvent, match=r"no automated shuffler in use \(581.13\(k\)\)"):
        irregular(t, "device_out_of_order", **COVERED)
    with pytest.raises(IllegalEvent, match="shuffler: this table has none in use"):
        t.handle(Event("fault", {"device": "shuffler", "reason": "jam"}))
    assert t.state == "opened"
    t.handle(BY_HAND)
    play_a_round(t)


# ---- a shuffle by hand only once the shuffler is covered (581.13(k)) ---------------------

@pytest.mark.reg("581.13(k)")
def test_no_shuffle_by_hand_until_the_shuffler_is_covered_out_of_order():
    t = opened()
    with pytest.raises(IllegalEvent, match=r"no shuffle by hand while the automated shuffler is "
                                           r"in use.*\(581.13\(k\)\)"):
        t.handle(BY_HAND)
    assert t.state == "opened"
    with pytest.raises(IllegalEvent, match=r"covered or signed out of order.*\(581.13\(k\)\)"):
        irregular(t, "device_out_of_order", device="shuffler")
    with pytest.raises(IllegalEvent, match=r"one of shuffler, not 'card_reader'"):
        irregular(t, "device_out_of_order", device="card_reader", covered=True)
    with pytest.raises(IllegalEvent, match="a shuffle is by shuffler or hand, not 'machine'"):
        t.handle(Event("shuffle", {"by": "machine"}))
    assert t.model.out_of_order == []
    irregular(t, "device_out_of_order", **COVERED)
    assert t.model.record[-1] == ["out_of_order", {"device": "shuffler", "section": "581.13(k)",
                                                   "shuffled_by": "hand"}]
    t.handle(BY_HAND)
    assert t.state == "shuffled"
    play_a_round(t)
    with pytest.raises(IllegalEvent, match=r"the shuffler is covered as out of order until the "
                                           r"table is closed and opened again \(581.13\(k\)\)"):
        t.handle(BY_SHUFFLER)
    t.handle(BY_HAND)
    assert t.state == "shuffled"


@pytest.mark.reg("581.13(k)")
def test_the_shuffler_is_covered_between_rounds():
    t = opened()
    t.handle(BY_SHUFFLER)
    wagers(t, {"1": {"bet": 1000}})
    with pytest.raises(IllegalEvent, match=r"between rounds, not while wagers_open"):
        irregular(t, "device_out_of_order", **COVERED)
    t.handle(Event("no_more_bets"))
    cards(t, "9h")
    with pytest.raises(IllegalEvent, match=r"between rounds, not while double_attack"):
        irregular(t, "device_out_of_order", **COVERED)
    act(t, "1", "decline")
    cards(t, "Ks", "9d", "8c")
    act(t, "1", "stand")
    irregular(t, "device_out_of_order", **COVERED)
    assert t.model.out_of_order == ["shuffler"]
    with pytest.raises(IllegalEvent, match=r"no automated shuffler in use \(581.13\(k\)\)"):
        irregular(t, "device_out_of_order", **COVERED)


@pytest.mark.reg("581.13(k)")
def test_the_configured_shuffler_is_back_once_the_table_is_closed_and_opened_again():
    t = opened()
    irregular(t, "device_out_of_order", **COVERED)
    t.handle(BY_HAND)
    t.handle(Event("close_table"))
    t.handle(Event("open_table"))
    assert t.model.out_of_order == []
    with pytest.raises(IllegalEvent, match=r"581.13\(k\)"):
        t.handle(BY_HAND)
    t.handle(BY_SHUFFLER)
    assert t.state == "shuffled"


@pytest.mark.reg("581.13(k)")
def test_a_shuffle_that_does_not_say_how_is_done_the_tables_way():
    """A scenario's shuffle names no method: the configured one, or by hand once covered."""
    for t in (opened(), opened(shuffler="manual")):
        t.handle(Event("shuffle", {"stack": ["9h", "Ks", "9d", "8c"]}))
        play_a_round(t)
    t = opened()
    irregular(t, "device_out_of_order", **COVERED)
    t.handle(Event("shuffle"))
    assert t.state == "shuffled"


# ---- a shuffler that fails (581.13(j)) and cannot be used (581.13(k)) ---------------------

@pytest.mark.reg("581.13(j)")
@pytest.mark.reg("581.13(k)")
def test_a_failed_shuffler_that_cannot_be_repaired_is_covered_and_the_cards_shuffled_by_hand():
    t = opened()
    t.handle(BY_SHUFFLER)
    t.handle(Event("fault", {"device": "shuffler", "reason": "jam"}))
    assert t.state == "locked_out" and t.model.lockout["section"] == "581.13(j)"
    with pytest.raises(IllegalEvent, match="shuffler has not passed its self-test"):
        t.handle(Event("clear", dict(FLOOR, selftest=False)))
    with pytest.raises(IllegalEvent, match=r"581.13\(k\)"):
        t.handle(BY_HAND)
    irregular(t, "device_out_of_order", **COVERED)          # while locked out by its fault
    assert t.state == "locked_out" and t.model.lockout["covered"] is True
    with pytest.raises(IllegalEvent, match="floorperson"):
        t.handle(Event("clear", {"role": "dealer"}))
    t.handle(Event("clear", FLOOR))                          # no self-test of a covered shuffler
    assert t.state == "shuffled" and t.model.lockout is None
    with pytest.raises(IllegalEvent, match=r"reshuffled.*581.13\(j\)"):
        wagers(t, {"1": {"bet": 1000}})
    t.handle(BY_HAND)
    play_a_round(t)


@pytest.mark.reg("581.13(k)")
def test_only_the_shuffler_locking_the_table_is_covered_while_locked():
    t = opened()
    t.handle(BY_SHUFFLER)
    t.handle(Event("fault", {"device": "card_reader", "reason": "optics"}))
    with pytest.raises(IllegalEvent, match=r"locked out \(card reader malfunction"):
        irregular(t, "device_out_of_order", **COVERED)
    assert t.model.out_of_order == [] and "covered" not in t.model.lockout
    t.handle(Event("clear", dict(FLOOR, selftest=True)))
    assert t.state == "shuffled"


@pytest.mark.reg("581.13(j)")
@pytest.mark.reg("581.13(k)")
def test_a_shuffler_that_dies_on_the_next_batch_during_a_round_is_covered_and_the_round_ends():
    """The round's cards are dealt already: covered, the table is cleared without the dead
    shuffler's self-test, the round is played out, and the next cards are shuffled by hand."""
    t = opened()
    t.handle(BY_SHUFFLER)
    wagers(t, {"1": {"bet": 1000}})
    t.handle(Event("no_more_bets"))
    cards(t, "9h")
    t.handle(Event("fault", {"device": "shuffler", "reason": "jam"}))    # shuffling the next
    assert t.state == "locked_out"
    irregular(t, "device_out_of_order", **COVERED)
    assert t.model.lockout["covered"] is True
    t.handle(Event("clear", FLOOR))
    act(t, "1", "decline")
    cards(t, "Ks", "9d", "8c")
    act(t, "1", "stand")
    assert t.state == "settled" and t.model.results["1"]["bet"][0] == "win"
    with pytest.raises(IllegalEvent, match=r"automated shuffler: the shuffler is covered"):
        t.handle(BY_SHUFFLER)
    t.handle(BY_HAND)
    play_a_round(t)


@pytest.mark.reg("581.13(k)")
def test_a_fault_of_the_covered_shuffler_locks_the_table_and_is_cleared_without_its_self_test():
    ctl = TableController(table(), policies=default_policies(DAB.GAME))
    for kind, data in (("open_table", {}), ("irregularity", dict(COVERED,
                                                                  kind="device_out_of_order")),
                       ("shuffle", {"by": "hand"}), ("fault", {"device": "shuffler",
                                                               "reason": "silent"})):
        ctl.process(ctl.event(kind, data))
    assert ctl.refusals[-1][1] == ("fault of the shuffler: the shuffler is covered as out of "
                                   "order until the table is closed and opened again "
                                   "(581.13(k))")
    assert ctl.model.state == "locked_out" and ctl.model.lockout["covered"] is True
    assert ctl.model.reshuffle_due is None                   # the shuffled cards stand
    ctl.process(ctl.event("clear", FLOOR))
    assert ctl.model.state == "shuffled" and ctl.lockouts[-1]["cleared"]


# ---- the covered shuffler kept: snapshot, journal ------------------------------------------

@pytest.mark.reg("581.13(k)")
def test_a_covered_shuffler_survives_a_snapshot():
    t = opened()
    t.handle(BY_SHUFFLER)
    t.handle(Event("fault", {"device": "shuffler", "reason": "jam"}))
    irregular(t, "device_out_of_order", **COVERED)
    again = GameMachine.restore(DAB, json.loads(json.dumps(t.snapshot())))
    assert again.model.out_of_order == ["shuffler"] and again.model.lockout["covered"] is True
    again.handle(Event("clear", FLOOR))
    with pytest.raises(IllegalEvent, match="covered as out of order"):
        again.handle(BY_SHUFFLER)
    again.handle(BY_HAND)
    assert again.state == "shuffled"


@pytest.mark.reg("581.13(k)")
def test_a_covered_shuffler_is_still_covered_after_a_restart_from_the_journal(tmp_path):
    path = str(tmp_path / "table.db")
    now = iter(range(10 ** 9, 10 ** 13, 10 ** 6))

    def controller():
        return boot(path, table(), default_policies(DAB.GAME), clock=lambda: next(now))

    ctl = controller()
    ctl.process(ctl.event("irregularity", {"kind": "reader_inspected", "role": "floorperson",
                                           "passed": True}))
    ctl.process(ctl.event("open_table"))
    ctl.process(ctl.event("irregularity", dict(COVERED, kind="device_out_of_order")))
    ctl.process(ctl.event("shuffle", {"by": "hand"}))
    for _ in range(2):                          # two rounds: the replay starts at a snapshot
        for kind, data in (("wager", {"seat": 1, "wager": "bet", "amount": 1000}),
                           ("no_more_bets", {}), ("card", {"card": "9h"}),
                           ("decision", {"seat": 1, "action": "decline"}),
                           ("card", {"card": "Ks"}), ("card", {"card": "9d"}),
                           ("card", {"card": "8c"}),
                           ("decision", {"seat": 1, "action": "stand"})):
            ctl.process(ctl.event(kind, data))
        assert ctl.model.state == "settled", ctl.refusals
    ctl.close()
    again = controller()
    try:
        assert again.boot_report["problem"] is None and again.boot_report["from_snapshot"] > 2
        assert again.model.out_of_order == ["shuffler"]
        again.process(again.event("shuffle", {"by": "shuffler"}, source="shuffler"))
        assert "covered as out of order" in again.refusals[-1][1]
        again.process(again.event("shuffle", {"by": "hand"}))
        assert again.model.state == "shuffled"
    finally:
        again.close()


# ---- through the real drivers: the shuffler's shuffle and fault, the dealer panel ---------

def shuffles(ctl):
    return [e.data for e in ctl.journal if isinstance(e, Event) and e.kind == "shuffle"]


@pytest.fixture
def devices():
    sims = {"shuffler": SimShuffler().start(), "dealer_panel": SimDealerPanel().start()}
    drivers = {}
    try:
        drivers = {"shuffler": Shuffler(None, sims["shuffler"].path),
                   "dealer_panel": DealerPanel(None, sims["dealer_panel"].path)}
        yield sims, drivers
    finally:
        for d in drivers.values():
            d.stop()
        for s in sims.values():
            s.stop()


@pytest.mark.reg("581.13(k)")
def test_the_dealer_panel_covers_a_dead_shuffler_and_reports_the_shuffle_by_hand(devices):
    sims, drivers = devices
    ctl = TableController(table(), policies=[SelftestOnClear(drivers)]
                          + default_policies(DAB.GAME))

    def arrives(do, n=1, until=lambda: True):
        # the events counted and what they must have done (a count says nothing of what the
        # events did: the clear's race below)
        want = ctl.stats["events"] + n
        do()
        assert wait_for(lambda: ctl.run_until_idle() or (ctl.stats["events"] >= want
                                                         and until()), 30.0), (
            ctl.model.state, ctl.model.lockout, list(ctl.refusals)[-3:],
            [(getattr(e, "kind", None), getattr(e, "data", None)) for e in ctl.journal][-6:])

    for d in drivers.values():
        d.start(ctl.submit)
        assert d.wait_connected(30.0)
    panel = sims["dealer_panel"]
    arrives(lambda: panel.key("count", what="decks", count=8))
    arrives(drivers["shuffler"].shuffle)
    assert ctl.model.state == "shuffled"
    assert shuffles(ctl) == [{"by": "shuffler", "count": 52}]
    sims["shuffler"].malfunction = "elevator motor"        # it cannot be repaired
    sims["shuffler"].jam_next()
    arrives(drivers["shuffler"].shuffle)
    assert ctl.model.lockout["section"] == "581.13(j)"
    # the approval, the failed self-test (a fault of its own) and the clear service's clear,
    # which carries the failed result (controller/clearing.py): three events
    # ... and the clear service done with it (its thread sees the refusal a poll later): an
    # approval pressed while it is not is refused as "a clear is already running" (the panel
    # says so), and the next clear below never came, once, under load
    arrives(lambda: panel.key("approval", role="floor", what="clear"), 3,
            until=lambda: len(ctl.refusals) >= 1 and service_for(ctl).busy is None)
    assert ctl.model.state == "locked_out"
    assert [r for _, r in ctl.refusals] == ["lock-out not cleared: shuffler has not passed "
                                            "its self-test"]
    arrives(lambda: panel.key("shuffle"))
    assert "581.13(k)" in ctl.refusals[-1][1]
    arrives(lambda: panel.key("irregularity", irregularity="device_out_of_order",
                              device="shuffler", covered=True))
    arrives(lambda: panel.key("approval", role="floor", what="clear"), 2,
            until=lambda: ctl.model.state == "shuffled")
    assert ctl.model.state == "shuffled"
    clear = [e for e in ctl.journal if getattr(e, "kind", None) == "clear"][-1]
    assert clear.data["check"] == "covered" and clear.data["device"] == "shuffler"
    arrives(lambda: panel.key("shuffle"))
    assert ctl.model.reshuffle_due is None and shuffles(ctl)[-1] == {"by": "hand"}
    assert len(shuffles(ctl)) == 3 and len(ctl.refusals) == 2
