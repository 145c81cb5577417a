"""Cards and the notation of ruling K1 (and K2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from decklab import cards


def test_K1_canonical_ascii_form() -> None:
    assert cards.to_str(cards.card(10, cards.HEARTS)) == "TH"
    assert cards.to_str(cards.card(1, cards.SPADES)) == "AS"
    assert cards.to_str(cards.card(13, cards.CLUBS)) == "KC"
    assert cards.to_str(cards.card(5, cards.STARS)) == "5X"


@pytest.mark.parametrize("text", ["TH", "th", "10H", "10h", " tH ", "10♥"])
def test_K1_input_accepts_ten_and_lower_case(text: str) -> None:
    assert cards.parse(text) == cards.card(10, cards.HEARTS)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "rank then suit"),
        ("1H", "unknown rank"),
        ("TZ", "unknown suit"),
        ("11S", "unknown rank"),
        ("H", "rank"),
    ],
)
def test_K1_bad_cards_get_clear_errors(text: str, reason: str) -> None:
    with pytest.raises(cards.CardError, match=reason):
        cards.parse(text)


def test_K1_unicode_suits_are_for_display() -> None:
    assert cards.to_display(cards.parse("TH")) == "10♥"
    assert cards.to_display(cards.parse("AS")) == "A♠"
    assert cards.to_display(cards.parse("9X")) == "9★"
    assert cards.name(cards.parse("QD")) == "queen of diamonds"


def test_K2_face_cards_are_jack_queen_king_not_ace() -> None:
    faces = [c for c in cards.deck() if cards.is_face(c)]
    assert sorted(cards.to_str(c)[0] for c in faces) == sorted("JQK" * 4)
    assert not cards.is_face(cards.parse("AS"))


def test_deck_has_52_distinct_cards() -> None:
    deck = cards.deck()
    assert len(deck) == len(set(deck)) == 52
    assert cards.format_many(deck[:3]) == "AS 2S 3S"
    assert cards.parse_many("AS 2S 3S") == deck[:3]


@given(st.integers(1, 13), st.integers(0, 4))
def test_K1_round_trip(rank: int, suit: int) -> None:
    c = cards.card(rank, suit)
    assert cards.parse(cards.to_str(c)) == c
    assert cards.parse(cards.to_str(c).lower()) == c
    assert cards.parse(cards.to_display(c)) == c
    assert cards.rank_of(c) == rank and cards.suit_of(c) == suit
