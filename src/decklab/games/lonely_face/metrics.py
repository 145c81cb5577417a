"""Lonely Face's notable events for the lab (``decklab.lab.hooks``): how a game ends.

L9 ends a game after ``stall_rounds`` full rounds in a row without a pair taken
(the stall rule), or when every player in turn could take nothing (dry turns);
otherwise it ran its course. The designers asked about the stall rule, so the
lab counts which ending each game had, its turns and the pairs taken.
"""

from __future__ import annotations

from decklab.engine.state import GameState


def events(state: GameState) -> dict[str, int]:
    n = state.num_players
    quiet = int(getattr(state, "quiet", 0))
    stall = int(getattr(state, "stall", 0))
    streak = int(getattr(state, "streak", 0))
    dry = streak >= n
    stalled = not dry and stall > 0 and quiet >= stall
    return {
        "turns": int(getattr(state, "turns", 0)),
        "pairs_taken": int(sum(getattr(state, "npairs", []))),
        "ended_by_stall": int(stalled),
        "ended_by_dry_turns": int(dry),
    }
