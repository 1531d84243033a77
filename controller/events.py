"""The one input type of every game machine (the bottom layer: drivers import it from here).

A scenario file, the simulator and real drivers all produce Events; the table
applies them one at a time. An event carries the time it happened (monotonic
ns, stamped at the edge or frame by whoever saw it) and where it came from,
so the journal can say both.
"""

from controller import device_registry
from controller.errors import RulesError

# What each kind carries. The machine rejects an event its state does not expect. A device's
# own kinds (the card reader's answer, the dice) come with its one registration.
KINDS = {
    "open_table": "decks received, inspected and verified (581.4, 633a.4): {'decks': n}",
    "shuffle": "cards shuffled and cut; {'by': 'shuffler' | 'hand'}: how (none: the table's "
               "way); a scenario passes the stacked shoe as {'stack': [...]}; {'shake': True}: "
               "the dealer shook the covered dice shaker (a dice game only)",
    "wager": "{'seat': n, 'wager': name, 'amount': cents}; amount 0 withdraws",
    "no_more_bets": "the dealer closes wagering",
    "card": "{'card': 'As'}: the next card out of the shoe",
    "decision": "{'seat': n, 'action': name, 'amount': cents?}",
    "irregularity": "{'kind': name, ...}: an irregularity the dealer reports",
    "fault": "{'device': name, 'reason': text}: a device malfunction",
    "frame_rejected": "{'device', 'reason', 'frame'}: input a driver threw away; the controller "
                      "journals it and applies nothing",
    "clear": "{'role': name, 'selftest': bool}: an authorized clear of a lock-out",
    "new_deck": "a deck removed from the table is replaced",
    "close_table": "the table closes",
    # a linked progressive's link (controller/wire/link_client.py, docs/linked-progressives.md)
    "link_contribution": "{'link', 'id', 'seq', 'seat', 'wager'}: the link stored the seat's "
                         "Progressive Payout Wager's contribution: the wager is accepted",
    "link_withdraw": "{'link', 'id', 'seq', 'seat', 'wager'}: the link stored its withdrawal",
    "link_award": "{'link', 'id', 'seq', 'seat', 'amount'}: the link's award of a hit",
    "link_meter": "{'link', 'value', 'applied_seq'}: the link's meter changed",
    "link_state": "{'link', 'up', 'value'?}: the link was lost, or is back with its meter",
}
KINDS.update(device_registry.event_kinds())

# The card reader's one answer, {READER_ANSWER: bool}: whether the hole card makes a
# blackjack (581.13). The device's word, not a game's id.
READER_ANSWER = "blackjack"  # not a game id: the card reader's answer

# The seat of a decision the dealer makes for the dealer's own hand (Six-Card Fortune's
# setting, 670a.8): part of the events' vocabulary, so a driver keys it without knowing a game.
DEALER_SEAT = "dealer"


class Event:
    __slots__ = ("kind", "data", "source", "ts_ns")

    def __init__(self, kind, data=None, source="dealer_panel", ts_ns=0):
        if kind not in KINDS:
            raise RulesError("unknown event kind %r; one of %s" % (kind, ", ".join(sorted(KINDS))))
        self.kind = kind
        self.data = dict(data or {})
        self.source = source
        self.ts_ns = ts_ns

    def get(self, key, default=None):
        return self.data.get(key, default)

    def to_json(self):
        return {"kind": self.kind, "data": self.data, "source": self.source, "ts_ns": self.ts_ns}

    @classmethod
    def from_json(cls, doc):
        return cls(doc["kind"], doc.get("data"), doc.get("source", "dealer_panel"),
                   doc.get("ts_ns", 0))

    def __repr__(self):
        return "Event(%r, %r)" % (self.kind, self.data)
