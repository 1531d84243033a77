"""Card codes and the decks each chapter prescribes."""
import pytest

from controller.errors import InvalidCard
from controller.rules import cards


def test_codes_round_trip():
    for c in cards.standard_deck():
        assert cards.parse(cards.code(c)) == c
    assert cards.parse("JK") == cards.JOKER
    assert cards.code(cards.JOKER) == "JK"
    assert cards.rank(cards.parse("As")) == cards.ACE
    assert cards.suit(cards.parse("Td")) == 2


@pytest.mark.parametrize("bad", ["1s", "Ax", "", "A", "AsX", "TT", None, "10h"])
def test_bad_codes_are_named(bad):
    with pytest.raises(InvalidCard):
        cards.parse(bad)


def test_standard_deck_has_52_distinct_cards():
    deck = cards.standard_deck()
    assert len(deck) == 52 and len(set(deck)) == 52


@pytest.mark.reg("581.3(a)")
def test_double_attack_uses_eight_48_card_decks_without_tens():
    deck = cards.spanish_deck()
    assert len(deck) == 48
    assert all(cards.rank(c) != cards.TEN for c in deck)
    shoe = cards.double_attack_batch()
    assert len(shoe) == 384
    assert shoe.count(cards.parse("9h")) == 8
    with pytest.raises(InvalidCard, match="Th"):
        cards.check_deck_holds([cards.parse("Th")], deck)


@pytest.mark.reg("670a.3(a)")
def test_six_card_fortune_deck_has_one_joker():
    deck = cards.joker_deck()
    assert len(deck) == 53
    assert deck.count(cards.JOKER) == 1


def test_duplicate_card_in_a_hand_is_named():
    with pytest.raises(InvalidCard, match="As"):
        cards.check_distinct(cards.parse_all("As Kd As"))
