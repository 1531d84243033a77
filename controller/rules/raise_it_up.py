"""Settlement of a Raise It Up Stud Poker player's wagers (669a.11(f)-(i); 669a.12).

In the order of 669a.11(i): Pair Plus on the player's three cards, then Ante,
Play and Blind on the best five of the player's three and the three community
cards, then the Progressive Payout and Six Card Bonus.
"""

from controller.errors import RulesError
from controller.rules import cards as C
from controller.rules import paytables as pt
from controller.rules import poker
from controller.rules import settle as settlement

GAME = pt.RIU
QUALIFYING_PAIR = C.TEN           # 669a.7(d)(1): a pair of 10s or better
PLAY_MULTIPLES = {"before_4th_street": (1, 2, 3), "before_5th_street": (1, 2),
                  "before_6th_street": (1,)}           # 669a.11(b), (d), (f)


def check_play_wager(ante, play, street):
    """A Play Wager is one, two or three times the Ante before 4th Street, one or two
    times before 5th, and once before 6th (669a.11(b), (d), (f))."""
    allowed = PLAY_MULTIPLES.get(street)
    if allowed is None:
        raise RulesError("no Play Wager is asked %r; the streets are %s"
                         % (street, ", ".join(sorted(PLAY_MULTIPLES))))
    section = {"before_4th_street": "669a.11(b)", "before_5th_street": "669a.11(d)",
               "before_6th_street": "669a.11(f)"}[street]
    if ante <= 0 or play % ante or play // ante not in allowed:
        raise RulesError("a Play Wager of %d is not %s times the Ante %d (%s)"
                         % (play, " or ".join(str(m) for m in allowed), ante, section))


def pair_plus_hand(player3):
    """669a.12(a) hand of the player's three cards (669a.6(c)), or None."""
    name = poker.three_card_name(poker.three_card_value(player3), royal=False)
    return None if name == "high_card" else name


def settle_pair_plus(player3, wager, letter):
    return settlement.settle(pt.get(GAME, "pair_plus", letter), pair_plus_hand(player3), wager)


def five_card_hand(player3, community3):
    """(paytable hand or None below a pair of 10s, value) of the best five of six."""
    six = list(player3) + list(community3)
    poker.check_hand(six, (6,), "player's and community cards")
    value = poker.best_value(six)
    return poker.paytable_hand(value, QUALIFYING_PAIR), value


def settle_ante_blind_play(player3, community3, ante, blind, play):
    """{'ante', 'blind', 'play': (result, net)} per 669a.11(i)(2).

    `play` 0 means the player folded before 6th Street: Ante and Blind were collected
    then (669a.11(f)). The Blind equals the Ante (669a.7(d)(1)).
    """
    if blind != ante:
        raise RulesError("the Blind Wager %d must equal the Ante Wager %d (669a.7(d)(1))"
                         % (blind, ante))
    if play == 0:
        return {"ante": (settlement.LOSE, -ante), "blind": (settlement.LOSE, -blind)}
    hand, _ = five_card_hand(player3, community3)
    if hand is None:
        lose = settlement.LOSE
        return {"ante": (lose, -ante), "blind": (lose, -blind), "play": (lose, -play)}
    return {"ante": settlement.settle(pt.get(GAME, "ante"), "win", ante),
            "play": settlement.settle(pt.get(GAME, "play"), hand, play),
            "blind": settlement.settle(pt.get(GAME, "blind"), hand, blind)}


def six_card_bonus_hand(player3, community3):
    """669a.12(f) hand (three of a kind or better, 669a.7(d)(5)), or None."""
    _, value = five_card_hand(player3, community3)
    if poker.category(value) < poker.THREE_OF_A_KIND:
        return None
    return poker.category_name(value)


def settle_six_card_bonus(player3, community3, wager, letter):
    return settlement.settle(pt.get(GAME, "six_card_bonus", letter),
                    six_card_bonus_hand(player3, community3), wager)


def progressive_hand(player3, made_play):
    """669a.12(e)(1) hand of the player's three cards (669a.11(i)(3)(i): a straight or
    better), or None; a player who made no Play Wager forfeits it (669a.11(g))."""
    if not made_play:
        return None
    return poker.raise_it_up_progressive_hand(player3)


def settle_progressive(player3, made_play, wager, meter):
    """(result, net, cents taken from the meter); `meter` is its value when the player's
    turn comes (669a.12(e)(4))."""
    table = pt.get(GAME, "progressive")
    hand = progressive_hand(player3, made_play)
    result, net = settlement.settle(table, hand, wager, meter)
    return result, net, settlement.meter_payout(table.pay(hand) if hand else None, meter)


def progressive_meter_share(codes, dealer=None, paytable=None):
    """The percent of the meter three card codes win at the Progressive Payout Wager
    (669a.12(e)(1): 100 for the ace, king and queen of spades), or None: what a linked
    progressive's controller checks a hit's hand with, the same evaluator and paytable the
    table settles with (issue 31). Raises RulesError for anything but three cards. The
    paytable is the text's own (`paytable`, `dealer`: not this game's)."""
    hand = C.parse_all(codes) if isinstance(codes, (list, tuple)) else None
    if hand is None or len(hand) != 3 or len(set(hand)) != 3:
        raise RulesError("a Raise It Up progressive hit's hand is three different cards, not "
                         "%r" % (codes,))
    name = poker.raise_it_up_progressive_hand(hand)
    pay = pt.get(GAME, "progressive").pay(name) if name else None
    return pay.num if pay is not None and pay.kind == pt.METER else None


def envy_bonuses(wager, other_hands):
    """Cents of Envy Bonus for a player's Progressive Payout Wager of `wager`: one per
    other player holding A-K-Q suited (669a.11(i)(3)(i)(E), 669a.12(e)(5)). Pass only
    the other players' three-card hands: a player is not paid for his own."""
    schedules = pt.envy_schedules(GAME, "envy")
    total = 0
    for hand in other_hands:
        name = poker.raise_it_up_progressive_hand(hand)
        if name in ("ace_king_queen_of_spades", "ace_king_queen_suited"):
            total += settlement.envy_bonus(schedules, wager, name)
    return total
