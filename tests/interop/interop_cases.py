"""Shared cases for the interop tests: every game at every player count, mid-game states."""

from __future__ import annotations

import random

from decklab.engine.registry import game_names, get_game
from decklab.engine.state import GameState

GAME_COUNTS = [
    (g, n)
    for g in game_names()
    for n in range(get_game(g).info.min_players, get_game(g).info.max_players + 1)
]
IDS = [f"{g}-{n}p" for g, n in GAME_COUNTS]
GAMES = game_names()
SEQUENTIAL = [g for g in GAMES if not get_game(g).info.simultaneous]


def midgame_states(game: str, players: int, count: int, seed: int) -> list[GameState]:
    """States part-way through random games (some at the very start or the end)."""
    cls = get_game(game)
    rng = random.Random(seed)
    states = []
    for k in range(count):
        state = cls.new(players, seed=seed * 1000 + k)
        for _ in range(rng.randrange(0, 80)):
            if state.is_terminal():
                break
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        states.append(state)
    return states
