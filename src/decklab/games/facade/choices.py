"""Façade's core choices, for ``decklab restricted`` (patterns over canonical action strings).

A bid reads ``bid KH 9D`` (the bid card, then the supply card); Q and K are worth 4,
A 1 and J 2 (F2). Whether a bid is "all in" (every bid card on one supply card)
depends on the bids already down, which an action string does not show.
"""

from __future__ import annotations

from typing import Any


def choices() -> list[dict[str, Any]]:
    return [
        {"name": "high bids", "pattern": r"^bid [QK]", "about": "bid a Q or K (worth 4) on a card"},
        {"name": "low bids", "pattern": r"^bid [AJ]", "about": "bid an A or J (worth 1 or 2)"},
    ]
