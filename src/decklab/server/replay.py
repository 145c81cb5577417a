"""A table's game rebuilt from its stored actions, each with its stored chance.

Plain functions of plain data: the service rebuilds tables on start and on undo,
catches up with another process's moves (:func:`replay_from`), and the heavy
workers (:mod:`.heavy`) work out replays (:func:`replay_text`) with them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from decklab.engine.errors import RecordError
from decklab.engine.layout import read_by
from decklab.engine.registry import get_game
from decklab.engine.state import GameState, Viewer, seat_name
from decklab.server import frames
from decklab.server.logline import Entry, move_entries

SPECTATOR = "spectator"
"""The name a replay gives the side of nobody seated."""


def rebuild(
    cls: type[GameState],
    num_players: int,
    options: dict[str, Any],
    setup: dict[str, Any],
    seed: int | None,
    actions: Sequence[tuple[int, str, Sequence[str]]],
) -> tuple[GameState, list[Entry]]:
    """The state after ``actions`` (actor, canonical text, chance lines), step by step.

    Like :func:`decklab.engine.records.replay`, every stored chance outcome is fed
    back to the engine (and none may be missing or left over), so the state is
    exactly the one that was played; each action's public sentence is said on the
    state before it, as it was when played.
    """
    state = cls.from_setup(num_players, options, setup, seed)
    state, entries, _ = replay_from(state, actions)
    return state, entries


def replay_text(
    head: dict[str, Any],
    game: str,
    num_players: int,
    options: dict[str, Any],
    setup: dict[str, Any],
    seed: int | None,
    actions: Sequence[tuple[int, str, Sequence[str]]],
    wanted: Viewer,
    reader: str | None = None,
) -> str:
    """The replay answer (``head`` and the game after ``actions`` as ``wanted`` saw it
    then: log and view) as JSON text: worked out in a heavy worker (:mod:`.heavy`) from
    plain data, never on the event loop — the encoding too, which for a long game's
    log is tens of milliseconds more. ``reader`` is the seat of whoever asks (None for
    someone seated nowhere): the layout says "you" of that seat only, not of ``wanted``
    (a finished table shows every seat's side to everyone)."""
    state, entries = rebuild(get_game(game), num_players, options, setup, seed, actions)
    with read_by(reader):
        part = frames.game_part(state, wanted, acting=False)
    return frames.encode(
        {
            **head,
            "viewer": seat_name(wanted) if wanted is not None else SPECTATOR,
            "log": frames.log_for(state, entries, wanted),
            **part,
        }
    )


def replay_from(
    state: GameState,
    actions: Sequence[tuple[int, str, Sequence[str]]],
    first: int = 1,
    views: frames.Views | None = None,
) -> tuple[GameState, list[Entry], frames.Views]:
    """The state after stored ``actions`` (numbered from ``first``) are played from
    ``state``, each with its stored chance outcomes, the history entries they add, and
    the views of the states on the way (the last one's, to keep). ``state`` itself is
    not changed; ``views``, if given, are its views (another process's move is
    narrated from the views this process already made for its own connections)."""
    entries: list[Entry] = []
    held = views if views is not None and views.state is state else frames.Views(state)
    for number, (actor, text, chance) in enumerate(actions, first):
        action = held.parse(actor, text)
        sentence = state.describe_action(actor, action)
        after = state.clone()
        after._forced = deque(chance)
        after._strict_chance = True
        try:
            after.apply(actor, action)
        finally:
            after._strict_chance = False
        if after._forced:
            raise RecordError(f"action {number} left chance outcomes unused")
        after._forced = None
        after_views = frames.Views(after)
        entries.extend(
            move_entries(state, after, actor, text, sentence, frames.held_views(held, after_views))
        )
        state, held = after, after_views
    return state, entries, held
