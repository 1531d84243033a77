"""A linked progressive's definition: what the floor configures and the controller applies.

    link     the link's id (one subject token, as a table id)
    game     a game with a Progressive Payout Wager: Raise It Up Stud (669a.12(e)),
             Six-Card Fortune Pai Gow (670a.12(d)), Blackjack (its three progressives,
             633a.7(o))
    wager    the progressive wager of that game the link's meter pays
    tables   the tables on the link (their ids)
    reset    the initial and reset amount, cents (at least the text's minimum)
    rate     the rate of progression, an exact fraction [num, den] (at least the text's
             minimum); "0.14", "14%", "7/50" are read exactly, never through a float
    cap      the meter's limit in cents, or None (what would pass it is counted as over_cap)
    version  1 for the first definition, +1 for every change
    operable True, or False with `why` (a failed reconciliation takes the link down)
    confirm_above  cents: an award of at least this much waits, locked, for a floor
             supervisor's confirmation (having seen the cards) before it is paid; 0 (the
             default): every award (the jackpot lock, issue 31)
    second_above   cents or None: an award above this needs a second, different supervisor
    paytable optional, where the game lets a Rules Submission set the wager's paytable
             (Blackjack's progressives, 633a.13): {hand: payout}, the rows the tables play;
             the link's controller checks every hit's hand under it (issue 31)

Every check raises ConfigError with one line naming the key, so `tablectl floor link define`
answers bad input with exit 2 and that line. Pure: no NATS here (linkctl.py and cli.py move
the definitions).
"""

from fractions import Fraction

from controller.errors import ConfigError
from controller.wire.subjects import TABLE_ID
from controller.games import all_declarations
from controller.rules import paytables as pt


def linkable():
    """{game: {wager: (section, minimum reset cents or None, minimum rate or None)}}: the
    progressive wagers each game's declaration says a link may serve (issue 12: the floor
    asks the game, never its name), at the texts' minimums, which the rules core's
    paytables hold (PROGRESSIVE_MINIMUMS; none for Blackjack's, 633a.7(o))."""
    out = {}
    for d in all_declarations():
        mins = pt.PROGRESSIVE_MINIMUMS.get(d.game, {})
        rate = Fraction(*mins["rate"]) if mins.get("rate") else None
        for wager, section in d.linkable:
            out.setdefault(d.game, {})[wager] = (section, mins.get("reset"), rate)
    return out


LINKABLE = linkable()


def hit_checkers():
    """{game: {wager: "module:function"}}: each game's own check of a hit's cards
    (Declaration.link_hits), the rules core's evaluator and paytable the table settles with."""
    return {d.game: dict(d.link_hits) for d in all_declarations() if d.link_hits}


def hit_share(game, wager, hand, dealer=None, paytable=None):
    """The share of the meter `hand` (card codes) wins at `game`'s `wager`, as [num, den]
    reduced, or None when it wins no share of the meter. Raises ConfigError, one line, when
    it cannot be checked (a wager whose hits carry too little, cards that are not a hand)."""
    from controller.errors import RulesError
    from controller.games.declarations import load
    target = hit_checkers().get(game, {}).get(wager)
    if target is None:
        raise ConfigError("%s's %s: its hits cannot be checked at the floor" % (game, wager))
    try:
        percent = load(target)(hand, dealer, paytable)
    except RulesError as e:
        raise ConfigError("hand %s: %s" % (" ".join(map(str, hand)) if isinstance(
            hand, (list, tuple)) else repr(hand), e))
    if percent is None:
        return None
    part = Fraction(percent, 100)
    return [part.numerator, part.denominator]

def _paytable_rows(game, wager, rows):
    """[(hand, Pay)] of `rows` {hand: payout text} under `game`'s own check of a link's
    declared paytable (Declaration.link_paytable); None for the texts' own paytable."""
    from controller.games import declaration
    from controller.games.declarations import load
    if rows is None:
        return None
    target = declaration(game).link_paytable
    if target is None:
        raise ConfigError("paytable: %s's %s is paid by the texts' own paytable" % (game, wager))
    return list(load(target)(wager, rows).rows)


def paytable_differs(game, wager, declared, announced):
    """None when the paytable a link declares for `game`'s `wager` (rows {hand: payout}, or
    None: the texts' own) is the one a table announces (its configuration's), row for row
    and payout for payout; else why not, in one line. A table plays a linked wager and the
    link pays its hits only under one paytable (issue 31)."""
    try:
        same = _paytable_rows(game, wager, declared) == _paytable_rows(game, wager, announced)
    except ConfigError as e:
        return "paytable of %s's %s: %s" % (game, wager, e)
    if same:
        return None
    return "%s's %s: the link declares %s, the table %s" % (
        game, wager, _described(declared), _described(announced))


def _described(rows):
    if rows is None:
        return "the texts' own paytable"
    return "{%s}" % ", ".join("%s: %s" % (h, rows[h]) for h in sorted(rows))


def table_paytable(model, wager):
    """The rows a table's configuration sets for its progressive `wager` ({hand: payout},
    or None: the texts' own). Only a game whose declaration lets a link declare a paytable
    (link_paytable: Blackjack's, 633a.13) configures one, in its options' side_paytables."""
    from controller.games import declaration
    try:
        if declaration(model.GAME).link_paytable is None:
            return None
        rows = (model.config.get("options") or {}).get("side_paytables") or {}
    except (AttributeError, KeyError, ConfigError):
        return None
    got = rows.get(wager)
    return dict(got) if got is not None else None


KEYS = ("link", "game", "wager", "tables", "reset", "rate", "cap", "version", "operable",
        "why", "restored", "paytable", "confirm_above", "second_above")
PARAMETERS = ("game", "wager", "tables", "reset", "rate", "cap", "paytable", "confirm_above",
              "second_above")
LIVE_REFUSED = ("reset", "rate")        # not changed while a table is on the link (5321.18)


def parse_rate(text):
    """An exact fraction 0 < rate < 1 from "0.14", "14%", "7/50" or [7, 50]."""
    try:
        if isinstance(text, (list, tuple)) and len(text) == 2 and \
                all(isinstance(x, int) and not isinstance(x, bool) for x in text):
            rate = Fraction(text[0], text[1])
        elif isinstance(text, str):
            s = text.strip()
            rate = Fraction(s[:-1]) / 100 if s.endswith("%") else Fraction(s)
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError):
        raise ConfigError("rate %r: a fraction such as 0.14, 14%% or 7/50" % (text,))
    if not 0 < rate < 1:
        raise ConfigError("rate %s: the rate of progression is between 0 and 1" % text)
    return rate


def _cents(key, value, minimum=0):
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ConfigError("%s %r: whole cents >= %d" % (key, value, minimum))
    return value


def parse_tables(value):
    tables = value.split(",") if isinstance(value, str) else value
    if not isinstance(tables, (list, tuple)) or not tables:
        raise ConfigError("tables %r: one or more table ids, comma-separated" % (value,))
    out = []
    for t in tables:
        t = t.strip() if isinstance(t, str) else t
        if not isinstance(t, str) or not TABLE_ID.match(t):
            raise ConfigError("tables: %r is not a table id (1 to 64 letters, digits, '-' "
                              "or '_')" % (t,))
        if t in out:
            raise ConfigError("tables: %s is named twice" % t)
        out.append(t)
    return out


def check(params):
    """A definition from the floor's arguments (or a stored one): the checked dict, rate as
    [num, den]. Raises ConfigError naming the key."""
    if not isinstance(params, dict):
        raise ConfigError("a link's definition is a table of %s" % ", ".join(KEYS))
    for key in params:
        if key not in KEYS:
            raise ConfigError("%s: unknown key; the keys are %s" % (key, ", ".join(KEYS)))
    link = params.get("link")
    if not isinstance(link, str) or not TABLE_ID.match(link):
        raise ConfigError("link %r: 1 to 64 letters, digits, '-' or '_'" % (link,))
    game = params.get("game")
    if game not in LINKABLE:
        raise ConfigError("game %r: a linked progressive serves %s (the games with a "
                          "Progressive Payout Wager)" % (game, ", ".join(sorted(LINKABLE))))
    wager = params.get("wager")
    if wager not in LINKABLE[game]:
        raise ConfigError("wager %r: %s's progressive wagers are %s" % (
            wager, game, ", ".join(sorted(LINKABLE[game]))))
    section, min_reset, min_rate = LINKABLE[game][wager]
    if params.get("reset") is None:
        raise ConfigError("reset: the initial and reset amount is required (%s)" % section)
    reset = _cents("reset", params["reset"], 1)
    if min_reset is not None and reset < min_reset:
        raise ConfigError("reset %d: at least %d cents at %s (%s)" % (reset, min_reset, game,
                                                                     section))
    if params.get("rate") is None:
        raise ConfigError("rate: the rate of progression is required (%s)" % section)
    rate = parse_rate(params["rate"])
    if min_rate is not None and rate < min_rate:
        raise ConfigError("rate %s: at least %s at %s (%s)" % (rate, min_rate, game, section))
    cap = params.get("cap")
    if cap is not None:
        cap = _cents("cap", cap, 1)
        if cap < reset:
            raise ConfigError("cap %d: below the reset amount %d" % (cap, reset))
    version = params.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ConfigError("version %r: 1, 2, ..." % (version,))
    operable = params.get("operable", True)
    if not isinstance(operable, bool):
        raise ConfigError("operable %r: true or false" % (operable,))
    paytable = params.get("paytable")
    if paytable is not None:
        from controller.games import declaration
        from controller.games.declarations import load
        target = declaration(game).link_paytable
        if target is None:
            raise ConfigError("paytable: %s's %s is paid by the texts' own paytable (%s)"
                              % (game, wager, section))
        load(target)(wager, paytable)           # ConfigError naming the hand
        paytable = dict(paytable)
    confirm_above = _cents("confirm_above", params.get("confirm_above", 0))
    second_above = params.get("second_above")
    if second_above is not None:
        second_above = _cents("second_above", second_above)
    out = {"link": link, "game": game, "wager": wager, "paytable": paytable,
           "confirm_above": confirm_above, "second_above": second_above,
           "tables": parse_tables(params.get("tables")), "reset": reset,
           "rate": [rate.numerator, rate.denominator], "cap": cap, "version": version,
           "operable": operable}
    if not operable:
        out["why"] = str(params.get("why") or "taken down at the floor")
    if params.get("restored"):
        out["restored"] = str(params["restored"])[:300]
    return out


def changed(old, new):
    """The parameters `new` changes from `old` (a list of keys, PARAMETERS' order)."""
    if old is None:
        return list(PARAMETERS)
    return [k for k in PARAMETERS if old.get(k) != new.get(k)]


def next_version(old, new):
    """`new` as the version after `old` (checked), or the ConfigError why not."""
    new = dict(new)
    new.pop("restored", None)
    new["version"] = 1 if old is None else old["version"] + 1
    if old is not None:
        new.setdefault("operable", old.get("operable", True))
        if not new["operable"]:
            new.setdefault("why", old.get("why"))
    return check(new)


def describe(d):
    """A definition for people: dollars, the rate as a percentage and a fraction."""
    rate = Fraction(*d["rate"])
    lines = ["link %s  version %d  %s" % (d["link"], d["version"],
                                          "operable" if d.get("operable", True)
                                          else "INOPERABLE: %s" % d.get("why")),
             "game %s  wager %s" % (d["game"], d["wager"]),
             "tables %s" % ", ".join(d["tables"]),
             "reset $%s  rate %s (%s%%)  cap %s" % (
                 dollars(d["reset"]), "%d/%d" % tuple(d["rate"]),
                 ("%.4f" % float(rate * 100)).rstrip("0").rstrip("."),
                 "none" if d.get("cap") is None else "$" + dollars(d["cap"]))]
    return "\n".join(lines)


def dollars(cents):
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return "%s%s.%02d" % (sign, "{:,}".format(cents // 100), cents % 100)
