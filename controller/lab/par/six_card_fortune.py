"""Par of Six-Card Fortune Pai Gow Poker (ch. 670a).

The side wagers are settled on the best five of the player's six cards, dealt
from one 53-card deck (670a.3(a)): C(53, 6) = 22,957,480 hands. Visiting them
is too slow in Python, so they are counted by class. Without the joker a hand
is a rank multiset of six cards (prod C(4, m_r) hands each) and only the suit
patterns that put five cards in one suit change its value; with the joker it
is the joker plus a rank multiset of five, where four cards in one suit
already make a flush. Each class is valued once, on a representative hand,
by the rules core's own evaluator, so the counts are of the rules as played.
"""

from fractions import Fraction
from math import comb

from controller.lab.par import six_card_fortune_house_way as HW
from controller.lab.par.sheet import StrategyDependent, StrategyPar, from_paytable
from controller.rules import cards as C
from controller.rules import paigow
from controller.rules import paytables as pt

GAME = pt.SCF
ALL_RANKS = tuple(range(13))
SUITS = 4


def _multisets(ranks, size, most):
    """Rank multisets of `size` cards over `ranks`, each rank at most `most` times,
    as lists of (rank, multiplicity)."""
    out = []

    def grow(i, left, acc):
        if left == 0:
            out.append(list(acc))
            return
        if i == len(ranks):
            return
        for m in range(min(left, most), -1, -1):
            if m:
                acc.append((ranks[i], m))
            grow(i + 1, left - m, acc)
            if m:
                acc.pop()

    grow(0, size, [])
    return out


def _spread(multiset, suits):
    """A hand of the multiset with at most ceil(n / suits) cards in any suit."""
    hand = []
    s = 0
    for r, m in multiset:
        for k in range(m):
            hand.append(C.make(r, (s + k) % suits))
        s += m
    return hand


def _suit_classes(multiset, suits, flush_size):
    """(representative hand, number of suit assignments) for each class of this
    rank multiset whose value differs: every way to put `flush_size` or more
    cards in one suit, then all the rest together."""
    total = 1
    for _, m in multiset:
        total *= comb(suits, m)
    singles = [r for r, m in multiset if m == 1]
    pairs = [r for r, m in multiset if m == 2]
    distinct = len(multiset)
    out = []
    n = sum(m for _, m in multiset)
    if distinct == n and n >= flush_size:
        # All ranks distinct: all in one suit, or exactly one card off-suit
        # (n = flush_size + 1 only, which is the case for six naturals or joker + five).
        out.append(([C.make(r, 0) for r in singles], suits))
        if n == flush_size + 1:
            for off in singles:
                out.append(([C.make(r, 1 if r == off else 0) for r in singles],
                            suits * (suits - 1)))
    elif distinct == n - 1 and distinct >= flush_size and len(pairs) == 1:
        # One pair: one card of it joins the other ranks' suit, the other sits elsewhere.
        p = pairs[0]
        hand = [C.make(r, 0) for r in singles] + [C.make(p, 0), C.make(p, 1)]
        out.append((hand, suits * (suits - 1)))
    rest = total - sum(k for _, k in out)
    if rest:
        out.append((_spread(multiset, suits), rest))
    return out


def best_hand_counts(ranks=ALL_RANKS, suits=SUITS, joker=True):
    """{hand name: number of six-card hands} over a deck of `ranks` x `suits` (plus
    the joker): the full 53-card deck by default, a reduced one for checking."""
    if suits < 2:
        raise ValueError("counting needs at least two suits")
    ranks = tuple(ranks)
    counts = {}

    def add(hand, k):
        name = paigow.hand_name(paigow.best_value(hand))
        counts[name] = counts.get(name, 0) + k

    for ms in _multisets(ranks, 6, suits):
        for hand, k in _suit_classes(ms, suits, 5):
            add(hand, k)
    if joker:
        for ms in _multisets(ranks, 5, suits):
            for hand, k in _suit_classes(ms, suits, 4):
                add(hand + [C.JOKER], k)
    return counts


def combinations(ranks=ALL_RANKS, suits=SUITS, joker=True):
    return comb(len(ranks) * suits + (1 if joker else 0), 6)


def _counts_for(table, counts):
    return {h: counts.get(h, 0) for h in table.hands()}


def envy_expectations(counts=None):
    """Expected Envy Bonus in cents, per other player at the table, for a $1 and a $5
    Qualifying Wager: {(wager, amount): Fraction}. Another player's six cards are,
    unconditionally, a uniform six-card hand, so this is exact by linearity."""
    if counts is None:
        counts = best_hand_counts()
    total = combinations()
    out = {}
    for wager in ("fortune_bonus_envy", "progressive_envy"):
        for amount, table in pt.envy_schedules(GAME, wager).items():
            cents = sum(counts.get(h, 0) * p.num for h, p in table.rows)
            out[(wager, amount)] = Fraction(cents, total)
    return out


def _double_down():
    """The Double Down priced as the readings table prices it (scf-double-down-returned):
    placed on every hand, the player setting as the dealer must, recorded from the house
    way's own shuffles (six_card_fortune_house_way.DD_RECORDED_HOLD)."""
    est = HW.double_down_estimate()
    sheet = StrategyPar(GAME, "670a.12(a)", "house_way",
                        "simulation: %d shuffles of the 53-card deck (random.Random seed %d), "
                        "eight hands a shuffle each set by the dealer's house way (670a.11(d)), "
                        "every ordered pair of them settled as player and dealer: returned "
                        "unless the dealer's six cards hold a pair of eights or better "
                        "(670a.11(g)), else won or lost with the Six-Card Fortune Wager; "
                        "%d rounds; 95%% confidence interval over shuffles"
                        % (est["shuffles"], est["seed"], est["rounds"]),
                        ("double_down",), estimate=est, unit="double_down",
                        note="per unit of the Double Down, placed on every hand (the player "
                             "chooses after seeing his cards, 670a.11(c): a player who "
                             "places it selectively holds otherwise); the readings table's "
                             "scf-double-down-returned on the sheet's shuffles")
    sheet.wager = "double_down"
    return sheet


def sheets():
    counts = best_hand_counts()
    total = combinations()
    envy = envy_expectations(counts)
    fb_note = ("Envy Bonus (670a.12(b)(2)) paid per other player's qualifying hand: "
               "%.4f cents expected per other player on a $1 wager, %.4f on $5"
               % (envy[("fortune_bonus_envy", 100)], envy[("fortune_bonus_envy", 500)]))
    pp_note = ("Envy Bonus (670a.12(d)(4)) paid per other player's qualifying hand: "
               "%.4f cents expected per other player on a $1 wager, %.4f on $5"
               % (envy[("progressive_envy", 100)], envy[("progressive_envy", 500)]))
    est = HW.sheet_estimate()
    out = [
        StrategyPar(GAME, "670a.12(a)", "house_way",
                    "simulation: %d shuffles of the 53-card deck (random.Random seed %d), "
                    "eight hands a shuffle each set by the dealer's house way (670a.11(d)), "
                    "every ordered pair of them settled as player and dealer (670a.11(f)): "
                    "%d rounds; 95%% confidence interval over shuffles"
                    % (est["shuffles"], est["seed"], est["rounds"]),
                    ("six_card_fortune",), estimate=est, unit="six_card_fortune",
                    note="per unit of the Six-Card Fortune Pai Gow Poker Wager, the player "
                         "setting his hands as the dealer must; paid 1 to 1, no commission"),
        StrategyDependent(GAME, "six_card_fortune", "670a.12(a)",
                          "the player sets his own high and low hands (670a.11(b)); priced "
                          "under the house way as base_game"),
        _double_down(),
    ]
    for wager, note in (("fortune_bonus", fb_note), ("insurance", None), ("progressive", pp_note)):
        table = pt.get(GAME, wager)
        out.append(from_paytable(table, _counts_for(table, counts), total, note=note))
    return out
