"""Corporation's core choices, for ``decklab restricted`` (decklab.lab.choices).

Whether a move sticks with a Corporation or defects from it depends on last
round's table, which the action's text (``play 7``) does not show:

- a seat in a Corporation formed last round (P4) **sticks** when it plays the
  value its partners meet on without talking: the highest value they all hold
  (every member has the same value face up, P2, so they hold the same values);
  a reward needs every member on one value (P5).
- it **defects** when it plays any other value.

A seat in no Corporation does neither. Both read only the public table (last
round's Corporations and the values face up).
"""

from __future__ import annotations

from typing import Any

from decklab.games.corporation.state import CorporationState


def meeting_value(state: CorporationState, seat: int) -> int:
    """The value ``seat``'s Corporation meets on (P4, P5), or 0 if it is in none."""
    for value, members in state.corporations:
        if seat in members:
            return state.top if value != state.top else state.top - 1
    return 0


def sticks(state: CorporationState, seat: int, action: int) -> bool:
    """P5: a Corporation member plays the value its partners meet on."""
    meet = meeting_value(state, seat)
    return meet != 0 and action == meet


def defects(state: CorporationState, seat: int, action: int) -> bool:
    """P5: a Corporation member plays another value than the one its partners meet on."""
    meet = meeting_value(state, seat)
    return meet != 0 and action != meet


def choices() -> list[dict[str, Any]]:
    return [
        {
            "name": "sticking",
            "when": sticks,
            "about": "a Corporation member plays the highest value the members all hold (P5)",
        },
        {
            "name": "defecting",
            "when": defects,
            "about": "a Corporation member plays any other value (P5)",
        },
        {"name": "play a 1", "pattern": r"^play 1$", "about": "play the lowest value, 1"},
    ]
