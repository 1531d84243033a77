"""Par sheets of Blackjack (633a.7) as the table configures it.

Why here and not in a paytable file: 633a.7 sends every payout to 633a.13, which is not in our
texts, so a Blackjack table's hold exists only once its Rules Submission's options and
paytables are configured. Each sheet is computed from the configuration given
(`tablectl par blackjack --config TABLE.toml`; without one, the shipped defaults).

  * The Blackjack Wager: the house edge under basic strategy for the configured decks and
    options (controller/lab/par/blackjack_strategy.py, which states the method).
  * The optional wagers of 633a.7(g) and (o) decided by the initial cards (the player's two,
    the up card, the hole card where the wager waits for the card reader): exact counts of
    ordered draws over the configured shoe, cards without replacement, each deal decided by
    the rules core (controller/rules/blackjack_side_wagers.py), so the sheet and the table
    settle alike. The other players' cards are unseen and do not change the distribution.
  * Hit and Run Progressive: the dealer's hand, exact over the shoe, the dealer drawing to 17
    (633a.7(m)); the players' cards and draws sum out; a Hit and Run Wager keeps him drawing
    ((n)).
  * Straight Jack and Bad Beat count the cards the player draws: priced with the player playing
    the basic strategy chart over the shoe his draws deplete, Straight Jack exactly
    (straight_jack_probabilities), Bad Beat as controller/lab/par/blackjack_bad_beat.py states.
  Meter-share rows are priced as elsewhere (controller/lab/par/sheet.py): the fixed part with the
  wager lost on a meter hit, plus `meter_share`, the expected fraction of the meter per unit.
"""

from fractions import Fraction

from controller.errors import RulesError
from controller.lab.par import blackjack_bad_beat as bad_beat
from controller.lab.par import blackjack_exact
from controller.lab.par import blackjack_optimal
from controller.lab.par import blackjack_simulated
from controller.lab.par import blackjack_strategy as strategy
from controller.lab.par.counting import classes as shoe_classes
from controller.lab.par.sheet import LOSES
from controller.rules import blackjack as bj
from controller.rules import blackjack_side_payouts as side_payouts
from controller.rules import blackjack_side_wagers as W
from controller.rules import cards
from controller.rules import paytables as pt

GAME = "blackjack"


class BaseGamePar:
    """The house edge of a blackjack game's base wager under basic strategy."""

    def __init__(self, game, wager, section, rules, note):
        self.game = game
        self.wager = "base_game"
        self.wagers = wager         # the wagers the figure covers together
        self.section = section
        self.rules = rules
        self.chart, self.edge = strategy.solve(rules)
        # the printed chart played with every card seen removed (issue 36)
        self.exact = blackjack_exact.solved(rules)
        self._corrected = None
        self._spread = None
        self.note = note

    def house_edge(self):
        return self.exact.house_edge()

    def corrected(self):
        """Beside the chart's hold: the optimal total-dependent strategy for the same rules
        (blackjack_optimal: every cell, pairs and split hands included, changed where another
        action wins with every card seen removed, until no cell's change wins; recorded for
        the default rules), the cells where the printed chart loses to it, and its hold, which
        is the hold of the chart with those cells corrected."""
        if self._corrected is not None:
            return dict(self._corrected)          # to_json is asked more than once
        changes = blackjack_optimal.recorded(self.rules)
        if changes is None:
            self._corrected = {"chart_cells_losing": "not computed for this configuration "
                                                     "(blackjack_optimal.optimise, about a "
                                                     "minute of CPU)"}
            return dict(self._corrected)
        best = blackjack_optimal.solved(self.rules)
        figure = round(best.house_edge(), 7)
        self._corrected = {"chart_cells_losing": [blackjack_optimal.cell_words(self.rules, u,
                                                                               k, o, a)
                                                  for u, k, o, a, _ in changes],
                           "house_edge_corrected_chart": figure,
                           "house_edge_optimal_total_dependent": figure,
                           "optimal_total_dependent": blackjack_optimal.CLAIM}
        return dict(self._corrected)

    def simulated_spread(self):
        """The round's standard deviation and hit frequency per unit of the Bet, simulated
        (blackjack_simulated: the exact method sums expectations and has no distribution)."""
        if self._spread is None:
            self._spread = blackjack_simulated.figures(self.rules, self.chart,
                                                       self.edge.double_attack)
        return self._spread

    def precision(self):
        """What the figure's method gives, said with its figures: every round exact over
        the shoe, split rounds included (their share of the deals and of the figure printed,
        with the first-two-cards figure beside it)."""
        return ("exact over the shoe for every round (the player's and the dealer's draws "
                "with every card seen removed, the split rounds hand by hand, "
                "blackjack_exact.SplitHands; floating point, about 1e-12); the split rounds "
                "are %.4f%% of the deals and %+.4f%% of the Bet in the figure; the "
                "first-two-cards figure for the whole game is %.4f%%"
                % (100 * self.exact.split_share, 100 * self.exact.split_part,
                   100 * self.edge.house_edge()))

    def to_json(self):
        out = {"wager": "base_game", "wagers": self.wagers, "section": self.section,
               "strategy": "basic", "house_edge": round(self.house_edge(), 7),
               "house_edge_first_two_cards": round(self.edge.house_edge(), 7),
               "method": METHOD, "precision": self.precision()}
        out.update(self.corrected())
        if self.rules.double_attack:
            out["double_attack_on"] = [strategy.chart_label(u) for u in strategy.VALUES
                                       if self.edge.double_attack[u]]
        if self.note:
            out["note"] = self.note
        return out


METHOD = ("a total-dependent basic strategy chart (hard, soft, pairs per up card) chosen on the "
          "shoe less the up card, the one `tablectl strategy` prints, played card by card: for "
          "each up card and two-card hand the player's draws from the shoe as every card he "
          "drew left it, the dealer's outcome from the shoe less all the player's cards, the "
          "hole card (unseen) priced as the card after the player's draws and conditioned "
          "jointly on the card reader's no-Blackjack where it peeks "
          "(controller/lab/par/blackjack_exact.py); a split round priced hand by hand, each "
          "split hand's draws and the dealer's from the shoe the resplit cards, that hand's "
          "cards and the other hands' kept second cards leave, which is exact for a chart "
          "that decides on the hand's own total (blackjack_exact.SplitHands); one player at "
          "the table")


def base_game(options=None):
    rules = strategy.blackjack_rules(options)
    return BaseGamePar(GAME, ["blackjack", "double_down"], "633a.7(p), (q)", rules,
                       "%d decks, Blackjack pays %s, late surrender %s, double on %s%s, "
                       "split to %d hands; the dealer stands on all 17s (633a.7(m))"
                       % (rules.decks, _ratio(rules.blackjack_pays),
                          "yes" if rules.surrender == "late" else "no",
                          "any two cards" if rules.double_totals is None else
                          "/".join(map(str, rules.double_totals)),
                          ", after a split" if rules.double_after_split else "",
                          rules.split_hands))


def _ratio(f):
    return "%d to %d" % (f.numerator, f.denominator)


# ---- the optional wagers decided by the initial cards ------------------------------------

class SidePar:
    """An exact sheet whose combinations may pay more than one row (Match-the-Dealer pays
    each matching card, Royal Match 21 its Crown Treasure Bonus on top): each outcome is the
    set of rows paid. JSON in the shape of sheet.WagerPar's."""

    def __init__(self, wager, table, counts, combinations, note):
        self.game = GAME
        self.wager = wager
        self.section = table.section
        self.paytable = None
        self.table = table
        self.counts = counts            # {tuple of hands paid (() loses): ordered draws}
        self.combinations = combinations
        self.note = note
        self.method = ("exact: ordered draws of the cards the wager reads, from the configured "
                       "shoe without replacement")
        self.precision = None
        if sum(counts.values()) != combinations:
            raise AssertionError("%s: outcome counts add to %d, not %d"
                                 % (wager, sum(counts.values()), combinations))

    def _net(self, hands):
        pays = [self.table.pay(h) for h in hands if self.table.pay(h) is not None]
        if not pays:
            return Fraction(-1), Fraction(0)
        net, share = Fraction(0), Fraction(0)
        for p in pays:
            if p.kind == pt.METER:
                net += -1
                share += Fraction(p.num, 100)
            elif p.kind == pt.TO:
                net += Fraction(p.num, p.den)
            elif p.kind == pt.FOR:
                net += p.num - 1
        return net, share

    def house_edge(self):
        total = sum((self._net(h)[0] * n for h, n in self.counts.items()), Fraction(0))
        return -total / self.combinations

    def meter_share(self):
        total = sum((self._net(h)[1] * n for h, n in self.counts.items()), Fraction(0))
        return total / self.combinations

    def outcomes(self):
        rows = []
        order = [h for h, _ in self.table.rows]
        for hands, n in self.counts.items():
            paid = tuple(sorted((h for h in hands if self.table.pay(h) is not None),
                                key=order.index))
            rows.append((paid, n))
        merged = {}
        for paid, n in rows:
            merged[paid] = merged.get(paid, 0) + n
        key = lambda item: ([order.index(h) for h in item[0]] or [len(order)])  # noqa: E731
        return sorted(merged.items(), key=key)

    def to_json(self):
        edge = self.house_edge()
        out = {"wager": self.wager, "paytable": self.paytable, "section": self.section,
               "house_edge": round(float(edge), 7),
               "house_edge_exact": "%d/%d" % (edge.numerator, edge.denominator),
               "combinations": self.combinations,
               "outcomes": [{"hand": " + ".join(paid) if paid else LOSES, "count": n,
                             "pays": " + ".join(self.table.pay(h).text() for h in paid)
                             if paid else LOSES} for paid, n in self.outcomes()]}
        share = self.meter_share()
        if share:
            out["meter_share"] = float(share)
            out["meter_share_exact"] = "%d/%d" % (share.numerator, share.denominator)
        out["method"] = self.method
        if self.precision:
            out["precision"] = self.precision
        if self.note:
            out["note"] = self.note
        return out


def _classes(decks):
    return [(c, decks) for c in cards.standard_deck()]


def _hands(outcome):
    return tuple(W.outcome_hands(outcome))


# wager -> (cards it looks at: "p" the player's two, "pu" with the up card; a function of
# (player, up, hole) where hole is None until the wager asks for it)
def _lucky_ladies(player, up, hole):
    dbj = None if hole is None else bj.is_blackjack([up, hole])
    return W.lucky_ladies(player, up, dbj)


def _kings_bounty(player, up, hole):
    dbj = None if hole is None else bj.is_blackjack([up, hole])
    return W.kings_bounty(player, up, dbj)


DECIDED_BY = {
    W.LUCKY_LADIES: ("pu", _lucky_ladies),
    W.MATCH_THE_DEALER: ("pu", lambda p, u, h: W.match_the_dealer(p, u)),
    W.IN_BETWEEN: ("pu", lambda p, u, h: W.in_between(p, u)),
    W.ROYAL_MATCH_21: ("pu", lambda p, u, h: W.royal_match_21(p, u, h)),
    W.BET_THE_SET_21: ("p", lambda p, u, h: W.bet_the_set_21(p)),
    W.KINGS_BOUNTY: ("pu", _kings_bounty),
    W.THREE_CARD_POKER: ("pu", lambda p, u, h: W.three_card_poker(p, u)),
    W.HOUSE_MONEY: ("p", lambda p, u, h: W.house_money(p)),
}


def initial_cards_counts(wager, decks, shoe=None):
    """({hands paid: ordered draws}, all ordered draws) over the player's two cards, the up
    card and, where the rules core asks for it, the hole card, from `decks` standard decks
    or from `shoe` (a list of cards, repeats allowed: the tests' reduced multi-deck shoes,
    brute-forced card by card in tests/par/test_par_multideck.py)."""
    looks, decide = DECIDED_BY[wager]
    cls = _classes(decks) if shoe is None else shoe_classes(shoe)
    n = sum(m for _, m in cls)
    counts = {}

    def add(hands, ways):
        counts[hands] = counts.get(hands, 0) + ways
    for i, (a, na) in enumerate(cls):
        for j, (b, nb) in enumerate(cls):
            two = na * (nb - (i == j))
            if two <= 0:
                continue
            if looks == "p":
                add(_hands(decide([a, b], None, None)), two * (n - 2) * (n - 3))
                continue
            for k, (u, nu) in enumerate(cls):
                three = two * (nu - (k == i) - (k == j))
                if three <= 0:
                    continue
                try:
                    add(_hands(decide([a, b], u, None)), three * (n - 3))
                    continue
                except RulesError:
                    pass                    # it waits for the hole card
                for m, (h, nh) in enumerate(cls):
                    left = nh - (m == i) - (m == j) - (m == k)
                    if left > 0:
                        add(_hands(decide([a, b], u, h)), three * left)
    return counts, n * (n - 1) * (n - 2) * (n - 3)


def _draws(counts, kinds, left):
    """Each kind of card the shoe (`counts`, `left` cards in all) still holds, with the exact
    chance of drawing it next; while the caller walks on from that card the shoe is without it
    (restored before the next). One dealing loop for the draws of every sheet here."""
    for k in kinds:
        c = counts[k]
        if c:
            counts[k] = c - 1
            yield k, Fraction(c, left)
            counts[k] = c


def hit_and_run_counts(decks, shoe=None):
    """{hands paid: probability as a Fraction}: the dealer's hand drawn to 17 from the shoe
    by value class (`shoe`: 11 counts by value; default `decks` standard decks), a Blackjack
    counted (it ends the round at the reader, (h)).

    Exact with the players' cards and draws in the shoe too: for cards drawn without
    replacement a deal's chance depends only on which cards go to which role, and each
    party's stopping rule reads only its own cards, so the dealer's cards may be priced as
    drawn before everyone else's; the players' draws then sum to one. A Hit and Run Wager
    keeps the dealer drawing to 17 even when every hand has busted ((n)), so his hand is
    always complete. tests/par/test_par_blackjack_exact.py checks it against a deal-out in
    table order with the player drawing by the chart."""
    if shoe is None:
        counts = [0] * 11
        for v in range(1, 10):
            counts[v] = 4 * decks
        counts[10] = 16 * decks
    else:
        counts = list(shoe)
    n0 = sum(counts)
    out = {}

    def draw(values, n, p):
        total, soft = strategy.hand_state(values)
        if len(values) == 2 and total == 21:
            key = ("dealer_blackjack",)
        elif len(values) >= 2 and total >= strategy.STAND_ALL_17:
            k = len(values)
            key = () if k < 5 else (("eight_or_more_cards",) if k >= 8 else
                                    ("%s_cards" % ("five", "six", "seven")[k - 5],))
        else:
            for v, chance in _draws(counts, strategy.VALUES, n):
                draw(values + [v], n - 1, p * chance)
            return
        out[key] = out.get(key, 0) + p
    draw([], n0, Fraction(1))
    return out


class ProbabilityPar(SidePar):
    """A SidePar whose outcomes are exact probabilities, not counts."""

    def __init__(self, wager, table, probabilities, note):
        denominator = 1
        for p in probabilities.values():
            denominator = denominator * p.denominator // _gcd(denominator, p.denominator)
        counts = {h: int(p * denominator) for h, p in probabilities.items()}
        super().__init__(wager, table, counts, denominator, note)


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def _rank_card(r):
    return cards.make(r, 0)             # the Straight Jack reads ranks and totals only


def _value(r):
    return 1 if r == cards.ACE else min(r + 2, 10)


def straight_jack_probabilities(options=None, rank_counts=None, chart=None):
    """{hands paid: exact probability} of Straight Jack with the player playing the Blackjack
    Wager by the basic strategy chart (controller/lab/par/blackjack_strategy.py): over the ranks
    of his two cards and the up card, a dealer Blackjack ending the round at the reader, then
    each card he draws while the chart says hit (one after a double; none after a split, a
    surrender or a stand) from the shoe less those three cards, until the straight breaks
    (633a.7(o)(3)(i)).

    Exact over the shoe: the player's draws come from the shoe his own cards deplete, and
    the reader's no-Blackjack is priced jointly with them: the unseen hole card, dealt
    before his draws, is priced as the card after them (for draws without replacement a
    deal's chance depends only on which card goes to which role), so each line of his
    draws is weighted by the chance that the next card would not have given the dealer a
    Blackjack. `rank_counts` (13 counts by rank, deuce first) and `chart` price another
    shoe (the tests' reduced shoes) with a given chart."""
    rules = strategy.blackjack_rules(options)
    if chart is None:
        chart, _ = strategy.solve(rules)
    if rank_counts is None:
        rank_counts = [4 * rules.decks] * 13
    out = {}
    dummy = dict.fromkeys((17, 18, 19, 20, 21, strategy.BUST), 0.0)
    ten_ranks = [r for r in range(13) if _value(r) == 10]

    def add(key, p):
        out[key] = out.get(key, 0) + p

    for a in range(13):
        for b in range(13):
            two = [_rank_card(a), _rank_card(b)]
            for u in range(13):
                counts = list(rank_counts)
                p = Fraction(1)
                for r in (a, b, u):
                    if counts[r] == 0:
                        p = 0
                        break
                    p *= Fraction(counts[r], sum(counts))
                    counts[r] -= 1
                if not p:
                    continue
                if not W.is_two_card_straight(two):
                    add((), p)
                    continue
                up = _value(u)
                left = sum(counts)
                p_bj = Fraction(0)
                need = []
                if up in rules.peek_ups:
                    need = [cards.ACE] if up == 10 else ten_ranks
                    p_bj = Fraction(sum(counts[r] for r in need), left)
                add(("two_card_straight",), p * p_bj)
                hand = strategy.Hand(rules, [0.0] * 11, dummy, chart=chart[up])
                pair = _value(a) == _value(b)
                total, soft = strategy.hand_state([_value(a), _value(b)])
                first = hand.charted(total, soft, True, False) if total < 21 else strategy.STAND
                if pair and chart[up].get(("pair", _value(a))) == strategy.SPLIT:
                    first = strategy.SPLIT

                def walk(drawn, counts, left, q, act):
                    length = W.straight_jack_length(two, drawn)
                    hand_values = [_value(a), _value(b)] + [_value(cards.rank(c)) for c in drawn]
                    total, soft = strategy.hand_state(hand_values)
                    broken = length < 2 + len(drawn)
                    if total >= 21 or drawn and (broken or act == strategy.DOUBLE):
                        add((W.straight_jack_progressive(two, drawn),), q * no_bj(counts, left))
                        return
                    if drawn:
                        act = hand.charted(total, soft, False, False)
                    if act not in (strategy.HIT, strategy.DOUBLE):
                        add((W.straight_jack_progressive(two, drawn),), q * no_bj(counts, left))
                        return
                    for r, chance in _draws(counts, range(13), left):
                        walk(drawn + [_rank_card(r)], counts, left - 1, q * chance, act)
                def no_bj(counts, left, need=need):
                    """The hole card, priced after the draws: not a Blackjack's."""
                    return Fraction(left - sum(counts[r] for r in need), left) if need else 1
                if first == strategy.SPLIT:
                    add(("two_card_straight",), p * (1 - p_bj))
                else:
                    walk([], counts, left, p, first)
    return out


def bad_beat_probabilities(options=None, any_twenty=False, most_tracked=None, pairing=None):
    """{hands paid: exact probability} of Bad Beat (633a.7(o)(1)(i)) with the player playing
    the basic strategy chart, over the configured shoe (controller/lab/par/blackjack_bad_beat.py
    states the method). `most_tracked`: None (the sheet's) every inclusion-exclusion term of
    the split rounds; a number takes them to sets of that many hands (2: pairs of hands, the
    sheet's method before every term fit the 30 s of `tablectl par --all`; bench/par.py
    compares them)."""
    rules = strategy.blackjack_rules(options)
    chart, _ = strategy.solve(rules)
    return bad_beat.probabilities(rules, chart, any_twenty=any_twenty,
                                  most_tracked=most_tracked, pairing=pairing)


def bad_beat_first_two_cards(options=None, any_twenty=False):
    """The former approximation, kept to compare with (bench/par.py prints both): Bad Beat
    by the base game's method (blackjack_strategy.py): for each up card and
    two-card hand, a dealer Blackjack at the reader against the initial 20; else the chance the
    charted hand ends on 20 (not surrendered) times the dealer's exact chance of 21, the
    player's draws from the shoe less those three cards. A split pair counts its first two
    hands, each played by the chart, as independent (a resplit third or fourth hand left
    out). Floating point, not exact fractions."""
    rules = strategy.blackjack_rules(options)
    chart, _ = strategy.solve(rules)
    shoe = rules.shoe()
    n = sum(shoe)
    V = strategy.VALUES
    out = {"twenty_vs_blackjack": 0.0, "twenty_vs_21": 0.0, "twenty": 0.0}
    for up in V:
        p_up = shoe[up] / n
        after_up = strategy._without(shoe, up)
        for a, b in strategy._pairs():
            pp = strategy._pair_probability(after_up, a, b)
            if not pp:
                continue
            counts = strategy._without(after_up, a, b)
            initial_twenty = strategy.hand_state([a, b])[0] == 20
            p_dbj = 0.0
            if up in rules.peek_ups:
                p_dbj = counts[strategy.TEN if up == strategy.ACE else strategy.ACE] / sum(counts)
            if initial_twenty:
                out["twenty_vs_blackjack"] += p_up * pp * p_dbj
            if {a, b} == {strategy.ACE, strategy.TEN}:
                continue                    # a Blackjack is not 20
            dealer = strategy.dealer_outcomes(counts, up, rules.peek_ups)
            p = strategy.draw_probabilities(counts, up, rules.peek_ups)
            hand = strategy.Hand(rules, p, dealer, chart=chart[up])
            q = _ends_on_twenty(hand, a, b, chart[up])
            w = p_up * pp * (1 - p_dbj) * q
            out["twenty_vs_21"] += w * dealer[21]
            out["twenty"] += w * (1 - dealer[21])
    if not any_twenty:
        out.pop("twenty")
    paid = {(k,): Fraction(v).limit_denominator(10 ** 15) for k, v in out.items()}
    paid[()] = 1 - sum(paid.values())
    return paid


def _ends_on_twenty(hand, a, b, chart_up):
    """The chance a hand a, b played by the chart ends on 20 and is not surrendered."""
    memo = {}

    def twenty(total, soft, two_cards=False, split=False):
        if total >= 21:
            return 0.0
        key = (total, soft, two_cards, split)
        if key in memo:
            return memo[key]
        choice = hand.charted(total, soft, two_cards, split)
        if choice == strategy.STAND:
            v = 1.0 if total == 20 else 0.0
        elif choice == strategy.SURRENDER:
            v = 0.0
        elif choice == strategy.DOUBLE:
            v = sum(hand.p[c] for c in strategy.VALUES
                    if strategy._add(total, soft, c)[0] == 20)
        else:
            v = sum(hand.p[c] * twenty(*strategy._add(total, soft, c), split=split)
                    for c in strategy.VALUES)
        memo[key] = v
        return v

    if a == b and chart_up.get(("pair", a)) == strategy.SPLIT:
        if a == strategy.ACE:
            one = hand.p[9]                  # a split ace stands on the card it gets
        else:
            one = sum(hand.p[c] * twenty(*strategy.hand_state([a, c]), two_cards=True,
                                         split=True) for c in strategy.VALUES)
        return 1 - (1 - one) ** 2
    return twenty(*strategy.hand_state([a, b]), two_cards=True)



def side_sheets(config=None):
    """Every optional wager the table offers, on its configured paytable."""
    from controller.games.blackjack.model import Blackjack
    config = config or Blackjack.DEFAULTS
    options = dict(Blackjack.DEFAULTS["options"])
    options.update(config.get("options", {}))
    offered = config.get("offered", Blackjack.DEFAULTS["offered"])
    decks = options["decks"]
    out = []
    for wager in W.WAGERS:
        if wager == W.SUPER_MATCH or not offered.get(wager):
            continue
        table = side_payouts.paytable_for(wager, options["side_paytables"].get(wager))
        if wager in DECIDED_BY:
            counts, combos = initial_cards_counts(wager, decks)
            out.append(SidePar(wager, table, counts, combos,
                               "ordered draws of the player's two cards, the up card and, "
                               "where the wager waits for the card reader, the hole card, "
                               "from %d decks without replacement" % decks))
        elif wager == W.STRAIGHT_JACK:
            sheet = ProbabilityPar(wager, table, straight_jack_probabilities(options),
                                   "the player's two cards and the up card by rank from %d "
                                   "decks, then his draws while the basic strategy chart "
                                   "hits (one after a double, none after a split), the "
                                   "straight ended by the first card that breaks it or "
                                   "busts" % decks)
            sheet.method = ("exact over the shoe (Fractions): the player's draws from the "
                            "shoe his cards deplete, the reader's no-Blackjack priced jointly "
                            "(the unseen hole card as the card after his draws)")
            out.append(sheet)
        elif wager == W.BAD_BEAT:
            sheet = ProbabilityPar(wager, table, bad_beat_probabilities(
                options, options["bad_beat_any_twenty"]),
                "%d decks, the player playing the basic strategy chart, split to %d hands"
                % (decks, options["split_hands"]))
            sheet.method = bad_beat.METHOD
            sheet.precision = bad_beat.PRECISION
            out.append(sheet)
        elif wager == W.HIT_AND_RUN:
            sheet = ProbabilityPar(wager, table, hit_and_run_counts(decks),
                                   "the dealer's hand drawn to 17 from %d decks by value"
                                   % decks)
            sheet.method = ("exact over the shoe (Fractions): the dealer's cards priced as "
                            "drawn first (exchangeable), the players' cards and draws then "
                            "summing to one; a Hit and Run Wager keeps him drawing ((n))")
            out.append(sheet)
        else:
            raise AssertionError("no sheet for the optional wager %s" % wager)
    return out


SPREADS = True      # Bad Beat's split rounds spread over spread.map (registry.spreads)


def sheets(config=None):
    from controller.games.blackjack.model import Blackjack
    options = dict(Blackjack.DEFAULTS["options"])
    options.update((config or {}).get("options", {}))
    return [base_game(options)] + side_sheets(config)
