"""Every paytable printed in the regulation texts, as data.

A payout is one of five kinds, because they settle differently:
  "N to D"        winnings of N/D times the wager, on top of the wager returned
  "N for 1"       N times the wager in all, the wager included (net N-1)
  "P% of meter"   a share of a progressive meter; the wager was collected at
                  "no more bets", so the net is the payout less the wager
  "push"          neither paid nor collected
  "$X"            a fixed sum (Envy Bonus), the wager itself not at stake
Rows run from the highest hand down; a hand missing from a table loses.
"""

from controller.errors import UnknownPaytable

TO, FOR, METER, PUSH, AMOUNT = "to", "for", "meter", "push", "amount"


class Pay:
    __slots__ = ("kind", "num", "den")

    def __init__(self, kind, num=0, den=1):
        self.kind = kind
        self.num = num
        self.den = den

    def __eq__(self, other):
        return (isinstance(other, Pay) and self.kind == other.kind
                and self.num == other.num and self.den == other.den)

    def __hash__(self):
        return hash((self.kind, self.num, self.den))

    def __repr__(self):
        return "Pay(%r)" % (self.text(),)

    def text(self):
        if self.kind == TO:
            return "%s to %d" % (_thousands(self.num), self.den)
        if self.kind == FOR:
            return "%s for 1" % _thousands(self.num)
        if self.kind == METER:
            return "%d%% of meter" % self.num
        if self.kind == PUSH:
            return "push"
        if self.kind == AMOUNT:
            return "$" + _thousands(self.num // 100) + ("" if self.num % 100 == 0 else ".%02d" % (self.num % 100))
        return self.kind


def _thousands(n):
    s = str(n)
    out = ""
    while len(s) > 3:
        out = "," + s[-3:] + out
        s = s[:-3]
    return s + out


def to(n, d=1):
    return Pay(TO, n, d)


def for_one(n):
    return Pay(FOR, n, 1)


def meter(pct):
    return Pay(METER, pct, 100)


def push():
    return Pay(PUSH)


def dollars(n):
    return Pay(AMOUNT, n * 100, 1)


class Paytable:
    """One printed table: its section, the wager it pays and, where the
    regulation offers a choice, the letter (669a.12(a), (f)) or the wager
    amount an Envy schedule belongs to."""

    __slots__ = ("section", "game", "wager", "letter", "rows", "wager_amount")

    def __init__(self, section, game, wager, rows, letter=None, wager_amount=None):
        self.section = section
        self.game = game
        self.wager = wager
        self.letter = letter
        self.rows = rows
        self.wager_amount = wager_amount

    def hands(self):
        return [h for h, _ in self.rows]

    def pay(self, hand):
        """The payout for `hand`, or None when the hand loses the wager."""
        for h, p in self.rows:
            if h == hand:
                return p
        return None

    def __repr__(self):
        tag = self.wager + ("" if self.letter is None else " " + self.letter)
        return "<Paytable %s %s %s>" % (self.section, self.game, tag)


_TABLES = []


def _add(section, game, wager, rows, letter=None, wager_amount=None):
    t = Paytable(section, game, wager, rows, letter, wager_amount)
    _TABLES.append(t)
    return t


# ---- Double Attack Blackjack, 581.12 ----------------------------------------
DAB = "double-attack-blackjack"
_add("581.12(a)", DAB, "bet", [("win", to(1))])
_add("581.12(a)", DAB, "double_attack", [("win", to(1))])
_add("581.12(b)", DAB, "insurance", [("win", to(5, 2))])
_add("581.12(c)", DAB, "bust_it", [
    ("eight_eight_eight_suited", to(200)),
    ("eight_eight_eight_same_color", to(50)),
    ("third_card_6", to(15)),
    ("third_card_7", to(10)),
    ("third_card_8", to(8)),
    ("third_card_9", to(6)),
    ("third_card_face", to(3)),
])

# ---- Flop Poker, 583.12 -----------------------------------------------------
FLOP = "flop-poker"
_add("583.12(a)", FLOP, "ante", [("win", to(1))])
_add("583.12(b)", FLOP, "flop", [
    ("royal_flush", to(1000)),
    ("straight_flush", to(500)),
    ("four_of_a_kind", to(100)),
    ("full_house", to(30)),
    ("flush", to(20)),
    ("straight", to(10)),
    ("three_of_a_kind", to(4)),
    ("two_pair", to(2)),
    ("pair_jacks_or_better", to(1)),
])
_add("583.12(c)", FLOP, "three_card_bonus", [
    ("royal", to(100)),
    ("straight_flush", to(50)),
    ("three_of_a_kind", to(25)),
    ("straight", to(6)),
    ("flush", to(3)),
    ("pair", to(1)),
])

# ---- Props & Hops, 585.4 ----------------------------------------------------
PH = "props-and-hops"
_HARDWAYS = ("two", "four", "six", "eight", "ten", "twelve")
_DIE_NAMES = ("one", "two", "three", "four", "five", "six")
for _h in _HARDWAYS:
    _add("585.4", PH, _h + "_hardway", [("win", to(30))])
for _a in range(1, 7):
    for _b in range(_a + 1, 7):
        _add("585.4", PH, _DIE_NAMES[_a - 1] + "_" + _DIE_NAMES[_b - 1], [("win", to(15))])
_add("585.4", PH, "field", [("two_or_twelve", to(2)), ("three_four_nine_ten_eleven", to(1))])
_add("585.4", PH, "any_craps", [("win", to(7))])
_add("585.4", PH, "any_seven", [("win", to(4))])
_add("585.4", PH, "any_doubles", [("win", to(4))])

# ---- Raise It Up Stud Poker, 669a.12 ----------------------------------------
RIU = "raise-it-up-stud"
_PAIR_PLUS = {
    #        SF  trips straight flush pair
    "A": (40, 30, 6, 4, 1),
    "B": (40, 25, 6, 4, 1),
    "C": (40, 30, 5, 4, 1),
    "D": (40, 30, 6, 3, 1),
}
for _letter in "ABCD":
    _sf, _tk, _st, _fl, _pr = _PAIR_PLUS[_letter]
    _add("669a.12(a)", RIU, "pair_plus", [
        ("straight_flush", to(_sf)),
        ("three_of_a_kind", to(_tk)),
        ("straight", to(_st)),
        ("flush", to(_fl)),
        ("pair", to(_pr)),
    ], letter=_letter)
_add("669a.12(b)", RIU, "ante", [("win", to(1))])
_add("669a.12(c)", RIU, "play", [
    ("royal_flush", to(100)),
    ("straight_flush", to(20)),
    ("four_of_a_kind", to(10)),
    ("full_house", to(6)),
    ("flush", to(5)),
    ("straight", to(4)),
    ("three_of_a_kind", to(3)),
    ("two_pair", to(3, 2)),
    ("pair_tens_or_better", to(1)),
])
_add("669a.12(d)", RIU, "blind", [
    ("royal_flush", to(1000)),
    ("straight_flush", to(200)),
    ("four_of_a_kind", to(30)),
    ("full_house", to(4)),
    ("flush", to(3)),
    ("straight", to(2)),
    ("three_of_a_kind", to(1)),
    ("two_pair", push()),
    ("pair_tens_or_better", push()),
])
_add("669a.12(e)(1)", RIU, "progressive", [
    ("ace_king_queen_of_spades", meter(100)),
    ("ace_king_queen_suited", for_one(500)),
    ("straight_flush", for_one(70)),
    ("three_of_a_kind", for_one(60)),
    ("straight", for_one(6)),
])
_add("669a.12(e)(5)", RIU, "envy", [
    ("ace_king_queen_of_spades", dollars(100)),
    ("ace_king_queen_suited", dollars(25)),
], wager_amount=100)
_add("669a.12(e)(5)", RIU, "envy", [
    ("ace_king_queen_of_spades", dollars(500)),
    ("ace_king_queen_suited", dollars(125)),
], wager_amount=500)
_SIX_CARD = {
    #     royal  SF  quads FH flush straight trips
    "A": (1000, 200, 50, 25, 20, 10, 5),
    "B": (1000, 200, 50, 25, 15, 10, 5),
    "C": (1000, 200, 100, 20, 15, 9, 8),
    "D": (1000, 200, 100, 20, 15, 10, 7),
}
for _letter in "ABCD":
    _v = _SIX_CARD[_letter]
    _add("669a.12(f)", RIU, "six_card_bonus", [
        ("royal_flush", to(_v[0])),
        ("straight_flush", to(_v[1])),
        ("four_of_a_kind", to(_v[2])),
        ("full_house", to(_v[3])),
        ("flush", to(_v[4])),
        ("straight", to(_v[5])),
        ("three_of_a_kind", to(_v[6])),
    ], letter=_letter)

# ---- Six-Card Fortune Pai Gow Poker, 670a.12 --------------------------------
SCF = "six-card-fortune-pai-gow"
_add("670a.12(a)", SCF, "six_card_fortune", [("win", to(1))])
_add("670a.12(a)", SCF, "double_down", [("win", to(1))])
_add("670a.12(b)(1)", SCF, "fortune_bonus", [
    ("five_aces", to(1000)),
    ("royal_flush", to(250)),
    ("straight_flush", to(100)),
    ("four_of_a_kind", to(50)),
    ("full_house", to(15)),
    ("flush", to(10)),
    ("straight", to(8)),
    ("three_of_a_kind", to(5)),
])
_add("670a.12(b)(2)", SCF, "fortune_bonus_envy", [
    ("five_aces", dollars(1000)),
    ("royal_flush", dollars(200)),
    ("straight_flush", dollars(50)),
    ("four_of_a_kind", dollars(15)),
    ("full_house", dollars(5)),
], wager_amount=100)
_add("670a.12(b)(2)", SCF, "fortune_bonus_envy", [
    ("five_aces", dollars(5000)),
    ("royal_flush", dollars(1000)),
    ("straight_flush", dollars(250)),
    ("four_of_a_kind", dollars(75)),
    ("full_house", dollars(25)),
], wager_amount=500)
_add("670a.12(c)", SCF, "insurance", [
    ("eight_high", to(100)),
    ("nine_high", to(30)),
    ("ten_high", to(10)),
    ("jack_high", to(7)),
    ("queen_high", to(4)),
    ("king_high", to(3)),
])
_add("670a.12(d)(1)", SCF, "progressive", [
    ("five_aces", meter(100)),
    ("royal_flush", meter(10)),
    ("straight_flush", for_one(300)),
    ("four_of_a_kind", for_one(150)),
    ("full_house", for_one(15)),
    ("flush", for_one(6)),
    ("straight", for_one(3)),
])
_add("670a.12(d)(4)", SCF, "progressive_envy", [
    ("five_aces", dollars(100)),
    ("royal_flush", dollars(50)),
    ("straight_flush", dollars(10)),
    ("four_of_a_kind", dollars(5)),
], wager_amount=100)
_add("670a.12(d)(4)", SCF, "progressive_envy", [
    ("five_aces", dollars(500)),
    ("royal_flush", dollars(250)),
    ("straight_flush", dollars(50)),
    ("four_of_a_kind", dollars(25)),
], wager_amount=500)

# Minimums the texts put on progressive meters, in cents (base and reset;
# rate of progression as a fraction num/den).
PROGRESSIVE_MINIMUMS = {
    RIU: {"section": "669a.12(e)(3)", "reset": 100000, "rate": (14, 100)},
    SCF: {"section": "670a.12(d)(2)", "reset": 500000, "rate": None},
}


def all_tables():
    return list(_TABLES)


def letters(game, wager):
    """The paytable letters the regulation offers for a wager ([] when there is no choice)."""
    return [t.letter for t in _TABLES if t.game == game and t.wager == wager and t.letter]


def get(game, wager, letter=None):
    """The paytable of a wager; `letter` is required exactly where the text offers a choice."""
    found = [t for t in _TABLES if t.game == game and t.wager == wager and t.wager_amount is None]
    if not found:
        raise UnknownPaytable("no paytable for wager %r of %s" % (wager, game))
    choices = [t.letter for t in found if t.letter]
    if choices:
        for t in found:
            if t.letter == letter:
                return t
        raise UnknownPaytable("paytable %r does not exist for %s %s; the Rules Submission "
                              "chooses one of %s (%s)" % (letter, game, wager,
                                                          ", ".join(choices), found[0].section))
    if letter is not None:
        raise UnknownPaytable("%s %s has one paytable (%s); no letter %r"
                              % (game, wager, found[0].section, letter))
    return found[0]


def envy_schedules(game, wager):
    """The Envy Bonus schedules for a wager, by the wager amount (cents) they are printed for."""
    out = {}
    for t in _TABLES:
        if t.game == game and t.wager == wager and t.wager_amount is not None:
            out[t.wager_amount] = t
    if not out:
        raise UnknownPaytable("no Envy Bonus schedule %r for %s" % (wager, game))
    return out
