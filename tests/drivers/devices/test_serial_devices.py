"""Each serial driver against its simulated device over a real pty.

The driver runs on a Clock the test moves, so every Event's stamp is known
exactly and the watchdog and retransmits fire when the test says; the
simulated device runs on real time (its retransmits take 50 ms).
"""
import json
import time

import pytest

from controller.games.events import Event
from controller.games.props_and_hops import PropsAndHops
from drivers.devices import (CardReader, DealerPanel, DealingShoe, DiceReader, Shuffler,
                             build_devices)
from hal_sim.devices import SimHardware
from hal_sim.devices.card_reader import SimCardReader
from hal_sim.devices.dealer_panel import SimDealerPanel
from hal_sim.devices.dealing_shoe import SimDealingShoe
from hal_sim.devices.dice_reader import SimDiceReader
from hal_sim.devices.shuffler import SimShuffler
from tests.drivers.devices.support import START_NS, Clock, Sink, wait_for
from tests.games import six_card_fortune_table as six_card
from tests import builders


# -- card reader ------------------------------------------------------------------------

def test_card_reader_answers_a_peek_stamped_when_the_frame_was_read(bench):
    b = bench(CardReader, SimCardReader)
    b.sim.insert("Kd")
    assert wait_for(lambda: b.driver.card_inserted)
    b.clock.advance(5)
    b.driver.peek("As")
    event = b.next("reader")
    assert event.data == {"blackjack": True}
    assert event.ts_ns == b.clock.now and event.source == "card_reader"
    assert {"cmd": "peek", "upcard": "As"} in b.sim.commands
    b.driver.peek("9s")
    assert b.next("reader", 2).data == {"blackjack": False}


def test_card_reader_peek_without_a_card_is_a_fault_under_581_13_i(bench):
    b = bench(CardReader, SimCardReader)
    b.driver.peek("As")
    fault = b.next("fault")
    assert fault.data == {"device": "card_reader", "name": "card_reader", "reason": "no card",
                          "section": "581.13(i)"}
    assert b.driver.status()["state"] == "fault"


def test_card_reader_selftest_passes_then_fails_on_a_malfunction(bench):
    b = bench(CardReader, SimCardReader)
    assert b.driver.selftest() is True
    assert not b.sink.of("fault")
    b.sim.fail("optics")
    assert b.next("fault").data["reason"] == "optics"
    assert b.driver.selftest() is False
    assert b.driver.status()["last_selftest"] == {"ok": False, "detail": "optics"}
    b.sim.insert("As")
    b.driver.peek("Kd")
    assert wait_for(lambda: any(e.data["reason"] == "unreadable card"
                                for e in b.sink.of("fault")))
    assert not b.sink.of("reader")


# -- shuffler ---------------------------------------------------------------------------

def test_shuffler_reports_its_count_and_miscount(bench):
    b = bench(Shuffler, SimShuffler)
    b.driver.shuffle()
    assert b.next("shuffle").data == {"by": "shuffler", "count": 52}
    b.sim.miscount(-1)
    b.driver.shuffle()
    assert b.next("shuffle", 2).data == {"by": "shuffler", "count": 51}
    b.driver.count()
    assert wait_for(lambda: b.driver.status()["last_count"]) == {"count": 51, "expected": 52}
    assert [c["cmd"] for c in b.sim.commands] == ["shuffle", "shuffle", "count"]


def test_a_shuffler_that_does_not_count_reports_the_shuffle_only(bench):
    b = bench(Shuffler, SimShuffler, counts=False)
    b.driver.shuffle()
    assert b.next("shuffle").data == {"by": "shuffler"}


@pytest.mark.parametrize("inject, reason", [("jam_next", "jam"), ("stop_next", "stopped")])
def test_shuffler_jam_or_stop_is_a_fault_and_no_shuffle(bench, inject, reason):
    b = bench(Shuffler, SimShuffler)
    getattr(b.sim, inject)()
    b.driver.shuffle()
    fault = b.next("fault")
    assert fault.data["reason"] == reason and fault.data["device"] == "shuffler"
    assert fault.data["section"] == "581.13(k)"
    assert not b.sink.of("shuffle")
    assert b.driver.status()["shuffling"] is False


# -- dealing shoe -----------------------------------------------------------------------

def test_shoe_deals_cards_and_stacks_with_their_identities(bench):
    b = bench(DealingShoe, SimDealingShoe)
    b.sim.deal("As")
    assert b.next("card").data == {"card": "As"}
    b.sim.deal_stack(["Kd", "7h", "2c"])
    assert b.next("card", 2).data == {"cards": ["Kd", "7h", "2c"]}
    b.sim.empty()
    assert wait_for(lambda: b.driver.status()["empty"])
    assert b.driver.status()["dealt"] == 4


def test_shoe_jam_is_a_fault_the_game_settles_under_its_own_section(bench):
    b = bench(DealingShoe, SimDealingShoe)
    b.sim.jam()
    # the game cites 583.13(e), 669a.13(f) or 670a.13(m): the driver names the device only
    assert b.next("fault").data == {"device": "dealing_shoe", "name": "dealing_shoe",
                                    "reason": "jam", "section": None}


def test_a_card_code_that_is_not_a_card_is_counted_and_journaled_not_delivered(bench):
    b = bench(DealingShoe, SimDealingShoe)
    b.sim.deal("Zz")
    b.sim.deal("2h")
    assert b.next("card").data == {"card": "2h"}
    assert b.driver.status()["rejected"] == {"bad_event": 1}
    assert b.journal[0][:2] == ("dealing_shoe", "bad_event")


# -- dice reader ------------------------------------------------------------------------

def test_dice_reader_values_and_no_rolls(bench):
    b = bench(DiceReader, SimDiceReader)
    b.sim.roll(3, 5)
    assert b.next("dice").data == {"dice": [3, 5]}
    b.sim.die_out()
    assert b.next("dice", 2).data == {"no_roll": "die_out"}
    b.sim.not_flat(2)
    assert b.next("dice", 3).data == {"no_roll": "not_flat", "die": 2}
    b.sim.roll(7, 1)                       # a value no die shows: counted, not delivered
    b.sim.fault("camera")
    assert b.next("fault").data["reason"] == "camera"
    assert len(b.sink.of("dice")) == 3 and b.driver.status()["rejected"] == {"bad_event": 1}


# -- dealer panel -----------------------------------------------------------------------

def test_dealer_panel_entries_become_the_controllers_events(bench):
    b = bench(DealerPanel, SimDealerPanel)
    b.sim.key("decision", seat=3, action="hit")
    b.sim.key("wager", seat=2, wager="ante", amount=500)
    b.sim.key("no_more_bets")
    b.sim.key("count", what="decks", count=6)
    b.sim.key("count", what="stub", count=11)
    b.sim.key("irregularity", irregularity="exposed_card", seat=2)
    b.sim.key("shuffle")
    b.sim.key("approval", role="floor", what="clear", badge="F123")
    assert wait_for(lambda: len(b.sink.events) == 8)
    assert [(e.kind, e.data) for e in b.sink.events] == [
        ("decision", {"seat": 3, "action": "hit"}),
        ("wager", {"seat": 2, "wager": "ante", "amount": 500}),
        ("no_more_bets", {}),
        ("open_table", {"decks": 6}),
        ("decision", {"action": "count", "what": "stub", "count": 11}),
        ("irregularity", {"kind": "exposed_card", "seat": 2}),
        ("shuffle", {"by": "hand"}),
        ("clear", {"role": "floorperson", "badge": "F123", "what": "clear"})]
    b.driver.display("PLACE BETS")
    assert wait_for(lambda: b.sim.display == "PLACE BETS")


@pytest.mark.reg("585.3(d)")
def test_the_dealers_shake_keyed_on_the_panel_is_the_props_and_hops_shake(bench):
    b = bench(DealerPanel, SimDealerPanel)
    t = builders.table(PropsAndHops)
    t.handle(Event("open_table"))            # the floorperson put the dice in the shaker
    b.sim.key("shake")
    shake = b.next("shuffle")
    assert (shake.data, shake.source) == ({"shake": True}, "dealer_panel")
    t.handle(shake)
    assert t.state == "shuffled"             # wagers may now be taken
    t.handle(Event("wager", {"seat": 1, "wager": "field", "amount": 500}))
    assert t.model.wagers == {"1": {"field": 500}}


@pytest.mark.reg("670a.11(d)")
def test_the_dealers_setting_keyed_on_the_panel_settles_six_card_fortune(bench):
    b = bench(DealerPanel, SimDealerPanel)
    t = six_card.opened()
    six_card.place(t, {1: {"six_card_fortune": 1000}})
    t.handle(Event("no_more_bets"))
    six_card.deal(t, {1: ["As", "Ad", "Kc", "Qs", "9h", "3d"], "dealer": six_card.KINGS})
    six_card.players(t, {"1": "Kc"})
    assert t.model.pending["need"] == "dealer_setting"
    b.sim.key("dealer_setting", low="7c")
    setting = b.next("decision")
    assert setting.data == {"seat": "dealer", "action": "set", "low": "7c"}
    t.handle(setting)
    assert t.model.dealer_setting == {"high": ["Kh", "Kd", "5s", "4h", "2c"], "low": "7c"}
    assert t.model.status == "settled"
    assert t.model.results["1"]["six_card_fortune"] == ["win", 1000]


def test_a_malformed_panel_entry_is_rejected_naming_the_field(bench):
    b = bench(DealerPanel, SimDealerPanel, reject_interval_ms=0)     # every one reported
    bad = [("shake", {"dice": [3, 4]}, "shake: unknown field 'dice' (it takes no fields)"),
           ("shuffle", {"cut": 12}, "shuffle: unknown field 'cut' (it takes no fields)"),
           ("decision", {"seat": 2}, "decision: field 'action' is missing"),
           ("wager", {"seat": 2, "amount": 500}, "wager: field 'wager' is missing"),
           ("count", {"what": "stub"}, "count: field 'count' is missing"),
           ("irregularity", {"seat": 2}, "irregularity: field 'irregularity' is missing"),
           ("dealer_setting", {}, "dealer_setting: field 'low' is missing"),
           ("dealer_setting", {"low": "Zz"}, "dealer_setting: field 'low': not a card: 'Zz'"),
           ("dealer_setting", {"low": 7}, "dealer_setting: field 'low': card code must be"),
           ("dealer_setting", {"low": "7c", "seat": 3},
            "dealer_setting: unknown field 'seat' (it takes low)")]
    for kind, data, _ in bad:
        b.sim.key(kind, **data)
    b.sim.key("dealer_setting", low="Kh")    # the next good entry still arrives
    assert b.next("decision").data == {"seat": "dealer", "action": "set", "low": "Kh"}
    assert [e.kind for e in b.sink.events] == ["decision"]      # none of the bad applied
    assert b.driver.status()["rejected"] == {"bad_event": len(bad)}
    assert len(b.journal) == len(bad)
    for (device, reason, text, count), (_, _, why) in zip(b.journal, bad):
        assert (device, reason, count) == ("dealer_panel", "bad_event", 1)
        assert why in text, text


# -- line faults: every one is a fault Event or a counted rejection ----------------------

def test_junk_bytes_are_counted_and_the_next_card_still_arrives(bench):
    b = bench(DealingShoe, SimDealingShoe)
    b.sim.inject("junk", b"\x01\x02\x03garbage")
    b.sim.deal("Qs")
    assert b.next("card").data == {"card": "Qs"}
    assert b.driver.status()["rejected"].get("junk") == 1
    assert b.journal[0][:2] == ("dealing_shoe", "junk")


def test_split_frames_are_reassembled(bench):
    b = bench(DealingShoe, SimDealingShoe)
    b.sim.inject("split", 3)
    b.sim.deal("Th")
    b.sim.deal_stack(["9c", "8d"])
    assert b.next("card", 2).data == {"cards": ["9c", "8d"]}
    assert b.driver.status()["rejected"] == {}


def test_a_bad_checksum_is_rejected_and_the_retransmission_delivered_once(bench):
    b = bench(DiceReader, SimDiceReader)
    b.sim.inject("bad_crc", 1)
    b.sim.roll(6, 6)
    assert b.next("dice").data == {"dice": [6, 6]}
    assert b.driver.status()["rejected"] == {"bad_crc": 1}
    assert wait_for(lambda: b.sim.link.idle)
    assert len(b.sink.of("dice")) == 1


def test_a_delayed_frame_is_stamped_when_it_was_read(bench):
    b = bench(DealingShoe, SimDealingShoe)
    # 300 ms of wire delay: the clock must move while the bytes wait, and with 20 ms a loaded
    # machine sometimes let the frame arrive before the test's next line ran
    b.sim.inject("delay", 300)
    b.sim.deal("5s")
    b.clock.advance(3)                     # the driver's clock moves while the bytes wait
    assert b.next("card").ts_ns == b.clock.now
    assert b.driver.status()["rejected"] == {}


def test_a_silent_device_becomes_a_fault(bench):
    b = bench(Shuffler, SimShuffler)
    b.sim.inject("silence")
    b.clock.advance(2001)
    fault = b.next("fault")
    assert fault.data["reason"] == "silent" and fault.ts_ns == b.clock.now
    assert "2000 ms" in fault.data["detail"]


def test_a_babbling_device_becomes_a_fault(bench):
    b = bench(CardReader, SimCardReader)
    b.sim.inject("babble", 9)
    assert b.next("fault").data["reason"] == "babbling"
    assert b.driver.status()["rejected"]["bad_crc"] >= 9


def test_commands_nobody_acknowledges_become_no_ack(bench):
    b = bench(Shuffler, SimShuffler)
    b.sim.inject("silence")
    b.driver.shuffle()
    for _ in range(40):                    # 40 x 50 ms: past the 1550 ms of retransmits
        b.clock.advance(50)
        if wait_for(lambda: b.sink.of("fault"), timeout=0.01):
            break
    # the link's thread may not have run since the last advance (a loaded machine)
    assert wait_for(lambda: b.sink.of("fault")), "no fault after 2 s of the link clock"
    assert b.sink.of("fault")[0].data["reason"] == "no_ack"
    assert b.driver.status()["link"]["retransmits"] == 4


def test_a_disconnected_device_is_a_port_fault(bench):
    b = bench(DealingShoe, SimDealingShoe)
    b.sim.inject("disconnect")
    b.driver.command("status")             # the next write hits the pulled cable
    assert b.next("fault").data["reason"] == "port"


def test_a_restarted_device_is_a_fault_and_the_session_resumes(bench):
    b = bench(DealingShoe, SimDealingShoe)
    b.sim.inject("restart")
    assert b.next("fault").data["reason"] == "restarted"
    b.sim.deal("Ac")
    assert b.next("card").data == {"card": "Ac"}


def test_a_fault_reports_once_until_cleared(bench):
    b = bench(DealingShoe, SimDealingShoe)
    b.sim.inject("babble", 9)
    b.next("fault")
    b.sim.inject("babble", 9)
    b.sim.deal("2s")
    b.next("card")
    assert len(b.sink.of("fault")) == 1
    b.driver.clear_fault()
    assert b.driver.state == "ready"
    b.sim.inject("babble", 9)
    assert b.next("fault", 2).data["reason"] == "babbling"


def test_status_is_json_and_counts(bench):
    b = bench(DealingShoe, SimDealingShoe)
    b.sim.deal("As")
    b.next("card")
    status = json.loads(json.dumps(b.driver.status()))
    assert status["state"] == "ready" and status["connected"]
    assert status["counters"]["events_in"] == 1 and status["peer"]["device"] == "dealing_shoe"
    b.driver.command("status")
    assert wait_for(lambda: b.driver.status()["device_status"]) == {"state": "ready"}


def test_a_driver_refuses_the_wrong_device(bench):
    sim = SimShuffler().start()
    driver = DealingShoe(None, sim.path, clock=Clock(START_NS))
    try:
        driver.start(Sink())
        assert not driver.wait_connected(timeout_s=0.5)
        assert "expected" in str(driver.link.handshake_error)
        assert driver.status()["last_fault"]["reason"] == "handshake"
    finally:
        driver.stop()
        sim.stop()


# -- the registry and a whole simulated table ----------------------------------------------

def test_build_devices_runs_a_whole_simulated_table():
    clock, sink = Clock(START_NS), Sink()
    with SimHardware() as table:
        drivers = build_devices(table.config(), table.factory, clock=clock)
        try:
            for driver in drivers.values():
                driver.start(sink)
            serial = [d for name, d in drivers.items() if name in table.serial]
            assert len(serial) == 5 and all(d.wait_connected() for d in serial)
            table.serial["shoe"].deal("Js")
            table.serial["dice_reader"].roll(1, 2)
            table.progressive.place_wager(4, at_ns=clock.now)
            assert wait_for(lambda: sink.of("card") and sink.of("dice"))
            assert sink.of("wager")[0].data == {"seat": 4, "wager": "progressive", "amount": 100}
            assert all(json.dumps(d.status()) for d in drivers.values())
        finally:
            for driver in drivers.values():
                driver.stop()


def test_build_devices_refuses_an_unknown_type_or_a_missing_url():
    from drivers.errors import DeviceError
    with pytest.raises(DeviceError, match="unknown type"):
        build_devices({"coffee": {"url": "loop://"}})
    with pytest.raises(DeviceError, match="needs a url"):
        build_devices({"shoe": {}})
    with pytest.raises(DeviceError, match="pin factory"):
        build_devices({"buttons": {"no_more_bets": 4}})


def test_a_sink_that_raises_does_not_stop_the_driver(bench):
    b = bench(DealingShoe, SimDealingShoe)
    good = b.sink
    b.driver.sink = lambda event: (_ for _ in ()).throw(RuntimeError("queue full"))
    b.sim.deal("As")
    assert wait_for(lambda: b.driver.status()["counters"].get("sink_errors") == 1)
    b.driver.sink = good
    b.sim.deal("Kh")
    assert b.next("card").data == {"card": "Kh"}


# -- a driver survives any frame (issue 11) ---------------------------------------------

def test_a_hostile_shuffler_count_is_a_bad_event_and_the_driver_goes_on(bench):
    b = bench(Shuffler, SimShuffler, reject_interval_ms=0)
    b.sim.event("card_count", count=10 ** 12, expected=52)       # valid JSON, out of range
    b.sim.event("shuffle_completed", cards=True)
    b.sim.link.port.junk(_hostile_frame(b'{"count":1e999,"kind":"card_count"}'))
    b.sim.event("shuffle_completed", cards=52)                   # still served
    assert b.next("shuffle").data == {"by": "shuffler", "count": 52}
    assert wait_for(lambda: b.driver.status()["rejected"] == {"bad_event": 2,
                                                               "bad_payload": 1})
    assert b.driver.link._thread.is_alive() and b.driver.selftest()


def test_device_text_reaches_no_terminal_raw_and_a_surrogate_no_journal(bench):
    b = bench(CardReader, SimCardReader, reject_interval_ms=0)
    b.sim.fault("\x1b[2J\x1b]0;pwned\x07jam\x00\x9b")
    fault = b.next("fault")
    assert fault.data["reason"] == "jam"
    b.sim.link.port.junk(_hostile_frame(b'{"kind":"fault","reason":"\\ud800"}'))
    assert wait_for(lambda: b.driver.status()["rejected"].get("bad_payload") == 1)
    assert len(b.sink.of("fault")) == 1
    assert all(isinstance(j[2], str) and j[2].isascii() for j in b.journal)


def _hostile_frame(body, seq=None):
    """A CRC-valid EVENT frame with any payload bytes, at the sim's next sequence number."""
    from drivers.codec import crc16_ccitt_false
    inner = bytes((len(body), 200 if seq is None else seq, 0x10)) + body
    return b"\x7e" + inner + crc16_ccitt_false(inner).to_bytes(2, "big")


def test_a_batch_of_rejections_is_reported_when_due_on_the_real_clock(monkeypatch):
    """On the real clock the driver's thread sleeps until its next timer, the batch of
    rejections' report among them (_rejected_due): the first junk run of a burst is
    journaled at once, the rest once `reject_interval_ms` is over. Nothing else wakes the
    thread here (no heartbeat for 10 s either way, no bound on the sleep)."""
    import drivers.devices.serial_device as serial_device
    monkeypatch.setattr(serial_device, "MAX_SLEEP_S", 3600.0)
    quiet = dict(heartbeat_interval_ms=10000, heartbeat_timeout_ms=60000)
    sim = SimDealingShoe(**quiet).start()
    journal = []
    driver = DealingShoe(None, sim.path, clock=time.monotonic_ns, reject_interval_ms=400,
                         on_rejected=lambda *r: journal.append(r), **quiet)
    try:
        driver.start(Sink())
        assert driver.wait_connected(), driver.status()
        for _ in range(3):
            sim.inject("junk", b"\x01\x02garbage")
            sim.deal("Qs")                       # each junk run ends at the next frame
            assert wait_for(lambda: sim.link.idle)
        assert [(r[1], r[3]) for r in journal] == [("junk", 1)]      # the burst's first
        assert wait_for(lambda: len(journal) == 2, timeout=30.0), journal
        assert [(r[1], r[3]) for r in journal] == [("junk", 1), ("junk", 2)]
    finally:
        driver.stop()
        sim.stop()


def test_status_shows_the_peers_hello_cleaned_a_copy_each_time_and_a_new_one_anew():
    """status()'s peer: device text cleaned, cleaned again only for another HELLO (issue 33:
    the console's screen asks it of every device after every card of a soak), and never
    the cache itself handed out."""
    import types

    from drivers.devices.serial_device import SerialDevice
    holder = types.SimpleNamespace()

    def clean(peer):
        return SerialDevice._clean_peer(holder, peer)
    hello = {"device": "dealing_shoe\x1b[2J", "id": 7}
    first = clean(hello)
    assert first == {"device": "dealing_shoe", "id": "7"}
    first["device"] = "changed by a reader"
    assert clean(hello) == {"device": "dealing_shoe", "id": "7"}
    hello["id"] = 8                                     # the same dict, another HELLO
    assert clean(hello) == {"device": "dealing_shoe", "id": "8"}
    assert clean({"device": "card_reader\x07"}) == {"device": "card_reader"}
    assert clean(None) is None and clean({}) is None
