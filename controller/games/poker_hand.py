"""One hand of poker room poker (637a(c), (d)) played by pokerkit: the betting, the side pots,
the showdown and the split of each pot are pokerkit's, not ours.

The table model keeps only the hand's inputs, JSON-native: `setup` {variant, betting, players
(seats in pokerkit's order), stacks} and `log`, the steps applied in order
(["burn", card], ["hole", card], ["board", card], ["act", seat, action, amount]). `Hand`
builds a pokerkit State from them and replays the log, so a snapshot restored in a fresh
process finishes the hand the same way. The pokerkit object is never persisted.

What the controller adds to pokerkit here:
  * the house take: the rake and the Bad Beat / High Hand jackpot drop are taken out of the
    main pot, the pot pushed last (637a(e)(6)(iii), (iv)); how much is the table configuration
    (controller/games/poker_pot_award.py: house_take);
  * odd chips: a pot splits in whole chips of `chip_unit` cents; the odd chips go to the
    first share in pokerkit's order: the high half of a hi-lo pot, and among tied hands the
    first player clockwise from the button (Hold'em, Omaha) or from seat 1 (Stud);
  * every hand still in at the showdown is shown (637a(d)); pokerkit then kills the losers.
"""

import dataclasses
import warnings

import pokerkit as pk
from pokerkit import Automation as A

from controller.errors import RulesError

AUTOMATIONS = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.HAND_KILLING,
               A.CHIPS_PUSHING, A.CHIPS_PULLING)
VARIANTS = ("texas_holdem", "omaha", "omaha_hi_lo", "seven_card_stud")
BETTINGS = {"limit": pk.BettingStructure.FIXED_LIMIT, "pot_limit": pk.BettingStructure.POT_LIMIT,
            "no_limit": pk.BettingStructure.NO_LIMIT}
HAND_TYPES = {"texas_holdem": (pk.StandardHighHand,), "omaha": (pk.OmahaHoldemHand,),
              "omaha_hi_lo": (pk.OmahaHoldemHand, pk.OmahaEightOrBetterLowHand),
              "seven_card_stud": (pk.StandardHighHand,)}
STUD = "seven_card_stud"
ACTIONS = ("fold", "check", "call", "bet", "raise", "bring_in")


class BettingRefused(RulesError):
    """An action pokerkit's betting rules refuse (out of turn, below the minimum, ...)."""


def code(card):
    return repr(card)


def chip_divmod(unit):
    """A pot divided among n shares in whole chips; the remainder (the odd chips) goes to the
    first share (pokerkit gives the remainder to the first)."""
    def split(amount, n):
        each = amount // n // unit * unit
        return each, amount - each * n
    return split


class Kit(pk.State):
    """pokerkit's State, with the house take out of the main pot. pokerkit's own rake hook is
    per pot and called again when pots merge, so the take is applied to the finished pot list:
    the first pot is the main pot (pokerkit's order)."""

    house_rule = None            # (total, main, rounds_dealt) -> (rake, drop); set on build
    house = (0, 0)

    @property
    def pots(self):
        if self._pots is not None:
            yield from self._pots
            return
        pots = list(pk.State.pots.fget(self))
        if pots and self.house_rule is not None:
            rounds = 1 + sum(isinstance(op, pk.CardBurning) for op in self.operations)
            rake, drop = self.house_rule(sum(p.amount for p in pots), pots[0].amount, rounds)
            self.house = (rake, drop)
            if rake + drop:
                main = pots[0]
                pots[0] = pk.Pot(rake + drop, main.amount - rake - drop, main.player_indices)
        yield from pots


def build(setup, options, house_rule):
    """A fresh pokerkit State for the hand: antes and blinds are posted at once (637a(c))."""
    variant, betting = setup["variant"], setup["betting"]
    small, big = options["small_bet"], options["big_bet"]
    if betting != "limit":
        big = small                  # pot-limit and no-limit: small_bet is the minimum bet
    ante = options["ante"]
    if variant == STUD:
        blinds, bring_in = 0, options["bring_in"]
        proto = pk.FixedLimitSevenCardStud(AUTOMATIONS, True, ante, bring_in, small, big)
    else:
        blinds, bring_in = (options["small_blind"], options["big_blind"]), 0
        shape = pk.FixedLimitTexasHoldem if variant == "texas_holdem" else \
            pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter
        proto = shape(AUTOMATIONS, True, ante, blinds, small, big)
    cap = options["limit_bets"] if betting == "limit" else None
    streets = tuple(dataclasses.replace(s, max_completion_betting_or_raising_count=cap)
                    for s in proto.streets)
    kit = Kit(AUTOMATIONS, pk.Deck.STANDARD, HAND_TYPES[variant], streets, BETTINGS[betting],
              True, ante, blinds, bring_in, list(setup["stacks"]), len(setup["players"]),
              mode=pk.Mode.TOURNAMENT, divmod=chip_divmod(options["chip_unit"]))
    kit.house_rule = house_rule
    return kit


class Hand:
    """The pokerkit state of one hand, rebuilt from its inputs and kept in step with the log."""

    def __init__(self, setup, options, house_rule, log=()):
        self.setup = setup
        self.players = list(setup["players"])
        self.kit = build(setup, options, house_rule)
        self.shown = []              # seats that showed at the showdown, in pokerkit's order
        self.show_all()
        for step in log:
            self.apply(step)

    def index(self, seat):
        return self.players.index(seat)

    def apply(self, step):
        """One logged step; pokerkit's refusal becomes BettingRefused with its words."""
        kind, kit = step[0], self.kit
        try:
            if kind in ("burn", "hole", "board"):
                # The machine has checked the card against the deck, a second copy only
                # where the deck says it holds one (a scenario's deck.extra); pokerkit's
                # advice against dealing a card it counts as out is no news then.
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", UserWarning)
                    if kind == "burn":
                        kit.burn_card(step[1])
                    elif kind == "hole":
                        kit.deal_hole(step[1])
                    else:
                        kit.deal_board(step[1])
            else:
                _, seat, action, amount = step
                if action == "fold":
                    kit.fold()
                elif action in ("check", "call"):
                    kit.check_or_call()
                elif action == "bring_in":
                    kit.post_bring_in()
                else:
                    kit.complete_bet_or_raise_to(amount)
        except ValueError as e:
            raise BettingRefused(str(e).rstrip(".")) from None
        self.show_all()

    def show_all(self):
        """Every hand still in at the showdown is turned face up (637a(d))."""
        while self.kit.showdown_index is not None:
            self.shown.append(self.players[self.kit.showdown_index])
            self.kit.show_or_muck_hole_cards(True)

    # ---- what the hand needs next -------------------------------------------------------

    def need(self):
        """("burn" | "hole" | "board", seat-or-None), ("decision", seat) or ("over", None)."""
        kit = self.kit
        if kit.card_burning_status:
            return "burn", None
        dealee = kit.hole_dealee_index
        if dealee is not None:
            return "hole", self.players[dealee]
        if kit.can_deal_board():
            return "board", None
        if kit.actor_index is not None:
            return "decision", self.players[kit.actor_index]
        if not kit.status:
            return "over", None
        raise RulesError("the hand waits for nothing the controller can give (%r)"
                         % (kit.operations[-1:],))

    def decision(self):
        """What the seat to act may do, and the amounts (cents)."""
        kit = self.kit
        if kit.can_post_bring_in():
            return {"allowed": ["bring_in", "bet"], "bring_in": kit.effective_bring_in_amount,
                    "min": kit.min_completion_betting_or_raising_to_amount,
                    "max": kit.max_completion_betting_or_raising_to_amount}
        to_call = kit.checking_or_calling_amount
        allowed = ["fold", "call"] if to_call else ["check"]
        out = {"to_call": to_call}
        if kit.can_complete_bet_or_raise_to():
            allowed.append("raise" if max(kit.bets) else "bet")
            out["min"] = kit.min_completion_betting_or_raising_to_amount
            out["max"] = kit.max_completion_betting_or_raising_to_amount
        out["allowed"] = allowed
        return out

    def in_hand(self):
        return [s for i, s in enumerate(self.players) if self.kit.statuses[i]]

    # ---- the result, read from pokerkit's operations -------------------------------------

    def awards(self):
        """[(pot_index, hand_type_index or None, {seat: cents})], pokerkit's pushes in order."""
        out = []
        for op in self.kit.operations:
            if isinstance(op, pk.ChipsPushing):
                shares = {self.players[i]: a for i, a in enumerate(op.amounts) if a}
                out.append((op.pot_index, op.hand_type_index, shares))
        return out

    def pots(self):
        """The pots' amounts before the house take, main pot first."""
        pushed = {}
        for pot_index, _, shares in self.awards():
            pushed[pot_index] = pushed.get(pot_index, 0) + sum(shares.values())
        return [pot.raked_amount + pushed.get(i, 0) for i, pot in enumerate(self.kit._pots or [])]

    def payoffs(self):
        return {s: self.kit.payoffs[i] for i, s in enumerate(self.players)}

    def folded(self):
        return [self.players[op.player_index] for op in self.kit.operations
                if isinstance(op, pk.Folding)]

    def killed(self):
        return [self.players[op.player_index] for op in self.kit.operations
                if isinstance(op, pk.HandKilling)]


def evaluate(variant, hole, board):
    """The shown hand's best high (and, in Omaha Hi-Lo, qualifying low) five, by pokerkit."""
    out = {}
    for hand_type, name in zip(HAND_TYPES[variant], ("high", "low")):
        try:
            hand = hand_type.from_game("".join(hole), "".join(board))
        except ValueError:
            out[name] = None         # no qualifying low (eight or better)
            continue
        five = [code(c) for c in hand.cards]
        out[name] = {"hand": hand.entry.label.value, "five": five} if name == "high" else \
            {"five": five}
    return out
