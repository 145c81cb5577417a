"""A policy file for ``python:PATH:FUNCTION`` specs, outside any package.

    decklab arena cabin -p python:examples/policies/first_legal.py:policy,greedy --games 4

The function sees exactly its seat's view (hidden cards are ``"??"``) and the
legal actions as strings; it returns one of them.
"""

from __future__ import annotations

import random
from typing import Any


def policy(view: dict[str, Any], legal: list[str], seat: str, rng: random.Random) -> str:
    """Play the first legal action."""
    return legal[0]
