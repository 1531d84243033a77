"""What the simulated players and dealer decide: pure functions of the cards, no I/O.

Kept apart from the device plumbing (hal_sim/autoplay.py) so the strategies can be read and
tested on their own. Cards are codes such as "As", "Td"; a joker is "Xx"/"JK" (Pai Gow).
"""

RANKS = "23456789TJQKA"


def _value(rank):
    return 11 if rank == "A" else 10 if rank in "TJQK" else int(rank)


def hand_total(cards):
    """(total, soft) of a blackjack hand."""
    total = sum(_value(c[0]) for c in cards)
    aces = sum(c[0] == "A" for c in cards)
    while total > 21 and aces:
        total -= 10
        aces -= 1
    return total, aces > 0


def blackjack_action(cards, upcard, allowed):
    """Basic strategy, multi-deck, dealer stands on soft 17 (compact table):
    pairs: split A,8 always; 2,3,7 v 2-7; 6 v 2-6; 9 v 2-9 but 7; never 4,5,T.
    soft: A7 stands v 2,7,8, doubles v 3-6, else hits; A2-A6 double v 4/5-6, else hit; 19+ stand.
    hard: 17+ stand; 13-16 stand v 2-6; 12 stand v 4-6; 11 double; 10 double v 2-9;
    9 double v 3-6; else hit. A move not allowed falls back to hit, then stand."""
    up = _value(upcard[0])
    total, soft = hand_total(cards)

    def pick(*moves):
        for m in moves:
            if m in allowed:
                return m
        return "stand" if "stand" in allowed else allowed[0]

    if len(cards) == 2 and cards[0][0] == cards[1][0] or \
            len(cards) == 2 and _value(cards[0][0]) == _value(cards[1][0]) == 10:
        r = _value(cards[0][0])
        split = (r in (11, 8) or r in (2, 3, 7) and up <= 7 or r == 6 and up <= 6
                 or r == 9 and up <= 9 and up != 7)
        if split and "split" in allowed:
            return "split"
    if soft:
        if total >= 19:
            return pick("stand")
        if total == 18:
            if 3 <= up <= 6:
                return pick("double", "stand")
            return pick("stand") if up in (2, 7, 8) else pick("hit")
        if (total >= 17 and 3 <= up <= 6) or (total >= 15 and 4 <= up <= 6) or \
                (total >= 13 and 5 <= up <= 6):
            return pick("double", "hit")
        return pick("hit")
    if total >= 17:
        return pick("stand")
    if total >= 13:
        return pick("stand") if up <= 6 else pick("hit")
    if total == 12:
        return pick("stand") if 4 <= up <= 6 else pick("hit")
    if total == 11:
        return pick("double", "hit")
    if total == 10:
        return pick("double", "hit") if up <= 9 else pick("hit")
    if total == 9:
        return pick("double", "hit") if 3 <= up <= 6 else pick("hit")
    return pick("hit")


def take_double_attack(upcard):
    """Double Attack: double the Bet against a weak up card (4 to 6)."""
    return upcard[0] in "456"


# ---- poker -----------------------------------------------------------------------------

def _ranks(cards):
    return [RANKS.index(c[0]) for c in cards if c[0] in RANKS]


def has_pair(cards):
    r = _ranks(cards)
    return len(set(r)) < len(r)


def three_to_flush(cards):
    suits = [c[1] for c in cards if c[0] in RANKS]
    return any(suits.count(s) >= 3 for s in set(suits))


def three_to_straight(cards):
    r = set(_ranks(cards))
    if 12 in r:
        r.add(-1)
    return any(len(r & set(range(lo, lo + 5))) >= 3 and
               sorted(r & set(range(lo, lo + 5)))[-1] - sorted(r & set(range(lo, lo + 5)))[0] <= 2
               for lo in range(-1, 9))


def flop_decision(cards):
    """Flop Poker: flop on a pair or better, or three to a flush or a straight; else fold."""
    return "flop" if has_pair(cards) or three_to_flush(cards) or three_to_straight(cards) \
        else "fold"


def raise_it_up_decision(cards, allowed, amounts, last_street):
    """Raise It Up: play 3x on a pair or better, else check; on 6th street play 1x with a
    pair or a ten or better, else fold."""
    if has_pair(cards) and "play" in allowed:
        return "play", max(amounts)
    if last_street:
        if "play" in allowed and max(_ranks(cards) or [0]) >= RANKS.index("T"):
            return "play", min(amounts)
        return ("fold" if "fold" in allowed else "check"), None
    return ("check" if "check" in allowed else "fold"), None


def poker_room_decision(pending, stack_left, big_blind):
    """Poker room: check when free, call a bet up to a tenth of the stack or four big
    blinds, fold to anything bigger; post the bring-in."""
    allowed = pending["allowed"]
    if "bring_in" in allowed:
        return {"action": "bring_in"}
    if "check" in allowed:
        return {"action": "check"}
    to_call = pending.get("to_call") or 0
    if to_call <= max(4 * big_blind, stack_left // 10) and "call" in allowed:
        return {"action": "call"}
    return {"action": "fold"}
