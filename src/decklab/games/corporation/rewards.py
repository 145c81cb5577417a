"""Corporation's reward formula (P5) as a hook: which one a game uses is its ``reward`` option.

A reward is what each member of a Corporation that stuck together earns:
``reward(value, members)``, ``value`` being the value they all played again and
``members`` how many they are. The rules' formula is :func:`standard`,
value × members. A designer who wants another one does not edit or subclass the
game (on the compiled build an interpreted class cannot inherit from a compiled
one): a package of theirs lists a function under the entry-point group
:data:`ENTRY_POINT_GROUP`, and a game with ``reward=<that name>`` uses it. The
option holds a name, never a function, so a game's options stay JSON (records,
the server) and a state pickles for worker processes and Ray, where the name is
looked up again through the same entry point.

Everything that values a reward reads it through :func:`reward_function` of the
state's option (the rules, the greedy player's table model, and so the expert's
search, the story and the layout), so bots play by the plugin's rules.
"""

from __future__ import annotations

import importlib.metadata
import sys
from collections.abc import Callable
from typing import Final, cast

RewardFn = Callable[[int, int], int]
"""``reward(value, members) -> points`` for each member of a Corporation that stuck together."""

ENTRY_POINT_GROUP: Final = "decklab.corporation.rewards"
DEFAULT: Final = "standard"


def standard(value: int, members: int) -> int:
    """value × members, as the rules have it (P5)"""
    return value * members


_BUILTIN: Final[dict[str, RewardFn]] = {DEFAULT: standard}
_FOUND: dict[str, RewardFn] = {}
_PLUGINS: dict[str, str] | None = None


def _plugins() -> dict[str, str]:
    global _PLUGINS
    if _PLUGINS is None:
        _PLUGINS = {}
        try:
            for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
                _PLUGINS.setdefault(ep.name, ep.value)
        except Exception as exc:  # a broken distribution must not break the game
            print(f"decklab: could not read {ENTRY_POINT_GROUP}: {exc}", file=sys.stderr)
    return _PLUGINS


def rescan() -> None:
    """Read the entry points again when next asked (installed packages changed)."""
    global _PLUGINS
    _PLUGINS = None
    _FOUND.clear()


def reward_names() -> list[str]:
    return [*_BUILTIN, *(n for n in _plugins() if n not in _BUILTIN)]


def reward_function(name: str) -> RewardFn:
    """The formula called ``name``; ValueError (one line) for an unknown or broken one."""
    got = _BUILTIN.get(name) or _FOUND.get(name)
    if got is not None:
        return got
    target = _plugins().get(name)
    if target is None:
        raise ValueError(f"no reward formula {name!r} (known: {', '.join(reward_names())})")
    module, _, attr = target.partition(":")
    try:
        fn = getattr(importlib.import_module(module), attr)
    except Exception as exc:
        raise ValueError(f"reward formula {name!r} ({target}) failed to load: {exc}") from None
    if not callable(fn):
        raise ValueError(f"reward formula {name!r} ({target}) is not a function")
    _FOUND[name] = cast(RewardFn, fn)
    return _FOUND[name]


def check_reward(name: str, num_players: int) -> str | None:
    """The option's check: a clear message for a formula that is not there."""
    try:
        reward_function(name)
    except ValueError as exc:
        return str(exc)
    return None
