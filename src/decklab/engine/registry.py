"""Games by name. The engine knows no game: a table names where each one lives.

Registration is lazy (a name maps to ``module:Class``) so that listing games or
loading one does not import all five. The built-in table is
:data:`decklab.games.catalog.GAMES`, a module that imports nothing; other games
can be added with :func:`register`. Nothing here imports a game module except on
demand, and no game module imports this one, so the two never form a circle.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from decklab.engine.errors import excerpt
from decklab.games.catalog import GAMES

if TYPE_CHECKING:
    from decklab.engine.state import GameState

_ENTRIES: dict[str, str] = dict(GAMES)
_LOADED: dict[str, type[GameState]] = {}


def register(name: str, target: str) -> None:
    """Register a game class, given as ``"package.module:ClassName"``."""
    _ENTRIES[name] = target


def game_names() -> list[str]:
    return list(_ENTRIES)


def get_game(name: str) -> type[GameState]:
    """The state class of a game; KeyError with the known names if there is none."""
    key = name.strip().lower().replace("_", "-") if isinstance(name, str) else ""
    if key not in _ENTRIES:
        known = ", ".join(_ENTRIES)
        raise KeyError(f"no game named {excerpt(name, 30)!r} (games: {known})")
    if key not in _LOADED:
        module_name, _, cls_name = _ENTRIES[key].partition(":")
        module = importlib.import_module(module_name)
        _LOADED[key] = getattr(module, cls_name)
    return _LOADED[key]
