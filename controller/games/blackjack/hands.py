"""A blackjack-family hand as JSON-native data, and the names its wagers carry."""

from controller.rules import cards as C

DEALER = "dealer"
ACTIONS = ("hit", "stand", "double", "split", "surrender", "refuse")


def parse(codes):
    return [C.parse(c) for c in codes]


def wager_name(base, index):
    """The output name of a hand wager: "bet" on a seat's first hand, "bet#2" on its second."""
    return base if index == 0 else "%s#%d" % (base, index + 1)


def new_hand(cards=None, split=False, split_aces=False):
    return {"cards": list(cards or []), "split": split, "split_aces": split_aces,
            "blackjack": False, "doubled": False, "stood": False, "surrendered": False,
            "no_more_cards": False,     # refused a card exposed in error (581.13(c))
            "owed": None,               # "hit"/"double": a card the dealer missed (581.13(g))
            "dead": False, "done": False, "settled": False}
