"""A Six-Card Fortune table fed Event by Event, for the tests: a deck, two dealer hands,
and the steps of a round as the procedure asks them."""
import os

from controller.games.events import Event
from controller.games.six_card_fortune.model import SixCardFortune
from tests import builders

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DECK = [r + s for r in "23456789TJQKA" for s in "shdc"] + ["JK"]

# The dealer's pair of kings: the house way plays K K 5 4 2 high and the 7 low (670a.11(d)(1)).
KINGS = ["Kh", "Kd", "7c", "5s", "4h", "2c"]
# Ace-high and nothing else: A 9 6 4 2 high, the jack low (670a.11(d)(6)); below a pair of 8s.
ACE_HIGH = ["Ah", "Jd", "9c", "6s", "4h", "2c"]


def table(rng=lambda: 7, **cfg):
    """A table whose random number generator gives `rng()` (7: seat 1 is dealt first)."""
    return builders.table(SixCardFortune, cfg, rng=rng)


def opened(rng=lambda: 7, **cfg):
    t = table(rng, **cfg)
    t.handle(Event("open_table"))
    t.handle(Event("shuffle"))
    return t


def wager(t, seat, name, amount):
    t.handle(Event("wager", {"seat": seat, "wager": name, "amount": amount}))


def place(t, seats):
    for seat, placed in seats.items():
        for name, amount in placed.items():
            wager(t, seat, name, amount)


def deal(t, hands):
    """Answer every card the deal asks for; positions not given get cards no hand uses."""
    hands = {str(k): list(v) for k, v in hands.items()}
    taken = [c for h in hands.values() for c in h] + t.model.out_of_deck()
    spare = [c for c in DECK if c not in taken]
    while t.model.pending and t.model.pending["need"] == "card":
        who = t.model.pending["for"].replace("seat ", "")
        if who not in hands:
            hands[who] = [spare.pop(0) for _ in range(6)]
        t.handle(Event("card", {"card": hands[who].pop(0)}))


def act(t, seat, action, **data):
    t.handle(Event("decision", dict(data, seat=seat, action=action)))


def players(t, lows, double_down=()):
    """Each seat as the procedure asks: the Double Down offer (taken for `double_down`),
    then its setting with `lows[seat]` as the low hand."""
    while t.model.state == "players":
        p = t.model.pending
        seat = p["seat"]
        if p["need"] == "offer":
            if seat in double_down:
                act(t, seat, "double_down", amount=t.model.wagers[seat]["six_card_fortune"])
            else:
                act(t, seat, "decline", offer="double_down")
        else:
            act(t, seat, "set", low=lows[seat])


def dealer_sets(t, low=None):
    act(t, "dealer", "set", low=low or t.model.pending["house_way"]["low"])


def play(t, seats, hands, lows, double_down=()):
    place(t, seats)
    t.handle(Event("no_more_bets"))
    deal(t, hands)
    players(t, lows, double_down)
    dealer_sets(t)
    return t.model.results


def irregular(t, kind, **data):
    t.handle(Event("irregularity", dict(data, kind=kind)))
