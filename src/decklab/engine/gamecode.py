"""Where a game's own functions are found: ``decklab.games.<package>.<module>.<function>``.

The engine's stories and layouts, the bots and the lab ask a game for its story,
its table, its greedy player, its expert, its hint words or its lab hooks without
naming it; the package comes from where the game's state class is defined. One
lookup for all of them, in the engine, the lowest layer that needs it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

from decklab.engine.state import GameState

_FOUND: dict[tuple[type[GameState], str, str], Callable[..., object] | None] = {}
"""Every answer of :func:`game_function`, by (state class, module, function).

The bots ask on every decision (the greedy player, its ranking, the fast agent's
settings), so each answer is looked up once, here, for every caller. A test may put
a toy game's function here (``monkeypatch.setitem``), or swap in an empty dict to look
again after faking a game's module.
"""


def game_function(
    cls: type[GameState], module_name: str, function: str
) -> Callable[..., object] | None:
    """``decklab.games.<package>.<module_name>.<function>`` for the game of ``cls``, or None.

    The package comes from where the state class is defined, so no game is named
    here. A module that exists but fails to import is a bug and is not hidden (and
    not remembered: the next call raises again). Looked up once per (class, module,
    function): see :data:`_FOUND`.
    """
    key = (cls, module_name, function)
    if key not in _FOUND:
        _FOUND[key] = _look_up(cls, module_name, function)
    return _FOUND[key]


def _look_up(cls: type[GameState], module_name: str, function: str) -> Callable[..., object] | None:
    """:func:`game_function`'s lookup, not remembered."""
    module = str(getattr(cls, "__module__", ""))  # mypyc cannot read it through a class object
    owner = sys.modules.get(module)
    package = module if hasattr(owner, "__path__") else module.rpartition(".")[0]
    found: Callable[..., object] | None = None
    if package:  # not a game defined in a top-level module (a test's toy game)
        target = f"{package}.{module_name}"
        try:
            mod = importlib.import_module(target)
        except ModuleNotFoundError as exc:
            if exc.name != target:
                raise
        else:
            fn = getattr(mod, function, None)
            found = fn if callable(fn) else None
    return found
