"""A game's core choices, as restricted play bars them: by action text, or by the position.

Each game declares its core choices in ``decklab.games.<package>.choices`` (found
the way ``greedy.py`` is, so nothing here names a game)::

    def choices() -> list[dict[str, Any]]:
        return [
            {"name": "face up", "pattern": " up$", "about": "..."},
            {"name": "sticking", "when": sticks, "about": "...", "options": {}},
        ]

A choice says which legal actions it covers in one of two ways, or both (then an
action must meet both):

- ``pattern``: a regular expression searched (case-insensitive) in the canonical
  action string, as the lab's ``restrict=`` takes it. Enough when the move's kind
  shows in its text (a card played face up).
- ``when``: a predicate ``when(state, seat, action) -> bool``. Needed when what
  makes a move that kind of move is the position, not the text: a bid with the
  bidder's highest card *in hand*, a value that *is* the Corporation's meeting
  point. The predicate reads only what ``seat`` knows (its own hand, the public
  table), as a player choosing that way would; it must not change ``state``.

An agent barred from a choice is named by the choice's name (``never=NAME`` in a
lab agent spec; spaces, ``-`` and ``_`` are the same), never by a function: a
spec is a string that a worker process or a Ray node turns into an agent again,
and the predicate is looked up there through the game's ``choices`` module. The
predicate is plain interpreted Python, so the same code runs on both builds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from decklab.engine.errors import DecklabError
from decklab.engine.gamecode import game_function
from decklab.engine.state import GameState

Predicate = Callable[[GameState, int, int], bool]
"""``when(state, seat, action)``: is this legal action of ``seat`` an instance of the choice?"""

ChoicesFn = Callable[[], list[dict[str, Any]]]


class ChoiceError(DecklabError):
    """A declared choice that cannot be used (no name, a bad pattern, an unknown name)."""


@dataclass(frozen=True)
class Choice:
    """One core choice of a game: the legal actions matching ``pattern`` and ``when``."""

    name: str
    pattern: str = ""
    about: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    when: Predicate | None = None

    def covers(self, state: GameState, seat: int, action: int) -> bool:
        """Is ``action`` (legal for ``seat``) one of the moves this choice names?"""
        if self.pattern and not re.search(
            self.pattern, state.action_to_string(seat, action), re.IGNORECASE
        ):
            return False
        return self.when is None or bool(self.when(state, seat, action))

    @property
    def key(self) -> str:
        return choice_key(self.name)


def choice_key(name: str) -> str:
    """The form names are compared in: ``High bids`` = ``high-bids`` = ``high_bids``."""
    return re.sub(r"[\s_-]+", "-", name.strip().lower())


def parse_choice(raw: Mapping[str, Any]) -> Choice:
    """A declared choice, checked: a name, and a pattern the lab accepts or a predicate."""
    name, pattern = str(raw.get("name", "")), str(raw.get("pattern") or "")
    when = raw.get("when")
    if not name or not (pattern or when is not None):
        raise ChoiceError(f"a choice needs a name and a pattern or a predicate, not {dict(raw)!r}")
    if "," in name or "=" in name:
        raise ChoiceError(f"choice {name!r}: a name cannot hold ',' or '=' (it goes in a spec)")
    if "," in pattern or "=" in pattern:
        raise ChoiceError(f"choice {name!r}: write a comma as \\x2c and avoid '='")
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ChoiceError(f"choice {name!r}: {pattern!r} is not a pattern ({exc})") from None
    if when is not None and not callable(when):
        raise ChoiceError(f"choice {name!r}: 'when' must be a function (state, seat, action)")
    return Choice(
        name,
        pattern,
        str(raw.get("about", "")),
        dict(raw.get("options") or {}),
        cast(Predicate | None, when),
    )


_FOUND: dict[type[GameState], list[Choice]] = {}


def game_choices(cls: type[GameState]) -> list[Choice]:
    """The choices the game's ``choices`` module declares (empty without one); kept per class."""
    if cls not in _FOUND:
        fn = cast(ChoicesFn | None, game_function(cls, "choices", "choices"))
        _FOUND[cls] = [] if fn is None else [parse_choice(raw) for raw in fn()]
    return _FOUND[cls]


def find_choice(cls: type[GameState], name: str) -> Choice:
    """The declared choice called ``name``; :class:`ChoiceError` listing the known ones."""
    key = choice_key(name)
    declared = game_choices(cls)
    for choice in declared:
        if choice.key == key:
            return choice
    known = ", ".join(c.name for c in declared) or "none"
    raise ChoiceError(f"{cls.info.title} declares no choice {name!r} (its choices: {known})")
