"""Corporation's hints in its own words: what a value played asks of the others.

Read by :mod:`decklab.bots.explain`, from the player's view only: the values the
others chose this round stay hidden until the round resolves, and are never named.
"""

from __future__ import annotations

from typing import Any


def _partners(view: dict[str, Any]) -> list[str]:
    seat = view.get("seat")
    mine = [c for c in view["corporations"] if seat in c["members"]]
    return [m for m in mine[0]["members"] if m != seat] if mine else []


def explain(view: dict[str, Any], action: str, alternative: str | None) -> str | None:
    words = action.split()
    if len(words) != 2 or not words[1].isdigit():
        return None
    v = int(words[1])
    partners = _partners(view)
    if partners:
        names = " and ".join(partners)
        they = "they all" if len(partners) > 1 else "they"
        return (
            f"plays {v} to keep your Corporation with {names}: if {they} play {v} too "
            f"and nobody outside does, each of you earns {v} × {len(partners) + 1} = "
            f"{v * (len(partners) + 1)}; unmatched, it earns you {v} alone"
        )
    return (
        f"plays {v}: {v} profit if nobody else plays {v}; "
        f"if someone does, you form a Corporation with them instead"
    )


def describe(view: dict[str, Any], action: str) -> str:
    words = action.split()
    return f"playing {words[1]}" if len(words) == 2 else action
