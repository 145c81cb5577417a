"""Which build runs: the mypyc-compiled hot path, or pure Python (the fallback).

The engine, the games and the bots' search are plain typed Python that mypyc
can compile into C extensions (``make build``; ``make test`` and ``make play``
do it where a C compiler is present). Both builds must behave identically; the
compiled one is only faster.

:data:`COMPILED` is the one list of compiled modules. A module that is not on
it (every new module, until someone adds it here and the suite passes on both
builds) stays interpreted, so a new file can never break the build.

A compiled module must never shadow an edited source file. The build writes
``_native.json`` beside this file: the SHA-256 of every compiled module's
source as it was compiled. On import of :mod:`decklab` the sources are hashed
again (a few milliseconds); if any differs, if a module was added to or taken
off the list, if the build was made for another interpreter, or if
``DECKLAB_PURE=1`` is set, *every* ``decklab`` module is loaded from its
``.py`` file instead (all or nothing: compiled modules call each other
natively, so a mix would run old code). A stale build also warns, once.

This module is imported by the package's ``__init__`` and by ``setup.py``, so it
uses the standard library only and is never compiled itself.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

COMPILED: tuple[str, ...] = (
    "decklab.cards",
    "decklab.engine.chance",
    "decklab.engine.info",
    "decklab.engine.state",
    "decklab.games.cabin.expert",
    "decklab.games.cabin.greedy",
    "decklab.games.cabin.metrics",
    "decklab.games.cabin.solver",
    "decklab.games.cabin.state",
    "decklab.games.corporation.greedy",
    "decklab.games.corporation.metrics",
    "decklab.games.corporation.state",
    "decklab.games.facade.greedy",
    "decklab.games.facade.scoring",
    "decklab.games.facade.state",
    "decklab.games.lonely_face.greedy",
    "decklab.games.lonely_face.metrics",
    "decklab.games.lonely_face.state",
    "decklab.games.lonely_face.tables",
    "decklab.games.notorious.greedy",
    "decklab.games.notorious.metrics",
    "decklab.games.notorious.state",
    "decklab.bots.base",
    "decklab.bots.greedy",
    "decklab.bots.search",
    "decklab.bots.ismcts",
    "decklab.bots.pimc",
    "decklab.bots.cheat",
)
"""Modules compiled by mypyc, by name. Everything else in the package stays interpreted:
the command line, the Textual table, records, the lab, the server, layouts, stories and
encodings (they use Typer/Rich/Textual or are not on the hot path). The games' event hooks
(``metrics``) are compiled: the lab calls one on every game of a million-game run."""

MANIFEST = "_native.json"
"""What the build compiled and from which sources; written by ``setup.py``, not committed."""

PACKAGE_DIR = Path(__file__).resolve().parent
SRC_ROOT = PACKAGE_DIR.parent

PURE_ENV = "DECKLAB_PURE"


class StaleBuildWarning(RuntimeWarning):
    """The compiled modules were built from other sources than the ones on disk."""


def source_path(module: str, root: Path = SRC_ROOT) -> Path:
    """The ``.py`` file of a module under ``root`` (the folder that holds ``decklab/``)."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_digests(
    modules: Sequence[str] = COMPILED, root: Path = SRC_ROOT
) -> dict[str, str | None]:
    """Each module's source hash (None for a module whose source is missing)."""
    out: dict[str, str | None] = {}
    for module in modules:
        path = source_path(module, root)
        out[module] = digest(path) if path.is_file() else None
    return out


def interpreter_tag() -> str:
    """What a compiled extension is bound to: implementation, version and ABI suffix."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return f"{sys.implementation.cache_tag}{suffix}"


def manifest_data(modules: Sequence[str] = COMPILED, root: Path = SRC_ROOT) -> dict[str, object]:
    """The manifest a build of ``modules`` from the sources under ``root`` writes."""
    return {
        "interpreter": interpreter_tag(),
        "modules": source_digests(modules, root),
    }


def stale_reason(package_dir: Path = PACKAGE_DIR) -> str | None:
    """Why the compiled build under ``package_dir`` may not be used, or None if it may.

    ``"not built"`` when there is no manifest; otherwise a sentence naming the
    first difference found.
    """
    path = package_dir / MANIFEST
    try:
        built = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "not built"
    except (OSError, ValueError) as exc:
        return f"unreadable {MANIFEST}: {exc}"
    if not isinstance(built, dict) or not isinstance(built.get("modules"), dict):
        return f"malformed {MANIFEST}"
    if built.get("interpreter") != interpreter_tag():
        return f"built for {built.get('interpreter')}, running {interpreter_tag()}"
    compiled = built["modules"]
    if sorted(compiled) != sorted(COMPILED):
        return "the list of compiled modules changed since the build"
    now = source_digests(COMPILED, package_dir.parent)
    for module in COMPILED:
        if compiled[module] != now[module]:
            return f"{source_path(module, package_dir.parent)} changed since it was compiled"
    return None


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Loads every ``decklab`` module from its ``.py`` file, never from an extension."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("decklab.") or path is None:
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path:
            candidate = Path(entry) / f"{leaf}.py"
            if candidate.is_file():
                return importlib.util.spec_from_file_location(fullname, candidate)
        return None  # a package or something else: the normal machinery decides


BUILD = "pure"
"""``"compiled"`` or ``"pure"``: the build this process runs (set by :func:`activate`)."""

REASON = ""
"""Why this process runs pure Python (empty when it runs the compiled build)."""


def activate() -> str:
    """Decide the build for this process (once, from ``decklab/__init__``); return it."""
    global BUILD, REASON
    if any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        return BUILD
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        reason: str | None = f"{PURE_ENV}={os.environ[PURE_ENV]}"
    else:
        reason = stale_reason()
        if reason is not None and reason != "not built":
            warnings.warn(
                f"decklab: the compiled modules are out of date ({reason}); running pure "
                "Python, which is slower. `make build` recompiles them.",
                StaleBuildWarning,
                stacklevel=3,
            )
    if reason is None:
        BUILD, REASON = "compiled", ""
    else:
        BUILD, REASON = "pure", reason
        sys.meta_path.insert(0, _SourceFirst())
    return BUILD
