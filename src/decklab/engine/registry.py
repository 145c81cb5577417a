"""Games by name. The engine knows no game: games register themselves here.

Registration is lazy (a name maps to ``module:Class``) so that listing games or
loading one does not import all five.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from decklab.engine.state import GameState

_ENTRIES: dict[str, str] = {}
_LOADED: dict[str, type[GameState]] = {}
_BUILTINS_LOADED = False


def register(name: str, target: str) -> None:
    """Register a game class, given as ``"package.module:ClassName"``."""
    _ENTRIES[name] = target


def _ensure_builtins() -> None:
    global _BUILTINS_LOADED
    if not _BUILTINS_LOADED:
        _BUILTINS_LOADED = True
        importlib.import_module("decklab.games")


def game_names() -> list[str]:
    _ensure_builtins()
    return list(_ENTRIES)


def get_game(name: str) -> type[GameState]:
    """The state class of a game; KeyError with the known names if there is none."""
    _ensure_builtins()
    key = name.strip().lower().replace("_", "-")
    if key not in _ENTRIES:
        known = ", ".join(_ENTRIES)
        raise KeyError(f"no game named {name!r} (games: {known})")
    if key not in _LOADED:
        module_name, _, cls_name = _ENTRIES[key].partition(":")
        module = importlib.import_module(module_name)
        _LOADED[key] = getattr(module, cls_name)
    return _LOADED[key]
