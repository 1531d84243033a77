"""The simulated players' decisions, per game, from what the round asks (`pending`).

Each returns the data of a `decision` keyed on the dealer panel. Strategies are in
hal_sim/autoplay_strategy.py.
"""

from controller.rules import cards as C
from controller.rules import paigow as pg
from hal_sim import autoplay_strategy as S


def decide(ap, p):
    return GAMES[ap.game](ap, p)


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


GAMES = {"blackjack": _blackjack, "double-attack-blackjack": _blackjack, "flop-poker": _flop,
         "raise-it-up-stud": _raise_it_up, "six-card-fortune-pai-gow": _six_card,
         "poker": _poker}
