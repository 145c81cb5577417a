"""After this folder's modules, the session is back to the built-in games (runs last here)."""

from __future__ import annotations

from decklab.engine.registry import game_names
from decklab.games.catalog import GAMES


def test_no_plugin_game_is_left_registered() -> None:
    assert game_names() == list(GAMES)
