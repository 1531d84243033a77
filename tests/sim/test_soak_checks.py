"""The soak's own checks made cheaper give the answers they gave (issue 33): each faster way
is compared here with the way it replaced, on the texts where the two could part."""

import random
import re

import pytest

from controller.lab.soak_checks import CardSearch, Checks


def _words_way(secret, text):
    """How `_leaks` found a card before: every word of the text, then the set."""
    words = set(re.findall(r"[0-9A-Za-z]+", text))
    return sorted(c for c in secret if c in words)


def _leaks(secret, text):
    checks = Checks("blackjack", 1)
    checks.secret = set(secret)
    return checks._leaks(text)


TRICKY = [
    ({"0h"}, "round 12: 10h on the table"),             # inside a longer card
    ({"10h"}, "10h"),                                    # the whole text
    ({"10h", "0h"}, "x10h 0h"),
    ({"10h", "0h"}, "a10h"),
    ({"Kh"}, "Khz Kh."),                                 # inside a longer word, then a word
    ({"Kh"}, "Khz"),
    ({"Kh"}, "(Kh)"), ({"Kh"}, "Kh_up"), ({"Kh"}, "_Kh"), ({"Kh"}, "Kh-"),
    ({"Kh"}, "KKh Khh"),                                 # letters before and after
    ({"Kh"}, "[card] K h kh KH"),                       # not the card
    ({"Ah", "Kh"}, "AhKh Ah,Kh"),
    ({"JK"}, "JOKER JKs JK!"),
    ({"2c"}, "12c 2c2 2c"),
    ({"9d"}, "9d\u00e99d \u00e99d"),                     # a non-ASCII letter is no word's
    ({"10s"}, "$10s"), ({"10s"}, "110s 1.10s"),
    ({"Ts", "10s"}, "Ts10s 10sTs"),
    ({"K-h", "Kh"}, "K-h Kh"),                           # a "card" no word can be
    ({"", "Kh"}, "Kh"), ({""}, "anything"),
    ({"10H"}, "10H 0H"), ({"0H"}, "10H"),                # what the brief calls "10H"
    ({"Qs"}, "\nQs\n"), ({"Qs"}, "Qs"), ({"Qs"}, ""),
    ({"Ks", "JK"}, "JKs"), ({"Ks", "JK"}, "JKs JK-Ks"), ({"10h"}, "110h 10h0"),
    ({"Kh\n"}, "Kh\n"), ({"XX", "Kh2"}, "XX Kh2 Kh"),
]


@pytest.mark.parametrize("secret, text", TRICKY)
def test_a_card_is_found_in_a_text_as_the_words_found_it(secret, text):
    assert _leaks(secret, text) == _words_way(secret, text)


def test_the_tricky_texts_find_what_a_person_would_read():
    """The comparison above is with the right answers, not two wrong ones."""
    assert _leaks({"0h"}, "round 12: 10h on the table") == []
    assert _leaks({"10h", "0h"}, "x10h 0h") == ["0h"]
    assert _leaks({"Kh"}, "Khz Kh.") == ["Kh"]
    assert _leaks({"Kh"}, "Kh_up") == ["Kh"]
    assert _leaks({"Ah", "Kh"}, "AhKh Ah,Kh") == ["Ah", "Kh"]
    assert _leaks({"K-h", "Kh"}, "K-h") == []


def test_random_texts_find_what_the_words_found():
    """Texts of card characters, digits and punctuation, cards of every kind."""
    rng = random.Random(33)
    cards = [r + s for r in ("2", "3", "9", "10", "T", "J", "Q", "K", "A")
             for s in "shdc"] + ["JK", "0h", "1s", "h", "10", "Kh2", "XX", "Kh\n"]
    alphabet = "1023456789TJQKAshdcxzX _-.,:;()[]\n$\u00e9"
    for _ in range(3000):
        secret = set(rng.sample(cards, rng.randint(1, 6)))
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        if rng.random() < 0.5:                     # a card put in, next to anything
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(sorted(secret)) + text[at:]
        assert _leaks(secret, text) == _words_way(secret, text), (secret, text)


def test_the_search_follows_the_secret_cards():
    """Built again when the set of cards changes, in place or for another."""
    checks = Checks("blackjack", 1)
    checks.secret = {"Kh"}
    assert checks._leaks("Kh Qs") == ["Kh"]
    checks.secret.add("Qs")
    assert checks._leaks("Kh Qs") == ["Kh", "Qs"]
    checks.secret = {"2c"}
    assert checks._leaks("Kh Qs 2c") == ["2c"]
    checks.secret = set()
    assert checks._leaks("Kh Qs 2c") == []


def test_a_card_of_no_cards_shape_is_found_by_a_search_of_its_own():
    """A model's own spelling of a card, if it can be a word, is looked for too; one that
    cannot be a word is never found, as no word is it."""
    assert CardSearch({"", "K-h", 7}).odd is None and CardSearch({"Kh", "JK"}).odd is None
    search = CardSearch({"Kh2", "XX", "Kh", "K-h"})
    assert search.found_in("Kh2 XX Kh K-h") == ["Kh", "Kh2", "XX"]
    assert search.found_in("aKh2 XXX Kh2x K-h") == []
