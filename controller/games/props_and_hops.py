"""Props & Hops (58 Pa. Code ch. 585): one roll of two dice per round, on the game engine.

How the common lifecycle reads for a dice game:
    open_table   the floorperson places the two dice in the shaker (585.3(d)); also the
                 moment the dice go on the table, for the 24-hour limit (585.3(b)(1))
    shuffle      the dealer shakes the covered shaker: before play starts and after each
                 round (585.3(d), (i)); the next round's wagers wait for it. The dealer
                 panel's `shake` entry arrives as {"shake": true}. A scenario's `stack` must be empty:
                 the game has no cards (585.3(a)). Wagers are refused until this shake.
    new_deck     new dice replace dice removed from the table (after 24 hours)
    wager        any 585.2 wager, each bounded by the table limits, before the dice are
                 shaken (585.2(a))
    no_more_bets "no more bets"; the shaker goes to the shooter (585.3(e), (j)); the round
                 waits in `rolling_waits_dice`, pending {"need": "dice", "shooter": seat}
    dice         {"dice": [a, b]} settles the round (585.3(h), 585.4); {"no_roll": why}
                 voids it, every wager returned (585.3(f), (g))
    irregularity {"kind": "lid_removed"}: the shooter took the lid off; the shaker is
                 covered and shaken again, the round goes on (585.3(e))

The shooter is kept across rounds: the same player shakes until a 7, then the next
player to the left (585.3(j); seat order in controller/rules/dice.py). Who is seated is
the seats with a wager this round plus the optional `seated` list of the "no more bets"
event: only seated players wager (585.2(c)), but a seated player may sit a round out and
still hold the shaker.

Time is only what events carry (`ts_ns`): the model never reads a clock.
"""

from controller.games.engine import OPENED, ROUND_OVER, SHUFFLED, WAGERS_OPEN, GameModel, \
    IllegalEvent, seat_key
from controller.rules import dice
from controller.rules import paytables as pt
from controller.rules import settle
from controller.games.declarations import props_and_hops as declared

ROLLING = "rolling"
HOUR_NS = 3600 * 10 ** 9

# Why the dealer calls a "no roll", and where the rule is.
NO_ROLL = {
    "die_out": "a die fell out of the shaker when it was uncovered (585.3(f))",
    "die_on_die": "one die came to rest on top of the other (585.3(g))",
    "not_flat": "the dice did not land flat on the bottom of the shaker (585.3(g))",
    "called": "the dealer called a no roll (585.3(f), (g))",
}


def _hours(value):
    if value < 1 or value > 24:
        return "dice may stay on the table at most 24 hours (585.3(b)(1)); 1..24"
    return None


class PropsAndHops(GameModel):
    """One round is wagers, "no more bets", one roll by the shooter, settlement."""

    GAME = "props-and-hops"
    DECLARES = declared.DECLARES     # what the table must know about it
    ROUND_STATES = [ROLLING]
    FIRST_ROUND_STATE = ROLLING
    WAITS = {ROLLING: ("dice",)}                 # rolling_waits_dice: the shooter's roll
    ANSWERS = {"dice": ("dice",)}                # the machine takes a roll only then
    REFUSALS = {"dice": "no roll is due while {state}: the dice are rolled after \"no more "
                        "bets\" (585.3(e))"}
    PRE_DEAL_WAGERS = tuple(dice.WAGERS)
    TABLE_LIMIT_WAGERS = tuple(dice.WAGERS)      # the table limits bound each wager
    REQUIRED_WAGERS = ()
    OPTIONAL_WAGERS = ()                         # 585.2 authorizes every wager outright
    SHAKER = True                                # `shuffle` is the shake of 585.3(d), (i)
    OPTIONS = {"dice_max_hours": (int, _hours)}
    DEFAULTS = dict(GameModel.DEFAULTS, options={"dice_max_hours": 24})

    def __init__(self, config):
        super().__init__(config)
        self.shooter = None          # seat "1".."6" holding the shaker, kept across rounds
        self.pass_shaker = False     # the shooter threw a 7: the next player shoots (585.3(j))
        self.dice_placed_ns = 0      # when the dice in use were put in the shaker
        self.reset_round()

    def reset_round(self):
        self.roll = None             # [a, b] as read, or "no_roll"
        self.seated = []
        self.pending = None

    # ---- the machine --------------------------------------------------------------

    @classmethod
    def round_transitions(cls):
        return []                    # rolling -> settled | voided are the engine's

    # ---- dice on the table (585.3(b)(1), (d)) ----------------------------------------

    def on_open_table(self, event):
        self.dice_placed_ns = event.ts_ns
        super().on_open_table(event)

    def _check_dice_age(self, event):
        """Dice past their hours are removed before another round uses them. A round
        already rolling plays to its end; one still taking wagers is void."""
        if self.state not in (OPENED, SHUFFLED, WAGERS_OPEN) + ROUND_OVER:
            return
        hours = self.config["options"]["dice_max_hours"]
        if event.ts_ns - self.dice_placed_ns <= hours * HOUR_NS:
            return
        reason = ("the dice have been on the table more than %d hours: new dice are needed "
                  "(585.3(b)(1))" % hours)
        if self.state == WAGERS_OPEN and self.wagers:
            self.void_round(reason)
        self.remove_the_deck(reason)
        raise IllegalEvent(reason)

    def on_shuffle(self, event):
        """The dealer shakes the covered shaker (585.3(d), (i))."""
        if event.get("stack"):
            raise IllegalEvent("Props & Hops is played with two dice, not cards (585.3(a))")
        self._check_dice_age(event)
        if self.state == WAGERS_OPEN:
            raise IllegalEvent("the shaker is shaken before wagering or after a round, not "
                               "while wagers are open (585.2(a), 585.3(d))")
        super().on_shuffle(event)

    # ---- wagers (585.2) -----------------------------------------------------------

    def on_wager(self, event):
        wager = event.get("wager")
        if wager not in dice.WAGERS:
            raise IllegalEvent("%r is not a Props & Hops wager (585.2); the wagers are %s"
                               % (wager, ", ".join(dice.WAGERS)))
        if self.state == OPENED:
            raise IllegalEvent("wager %s refused: the dealer shakes the covered shaker before "
                               "play begins (585.3(d))" % wager)
        if self.state == ROLLING:
            raise IllegalEvent("wager %s at seat %s refused: \"no more bets\" was called; "
                               "wagers are made before the dice are shaken (585.2(a), 585.3(e))"
                               % (wager, event.get("seat")))
        self._check_dice_age(event)
        if self.state in ROUND_OVER:
            raise IllegalEvent("wager %s refused: after each round the dealer covers and shakes "
                               "the shaker before the next round's wagers (585.3(d), (i))"
                               % wager)
        super().on_wager(event)

    # ---- "no more bets" and the shooter (585.3(e), (j)) -------------------------------

    def on_no_more_bets(self, event):
        self._check_dice_age(event)
        listed = event.get("seated", [])
        if not isinstance(listed, list):
            raise IllegalEvent("seated must be a list of seats 1..6, not %r" % (listed,))
        seated = sorted({seat_key(s) for s in listed} | set(self.wagers), key=int)
        super().on_no_more_bets(event)
        numbers = [int(s) for s in seated]
        if self.shooter is None:
            shooter = dice.first_shooter(numbers)
        elif self.pass_shaker or int(self.shooter) not in numbers:
            # after a 7, or the shooter has left: the next player to the left
            shooter = dice.next_to_the_left(int(self.shooter), numbers)
        else:
            shooter = int(self.shooter)
        self.seated = seated
        self.shooter = str(shooter)
        self.pass_shaker = False
        self.note("shooter", seat=self.shooter)
        self.pending = {"need": "dice", "shooter": self.shooter}

    def on_irregularity(self, event):
        if self.state == ROLLING and event.get("kind") == "lid_removed":
            self.note("lid_removed", section="585.3(e)")     # recovered and shaken again
            return
        raise IllegalEvent("%s has no irregularity %r while %s"
                           % (self.GAME, event.get("kind"), self.state))

    # ---- the roll and settlement (585.3(f)-(h), 585.4) ---------------------------------

    def on_dice(self, event):
        """Taken only in rolling_waits_dice (ANSWERS): the machine refuses it elsewhere."""
        why = event.get("no_roll")
        if why is not None and event.get("dice") is not None:
            raise IllegalEvent("a dice event is either a roll or a no roll, not both")
        if why is not None:
            if why not in NO_ROLL:
                raise IllegalEvent("no_roll %r: one of %s" % (why, ", ".join(NO_ROLL)))
            self.roll = "no_roll"
            self.pending = None
            self.void_round("no roll: " + NO_ROLL[why])     # the shooter keeps the shaker
            return
        roll = event.get("dice")
        if not isinstance(roll, list) or len(roll) != 2:
            raise IllegalEvent("a roll is two dice [a, b], not %r (585.3(a))" % (roll,))
        d1, d2 = roll
        dice.check_roll(d1, d2)
        self.roll = [d1, d2]
        self.pending = None
        self.note("roll", dice=[d1, d2], shooter=self.shooter)
        self.settle_roll(d1, d2)
        self.pass_shaker = d1 + d2 == 7
        self.status = "settled"
        self.settle()

    def settle_roll(self, d1, d2):
        """Every wager by its 585.4 paytable; the record shows the losers collected before
        the winners are paid (585.3(h))."""
        results = {}
        losing, winning = [], []
        for seat in sorted(self.wagers, key=int):
            results[seat] = {}
            for wager, amount in self.wagers[seat].items():
                hand = dice.outcome(wager, d1, d2)
                result, net = settle.settle(pt.get(self.GAME, wager), hand, amount)
                results[seat][wager] = [result, net]
                (winning if net > 0 else losing).append((seat, wager, net))
        for seat, wager, net in losing:
            self.note("collect", seat=seat, wager=wager, amount=-net)
        for seat, wager, net in winning:
            self.note("pay", seat=seat, wager=wager, amount=net)
        self.results = results
