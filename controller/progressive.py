"""Progressive meters (669a.2(c), 669a.12(e), 670a.2(c), 670a.12(d), 605a.7).

A meter is JSON-native state a game model keeps: its value in cents, the
fraction of a cent carried from contributions (never lost, never rounded),
the rate as an exact fraction, the reset amount, and the regulation meters
(hits, amount paid, amount contributed). Every accepted Progressive Payout
Wager contributes rate x amount when it is accepted; a meter share is paid at
the meter's value when the player's turn comes (669a.12(e)(4), 670a.12(d)(3)),
so several winners at one table are paid in settlement order, each from what
the one before left; a 100% hit resets the meter to its reset amount.
"""

from fractions import Fraction

from controller.errors import ConfigError, SettlementError
from controller.rules import paytables as pt
from controller.units import cents  # noqa: F401 - its home is the bottom layer


def new_meter(game, prog):
    """Meter state for `game` from the validated `progressive` configuration."""
    if prog is None:
        raise ConfigError("progressive: this table offers a Progressive Payout Wager but has no "
                          "progressive configuration (meter, reset, rate)")
    minimums = pt.PROGRESSIVE_MINIMUMS[game]
    reset = prog.get("reset", minimums["reset"])
    rate = prog.get("rate")
    if rate is None:
        raise ConfigError("progressive.rate: the rate of progression must be in the Rules "
                          "Submission (%s)" % minimums["section"])
    exact = Fraction(repr(rate)) if isinstance(rate, float) else Fraction(rate)
    return {"value": prog.get("meter", reset), "carry": 0, "rate": [exact.numerator,
                                                                     exact.denominator],
            "reset": reset, "hits": 0, "paid": 0, "contributed": 0, "wagers": 0}


def contribute(meter, amount):
    """An accepted Progressive Payout Wager of `amount` cents adds rate x amount."""
    if not isinstance(amount, int) or amount <= 0:
        raise SettlementError("a Progressive Payout Wager is whole cents > 0, not %r" % (amount,))
    num, den = meter["rate"]
    total = meter["carry"] + amount * num
    meter["value"] += total // den
    meter["contributed"] += total // den
    meter["carry"] = total % den
    meter["wagers"] += 1
    return meter["value"]


def pay(meter, pay_, wager):
    """Settle one winning Progressive Payout Wager now.

    Returns (net to the player, cents taken from the meter). A meter share is paid
    at the meter's value now; a 100% hit resets it. "N for 1" payouts are paid by
    the table, the meter untouched.
    """
    if pay_ is None:
        return -wager, 0
    if pay_.kind != pt.METER:
        return _net_fixed(pay_, wager), 0
    amount = meter["value"] * pay_.num // 100
    meter["hits"] += 1
    meter["paid"] += amount
    if pay_.num >= 100:
        meter["value"] = meter["reset"]
    else:
        meter["value"] -= amount
    return amount - wager, amount


def progressives(model):
    """{wager name: meter dict} of the progressive meters the model keeps."""
    meters = getattr(model, "meters", None)
    if isinstance(meters, dict):
        return {name: m for name, m in meters.items() if isinstance(m, dict)}
    meter = getattr(model, "meter", None)
    return {"progressive": meter} if isinstance(meter, dict) else {}


def meter_values(model):
    """{wager name: cents} the model's progressive meters stand at."""
    return {name: m["value"] for name, m in progressives(model).items()}


def _net_fixed(pay_, wager):
    from controller.rules.settle import net_for
    return net_for(pay_, wager)


def needs_attendant(game, pay_):
    """A payout the table inventory may not pay: 100% of the meter at Raise It Up
    (669a.11(i)(3)(i)(D)); any percentage of the meter at Six-Card Fortune
    (670a.11(h)(3)(i)(B)(IV)). The player's cards stay until it is documented."""
    if pay_ is None or pay_.kind != pt.METER:
        return False
    if game == pt.RIU:
        return pay_.num >= 100
    return True


def progressive_wagers(model):
    """The wager names a progressive table game system accepts at this game."""
    meters = getattr(model, "meters", None)
    return ("progressive",) + tuple(meters) if isinstance(meters, dict) else ("progressive",)


# ---- a linked meter (docs/linked-progressives.md) ---------------------------------------
#
# The same meter dict, with "link": the link's id and what the table owes the link or waits
# from it. The link's controller is the meter's single writer: the table's "value" is only
# ever what the link last said (a `link_meter` or `link_state` input), never computed here.
# Everything below is a function of the model's JSON state and of input events, so a replay
# of the journal rebuilds it, and the link client (controller/wire/link_client.py) reads
# from it what to send after each step: it holds nothing the table would lose in a crash.
#
#   asked     {key: {round, seat, wager}}   contributions sent, not acknowledged yet: the
#                                            wager is not accepted (its light stays off)
#   accepted  {key: {round, seat, wager, seq}}  this round's acknowledged contributions
#   withdraw  {key: {round, seat, wager}}   withdrawals to send (a wager taken off, an ack
#                                            that came after the lock-out, a void round)
#   hits      {key: {round, seat, hand, share, wager, cseq}}  hits sent, their award not
#                                            paid yet (cseq: the contribution's stream seq)
#   paid      [award, ...]                  the last awards paid here, newest first
# `key` is "<round>:<seat>"; on the wire the id is "<table>:<round>:<seat>".

LINK_DOWN = "LINK DOWN"          # what the meter display shows while the link is down
WAGERS_OPEN = "wagers_open"      # controller/games/engine.py's state (the games import us)
PAID_KEPT = 25


def link_meter(meter, link_id):
    """Make `meter` (new_meter's) the table's view of link `link_id`'s meter."""
    meter["link"] = {"id": link_id, "up": False, "synced": False, "applied_seq": 0,
                     "asked": {}, "accepted": {}, "withdraw": {}, "hits": {}, "paid": [],
                     "refused_acks": 0}
    return meter


def linked(meter):
    return isinstance(meter, dict) and isinstance(meter.get("link"), dict)


def link_key(round_no, seat):
    return "%d:%s" % (int(round_no), seat)


def key_of(wire_id):
    """"<table>:<round>:<seat>" -> "<round>:<seat>"."""
    parts = str(wire_id).split(":")
    if len(parts) < 3:
        raise SettlementError("link message id %r is not <table>:<round>:<seat>" % (wire_id,))
    return "%s:%s" % (parts[-2], parts[-1])


def link_up(meter):
    """A linked meter's progressive is playable only while its link is up (GLI-12 as NY
    5321.18(c) restates it: a progressive whose controller cannot be reached is unplayable)."""
    return not linked(meter) or bool(meter["link"]["up"] and meter["link"]["synced"])


def link_offer(meter, round_no, seat, amount):
    """A Progressive Payout Wager sensed at `seat`: asked of the link, not accepted yet."""
    lk = meter["link"]
    if not link_up(meter):
        raise SettlementError("Progressive Payout Wager at seat %s not accepted: the link %s "
                              "is down, its progressive is unplayable until it returns "
                              "(605a.7, 669a.2(c))" % (seat, lk["id"]))
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise SettlementError("a Progressive Payout Wager is whole cents > 0, not %r" % (amount,))
    key = link_key(round_no, seat)
    if key in lk["asked"] or key in lk["accepted"]:
        return False                      # the same chip sensed again: asked once
    if key in lk["withdraw"]:
        raise SettlementError("seat %s: a Progressive Payout Wager withdrawn this round is not "
                              "placed again on the link (its contribution id is spent)" % seat)
    lk["asked"][key] = {"round": int(round_no), "seat": seat, "wager": amount}
    return True


def link_take_off(meter, round_no, seat):
    """The wager taken off its sensor before the lock-out: withdrawn from the link if it was
    asked or acknowledged."""
    lk = meter["link"]
    key = link_key(round_no, seat)
    entry = lk["asked"].pop(key, None) or lk["accepted"].pop(key, None)
    if entry is not None:
        lk["withdraw"][key] = {k: entry[k] for k in ("round", "seat", "wager")}
    return entry is not None


def link_acknowledged(meter, data, round_no, open_):
    """The link stored the contribution (the JetStream acknowledgement): the wager is accepted
    if it is still asked for in this round while wagers are open; an acknowledgement that
    comes later (after the lock-out, after a take-off) is withdrawn. Returns the entry
    accepted, or None."""
    lk = meter["link"]
    key = key_of(data.get("id"))
    entry = lk["asked"].pop(key, None)
    if entry is not None and open_ and entry["round"] == int(round_no):
        entry = dict(entry, seq=data.get("seq"))
        lk["accepted"][key] = entry
        _count_contribution(meter, entry["wager"])
        return entry
    lk["refused_acks"] += 1
    if entry is not None or key not in lk["accepted"]:
        r, _, seat = key.partition(":")
        wager = entry["wager"] if entry else data.get("wager")
        if isinstance(wager, int) and key not in lk["withdraw"]:
            lk["withdraw"][key] = {"round": int(r), "seat": seat, "wager": wager}
    return None


def _count_contribution(meter, amount):
    """The table's own regulation meters of what it gave the link (the link's meter is the
    link's): contributed at the same exact rate, the fraction carried."""
    num, den = meter["rate"]
    total = meter["carry"] + amount * num
    meter["contributed"] += total // den
    meter["carry"] = total % den
    meter["wagers"] += 1


def link_close(meter, round_no):
    """The lock-out: what is still asked is not accepted; it is withdrawn (the link may have
    stored it with the acknowledgement still on its way). Returns those seats."""
    lk = meter["link"]
    late = []
    for key, entry in sorted(lk["asked"].items()):
        lk["withdraw"][key] = entry
        late.append(entry["seat"])
    lk["asked"] = {}
    return late


def link_void(meter, round_no):
    """A void round: every contribution of the round is withdrawn (the standalone meter puts
    itself back)."""
    lk = meter["link"]
    for key in [k for k, e in lk["accepted"].items() if e["round"] == int(round_no)]:
        e = lk["accepted"].pop(key)
        lk["withdraw"][key] = {k: e[k] for k in ("round", "seat", "wager")}
        _uncount_contribution(meter, e["wager"])
    for key, entry in list(lk["asked"].items()):
        lk["withdraw"][key] = lk["asked"].pop(key)


def _uncount_contribution(meter, amount):
    num, den = meter["rate"]
    total = meter["carry"] - amount * num
    meter["contributed"] += total // den          # floor: a negative total borrows
    meter["carry"] = total % den
    meter["wagers"] -= 1


def link_withdrawn(meter, data):
    """The link stored the withdrawal: nothing more to send for it."""
    return meter["link"]["withdraw"].pop(key_of(data.get("id")), None) is not None


def link_new_round(meter):
    """The round's acknowledged contributions are settled history: forget them."""
    meter["link"]["accepted"] = {}


def link_hit(meter, round_no, seat, hand, pay_, wager, seats=None, dealer=None):
    """A winning meter share: sent to the link, the seat's award waits for its answer.
    `seats` {seat: wager}: the seats that won it together (one hit, its award shared).
    `dealer`: the dealer's cards, where the win condition reads them beside the seat's
    (Bad Beat, 633a.7(o)(1)(i)): the link checks the hand before it pays (issue 31)."""
    key = link_key(round_no, seat)
    part = Fraction(pay_.num, 100)              # the contract's share: [1, 1] the whole meter
    share = [part.numerator, part.denominator]
    lk = meter["link"]
    lk["hit_no"] = lk.get("hit_no", 0) + 1      # the order the table settled them: sent so
    lk["hits"][key] = {"round": int(round_no), "seat": seat, "hand": list(hand),
                       "share": share, "wager": wager, "n": lk["hit_no"]}
    accepted = lk["accepted"].get(key)
    if accepted is not None and accepted.get("seq") is not None:
        # the stream sequence the link acknowledged this seat's wager at: the link pays a
        # hit only with that contribution behind it (issue 31)
        lk["hits"][key]["cseq"] = accepted["seq"]
    if seats:
        lk["hits"][key]["seats"] = {str(s): int(w) for s, w in seats.items()}
    if dealer is not None:
        lk["hits"][key]["dealer"] = list(dealer)
    return key


def link_award(meter, data):
    """The link's award for a hit (its amount and the stream sequence of the hit): paid once.
    Returns the hit it pays (with "amount", "seq"), or None for an award already paid or for
    no hit of ours."""
    lk = meter["link"]
    key = key_of(data.get("id"))
    hit = lk["hits"].pop(key, None)
    if hit is None:
        return None
    amount = data.get("amount")
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        lk["hits"][key] = hit
        raise SettlementError("link award %r: amount must be whole cents >= 0, not %r"
                              % (data.get("id"), amount))
    hit = dict(hit, amount=amount, seq=data.get("seq"), key=key)
    meter["hits"] += 1
    meter["paid"] += amount
    lk["paid"].insert(0, hit)
    del lk["paid"][PAID_KEPT:]
    return hit


def link_sync(meter, data):
    """The link's meter now (a `link_meter` or `link_state` input): the value the table shows
    and pays from is the link's."""
    lk = meter["link"]
    value = data.get("value")
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        meter["value"] = value
        lk["synced"] = True
    if isinstance(data.get("applied_seq"), int):
        lk["applied_seq"] = data["applied_seq"]
    pending = data.get("pending")
    if isinstance(pending, int) and not isinstance(pending, bool) and pending >= 0:
        lk["jackpot_pending"] = pending     # locked on the link, waiting for a supervisor
    if "up" in data:
        lk["up"] = bool(data["up"])
        if not lk["up"]:
            lk["synced"] = False        # comes back only with the link's meter


def display_values(model, meters=None):
    """What the meter display shows: {name: cents}, or LINK_DOWN when a linked meter's link
    is down (no amount a player could take for the meter's). `meters`: progressives(model),
    when the caller has them (the outputs ask both this and accepting_progressive)."""
    meters = progressives(model) if meters is None else meters
    if any(linked(m) and not link_up(m) for m in meters.values()):
        return LINK_DOWN
    out = {name: m["value"] for name, m in meters.items()}
    for name, m in meters.items():
        # a link's jackpots locked, waiting for a floor supervisor: a line of its own on
        # every linked table's display (issue 31)
        if linked(m) and "jackpot_pending" in m["link"]:
            out["%s_jackpot_pending" % name] = m["link"]["jackpot_pending"]
    return out


def accepting_progressive(model, meters=None):
    """False while a linked meter's link is down: its sensors stay locked out."""
    meters = progressives(model) if meters is None else meters
    return all(link_up(m) for m in meters.values())


def linked_meters(model):
    """{wager name: meter} of the model's linked meters (a Blackjack table may be on three
    links at once, one per progressive of 633a.7(o))."""
    return {name: m for name, m in progressives(model).items() if linked(m)}


def meter_of_link(model, link_id):
    """(wager name, meter) of the model's meter on link `link_id`, or (None, None)."""
    for name, m in sorted(linked_meters(model).items()):
        if m["link"]["id"] == link_id:
            return name, m
    return None, None


LATE_KEPT = 25


def _late_award(meter, hit, seat, share):
    """An award paid after its round was counted (settled as "pending", net -wager): what
    the round's money meters lack, as an entry numbered once per meter (`n`), so the
    console's wager meters and the floor's fold each add it once. Its net is the share
    paid (the round counted -wager, the award makes it share - wager); `paid` is what the
    table paid beyond the stake."""
    lk = meter["link"]
    lk["late_n"] = lk.get("late_n", 0) + 1
    wager = hit["seats"][seat] if hit.get("seats") else hit["wager"]
    entry = {"n": lk["late_n"], "round": hit["round"], "seat": seat, "net": share,
             "paid": max(0, share - wager)}
    lk.setdefault("late", []).insert(0, entry)
    del lk["late"][LATE_KEPT:]
    return entry


def late_awards(model):
    """[(wager name, entry)] of every late award the model's linked meters keep."""
    out = []
    for name, m in sorted(linked_meters(model).items()):
        for e in m["link"].get("late", []):
            out.append((name, e))
    return out


def late_since(model, seen):
    """The late awards of `model` (a model, or a namespace of a snapshot's `meter` and
    `meters`) numbered after `seen` {wager name: last n counted}, oldest first; `seen` is
    moved past them. How the money meters count each late award exactly once."""
    out = [(name, e) for name, e in late_awards(model) if e["n"] > seen.get(name, 0)]
    out.sort(key=lambda ne: (ne[0], ne[1]["n"]))
    for name, e in out:
        seen[name] = max(seen.get(name, 0), e["n"])
    return out


class LinkedGame:
    """The link's inputs, for a game whose progressive meters may be linked (Raise It Up and
    Six-Card Fortune: `meter`; Blackjack: `meters`, one per progressive wager, each on a
    link of its own). Each is an input event the link client submits (source "link"),
    journaled before it is applied, in any state of the table: what the link stored and
    awarded is a fact the table records even while it is locked out. An event names its
    link; the meter on that link is the one it applies to."""

    def linked_meter(self, wager="progressive"):
        meter = progressives(self).get(wager)
        return meter if linked(meter) else None

    def _link_meter_for(self, event):
        """(wager name, meter) of the event's link."""
        meters = linked_meters(self)
        if not meters:
            raise SettlementError("a %s event, but this table's meter is not linked"
                                  % event.kind)
        link_id = event.get("link")
        if link_id is None and len(meters) == 1:
            return next(iter(meters.items()))
        name, meter = meter_of_link(self, link_id)
        if meter is None:
            raise SettlementError("a %s event of link %r, but this table is on link %s"
                                  % (event.kind, link_id, ", ".join(
                                      sorted(m["link"]["id"] for m in meters.values()))))
        return name, meter

    def hold_wager(self, seat, wager, amount, placed):
        """engine.on_wager's hook: a progressive wager on a linked meter is asked of the link;
        it is placed (accepted, its light on) only with the link's acknowledgement."""
        meter = self.linked_meter(wager)
        if meter is None:
            return False
        if amount == 0:
            placed.pop(wager, None)
            if not placed:
                self.wagers.pop(seat, None)
            if link_take_off(meter, self.round_no, seat):
                self.note("link_withdraw_asked", seat=seat, wager=wager)
            return True
        if wager in placed:
            return True                   # accepted already: the chip sensed again
        if link_offer(meter, self.round_no, seat, amount):
            self.note("link_contribution_asked", seat=seat, wager=amount,
                      link=meter["link"]["id"])
        return True

    def on_link_contribution(self, event):
        """669a.7(d)(4), 670a.7(e)(4), 633a.7(o): the player's wager is accepted once the link
        holds its contribution (the acceptance light comes on from `wagers`)."""
        name, meter = self._link_meter_for(event)
        entry = link_acknowledged(meter, event.data, self.round_no, self.state == WAGERS_OPEN)
        if entry is None:
            self.note("link_contribution_withdrawn", id=event.get("id"),
                      why="acknowledged after the lock-out or the wager's removal")
            return
        placed = self.wagers.setdefault(entry["seat"], {})
        placed[name] = entry["wager"]
        self.note("wager", seat=entry["seat"], wager=name, amount=entry["wager"],
                  link_seq=entry.get("seq"))

    def on_link_withdraw(self, event):
        _, meter = self._link_meter_for(event)
        link_withdrawn(meter, event.data)

    def on_link_meter(self, event):
        link_sync(self._link_meter_for(event)[1], event.data)

    def on_link_state(self, event):
        _, meter = self._link_meter_for(event)
        link_sync(meter, event.data)
        self.note("link_up" if meter["link"]["up"] else "link_down", link=meter["link"]["id"],
                  value=meter["value"])

    def split_award(self, name, hit, amount):
        """{seat: cents} of an award: the hit's seat's, unless the hit is a jackpot several
        seats won together (the game says how they share it)."""
        return {hit["seat"]: amount}

    def on_link_award(self, event):
        """The award of a hit this table sent: paid to the seat once (669a.12(e)(4),
        670a.12(d)(3), 633a.7(o): the amount on the link's meter at the hit's place in the
        link's order); a second copy of it (sent again after a reconnect, a restart) pays
        nothing. A jackpot won at several seats at once is one hit, its award shared by the
        game's rule (633a.7(o)(1)(ii)(C): Bad Beat in proportion to the wagers). An award
        that comes after its round was counted is kept as a late award for the money
        meters (`late_awards`)."""
        name, meter = self._link_meter_for(event)
        hit = link_award(meter, event.data)
        if hit is None:
            self.note("link_award_again", id=event.get("id"))
            return
        shares = self.split_award(name, hit, hit["amount"])
        this_round = hit["round"] == self.round_no
        counted = not this_round or getattr(self, "status", None) in ("settled", "void")
        for seat, share in sorted(shares.items()):
            wager = hit["seats"][seat] if hit.get("seats") else hit["wager"]
            net = share - wager
            if this_round and seat in self.results:
                self.results[seat][name] = ["win", net]
            for j in getattr(self, "jackpots", []) or []:
                if j.get("seat") == seat and j.get("wager", name) == name and this_round:
                    for k in ("amount", "paid"):
                        if k in j and j[k] is None:
                            j[k] = share
            if counted:
                _late_award(meter, hit, seat, share)
            self.note("link_award_paid", seat=seat, round=hit["round"], amount=share,
                      net=net, seq=hit["seq"], link=meter["link"]["id"], wager=name,
                      counted_late=counted)

    def settle_linked_hit(self, seat, hand, pay_, wager, name="progressive", seats=None,
                          dealer=None):
        """A meter share won at a linked meter: sent to the link; the seat's settlement waits
        for the award (its result "pending" until then). `seats` {seat: wager}: a jackpot
        won at these seats together, one hit for all of them."""
        meter = self.linked_meter(name)
        key = link_hit(meter, self.round_no, seat, hand, pay_, wager, seats, dealer)
        self.note("link_hit", seat=seat, hand=list(hand),
                  share=meter["link"]["hits"][key]["share"], link=meter["link"]["id"],
                  wager=name, seats=sorted(seats) if seats else [seat])
        return ["pending", -wager]
