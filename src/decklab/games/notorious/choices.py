"""Notorious's core choices, for ``decklab restricted``: a play reads ``play 7S p2 up``."""

from __future__ import annotations

from typing import Any


def choices() -> list[dict[str, Any]]:
    return [
        {"name": "face up", "pattern": r" up$", "about": "play a card face up"},
        {"name": "face down", "pattern": r" down$", "about": "play a card face down"},
    ]
