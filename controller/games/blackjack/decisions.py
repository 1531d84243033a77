"""The players' decisions at a blackjack-family table, a part its model holds
(`model.decisions`): hit, stand, double, split, surrender, and refusing a card exposed in
error (581.7(h)-(k), 581.9-581.11; 633a.7(i)-(k)).
"""

from controller.games.blackjack.hands import ACTIONS, new_hand, parse, wager_name
from controller.games.engine import IllegalEvent
from controller.rules import blackjack as bj


class Decisions:
    """Each hand played in turn, from the dealer's left, and why a decision is refused.

    Needs from the model (family.py): its round data `hands`, `wagers`, `pending`, `turn`,
    `exposed_card`, `offer_queue`; SECTIONS, HAND_WAGERS, DOUBLE_WAGER; `note`, `ask_card`,
    `ask_reader`, `hands_in_order`, `waiting_for`, `amount`, `offer_next`, `take_offer`,
    `reveal`; and the game's hooks `double_limit`, `double_refusal`, `check_double`,
    `split_refusal`, `surrender_refusal`, `surrender_needs_reader`, `settle_surrender`,
    `pay_blackjack`, `not_now_reason`.
    Offers: decide (a decision event), take_card (a card while the hands are played),
    next_hand, refusal, allowed, surrendered."""

    def __init__(self, model):
        self.model = model

    def decide(self, event):
        """Taken only in a decision or offer wait (the model's ANSWERS)."""
        m = self.model
        p = m.pending
        seat, action = str(event.get("seat")), event.get("action")
        if seat != p["seat"]:
            raise IllegalEvent("seat %s acts (%s), but the procedure asks seat %s (%s)"
                               % (seat, action, p["seat"], m.waiting_for()))
        if p["need"] == "offer" and p["offer"] == "surrender" and "hand" in p:
            self.answer_surrender_offer(seat, action, event)
            return
        if p["need"] == "offer":
            offer = p["offer"]
            if action == "decline" and event.get("offer", offer) == offer:
                m.note("declined", seat=seat, offer=offer)
            elif action == offer:
                m.take_offer(seat, offer, event)
            else:
                raise IllegalEvent(self.not_now(action, seat))
            m.offer_queue.pop(0)
            m.offer_next(offer)
            return
        if action not in p["allowed"]:
            raise IllegalEvent(self.not_now(action, seat))
        index = m.turn[1]
        detail = {"seat": seat, "hand": index + 1}
        if action == "double":
            detail["amount"] = self.double_amount(seat, index, event)
        m.note(action, **detail)
        getattr(self, "act_" + action)(seat, index, event)

    def answer_surrender_offer(self, seat, action, event):
        """A hand that can take no more cards surrenders, or stands by declining (or by the
        dealer keying stand): the only choices left to it (581.9(a))."""
        m = self.model
        index = m.turn[1]
        if action == "surrender":
            m.note("surrender", seat=seat, hand=index + 1)
            self.act_surrender(seat, index, event)
        elif action in ("decline", "stand") and event.get("offer", "surrender") == "surrender":
            m.note("declined", seat=seat, offer="surrender", hand=index + 1)
            self.act_stand(seat, index, event)
        else:
            raise IllegalEvent("seat %s may not %s: hand %d can take no more cards: %s; it "
                               "stands or surrenders" % (seat, action, index + 1,
                                                         self.refusal("hit", seat, index)))

    def not_now(self, action, seat):
        """Why `action` is not what the procedure asks now, with the section: the game's own
        reason for its offers first (`not_now_reason`)."""
        m = self.model
        why = m.not_now_reason(action, seat)
        if why:
            return why
        p = m.pending
        if p and p["need"] == "decision" and action in ACTIONS:
            return "seat %s may not %s: %s" % (seat, action,
                                               self.refusal(action, seat, m.turn[1]))
        if p and p["need"] == "offer" and action in ACTIONS:
            return ("seat %s may not %s now: the round waits for its answer to the %s offer"
                    % (seat, action, p["offer"]))
        return "%s for seat %s is not what the procedure asks now: it waits for %s" % (
            action, seat, m.waiting_for())

    def hand(self, seat, index):
        return self.model.hands[seat][index]

    def refusal(self, action, seat, index):
        """Why the hand may not take `action` now (with the section), or None."""
        m = self.model
        hand = self.hand(seat, index)
        s = m.SECTIONS
        total = bj.total(parse(hand["cards"]))
        if action == "stand":
            return None
        if action == "refuse":
            if not m.exposed_card:
                return "no card exposed in error is offered (%s)" % s["refused_card"]
            return self.refusal("hit", seat, index)
        if action == "surrender":
            if total >= 21:
                return "a hand of %d may not surrender (%s)" % (total, s["surrender"])
            return m.surrender_refusal(seat, index)
        if hand["no_more_cards"]:
            return "it refused the card exposed in error and takes no more cards (%s)" % (
                s["refused_card"])
        if action == "split":
            parsed = parse(hand["cards"])
            if bj.can_split(parsed, len(m.hands[seat]), hand["split_aces"]):
                return m.split_refusal(seat, index)
            if len(parsed) != 2 or bj.card_value(parsed[0]) != bj.card_value(parsed[1]):
                return "%s are not two cards identical in value (%s)" % (
                    " ".join(hand["cards"]), s["split_pair"])
            if hand["split_aces"]:
                return "split aces are not split again (%s)" % s["split_aces"]
            return "the seat has %d hands, the most a player may split to (%s)" % (
                len(m.hands[seat]), s["split_hands"])
        if hand["split_aces"]:
            return "a split ace takes one card only (%s)" % s["split_aces"]
        if hand["doubled"]:
            return "a doubled hand takes one card only (%s)" % s["double_one_card"]
        if total >= 21:
            return "a hand of %d may not draw (%s)" % (total, s["draw_21"])
        if action == "double":
            return m.double_refusal(seat, index)
        return None

    def allowed(self, seat, index):
        return [a for a in ACTIONS if self.refusal(a, seat, index) is None]

    def next_hand(self):
        """The next hand that needs a card or a decision, from the dealer's left; hands owed a
        missed card come after all others (581.13(g)); then the dealer."""
        m = self.model
        for owed_pass in (False, True):
            for seat, i, hand in m.hands_in_order():
                if hand["done"] or (bool(hand["owed"]) != owed_pass):
                    continue
                m.turn = [seat, i]
                if hand["owed"] or len(hand["cards"]) < 2:
                    m.ask_card("seat %s hand %d (%s)" % (seat, i + 1, hand["owed"] or "split"))
                    return
                if hand["blackjack"]:
                    m.pay_blackjack(seat, i)
                    hand["done"] = hand["settled"] = True
                    continue
                if bj.total(parse(hand["cards"])) >= 21:
                    hand["done"] = True
                    continue
                allowed = self.allowed(seat, i)
                if allowed == ["stand"]:
                    hand["done"] = hand["stood"] = True
                    continue
                if set(allowed) == {"stand", "surrender"}:
                    # It can take no more cards (doubled, split aces, a refused card): it is
                    # not asked to stand; the surrender still open to it (581.9(a)) is offered.
                    m.pending = {"need": "offer", "seat": seat, "hand": i + 1,
                                 "offer": "surrender"}
                    return
                m.pending = {"need": "decision", "seat": seat, "hand": i + 1,
                             "allowed": allowed}
                return
        m.turn = None
        m.pending = None
        m.reveal()

    def take_card(self, code):
        """A card for the hand being played."""
        m = self.model
        seat, i = m.turn
        hand = self.hand(seat, i)
        hand["cards"].append(code)
        hand["owed"] = None
        m.note("card", to="%s#%d" % (seat, i + 1), card=code)
        self.next_hand()

    def act_hit(self, seat, index, event):
        self.model.ask_card("seat %s hand %d (hit)" % (seat, index + 1))

    def act_stand(self, seat, index, event):
        hand = self.hand(seat, index)
        hand["stood"] = hand["done"] = True
        self.next_hand()

    def act_refuse(self, seat, index, event):
        self.hand(seat, index)["no_more_cards"] = True
        self.next_hand()

    def double_amount(self, seat, index, event):
        m = self.model
        amount = m.amount(event, "double")
        limit = m.double_limit(seat, index)
        if amount > limit:
            raise IllegalEvent("double %d exceeds %d, the most this hand may double (%s)"
                               % (amount, limit, m.SECTIONS["double_amount"]))
        m.check_double(seat, index, amount)
        return amount

    def act_double(self, seat, index, event):
        m = self.model
        amount = self.double_amount(seat, index, event)
        m.wagers[seat][wager_name(m.DOUBLE_WAGER, index)] = amount
        self.hand(seat, index)["doubled"] = True
        m.ask_card("seat %s hand %d (double)" % (seat, index + 1))

    def act_split(self, seat, index, event):
        m = self.model
        hands = m.hands[seat]
        hand = hands[index]
        aces = hand["cards"][0][0] == "A"
        second = hand["cards"].pop()
        hand.update(split=True, split_aces=aces)
        hands.insert(index + 1, new_hand([second], split=True, split_aces=aces))
        # Hands after this one are unplayed and carry the same wagers: the new one's names
        # are the next free numbers (581.11(a): each matches the original wagers).
        placed = m.wagers[seat]
        for w in m.HAND_WAGERS:
            if w in placed:
                placed[wager_name(w, len(hands) - 1)] = placed[w]
        self.next_hand()

    def act_surrender(self, seat, index, event):
        m = self.model
        if m.surrender_needs_reader():
            m.ask_reader([seat, index])
            return
        self.surrendered(seat, index, None)
        self.next_hand()

    def surrendered(self, seat, index, dealer_blackjack):
        hand = self.hand(seat, index)
        hand["surrendered"] = hand["done"] = hand["settled"] = True
        self.model.settle_surrender(seat, index, dealer_blackjack)
