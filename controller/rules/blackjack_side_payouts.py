"""When and how the optional wagers of Blackjack (633a.7(g), (o)) are paid:
settlement timing and order, progressive verification thresholds, where a
payout comes from, shared jackpots, and the paytables.

PAYOUTS ARE TABLE CONFIGURATION, NOT REGULATION. The odds are in 633a.13,
which this project does not have; each table's Rules Submission (601a.2)
fixes them. DEFAULT_PAYTABLES (section "633a.13 (configuration default)") are
defaults for configuration, and `paytable_from_config` replaces any of them:
  lucky_ladies       Q-hearts pair + dealer BJ 1000 to 1, Q-hearts pair 125 to 1,
                     matched 20 19 to 1, suited 20 9 to 1, any 20 4 to 1
                     (the widely published Lucky Ladies schedule)
  match_the_dealer   suited match 11 to 1, unsuited match 4 to 1, per card
  in_between         triple match 30 to 1; spread 1: 10, 2: 6, 3: 4, 4-11: 1 to 1
  royal_match_21     royal match 25 to 1, suited match 5 to 2; no Crown Treasure
                     row: it is paid only "if offered" (g)(4), so a Rules
                     Submission that offers it adds `crown_treasure_bonus`
  bet_the_set_21     suited pair 25 to 1, pair 8 to 1          (illustrative)
  kings_bounty       K-spades pair + dealer BJ 1000 to 1, K-spades pair 100,
                     suited kings 30, suited queens/jacks/tens 20, suited 20 9,
                     any 20 4 (all "to 1")
  super_match        four of a kind 40, two pair 8, three of a kind 5, pair 1
                     (all "to 1"; the Blackjack Switch schedule)
  three_card_poker   straight flush 40, three of a kind 30, straight 10, flush 5
                     (all "to 1"; a 21+3-style schedule)
  house_money        ace-king suited 25, straight flush 8, pair 3, straight 1
                     (all "to 1")                               (illustrative)
  straight_jack_progressive  6-card straight 100% of meter, 5-card 10% of meter,
                     4-card 100 for 1, 3-card 10 for 1, 2-card 2 for 1 (illustrative)
  bad_beat_progressive  20 vs Blackjack 50 for 1, 20 vs 21 20 for 1; the Rules
                     Submission's "any 20" option (o)(1)(i) adds `twenty`  (illustrative)
  hit_and_run_progressive  8+ dealer cards 100% of meter, 7 cards 250 for 1,
                     6 cards 15 for 1, dealer Blackjack 4 for 1, 5 cards 3 for 1
                     (illustrative)
"Illustrative" marks a schedule chosen to exercise every row kind, not copied
from a published table; a table must configure its own.
"""

from controller.errors import ConfigError, SettlementError
from controller.rules import paytables as pt
from controller.rules.blackjack_side_wagers import (
    BAD_BEAT,
    BET_THE_SET_21,
    GAME,
    HANDS,
    HIT_AND_RUN,
    HOUSE_MONEY,
    IN_BETWEEN,
    KINGS_BOUNTY,
    LUCKY_LADIES,
    MATCH_THE_DEALER,
    PAYOUT_SECTION,
    ROYAL_MATCH_21,
    STRAIGHT_JACK,
    SUPER_MATCH,
    THREE_CARD_POKER,
    WAGERS,
    WIN_SECTION,
    _blackjack_known,
    _ten_or_ace,
    _up,
    house_money,
    is_two_card_straight,
    kings_bounty_deferred,
    lucky_ladies_deferred,
    royal_match_deferred)
from controller.rules import settle as st

# ---- when each wager settles (633a.7(g), (h), (i), (o)) -----------------------------

AT_SECOND_CARDS = "second_cards"    # (g): after the second cards, before the card reader
AFTER_PEEK = "after_peek"           # once the reader answered no Blackjack, before other cards
WITH_DEALER_BLACKJACK = "dealer_blackjack"  # (h): with the Blackjack Wagers the dealer's Blackjack collects
AFTER_HOLE_CARD = "after_hole_card"  # (g)(4): hole card exposed, before the Blackjack Wagers settle
AFTER_ALL_CARDS = "after_all_cards"  # (o): after all cards are dealt to players and dealer

STEPS = (AT_SECOND_CARDS, AFTER_PEEK, WITH_DEALER_BLACKJACK, AFTER_HOLE_CARD, AFTER_ALL_CARDS)

# The step each wager normally settles at; `settlement_time` gives the exceptions.
SETTLES_AT = {
    LUCKY_LADIES: AT_SECOND_CARDS, MATCH_THE_DEALER: AT_SECOND_CARDS,
    IN_BETWEEN: AT_SECOND_CARDS, ROYAL_MATCH_21: AT_SECOND_CARDS,
    BET_THE_SET_21: AT_SECOND_CARDS, KINGS_BOUNTY: AT_SECOND_CARDS,
    SUPER_MATCH: AT_SECOND_CARDS, THREE_CARD_POKER: AT_SECOND_CARDS,
    HOUSE_MONEY: AT_SECOND_CARDS, STRAIGHT_JACK: AFTER_ALL_CARDS,
    BAD_BEAT: AFTER_ALL_CARDS, HIT_AND_RUN: AFTER_ALL_CARDS,
}


def _check_wager_name(wager, section="633a.7(g), (o)"):
    if wager not in WAGERS:
        raise SettlementError("%r is not an optional wager of 633a.7; they are %s (%s)"
                              % (wager, ", ".join(WAGERS), section))


def settlement_time(wager, player, up, dealer_blackjack=None):
    """(step, section): when this seat's `wager` settles, given its initial cards
    (four for super_match) and the up card; `dealer_blackjack` once known.

    Within a step wagers settle from the dealer's right counterclockwise
    (`settlement_order`); AFTER_PEEK comes after every other wager of its kind.
    """
    _check_wager_name(wager)
    if wager == LUCKY_LADIES or wager == KINGS_BOUNTY:
        deferred = (lucky_ladies_deferred if wager == LUCKY_LADIES else kings_bounty_deferred)
        base = WIN_SECTION[wager]
        if deferred(player, up):
            if dealer_blackjack is None:
                return AFTER_PEEK, base
            if _blackjack_known(up, dealer_blackjack, wager, base):
                return WITH_DEALER_BLACKJACK, base + "(ii)"
            return AFTER_PEEK, base + "(i)"
        return AT_SECOND_CARDS, base
    if wager == ROYAL_MATCH_21:
        if royal_match_deferred(player, up):
            return AFTER_HOLE_CARD, "633a.7(g)(4)"
        return AT_SECOND_CARDS, "633a.7(g)(4)"
    if wager == HOUSE_MONEY:
        _up(up, "633a.7(g)(10)")
        if house_money(player) is None:
            return AT_SECOND_CARDS, "633a.7(g)(10)"
        if not _ten_or_ace(up):
            return AT_SECOND_CARDS, "633a.7(g)(10)(ii)"
        if dealer_blackjack is None:
            return AFTER_PEEK, "633a.7(g)(10)(i)"
        if _blackjack_known(up, dealer_blackjack, wager, "633a.7(g)(10)(i)"):
            return WITH_DEALER_BLACKJACK, "633a.7(g)(10)(i)(A)"
        return AFTER_PEEK, "633a.7(g)(10)(i)(B)"
    if wager == STRAIGHT_JACK:
        if not is_two_card_straight(player):
            return AT_SECOND_CARDS, "633a.7(g)(9)"
        return AFTER_ALL_CARDS, "633a.7(o)(3)"
    if wager == BAD_BEAT or wager == HIT_AND_RUN:
        _up(up, "633a.7(h)")
        if dealer_blackjack and _blackjack_known(up, dealer_blackjack, wager, "633a.7(h)"):
            return WITH_DEALER_BLACKJACK, "633a.7(h)"
        return AFTER_ALL_CARDS, "633a.7(o)(1)" if wager == BAD_BEAT else "633a.7(o)(2)"
    return AT_SECOND_CARDS, WIN_SECTION[wager]


def settlement_order(seats):
    """Seats in the order (g) and (o) settle them: from the player farthest to the
    dealer's right, counterclockwise - seats are numbered from the dealer's left,
    so the highest seat first."""
    return sorted(seats, reverse=True)


# ---- progressive payouts: verification, where paid from, shared jackpots -------------

# (threshold "N for 1", section) for a floorperson's verification
FLOORPERSON_FOR_ONE = {
    BAD_BEAT: (100, "633a.7(o)(1)(ii)(B)"),
    HIT_AND_RUN: (200, "633a.7(o)(2)(ii)(B)"),
    STRAIGHT_JACK: (100, "633a.7(o)(3)(ii)(B)"),
}
# (percent of the meter at or above which a payout is not paid from the table
# inventory container, section)
NOT_FROM_INVENTORY_PCT = {
    HIT_AND_RUN: (100, "633a.7(o)(2)(ii)(C)"),
    STRAIGHT_JACK: (10, "633a.7(o)(3)(ii)(C)"),
}
TABLE_INVENTORY = "table_inventory"
NOT_TABLE_INVENTORY = "not_table_inventory"   # the player's cards stay on the table
GAME_ACCOUNT = "game_account"                 # Bad Beat: credited to the game account

PROPORTIONAL, EQUAL = "proportional", "equal"
JACKPOT_SHARING = {
    BAD_BEAT: (PROPORTIONAL, "633a.7(o)(1)(ii)(C)"),
    HIT_AND_RUN: (EQUAL, "633a.7(o)(2)(ii)(C)"),
    STRAIGHT_JACK: (EQUAL, "633a.7(o)(3)(ii)(C)"),
}


def _cents(amount, what, least=0):
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < least:
        raise SettlementError("%s is a whole number of cents >= %d, not %r" % (what, least, amount))
    return amount


def payout_amount(pay, wager, meter=None):
    """Cents handed to the player for a winning `pay`: the winnings for "N to D" (the
    wager is returned besides), everything for "N for 1" and a meter share."""
    _cents(wager, "the wager")
    if pay is None or pay.kind == pt.PUSH:
        return 0
    net = st.net_for(pay, wager, meter)
    if pay.kind in (pt.FOR, pt.METER):
        return net + wager
    return net


def needs_floorperson(wager_name, pay, wager, meter=None):
    """A floorperson or above verifies the payout: its odds are at or above the
    wager's threshold "N for 1" ((o)(1)(ii)(B), (o)(2)(ii)(B), (o)(3)(ii)(B))."""
    _check_wager_name(wager_name)
    _cents(wager, "the wager", 1)
    if wager_name not in FLOORPERSON_FOR_ONE or pay is None:
        return False
    threshold = FLOORPERSON_FOR_ONE[wager_name][0]
    if pay.kind == pt.TO:                        # N to D is (N + D) / D for 1
        return pay.num + pay.den >= threshold * pay.den
    if pay.kind == pt.FOR:
        return pay.num >= threshold
    if pay.kind in (pt.METER, pt.AMOUNT):
        return payout_amount(pay, wager, meter) >= threshold * wager
    return False


def payment_source(wager_name, pay, wager, meter=None):
    """Where a winning progressive payout comes from: GAME_ACCOUNT for Bad Beat
    ((o)(1)(ii)(C)); NOT_TABLE_INVENTORY for a Hit and Run payout of 100% of the
    meter (o)(2)(ii)(C) or a Straight Jack payout of 10% or more of it (o)(3)(ii)(C)
    - then the player's cards remain on the table until the documentation is
    complete; TABLE_INVENTORY otherwise. `meter` is the jackpot amount in cents."""
    _check_wager_name(wager_name)
    if wager_name == BAD_BEAT:
        return GAME_ACCOUNT
    if wager_name not in NOT_FROM_INVENTORY_PCT or pay is None:
        return TABLE_INVENTORY
    pct, section = NOT_FROM_INVENTORY_PCT[wager_name]
    if meter is None:
        raise SettlementError("%s: where its payout is paid from depends on the progressive "
                              "meter's amount; pass the meter in cents (%s)" % (wager_name, section))
    _cents(meter, "the progressive meter")
    if payout_amount(pay, wager, meter) * 100 >= pct * meter:
        return NOT_TABLE_INVENTORY
    return TABLE_INVENTORY


def share_jackpot(wager_name, meter, winners):
    """{seat: cents} of the jackpot when more than one player at the table wins 100%
    of the meter: Bad Beat in proportion to each player's wager (o)(1)(ii)(C), Hit
    and Run and Straight Jack equally (o)(2)(ii)(C), (o)(3)(ii)(C). `winners` is
    {seat: wager cents}. Shares are rounded down; the cents left go one each to the
    winners in settlement order (the dealer's right first). A share is paid for
    the wager collected at no more bets: its net is share - wager."""
    _check_wager_name(wager_name)
    if wager_name not in JACKPOT_SHARING:
        raise SettlementError("%s has no progressive jackpot to share (633a.7(o))" % wager_name)
    how, section = JACKPOT_SHARING[wager_name]
    _cents(meter, "the progressive meter")
    if not winners:
        raise SettlementError("no winner to share the %s jackpot (%s)" % (wager_name, section))
    order = settlement_order(winners)
    out = {}
    if how == EQUAL:
        for s in order:
            out[s] = meter // len(order)
    else:
        total = 0
        for s in order:
            total += _cents(winners[s], "seat %s's wager" % (s,), 1)
        for s in order:
            out[s] = meter * winners[s] // total
    left = meter
    for s in order:
        left -= out[s]
    for s in order[:left]:
        out[s] += 1
    return out


# ---- paytables: defaults for configuration, and configured ones -----------------------

DEFAULT_SECTION = "633a.13 (configuration default)"
CONFIGURED_SECTION = "633a.13 (Rules Submission)"

_to, _for, _meter = pt.to, pt.for_one, pt.meter


def _default(wager, rows):
    return pt.Paytable(DEFAULT_SECTION, GAME, wager, rows)


DEFAULT_PAYTABLES = {
    LUCKY_LADIES: _default(LUCKY_LADIES, [
        ("queen_of_hearts_pair_dealer_blackjack", _to(1000)), ("queen_of_hearts_pair", _to(125)),
        ("matched_20", _to(19)), ("suited_20", _to(9)), ("any_20", _to(4))]),
    MATCH_THE_DEALER: _default(MATCH_THE_DEALER, [
        ("suited_match", _to(11)), ("unsuited_match", _to(4))]),
    IN_BETWEEN: _default(IN_BETWEEN, [("triple_match", _to(30)), ("spread_1", _to(10)),
                                      ("spread_2", _to(6)), ("spread_3", _to(4))]
                         + [("spread_%d" % n, _to(1)) for n in range(4, 12)]),
    ROYAL_MATCH_21: _default(ROYAL_MATCH_21, [
        ("royal_match", _to(25)), ("suited_match", _to(5, 2))]),
    BET_THE_SET_21: _default(BET_THE_SET_21, [("suited_pair", _to(25)), ("pair", _to(8))]),
    KINGS_BOUNTY: _default(KINGS_BOUNTY, [
        ("two_kings_of_spades_dealer_blackjack", _to(1000)), ("two_kings_of_spades", _to(100)),
        ("suited_kings", _to(30)), ("suited_queens_jacks_or_tens", _to(20)),
        ("suited_20", _to(9)), ("any_20", _to(4))]),
    SUPER_MATCH: _default(SUPER_MATCH, [
        ("four_of_a_kind", _to(40)), ("two_pair", _to(8)), ("three_of_a_kind", _to(5)),
        ("pair", _to(1))]),
    THREE_CARD_POKER: _default(THREE_CARD_POKER, [
        ("straight_flush", _to(40)), ("three_of_a_kind", _to(30)), ("straight", _to(10)),
        ("flush", _to(5))]),
    HOUSE_MONEY: _default(HOUSE_MONEY, [
        ("ace_king_suited", _to(25)), ("two_card_straight_flush", _to(8)), ("pair", _to(3)),
        ("two_card_straight", _to(1))]),
    STRAIGHT_JACK: _default(STRAIGHT_JACK, [
        ("six_card_straight", _meter(100)), ("five_card_straight", _meter(10)),
        ("four_card_straight", _for(100)), ("three_card_straight", _for(10)),
        ("two_card_straight", _for(2))]),
    BAD_BEAT: _default(BAD_BEAT, [("twenty_vs_blackjack", _for(50)), ("twenty_vs_21", _for(20))]),
    HIT_AND_RUN: _default(HIT_AND_RUN, [
        ("eight_or_more_cards", _meter(100)), ("seven_cards", _for(250)), ("six_cards", _for(15)),
        ("dealer_blackjack", _for(4)), ("five_cards", _for(3))]),
}


def default_paytable(wager):
    """The shipped default for `wager`: configuration, not regulation (633a.13)."""
    _check_wager_name(wager)
    return DEFAULT_PAYTABLES[wager]


def _digits(s):
    return len(s) > 0 and s.isdigit() and (s == "0" or s[0] != "0")


def _count(s):
    """A whole number written plainly or with thousands commas ('1000', '1,000'); else None."""
    if "," in s:
        groups = s.split(",")
        if not (_digits(groups[0]) and 1 <= len(groups[0]) <= 3):
            return None
        for g in groups[1:]:
            if len(g) != 3 or not g.isdigit():
                return None
        s = "".join(groups)
    elif not _digits(s):
        return None
    return int(s)


def parse_payout(text, wager="a wager", hand="a hand"):
    """A payout written "N to D" (e.g. "5 to 2"), "N for 1" or "P% of meter" (P 1..100),
    single spaces, N and D whole numbers >= 1; anything else is refused."""
    where = "paytables.%s.%s" % (wager, hand)
    hint = ('write "N to 1", "N to D", "N for 1" or "P% of meter" (' + PAYOUT_SECTION.get(
        wager, "633a.13") + ", Rules Submission)")
    if not isinstance(text, str):
        raise ConfigError("%s: a payout is a string, not %r; %s" % (where, text, hint))
    words = text.split(" ")
    if len(words) == 3:
        a, kind, b = words
        if kind == "to":
            n, d = _count(a), _count(b)
            if n is not None and d is not None and n >= 1 and d >= 1:
                return pt.to(n, d)
        elif kind == "for" and b == "1":
            n = _count(a)
            if n is not None and n >= 1:
                return pt.for_one(n)
        elif kind == "of" and b == "meter" and a.endswith("%"):
            p = _count(a[:-1])
            if p is not None and 1 <= p <= 100:
                return pt.meter(p)
    raise ConfigError("%s: %r is not a payout; %s" % (where, text, hint))


def paytable_from_config(wager, rows):
    """A Paytable for `wager` from a Rules Submission's {hand: payout text}. Every hand
    must be one the wager can produce (HANDS[wager]); rows are kept highest first; a
    hand left out loses. Refuses anything else, naming the wager and the hand."""
    if wager not in WAGERS:
        raise ConfigError("paytables.%s: not an optional wager of 633a.7; they are %s"
                          % (wager, ", ".join(WAGERS)))
    section = PAYOUT_SECTION[wager]
    if not isinstance(rows, dict) or not rows:
        raise ConfigError("paytables.%s: a paytable is a table of {hand: payout} with at least "
                          "one row, not %r (%s)" % (wager, rows, section))
    for hand in rows:
        if hand not in HANDS[wager]:
            raise ConfigError("paytables.%s: %r is not a hand of this wager; its hands are %s (%s)"
                              % (wager, hand, ", ".join(HANDS[wager]), WIN_SECTION[wager]))
    out = []
    for hand in HANDS[wager]:
        if hand in rows:
            out.append((hand, parse_payout(rows[hand], wager, hand)))
    return pt.Paytable(CONFIGURED_SECTION, GAME, wager, out)


def paytable_for(wager, config=None):
    """The paytable a table uses: its configured rows when `config` has them, else the
    default."""
    if config is None:
        return default_paytable(wager)
    return paytable_from_config(wager, config)


def progressive_meter_share(wager, codes, dealer=None, paytable=None):
    """The percent of the meter a linked blackjack progressive's hit wins with the cards it
    is sent with (link_client: Hit and Run the dealer's hand, Straight Jack the seat's first
    hand, its initial two cards then the cards drawn to it, Bad Beat the seat's 20 and
    `dealer`, the dealer's hand its condition reads), under `paytable` (the link's declared
    rows {hand: payout}, the tables' Rules Submission; the default when None), or None: what
    the link's controller checks a hit with (issue 31). A "twenty" row is the Rules
    Submission's any-20 option of (o)(1)(i)."""
    from controller.rules import cards
    from controller.rules.blackjack_side_wagers import (
        bad_beat_progressive, hit_and_run_progressive, straight_jack_progressive)
    hand = cards.parse_all(codes) if isinstance(codes, (list, tuple)) else []
    table = paytable_for(wager, paytable)
    if wager == HIT_AND_RUN:
        name = hit_and_run_progressive(hand)
    elif wager == STRAIGHT_JACK:
        name = straight_jack_progressive(hand[:2], hand[2:])
    elif wager == BAD_BEAT:
        if not isinstance(dealer, (list, tuple)):
            raise SettlementError("%s: the hit carries no dealer's hand, its condition "
                                  "((o)(1)(i))" % wager)
        name = bad_beat_progressive(hand, cards.parse_all(dealer),
                                    any_twenty=table.pay("twenty") is not None)
    else:
        raise SettlementError("%s is not a progressive of 633a.7(o)" % wager)
    pay = table.pay(name) if name else None
    return pay.num if pay is not None and pay.kind == pt.METER else None


def hit_and_run_meter_share(codes, dealer=None, paytable=None):
    """progressive_meter_share of Hit and Run (633a.7(o)(2))."""
    return progressive_meter_share(HIT_AND_RUN, codes, dealer, paytable)


def straight_jack_meter_share(codes, dealer=None, paytable=None):
    """progressive_meter_share of Straight Jack (633a.7(o)(3))."""
    return progressive_meter_share(STRAIGHT_JACK, codes, dealer, paytable)


def bad_beat_meter_share(codes, dealer=None, paytable=None):
    """progressive_meter_share of Bad Beat (633a.7(o)(1))."""
    return progressive_meter_share(BAD_BEAT, codes, dealer, paytable)
