"""Lonely Face's core choices, for ``decklab restricted``.

``take b2 c2`` takes a pair; ``swap 7H b2`` gives the hand card 7H for a grid card,
so a swap of a J, Q or K gives a face card up rather than keeping it in hand.
"""

from __future__ import annotations

from typing import Any


def choices() -> list[dict[str, Any]]:
    return [
        {"name": "taking pairs", "pattern": r"^take ", "about": "take a pair off the grid"},
        {
            "name": "giving up face cards",
            "pattern": r"^swap [JQK]",
            "about": "swap a face card out of the hand (barred: face cards are kept)",
        },
    ]
