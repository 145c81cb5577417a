"""The game log as each viewer reads it: the one place log lines are made.

Kept to one small function so that a richer narration (the story of the game)
can replace it without touching the service. A line is built only from what the
viewer may know: the game's public sentence for an action (``describe_action``,
said before the action, as a table would announce it), and the canonical text
of the history entry as the *current* state redacts it for that viewer
(``redact_history_entry``: a bid hidden then may be public by now).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from decklab import cards
from decklab.engine.state import CHANCE, GameState, Viewer, seat_name


@dataclass(frozen=True)
class Entry:
    """One history entry as the table keeps it: the canonical text and, for an
    action, the public sentence the game said when it was played."""

    index: int
    actor: int
    text: str
    sentence: str | None


def log_line(state: GameState, entry: Entry, viewer: Viewer) -> dict[str, Any] | None:
    """How ``entry`` reads for ``viewer`` now; None for a chance entry that shows it nothing."""
    text = state.redact_history_entry(entry.index, entry.actor, entry.text, viewer)
    if entry.actor == CHANCE:
        words = text.split()
        if all(w == cards.HIDDEN for w in words[1:]):
            return None
        return {"index": entry.index, "actor": "chance", "text": text, "say": f"chance: {text}"}
    return {
        "index": entry.index,
        "actor": seat_name(entry.actor),
        "text": text,
        "say": entry.sentence or f"{seat_name(entry.actor)}: {text}",
    }
