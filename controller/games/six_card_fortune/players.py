"""Six-Card Fortune: the players' turn and the dealer's (670a.11(a)-(d), 670a.13(d), (i)).

After the deal, seat by seat from the dealer's right (the order of 670a.11(e)): a seat dealt an
exposed card first plays or voids that hand (670a.13(d)); then each seat is offered the Double
Down Wager (670a.11(c)) and sets its hands (670a.11(b)). Then the dealer sets his by the house way
(670a.11(d)); a setting that differs is reset to it and the round completes (670a.13(i)).
`queue` holds [seat, step] still to come; `pending` says what the head of it waits for.
"""

from controller.errors import InvalidCard
from controller.games.six_card_fortune import settle as settlement
from controller.games.engine import IllegalEvent, seat_key
from controller.rules import cards as C
from controller.rules import paigow as pg

PLAYERS, DEALER_SETTING = "players", "dealer_setting"
DEALER = pg.DEALER


def card_code(value, what):
    """The canonical code of a card ('as' -> 'As'), or InvalidCard naming `what`."""
    try:
        return C.code(C.parse(value))
    except InvalidCard as e:
        raise InvalidCard("%s: %s" % (what, e))


class PlayersAndDealer:
    """The part of SixCardFortune's procedure between the deal and settlement, a part the
    model holds (`model.players`).

    Needs from the model (model.py): its round data `queue` ([seat, step] still to come),
    `pending`, `hands`, `wagers`, `results`, `settings`, `voided_hands`, `dealer_setting`;
    `state`, `note`, `not_locked`, `waiting_for`, `live_seats`, `offers`, `void_round`,
    `players_set` (the machine's trigger), `settle`, `status`, `reshuffle_due`; and
    settle.py's `settle_round(model)`.
    Offers: decide (a decision event), next_step (the head of the queue asked), house_way."""

    def __init__(self, model):
        self.model = model

    # ---- the players (670a.11(a)-(c), 670a.13(d)) ------------------------------------------

    def next_step(self):
        m = self.model
        if not m.queue:
            self._dealer_turn()
            return
        seat, step = m.queue[0]
        if step == "exposed":
            m.pending = {"need": "decision", "seat": seat,
                         "allowed": ["play_hand", "void_hand"]}
        elif step == "double_down":
            m.pending = {"need": "offer", "seat": seat, "offer": "double_down"}
        else:
            m.pending = {"need": "decision", "seat": seat, "allowed": ["set"]}

    def decide(self, event):
        m = self.model
        m.not_locked()
        if str(event.get("seat")) == DEALER:
            self._dealer_sets(event)
            return
        seat = seat_key(event.get("seat"))
        action = event.get("action")
        if m.state != PLAYERS or not m.queue:
            raise IllegalEvent("%s for seat %s: no player decision is due: %s"
                               % (action, seat, m.waiting_for()))
        due, step = m.queue[0]
        if due != seat:
            raise IllegalEvent("%s for seat %s: the procedure asks seat %s (%s) first, from "
                               "the dealer's right (670a.11(e))"
                               % (action, seat, due, self._step_words(step)))
        getattr(self, "_step_" + step)(seat, action, event)

    def _step_words(self, step):
        return {"exposed": "play or void the hand with the exposed card",
                "double_down": "the Double Down offer", "set": "set the hands"}[step]

    def _done(self):
        m = self.model
        m.queue.pop(0)
        self.next_step()

    def _step_exposed(self, seat, action, event):
        m = self.model
        if action == "play_hand":
            m.note("exposed_hand_played", seat=seat, section="670a.13(d)")
        elif action == "void_hand":
            m.voided_hands.append(seat)
            m.results[seat] = {w: ["returned", 0] for w in m.wagers[seat]}
            m.note("hand_voided", seat=seat, section="670a.13(d)")
            if not m.live_seats():
                m.void_round("every player voided a hand dealt an exposed card (670a.13(d))")
                return
            m.queue = [q for q in m.queue if q[0] != seat]
            self.next_step()
            return
        else:
            raise IllegalEvent("seat %s decides whether to play or void the hand dealt an "
                               "exposed card (play_hand or void_hand), not %r (670a.13(d))"
                               % (seat, action))
        self._done()

    def _step_double_down(self, seat, action, event):
        m = self.model
        if action == "decline" and event.get("offer") in (None, "double_down"):
            m.note("double_down_declined", seat=seat)
        elif action == "double_down":
            amount = event.get("amount")
            wager = m.wagers[seat]["six_card_fortune"]
            if amount != wager or isinstance(amount, bool):
                raise IllegalEvent("double_down %s is not equal to the Six-Card Fortune Pai Gow "
                                   "Poker Wager %d (670a.7(e)(1), 670a.11(c))" % (amount, wager))
            m.wagers[seat]["double_down"] = amount
            m.note("double_down", seat=seat, amount=amount, section="670a.11(c)")
        else:
            raise IllegalEvent("seat %s is offered the Double Down Wager before setting its "
                               "hands: double_down or decline, not %r (670a.11(c))"
                               % (seat, action))
        self._done()

    def _step_set(self, seat, action, event):
        m = self.model
        if action == "double_down":
            why = ("this table does not offer the Double Down Wager (670a.7(e)(1))"
                   if not m.offers("double_down") else
                   "its Double Down offer came before it sets its hands (670a.11(c))")
            raise IllegalEvent("double_down for seat %s refused: %s" % (seat, why))
        if action != "set":
            raise IllegalEvent("seat %s sets its hands now (set, with the one-card low hand "
                               "as low), not %r (670a.11(b))" % (seat, action))
        dealt = m.hands[seat]
        low = card_code(event.get("low"), "set low")
        if low not in dealt:
            raise IllegalEvent("set low %s: seat %s was dealt %s (670a.11(b))"
                               % (low, seat, " ".join(dealt)))
        high = [c for c in dealt if c != low]
        given = event.get("high")
        if given is not None:
            if not isinstance(given, list) or \
                    sorted(card_code(c, "set high") for c in given) != sorted(high):
                raise IllegalEvent("set high %r is not the five cards besides the low %s: %s "
                                   "(670a.11(b))" % (given, low, " ".join(high)))
        foul = not pg.setting_is_valid(C.parse_all(high), C.parse(low))
        m.settings[seat] = {"high": high, "low": low, "foul": foul}
        m.note("set", seat=seat, high=high, low=low, foul=foul,
               section="670a.11(f)(1)(v)" if foul else "670a.11(b)")
        self._done()

    # ---- the dealer (670a.11(d), 670a.13(i)) -----------------------------------------------

    def house_way(self):
        m = self.model
        high, low = pg.house_way(C.parse_all(m.hands[DEALER]))
        low = C.code(low)
        return {"high": [c for c in m.hands[DEALER] if c != low], "low": low}

    def _dealer_turn(self):
        m = self.model
        m.players_set()
        m.pending = {"need": "dealer_setting", "house_way": self.house_way()}

    def _dealer_sets(self, event):
        m = self.model
        if m.state != DEALER_SETTING:
            raise IllegalEvent("the dealer sets his hands after every player has set (670a."
                               "11(d)); the round waits for %s" % m.waiting_for())
        if event.get("action") != "set":
            raise IllegalEvent("the dealer's decision is set, not %r (670a.11(d))"
                               % (event.get("action"),))
        low = card_code(event.get("low"), "dealer set low")
        if low not in m.hands[DEALER]:
            raise IllegalEvent("dealer set low %s: the dealer holds %s (670a.11(d))"
                               % (low, " ".join(m.hands[DEALER])))
        way = self.house_way()
        if low != way["low"]:
            m.note("dealer_set_wrongly", low=low, reset_low=way["low"], section="670a.13(i)")
        m.dealer_setting = way
        m.note("dealer_set", high=way["high"], low=way["low"], section="670a.11(d)")
        m.pending = None
        settlement.settle_round(m)
        m.status = "settled"
        m.reshuffle_due = "the cards are shuffled after each round (670a.5(a))"
        m.settle()
