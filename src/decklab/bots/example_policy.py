"""Two tiny policies in the shape ``python:`` specs take, for the docs and the tests.

``decklab arena cabin -p python:decklab.bots.example_policy:random_legal,greedy``
seats one. A trained policy is the same shape: read ``view`` (exactly what the
seat may know), return one of ``legal``.
"""

from __future__ import annotations

import random
from typing import Any


def first_legal(view: dict[str, Any], legal: list[str], seat: str, rng: random.Random) -> str:
    """The first legal action: deterministic, and a floor any policy should beat."""
    return legal[0]


def random_legal(view: dict[str, Any], legal: list[str], seat: str, rng: random.Random) -> str:
    """A legal action drawn with the agent's own seeded ``rng`` (so games replay)."""
    return rng.choice(legal)
