"""Basic strategy and its house edge for the blackjack games (581, 633a.7).

Why this module exists: a Rules Submission states the hold of the base game, and the hold of a
blackjack game is the house edge against a player who plays the game's basic strategy. The
figure and the chart it assumes are both computed here, from the table's configured rules,
so that a change of option (decks, surrender, the Double Down Wager on a surrender, 581.9(b))
moves the printed hold with it.

Method (stated again on the par entry):
  * The dealer's outcome (17..21 or bust) is computed exactly, by recursion over the cards
    left in the shoe, for every up card and every two-card player hand: the up card and the
    player's two cards are removed from the configured shoe, and under an up card the card
    reader checks (A K Q J, and T at Blackjack) the hole card is conditioned on not giving
    the dealer a Blackjack, since the player decides only after the peek (581.7(g),
    633a.7(h)).
  * The player's removal effects: the player's first two cards and the up card are removed
    exactly; the cards the player draws after them are drawn from that same depleted shoe and
    not removed again (the "first two cards" approximation). One player at the table; the
    other players' cards are unseen and do not change the distribution.
  * Basic strategy is one chart per up card, chosen per hard total, soft total and pair, by
    the largest expected value over the shoe with only the up card removed (the total-
    dependent strategy a dealer-training chart prints). The house edge is that chart played
    against the exact, composition-dependent probabilities of each initial deal.
  * Floating point: the figures are sums of a few thousand products of probabilities, good to
    about 1e-12; printed to 7 places.

Cards are counted by value: index 1 is the ace, 10 every ten-value card.
"""

from fractions import Fraction


ACE, TEN = 1, 10
VALUES = tuple(range(1, 11))
BUST = 22
STAND_ALL_17 = 17             # 581.7(n), 633a.7(m): the dealer stands on every 17


class Rules:
    """The rules that decide basic strategy, as the table configures them."""

    def __init__(self, game, decks, tens_per_deck, peek_ups, blackjack_pays,
                 double_cards="any", double_totals=None, double_after_split=True,
                 split_hands=4, surrender="none", surrender_double_down=None,
                 double_attack=False, hit_soft_17=False, split_blackjack=False,
                 bust_pushes_on_dealer_bust=False):
        self.game = game
        self.decks = decks
        self.tens_per_deck = tens_per_deck      # 16 in a standard deck, 12 in a Spanish one
        self.peek_ups = frozenset(peek_ups)     # up-card values the reader checks
        self.blackjack_pays = Fraction(blackjack_pays)
        self.double_cards = double_cards        # "two": first two cards only; "any": any number
        self.double_totals = double_totals      # None, or the hard totals a hand may double on
        self.double_after_split = double_after_split
        self.split_hands = split_hands
        self.surrender = surrender              # "none", "late" (two cards, unsplit), "any"
        # 581.9(b) after doubling: "half" (half of the whole stake, Double Down included) or
        # "returned" (half of the Bet and Double Attack, the Double Down returned)
        self.surrender_double_down = surrender_double_down
        self.double_attack = double_attack      # 581.7(e): a second Bet after the up card
        # The alternatives of readings the texts leave open (controller/lab/par/readings.py
        # prices each against the reading taken); the tables themselves take none of them.
        self.hit_soft_17 = hit_soft_17                  # the dealer draws to a soft 17
        self.split_blackjack = split_blackjack          # a split ace and ten is a Blackjack
        self.bust_pushes_on_dealer_bust = bust_pushes_on_dealer_bust

    def shoe(self):
        counts = [0] * 11
        for v in range(1, 10):
            counts[v] = 4 * self.decks
        counts[TEN] = self.tens_per_deck * self.decks
        return counts


def double_attack_rules(options=None, **alternative):
    """Chapter 581 as the table configures it (controller/games/blackjack/double_attack.py);
    `alternative`: Rules keywords of a reading not taken."""
    options = options or {}
    return Rules("double-attack-blackjack", decks=8, tens_per_deck=12, peek_ups=(ACE, TEN),
                 blackjack_pays=1, double_cards="any", double_after_split=True,
                 split_hands=4, surrender="any",
                 surrender_double_down=options.get("surrender_double_down", "half"),
                 double_attack=True, **alternative)


def blackjack_rules(options=None, **alternative):
    """633a.7 with the table's options (controller/games/blackjack/model.py's DEFAULTS)."""
    from controller.games.blackjack.model import Blackjack
    from controller.rules import blackjack_side_payouts as side_payouts
    opts = dict(Blackjack.DEFAULTS["options"])
    opts.update(options or {})
    pay = side_payouts.parse_payout(opts["blackjack_pays"])
    totals = {"any_two_cards": None, "nine_ten_eleven": (9, 10, 11),
              "ten_eleven": (10, 11)}[opts["double_on"]]
    return Rules("blackjack", decks=opts["decks"], tens_per_deck=16, peek_ups=(ACE, TEN),
                 blackjack_pays=Fraction(pay.num, pay.den), double_cards="two",
                 double_totals=totals, double_after_split=opts["double_after_split"],
                 split_hands=opts["split_hands"],
                 surrender="late" if opts["late_surrender"] else "none", **alternative)


# ---- the dealer --------------------------------------------------------------------------

def _add(total, soft, v):
    """(total, soft) after a card of value v; soft: an ace counts 11."""
    if v == ACE and total + 11 <= 21:
        return total + 11, True
    total += v
    if total > 21 and soft:
        return total - 10, False
    return total, soft


def hand_state(values):
    total, soft = 0, False
    for v in values:
        total, soft = _add(total, soft, v)
    return total, soft


def dealer_outcomes(counts, up, peek_ups=(), hit_soft_17=False):
    """{17..21, BUST: probability} of the dealer's final hand, standing on all 17s, from
    `counts` (the shoe without the up card), the hole card conditioned on no Blackjack when
    `up` is one of `peek_ups`."""
    counts = list(counts)
    out = dict.fromkeys((17, 18, 19, 20, 21, BUST), 0.0)
    excluded = set()
    if up in peek_ups:
        excluded = {TEN} if up == ACE else {ACE}
    t0, s0 = _add(0, False, up)
    n0 = sum(counts)
    hole_total = float(sum(counts[v] for v in VALUES if v not in excluded))

    def draw(total, soft, n, p):
        if total >= STAND_ALL_17 and not (hit_soft_17 and soft and total == STAND_ALL_17):
            out[BUST if total > 21 else total] += p
            return
        for v in VALUES:
            c = counts[v]
            if c:
                t, s = _add(total, soft, v)
                counts[v] = c - 1
                draw(t, s, n - 1, p * c / n)
                counts[v] = c
    for v in VALUES:
        c = counts[v]
        if not c or v in excluded:
            continue
        t, s = _add(t0, s0, v)
        counts[v] = c - 1
        draw(t, s, n0 - 1, c / hole_total)
        counts[v] = c
    return out


def draw_probabilities(counts, up, peek_ups=()):
    """The player's next card, given the hole card is one of the cards left and, under a
    peeked up card, not one that gives the dealer a Blackjack."""
    n = sum(counts)
    if up not in peek_ups:
        return [0.0] + [counts[v] / n for v in VALUES]
    bad = TEN if up == ACE else ACE
    holes = n - counts[bad]
    p = [0.0] * 11
    for h in VALUES:
        if h == bad or not counts[h]:
            continue
        ph = counts[h] / holes
        for v in VALUES:
            p[v] += ph * (counts[v] - (v == h)) / (n - 1)
    return p


def stand_values(dealer):
    """Expected net of standing on each total 4..21 against the dealer's outcomes."""
    out = {}
    for t in range(4, 22):
        ev = dealer[BUST]
        for d in (17, 18, 19, 20, 21):
            ev += dealer[d] * ((t > d) - (t < d))
        out[t] = ev
    return out


# ---- the player ---------------------------------------------------------------------------

HIT, STAND, DOUBLE, SPLIT, SURRENDER = "H", "S", "D", "P", "R"


class Hand:
    """Expected values of a hand's choices against one up card, for one set of draw
    probabilities and dealer outcomes. `chart` None: the best choice everywhere (and it is
    recorded); else the chart's choice is played and valued."""

    def __init__(self, rules, p, dealer, chart=None):
        self.r = rules
        self.p = p
        self.stand = stand_values(dealer)
        # a busted hand loses; under the alternative reading it ties a busted dealer
        self.bust = -(1 - dealer[BUST]) if rules.bust_pushes_on_dealer_bust else -1.0
        self.chart = chart
        self.memo = {}
        self.choices = {}

    def _best(self, key, options):
        if self.chart is not None:
            act = self.chart_action(key, options)
            return options[act]
        act = max(options, key=lambda a: (options[a], a == STAND))
        self.choices[key] = (act, dict(options))
        return options[act]

    def chart_action(self, key, options, act=None):
        """The chart's action at `key` (or `act`, a cell changed: blackjack_optimal) among
        `options`, its fallback where that one is not open."""
        act = act or self.chart.get(key)
        if act in options:
            return act
        # a chart written for two cards read on a hand where the choice is gone
        for fallback in (self.chart.get(key + ("fallback",)), HIT, STAND):
            if fallback in options:
                return fallback
        raise KeyError(key)

    def charted(self, total, soft, two_cards, split):
        """The chart's action on a live hand, among the options the table leaves it (the
        sheets that follow the chart card by card: Straight Jack, Bad Beat)."""
        options = {STAND: 0, HIT: 0}
        if self.may_double(total, soft, two_cards, split):
            options[DOUBLE] = 0
        if self.may_surrender(two_cards, split):
            options[SURRENDER] = 0
        return self.chart_action(self.decision_key(total, soft, two_cards, split), options)

    def after_double(self, total, soft):
        """Net of the whole doubled stake (2 units) once its one card is out."""
        if total > 21:
            return 2 * self.bust
        stand = 2 * self.stand[total]
        if self.r.surrender == "any" and total < 21:
            loss = -1.0 if self.r.surrender_double_down == "half" else -0.5
            key = ("after_double", total)
            return self._best(key, {STAND: stand, SURRENDER: loss})
        return stand

    def double_value(self, total, soft):
        return sum(self.p[v] * self.after_double(*_add(total, soft, v)) for v in VALUES)

    def may_double(self, total, soft, two_cards, split):
        if split and not self.r.double_after_split:
            return False
        if self.r.double_cards == "two" and not two_cards:
            return False
        if self.r.double_totals is not None and (soft or total not in self.r.double_totals):
            return False
        return total < 21

    def may_surrender(self, two_cards, split):
        if self.r.surrender == "any":
            return True
        return self.r.surrender == "late" and two_cards and not split

    def value(self, total, soft, two_cards=False, split=False):
        """Best (or charted) expected net per unit of a live hand of `total`."""
        if total > 21:
            return self.bust
        if total == 21:
            return self.stand[21]
        key = (total, soft, two_cards, split)
        if key in self.memo:
            return self.memo[key]
        options = {STAND: self.stand[total],
                   HIT: sum(self.p[v] * self.value(*_add(total, soft, v), split=split)
                            for v in VALUES)}
        if self.may_double(total, soft, two_cards, split):
            options[DOUBLE] = self.double_value(total, soft)
        if self.may_surrender(two_cards, split):
            options[SURRENDER] = -0.5
        v = self._best(self.decision_key(total, soft, two_cards, split), options)
        self.memo[key] = v
        return v

    def decision_key(self, total, soft, two_cards, split):
        """The chart's row: what a chart can tell apart at this table."""
        first = two_cards and (self.r.double_cards == "two" or self.r.surrender == "late")
        late = first and not split and self.r.surrender == "late"
        return ("soft" if soft else "hard", total, first, late,
                split and not self.r.double_after_split)

    # ---- splits (581.11, 633a.11 as configured) -------------------------------------

    def split_value(self, v):
        """Expected net, per unit of each hand, summed over the hands a split of v-v makes,
        resplitting (not aces) to the table's most hands."""
        p = self.p
        q = p[v]
        if v == ACE:
            def ace_hand(w):
                total, soft = _add(11, True, w)
                if w == TEN and self.r.split_blackjack:
                    return float(self.r.blackjack_pays)
                if total == 21 or self.r.surrender != "any":
                    return self.stand[total]
                return max(self.stand[total], -0.5) if self.chart is None else \
                    self._split_ace_choice(total)
            return 2 * sum(p[w] * ace_hand(w) for w in VALUES)
        rest = 1 - q
        def second(w):
            if self.r.split_blackjack and {v, w} == {ACE, TEN}:
                return float(self.r.blackjack_pays)
            return self.value(*hand_state([v, w]), two_cards=True, split=True)
        non_pair = sum(p[w] * second(w) for w in VALUES if w != v) / rest
        pair = self.value(*hand_state([v, v]), two_cards=True, split=True)
        most = self.r.split_hands
        memo = {}

        def expect(open_, made):
            """(expected non-pair hands, expected hands stuck on a pair) still to come."""
            if open_ == 0:
                return 0.0, 0.0
            if (open_, made) in memo:
                return memo[(open_, made)]
            a, b = expect(open_ - 1, made)
            np_, xx = rest * (1 + a), rest * b
            if made < most:
                c, d = expect(open_ + 1, made + 1)
                np_, xx = np_ + q * c, xx + q * d
            else:
                np_, xx = np_ + q * a, xx + q * (1 + b)
            memo[(open_, made)] = (np_, xx)
            return np_, xx
        n_np, n_xx = expect(2, 2)
        return n_np * non_pair + n_xx * pair

    def _split_ace_choice(self, total):
        key = ("split_ace", total)
        return self._best(key, {STAND: self.stand[total], SURRENDER: -0.5})

    def split_ace_choices(self):
        for w in VALUES:
            total, _ = _add(11, True, w)
            if total < 21 and self.r.surrender == "any":
                self._best(("split_ace", total), {STAND: self.stand[total],
                                                  SURRENDER: -0.5})

    def first_two(self, a, b):
        """Expected net of a two-card hand a, b that is not a Blackjack."""
        total, soft = hand_state([a, b])
        if a != b:
            return self.value(total, soft, two_cards=True)
        options = {"no_split": self.value(total, soft, two_cards=True),
                   SPLIT: self.split_value(a)}
        key = ("pair", a)
        if self.chart is not None:
            return options[SPLIT if self.chart.get(key) == SPLIT else "no_split"]
        act = SPLIT if options[SPLIT] > options["no_split"] else "no_split"
        self.choices[key] = (act, options)
        return options[act]


def _without(counts, *values):
    out = list(counts)
    for v in values:
        out[v] -= 1
    return out


def _pairs():
    for a in VALUES:
        for b in VALUES:
            if a <= b:
                yield a, b


def _pair_probability(counts, a, b):
    n = sum(counts)
    first = counts[a] / n
    second = (counts[b] - (a == b)) / (n - 1)
    if a == b:
        return first * second
    return 2 * first * second if counts[a] and counts[b] else 0.0


def chart(rules):
    """{up value: {decision key: action}}: basic strategy from the shoe without the up card."""
    shoe = rules.shoe()
    out = {}
    for up in VALUES:
        counts = _without(shoe, up)
        dealer = dealer_outcomes(counts, up, rules.peek_ups, rules.hit_soft_17)
        h = Hand(rules, draw_probabilities(counts, up, rules.peek_ups), dealer)
        for a, b in _pairs():
            if (a, b) != (ACE, TEN):
                h.first_two(a, b)
        for total in range(4, 21):          # multi-card hard totals and soft totals too
            h.value(total, False)
            h.value(total, False, split=True)
        for total in range(12, 21):
            h.value(total, True)
            h.value(total, True, split=True)
        h.split_ace_choices()
        out[up] = {k: act for k, (act, _) in h.choices.items()}
    return out


def initial_deals(rules, after_up, up):
    """Each two-card player hand against `up`: (a, b, its chance from the shoe less the up
    card, the shoe less the three, a player Blackjack, the chance the reader finds the
    dealer's Blackjack under a peeked up card). One loop for Edge and the exact figure
    (blackjack_exact.ExactEdge)."""
    for a, b in _pairs():
        pp = _pair_probability(after_up, a, b)
        if not pp:
            continue
        counts = _without(after_up, a, b)
        p_dbj = 0.0
        if up in rules.peek_ups:
            hole = TEN if up == ACE else ACE
            p_dbj = counts[hole] / sum(counts)
        yield a, b, pp, counts, {a, b} == {ACE, TEN}, p_dbj


class Edge:
    """The house edge of `rules` under `strategy` (a chart), and how it is made up."""

    def __init__(self, rules, strategy):
        self.rules = rules
        self.chart = strategy
        self.by_up = {}
        self.double_attack = {}
        shoe = rules.shoe()
        n = sum(shoe)
        total = 0.0
        for up in VALUES:
            p_up = shoe[up] / n
            after_up = _without(shoe, up)
            blackjack_part = 0.0       # the dealer's Blackjack: the Bet lost unless a push
            play_part = 0.0            # per unit of the hand's stake (Bet + Double Attack)
            for a, b, pp, counts, player_bj, p_dbj in initial_deals(rules, after_up, up):
                blackjack_part += pp * p_dbj * (0.0 if player_bj else -1.0)
                if player_bj:
                    ev = float(rules.blackjack_pays)
                else:
                    dealer = dealer_outcomes(counts, up, rules.peek_ups, rules.hit_soft_17)
                    hand = Hand(rules, draw_probabilities(counts, up, rules.peek_ups),
                                dealer, chart=strategy[up])
                    ev = hand.first_two(a, b)
                play_part += pp * (1 - p_dbj) * ev
            attack = rules.double_attack and play_part > 0
            self.double_attack[up] = attack
            ev_up = blackjack_part + play_part * (2 if attack else 1)
            self.by_up[up] = ev_up
            total += p_up * ev_up
        self.expected_net = total

    def house_edge(self):
        return -self.expected_net


_CACHE = {}


def rules_key(rules):
    """A rule set as a hashable key, for the caches per rule set within a process."""
    return tuple(sorted((k, str(v)) for k, v in vars(rules).items()))


def solve(rules):
    """(chart, Edge) for `rules`; cached per rule set within a process."""
    key = rules_key(rules)
    if key not in _CACHE:
        strategy = chart(rules)
        _CACHE[key] = (strategy, Edge(rules, strategy))
    return _CACHE[key]


# ---- the chart as a dealer-training course prints it -------------------------------------

def chart_label(up):
    return "A" if up == ACE else str(up)


ACTION_WORDS = {HIT: "hit", STAND: "stand", DOUBLE: "double", SPLIT: "split",
                SURRENDER: "surrender"}
UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, ACE)


def _row_action(strategy, up, kind, total, first):
    c = strategy[up]
    for key, act in c.items():
        if key[0] == kind and key[1] == total and key[2] == first and not key[4]:
            if kind in ("hard", "soft") and key[3] != (first and any(k[3] for k in c)):
                continue
            return act
    return None


def chart_rows(rules, strategy):
    """[(section title, [(row label, [action per up card 2..A])])]: hard, soft and pairs on
    the first two cards, the hands after a hit, and the Double Attack Blackjack rows."""
    first = rules.double_cards == "two" or rules.surrender == "late"
    sections = []
    for kind, lo in (("hard", 5), ("soft", 13)):
        rows = []
        for total in range(lo, 21):
            rows.append(("%s %d" % (kind, total),
                         [_row_action(strategy, u, kind, total, first) or "-" for u in UPS]))
        sections.append(("%s totals%s" % (kind, ", first two cards" if first else ""), rows))
        if first:
            rows = [("%s %d" % (kind, t), [_row_action(strategy, u, kind, t, False) or "-"
                                           for u in UPS]) for t in range(lo, 21)]
            sections.append(("%s totals after a hit" % kind, rows))
    pairs = []
    for v in (ACE,) + tuple(range(2, 11)):
        label = "A-A" if v == ACE else "%d-%d" % (v, v)
        pairs.append((label, [SPLIT if strategy[u].get(("pair", v)) == SPLIT else "-"
                              for u in UPS]))
    sections.append(("pairs (P: split; -: play the total)", pairs))
    if rules.surrender == "any":
        rows = []
        for t in range(5, 21):
            acts = [strategy[u].get(("after_double", t), "-") for u in UPS]
            if any(a == SURRENDER for a in acts):
                rows.append(("%d after doubling" % t, acts))
        sections.append(("after doubling down (R: surrender; S: stand)", rows))
        rows = []
        for t in range(12, 21):
            acts = [strategy[u].get(("split_ace", t), "-") for u in UPS]
            if any(a == SURRENDER for a in acts):
                rows.append(("split ace %d" % t, acts))
        if rows:
            sections.append(("split aces (R: surrender; S: stand)", rows))
    return sections


def render_chart(rules, strategy, edge=None):
    out = ["%s basic strategy (H hit, S stand, D double, P split, R surrender)" % rules.game,
           ""]
    if edge is not None and rules.double_attack:
        on = [chart_label(u) for u in UPS if edge.double_attack[u]]
        out.append("Double Attack Wager (581.7(e)): place it against %s up; not against %s"
                   % (", ".join(on), ", ".join(chart_label(u) for u in UPS
                                               if not edge.double_attack[u])))
        out.append("")
    head = "%-20s" % "dealer's up card" + "".join("%4s" % chart_label(u) for u in UPS)
    for title, rows in chart_rows(rules, strategy):
        out.append(title)
        out.append(head)
        for label, acts in rows:
            out.append("%-20s" % label + "".join("%4s" % a for a in acts))
        out.append("")
    if edge is not None:
        out.append("house edge under this chart: %.4f%% of the Bet" % (100 * edge.house_edge()))
    return "\n".join(out) + "\n"


def strategy_text(game, options=None):
    """The chart `tablectl strategy GAME` prints (the per-game registry calls this)."""
    rules = double_attack_rules(options) if game == "double-attack-blackjack" \
        else blackjack_rules(options)
    strategy, edge = solve(rules)
    return render_chart(rules, strategy, edge)
