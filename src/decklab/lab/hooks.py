"""A game's own notable-event counters, found in its folder the way ``greedy.py`` is.

A game may ship ``decklab.games.<package>.metrics`` with

    def events(state: GameState) -> dict[str, int]: ...

called once on each finished game; it returns counters (how many corporations
formed, whether the tie-break was needed, ...) that the lab stores in the
game's row and reports as rates and means. Everything generic (scores, the
score trace, length, winners) the lab measures itself; this hook is only for
what needs the rules to see. The names should read as plain English phrases
with underscores (``round_cap_reached``), since the report shows them as is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from decklab.engine.gamecode import game_function
from decklab.engine.state import GameState

EventsFn = Callable[[GameState], dict[str, int]]


def game_events(cls: type[GameState]) -> EventsFn | None:
    """The game's ``events(state)``, or None if its folder has no ``metrics`` module."""
    return cast(EventsFn | None, game_function(cls, "metrics", "events"))


def events_of(state: GameState) -> dict[str, int]:
    """The counters of a finished game (empty for a game without a hook)."""
    fn = game_events(type(state))
    if fn is None:
        return {}
    return {str(k): int(v) for k, v in fn(state).items()}
