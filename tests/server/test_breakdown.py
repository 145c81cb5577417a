"""A finished game's frame carries each seat's score taken apart, as the viewer may know it."""

from __future__ import annotations

import random

import pytest

from decklab.engine.registry import game_names, get_game
from decklab.engine.state import GameState
from decklab.server.frames import game_part


def _finished(game: str, seed: int) -> GameState:
    cls = get_game(game)
    state = cls.new(cls.info.min_players, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("game", game_names())
def test_finished_frames_break_each_score_down(game: str) -> None:
    state = _finished(game, 3)
    scores = state.result()["scores"]
    for viewer in [*range(state.num_players), None]:
        part = game_part(state, viewer)
        breakdown = part["breakdown"]
        assert set(breakdown["seats"]) == set(scores)
        for name, seat in breakdown["seats"].items():
            assert seat["total"] == scores[name]
            assert seat["rows"], f"{game}: {name} has no rows"
            assert sum(r["points"] for r in seat["rows"]) == pytest.approx(seat["total"])
        assert breakdown["unit"] == state.info.score_unit


def test_a_game_in_progress_has_no_breakdown() -> None:
    for game in game_names():
        cls = get_game(game)
        state = cls.new(cls.info.min_players, seed=1)
        assert "breakdown" not in game_part(state, 0) and "result" not in game_part(state, 0)
