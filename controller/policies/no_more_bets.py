""""No more bets" (583.7(c), 669a.7(c), 669a.2(c)(2), 670a.2(c)(2), 670a.7(c), 585.3(e)).

The dealer's press is stamped at the button's edge. In the step that sees it, the
progressive lock-out output is engaged and every wager sensor locked, before anything else.
From then on a wager is judged by its own stamp, not by when it arrived:
    stamped after the press      not recognized; journaled as an attempt (possible past-post)
    stamped before the press     recognized if it reaches the loop before wagering closes
A driver thread can deliver an earlier wager after the press, so the game's own "no more
bets" (close_wagers) is applied at the end of the step, or `window_ns` after the press when
set (the longest a driver may take to deliver an edge), or when the dealer's count arrives
with `require_count`. A wager stamped before a press that already closed is refused as late.

The dealer's count of progressive chips rides on the press ({"progressive_chips": n}) or on
a second "no more bets" event while the close is pending. It is reconciled with the
progressive wagers the controller recognized; a mismatch holds the round for a floorperson
(the engine's lock-out; the clear resumes the deal). Raise It Up reconciles it itself
(669a.8(b)), so it is handed the count; Six-Card Fortune is handed the seats the system
accepted (670a.8(b)(2)); elsewhere the controller locks the table itself. Each game declares
which (`count_handed_as`) and the section a wager after the press breaks
(`no_more_bets_section`, controller/games/declarations/).
"""

from collections import deque

from controller.errors import WagerNotRecognized
from controller.games.engine import LOCKED_OUT, WAGERS_OPEN
from controller.games.events import Event
from controller.policies import CONSUMED, Policy
from controller.progressive import progressive_wagers

PRESS_LOG = 1000                 # presses kept: a table, and a replay of it, runs for months


def _section(model):
    """The section a wager after the press breaks, as the game declares it."""
    return model.DECLARES.no_more_bets_section


class NoMoreBets(Policy):
    def __init__(self, window_ns=0, require_count=False):
        self.window_ns = window_ns
        self.require_count = require_count
        self.press = None            # the pending press: its event, while wagering closes
        self.count = None            # the dealer's progressive chip count for that press
        self.last_press_ns = None    # the press that closed the round being played
        self.round_no = None
        self.accepted = {}           # seat -> progressive wagers recognized this round
        self.stats = {"presses": 0, "attempted": 0, "recognized": 0, "late_recognized": 0,
                      "late_refused": 0, "mismatches": 0}
        self.press_log = deque(maxlen=PRESS_LOG)   # (press ts, lock-out written at ns)

    # ---- events -----------------------------------------------------------------------

    def before(self, ctl, event):
        if event.kind == "wager":
            return self._wager(ctl, event)
        if event.kind == "no_more_bets":
            return self._press(ctl, event)
        if self.press is not None and event.kind not in ("fault", "clear") and \
                not event.kind.startswith("link_"):
            self.close(ctl)          # anything else of the round comes after the close
        return None

    def _wager(self, ctl, event):
        ts = event.ts_ns
        if self.press is not None:
            if ts > self.press.ts_ns:
                self._attempt(ctl, event, "after \"no more bets\" at %d ns" % self.press.ts_ns)
            if ctl.model.state == WAGERS_OPEN:
                self.stats["late_recognized"] += 1
                return None
        if self.last_press_ns is not None and ts < self.last_press_ns:
            self.stats["late_refused"] += 1
            ctl.note("late_wager", ts, seat=event.get("seat"), wager=event.get("wager"))
            raise WagerNotRecognized(
                "wager %s at seat %s stamped %d ns reached the table after wagering closed at "
                "%d ns: not recognized" % (event.get("wager"), event.get("seat"), ts,
                                           self.last_press_ns))
        if ctl.model.state != WAGERS_OPEN and ctl.model.state in ctl.model.ROUND_STATES or \
                (ctl.model.state == LOCKED_OUT and ctl.model.resume_to in
                 ctl.model.ROUND_STATES):
            self._attempt(ctl, event, "after \"no more bets\"")
        return None

    def _attempt(self, ctl, event, when):
        self.stats["attempted"] += 1
        ctl.note("wager_attempt", event.ts_ns, seat=event.get("seat"), wager=event.get("wager"),
                 amount=event.get("amount"), press_ns=self.press.ts_ns if self.press else
                 self.last_press_ns, section=_section(ctl.model))
        raise WagerNotRecognized("wager %s at seat %s stamped %d ns, %s: not recognized; "
                                 "journaled as a possible past-post (%s)"
                                 % (event.get("wager"), event.get("seat"), event.ts_ns, when,
                                    _section(ctl.model) or "583.7(c)"))

    def _press(self, ctl, event):
        if self.press is not None:             # the dealer's count, or the button again
            if event.get("progressive_chips") is not None:
                self.count = event.get("progressive_chips")
            return CONSUMED
        if ctl.model.state != WAGERS_OPEN:
            return None                        # the game says why it is refused
        ctl.outputs.engage_lockout()           # the same step, before anything else
        self.press_log.append((event.ts_ns, ctl.clock()))
        self.stats["presses"] += 1
        self.press = event
        self.count = event.get("progressive_chips")
        return CONSUMED

    def after(self, ctl, event):
        if ctl.model.round_no != self.round_no:
            self.round_no = ctl.model.round_no
            self.accepted = {}
        # a linked meter's wager is accepted by the link's acknowledgement (link_contribution)
        if event.kind in ("wager", "link_contribution") and ctl.model.state == WAGERS_OPEN:
            seat = str(event.get("seat"))
            wager = event.get("wager") if event.kind == "wager" else "progressive"
            if event.kind == "link_contribution":
                seat = str(event.get("id", "")).rsplit(":", 1)[-1]
                # the wager of the meter on the event's link (Blackjack's three progressives)
                from controller.progressive import meter_of_link
                wager = meter_of_link(ctl.model, event.get("link"))[0] or wager
            if wager in progressive_wagers(ctl.model):
                placed = ctl.model.wagers.get(seat, {})
                if wager in placed:
                    self.accepted.setdefault(seat, set()).add(wager)
                else:
                    self.accepted.get(seat, set()).discard(wager)

    # ---- closing wagers ---------------------------------------------------------------

    def deadline(self):
        return None if self.press is None else self.press.ts_ns + self.window_ns

    def tick(self, ctl, now_ns):
        if self.press is None or ctl.model.state != WAGERS_OPEN:
            return
        if now_ns >= self.press.ts_ns + self.window_ns and \
                (self.count is not None or not self.require_count):
            self.close(ctl)

    def accepting(self, ctl):
        return self.press is None

    def quiet_until(self, ctl):
        """The press's window: its tick acts at its end at the earliest; accepting is the
        press's alone."""
        return self.deadline()

    def close(self, ctl):
        """The game's own "no more bets", then the reconciliation of the chip count."""
        press, count = self.press, self.count
        self.press, self.count = None, None
        takes = ctl.model.DECLARES.count_handed_as
        data = {k: v for k, v in press.data.items() if k != "progressive_chips"}
        accepted = sorted((s for s, w in self.accepted.items() if w), key=int)
        if takes == "progressive_chips" and count is not None:
            data["progressive_chips"] = count
        elif takes == "progressive_accepted":
            data["progressive_accepted"] = accepted
        try:
            ctl.table.handle(Event("no_more_bets", data, "controller", press.ts_ns))
        except Exception as e:
            # wagering reopens: the dealer corrects the layout and presses again
            ctl.note("close_refused", press.ts_ns, reason=str(e))
            ctl.refuse(press, e)
            return
        self.last_press_ns = press.ts_ns
        recognized = sum(len(w) for w in self.accepted.values())
        ctl.note("wagers_closed", press.ts_ns, progressive=accepted, count=count)
        if count is None or count == recognized:
            return
        self.stats["mismatches"] += 1
        if ctl.model.state != LOCKED_OUT:
            ctl.model.lock("%d progressive chips counted but the system accepted %d "
                           "progressive wagers: a floorperson resolves it before the deal"
                           % (count, recognized), _section(ctl.model), "progressive")
