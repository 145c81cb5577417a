"""Corporation's core choices, for ``decklab restricted``: a choice reads ``play 7``.

Sticking with a Corporation or defecting from it depends on last round's table,
which the action string does not show; what a string can bar is a kind of value.
"""

from __future__ import annotations

from typing import Any


def choices() -> list[dict[str, Any]]:
    return [
        {"name": "play a 1", "pattern": r"^play 1$", "about": "play the lowest value, 1"},
        {
            "name": "play 4 or more",
            "pattern": r"^play ([4-9]|1[0-3])$",
            "about": "play a value of 4 or more",
        },
    ]
