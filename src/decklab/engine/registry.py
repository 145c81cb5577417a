"""Games by name. The engine knows no game: a table names where each one lives.

Registration is lazy (a name maps to ``module:Class``) so that listing games or
loading one does not import all five. The built-in table is
:data:`decklab.games.catalog.GAMES`, a module that imports nothing; other games
can be added with :func:`register`, and installed packages add theirs through
the ``decklab.games`` entry-point group (:data:`ENTRY_POINT_GROUP`), read the
first time a name is asked for. Nothing here imports a game module except on
demand, and no game module imports this one, so the two never form a circle.

An entry point names either a state class (a new game) or a :class:`Variant`
(an existing game under its own name, with other defaults for its options: a
rule change through the hook points the game offers, such as Corporation's
``reward`` option). A variant's class is made here, a subclass of the base game
that only carries its own :class:`GameInfo`; the plugin never subclasses a
(possibly compiled) game class, and never overrides a method.

A plugin that fails to load is reported in one line and left out of
:func:`game_names`; the other games are unaffected.

A :class:`GameInfo` is pickled by its game's name and comes back as the
registered game's own (:func:`game_info`); the registry says so with
:mod:`copyreg`, because :mod:`decklab.engine.info` sits below the states and
this module, and must not import them. States of a variant are pickled by the
variant's name too (a worker process finds the variant through the same entry
point), because a class made at run time cannot be found by its module path.
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib
import importlib.metadata
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from decklab.engine.errors import OptionError, excerpt
from decklab.engine.info import GameInfo
from decklab.engine.state import GameState
from decklab.games.catalog import GAMES

ENTRY_POINT_GROUP: Final = "decklab.games"
"""Installed packages list their games here: ``name = "package.module:ClassOrVariant"``."""

_ENTRIES: dict[str, str] = dict(GAMES)
_LOADED: dict[str, type[GameState]] = {}
_BROKEN: dict[str, str] = {}
"""Plugin games that failed to load: name → the one-line reason."""
_PLUGINS_READ = False
_REGISTERED: set[str] = set()
"""Names added with :func:`register` (kept by :func:`rescan_plugins`)."""


class PluginError(ImportError):
    """A game from an installed plugin could not be loaded (the message is one line)."""


@dataclass(frozen=True)
class Variant:
    """An existing game under a name of its own, with other defaults for its options.

    ``options`` gives new defaults (any the base game offers, e.g. a rule hook's
    name); a table may still set them. ``title`` and ``summary`` describe the
    variant in listings and in the browser's lobby.
    """

    base: str
    title: str
    summary: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)


def normalize_name(name: object) -> str:
    return name.strip().lower().replace("_", "-") if isinstance(name, str) else ""


def register(name: str, target: str) -> None:
    """Register a game class or a :class:`Variant`, given as ``"package.module:Name"``."""
    key = normalize_name(name)
    _ENTRIES[key] = target
    _REGISTERED.add(key)
    _LOADED.pop(key, None)
    _BROKEN.pop(key, None)


def rescan_plugins() -> None:
    """Forget the plugin games found so far; the entry points are read again when next asked.

    For a process whose installed packages changed (a test that installs a plugin,
    a notebook after ``pip install``); games added with :func:`register` stay.
    """
    global _PLUGINS_READ
    _PLUGINS_READ = False
    importlib.invalidate_caches()
    for name in [n for n in _ENTRIES if n not in GAMES and n not in _REGISTERED]:
        del _ENTRIES[name]
        _LOADED.pop(name, None)
        _BROKEN.pop(name, None)


def _read_plugins() -> None:
    """Add the ``decklab.games`` entry points (once per process; built-ins win a clash)."""
    global _PLUGINS_READ
    if _PLUGINS_READ:
        return
    _PLUGINS_READ = True
    try:
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception as exc:  # a broken installed distribution must not hide the games
        _warn(f"could not read the {ENTRY_POINT_GROUP} entry points: {_one_line(exc)}")
        return
    for ep in found:
        key = normalize_name(ep.name)
        if key in GAMES:
            _warn(f"plugin game {ep.name!r} ({ep.value}) ignored: a built-in game has that name")
            continue
        _ENTRIES.setdefault(key, ep.value)


def _warn(line: str) -> None:
    print(f"decklab: {line}", file=sys.stderr)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {excerpt(text, 200)}" if text else type(exc).__name__


def game_names() -> list[str]:
    """Every game that loads: the built-ins (not imported here) and the plugins that work."""
    _read_plugins()
    names = []
    for name in list(_ENTRIES):
        if name not in GAMES or _ENTRIES[name] != GAMES[name]:
            try:
                get_game(name)
            except PluginError:
                continue  # reported once, in one line, when it failed
        names.append(name)
    return names


def get_game(name: str) -> type[GameState]:
    """The state class of a game; KeyError with the known names if there is none.

    A plugin game that fails to load raises :class:`PluginError` with one line
    saying which entry point and why.
    """
    key = normalize_name(name)
    got = _LOADED.get(key)
    if got is not None:
        return got
    if key not in _ENTRIES:
        _read_plugins()
    if key not in _ENTRIES:
        known = ", ".join(n for n in _ENTRIES if n not in _BROKEN)
        raise KeyError(f"no game named {excerpt(name, 30)!r} (games: {known})")
    if key in _BROKEN:
        raise PluginError(_BROKEN[key])
    target = _ENTRIES[key]
    try:
        _LOADED[key] = _load(key, target)
    except Exception as exc:
        if key in GAMES and target == GAMES[key]:
            raise  # a built-in game that does not load is a bug, not a plugin's fault
        line = f"plugin game {key!r} ({target}) failed to load: {_one_line(exc)}"
        _BROKEN[key] = line
        _warn(line)
        raise PluginError(line) from exc
    return _LOADED[key]


def _load(key: str, target: str) -> type[GameState]:
    module_name, _, attr = target.partition(":")
    obj: object = importlib.import_module(module_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    if isinstance(obj, Variant):
        return _variant_class(key, obj)
    if isinstance(obj, type) and issubclass(obj, GameState):
        info = getattr(obj, "info", None)
        if not isinstance(info, GameInfo) or info.name != key:
            named = getattr(info, "name", None)
            raise TypeError(f"{target}'s info.name is {named!r}, not the entry point's {key!r}")
        if GAMES.get(key) != target:
            copyreg.pickle(obj, _pickle_by_name)
        return obj
    raise TypeError(f"{target} is neither a GameState subclass nor a decklab Variant")


def _variant_class(key: str, variant: Variant) -> type[GameState]:
    """The class of a variant: the base game's, carrying the variant's own info.

    It overrides nothing (no method, no rule): the rules differ only through the
    options the variant presets. Its ``__module__`` is the base game's, so the
    game's hook modules (greedy, layout, encoding, …) are found for it as for
    the base game.
    """
    base = get_game(variant.base)
    if getattr(base, "variant_of", None):
        raise TypeError(f"{key}: a variant's base must be a game, not the variant {variant.base!r}")
    info = base.info
    known = {o.name: o for o in info.options}
    for opt_name in variant.options:
        if opt_name not in known:
            raise OptionError(
                f"{key}: {info.name} has no option {opt_name!r} (its options: {', '.join(known)})"
            )
    options = []
    for opt in info.options:
        if opt.name in variant.options:
            value = opt.parse(variant.options[opt.name])
            opt.validate(value, info.default_players)
            opt = dataclasses.replace(opt, default=value)
        options.append(opt)
    new_info = dataclasses.replace(
        info,
        name=key,
        title=variant.title,
        summary=variant.summary or info.summary,
        options=tuple(options),
    )
    cls = type(
        f"{base.__name__}_{key.replace('-', '_')}",
        (base,),
        {"info": new_info, "variant_of": info.name, "__module__": base.__module__},
    )
    copyreg.pickle(cls, _pickle_by_name)
    return cls


def _pickle_by_name(
    state: GameState,
) -> tuple[Callable[[str, dict[str, Any]], GameState], tuple[str, dict[str, Any]]]:
    """A plugin's state (or a variant's) as its game's name and its fields.

    By name, because a variant's class is made at run time and cannot be found by
    its module path; with every field, because on the compiled build the engine's
    own pickling of an interpreted subclass knows only the compiled base's fields
    (a plugin game's own fields live in the instance's ``__dict__``).
    """
    got = state.__getstate__()
    fields: dict[str, Any] = dict(got) if isinstance(got, dict) else {}
    fields.update(getattr(state, "__dict__", None) or {})
    return (_state_by_name, (state.info.name, fields))


def _state_by_name(name: str, fields: dict[str, Any]) -> GameState:
    """A pickled plugin state, rebuilt in whichever process finds the game by its name."""
    cls = get_game(name)
    state = cls.__new__(cls)
    for key, value in fields.items():
        setattr(state, key, value)
    return state


def base_game(name: str) -> str:
    """The game a variant is a variant of (a game's own name for a game).

    Runs of a variant and of its base play the same deals from the same seed (one
    class, one deal), so the lab may pair them deal by deal.
    """
    cls = get_game(name)
    return str(getattr(cls, "variant_of", None) or cls.info.name)


def game_info(name: str) -> GameInfo:
    """The :class:`GameInfo` of the registered game ``name`` (how a pickled one comes back)."""
    return get_game(name).info


def _pickle_info(info: GameInfo) -> tuple[Callable[[str], GameInfo], tuple[str]]:
    # Pickled by name (an adapter's state may be pickled, e.g. by OpenSpiel's
    # serialization): a compiled frozen dataclass cannot be rebuilt field by field.
    # The package's __init__ imports this module, so this holds wherever a GameInfo exists.
    return (game_info, (info.name,))


copyreg.pickle(GameInfo, _pickle_info)
