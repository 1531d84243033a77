"""A simulated dealer, players and floorperson who play rounds through the table's DEVICES.

Everything reaches the controller the way it does on a real table: wagers through the
progressive sensors (where the game has a progressive) or keyed on the dealer panel,
"no more bets" on the dealer's button, shuffles by commanding the shuffler, cards out of
the simulated dealing shoe, the hole card through the card reader, dice through the dice
reader, decisions, counts, the shake of the Props & Hops shaker and the Six-Card Fortune
dealer's setting on the dealer panel. Only the controller's `pending` (what the
round asks next) is read, as a dealer reads the table's display.

Determinism: the deck order, the players' choices and the fault draws come from
`random.Random(seed)` streams (simulation randomness; the real table's randomness is the
physical shuffle, and Six-Card Fortune's starting position keeps `secrets` on a real table:
here a seeded source is injected with `model.use_rng`). The autoplay drives the controller's
loop itself (`run_once`, asleep on the controller's queue until an input arrives) between
device actions and waits for the answer of the device it acted on -- that device's inputs
only, never a frame its driver rejected nor another device's fault -- so one action is in
flight at a time and a seed replays the same rounds however slow the machine. A line fault
the driver answers with a fault of its own (babble, silence) is waited for where it is
injected, and injected rejections are paced under the driver's babble limit, so where a
lock-out lands never depends on timing. What the autoplay cannot get raises Stuck, which
the simulation ends in its summary.
"""

import random
import time

from controller import device_registry
from controller.games.engine import CLOSED, DECK_REMOVED, LOCKED_OUT, OPENED, ROUND_OVER, \
    SHUFFLED, WAGERS_OPEN
from controller.progressive import meter_values
from controller.rules import cards as C
from hal_sim import autoplay_strategy as S
from hal_sim.games import sim_game

SUITS = "cdhs"
DECK = [r + s for r in S.RANKS for s in SUITS]
SEATS = (1, 2, 3, 4)
WAIT_S = 20.0           # longest wait for a device's event: a loaded machine, never a pace
LINK_WAIT_S = 3.0       # longest wait for a linked progressive's acknowledgements or awards




class Stuck(RuntimeError):
    """The round waits for something the autoplay cannot give."""


class Autoplay:
    """Plays rounds of `ctl.model.GAME` on `sim` (a SimHardware) through `drivers`.

    `faults`: [(device, kind, rate)]; each round draws each fault with its rate and
    injects it at the fault's moment. `stats` feeds the summary (hal_sim/simulation.py).
    `manual_clear`: the simulated floorperson repairs the simulated device but does not clear
    the lock-out; play waits until someone clears it at the console (`tablectl sim
    --manual-clear`, for a technician to practise), calling `on_locked(lockout)` once each.
    """

    def __init__(self, ctl, sim, drivers, seed=0, faults=(), manual_clear=False,
                 on_locked=None):
        self.ctl, self.sim, self.drivers = ctl, sim, drivers
        self.manual_clear = manual_clear
        self.on_locked = on_locked
        self.model = ctl.model
        self.game = self.model.GAME
        self.plays = sim_game(self.game)     # how the simulation plays it (hal_sim/games.py)
        self.deck_rng = random.Random("deck:%s" % seed)
        self.play_rng = random.Random("play:%s" % seed)
        self.fault_rng = random.Random("fault:%s" % seed)
        self.faults = list(faults)
        self.deck = []
        self.pending_faults = set()
        self.stats = {"rounds_completed": 0, "rounds_void": 0, "past_post_attempts": 0,
                      "past_post_recognized": 0, "faults_injected": {}, "floor_clears": 0,
                      "returns": {}}
        # a poker room (its players play each other: the declaration's house_take) is counted
        # as its pots and the house's take, as the console and the floor count it
        from controller.console.wager_meters import house_take
        self.take = house_take(self.game)
        self.wait_s = WAIT_S
        # the time it waits in: real time here; hal_sim/virtual.py gives the virtual clock's
        # seconds, a sleep that steps the whole table through that time, and a `run(left_s)`
        # that steps it to its next timer (at most left_s) instead of the loop's queue
        self.monotonic, self.sleep = time.monotonic, time.sleep
        self.run = lambda left_s: self.ctl.run_once(wait_s=left_s)
        self._last_edge = {}
        self._rejections = {}            # device -> when rejections were injected (pacing)
        if self.model.DECLARES.secure_rng is not None:
            rng = random.Random("start:%s" % seed)
            self.model.use_rng(lambda: rng.randint(1, 7))

    # ---- the controller's loop and waiting ------------------------------------------

    def pump(self, until, timeout_s=None):
        """Run the controller's loop until `until()` or the timeout; True if it happened.

        The loop sleeps on its queue (`run_once(wait_s)`): it wakes for an event or a policy's
        timer, never to poll, so each pass here has something to do."""
        end = self.monotonic() + (self.wait_s if timeout_s is None else timeout_s)
        while not until():
            left = end - self.monotonic()
            if left <= 0:
                return False
            self.run(left)
        return True

    def act(self, do, source, events=1, timeout_s=None):
        """Do something at the device whose driver is `source` and wait until `events` of its
        inputs were applied (or refused); Stuck when they never come, naming what was awaited.

        Only that device's inputs count, and never a frame its driver threw away: a rejected
        frame (a bad CRC, junk) or another device's fault is nobody's answer, and counting
        them let the dealer act again before the answer arrived, so the autoplay raced the
        line and a seed did not replay (issue 11)."""
        timeout_s = self.wait_s if timeout_s is None else timeout_s
        sources = self.ctl.sources
        want = sources[source] + events
        do()
        if not self.pump(lambda: sources[source] >= want and self.ctl.idle(), timeout_s):
            lockout = (self.model.lockout or {}).get("reason") \
                if self.model.state == LOCKED_OUT else None
            raise Stuck("%s did not answer within %.0f s (the table %s%s, waiting for %r)"
                        % (source, timeout_s, self.model.state,
                           "" if lockout is None else ": %s" % lockout, self.model.pending))
        return True

    def panel(self, kind, **data):
        return self.act(lambda: self.sim.serial["dealer_panel"].key(kind, **data), "dealer_panel")

    def edge_at(self, key, gap_ns=2_000_000):
        """A GPIO edge time at least `gap_ns` after the last one on that line (debounce)."""
        now = self.ctl.clock()
        last = self._last_edge.get(key)
        if last is not None and now < last + gap_ns:
            self.sleep((last + gap_ns - now) / 1e9)
            now = self.ctl.clock()
        self._last_edge[key] = now
        return now

    # ---- a round ----------------------------------------------------------------------

    def play_round(self):
        """One round from the ready table to settled or void; returns its status."""
        self.draw_faults()
        self.ready()
        self.place_wagers()
        round_no = self.model.round_no
        self.no_more_bets()
        guard = presses = rewagers = replays = 0
        while True:
            guard += 1
            if guard > 2000:
                raise Stuck("round %d does not end (%s, %r)" % (round_no, self.model.state,
                                                              self.model.pending))
            state = self.model.state
            if state == LOCKED_OUT:
                self.floorperson()
            elif state in ROUND_OVER or state == DECK_REMOVED and self.model.status:
                break
            elif state == SHUFFLED and not self.model.wagers:
                # a device's fault locked the table while the wagers went down; cleared, the
                # players place them again
                rewagers += 1
                if rewagers > 3:
                    raise Stuck("round %d: the wagers are refused: %r"
                                % (round_no, self.ctl.refusals[-3:]))
                self.ready()                 # a shuffle the lock-out left to do again
                self.place_wagers()
                self.no_more_bets()
            elif state == WAGERS_OPEN:
                presses += 1
                if presses > 3:
                    raise Stuck("round %d: \"no more bets\" refused: %r"
                                % (round_no, self.ctl.refusals[-3:]))
                self.no_more_bets()          # a press refused (e.g. a reshuffle) is pressed again
            elif self.model.pending is None:
                # entries keyed on a line that went silent are lost: the watchdog locks the
                # table out (then the floorperson), or the round is keyed again once
                if self.pump(lambda: self.model.state == LOCKED_OUT, WAIT_S):
                    continue
                if state == SHUFFLED and replays < 3:
                    replays += 1
                    self.place_wagers()
                    self.no_more_bets()
                    continue
                raise Stuck("round %d waits in %s for nothing the dealer can give"
                            % (round_no, state))
            else:
                refused = self.ctl.stats["refused"]
                asked = self.model.pending
                self.answer(asked)
                if self.ctl.stats["refused"] > refused and self.model.pending == asked and \
                        self.model.state != LOCKED_OUT:
                    raise Stuck("round %d: %r answered, refused: %s"
                                % (round_no, asked, self.ctl.refusals[-1][1]))
        self.wait_for_link("hits")           # the awards of this round's hits, while it is up
        self.tally()
        self.after_round()
        return self.model.status

    def wait_for_link(self, what, timeout_s=None):
        """A linked meter (docs/linked-progressives.md): the dealer watches the acceptance
        lights until the link acknowledged the wagers sensed ("asked"), or the attendant waits
        for the hits' awards ("hits"), as long as the link is up and at most `timeout_s`."""
        from controller.progressive import link_up, linked
        meter = getattr(self.model, "meter", None)
        if not linked(meter):
            return True
        timeout_s = LINK_WAIT_S if timeout_s is None else timeout_s
        return self.pump(lambda: not self.model.meter["link"][what] or
                         not link_up(self.model.meter), timeout_s)

    def ready(self):
        """Open the table, inspect the reader, shuffle: until wagers can be taken."""
        for _ in range(50):
            state = self.model.state
            if state == LOCKED_OUT:
                self.floorperson()
            elif state in (CLOSED, DECK_REMOVED):
                self.panel("count", what="decks", count=getattr(self.model, "DECKS", 1))
            elif not self.inspected():
                self.panel("irregularity", irregularity="reader_inspected", role="floorperson",
                           passed=True)
            elif self.deck_count_due():
                self.panel("irregularity", irregularity="deck_count", count=52)
            elif state == SHUFFLED and not getattr(self.model, "reshuffle_due", None):
                return
            elif state in (OPENED, SHUFFLED) + ROUND_OVER:
                # (shuffled, but the shuffle must be done again: a shuffler that jammed or
                # babbled during it, 669a.13(e); issue 33's soak found the autoplay stuck)
                self.shuffle()
            else:
                raise Stuck("the table is %s before a round" % state)
        raise Stuck("the table does not get ready (%s)" % self.model.state)

    def deck_count_due(self):
        """The poker room's count of the deck between hands (637a(e)(4)(i)): a game that
        keeps `deck_counted` asks for it."""
        m = self.model
        return not getattr(m, "deck_counted", True) and \
            m.deck_rounds >= m.options["deck_count_every"]

    def inspected(self):
        """The card reader's daily inspection is done, or the table has none (581.2(d))."""
        from controller.policies.devices import ReaderInspection
        p = self.ctl.policy(ReaderInspection)
        return p is None or p._done(self.ctl.clock())

    def shuffle(self):
        shoe = getattr(self.model, "shoe", None)         # blackjack family: its decks
        if shoe is not None:
            self.deck = sorted(c for c, n in shoe.batch_counts().items() for _ in range(n))
        else:
            self.deck = list(DECK)
        if self.plays.joker:
            self.deck.append(C.code(C.JOKER))
        self.deck_rng.shuffle(self.deck)
        if self.model.SHAKER:
            self.panel("shake")                  # the covered shaker (585.3(d), (i))
            return
        if self.fire("shuffler", "jam"):
            self.sim.serial["shuffler"].jam_next()
        if self.fire("shuffler", "miscount"):
            self.sim.serial["shuffler"].miscount(-1)
        self.act(self.drivers["shuffler"].shuffle, "shuffler")
        self.sim.serial["shuffler"].miscount(0)

    def place_wagers(self):
        sensors = self.plays.sensor_seats
        for seat in SEATS:
            for wager, amount in self.plays.panel_wagers.items():
                self.panel("wager", seat=seat, wager=wager, amount=amount)
        wire = self.sim.progressive
        for seat in sensors:
            if not wire.factory.level(wire.sensors[seat]):
                # the chip of wagers the table refused (placed again after a lock-out) is
                # still on the sensor: taken off first, or placing it is no edge (issue 33's
                # soak, raise-it-up-stud seed 1 step 6168: stuck)
                wire.clear(seat, self.edge_at(("sensor", seat), 0))
            if self.fire("progressive", "bounce") and seat == sensors[0]:
                wire.bounce(seat, 3)
            self.act(lambda s=seat: wire.place_wager(s, self.edge_at(("sensor", s))),
                     "progressive_system")
            wire.bounce(seat, 0)
        if sensors:
            self.wait_for_link("asked")

    def no_more_bets(self):
        display = self.sim.serial.get("meter_display")
        stuck = display is not None and self.fire("meter_display", "stuck")
        if stuck:
            display.stick()                  # it will not show this round's contributions
        before = meter_values(self.model)
        if self.plays.press_on_panel:
            self.panel("no_more_bets")
        elif self.plays.sensor_seats:
            at = self.edge_at("lockout_button")
            self.act(lambda: self.sim.progressive.press_lockout(at, width_ns=100_000),
                     "progressive_system")
        else:
            at = self.edge_at("no_more_bets")
            self.act(lambda: self.sim.buttons.press("no_more_bets", at, width_ns=100_000),
                     "buttons")
        if stuck and meter_values(self.model) != before:
            self.pump(lambda: self.model.state == LOCKED_OUT)    # the read-back differs
        if display is not None and self.fire("meter_display", "segment"):
            self.act(lambda: display.fail("segment"), "meter_display")
        if self.fire("progressive", "past_post"):
            self.past_post()

    def past_post(self):
        """A chip pushed onto a sensor after the press (or keyed in): must not be recognized."""
        seat = SEATS[-1]
        refused = self.ctl.stats["refused"]
        self.stats["past_post_attempts"] += 1
        if self.plays.sensor_seats:
            wire = self.sim.progressive
            wire.clear(seat, self.edge_at(("sensor", seat)))
            self.act(lambda: wire.place_wager(seat, self.edge_at(("sensor", seat))),
                     "progressive_system")
        else:
            wager, amount = next(iter(self.plays.panel_wagers.items()))
            self.panel("wager", seat=seat, wager=wager, amount=amount * 2)
        if self.ctl.stats["refused"] == refused:
            self.stats["past_post_recognized"] += 1

    def after_round(self):
        for seat in self.plays.sensor_seats + (SEATS[-1],):
            if seat in self.sim.progressive.sensors:
                self.sim.progressive.clear(seat, self.edge_at(("sensor", seat), 0))

    # ---- what the round asks ------------------------------------------------------------

    def answer(self, p):
        need = p["need"]
        if need == "card":
            self.deal()
        elif need == "stack":
            shoe = self.sim.serial["shoe"]
            if self.fire("shoe", "jam"):
                self.act(shoe.jam, "shoe")
                return
            cards = [self.deck.pop(0) for _ in range(3)]
            self.act(lambda: shoe.deal_stack(cards), "shoe")
        elif need == "reader":
            self.peek()
        elif need in ("decision", "offer"):
            data = self.plays.decide(self, p)
            data["seat"] = int(data["seat"])
            self.panel("decision", **data)
        elif need == "dice":
            self.roll(p)
        elif need == "stub_count":
            self.panel("irregularity", irregularity="stub_count", stub=len(self.deck))
        elif need == "losing_hands_count":
            self.panel("irregularity", irregularity="losing_hands_count",
                       counts=dict(p["expected"]))
        elif need == "dealer_setting":
            self.panel("dealer_setting", low=p["house_way"]["low"])
        else:
            raise Stuck("%s asks for %r: not simulated" % (self.game, need))

    def deal(self):
        shoe = self.sim.serial["shoe"]
        if self.fire("shoe", "jam"):
            self.act(shoe.jam, "shoe")
            return
        if not self.deck:
            raise Stuck("the shoe is empty")
        card = self.deck.pop(0)
        self.act(lambda: shoe.deal(card), "shoe")

    def peek(self):
        reader = self.sim.serial["card_reader"]
        dealer = list(self.model.dealer)
        reader.hole = dealer[1]
        if self.fire("card_reader", "fail"):
            self.act(lambda: reader.fail("optics"), "card_reader")
            return
        self.act(lambda: self.drivers["card_reader"].peek(dealer[0]), "card_reader")

    def roll(self, p):
        dice = 3 if "starting" in str(p.get("for", "")) else 2
        values = [self.play_rng.randint(1, 6) for _ in range(dice)]
        reader = self.sim.serial["dice_reader"]
        if self.fire("dice_reader", "no_roll"):
            self.act(reader.die_out, "dice_reader")
            return
        self.act(lambda: reader.roll(*values), "dice_reader")

    # ---- faults and the floorperson ----------------------------------------------------------

    def draw_faults(self):
        """Which faults happen this round (each drawn at its rate); line faults start now."""
        self.pending_faults = set()
        for device, kind, rate in self.faults:
            if self.fault_rng.random() >= rate:
                continue
            if kind in LINE_KINDS:
                self.count_fault(device, kind)
                if kind in LINE_REJECTED:
                    self.pace_rejections(device)
                inject = lambda d=device, k=kind: self.sim.serial[d].inject(k, LINE_KINDS[k])
                if kind in LINE_FAULTING:
                    # the driver declares the device malfunctioning: wait for that here, so
                    # the lock-out lands at the same step of the round whatever the timing
                    self.act(inject, device)
                else:
                    inject()
            else:
                self.pending_faults.add((device, kind))

    def pace_rejections(self, device):
        """Keep this device's injected rejections under its driver's babble limit.

        A rejected frame is harmless, but more than `babble_limit` within `babble_window` is
        the link's babble rule: whether a fault every round becomes a babbling device would
        then depend on how fast this machine plays rounds. So an injection waits until the
        window holds fewer than the limit (real time: the link's clock runs at its rate)."""
        link = getattr(self.drivers.get(device), "link", None)
        limit = getattr(link, "babble_limit", 8)
        window_s = getattr(link, "babble_window_ns", 1_000_000_000) / 1e9 * 1.2
        times = self._rejections.setdefault(device, [])
        now = self.monotonic()
        times[:] = [t for t in times if now - t < window_s]
        if len(times) >= max(1, limit // 2):
            self.sleep(max(0.0, times[0] + window_s - now))
            now = self.monotonic()
            times[:] = [t for t in times if now - t < window_s]
        times.append(now)

    def fire(self, device, kind):
        """True once if this round drew the fault (it is injected at its moment)."""
        if (device, kind) in self.pending_faults:
            self.pending_faults.discard((device, kind))
            self.count_fault(device, kind)
            return True
        return False

    def count_fault(self, device, kind):
        key = "%s:%s" % (device, kind)
        self.stats["faults_injected"][key] = self.stats["faults_injected"].get(key, 0) + 1

    def floorperson(self):
        """Repair the device, let its self-test run (controller side), clear the lock-out.

        A clear tests every device that reported a malfunction since the last one, not only
        the lock-out's (controller/clearing.py); when one of them fails, the floorperson has
        it repaired too before asking again, as the clear's lines and the console's
        `devices` name it (issue 33's soak, blackjack seed 11 step 708: the meter display,
        frozen in a round its amounts did not change, babbled during the dealer panel's
        lock-out and failed every clear after; only the panel was repaired, so the table
        stayed locked out)."""
        lockout = self.model.lockout or {}
        self.repair(lockout.get("device"))
        if self.manual_clear:
            self.wait_for_console_clear(lockout)
            return
        # the clear service tests the device on its own thread (controller/clearing.py), then
        # submits the clear and, once the loop has applied it, ends (`busy` None): a clear
        # asked before the last one's service ended is refused ("a clear is already
        # running"), so the floorperson waits for it, as one at the table would (a fault in
        # the next round can lock the table out again that soon in real time)
        service = getattr(self.ctl, "clearing", None)
        if service is not None:
            self.pump(lambda: service.busy is None, WAIT_S)
        self.stats["floor_clears"] += 1
        self.panel("approval", role="floor", badge="FP-%d" % self.stats["floor_clears"])
        # pump the loop until the service has answered (made at the first clear it serves)
        service = getattr(self.ctl, "clearing", None)
        if self.model.state == LOCKED_OUT and not self.pump(
                lambda: self.model.state != LOCKED_OUT or (
                    (service is None or service.busy is None) and self.ctl.idle()),
                WAIT_S) or self.model.state == LOCKED_OUT:
            # a failed self-test (a fault still in the line, or another device broken):
            # what failed is repaired, then the clear is asked again
            self.repair_failed()
            self.sleep(0.01)

    def repair(self, device):
        """The simulated device `device` (a driver's name or its kind, as a lock-out names
        it: dealing_shoe) repaired: no malfunction, its line healed."""
        sim = self.sim.serial.get(device) or next(      # a fault names the kind: dealing_shoe
            (s for s in self.sim.serial.values() if s.device == device), None)
        if sim is not None:
            sim.malfunction = None
            sim.inject("none")

    def repair_failed(self):
        """Repair every device whose last self-test failed (the console's `devices` shows
        each one's `last_selftest`)."""
        for name, driver in sorted(self.drivers.items()):
            last = getattr(driver, "last_selftest", None)
            if isinstance(last, dict) and last.get("ok") is False:
                self.repair(name)

    def wait_for_console_clear(self, lockout):
        """Run the controller's loop (the console submits to it) until the lock-out is
        cleared; no timeout: a practising technician takes the time they take."""
        if self.on_locked is not None:
            self.on_locked(lockout)
        while self.model.state == LOCKED_OUT:
            self.ctl.run_once()
            self.repair_failed()             # what a clear at the console found broken
            time.sleep(0.01)
        self.stats.setdefault("console_clears", 0)
        self.stats["console_clears"] += 1

    # ---- results --------------------------------------------------------------------

    def tally(self):
        status = self.model.status
        key = "rounds_void" if status == "void" else "rounds_completed"
        self.stats[key] += 1
        if status == "void":
            # every wager went back (585.3(f), (g); a void round): no handle, as the table's
            # own money meters count it (controller/console/wager_meters.py)
            return
        if self.take is not None:       # the stacks are no wagers against the house
            from controller.console.wager_meters import ROOM, add_ended
            book = {}
            add_ended(book, self.model.to_json(), self.take)
            room = self.stats.setdefault("room", dict.fromkeys(book[ROOM], 0))
            for k, v in book[ROOM].items():
                room[k] += v
            return
        returns = self.stats["returns"]
        for seat, placed in self.model.wagers.items():
            results = self.model.results.get(seat, {})
            for wager, amount in placed.items():
                r = returns.setdefault(wager, {"wagered": 0, "net": 0})
                r["wagered"] += amount
                res = results.get(wager)
                if res is not None:
                    r["net"] += res[1]


# Line faults the driver answers with a fault of its own (the link's babble limit, its
# heartbeat timeout); the others only cost retransmissions and rejected frames.
LINE_FAULTING = ("babble", "silence")
LINE_REJECTED = ("junk", "bad_crc", "split")     # each costs the driver a rejected frame
LINE_KINDS = {"junk": 16, "bad_crc": 1, "split": 1, "delay": 5, "babble": 12, "silence": True}
# the device faults, registered with each kind (controller/device_registry.py)
DEVICE_KINDS = device_registry.faults()
