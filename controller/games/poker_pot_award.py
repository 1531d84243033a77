"""The pot award of a poker room hand (637a(e)(6)) and the house take.

637a(e)(6) fixes the order: the losing players' cards collected and counted (i), the side pots
awarded (ii), the rake collected (iii), any Bad Beat or High Hand jackpot contribution
collected (iv), and only then the pot pushed to the winner and the winning hand collected.
pokerkit has already decided who wins what (poker_hand.py); this module writes the award into
the round record in that order and builds the settlement.

Rake and jackpot drop (637a.15-637a.17 are not in our texts): table configuration, options
    rake_percent         whole percent of the pot (every pot together) taken as rake, 0..100
    rake_cap             the most rake taken from one hand, cents
    rake_minimum_pot     no rake from a pot smaller than this, cents
    jackpot_drop         the Bad Beat / High Hand jackpot contribution from a hand, cents
    jackpot_minimum_pot  no drop from a pot smaller than this, cents
    no_flop_no_drop      no rake and no drop from a hand that ends before the second round of
                         cards (the flop in Hold'em and Omaha, fourth street in Stud)
The rake is rounded down to whole chips (`chip_unit`). Both come out of the main pot, the
pot pushed last, and never more than it holds: the side pots are awarded whole.
"""

SECTION = "637a(e)(6)"


def house_take(options, total, main, rounds_dealt):
    """(rake, jackpot drop) in cents from a hand whose pots hold `total`, `main` of it in the
    main pot, after `rounds_dealt` rounds of cards."""
    if options["no_flop_no_drop"] and rounds_dealt < 2:
        return 0, 0
    rake = 0
    if total >= options["rake_minimum_pot"]:
        unit = options["chip_unit"]
        rake = min(options["rake_cap"], total * options["rake_percent"] // 100 // unit * unit)
    rake = min(rake, main)
    drop = 0
    if options["jackpot_drop"] and total >= options["jackpot_minimum_pot"]:
        drop = min(options["jackpot_drop"], main - rake)
    return rake, drop


def pot_name(index):
    return "main_pot" if index == 0 else "side_pot_%d" % index


def award(hand):
    """The award as pokerkit made it: [{"pot", "amount", "to": {seat: cents},
    "high"?, "low"?}] main pot first, and (rake, drop)."""
    pots = []
    for i, amount in enumerate(hand.pots()):
        pots.append({"pot": pot_name(i), "amount": amount, "to": {}})
    for index, hand_type, shares in hand.awards():
        pot = pots[index]
        for seat, cents in shares.items():
            pot["to"][seat] = pot["to"].get(seat, 0) + cents
        if hand_type is not None and len(hand.kit.hand_types) > 1:
            half = pot.setdefault("high" if hand_type == 0 else "low", {})
            for seat, cents in shares.items():
                half[seat] = half.get(seat, 0) + cents
    return pots, tuple(hand.kit.house)


def record(model, pots, rake, drop):
    """637a(e)(6)(ii)-(iv) and the push, in the rule's order, into the round record."""
    for pot in pots[1:]:
        model.note("side_pot_awarded", pot=pot["pot"], amount=pot["amount"], to=pot["to"],
                   section=SECTION + "(ii)")
    model.note("rake_collected", amount=rake, section=SECTION + "(iii)")
    model.note("jackpot_drop_collected", amount=drop, section=SECTION + "(iv)")
    if pots:
        main = pots[0]
        model.note("pot_pushed", pot=main["pot"], amount=main["amount"] - rake - drop,
                   to=main["to"], section=SECTION)


def results(hand, pots):
    """Per seat: "bets" (what it put in the pot, collected) and each pot it won, so the
    seat's net is the sum: pokerkit's payoff."""
    out = {}
    payoffs = hand.payoffs()
    for seat in hand.players:
        won = {pot["pot"]: pot["to"][seat] for pot in pots if pot["to"].get(seat)}
        put_in = sum(won.values()) - payoffs[seat]
        entries = {"bets": ["lose", -put_in] if put_in else ["push", 0]}
        for name, cents in won.items():
            entries[name] = ["win", cents]
        out[seat] = entries
    return out


def round_money(model):
    """A settled hand's money as the floor counts it ({"pots", "rake", "jackpot_drop"},
    cents), from the round's snapshot (the model's data): the players play each other, so
    the stacks are not wagers against the house; the house's win is the rake, and the
    jackpot drop is held for the players' jackpot (the declaration's `house_take`)."""
    pots = model.get("pots") or []
    return {"pots": sum(int(p.get("amount") or 0) for p in pots),
            "rake": int(model.get("rake") or 0), "jackpot_drop": int(model.get("jackpot_drop") or 0)}
