"""Six-Card Fortune irregularities (670a.13, 670a.8(f)) as the dealer reports them:
Event("irregularity", {"kind": name, ...}).

    wrong_starting_position  the dice were totalled wrongly and the first card went to the
                             wrong position: void, reshuffle (670a.13(c))
    player_card_exposed      {"seat"}: a card dealt to a player exposed while dealing; after
                             the deal that player plays or voids the hand (670a.13(d)). From an
                             automated dealing shoe any exposed card voids the round (670a.13(j))
    dealer_card_exposed      void, reshuffle (670a.13(e); 670a.13(j))
    card_face_up             {"card"}: found face up in the deck while dealing: not used, to the
                             discard rack; a second one voids the round (670a.13(f))
    card_drawn_in_error      drawn unexposed: it is the next card (670a.13(g)); recorded only
    wrong_number_of_cards    {"position"}: void, reshuffle (670a.13(h), (k))
    stub_count               {"count", "misdealt"}: the dealer's count of the stub (670a.8(e),(f))
    shoe_jam                 the automated dealing shoe jammed: void, reshuffle (670a.13(m))
    shuffler_jam             the shuffle did not complete: shuffle again (670a.13(l))
    device_out_of_order      {"device": "shuffler" | "dealing_shoe", "covered": true}: covered
                             before any other method is used (670a.13(n))
A dealer who sets his hands wrongly is reset to the house way when he reports his setting
(670a.13(i); see players.py, PlayersAndDealer._dealer_sets).
"""

from controller.games.engine import LOCKED_OUT, OPENED, ROUND_OVER, SHUFFLED, IllegalEvent, \
    seat_key

DEALING, PLAYERS, DEALER_SETTING = "dealing", "players", "dealer_setting"
BEFORE_REVEAL = (DEALING, PLAYERS)
RESHUFFLE = "all hands are void, all wagers returned and the cards reshuffled"


def handle(model, event):
    kind = event.get("kind")
    entry = KINDS.get(kind)
    if entry is None:
        raise IllegalEvent("%s has no irregularity %r; the irregularities are %s"
                           % (model.GAME, kind, ", ".join(sorted(KINDS))))
    states, section, fn = entry
    if model.state not in states:
        raise IllegalEvent("irregularity %s is not possible while %s (%s)"
                           % (kind, model.state, section))
    fn(model, event, section)


def _automated(model):
    return model.option("dealing") == "automated_shoe"


def _void(model, what, section):
    model.note("irregularity", about=what, section=section)
    model.void_round("%s: %s (%s)" % (what, RESHUFFLE, section))


def wrong_starting_position(model, event, section):
    _void(model, "the dice were totalled wrongly and the first card dealt to the wrong "
          "position", section)


def player_card_exposed(model, event, section):
    seat = seat_key(event.get("seat"))
    if _automated(model):
        _void(model, "a card was exposed while the seven stacks were dealt", "670a.13(j)")
        return
    model.note("irregularity", about="card exposed to seat %s" % seat, card=event.get("card"),
               section=section)
    if seat in model.wagers and seat not in model.exposed:
        model.exposed.append(seat)


def dealer_card_exposed(model, event, section):
    if _automated(model) and model.state == DEALING:
        section = "670a.13(j)"
    _void(model, "a card of the dealer's hand was exposed", section)


def card_face_up(model, event, section):
    code = model.check_fresh(event.get("card"), "card found face up")
    if model.discards:
        model.discards.append(code)
        _void(model, "a second card (%s) was found face up in the deck" % code, section)
        return
    model.discards.append(code)
    model.note("irregularity", about="card found face up in the deck, not used: to the discard "
               "rack", card=code, section=section)


def card_drawn_in_error(model, event, section):
    model.note("irregularity", about="card drawn in error, not exposed: used as the next card",
               section=section)


def wrong_number_of_cards(model, event, section):
    position = event.get("position")
    if position != "dealer":
        position = "seat " + seat_key(position)
    _void(model, "%s was dealt an incorrect number of cards" % position, section)


def stub_count(model, event, section):
    count = event.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise IllegalEvent("stub_count needs the count of cards left, not %r" % (count,))
    if model.settings:
        raise IllegalEvent("the stub is counted right after the deal, before the hands are set "
                           "(%s)" % model.section("stub"))
    model.note("stub_counted", count=count, section=model.section("stub"))
    if count != 11:
        model.stub_wrong(count, misdealt=event.get("misdealt") is True)


def shoe_jam(model, event, section):
    if not _automated(model):
        raise IllegalEvent("this table deals from a %s, not an automated dealing shoe (%s)"
                           % (model.option("dealing").replace("_", " "), section))
    _void(model, "the automated dealing shoe jammed or failed to deal all cards", section)


def shuffler_jam(model, event, section):
    model.reshuffle_due = "the automated card shuffler did not complete the shuffle (%s)" % section
    model.note("irregularity", about="shuffler jam: the cards are shuffled again",
               section=section)


KINDS = {
    "wrong_starting_position": (BEFORE_REVEAL, "670a.13(c)", wrong_starting_position),
    "player_card_exposed": ((DEALING,), "670a.13(d)", player_card_exposed),
    "dealer_card_exposed": (BEFORE_REVEAL, "670a.13(e)", dealer_card_exposed),
    "card_face_up": ((DEALING,), "670a.13(f)", card_face_up),
    "card_drawn_in_error": ((DEALING,), "670a.13(g)", card_drawn_in_error),
    "wrong_number_of_cards": (BEFORE_REVEAL + (DEALER_SETTING,), "670a.13(h)",
                              wrong_number_of_cards),
    "stub_count": ((PLAYERS,), "670a.8(f)", stub_count),
    "shoe_jam": (("starting_position", DEALING), "670a.13(m)", shoe_jam),
    "shuffler_jam": ((OPENED, SHUFFLED) + ROUND_OVER, "670a.13(l)", shuffler_jam),
    # between rounds, or while locked by that device's own fault (the mixin checks)
    "device_out_of_order": ((OPENED, SHUFFLED, LOCKED_OUT) + ROUND_OVER, "670a.13(n)",
                            lambda model, event, section:
                            model.irregular_device_out_of_order(event)),
}
