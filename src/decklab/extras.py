"""Which optional extra a command needs, said in one line instead of a traceback.

A plain ``pip install decklab`` has what playing and serving need. The lab's
commands (ratings, Parquet results, plots) need the ``lab`` extra, the adapters the
``rl`` extra. A command calls :func:`require` before doing any work, so a plain
install is told at once what to install and exits 2, rather than playing every
game and then dying on an import; ``decklab.cli.main`` turns a missing optional
module met anywhere else into the same one line.
"""

from __future__ import annotations

import importlib.util

from decklab.engine.errors import DecklabError

EXTRA_OF = {
    "numpy": "lab",
    "pyarrow": "lab",
    "matplotlib": "lab",
    "pettingzoo": "rl",
    "gymnasium": "rl",
    "pyspiel": "rl",
    "open_spiel": "rl",
    "ray": "cluster",
}
"""Optional top-level modules and the extra that brings each."""


class MissingExtra(DecklabError):
    """A command needs a module of an extra that is not installed."""

    def __init__(self, command: str, module: str) -> None:
        extra = EXTRA_OF.get(module, "lab")
        self.extra = extra
        super().__init__(
            f"decklab {command} needs {module}, which is in an extra: "
            f"pip install 'decklab[{extra}]'"
        )


def missing(*modules: str) -> list[str]:
    """The modules of ``modules`` that cannot be imported here."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def require(command: str, *modules: str) -> None:
    """Raise :class:`MissingExtra` for the first of ``modules`` that is not installed."""
    absent = missing(*modules)
    if absent:
        raise MissingExtra(command, absent[0])


def explain(exc: ModuleNotFoundError, command: str) -> MissingExtra | None:
    """The one-line error for an optional module missing at run time, else None."""
    top = (exc.name or "").partition(".")[0]
    return MissingExtra(command, top) if top in EXTRA_OF else None
