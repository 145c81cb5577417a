"""The game log as each viewer reads it: the one place log lines are made.

A line is built only from what the viewer may know: the story of the move as
that viewer was told it when it was played (:func:`decklab.engine.story.narrate`,
made from the viewer's own views: the bids turned up at a reveal, a round's
corporations and defections, a game's end), falling back to the game's public
sentence for the action (``describe_action``), and the canonical text of the
history entry as the *current* state redacts it for that viewer
(``redact_history_entry``: a bid hidden then may be public by now).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from decklab import cards
from decklab.engine import story
from decklab.engine.state import ALL, CHANCE, GameState, Viewer, seat_name


@dataclass(frozen=True)
class Entry:
    """One history entry as the table keeps it: the canonical text and, for an
    action, the public sentence the game said when it was played."""

    index: int
    actor: int
    text: str
    sentence: str | None
    story: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The story of the move for each viewer (``p1``…, ``spectator``), told when played."""


def viewer_key(viewer: Viewer) -> str:
    return "spectator" if viewer is None else seat_name(viewer)


def move_entries(
    before: GameState,
    after: GameState,
    actor: int,
    text: str,
    sentence: str | None,
    view_of: story.ViewOf | None = None,
) -> list[Entry]:
    """The entries of one move (``after`` is ``before`` plus the action and its chance),
    with the story each seat and the spectator is told of it. ``view_of`` hands over
    views the caller holds already (see :func:`decklab.engine.story.moment`)."""
    index = len(before.history)
    viewers: list[Viewer] = [*range(after.num_players), None]
    if view_of is None:
        told = {viewer_key(v): tuple(story.narrate(before, after, v)) for v in viewers}
    else:
        told = {viewer_key(v): tuple(story.narrate(before, after, v, view_of)) for v in viewers}
    entries = [Entry(index, actor, text, sentence, told)]
    entries += [
        Entry(i, CHANCE, str(after.history[i][1]), None)
        for i in range(index + 1, len(after.history))
    ]
    return entries


def hides_all_but_verb(words: list[str]) -> bool:
    """Whether a history line, as a viewer is shown it, hides every word after its verb
    (a chance line that shows nothing; another seat's face-down move)."""
    return all(w == cards.HIDDEN for w in words[1:])


def log_line(state: GameState, entry: Entry, viewer: Viewer) -> dict[str, Any] | None:
    """How ``entry`` reads for ``viewer`` now; None for a chance entry that shows it nothing."""
    text = state.redact_history_entry(entry.index, entry.actor, entry.text, viewer)
    if entry.actor == CHANCE:
        if hides_all_but_verb(text.split()):
            return None
        return {"index": entry.index, "actor": "chance", "text": text, "say": f"chance: {text}"}
    told = entry.story.get(viewer_key(viewer), ()) if viewer != ALL else ()
    return {
        "index": entry.index,
        "actor": seat_name(entry.actor),
        "text": text,
        "say": " ".join(told) or entry.sentence or f"{seat_name(entry.actor)}: {text}",
    }
