"""Cards as small integers, and the notation of ruling K1.

A card is ``rank | suit << 4``: the engine's hot paths compare and hash plain ints,
which is far cheaper than objects, and the notation lives here in one place.
Ranks run A=1 … K=13. Suits are S H D C, plus X (stars ★), the fifth suit that
Façade's ``fifth_suit`` option adds (F3).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

RANK_LETTERS: Final = "A23456789TJQK"
SUIT_LETTERS: Final = "SHDCX"
SUIT_SYMBOLS: Final = "♠♥♦♣★"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs", "stars")
RANK_NAMES: Final = (
    "",
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)

ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3
STARS: Final = 4
STANDARD_SUITS: Final = (SPADES, HEARTS, DIAMONDS, CLUBS)
HIDDEN: Final = "??"
"""How a card that the viewer may not see is written, in views and redacted records."""


class CardError(ValueError):
    """A card written in a way K1 does not accept."""


def card(rank: int, suit: int) -> int:
    """The card of this rank (1..13) and suit (0..4)."""
    return rank | (suit << 4)


def rank_of(c: int) -> int:
    return c & 15


def suit_of(c: int) -> int:
    return c >> 4


def is_face(c: int) -> bool:
    """K2: J, Q and K are face cards; aces are not."""
    return (c & 15) >= JACK


def to_str(c: int) -> str:
    """Canonical ASCII form, e.g. ``TH``."""
    return RANK_LETTERS[(c & 15) - 1] + SUIT_LETTERS[c >> 4]


def to_display(c: int) -> str:
    """Display form with a suit symbol, e.g. ``10♥``."""
    r = c & 15
    rank = "10" if r == 10 else RANK_LETTERS[r - 1]
    return rank + SUIT_SYMBOLS[c >> 4]


def name(c: int) -> str:
    """Words, for logs a person reads: ``ten of hearts``."""
    return f"{RANK_NAMES[c & 15]} of {SUIT_NAMES[c >> 4]}"


_RANK_BY_TEXT: Final = {letter: i + 1 for i, letter in enumerate(RANK_LETTERS)}
_RANK_BY_TEXT["10"] = 10
_SUIT_BY_TEXT: Final = {letter: i for i, letter in enumerate(SUIT_LETTERS)}
_SUIT_BY_TEXT.update({sym: i for i, sym in enumerate(SUIT_SYMBOLS)})


def parse(text: str) -> int:
    """Parse one card: ``TH``, ``10h``, ``th`` and ``10♥`` are the ten of hearts (K1)."""
    t = text.strip().upper()
    if len(t) < 2:
        raise CardError(f"{text!r} is not a card: write rank then suit, e.g. TH or 7S")
    rank_text, suit_text = t[:-1], t[-1]
    rank = _RANK_BY_TEXT.get(rank_text)
    if rank is None:
        raise CardError(
            f"{text!r} is not a card: unknown rank {rank_text!r} (ranks are A 2-9 T J Q K, or 10)"
        )
    suit = _SUIT_BY_TEXT.get(suit_text)
    if suit is None:
        raise CardError(f"{text!r} is not a card: unknown suit {suit_text!r} (suits are S H D C)")
    return card(rank, suit)


def parse_many(text: str | Iterable[str]) -> list[int]:
    """Parse cards separated by spaces (or a list of card strings)."""
    parts = text.split() if isinstance(text, str) else list(text)
    return [parse(p) for p in parts]


def format_many(cards: Iterable[int]) -> str:
    return " ".join(to_str(c) for c in cards)


def is_card_text(text: str) -> bool:
    try:
        parse(text)
    except CardError:
        return False
    return True


def deck(suits: Iterable[int] = STANDARD_SUITS, ranks: Iterable[int] = range(1, 14)) -> list[int]:
    """A fresh deck in a fixed order (suit by suit, ace to king)."""
    rank_list = list(ranks)
    return [card(r, s) for s in suits for r in rank_list]
