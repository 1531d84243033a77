"""Stacked-shoe scenarios: `tablectl play FILE.json` (../shared/scenario-format.md).

A scenario is one round of one game: the shoe from the top, the wagers placed
before "no more bets" and the players' decisions in the order the game asks for
them. It runs through the same machine and settlement the table uses: the
runner only turns the file into events and answers what the round asks next.

What a round asks for is the model's `pending`:
    {"need": "card", ...}                 the next card out of the shoe
    {"need": "decision", "seat": s, "allowed": [...]}   a required decision
    {"need": "offer", "seat": s, "offer": name}         an optional offer: taken when
                                          the next unused action is that offer for
                                          that seat, declined otherwise
    {"need": "reader"}                    the card reader's answer (the runner knows
                                          the stacked hole card; the game says)
    {"need": <game-specific>, ...}        a game's own input, answered by the game's
                                          `answer(pending, doc)`

What only a game knows (its whole deck, its own waits' answers, the reader's answer, its part
of the output) it says through the scenario answers its declaration names
(controller/games/scenario_answers.py), never here: the runner names no game.
"""

import json

from controller import config as configuration
from controller.errors import ConfigError, InvalidCard, ScenarioError, TablectlError
from controller.events import READER_ANSWER
from controller.games import model_class
from controller.games.engine import DECK_REMOVED, ROUND_OVER, GameMachine
from controller.games.events import Event
from controller.games.scenario_answers import answers_for
from controller.rules import cards as C

TOP_KEYS = ("game", "config", "cards", "deck", "seats", "actions", "start_position", "dice")
DECK_KEYS = ("missing", "extra")


# Deeper than any scenario needs (seats > seat > wager > ...); deeper is refused before
# anything walks it, so no recursion in the runner or the game can be exhausted.
MAX_DEPTH = 32


def _unique_keys(pairs):
    """object_pairs_hook: a key given twice is an error (json keeps the last one silently,
    so a scenario could say two things and be read as one)."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise ScenarioError("the key %r is given twice in one object" % key)
        out[key] = value
    return out


def _no_constant(name):
    raise ScenarioError("%s is not a JSON number" % name)


def _depth_ok(doc, limit=MAX_DEPTH):
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return True


def parse(text):
    """A scenario document from JSON text: strict JSON (no NaN or Infinity), no key given
    twice, nested at most MAX_DEPTH deep. ScenarioError (one line) for anything else."""
    try:
        doc = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise ScenarioError("not valid JSON: %s" % e)
    except RecursionError:
        raise ScenarioError("not a scenario: JSON nested more than %d deep" % MAX_DEPTH)
    if not _depth_ok(doc):
        raise ScenarioError("not a scenario: JSON nested more than %d deep" % MAX_DEPTH)
    return doc


def load(path):
    """The scenario in the file at `path`; ScenarioError (one line, without the path: the
    caller names the file) when it cannot be read or is not a strict JSON scenario."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except IsADirectoryError:
        raise ScenarioError("cannot read scenario: it is a folder")
    except OSError as e:
        raise ScenarioError("cannot read scenario: %s" % e.strerror)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError("not UTF-8 text (byte %d)" % e.start)
    return parse(text)


def _check_shape(doc):
    if not isinstance(doc, dict):
        raise ScenarioError("a scenario is a JSON object")
    for key in doc:
        if key not in TOP_KEYS:
            raise ScenarioError("unknown scenario key %r; the keys are %s"
                                % (key, ", ".join(TOP_KEYS)))
    for key in ("game", "seats"):
        if key not in doc:
            raise ScenarioError("scenario has no %r" % key)
    cards = doc.get("cards", [])
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise ScenarioError("cards must be a list of card codes such as \"As\"")
    if not isinstance(doc["game"], str):
        raise ScenarioError("game must be a game's name, not %s"
                            % ("a table" if isinstance(doc["game"], dict) else
                               repr(doc["game"])))
    if "config" in doc and not isinstance(doc["config"], dict):
        raise ScenarioError("config must be an object of configuration keys")
    deck = doc.get("deck", {})
    if not isinstance(deck, dict) or any(k not in DECK_KEYS for k in deck) or not all(
            isinstance(v, list) and all(isinstance(c, str) for c in v) for v in deck.values()):
        raise ScenarioError("deck must be {\"missing\": [cards], \"extra\": [cards]}: the cards "
                            "a deck that is not whole lacks or holds once more")
    if not isinstance(doc["seats"], dict):
        raise ScenarioError("seats must map a seat number to its wagers")
    for seat, wagers in doc["seats"].items():
        for wager, amount in (wagers.items() if isinstance(wagers, dict) else ()):
            if isinstance(amount, int) and not isinstance(amount, bool) and \
                    abs(amount) > configuration.MAX_CENTS:
                raise ScenarioError("seats.%s.%s = %d: at most %d cents"
                                    % (seat, wager, amount, configuration.MAX_CENTS))
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError("actions must be a list")
    for i, a in enumerate(actions, 1):
        if not isinstance(a, dict) or "seat" not in a or "action" not in a:
            raise ScenarioError("action %d must be an object with a seat and an action" % i)


class Runner:
    def __init__(self, doc):
        _check_shape(doc)
        self.doc = doc
        try:
            cls = model_class(doc["game"])
            cfg = configuration.validate(dict(doc.get("config", {}), game=doc["game"]), cls)
        except ConfigError as e:
            raise ScenarioError("config: %s" % e)
        self.table = GameMachine(cls(cfg))
        self.model = self.table.model
        self.game = answers_for(self.model)
        self.burn = None                    # the card burned when the shoe starts, if any
        self.cards = self.whole_shoe(doc)
        # what a game's own scenario answers read: the listed cards and the rest of the shoe
        self.shoe_doc = dict(doc, cards=list(self.cards))
        self.next_card = 0
        self.actions = list(doc.get("actions", []))
        self.next_action = 0
        # (action index, why): the seat's next action when an offer to a hand that can take
        # no more cards was declined, and why that hand could not have taken it: if the action
        # is then never asked for, the refusal names the rule, not just "never asked for".
        self.passed_over = None

    def whole_shoe(self, doc):
        """The listed cards, then the rest of the game's deck(s) in the deck's own order: the
        list is the top of the shoe (../shared/scenario-format.md). `deck.missing` takes a card
        out of the rest, `deck.extra` puts one more in; a card listed more often than the
        decks hold it is left for the game to refuse, naming its section."""
        listed = list(doc.get("cards", []))
        spec = doc.get("deck", {})
        whole = self.game.deck()
        if whole is None:
            if spec:
                raise ScenarioError("deck: %s is not played with cards" % doc["game"])
            return listed
        pool = {}
        order = []
        for code in whole:
            if code not in pool:
                order.append(code)
            pool[code] = pool.get(code, 0) + 1

        def canonical(code, what):
            try:
                c = C.code(C.parse(code))
            except InvalidCard as e:
                raise ScenarioError("%s: %s" % (what, e))
            if c not in pool:
                raise ScenarioError("%s: %s is not a card of this game's decks" % (what, c))
            return c
        for code in spec.get("missing", []):
            c = canonical(code, "deck.missing")
            if pool[c] == 0:
                raise ScenarioError("deck.missing: the decks hold no %s left to miss" % c)
            pool[c] -= 1
        for code in spec.get("extra", []):
            pool[canonical(code, "deck.extra")] += 1
        for code in listed:
            try:
                c = C.code(C.parse(code))
            except InvalidCard:
                continue                    # the game names what is wrong with it
            if pool.get(c):
                pool[c] -= 1
        rest = [c for c in order for _ in range(pool[c])]
        section = self.game.burn_section()
        if section:
            # The table burns the new shoe's first card (581.7(c), 633a.7(c)); the format
            # leaves it out of `cards`, so it is the first card the listing does not name,
            # reported on the shuffle as a live table reports it and counted against the batch.
            if not rest:
                raise ScenarioError("cards: the listed cards leave no card of the batch for the "
                                    "burn card the table takes when the shoe starts (%s); the "
                                    "burn card is not listed" % section)
            self.burn = rest.pop(0)
        return listed + rest

    def feed(self, kind, data=None, where=None):
        try:
            self.table.handle(Event(kind, data, source="scenario"))
        except TablectlError as e:
            raise ScenarioError("%s%s" % ("" if where is None else where + ": ", e))

    def run(self):
        self.start()
        return self.finish()

    def start(self):
        """Open the table, shuffle the stacked shoe, place the wagers, "no more bets"."""
        self.feed("open_table")
        shuffle = {"stack": self.cards, "scenario": self.doc}
        if self.doc.get("deck"):
            shuffle["deck"] = self.doc["deck"]
        if self.burn is not None:
            shuffle["burn"] = self.burn
        self.feed("shuffle", shuffle, "cards")
        for seat, wagers in sorted(self.doc["seats"].items()):
            if not isinstance(wagers, dict):
                raise ScenarioError("seats.%s must map wager names to cents" % seat)
            for wager, amount in wagers.items():
                self.feed("wager", {"seat": seat, "wager": wager, "amount": amount},
                          "seat %s %s" % (seat, wager))
        self.feed("no_more_bets")

    def finish(self):
        """Answer what the round asks until it is settled or void; then the output."""
        guard = 0
        while self.model.state not in ROUND_OVER and not (
                # a round voided by a wrong stub count takes the deck off the table with it
                self.model.state == DECK_REMOVED and self.model.status == "void"):
            guard += 1
            if guard > 10000:
                raise ScenarioError("the round does not end (%s)" % self.model.state)
            self.answer(self.model.pending)
        if self.next_action < len(self.actions):
            a = self.actions[self.next_action]
            if self.passed_over and self.passed_over[0] == self.next_action:
                raise ScenarioError("action %d: %s" % (self.next_action + 1,
                                                       self.passed_over[1]))
            raise ScenarioError("action %d: %s for seat %s was never asked for: the round "
                                "ended %s" % (self.next_action + 1, a["action"], a["seat"],
                                              self.model.status))
        return self.output()

    def checkpoint(self):
        """Everything needed to finish this scenario elsewhere: the file, the table's
        snapshot and how far the shoe and the actions have been used."""
        return {"doc": self.doc, "snapshot": self.table.snapshot(),
                "next_card": self.next_card, "next_action": self.next_action}

    @classmethod
    def resume(cls, checkpoint):
        """A runner that carries on from `checkpoint` with the table restored from its
        snapshot (add_model with the saved state; never pickle)."""
        runner = cls(checkpoint["doc"])
        runner.table = GameMachine.restore(type(runner.model), checkpoint["snapshot"])
        runner.model = runner.table.model
        runner.game = answers_for(runner.model)
        runner.next_card = checkpoint["next_card"]
        runner.next_action = checkpoint["next_action"]
        return runner

    def answer(self, pending):
        if pending is None:
            raise ScenarioError("the round waits in %s for nothing a scenario can give"
                                % self.model.state)
        need = pending["need"]
        if need == "card":
            if self.next_card >= len(self.cards):
                raise ScenarioError("the shoe runs out: no card left for %s"
                                    % pending.get("for", "the deal"))
            code = self.cards[self.next_card]
            self.next_card += 1
            self.feed("card", {"card": code}, "card %d (%s)" % (self.next_card, code))
        elif need in ("decision", "offer"):
            self.decide(pending)
        elif need == "reader":
            self.feed("reader", {READER_ANSWER: self.game.reader_answer()}, "card reader")
        else:
            kind, data = self.game.answer(pending, self.shoe_doc)
            self.feed(kind, data, need)

    def decide(self, pending):
        seat = str(pending["seat"])
        nxt = self.actions[self.next_action] if self.next_action < len(self.actions) else None
        if pending["need"] == "offer":
            if nxt is not None and str(nxt["seat"]) == seat and nxt["action"] == pending["offer"]:
                self.take_action(nxt)
            else:
                why = nxt is not None and str(nxt["seat"]) == seat and \
                    self.game.refusal(pending, nxt["action"])
                if why:
                    self.passed_over = (self.next_action, why)
                self.feed("decision", {"seat": seat, "action": "decline",
                                       "offer": pending["offer"]})
            return
        if nxt is None:
            raise ScenarioError("seat %s must decide (%s) but the actions have run out"
                                % (seat, ", ".join(pending.get("allowed", []))))
        if str(nxt["seat"]) != seat:
            raise ScenarioError("action %d: seat %s acts, but the procedure asks seat %s "
                                "(%s)" % (self.next_action + 1, nxt["seat"], seat,
                                          ", ".join(pending.get("allowed", []))))
        self.take_action(nxt)

    def take_action(self, action):
        self.next_action += 1
        data = dict(action)
        data["seat"] = str(data["seat"])
        self.feed("decision", data, "action %d" % self.next_action)

    def output(self):
        seats = {}
        for seat in sorted(self.model.results, key=int):
            wagers = {}
            total = 0
            for wager, (result, net) in self.model.results[seat].items():
                wagers[wager] = {"result": result, "net": net}
                total += net
            seats[seat] = {"net": total, "wagers": wagers}
        out = {"game": self.model.GAME, "status": self.model.status, "seats": seats}
        out.update(self.game.summary())
        if self.model.status == "void":
            out["reason"] = self.model.void_reason
        return out


def play(doc):
    return Runner(doc).run()


__all__ = ["play", "load", "ScenarioError", "InvalidCard"]
