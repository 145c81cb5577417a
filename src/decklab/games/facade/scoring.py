"""Façade's groups: which card may join a group (F8) and what a group scores (F9).

Kept apart from the state so that the designer's worked example (F11) and the
tests score groups built by hand with exactly the code the game uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Final

from decklab import cards

SEQUENCE_POINTS: Final = 1
HOUSE_SEQUENCE_POINTS: Final = 3
SET_POINTS: Final = 1
COMPLETE_SIZE: Final = 3


def can_join(group: Sequence[int], card: int) -> bool:
    """Whether ``card`` may join ``group`` (F8): afterwards the group must still be able
    to become a set (one rank) or a sequence (one suit, different ranks).

    ``group`` is non-empty and already meets F8; cards are unique, so ``card`` is not in it.
    """
    g0 = group[0]
    rank = card & 15
    if len(group) == 1:
        # Two distinct cards: same rank (a set to be) or same suit (a sequence to be).
        return (g0 & 15) == rank or (g0 >> 4) == (card >> 4)
    if (g0 & 15) == (group[1] & 15):
        return rank == (g0 & 15)
    if (g0 >> 4) != (card >> 4):
        return False
    return all((other & 15) != rank for other in group)


def is_possible(group: Sequence[int]) -> bool:
    """Whether ``group`` meets F8 as it stands: one rank, or one suit with different ranks."""
    if not group:
        return False
    ranks = [c & 15 for c in group]
    if len(set(ranks)) == 1:
        return True
    return len({c >> 4 for c in group}) == 1 and len(set(ranks)) == len(ranks)


def group_kind(group: Sequence[int]) -> str:
    """``"set"``, ``"sequence"`` (both complete, F9) or ``"incomplete"``."""
    if len(group) < COMPLETE_SIZE:
        return "incomplete"
    ranks = sorted(c & 15 for c in group)
    if ranks[0] == ranks[-1]:
        return "set"
    if len({c >> 4 for c in group}) != 1:
        return "incomplete"
    if any(high != low + 1 for low, high in pairwise(ranks)):
        return "incomplete"
    return "sequence"


def group_score(group: Sequence[int], house_suit: int) -> int:
    """F9: a complete group +1; a complete sequence of the house suit +3 instead; a set +1
    whatever its suits; an incomplete group minus its number of cards."""
    kind = group_kind(group)
    if kind == "set":
        return SET_POINTS
    if kind == "sequence":
        return HOUSE_SEQUENCE_POINTS if (group[0] >> 4) == house_suit else SEQUENCE_POINTS
    return -len(group)


def tableau_score(groups: Iterable[Sequence[int]], house_suit: int) -> int:
    """A player's total (F9): the sum of their groups' scores."""
    return sum(group_score(g, house_suit) for g in groups)


def groups_from_text(text: str) -> list[tuple[int, ...]]:
    """Groups written as cards separated by ``|``: ``"4H 5H 6H | 5S"`` → two groups.

    For tests and worked examples (F11): they build a tableau directly and score it
    with :func:`tableau_score`, the code the game itself uses.
    """
    out = []
    for part in text.split("|"):
        group = tuple(cards.parse_many(part))
        if not group:
            raise ValueError(f"an empty group in {text!r}")
        out.append(group)
    return out
