"""The Cabin's core choices, for ``decklab restricted`` (docs/notation/cabin.md).

``dump`` exists only with the option ``beach_dump``, so that choice asks for it.
"""

from __future__ import annotations

from typing import Any


def choices() -> list[dict[str, Any]]:
    return [
        {
            "name": "beach dump",
            "pattern": r"^dump$",
            "about": "put a turned sea card face up on the beach (option beach_dump)",
            "options": {"beach_dump": True},
        },
        {
            "name": "anchor for the beach",
            "pattern": r"^anchor beach$",
            "about": "sink a sea card to take the beach's top card",
        },
    ]
