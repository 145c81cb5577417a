"""Corporation's reward as value × (members − 1), and a game name that uses it."""

from __future__ import annotations

from decklab.engine.registry import Variant


def shared(value: int, members: int) -> int:
    """value × (members − 1): the Corporation shares one member's worth less"""
    return value * (members - 1)


VARIANT = Variant(
    base="corporation",
    title="Corporation (shared reward)",
    summary="Corporation where a Corporation that sticks together pays value × (members − 1).",
    options={"reward": "shared"},
)
