"""Feeding a table by hand in event-level tests: the dealer's cards and the players' decisions."""
from controller.games.events import Event


def cards(t, *codes):
    for c in codes:
        t.handle(Event("card", {"card": c}))


def act(t, seat, action, amount=None):
    data = {"seat": seat, "action": action}
    if amount is not None:
        data["amount"] = amount
    t.handle(Event("decision", data))


def wagers(t, seats):
    for seat, placed in seats.items():
        for wager, amount in placed.items():
            t.handle(Event("wager", {"seat": seat, "wager": wager, "amount": amount}))
