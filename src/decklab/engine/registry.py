"""Games by name. The engine knows no game: a table names where each one lives.

Registration is lazy (a name maps to ``module:Class``) so that listing games or
loading one does not import all five. The built-in table is
:data:`decklab.games.catalog.GAMES`, a module that imports nothing; other games
can be added with :func:`register`. Nothing here imports a game module except on
demand, and no game module imports this one, so the two never form a circle.

A :class:`GameInfo` is pickled by its game's name and comes back as the
registered game's own (:func:`game_info`); the registry says so with
:mod:`copyreg`, because :mod:`decklab.engine.info` sits below the states and
this module, and must not import them.
"""

from __future__ import annotations

import copyreg
import importlib
from collections.abc import Callable

from decklab.engine.errors import excerpt
from decklab.engine.info import GameInfo
from decklab.engine.state import GameState
from decklab.games.catalog import GAMES

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


def game_info(name: str) -> GameInfo:
    """The :class:`GameInfo` of the registered game ``name`` (how a pickled one comes back)."""
    return get_game(name).info


def _pickle_info(info: GameInfo) -> tuple[Callable[[str], GameInfo], tuple[str]]:
    # Pickled by name (an adapter's state may be pickled, e.g. by OpenSpiel's
    # serialization): a compiled frozen dataclass cannot be rebuilt field by field.
    # The package's __init__ imports this module, so this holds wherever a GameInfo exists.
    return (game_info, (info.name,))


copyreg.pickle(GameInfo, _pickle_info)
