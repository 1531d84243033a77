"""The simulator's one registry of games: how the simulated players and dealer play each.

What the firmware must know about a game it declares itself (controller/games/declarations/);
what only the simulation needs lives here, one entry a game: the wagers the simulated players
key on the dealer panel, the seats that put a chip on the progressive sensor, how the players
decide (strategies in hal_sim/autoplay_strategy.py), the simulated table's options, the deck.
The autoplay and the simulation ask `sim_game(game)`, never a game's name
(tests/test_game_declarations.py keeps it so). Each game's declaration names its entry by
its `simulator` field ("hal_sim.games:RAISE_IT_UP"); SIM_GAMES derives from the firmware's
REGISTRY, so a game is registered by its one REGISTRY line.
"""

from dataclasses import dataclass, field

from controller.rules import cards as C
from controller.rules import paigow as pg
from hal_sim import autoplay_strategy as S


def _no_options(counting):
    return {}, False


@dataclass(frozen=True)
class SimGame:
    # wagers keyed on the dealer panel per seat, in cents
    panel_wagers: dict = field(default_factory=dict)
    # decide(autoplay, pending) -> the data of a `decision` keyed on the dealer panel
    decide: object = None
    # seats that put a chip on the progressive sensor each round (where the game has one);
    # "no more bets" is then the lock-out button of the progressive system
    sensor_seats: tuple = ()
    # table_options(counting) -> (the simulated table's configuration, whether the shuffler
    # counts); `counting`: a miscount fault asks for a counting shuffler
    table_options: object = _no_options
    joker: bool = False              # the deck has the joker
    press_on_panel: bool = False     # "no more bets" keyed on the panel, not the button
    # the device fault `tablectl floor demo` injects now and then at this game's tables
    # (a device the game has: the dice game has no shuffler)
    demo_fault: str = "shuffler:jam"
    demo_linked: bool = False        # the floor demo's tables of this game share its link


# ---- the players' decisions, from what the round asks (`pending`) ------------------------

def _blackjack(ap, p):
    m = ap.model
    seat = str(p["seat"])
    if p["need"] == "offer":
        if p["offer"] == "double_attack" and S.take_double_attack(m.dealer[0]):
            return {"seat": seat, "action": "double_attack", "amount": m.wagers[seat]["bet"]}
        return {"seat": seat, "action": "decline", "offer": p["offer"]}
    hand = m.hands[seat][p.get("hand", 1) - 1]
    action = S.blackjack_action(hand["cards"], m.dealer[0], p["allowed"])
    data = {"seat": seat, "action": action}
    if action == "double":
        data["amount"] = m.double_limit(seat, p.get("hand", 1) - 1)
    return data


def _flop(ap, p):
    m = ap.model
    seat = str(p["seat"])
    action = S.flop_decision(list(m.hands[seat]))
    data = {"seat": seat, "action": action}
    if action == "flop":
        data["amount"] = m.wagers[seat]["ante"]       # the Flop Wager equals the Ante
    return data


def _raise_it_up(ap, p):
    m = ap.model
    seat = str(p["seat"])
    cards = list(m.hands[seat]) + list(m.community[:m.revealed])
    last = len(cards) >= 5
    action, amount = S.raise_it_up_decision(cards, p["allowed"], p["amounts"], last)
    data = {"seat": seat, "action": action}
    if amount is not None:
        data["amount"] = amount
    return data


def _six_card(ap, p):
    m = ap.model
    seat = str(p["seat"])
    if p["need"] == "offer":
        return {"seat": seat, "action": "decline", "offer": p["offer"]}
    if "play_hand" in p["allowed"]:
        return {"seat": seat, "action": "play_hand"}
    high, low = pg.house_way(C.parse_all(m.hands[seat]))      # the house way for players too
    return {"seat": seat, "action": "set", "low": C.code(low)}


def _poker(ap, p):
    m = ap.model
    seat = str(p["seat"])
    stack = m.wagers.get(seat, {}).get("stack", 0)
    data = S.poker_room_decision(p, stack, m.options["big_blind"])
    data["seat"] = seat
    return data


# ---- the simulated tables' options ---------------------------------------------------------

def _single_deck(counting):
    """Single-deck games deal from the simulated automated dealing shoe (583.10, 669a.10) and
    use an automated shuffler that does not count (the dealer counts the stub) unless a
    miscount fault asks for a counter."""
    return {"options": {"shuffler": "counting" if counting else "automated",
                        "dealing": "automated_shoe"}}, counting


def _poker_room(counting):
    return ({"options": {"shuffler": "counting"}}, True) if counting else ({}, False)


# ---- each game's entry, named by its declaration's `simulator` ("hal_sim.games:NAME") -----
# A new game may equally keep its entry in a module of its own beside this one: the
# declaration's dotted name is the registration, so this file needs no edit.

DOUBLE_ATTACK = SimGame(panel_wagers={"bet": 1000}, decide=_blackjack)
BLACKJACK = SimGame(panel_wagers={"blackjack": 1000}, decide=_blackjack)
FLOP_POKER = SimGame(panel_wagers={"ante": 500, "pot": 100},   # the Pot: the table minimum
                     decide=_flop, table_options=_single_deck)
PROPS_AND_HOPS = SimGame(panel_wagers={"field": 500, "any_seven": 100},
                         demo_fault="dice_reader:no_roll")
RAISE_IT_UP = SimGame(panel_wagers={"ante": 500, "blind": 500}, decide=_raise_it_up,
                      sensor_seats=(1, 2), table_options=_single_deck, demo_linked=True)
SIX_CARD_FORTUNE = SimGame(panel_wagers={"six_card_fortune": 1000}, decide=_six_card,
                           sensor_seats=(1, 3), joker=True)
# the poker room reads a "button" key as the dealer button's seat: "no more bets" is keyed
POKER = SimGame(panel_wagers={"stack": 20000}, decide=_poker, table_options=_poker_room,
                press_on_panel=True)


def _derived():
    """{game: SimGame} from the firmware's one registry: each declaration names its entry by
    a dotted string (the firmware never imports hal_sim), so a game registers once."""
    from controller.games import all_declarations
    from controller.games.declarations import load
    return {d.game: load(d.simulator) for d in all_declarations() if d.simulator}


SIM_GAMES = _derived()


def sim_game(game):
    """How the simulation plays `game` (KeyError for a game it does not play)."""
    return SIM_GAMES[game]
