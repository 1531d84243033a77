"""The soak's invariants, checked after every step by code that is not the code under test.

Each check watches what the table did from outside -- the inputs it applied or refused (a
wrapper around `ctl.process` that only looks), the outputs a person sees (the console's live
screen, status and events, the meter display's last text, every log line), the rounds'
settlements, the journal file -- and states the rule in its own words, so a bug in the
controller's code for that rule is not also a bug in the check:

    money       every wager of a round ends with exactly one result: paid (net > 0), returned
                or a push (net 0) or kept (net = -amount); a void returns every wager (581.6(c))
    ledger      a settlement seen before a power cut is in the journal after it, the same, and
                no round ends twice (an independent ledger of what was settled)
    past_post   no wager accepted after "no more bets" until the round is over (the game's
                declared section: 583.7(c), 669a.2(c)(2), ...)
    secret      no card dealt in a round in progress on the console, the meter display or any
                log line (581.13(h)(1): no player may learn the hole card)
    clear       a lock-out ends only by a clear: of a floorperson or above; a device's
                malfunction only after its self-test passed (581.13(i)); the journal's
                integrity only by a technician or above at the console
    journal     every boot's checks pass and the journal verifies from row 1 at the end

A violation names its invariant, the step (the count of inputs the controllers applied or
refused since the run began, across boots) and the seed: `tablectl soak --replay SEED:STEP`
stops there.
"""

import json
import logging
import re
import string

ROLES = ("dealer", "floorperson", "technician", "administrator")
CARD = re.compile(r"^(?:10|[2-9TJQKA])[shdc]$|^JK$")
ROUND_STATES_OVER = ("settled", "voided")
WORD = re.compile(r"[0-9A-Za-z]+")      # a word of a text searched for a card
ALNUM = frozenset(string.ascii_letters + string.digits)
CARD_WORD = re.compile(r"(?:10|[2-9TJQKA])[shdc]|JK")     # CARD's shape, as a whole string
# every word of CARD's shape and a few more (two or three characters, as a card begins and
# goes on), followed by no letter or digit: what CardSearch scans a text for; a character
# class to begin with lets the engine skip to where one can begin (the cards' own shape,
# an alternation, searched a screen three times slower)
CARD_LIKE = re.compile(r"[1-9TJQKA][0shdcK][shdc]?(?![0-9A-Za-z])")
EVENTS_EVERY = 400       # the console's `events` itself every 400th look (it opens the
                         # journal file); every row's line of it is looked at once besides


class StopAt(BaseException):
    """The replay reached the step it was asked to stop at."""


def _cards_in(value, out):
    if isinstance(value, str):
        if CARD.match(value):
            out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _cards_in(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _cards_in(v, out)
    return out


class CardSearch:
    """Which of `cards` a text shows as whole words (a word: a run of [0-9A-Za-z]): what
    `set(re.findall("[0-9A-Za-z]+", text)) & cards` finds, found by one scan of the text in
    the regular expression engine for every word shaped as a card (CARD_LIKE), each looked
    up in the set, instead of a string and a set entry made for each word of the text
    (issue 33: the soak's second costliest function in a six-card soak, as its screens are
    searched after every card). The expression is one for all cards: one of the cards
    themselves would be compiled again at every card dealt. A card of no card's shape that
    could still be a word (a model's own spelling) gets an expression of its own, built
    once for the set."""

    def __init__(self, cards):
        self.cards = frozenset(cards)
        odd = sorted((c for c in self.cards if isinstance(c, str) and WORD.fullmatch(c)
                      and not CARD_WORD.fullmatch(c)), key=lambda c: (-len(c), c))
        self.odd = None if not odd else re.compile(
            r"(?:%s)(?![0-9A-Za-z])" % "|".join(re.escape(c) for c in odd))

    def found_in(self, text):
        """The cards that are whole words of `text`, sorted. The expressions look ahead
        only (one looking behind first keeps the engine from skipping to where a card's
        first character is, and was slower than the words); behind each match is looked
        at here: a match after a letter or digit is inside a longer word ("0h" in "10h"),
        and skipping past it loses none, as every position inside it is after a letter or
        digit too."""
        found = set()
        for pattern in (CARD_LIKE, self.odd):
            if pattern is None:
                continue
            for m in pattern.finditer(text):
                at = m.start()
                if (at == 0 or text[at - 1] not in ALNUM) and m.group() in self.cards:
                    found.add(m.group())
        return sorted(found)


class _LogLines(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        try:
            self.lines.append(record.getMessage())
        except Exception:                       # noqa: BLE001 - a bad record is not ours
            self.lines.append(str(record.msg))


class Checks:
    """The invariants of one soaked table, across its boots (see the module docstring)."""

    def __init__(self, game, seed, stop_at=None, first=False):
        self.game, self.seed, self.stop_at = game, seed, stop_at
        self.first = first                    # stop at the first violation
        self.step = 0
        self.checked = 0
        self.violations = []
        self.ledger = {}                      # round_no -> results, as settled live
        self.settled_before_cut = {}
        self.dealt = set()                    # cards of the round in progress
        self.dealt_list = []                  # and each time one was dealt
        self.untested = set()                 # devices faulted since their last self-test
        self.secret = set()                   # those of them no one may see yet
        self._search = CardSearch(())         # _leaks' search for them
        self.closed = None                   # "no more bets" applied in this round
        self.ctl = self.table = self.console = None
        self.section = None
        self.logs = _LogLines()
        self.looks = 0
        self.lines_seen = 0                   # the journal's rows whose console line was read
        self.seen_seq = None                  # the journal's last row when a step was checked
        self.at_cut = None                    # (state, lockout) when the power went
        self.scanned = None                   # journal_rounds' last scan: seq, hash, found

    # ---- attaching to each boot ------------------------------------------------------------

    def attach(self, table):
        """After each boot: watch its controller's inputs and outputs."""
        from controller.console.commands import Commands
        ctl = self.ctl = table.ctl
        self.table = table
        self.section = ctl.model.DECLARES.no_more_bets_section
        self.console = Commands(ctl, table.runtime.drivers)
        process = ctl.process

        def watched(event):
            before = (ctl.model.state, dict(ctl.model.lockout or {}), len(ctl.refusals),
                      ctl.model.status)
            process(event)
            self.seen_seq = self._last_seq()
            self.after(event, before)
        ctl.process = watched
        report = ctl.boot_report or {}
        self.check(report.get("problem") is None, "journal",
                   "boot %d: the boot checks failed: %s" % (table.boots, report.get("problem")))
        self.secret, self.dealt, self.dealt_list = set(), set(), []
        self.closed = None
        self.replayed()
        self.seen_seq = self._last_seq()
        self.lines_seen = min(self.lines_seen, self.seen_seq or 0)   # rows the cut took

    def _last_seq(self):
        return getattr(getattr(self.ctl.journal, "store", None), "last_seq", None)

    def replayed(self):
        """The inputs the journal held that the process had not finished applying when the
        power went (journaled before they are applied): the boot's replay applied them, so
        they count here as the live ones do. A clear the floorperson asked for is journaled,
        the power goes before it is applied, the boot ends the lock-out by it: that is a
        clear, and the devices its self-test passed are tested (props-and-hops seed 1 steps
        668-737 of issue 33's soak: the check had kept the shoe untested)."""
        from controller.games.events import Event
        from controller.journal.store import load
        at_cut, self.at_cut = self.at_cut, None
        store = getattr(self.ctl.journal, "store", None)
        if at_cut is None or store is None or self.seen_seq is None:
            return
        state_before, lockout_before = at_cut
        last_clear = None
        for row in store.rows(self.seen_seq + 1):
            if row["entry"] != "event" or row["kind"] not in ("fault", "clear"):
                continue
            r = load(row)
            event = Event(r["kind"], r["data"], r.get("source"), r["ts_ns"])
            self.untested_after(event, refused=False)
            if event.kind == "clear":
                last_clear = event
        if state_before == "locked_out" and self.ctl.model.state != "locked_out":
            if self.check(last_clear is not None, "clear", "the lock-out %r ended at the boot "
                          "with no clear in the journal [581.13(i)]"
                          % lockout_before.get("reason")):
                self.lockout_ended(last_clear, lockout_before)

    def start_logs(self):
        logging.getLogger().addHandler(self.logs)

    def stop_logs(self):
        logging.getLogger().removeHandler(self.logs)

    # ---- after every input -----------------------------------------------------------------

    def check(self, ok, invariant, detail):
        self.checked += 1
        if not ok:
            self.violations.append({"invariant": invariant, "seed": self.seed,
                                    "step": self.step, "game": self.game,
                                    "round": getattr(self.ctl.model, "round_no", None)
                                    if self.ctl else None,
                                    "detail": detail, "replay": "%s:%d" % (self.seed, self.step)})
            if self.first:
                raise StopAt(self.step)
        return ok

    def after(self, event, before):
        self.step += 1
        m = self.ctl.model
        state_before, lockout_before, refusals_before, status_before = before
        refused = len(self.ctl.refusals) > refusals_before
        kind = event.kind
        # past-post: a wager placed after "no more bets" (stamped after the press) accepted
        if kind == "no_more_bets" and not refused and state_before == "wagers_open" and \
                self.closed is None:
            self.closed = event.ts_ns
        if kind == "wager" and (event.get("amount") or 0) > 0 and self.closed is not None:
            self.check(refused or event.ts_ns <= self.closed, "past_post",
                       "a wager (seat %s, %s, %s cents) stamped %d ns after \"no more bets\" "
                       "was accepted [%s]" % (event.get("seat"), event.get("wager"),
                                             event.get("amount"), event.ts_ns - self.closed,
                                             self.section))
        # the cards of the round in progress, and which of them are still face down
        if kind == "card" and not refused:
            _cards_in(event.data, self.dealt)
            self.dealt_list.extend(sorted(_cards_in(event.data, set())))
            self.secret = self.face_down(m)
        if kind == "card" and not refused:
            self.check_outputs()
        # every device that reported a malfunction passes its self-test before play goes on
        self.untested_after(event, refused)
        # a lock-out ends only by an authorized clear after the check its kind needs
        if state_before == "locked_out" and m.state != "locked_out":
            self.lockout_ended(event, lockout_before)
        # the round's end: money, the ledger
        if m.status is not None and status_before is None:
            self.round_ended(m)
        elif m.state in ("shuffled", "opened", "closed"):
            self.closed = None                  # wagering starts again (after a lock-out)
        self.check_display()
        if self.stop_at is not None and self.step >= self.stop_at:
            raise StopAt(self.step)

    def untested_after(self, event, refused):
        if event.kind == "fault":
            self.untested.add(event.get("device"))
        if event.kind == "clear" and not refused and event.get("selftest") is True:
            if event.get("device") in (None, "controller", "outputs"):
                self.untested.clear()
            self.untested.discard(event.get("device"))
            self.untested -= set(event.get("tested") or ())

    def lockout_ended(self, event, lockout_before):
        self.check_clear(event, lockout_before)
        covered = lockout_before.get("device") if lockout_before.get("covered") else None
        left = sorted(str(d) for d in self.untested - {covered})
        self.check(not left, "clear", "play goes on after the lock-out %r, but %s "
                   "reported a malfunction since and passed no self-test [581.13(i)]"
                   % (lockout_before.get("reason"), ", ".join(left)))
        self.untested = set()

    def check_clear(self, event, lockout):
        role = event.get("role")
        ok = event.kind == "clear" and role in ROLES and \
            ROLES.index(role) >= ROLES.index("floorperson")
        device = lockout.get("device")
        if ok and device == "journal":
            ok = ROLES.index(role) >= ROLES.index("technician") and event.source == "console"
        elif ok and device not in (None, "controller", "outputs") and \
                not lockout.get("covered"):
            ok = event.get("selftest") is True
        self.check(ok, "clear", "the lock-out %r [%s] ended by a %s from %s (role %r, "
                   "self-test %r) [581.13(i)]" % (lockout.get("reason"), lockout.get("section"),
                                                  event.kind, event.source, role,
                                                  event.get("selftest")))

    def round_ended(self, m):
        wagers = {s: dict(w) for s, w in (m.wagers or {}).items()}
        results = {s: dict(r) for s, r in (m.results or {}).items()}
        if hasattr(m, "pots"):
            # a poker room: the players' stacks are not wagers against the house; what the
            # bets lost the pots paid, less the rake and the jackpot drop (637a)
            moved = sum(r[1] for seat in results.values() for r in seat.values())
            kept = (getattr(m, "rake", 0) or 0) + (getattr(m, "jackpot_drop", 0) or 0)
            self.check(moved + kept == 0 or m.status == "void" and moved == 0, "money",
                       "round %s: the players' nets add up to %s cents with %s cents kept by "
                       "the house: money was made or lost" % (m.round_no, moved, kept))
            wagers = {}
        for seat, placed in wagers.items():
            for wager, amount in placed.items():
                res = results.get(seat, {}).get(wager)
                if not self.check(res is not None, "money", "round %s: seat %s's %s wager of "
                                  "%s cents has no result [581.6(c)]"
                                  % (m.round_no, seat, wager, amount)):
                    continue
                net = res[1]
                ok = isinstance(net, int) and (net >= 0 or net == -amount)
                if m.status == "void":
                    ok = ok and net == 0
                self.check(ok, "money", "round %s (%s): seat %s's %s wager of %s cents ended "
                           "%r" % (m.round_no, m.status, seat, wager, amount, res))
        key = m.round_no
        self.check(key not in self.ledger, "ledger", "round %s ended a second time" % key)
        self.ledger[key] = _canon(m.status, results)
        self.secret, self.dealt, self.dealt_list = set(), set(), []
        self.closed = None

    # ---- what a person sees ----------------------------------------------------------------

    def face_down(self, m):
        """The cards no one may see yet: a game with a hole card (the declaration says
        `hole_card`) shows every card but the dealer's second, which stays down until the
        round is over; any other game shows none of a round's cards before it is over."""
        from controller.games.declarations import HOLE_CARD
        if m.DECLARES.secret == HOLE_CARD:
            dealer = list(getattr(m, "dealer", None) or [])
            if len(dealer) < 2 or self.dealt_list.count(dealer[1]) != 1:
                return set()        # (a shoe of decks: the same card face up elsewhere)
            return {dealer[1]}
        return set(self.dealt)

    def _leaks(self, text):
        """The secret cards `text` shows, sorted: each one a whole word of it (a run of
        letters and digits: "10h" is not "0h", "Kh" in "Khz" is no card)."""
        if not self.secret or not text:
            return []
        if self._search.cards != self.secret:
            self._search = CardSearch(self.secret)
        return self._search.found_in(text)

    def check_outputs(self):
        """The console's screen, status and latest events, and every log line since; not
        drawn while no card is face down (a hole-card game's cards before the hole card),
        as nothing on them could be found then (issue 33: the screens were most of the
        checks' cost)."""
        lines, self.logs.lines = self.logs.lines, []
        if not self.secret:
            return
        console = self.console
        # the commands' own functions: `run` would journal each look as a console command
        texts = [("console watch", console.screen()),
                 ("console status", console.table.c_status("technician", []))]
        self.looks += 1
        texts.append(("console events", self.new_lines()))
        if self.looks % EVENTS_EVERY == 0:          # the command itself, now and then
            texts.append(("console events", console.records.c_events("technician", [])))
        texts += [("log", line) for line in lines]
        for where, text in texts:
            leaked = self._leaks(str(text))
            self.check(not leaked, "secret", "%s shows %s before the round is over "
                       "[581.13(h)(1)]" % (where, ", ".join(leaked)))

    def new_lines(self):
        """The line `events` shows for each row journaled since the last look, by the
        console's own rendering (`events` reads the journal file's last rows: opening it
        at every card made the look O(journal), issue 33; so every row is read once here,
        from the controller's store, and the command itself is run now and then)."""
        from controller.console.view import entries
        store = getattr(self.ctl.journal, "store", None)
        last = getattr(store, "last_seq", None)
        if last is None or last <= self.lines_seen:
            return ""
        rows = list(store.rows(self.lines_seen + 1))
        self.lines_seen = last
        return "\n".join(self.console.records._line(e) for e in entries(rows))

    def check_display(self):
        display = self.table.devices.sim.serial.get("meter_display") if self.table else None
        if display is None or not self.secret:
            return
        text = " ".join(str(t) for t in display.texts.values()) + " " + str(display.blanked)
        leaked = self._leaks(text)
        self.check(not leaked, "secret", "the meter display shows %s [581.13(h)(1)]"
                   % ", ".join(leaked))

    # ---- across power cuts and at the end ----------------------------------------------------

    def before_cut(self):
        """What was settled before the cut: the ledger the journal must keep."""
        self.settled_before_cut = dict(self.ledger)
        m = self.ctl.model if self.ctl is not None else None
        self.at_cut = None if m is None else (m.state, dict(m.lockout or {}))

    def journal_rounds(self, path, whole=False):
        """{round_no: [settlement, ...]} of every round the journal's snapshots end.

        After a cut only the rows past the last scan are read (`whole`: all of them, as the
        end does): every row up to that scan's last was on the disk when it was read, so no
        cut after can take it back, and it is read again only if that row's hash is no longer
        the one seen (the journal rewritten behind it: then the whole, from row 1). Reading
        all of it at every cut made a soak quadratic in its journal (issue 33)."""
        from controller.journal.formats import open_journal
        from controller.journal.store import load
        store = open_journal(path)
        try:
            mark = self.scanned
            if whole or mark is None or store.last_seq < mark[0] or \
                    store.hash_at(mark[0]) != mark[1]:
                mark = self.scanned = (0, None, {}, [], set())
            _, _, ended, counted, seen = mark
            for row in store.rows(mark[0] + 1):
                if row["entry"] != "snapshot":
                    continue
                r = load(row)
                model = r["data"]["table"]["model"]
                counters = r["data"].get("counters", {})
                marker = (model.get("round_no"), counters.get("rounds"), counters.get("voids"))
                if model.get("status") is None or marker in seen:
                    continue
                seen.add(marker)
                n = (counters.get("rounds") or 0) + (counters.get("voids") or 0)
                counted.append((model.get("round_no"), n))
                ended.setdefault(model.get("round_no"), []).append(
                    _canon(model.get("status"), model.get("results") or {}))
            self.scanned = (store.last_seq, store.hash_at(store.last_seq), ended, counted,
                            seen)
        finally:
            store.close()
        self.counted = counted
        return {n: list(got) for n, got in ended.items()}

    def after_boot(self, path):
        """After a cut's reboot: no settlement seen before the cut lost, changed or doubled."""
        ended = self.journal_rounds(path)
        for round_no, settled in sorted(self.settled_before_cut.items()):
            got = ended.get(round_no, [])
            self.check(len(got) == 1 and got[0] == settled, "ledger",
                       "round %s: settled before the power cut as %s; the journal after it "
                       "ends it %d time(s)%s" % (round_no, settled, len(got),
                                                 "" if not got else ": %s" % got))
        self.check_ends(ended)
        # a round the cut interrupted is void at the resume, or settled by the replay: the
        # live ledger follows the journal from here
        self.ledger = {n: got[0] for n, got in ended.items() if got}

    def finish(self, path):
        from controller.journal.cli import verify_path
        ok, message, _ = verify_path(path)
        self.check(ok, "journal", "the journal does not verify: %s" % message)
        self.check_ends(self.journal_rounds(path, whole=True))

    def check_ends(self, ended):
        """Each round ends once in the journal, and each end counts one round more."""
        for round_no, got in ended.items():
            self.check(len(got) == 1, "ledger", "round %s ends %d times in the journal"
                       % (round_no, len(got)))
        for (_, a), (round_no, b) in zip(self.counted, self.counted[1:]):
            self.check(b == a + 1, "ledger", "round %s: the journal's round count goes from "
                       "%d to %d at its end" % (round_no, a, b))


def _canon(status, results):
    return json.dumps([status, results], sort_keys=True, separators=(",", ":"))
